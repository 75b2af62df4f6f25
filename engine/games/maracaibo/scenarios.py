"""Maracaibo: The Uprising, the competitive scenarios' own setup (rulebook: "Regras de cenário",
"Agitação (cartas 79/184)" and "Tudo incluído (carta 78)"; docs/rules/maracaibo-uprising.md,
"Scenario 78" and "Scenario 79"). Everything is read from the scenario's row of
``data/uprising/tiles.json`` (``scenarios``): no scenario has a code branch of its own.

- ``cards``: the B deck is the base game's B cards, the expansion's new project cards (every
  expansion game adds them: "Adicione as novas cartas de projeto às cartas B") and the numbered
  cards 90-106 (90-99 the base game's, 100-106 the expansion's, Assumption A3), shuffled before the
  40 are counted out. Only the cards whose effects the rules play are dealt
  (``uprising_content.PLAYABLE_CARDS``: the base language and the extensions registered in
  ``PLAYED_EXTENSIONS``); the others wait for their effect-language extensions.
- ``legacy``: the tiles the scenario places (L1, L30; L40 in 78), then three times the top project
  card is revealed (and discarded, face up: Assumption A33) and the tile of ``legacy_by_object`` for
  its object, column 1, 2, 3 in turn, joins them (the ruin L31 with its track L32). The base game's
  tiles are in ``state["legacy"]`` (L1, L4-L9); L40 is played by uprising.py; the new tiles are in
  ``state["legacy_new"]``: the spaces L34-L36 played by legacytiles.py, the new city L30, the discs
  of L33 and L37 by legacyboard.py, the ruin L31/L32 by ruin.py; what lies on them is
  ``state["legacy_board"]`` (all public, in the view's ``uprising_legacy`` and ``legacy_board``).
- the quest tiles: the expansion's 28 replace the base game's 24 ("Substitua as peças de missão");
  they are placed by the scenario's ``quests`` table (by round and player count).
- the new career card joins the base game's careers (Liberation deals its own four instead).
- ``markers`` (79): a marker of each nation on the locations its block lists (France 2-7, Spain
  8-13, England 14-19), taken from the nation's supply; the rest stays in the supply, set aside for
  the markers the scenario places in rounds 2-4 (``markers_by_round``, Assumption A17: at each
  interim scoring, one marker of each nation on the lowest-numbered empty location of its block,
  while its set-aside markers last). No marker on a legacy tile's new location; the base game's
  2-player pre-annexed villages are not placed (A24), and a legacy tile's marker is not placed
  where the scenario has put one already.

SUBSTITUTE CONTENT: the scenario tables are this project's (the scenario cards are not public).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import Event, State, new_event

from . import content as C
from . import coop, coop_releases, homeports, legacyboard, search
from . import uprising_content as U
from .board import has_marker, loc_kind, take_marker

#: the modes of a campaign played with the expansion (campaign.MODES: not imported, campaign imports this)
_CAMPAIGN_MODES = ("campaign", "campaign_base")
#: The setups of older releases, by the option ``release`` (internal, never offered to a player; a new
#: game is ``"current"``), so that a game stored by such a release replays from its seed, options, archive
#: and log (undo, a moderator's rollback, ``manage.py verify_games``) exactly as that release set it up.
#: One row per release whose setup differs from the next one's, named by its first commit, in the order
#: they were written; each row says only what that setup dealt unlike today's:
#:
#: - ``modes``: the modes it set up (78/79 without a story; a campaign's ``campaign``/``campaign_base``);
#: - ``cards``: the expansion's unnumbered new project cards it dealt into the B deck (ascending, the data
#:   order: the shuffle draws alike); ``numbered``: those of 100-106 (ids 230-236) it dealt in 78/79;
#: - ``plays``: the drawn new legacy tiles it played (the others went to ``legacy_unplayed``; absent: all),
#:   ``track``: whether the ruin's track L32 joined a drawn L31; ``city_tiles``: whether the expansion's two
#:   city tiles joined the base game's (78/79); ``quests``: ``"base"`` when a campaign game dealt the base
#:   game's quest tiles; ``story_next``: by story (book) and card, the ``next`` of a story card's back as
#:   that release's story data had it, where it differs from today's (what its scoring did: before 17a12c0
#:   card 151, read at the first game's final scoring, added 155 and 160, not card 184 unread);
#:   ``story_votes``: by story and card, a vote's choices as that release's data had them, where they differ
#:   (before ef92d45 card 150's "join the fight" added the Resistance Tiles alone, not the Uprising module
#:   with them). A row with ``story_votes`` fits only a state whose story shows such a choice taken (its
#:   modules: :func:`_took_old_vote`); a game that has not voted yet cannot be told apart by anything it
#:   holds, replays alike either way, and takes today's choice when it votes (the next row).
#:
#: Which row a stored game was set up by is deduced from what its state holds (:func:`release_of`), never
#: from dates: the cards dealt stay in the game to its end (deck, box, display, hands, discard ...), the
#: drawn tiles in ``legacy_new``/``legacy_unplayed``, the quest tiles in the pile and on the board. Two
#: releases whose setups hold the same are one row. A stored state is stamped with it when the engine
#: upgrades it (upgrade.py, formats 8 and 9) and a replay takes it from there (``Rules.replay_options``),
#: so the next change of what a setup deals needs one row here (the release before it) and, so that stored
#: states say it, one more format step calling :func:`stamp_release` (upgrade.py).
_UPRISING_NUMBERED = (230, 231, 232, 233, 234, 236)
_ALL_NUMBERED = (230, 231, 232, 233, 234, 235, 236)
_SCENARIOS = ("78", "79")
_PLAYED_BEFORE_RUIN = ("L30", "L33", "L34", "L35", "L36", "L37")
#: card 151's back before 17a12c0 (the Uprising's story had no card 184 in its first game's chapter yet)
_NEXT_BEFORE_184: dict[str, dict[int, tuple[int, ...]]] = {"uprising": {151: (155, 160)}}
#: card 150's "join the fight" before ef92d45 (the Uprising's story: the Resistance Tiles alone)
_VOTES_BEFORE_UPRISING: dict[str, dict[int, dict[str, dict[str, Any]]]] = {"uprising": {150: {"join": {
    "text": "From the next game every ship carries the Resistance Tiles.", "modules": ["resistance"]}}}}


#: today's id of a renumbered card that was not first dealt by the generation after its last old id's (a release
#: row's ``renumbered`` counts the changes of every place): the generation that first dealt it. The Powder
#: Monkey's change (#20: card 242 in card 204's place) is the fifth change: generations 0-4 dealt card 204; the
#: Rebel Chronicler's fifth change (card 241 in card 240's place) the sixth: generations 4 and 5 dealt card 240
_FIRST_DEALT_BY = {242: 5, 241: 6}


def _renumbered() -> dict[int, tuple[int, ...]]:
    retired = {int(c["id"]): int(c["retired_for"]) for c in U.RETIRED_CARDS}
    out: dict[int, tuple[int, ...]] = {}
    for first in sorted(set(retired) - set(retired.values())):  # (each place's oldest id, then its successors)
        chain = [first]
        while chain[-1] in retired:
            chain.append(retired[chain[-1]])
        old = chain[:-1]
        old += [old[-1]] * (_FIRST_DEALT_BY.get(chain[-1], len(old)) - len(old))  # (its last old id, dealt on)
        out[chain[-1]] = tuple(old)
    return out


#: today's id of a card whose substitute numbers changed -> the id each generation of releases dealt, oldest
#: first (data/uprising: retired_cards); a release row's ``renumbered`` (0, 1 ...) says which generation its
#: setup was (beyond a card's ids: today's id)
RENUMBERED: dict[int, tuple[int, ...]] = _renumbered()
#: the releases of 78, 79 and a campaign's games (74's and 193's: coop_releases.py) that dealt today's setup
#: but for the renumbered cards, with the ids their ``renumbered`` says (0: the first ids, 4831b6a to
#: 6a0f3d2's parent; 1: the next, 6a0f3d2 to the second change: row 04c0a40; 2: 52a3425 to the third change:
#: row 8b97501; 3: d8e1100 to the fourth change: row 9fa6890; 4: 9c5edb3 to the Powder Monkey's change, card 204
#: where today's deals 242: row 65e19e8; 5: 2eed0d6 to the Rebel Chronicler's fifth change, card 240 where today's
#: deals 241: row 2eed0d6), oldest first
_BEFORE_RENUMBERED = ("4831b6a", "04c0a40", "8b97501", "9fa6890", "65e19e8", "2eed0d6")
RELEASES: dict[str, dict[str, Any]] = {
    # main 6e36af4 to c0d8ac1: 5 new cards, 6 of 100-106, no new tile played (migration 0026 marks them)
    "c0d8ac1": {"modes": _SCENARIOS, "cards": (201, 220, 221, 224, 229), "numbered": _UPRISING_NUMBERED,
                "plays": (), "track": False, "city_tiles": False},
    # 93f71f2 to 0f021dc's parent: the same cards, the new spaces L34-L36 played
    "93f71f2": {"modes": _SCENARIOS, "cards": (201, 220, 221, 224, 229), "numbered": _UPRISING_NUMBERED,
                "plays": ("L34", "L35", "L36"), "track": False, "city_tiles": False},
    # 0f021dc (the registry of played extensions) to 844f917's parent: 11 new cards
    "0f021dc": {"modes": _SCENARIOS, "cards": (201, 214, 215, 218, 220, 221, 222, 223, 224, 228, 229),
                "numbered": _UPRISING_NUMBERED, "plays": ("L34", "L35", "L36"), "track": False,
                "city_tiles": False},
    # 844f917 to bb5188b's parent: 13 new cards, and 105 (235)
    "844f917": {"modes": _SCENARIOS, "cards": (201, 205, 214, 215, 216, 218, 220, 221, 222, 223, 224, 228, 229),
                "numbered": _ALL_NUMBERED, "plays": ("L34", "L35", "L36"), "track": False,
                "city_tiles": False},
    # bb5188b to 7e3c82d's parent: 21 new cards
    "bb5188b": {"modes": _SCENARIOS, "cards": (201, 202, 203, 204, 205, 206, 207, 208, 209, 211, 214, 215, 216,
                                               218, 220, 221, 222, 223, 224, 228, 229),
                "numbered": _ALL_NUMBERED, "plays": ("L34", "L35", "L36"), "track": False,
                "city_tiles": False},
    # 7e3c82d to cc7b30c's parent: bb5188b's cards, L30, L33, L37 played too, the ruin L31 and its track not
    "7e3c82d": {"modes": _SCENARIOS, "cards": (201, 202, 203, 204, 205, 206, 207, 208, 209, 211, 214, 215, 216,
                                               218, 220, 221, 222, 223, 224, 228, 229),
                "numbered": _ALL_NUMBERED, "plays": _PLAYED_BEFORE_RUIN, "track": True,
                "city_tiles": False},
    # cc7b30c to a9244a5's parent: 22 new cards
    "cc7b30c": {"modes": _SCENARIOS, "cards": (201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 214, 215,
                                               216, 218, 220, 221, 222, 223, 224, 228, 229),
                "numbered": _ALL_NUMBERED, "plays": _PLAYED_BEFORE_RUIN, "track": True,
                "city_tiles": False},
    # a9244a5 to 4831b6a's parent: every new card and the new city tiles, the ruin L31/L32 still unplayed
    "a9244a5": {"modes": _SCENARIOS, "cards": tuple(range(201, 230)), "numbered": _ALL_NUMBERED,
                "plays": _PLAYED_BEFORE_RUIN, "track": True, "city_tiles": True},
    # an Uprising campaign's game (modes campaign, campaign_base) from c572794 to ef92d45's parent: no new
    # project card, the base game's quest tiles, of the expansion's tiles only the spaces L34-L36 played (L30
    # unplayed: campaign._played); card 150's vote added the Resistance Tiles alone (the witness: a story
    # holding them without the Uprising module, which only that vote adds)
    "c572794": {"modes": _CAMPAIGN_MODES, "cards": (), "quests": "base", "plays": ("L34", "L35", "L36"),
                "story_next": _NEXT_BEFORE_184, "story_votes": _VOTES_BEFORE_UPRISING},
    # ef92d45 to cefd5f3's parent: the same setup; card 150's vote as today's (and a game of c572794 that had
    # not voted yet: nothing tells it apart)
    "ef92d45": {"modes": _CAMPAIGN_MODES, "cards": (), "quests": "base", "plays": ("L34", "L35", "L36"),
                "story_next": _NEXT_BEFORE_184},
    # cefd5f3 to 17a12c0's parent: L30 (and every route tile a story adds) played
    "cefd5f3": {"modes": _CAMPAIGN_MODES, "cards": (), "quests": "base", "story_next": _NEXT_BEFORE_184},
    # 17a12c0 to 5c3c7c5's parent: the expansion's quest tiles, still no new project card
    "17a12c0": {"modes": _CAMPAIGN_MODES, "cards": ()},
    # 78/79 from 4831b6a (a campaign's games from 5c3c7c5, 74 and 193 too) to the balance change of #20:
    # today's setup but for the cards RENUMBERED since, dealt with their old numbers under their old ids
    # (data/uprising's retired_cards), in the same place of the B deck (the shuffle draws alike); the
    # witness: an old id anywhere in the state (the cards not dealt stay in the box)
    "4831b6a": {"modes": (*_SCENARIOS, "74", "193", *_CAMPAIGN_MODES), "cards": (), "renumbered": 0,
                "city_tiles": True},
    # 6a0f3d2 (the Rebel Chronicler as card 237) to its second change of #20 (card 238, format 13; the row is
    # named by main 04c0a40, where its golden game was played): the same, with card 237 where today's setup
    # deals 238 (74's and 193's games of that time: coop_releases' rows 6a0f3d2 and 6efc36b)
    "04c0a40": {"modes": (*_SCENARIOS, "74", "193", *_CAMPAIGN_MODES), "cards": (), "renumbered": 1,
                "city_tiles": True},
    # 52a3425 (the Rebel Chronicler as card 238, its second change) to its third change of #20 (card 239, format
    # 14; the row is named by main 8b97501, where its golden game was played): the same, with card 238 where
    # today's setup deals 239 (74's and 193's games of that time: coop_releases' row 52a3425)
    "8b97501": {"modes": (*_SCENARIOS, "74", "193", *_CAMPAIGN_MODES), "cards": (), "renumbered": 2,
                "city_tiles": True},
    # d8e1100 (the Rebel Chronicler as card 239, its third change) to its fourth change of #20 (card 240, format
    # 15; the row is named by main 9fa6890, where its golden game was played): the same, with card 239 where
    # today's setup deals 240 (74's and 193's games of that time: coop_releases' row d8e1100)
    "9fa6890": {"modes": (*_SCENARIOS, "74", "193", *_CAMPAIGN_MODES), "cards": (), "renumbered": 3,
                "city_tiles": True},
    # 9c5edb3 (the Rebel Chronicler as card 240, today's) to the Powder Monkey's change of #20 (card 242 in card
    # 204's place, format 17; the row is named by main 65e19e8, where its golden game was played): today's setup
    # with card 204 where today's deals 242 (74's and 193's games of that time: coop_releases' row 9c5edb3)
    "65e19e8": {"modes": (*_SCENARIOS, "74", "193", *_CAMPAIGN_MODES), "cards": (), "renumbered": 4,
                "city_tiles": True},
    # 2eed0d6 (the Powder Monkey as card 242, today's; the Rebel Chronicler as card 240) to the Rebel Chronicler's
    # fifth change of #20 (card 241 in card 240's place, format 18; the row is named by main 2eed0d6, where its
    # golden game was played): today's setup with card 240 where today's deals 241 (74's and 193's games of that
    # time: coop_releases' row 2eed0d67)
    "2eed0d6": {"modes": (*_SCENARIOS, "74", "193", *_CAMPAIGN_MODES), "cards": (), "renumbered": 5,
                "city_tiles": True},
    # the cooperative scenarios 74 and 193 (``coop``: their markers and The Search, coop_releases.py)
    **coop_releases.ROWS,
}
#: the option ``release``'s values: today's (the default) and each older release a stored game began under
RELEASE_CHOICES = ("current", *RELEASES)
#: the keys of the state and of its players that hold project cards (release_of's witness)
_CARD_KEYS = frozenset({"deck", "box", "display", "discard", "returned", "hand", "plan", "bought", "dealt",
                        "tucked", "setup", "seats"})
_NEW_CARDS = frozenset(U.CARD)  # (the retired cards too: a stored game holds them)


def release(state: State) -> dict[str, Any] | None:
    """The older release the game was set up by (:data:`RELEASES`), None for today's (or a mode the
    release's setup did not differ in: a campaign's game of card 184 or 185 plays 79's or 193's)."""
    row = RELEASES.get(str(state["options"].get("release", "current")))
    mode = homeports.mode(state)
    if not row or row.get("coop") or mode not in row["modes"] or (mode in _SCENARIOS and "story" in state):
        return None
    return row


def story_next(state: State, book: str, cid: int, effect: Mapping[str, Any]) -> list[Any]:
    """The story cards ``effect`` (story card ``cid``'s back, of story ``book``) adds: its ``next``, or
    what the release that set the game up had there (a row's ``story_next``), so that a game stored by it
    scores, and archives, as it did."""
    row = release(state)
    old = (row or {}).get("story_next", {}).get(book, {})
    return list(old[cid]) if cid in old else list(effect.get("next", ()))


def story_votes(state: State, book: str, cid: int, votes: Mapping[str, Any]) -> dict[str, Any]:
    """Story card ``cid``'s vote (its choices ``votes``, of story ``book``), with each choice as the release
    that set the game up had it where it differs (a row's ``story_votes``), so that a game stored by it
    votes, and archives, as it did."""
    old = ((release(state) or {}).get("story_votes", {}).get(book, {})).get(cid, {})
    return {k: {**v, **old[k]} if k in old else v for k, v in votes.items()}


def _took_old_vote(state: State, row: Mapping[str, Any]) -> bool:
    """Whether the state's story shows a choice of the row's ``story_votes`` taken: the modules it added
    (``story.modules``, carried from an earlier game, or ``modules_next``) are that choice's, no more."""
    story = state.get("story") or {}
    held = {*story.get("modules", ()), *story.get("modules_next", ())}
    return any(held == set(choice.get("modules", ())) for cards in row["story_votes"].values()
               for choices in cards.values() for choice in choices.values() if choice.get("modules"))


def _cards_in(found: set[int], x: Any) -> None:
    if isinstance(x, dict):
        for k, v in x.items():
            if k in _CARD_KEYS:
                _cards_in(found, v)
    elif isinstance(x, list):
        for v in x:
            if type(v) is int:
                if v in _NEW_CARDS:
                    found.add(v)
            else:
                _cards_in(found, v)


def dealt_new_cards(state: State) -> set[int]:
    """The expansion's project cards (ids 201-236) anywhere the state keeps project cards."""
    found: set[int] = set()
    _cards_in(found, {k: v for k, v in state.items() if k in _CARD_KEYS})
    return found


def dealt_ids(renumbered: int) -> dict[int, int]:
    """Today's id of each renumbered card -> the id a release whose ``renumbered`` is that dealt."""
    return {today: ids[renumbered] for today, ids in RENUMBERED.items() if renumbered < len(ids)}


def generation(state: State) -> int | None:
    """Which ids of the renumbered cards the state holds (a release row's ``renumbered``), None: today's. The
    witness of generation g: an id it dealt that the next generation no longer deals (an id several generations
    dealt, as card 204 by 0-4, tells only the last of them, once the older ones' own ids are not held)."""
    dealt = dealt_new_cards(state)
    last = max(map(len, RENUMBERED.values()), default=0)
    ids = [set(dealt_ids(g).values()) for g in range(last + 1)]
    return next((g for g in range(last) if dealt & (ids[g] - ids[g + 1])), None)


def _fits(state: State, row: dict[str, Any]) -> bool:
    """Whether that release's setup could have dealt what ``state`` holds (:func:`release_of`)."""
    if row.get("coop"):
        return _coop_fits(state, row)
    mode = homeports.mode(state)
    if row.get("renumbered") is not None:  # (today's setup, old ids dealt: the rows before it did not fit)
        return mode in row["modes"] and generation(state) == row["renumbered"]
    if mode not in row["modes"] or not dealt_new_cards(state) <= set(row["cards"]) | set(row.get("numbered", ())):
        return False
    if mode in _SCENARIOS:
        new, unplayed = set(state.get("legacy_new", ())), set(state.get("legacy_unplayed", ()))
        return ("story" not in state and "legacy_unplayed" in state and new <= set(row["plays"])
                and not unplayed & set(row["plays"]) and ("L32" not in unplayed or row["track"]))
    quests = [str(q) for q in [*state.get("quest_pile", ()), *state.get("quests", {}).values(),
                               *state.get("track_quests", {}).values()]]
    kind = "expansion" if any(q.startswith("UQ") for q in quests) else "base" if quests else None
    # (a campaign game's tiles come from its story; a release played those of ``plays``, a later one more)
    new, unplayed = set(state.get("legacy_new", ())), set(state.get("legacy_unplayed", ()))
    plays = set(row.get("plays", _PLAYED_BEFORE_RUIN))
    tiles = new <= plays and not unplayed & plays if "plays" in row else not unplayed & plays
    return (tiles and (kind is None or kind == row.get("quests", "expansion"))
            and ("story_votes" not in row or _took_old_vote(state, row)))


def release_of(state: State) -> str:
    """The release whose setup dealt what ``state`` holds (a state of this engine's format): the first row
    of :data:`RELEASES`, in the order they were written, whose setup could have dealt it, else
    ``"current"``. The witness: the expansion's cards in the game (a row's setup dealt exactly its cards,
    a later release more), in 78/79 the drawn new legacy tiles played or not (and ``legacy_unplayed``,
    which every release before 7e3c82d kept and today's setup no longer writes), in a campaign game the
    quest tiles (base ``Q``, the expansion's ``UQ``). Two rows that both fit set up the same game."""
    mode = homeports.mode(state)
    if mode in coop_releases.MODES:  # (the newest setup that could have dealt it: :func:`_coop_fits`)
        if _coop_fits(state, {}):
            return "current"
        return next((name for name, row in reversed(RELEASES.items()) if row.get("coop") and _coop_fits(state, row)),
                    "current")
    if (mode not in _SCENARIOS or "story" in state) and mode not in _CAMPAIGN_MODES:
        # (74, 193 and a campaign's 78/79 set up as today's but for the renumbered cards)
        return next((name for name in _BEFORE_RENUMBERED if _fits(state, RELEASES[name])), "current")
    return next((name for name, row in RELEASES.items() if _fits(state, row)), "current")


def stamp_coop_release(state: State) -> None:
    """A cooperative game's option ``release`` set to :func:`release_of` when it says ``"current"`` (or
    nothing), or 4831b6a (format 10 stamped that row, today's setup but for the renumbered card, on every
    game holding the card's old id: a cooperative game set up before it is of a row of coop_releases.py)."""
    options = state["options"]
    said = str(options.get("release", "current"))
    if said == "current" or said in _BEFORE_RENUMBERED:  # (no star in an `in` tuple: mypyc cannot build it)
        found = release_of(state)
        if options.get("release") != found:
            state["options"] = {**{k: v for k, v in options.items() if k != "release"}, "release": found}


def _coop_markers(state: State, per: Mapping[str, Any]) -> int:
    """The ownership markers a cooperative setup of ``per`` (markers on each village and city) places."""
    return sum(int(per.get(loc_kind(state, loc), 0)) for locs in coop.scenario(state)["blocks"].values()
               for loc in locs)


def _coop_fits(state: State, row: Mapping[str, Any]) -> bool:
    """Whether a release of the cooperative scenarios (a row of coop_releases.py; ``{}``: today's) could have
    set up what ``state`` holds. The witness: the ownership markers on the board and beneath (each on a kind
    of location the row places markers on, no more beneath than it placed, and no more markers in all,
    those liberated onto the resistance tiles counted, than it placed); in The Rescue, the length of card
    191's / 192's rows of spaces (the state keeps them to the end) and the colour of every hint revealed onto
    them. A state that two rows could both have dealt is the newer one's (:func:`release_of`): e.g. a
    stored solo game of 74 of row fa60223 whose every village was liberated, with few markers counted, or
    one of The Rescue whose card shows no hint whose colour changed (Luysa found: the card is cleared)."""
    mode = homeports.mode(state)
    if mode not in coop_releases.MODES or (row and mode not in row["modes"]):
        return False
    options = {**state["options"], "release": next((k for k, v in RELEASES.items() if v is row), "current")}
    if generation(state) != row.get("renumbered"):
        return False  # (the cards renumbered since: which of their ids the game holds, or today's)
    n = len(state["players"])
    per = coop_releases.per_location(options, n, coop.scenario(state)["per_location"][str(n)])
    garrison = state.get("garrison", {})
    if any(int(per.get(loc_kind(state, loc), 0)) < 1 + int(garrison.get(loc, 0)) for loc in state["markers"]):
        return False
    counted = sum(int(p.get("liberated", 0)) for p in state["seats"])
    if coop.markers_left(state) + counted > _coop_markers(state, per):
        return False
    s = state.get("search")
    if s:
        cid = str(s["card"])
        spaces = coop_releases.card(options, cid, search.DATA["card"][cid])
        if len(spaces["red"]) != len(s["red"]) or len(spaces["green"]) != len(s["green"]):
            return False
        for colour in ("red", "green"):
            if any(coop_releases.colour(options, h, str(search.HINTS[h]["colour"])) != colour
                   for h in s[colour] if h not in (None, "X")):
                return False
    return True


def stamp_release(state: State) -> None:
    """The option ``release`` set to :func:`release_of` when the state says ``"current"`` (or nothing) or a
    release whose setup could not have dealt it (upgrade.py's format 8 marked every 78/79 game with no new
    tile played ``"c0d8ac1"``, a game of 0f021dc's cards too): what an upgrade step does once a new row of
    :data:`RELEASES` covers games stored before it."""
    options = state["options"]
    said = RELEASES.get(str(options.get("release", "current")))
    found = release_of(state) if said is None or not _fits(state, said) else options["release"]
    if options.get("release") != found:
        state["options"] = {**{k: v for k, v in options.items() if k != "release"}, "release": found}


#: the tiles a module of the mode plays itself (L40: uprising.py)
_MODULE_TILES = frozenset(t for t, row in U.LEGACY.items() if row.get("module"))


def table(state: State) -> dict[str, Any] | None:
    """The expansion scenario's row of the mode (78, 79), or None (the base game's scenario option)."""
    return U.SCENARIOS.get(homeports.mode(state))


def places_markers(state: State) -> bool:
    """The scenario puts its own markers on the board (79): no 2-player pre-annexed villages then."""
    scen = table(state)
    return bool(scen and scen.get("markers"))


def set_markers(state: State) -> None:
    """The scenario's markers at setup, each from its nation's supply (the rest is set aside there)."""
    scen = table(state)
    if not scen or not scen.get("markers"):
        return
    for nation, locs in scen["markers"].items():
        for loc in locs:
            take_marker(state, nation)
            state["markers"][loc] = nation


def round_markers(state: State, ev: list[Event]) -> None:
    """Before rounds 2-4 (Assumption A17): one set-aside marker of each nation on the lowest-numbered
    empty location of its block, while its supply lasts (called at the interim scoring, after
    ``state["round"]`` has moved on)."""
    scen = table(state)
    rule = scen.get("markers_by_round") if scen else None
    if not scen or not rule or int(state["round"]) not in rule["rounds"]:
        return
    placed = []
    for nation, block in scen["markers"].items():
        for _ in range(int(rule["each"])):
            empty = [loc for loc in block if loc not in state["markers"]]
            if not empty or not has_marker(state, nation):
                break
            loc = min(empty, key=C.LOC_ORDER.index)
            take_marker(state, nation)
            state["markers"][loc] = nation
            placed.append(f"{nation.title()} at {loc} {C.LOC[loc]['name']}")
    if placed:
        ev.append(new_event("markers", "The set-aside markers return: " + ", ".join(placed) + ".",
                            {"placed": placed}))


def b_cards(state: State) -> list[int] | None:
    """The B cards before the 40 are counted out (None: the base game's scenario option decides). Every
    game with the expansion adds its new project cards ("Adicione as novas cartas de projeto às cartas
    B"): 78, 79, 74, 193 and a campaign's games (modes campaign, campaign_base); the numbered cards
    100-106 only with a scenario card (a campaign's games, always scenario 75: none of 90-106)."""
    scen = table(state)
    new = [int(c["id"]) for c in U.PLAYABLE_CARDS if not c["numbered"]]
    row = coop_releases.row_of(state["options"]) or RELEASES.get(str(state["options"].get("release", "current")))
    if row and row.get("renumbered") is not None:  # (the old cards, each in its place; 74/193's rows too)
        new = [dealt_ids(int(row["renumbered"])).get(cid, cid) for cid in new]
    if not scen:
        if homeports.mode(state) in _CAMPAIGN_MODES:  # a campaign with the expansion (scenario 75: no 90-99)
            old = release(state)
            if old and old.get("renumbered") is None:  # (what it dealt: before 5c3c7c5 none, the base B deck)
                return [*C.B_CARDS, *old["cards"]] if old["cards"] else None
            return [*C.B_CARDS, *new]
        return None
    if "story" in state:  # a campaign's card 184/185 is no scenario card: no cards 90-106 (the rulebook)
        return [*C.B_CARDS, *new]
    # (a printed number: 90-99 are the base game's card ids, 100-106 the expansion's cards by their
    # printed number, whose ids are 230-236: the base B cards' ids 101-160 are not printed numbers)
    numbered = [U.NUMBERED.get(n, n) for n in scen["cards"]]
    old = release(state)
    if old and old.get("renumbered") is None:  # (the cards that release dealt, in the same order: the same draws)
        return [*C.B_CARDS, *old["cards"], *(cid for cid in numbered if cid in C.CARD and C.CARD[cid]["numbered"]
                                              and (cid not in U.NUMBERED.values() or cid in old["numbered"]))]
    return [*C.B_CARDS, *new, *(cid for cid in numbered if cid in C.CARD and C.CARD[cid]["numbered"])]


def quest_ids(state: State) -> list[str] | None:
    """The quest tiles of the mode (None: the base game's): the expansion's 28 in its scenarios and in a
    campaign played with it (modes campaign, campaign_base: "Substitua as peças de missão do jogo base
    pelas desta expansão", every game on the new ship boards)."""
    old = release(state)
    if old and old.get("quests") == "base":  # (a campaign game set up before 17a12c0)
        return None
    return [str(q["id"]) for q in U.QUESTS] if table(state) or homeports.mode(state) in _CAMPAIGN_MODES else None


def new_city_tiles(state: State) -> list[dict[str, Any]]:
    """The city tiles the expansion adds to the base game's ("Adicione ... as duas novas peças de cidade às
    do jogo base"), in 78 and 79 (citytiles.py plays them)."""
    old = release(state)
    return list(U.CITY_TILES) if table(state) and (not old or old.get("city_tiles")) else []


def new_careers(state: State) -> list[str]:
    """The careers the expansion adds to the base game's (the new career card, in 78 and 79)."""
    return [str(U.NEW_CAREER["id"])] if table(state) else []


def set_legacy(state: State) -> None:
    """The scenario's legacy tiles, then three more by the objects of three revealed project cards
    (the top of the project deck, each to the discard pile, face up)."""
    scen = table(state)
    if not scen or "story" in state:  # a campaign's 184/185: "as Peças Legacy não serão alteradas" (the story's)
        return
    tiles = list(scen["legacy"])
    for column in range(3):
        if not state["deck"]:
            break
        cid = state["deck"].pop()
        state["discard"] = [*state["discard"], cid]
        tiles.append(str(scen["legacy_by_object"][C.CARD[cid]["object"]][column]))
    old = release(state)
    if old and "plays" in old:  # (the drawn new tiles that release played; the others unplayed, as it kept them)
        if old["track"]:
            tiles.extend(str(U.LEGACY[t]["track"]) for t in list(tiles)
                         if U.LEGACY.get(t, {}).get("track") and U.LEGACY[t]["track"] not in tiles)
        drawn = [t for t in tiles if t not in C.LEGACY and t not in _MODULE_TILES]
        state["legacy"] = [t for t in tiles if t in C.LEGACY]
        state["legacy_new"] = [t for t in drawn if t in old["plays"]]
        state["legacy_board"] = legacyboard.new_board(state["legacy_new"])
        state["legacy_unplayed"] = [t for t in drawn if t not in old["plays"]]
        return
    for t in list(tiles):  # (the ruin comes with its track: "no início da trilha de ruína em L32")
        track = U.LEGACY.get(t, {}).get("track")
        if track and track not in tiles:
            tiles.append(str(track))
    state["legacy"] = [t for t in tiles if t in C.LEGACY]
    state["legacy_new"] = [t for t in tiles if t not in C.LEGACY and t not in _MODULE_TILES]
    state["legacy_board"] = legacyboard.new_board(state["legacy_new"])
