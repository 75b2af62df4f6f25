"""Maracaibo's story campaigns (issue 23; docs/rules/maracaibo-campaign.md): option ``campaign``.

Two stories ("books"), read by the same code: the base game's (``data/campaign/story.json``) and
the Uprising's (``data/campaign/uprising.json``: from card 150, legacy tiles L1, L4, L30, with the
Home Ports; option ``mode=campaign``). ``mode=campaign_base`` plays the base story with the
expansion's Home Ports. One player plays a campaign against Jean or Jacques (the votes are theirs).

SUBSTITUTE CONTENT: the story cards (``data/campaign/story.json``, ``uprising.json``) and the disc
tiles (``data/campaign/tiles.json``) are this project's own, short and original, not the published story.

``state["story"]`` holds the campaign during a game:

- ``book``: which story (``base``, ``uprising``; a state saved before the Uprising's: ``base``);
- ``modules``: the expansion's modules the story added to this game (Resistance Tiles), fixed at
  setup; ``modules_next``: those it adds from the next game on;
- ``game``: which game of the campaign this is (1 for the first);
- ``pile``: the story cards not yet revealed, top first (hidden: the view says how many);
- ``board``: the story cards in play, front up (their requirements are public), in the order revealed;
- ``unread``: cards added at final scoring: into the archive without following their front;
- ``claims``: card -> the seat that fulfilled its story-tile requirement (and claimed the tile);
- ``tiles``: the four story tiles of this game, each the seat that claimed it or None;
- ``discs``: disc tile -> the seats of the discs placed on it, one entry a disc;
- ``read``: the cards read, in order; ``log``: what each told and what the vote chose;
- ``flags``: what the votes decided (later cards branch on them); ``tucked``: per seat, the cards
  tucked under its ship board; ``c_cards``: the C-cards the story unlocked (in the A-cards from the
  next game on); ``results``: the games played so far (scores, winners); ``ended``: the story's end.

Frames: ``story`` (reads the next fulfilled card at scoring step 6, by itself), ``vote`` (every seat at
once, hidden until all voted), ``rstart`` (step 7 after an interim scoring) and ``gameover`` (the end
of the game after the final step 6).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from engine.core import BadArchive, Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import coop, legacyboard, legacytiles, scenarios
from . import uprising_content as U
from .archive_upgrade import ARCHIVE_VERSION, upgrade_archive
from .board import HANDLERS, opt, stack, take_marker
from .effects import count_of, gain, player, who

_DATA = Path(str(resources.files("engine.games.maracaibo"))) / "data" / "campaign"


def _load(name: str) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((_DATA / name).read_text(encoding="utf-8"))
    return found


STORY: dict[str, Any] = _load("story.json")
TILES: dict[str, Any] = _load("tiles.json")
#: the stories, by book: the base game's and the Uprising's
BOOKS: dict[str, dict[str, Any]] = {"base": STORY, "uprising": _load("uprising.json")}
BOOK_CARDS: dict[str, dict[int, dict[str, Any]]] = {b: {c["id"]: c for c in d["cards"]} for b, d in BOOKS.items()}
CARD: dict[int, dict[str, Any]] = BOOK_CARDS["base"]
START: list[int] = list(STORY["start"])
DISC_TILE: dict[str, dict[str, Any]] = {t["id"]: t for t in TILES["disc_tiles"]}
STORY_TILES: list[dict[str, Any]] = TILES["story_tiles"]
LABEL: str = STORY["label"]
#: the game modes of a campaign played with the expansion (the Home Ports): the Uprising's story,
#: and the base story (the rulebook: "you can also choose to play the base game campaign using this
#: expansion"); the mode ``basic`` plays the base story on the new boards without the Home Ports
MODES = ("campaign", "campaign_base")
#: the modes a campaign plays in (base and basic: the base story without the Home Ports)
PLAYS_IN = ("base", "basic", "campaign", "campaign_base")
MODE_HELP = ("; campaign (with option campaign: the Uprising's story, Home Ports) or campaign_base (the base "
             "game's story with the Home Ports)")
#: the scenarios whose games a campaign card may play (their campaign versions: 184 is 79's, 185 is 193's)
SCENARIO_MODES = ("79", "193")
#: the modules a story may add from a later game on (the Uprising's rulebook: after the first game)
ADDABLE_MODULES = ("uprising", "resistance")


def active(state: State) -> bool:
    return "story" in state


def book(state: State) -> str:
    """Which story the campaign tells (a state saved before the Uprising's story: the base one)."""
    return str(state["story"].get("book", "base"))


def cards(state: State) -> dict[int, dict[str, Any]]:
    return BOOK_CARDS[book(state)]


def book_of(options: Mapping[str, Any]) -> str:
    """The story a first game's options ask for: mode ``campaign`` the Uprising's, else the base one."""
    return "uprising" if str(options.get("mode", "base")) == "campaign" else "base"


def options_for(options: Mapping[str, Any], archive: Mapping[str, Any]) -> dict[str, Any]:
    """The options a game set up from ``archive`` plays: the campaign, and the mode its story needs
    (the Uprising's story is played in mode ``campaign``; the base story with the expansion in
    ``campaign_base``). Why not refuse a mismatch: the group's options stay the campaign's, and the
    archive, not the options, says which story goes on."""
    mode = str(options.get("mode", "base"))
    story_book = str(archive.get("story", {}).get("book", "base"))
    if story_book == "uprising":
        mode = "campaign"
    elif mode == "campaign":
        mode = "campaign_base"
    return {**options, "campaign": True, "mode": mode}


def scenario_of(archive: Mapping[str, Any]) -> str | None:
    """The scenario whose game the next game plays (the Uprising's rulebook, "Agitação (cartas 79/184)",
    "O Resgate (cartas 193/185)"): a story card that is the campaign's version of a scenario card
    (``"scenario"`` in its data: 184 is 79's, 185 is 193's) on the archive's board or added unread.
    None: the story's own mode."""
    s = archive.get("story", {})
    book_cards = BOOK_CARDS.get(str(s.get("book", "base")), {})
    for cid in [*s.get("board", ()), *s.get("unread", ())]:
        scen = book_cards.get(cid, {}).get("scenario") if isinstance(cid, int) else None
        if scen:
            return str(scen)
    return None


def scenario_options(options: Mapping[str, Any], archive: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a game set up from ``archive`` once its story's mode is checked: the scenario's
    mode (79, 193) when a scenario's campaign card is in play (:func:`scenario_of`). Why not in
    :func:`options_for`: the group's options (the service keeps them for every game) stay the story's;
    only this game plays the scenario's."""
    scen = scenario_of(archive)
    return {**options, "mode": scen} if scen else dict(options)


def scenario_game(state: State) -> str | None:
    """The scenario a campaign game plays (79, 193), or None (the story's mode)."""
    m = str(state["options"].get("mode", "base"))
    return m if "story" in state and m in SCENARIO_MODES else None


# ---- setup -----------------------------------------------------------------------------------


def prepare(state: State) -> None:
    """Before the table is set: the story from the archive given (``archive_in``) or a new one."""
    n = len(state["players"])
    archive = state.get("archive_in")
    if archive is None:
        b = BOOKS[book_of(state["options"])]
        start = list(b["start"])
        story: dict[str, Any] = {
            "book": b.get("book", "base"), "modules": [], "modules_next": [],
            "game": 1, "pile": [c for c in sorted(BOOK_CARDS[b.get("book", "base")]) if c not in start], "board": [],
            "unread": start, "read": [], "log": [], "flags": [], "tucked": [[] for _ in range(n)], "c_cards": [],
            "discs": {}, "results": [], "legacy": list(b.get("legacy", [])),
        }
    else:
        archive = upgrade_archive(archive)  # (an archive of an older version: archive_upgrade.py)
        a = archive["story"]
        story = {
            "book": a["book"], "modules": list(a["modules"]), "modules_next": [],
            "game": int(archive["game"]) + 1, "pile": list(a["pile"]), "board": list(a["board"]),
            "unread": list(a["unread"]), "read": list(a["read"]), "log": list(a["log"]), "flags": list(a["flags"]),
            "tucked": [list(t) for t in a["tucked"]], "c_cards": list(a["c_cards"]),
            "discs": {k: list(v) for k, v in a["discs"].items()}, "results": list(archive["results"]),
            "legacy": list(archive["legacy"]),
        }
    story["claims"] = {}
    story["tiles"] = [None] * len(STORY_TILES)
    story["ended"] = False
    state["story"] = story


def begin(state: State, ev: list[Event]) -> None:
    """After the table is set: the cards in play place their quests and disc tiles again; the cards
    added unread at the last game's final scoring are revealed now (their fronts followed)."""
    story = state["story"]
    new = [t for t in story.pop("legacy", ()) if t not in C.LEGACY]  # (the base tiles: in state["legacy"])
    if book(state) != "base" or new:  # the Uprising's tiles: played ones, and those placed but not played
        state["legacy_new"] = [t for t in new if _played(state, t)]
        state["legacy_unplayed"] = [t for t in new if not _played(state, t)]
        # what lies on them starts empty each game (as in scenarios 78, 79: scenarios.set_legacy)
        state["legacy_board"] = legacyboard.new_board(state["legacy_new"])
    for cid in story["board"]:
        _follow_front(state, cid, ev)
    unread, story["unread"] = story["unread"], []
    for cid in unread:
        reveal(state, cid, ev)


def _played(state: State, tid: str) -> bool:
    """An Uprising tile the rules play: a space (legacytiles.py) or a route tile (legacyboard.py: L30...);
    in a game set up by an older release that played fewer, those it played (scenarios.RELEASES)."""
    old = scenarios.release(state)
    if old and "plays" in old:
        return tid in old["plays"]
    return legacytiles.played(tid) or legacyboard.played(tid)


def start_legacy(state: State) -> list[str]:
    """The base game's legacy tiles on the board (the Uprising's are placed by :func:`begin`)."""
    return [t for t in state["story"]["legacy"] if t in C.LEGACY]


def start_cards(state: State) -> list[int]:
    """The C-cards shuffled into the A-cards: those the story unlocked in the games before."""
    return list(state["story"]["c_cards"])


def reveal(state: State, cid: int, ev: list[Event]) -> None:
    """A new story card on the board: its front is followed (quests, a disc tile)."""
    story = state["story"]
    story["board"] = [*story["board"], cid]
    c = cards(state)[cid]
    ev.append(new_event("story_card", f"Story card {cid} is revealed: {c['title']}. {c['front']['text']} "
                        f"({requirement_text(state, cid)})", {"card": cid}, reveals=True))
    _follow_front(state, cid, ev)


def _follow_front(state: State, cid: int, ev: list[Event]) -> None:
    front = cards(state)[cid]["front"]
    for t in front.get("remove_legacy", ()):
        remove_legacy(state, t, cid, ev)
    tile = front.get("discs")
    if tile and tile not in state["story"]["discs"]:
        state["story"]["discs"] = {**state["story"]["discs"], tile: []}
    q = front.get("quests")
    if not q:
        return
    locs = list(q["all"]) + (list(q["three"]) if len(state["players"]) >= 3 else [])
    placed = []
    for loc in locs:
        if loc in state["quests"] or not state["quest_pile"]:
            continue
        state["quests"][loc] = state["quest_pile"].pop(0)
        placed.append(f"{state['quests'][loc]} at {loc}")
    if placed:
        ev.append(new_event("quests", f"Story card {cid} brings new quests: " + ", ".join(placed) + ".",
                            {"at": locs}, reveals=True))


#: a tile requirement's metric in words
_METRIC = {"quest": "quests fulfilled", "combat": "combat tokens", "explorer": "explorer spaces",
           "influence": "influence (all nations)", "display": "cards in the display"}


def requirement_text(state: State, cid: int) -> str:
    req = cards(state)[cid]["front"]["requires"]
    if req["kind"] == "tile":
        return f"the first player with {req['at_least']} {_METRIC[req['metric']]} claims a story tile; read at scoring"
    if req["kind"] == "discs":
        t = DISC_TILE[req["tile"]]
        return f"read when {t['name']} ({t['id']}, location {t['loc']}) is full of discs"
    return "read at final scoring"


# ---- during the game: story tiles, disc tiles ------------------------------------------------------


def turn_end(state: State, seat: int, rng: Rng, ev: list[Event]) -> None:
    """At the end of a seat's turn: the story-tile requirements it now meets, in card order."""
    story = state["story"]
    p = player(state, seat)
    for cid in sorted(story["board"]):
        req = cards(state)[cid]["front"]["requires"]
        if req["kind"] != "tile" or str(cid) in story["claims"]:
            continue
        if count_of(p, req["metric"]) < req["at_least"]:
            continue
        story["claims"] = {**story["claims"], str(cid): seat}
        free = [i for i, by in enumerate(story["tiles"]) if by is None]
        if free:
            i = free[0]
            story["tiles"] = [*story["tiles"][:i], seat, *story["tiles"][i + 1:]]
            ev.append(new_event("story_tile", f"{who(state, seat)} fulfils story card {cid} ({req['at_least']} "
                                f"{_METRIC[req['metric']]}) and claims story tile {i + 1}.",
                                {"seat": seat, "card": cid}))
            gain(state, seat, STORY_TILES[i]["gain"], rng, ev, "story")
        else:
            ev.append(new_event("story_tile", f"{who(state, seat)} fulfils story card {cid}; no story tile is "
                                "left to claim.", {"seat": seat, "card": cid}))


def _tile_full(state: State, tid: str) -> bool:
    size = DISC_TILE[tid]["size"][str(max(2, len(state["players"])))]
    return len(state["story"]["discs"].get(tid, ())) >= int(size)


def village_options(state: State, seat: int, suffix: str) -> Iterator[Option]:
    """The village action of a disc tile in the seat's village: pay, place a disc, gain (repeatable)."""
    p = player(state, seat)
    for tid in state["story"]["discs"]:
        t = DISC_TILE[tid]
        if t["loc"] == p["at"] and not _tile_full(state, tid) and p["doubloons"] >= t["cost"]["d"]:
            yield opt(f"w{tid}", f"village action: build {t['name']}, pay {C.counted(t['cost']['d'], 'doubloon')} for "
                      f"{C.gain_text(t['gain'])}{suffix}")


def do_build(state: State, seat: int, code: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    tid = code[1:]
    t = DISC_TILE[tid]
    p = player(state, seat)
    p["doubloons"] -= t["cost"]["d"]
    placed = [*state["story"]["discs"][tid], seat]
    state["story"]["discs"] = {**state["story"]["discs"], tid: placed}
    size = DISC_TILE[tid]["size"][str(max(2, len(state["players"])))]
    ev.append(new_event("story_disc", f"{who(state, seat)} pays {C.counted(t['cost']['d'], 'doubloon')} and places a "
                        f"disc on {t['name']} ({len(placed)} of {size}).", {"seat": seat, "tile": tid}))
    return gain(state, seat, t["gain"], rng, ev, "story")


# ---- scoring step 6: reading, votes, new cards -----------------------------------------------


def fulfilled(state: State, final: bool) -> list[tuple[int, int]]:
    """The cards on the board whose requirements hold, in increasing number, with their reader."""
    story = state["story"]
    trigger = state["trigger"] if state["trigger"] is not None else state["turn"]
    out = []
    for cid in sorted(story["board"]):
        req = cards(state)[cid]["front"]["requires"]
        if req["kind"] == "tile" and str(cid) in story["claims"]:
            out.append((cid, int(story["claims"][str(cid)])))
        elif (req["kind"] == "discs" and _tile_full(state, req["tile"])) or (req["kind"] == "final" and final):
            out.append((cid, int(trigger)))
    return out


def step6(state: State, seat: int, mode: str) -> list[Frame]:
    """Scoring step 6 and what follows it, in asking order."""
    after = frame("rstart", seat) if mode == "interim" else frame("gameover", seat)
    return [frame("story", seat, mode=mode), after]


def _story_options(state: State, f: Frame) -> list[Option]:
    found = fulfilled(state, f["data"]["mode"] == "final")
    if not found:
        return []
    cid = found[0][0]
    return [opt("read", f"read story card {cid}")]


def _story_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    final = f["data"]["mode"] == "final"
    cid, reader = fulfilled(state, final)[0]
    story = state["story"]
    c = cards(state)[cid]
    back = c["back"]
    story["board"] = [x for x in story["board"] if x != cid]
    story["read"] = [*story["read"], cid]
    tile = c["front"].get("discs")
    if tile:  # the tile has done its part: off the board
        story["discs"] = {k: v for k, v in story["discs"].items() if k != tile}
    ev.append(new_event("story_read", f"{who(state, reader)} reads story card {cid}, {c['title']}: {back['text']}",
                        {"card": cid, "seat": reader}, reveals=True))
    story["tucked"] = [[*t, cid] if i == reader else t for i, t in enumerate(story["tucked"])]
    story["log"] = [*story["log"], {"card": cid, "game": story["game"], "reader": reader}]
    frames = _effects(state, back, reader, rng, ev, final, cid)
    again = frame("story", seat, mode=f["data"]["mode"])
    if "vote" in back:
        seats = range(len(state["players"]))
        # (it said "Alice breaks a tie." before anyone voted: read as if a tie had been broken)
        ev.append(new_event("vote_open", f"Vote on story card {cid}: " + "; ".join(
            f"vote {k} ({v['label']})" for k, v in back["vote"].items())
            + f". If the vote is tied, {who(state, reader)} decides.", {"card": cid}))
        frames.append(frame("vote", seats=seats, card=cid, reader=reader, votes={}, mode=f["data"]["mode"]))
    stack(state).push_all([*frames, again])
    return ev


def _effects(state: State, eff: Mapping[str, Any], reader: int, rng: Rng, ev: list[Event],
             final: bool, back_of: int | None = None) -> list[Frame]:
    """A card's back (``back_of``: that card) or a vote's outcome: flags, legacy tiles, gains, C-cards,
    new cards (as the release that set the game up had them: scenarios.story_next), the end."""
    story = state["story"]
    frames: list[Frame] = []
    if "flag" in eff and eff["flag"] not in story["flags"]:
        story["flags"] = [*story["flags"], eff["flag"]]
    for t in eff.get("legacy", ()):
        add_legacy(state, t, ev)
    for seat in range(len(state["players"])):
        if "all" in eff:
            frames += gain(state, seat, eff["all"], rng, ev, "story")
    if "reader" in eff:
        frames += gain(state, reader, eff["reader"], rng, ev, "story")
    added = [m for m in eff.get("modules", ()) if m not in story.get("modules", ()) and m not in
             story.get("modules_next", ())]
    if added:  # (not in this game: its boards are set)
        story["modules_next"] = [*story.get("modules_next", []), *added]
        ev.append(new_event("story_modules", "From the next game the campaign plays with the "
                            + ", ".join(U.MODULES[m]["name"] if m in U.MODULES and "name" in U.MODULES[m] else m
                                        for m in added) + ".", {"modules": added}))
    new = [c for c in eff.get("unlock", ()) if c not in story["c_cards"]]
    if new:
        story["c_cards"] = [*story["c_cards"], *new]
        ev.append(new_event("story_cards", "C-cards " + ", ".join(C.CARD[c]["name"] for c in new)
                            + " join the A-cards from the next game.", {"cards": new}))
    nexts = eff.get("next", ()) if back_of is None else scenarios.story_next(state, book(state), back_of, eff)
    for entry in nexts:
        cid = entry if isinstance(entry, int) else (entry["then"] if entry["if"] in story["flags"] else entry["else"])
        if cid not in story["pile"]:
            continue
        at = story["pile"].index(cid)
        story["pile"] = [*story["pile"][at + 1:], *story["pile"][:at]]  # the skipped cards to the bottom
        if final:
            story["unread"] = [*story["unread"], cid]
            ev.append(new_event("story_card", f"Story card {cid} is added to the board for the next game; "
                                "it goes into the archive unread.", {"card": cid}))
        else:
            reveal(state, cid, ev)
    if eff.get("end"):
        story["ended"] = True
        ev.append(new_event("story_end", "The story of the campaign has ended.", {}))
    return frames


def add_legacy(state: State, tid: str, ev: list[Event]) -> None:
    if tid not in C.LEGACY:  # the Uprising's tiles: a space played (L34-L36), or placed, not played yet
        key = "legacy_new" if _played(state, tid) else "legacy_unplayed"
        if tid in state.get("legacy_new", ()) or tid in state.get("legacy_unplayed", ()):
            return
        state[key] = [*state.get(key, []), tid]
        state.setdefault("legacy_new" if key == "legacy_unplayed" else "legacy_unplayed", [])
        if legacyboard.played(tid):
            state["legacy_board"] = {**state.get("legacy_board", {}), **legacyboard.new_board([tid])}
        u = U.LEGACY[tid]
        ev.append(new_event("legacy_tile", f"Legacy tile {tid} ({u['name']}) joins the board"
                            + ("." if key == "legacy_new" else " (placed; its rules are not played yet)."),
                            {"tile": tid}, reveals=True))
        return
    if tid in state["legacy"]:
        return
    state["legacy"] = [*state["legacy"], tid]
    t = C.LEGACY[tid]
    text = f"Legacy tile {tid} ({t['name']}) joins the board: {t['text']}."
    if t["kind"] == "marker" and t["loc"] not in state["markers"] and take_marker(state, t["nation"]):
        state["markers"] = {**state["markers"], t["loc"]: t["nation"]}
    elif t["kind"] == "marker":
        text += " (its location is taken: no marker is placed)"
    ev.append(new_event("legacy_tile", text, {"tile": tid}, reveals=True))


def remove_legacy(state: State, tid: str, cid: int, ev: list[Event]) -> None:
    """A story card removes a legacy tile from the board (the Uprising's card 185: the tiles it names)."""
    for key in ("legacy_new", "legacy_unplayed"):
        if tid in state.get(key, ()):
            state[key] = [t for t in state[key] if t != tid]
            if tid in state.get("legacy_board", {}):
                state["legacy_board"] = {k: v for k, v in state["legacy_board"].items() if k != tid}
            ev.append(new_event("legacy_removed", f"Story card {cid} removes legacy tile {tid} "
                                f"({U.LEGACY[tid]['name']}) from the board.", {"tile": tid}))


def _vote_options(state: State, f: Frame) -> list[Option]:
    cid = f["data"]["card"]
    return [opt(f"vote{k}", f"vote {k} ({vote_words(v)})") for k, v in _choices(state, cid).items()]


def _choices(state: State, cid: int) -> dict[str, Any]:
    """Story card ``cid``'s vote, its choices as the release that set the game up had them (scenarios)."""
    return scenarios.story_votes(state, book(state), cid, cards(state)[cid]["back"]["vote"])


def vote_words(choice: Mapping[str, Any]) -> str:
    """What a vote's choice does, from the story card's data (QA, #23: the options read only "vote spain /
    vote england"): its label, then what it gives at once: "to the Spanish at Cartagena: every player
    1 VP; legacy tile L9 joins the board". Which story card follows is not said (the card tells it)."""
    does = []
    if choice.get("all"):
        does.append(f"every player {C.gain_text(choice['all'])}")
    if choice.get("reader"):
        does.append(f"the reader {C.gain_text(choice['reader'])}")
    does += [f"legacy tile {t} joins the board" for t in choice.get("legacy", ())]
    if choice.get("modules"):
        does.append("from the next game with " + ", ".join(str(m).replace("_", " ") for m in choice["modules"]))
    return str(choice["label"]) + (": " + "; ".join(does) if does else "")


def _vote_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    d = f["data"]
    choice = o.code[4:]
    d["votes"][str(seat)] = choice
    ev = [new_event("vote", f"You vote {choice}.", {"card": d["card"], "choice": choice}, to=(seat,)),
          new_event("voted", f"{who(state, seat)} has voted.", {"seat": seat})]
    stack(state).done_for(seat)
    if len(d["votes"]) < len(state["players"]):
        return ev
    cid, reader = d["card"], d["reader"]
    choices = list(cards(state)[cid]["back"]["vote"])
    tally = {k: sum(1 for v in d["votes"].values() if v == k) for k in choices}
    most = max(tally.values())
    tied = [k for k in choices if tally[k] == most]
    won = d["votes"][str(reader)] if d["votes"][str(reader)] in tied else tied[0]
    votes = ", ".join(f"{who(state, int(s))} {v}" for s, v in sorted(d["votes"].items(), key=lambda x: int(x[0])))
    outcome = _choices(state, cid)[won]
    ev.append(new_event("vote_result", f"The vote on story card {cid}: {votes}. Chosen: {won} ({outcome['label']})"
                        + (f", {who(state, reader)} breaking the tie" if len(tied) > 1 else "")
                        + f". {outcome['text']}", {"card": cid, "votes": dict(d["votes"]), "choice": won},
                        reveals=True))
    story = state["story"]
    story["log"] = [*story["log"][:-1], {**story["log"][-1], "choice": won, "tally": tally}] \
        if story["log"] and story["log"][-1]["card"] == cid else story["log"]
    stack(state).push_all(_effects(state, outcome, reader, rng, ev, d["mode"] == "final"))
    return ev


def _go_options(state: State, f: Frame) -> list[Option]:
    return [opt("go", "go on")]


def _gameover_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    state["over"] = True
    return [new_event("game_over", f"Game {state['story']['game']} of the campaign is over.", {})]


# ---- the archive ----------------------------------------------------------------------------


def archive(state: State) -> dict[str, Any] | None:
    """What this finished campaign game hands to the next (see the module's docstring)."""
    if "story" not in state or not state["over"]:
        return None
    story = state["story"]
    scores = [int(p["victory_points"]) for p in state["seats"]]
    best = max(scores)
    result: dict[str, Any] = {"game": story["game"], "scores": scores,
                              "winners": [i for i, s in enumerate(scores) if s == best]}
    automa = next((a for a in ("jean", "jacques") if a in state and len(state["players"]) == 1), None)
    if coop.cooperative(state):  # the Rescue's game (card 185): the table wins or loses together
        vp = int(state["jacques"]["victory_points"])
        won = coop.team_result(state).won
        result = {**result, "winners": list(range(len(scores))) if won else [], "team": won,
                  "automa": {"name": "jacques", "vp": vp}}
    elif automa is not None:  # solo: the player wins with more VP than the automa (a tie is the automa's)
        vp = int(state[automa]["victory_points"])
        result = {**result, "winners": [0] if scores[0] > vp else [], "automa": {"name": automa, "vp": vp}}
    if scenario_game(state):
        result = {**result, "scenario": scenario_game(state)}
    results = [*story["results"], result]
    legacy = [*state["legacy"], *state.get("legacy_new", ()), *state.get("legacy_unplayed", ())]
    return {
        "format": "pbem-campaign", "version": ARCHIVE_VERSION, "rules": "maracaibo", "game": story["game"],
        "seats": list(state["players"]), "ended": bool(story["ended"]), "legacy": legacy,
        "results": results,
        "story": {"book": book(state),
                  "modules": [*story.get("modules", ()), *story.get("modules_next", ())],
                  "pile": list(story["pile"]), "board": list(story["board"]), "unread": list(story["unread"]),
                  "read": list(story["read"]), "log": [dict(x) for x in story["log"]], "flags": list(story["flags"]),
                  "tucked": [list(t) for t in story["tucked"]], "c_cards": list(story["c_cards"]),
                  "discs": {k: list(v) for k, v in story["discs"].items()}},
    }


def check_archive(archive: Mapping[str, Any]) -> None:
    """Raise BadArchive naming what is wrong unless a campaign can go on from ``archive`` (an older
    version is checked as it is upgraded)."""
    a = upgrade_archive(archive)
    if a["version"] > ARCHIVE_VERSION:
        raise BadArchive(f"the archive's version {a['version']} is newer than this engine's ({ARCHIVE_VERSION})")
    n = len(a["seats"])
    if a.get("ended") is not False:
        raise BadArchive("the campaign's story has ended: no game follows it" if a.get("ended") is True
                         else "the archive must say whether the story has ended (ended: true or false)")
    for key, kind in (("legacy", list), ("results", list), ("story", dict)):
        if not isinstance(a.get(key), kind):
            raise BadArchive(f"the archive's {key} must be a JSON {'list' if kind is list else 'object'}")
    s = a["story"]
    if s.get("book") not in BOOKS:
        raise BadArchive(f"story.book must be one of {sorted(BOOKS)}, not {s.get('book')!r}")
    if not isinstance(s.get("modules"), list) or any(m not in ADDABLE_MODULES for m in s["modules"]):
        raise BadArchive(f"story.modules must list modules of {list(ADDABLE_MODULES)}")
    legacy = a["legacy"]
    # (the Uprising's story places the expansion's tiles too; never a module's own tile, L40)
    known = set(C.LEGACY) | ({t for t, row in U.LEGACY.items() if not row.get("module")}
                             if s["book"] == "uprising" else set())
    unknown = [t for t in legacy if not isinstance(t, str) or t not in known]
    if unknown:
        raise BadArchive(f"unknown legacy tiles in the archive: {unknown}")
    book_cards = BOOK_CARDS[s["book"]]
    for key in ("pile", "board", "unread", "read", "log", "flags", "tucked", "c_cards"):
        if not isinstance(s.get(key), list):
            raise BadArchive(f"the archive's story.{key} must be a list")
    if not isinstance(s.get("discs"), dict):
        raise BadArchive("the archive's story.discs must be an object")
    found = [*s["pile"], *s["board"], *s["unread"], *s["read"]]
    strange = [c for c in found if type(c) is not int or c not in book_cards]
    if strange:
        raise BadArchive(f"unknown story cards in the archive: {strange}")
    missing = sorted(set(book_cards) - set(found))
    twice = sorted({c for c in found if found.count(c) > 1})
    if missing or twice:
        raise BadArchive(f"every story card must be once in the pile, the board, unread or read: "
                         f"missing {missing}, more than once {twice}")
    if not s["board"] and not s["unread"]:
        raise BadArchive("the archive's story has no card on the board and none unread: it cannot go on")
    if len(s["tucked"]) != n:  # (a seat added or dropped by hand: say so, not only that tucked is wrong)
        raise BadArchive(f"the archive names {n} seat{'s' if n != 1 else ''} (seats) but its story has "
                         f"{len(s['tucked'])} (story.tucked: the cards under each seat's ship board)")
    if not all(isinstance(t, list) and all(type(c) is int for c in t) for t in s["tucked"]) \
            or sorted(c for t in s["tucked"] for c in t) != sorted(s["read"]):
        raise BadArchive("story.tucked must list, for each seat, the read cards tucked under its ship board")
    bad = [c for c in s["c_cards"] if type(c) is not int or c not in C.NUMBERED]
    if bad:
        raise BadArchive(f"story.c_cards names cards that are no C-cards: {bad}")
    for tid, seats in s["discs"].items():
        if tid not in DISC_TILE or not isinstance(seats, list) or any(type(x) is not int or not 0 <= x < n
                                                                      for x in seats):
            raise BadArchive(f"story.discs: {tid!r} must be a disc tile with the seats of its discs")
    if not all(isinstance(f, str) for f in s["flags"]):
        raise BadArchive("story.flags must be words")
    for x in s["log"]:
        if not isinstance(x, dict) or any(type(x.get(k)) is not int for k in ("card", "game", "reader")) \
                or x["card"] not in s["read"] or not 0 <= x["reader"] < n:
            raise BadArchive(f"story.log: {x!r} must say which read card was read in which game by which seat")
    for x in a["results"]:
        if not isinstance(x, dict) or type(x.get("game")) is not int or not isinstance(x.get("scores"), list) \
                or not isinstance(x.get("winners"), list):
            raise BadArchive(f"results: {x!r} must give a game's number, scores and winners")


# ---- the view, and what a seat may not know ----------------------------------------------------


def public(state: State) -> dict[str, Any]:
    story = state["story"]
    n = max(2, len(state["players"]))
    book_cards = cards(state)
    return {
        "label": BOOKS[book(state)]["label"], "book": book(state), "modules": list(story.get("modules", ())),
        "game": story["game"], "pile": len(story["pile"]),
        "board": [{"card": c, "title": book_cards[c]["title"], "front": book_cards[c]["front"]["text"],
                   "requires": requirement_text(state, c), "claimed_by": story["claims"].get(str(c))}
                  for c in story["board"]],
        "unread": list(story["unread"]), "tiles": list(story["tiles"]),
        "discs": {t: {"name": DISC_TILE[t]["name"], "loc": DISC_TILE[t]["loc"],
                      "size": DISC_TILE[t]["size"][str(n)], "by": list(v)} for t, v in story["discs"].items()},
        "read": [{**x, "title": book_cards[x["card"]]["title"], "text": book_cards[x["card"]]["back"]["text"]}
                 for x in story["log"]],
        "flags": list(story["flags"]), "tucked": [list(t) for t in story["tucked"]],
        "c_cards": list(story["c_cards"]), "results": list(story["results"]), "ended": story["ended"],
    }


def text_lines(view: Mapping[str, Any]) -> list[str]:
    """The story part of a view in words, for the board's text."""
    s = view["story"]
    seat_name = view["players"]
    out = [f"STORY: game {s['game']} of the campaign ({s['label']})"]
    for b in s["board"]:
        claimed = f"; claimed by {seat_name[b['claimed_by']]}" if b["claimed_by"] is not None else ""
        out.append(f"  Card {b['card']}, {b['title']}: {b['front']} ({b['requires']}{claimed})")
    for tid, t in s["discs"].items():
        out.append(f"  Disc tile {tid}, {t['name']} at {t['loc']}: {len(t['by'])} of {C.counted(t['size'], 'disc')}")
    tiles = ", ".join(f"{i + 1} {seat_name[x] if x is not None else 'free'}" for i, x in enumerate(s["tiles"]))
    unread = f"; unread: {s['unread']}" if s["unread"] else ""
    out.append(f"  Story tiles: {tiles}. Story pile: {C.counted(s['pile'], 'card')}{unread}.")
    if s["read"]:
        last = s["read"][-1]
        chose = f" (the vote chose {last['choice']})" if "choice" in last else ""
        out.append(f"  Last read: card {last['card']}, {last['title']}: {last['text']}{chose}")
    return out


def resample(state: State, others: list[int], rng: Rng) -> None:
    """The votes others have cast but not yet shown, and the order of the story pile."""
    rng.shuffle(state["story"]["pile"])
    for f in state["stack"]:
        if f["kind"] == "vote":
            choices = list(cards(state)[f["data"]["card"]]["back"]["vote"])
            for s in list(f["data"]["votes"]):
                if int(s) in others:
                    f["data"]["votes"][s] = rng.choice(choices)


HANDLERS["story"] = FunctionHandler(_story_options, _story_resolve)
HANDLERS["vote"] = FunctionHandler(_vote_options, _vote_resolve)
HANDLERS["gameover"] = FunctionHandler(_go_options, _gameover_resolve)
