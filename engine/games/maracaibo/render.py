"""Text for mails and the SVG board, both made from a view only (so nothing hidden can leak).

Both say SUBSTITUTE CONTENT: the cards, map and tiles are this project's, not the published
game's. The text is meant to be followed without the box: the map state place by place, each
player's tracks, the reader's hand with each card's good, object, cost and effect in words, the
display, the quests and what they need, and what a main action where the reader's ship is would
give. The SVG (640 px wide, for mail) draws the Caribbean route with markets and their discs,
ownership markers, ships, assistants and quests; the explorer, influence, income and VP tracks;
the reader's ship board and display.
"""

from __future__ import annotations

import functools
import re
import textwrap
from collections.abc import Collection
from html import escape
from typing import Any

from engine import i18n
from engine import svg as kit
from engine.core import View

from . import content as C
from . import homeports, labels, reach, render_story, sailing, ship
from . import uprising_content as C_U
from .homeports import port_text
from .places import (
    MAP_H,
    MAP_W,
    POS,
    Box,
    _all_places,
    _overlap,
    _row_box,
    _ship_spots,
)

WIDTH = 76
SUBSTITUTE = "the cards, map and tiles are this project's own"
NATION_COLOUR = {"france": "#2459c4", "england": "#c8102e", "spain": "#e0a800"}
SEAT_COLOUR = ["#d9480f", "#2f9e44", "#7048e8", "#1c7ed6", "#495057"]
JEAN_COLOUR = "#111111"
#: a quest's "Q" as text (4.5:1 on the tracks' light fills; the gold of the quest boxes is a stroke)
_INK_Q = "#6b5000"


# ---- the view, read ---------------------------------------------------------------------------------


def _legacy_board_lines(view: View) -> list[str]:
    """What lies on the Uprising's new legacy tiles (legacy_board): the new city's markers, the discs, the
    ruin track's figures."""
    board = view.get("legacy_board") or {}
    names = view["players"]
    out = []
    if board.get("L30"):
        out.append("On the new city's Dutch flag (L30): " + ", ".join(
            f"{names[int(s)]}'s {n.title()} marker" for s, n in sorted(board["L30"].items())) + ".")
    for tile in ("L33", "L37"):
        if board.get(tile):
            out.append(f"Discs on {C_U.LEGACY[tile]['name']} ({tile}): " + ", ".join(names[s] for s in board[tile])
                       + ".")
    if board.get("L32"):
        end = len(C_U.LEGACY["L32"]["spaces"]) + 1
        out.append("The ruin track (L32): " + ", ".join(
            f"{names[int(s)]}'s figure " + ("at the end" if int(at) == end else f"on space {at}")
            for s, at in sorted(board["L32"].items())) + ".")
    return out


def _kind(view: View, loc: str) -> str:
    """village, city, home, start, or "off" (a legacy place not in play): as the rules read it."""
    info = C.LOC[loc]
    legacy = list(view.get("legacy") or ())
    if "legacy" in info and info["legacy"] not in legacy and info["legacy"] not in (view.get("legacy_board") or {}):
        return "off"  # (the Uprising's new city L30 is in play when its tile is on the legacy board)
    kind = str(info["kind"])
    if kind == "city" and info.get("two_player") and len(view["players"]) <= 2:
        return "village"
    if kind == "village" and any(C.LEGACY[t]["kind"] == "city" and C.LEGACY[t].get("loc") == loc for t in legacy):
        return "city"
    return kind


def _city_text(view: View, loc: str) -> str:
    if loc in view["tiles"]:
        action = str(C.CITY_TILE[view["tiles"][loc]]["action"])
    else:
        found = [C.LEGACY[t] for t in view.get("legacy") or () if C.LEGACY[t]["kind"] == "city"
                 and C.LEGACY[t].get("loc") == loc]
        action = str(found[0]["action"]) if found else str(C.LOC[loc].get("action", ""))
    if action == "gain":
        return C.gain_text(C.LOC[loc].get("gain", {}))
    return C.CITY_ACTION_TEXT.get(action, action)


def _stops(view: View) -> dict[str, dict[str, Any]]:
    """The legacy stop tiles in play by place (scenario 77: L5 Tortuga gives a combat point, L8
    Belize takes 2 doubloons): what ending a sail there gives or costs (issue 21)."""
    return {str(C.LEGACY[t]["loc"]): C.LEGACY[t] for t in view.get("legacy") or ()
            if C.LEGACY[t]["kind"] == "stop"}


_UNIT = {"d": "d", "vp": "VP", "cp": "CP"}


def _stop_tag(tile: dict[str, Any]) -> str:
    """A stop tile's few characters on the map: "+1 CP", "-2 d"."""
    return ", ".join(f"{'+' if v > 0 else '-'}{abs(v)} {_UNIT.get(k, k)}" for k, v in tile["gain"].items())


def _name(loc: str) -> str:
    return f"{loc} {C.LOC[loc]['name']}"


def _quest_text(qid: str) -> str:
    q = C.QUEST[qid]
    fixed = C.gain_text(q["fixed"]) if q["fixed"] else ""
    return (f"quest {qid}: pay {C.cost_text(q['cost'])}; gain {C.gain_text(q['per'])} per compass"
            + (f" and {fixed}" if fixed else ""))


def _ships(view: View) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for i, p in enumerate(view["p"]):
        out.setdefault(p["at"], []).append(str(view["players"][i]))
    if view.get("jean"):
        out.setdefault(view["jean"]["at"], []).append(str(view["jean"]["name"]))
    return out


class _Said(str):
    """A line of the board in words already in the reader's language (cut from a text said whole)."""

    __slots__ = ()


def _wrap(text: str, indent: str = "  ", more: str = "    ", said: bool = False) -> list[str]:
    # (said before it is cut in lines: issue 27; ``said``: it is in the reader's language already)
    return list(_cut(text if said else say(text), indent, more))


@functools.lru_cache(maxsize=2048)
def _cut(text: str, indent: str, more: str) -> tuple[_Said, ...]:
    """``text`` cut in lines of the board's width. Why kept (issue 28, perf): a mail's board in
    words cuts some 46 texts, and from one move's mails to the next most are the same (139
    distinct of 1,884 over a 40-move game): ``textwrap`` was 0.6 ms of a Maracaibo move's 24 ms
    of worker CPU. A pure function of its arguments, so what a reader gets is unchanged."""
    return tuple(_Said(line) for line in textwrap.wrap(text, WIDTH, initial_indent=indent,
                                                       subsequent_indent=more, break_on_hyphens=False))


def _said_bits(bits: list[str]) -> str:
    """``bits`` joined by "; ", each said alone in the reader's language: a whole line said at
    once may be cut by a general pattern at the wrong place (issue 27: "action: 2 doubloons")."""
    return "; ".join(say(b) for b in bits)


def _said_lines(out: list[str]) -> list[str]:
    """The board in words' lines in the reader's language: each line not said yet, said whole
    (its indent kept)."""
    if i18n.current() == i18n.DEFAULT:
        return out
    return [line if isinstance(line, _Said) or not line.strip()
            else line[:len(line) - len(line.lstrip())] + say(line.strip()) for line in out]


# ---- text -------------------------------------------------------------------------------------------


def _uprising(view: View) -> bool:
    """The Uprising module plays (scenario 78, or a campaign whose story added it): fights against a nation."""
    mode = str(view["options"].get("mode", "base"))
    modes = C_U.MODES.get(mode) or {}
    return "uprising" in [*modes.get("modules", ()), *(view.get("story") or {}).get("modules", ())]


def _scenario(view: View) -> tuple[str, dict[str, Any]]:
    """The scenario's number and card (the Uprising's scenarios 78 and 79 have their own)."""
    number = str(view["options"].get("scenario"))
    if str(view["options"].get("mode")) in C_U.SCENARIOS:
        number = str(view["options"]["mode"])
    return number, C_U.SCENARIOS.get(number) or C.SCENARIOS.get(number, {})


def nations_score(view: View) -> bool:
    """Whether the nations score at the end, each with its multiplier: not in scenario 79 (the Liberation)."""
    return bool(_scenario(view)[1].get("nation_scoring", True))


def text(view: View, brief: bool = False) -> str:
    """The game in words. ``brief`` (a mail): the other players' careers, planning areas and
    bought cards as names and counts; the whole of them is on the reader's game page."""
    out = [f"Maracaibo - {C.LABEL}", f"({SUBSTITUTE}.)"]
    number, scen = _scenario(view)
    story = view.get("story")
    if story:  # a campaign's game plays its story, not scenario 75's card
        out.append(f"Round {view['round']} of {view['rounds']}, campaign game {story['game']} "
                   f"({render_story.story_name(story)}); turns played: {view['turns']}.")
    else:
        out.append(f"Round {view['round']} of {view['rounds']}, scenario {number}"
                   + (f" ({scen['name']})" if scen.get("name") else "") + f"; turns played: {view['turns']}.")
    for t in view.get("uprising_legacy") or ():  # the Uprising's scenarios: the new legacy tiles
        out.append(f"Legacy tile {t['id']} {t['name']}: {t['text']}" + ("" if t["played"] else
                                                                      " (not played yet by this server)"))
    if _uprising(view):  # L40, beside the board: what fighting against a nation offers (QA, #20: no mail said it)
        out.append(f"Legacy tile L40 {C_U.LEGACY['L40']['name']}: {C_U.LEGACY['L40']['text']}")
    out += _legacy_board_lines(view)
    out += ["", "THE CARIBBEAN (place: kind; owner, or what annexing it gives; market: goods, discs taken, "
                "next pay; city action; quest; ships)"]
    ships = _ships(view)
    stops = _stops(view)
    assistants: dict[str, list[str]] = {}
    for i, p in enumerate(view["p"]):
        for a in p.get("assist", ()):
            assistants.setdefault(a["loc"], []).append(str(view["players"][i]))
    for loc in C.LOC_ORDER:
        kind = _kind(view, loc)
        if kind == "off":
            continue
        info = C.LOC[loc]
        bits = [f"{_name(loc)}: {kind}"]
        if loc in view["markers"]:
            bits.append(f"{view['markers'][loc].title()} owns it")
        elif "flag" in info and kind in ("village", "city"):
            bits.append(f"annex {C.gain_text(info['flag'])}")
        if "market" in info and kind == "city":
            m = info["market"]
            taken = view["market"].get(loc, [])
            left = len(m["rewards"]) - len(taken)
            nxt = f", next {m['rewards'][len(taken)]} d" if left > 0 else ", full"
            bits.append(f"market {'/'.join(m['goods'])} {len(taken)}/{len(m['rewards'])}{nxt}")
        if kind == "city":
            bits.append(f"action: {_city_text(view, loc)}")
        if loc in stops:
            bits.append(f"stop: {stops[loc]['text']} (legacy tile {stops[loc]['id']})")
        if info.get("home"):
            bits.append({1: "combat action or explore 2", 2: "3 VP on the way home",
                         3: "5 VP, the end of the voyage"}.get(int(info["home"]), "homeward"))
        if loc in view["quests"]:
            bits.append(_quest_text(view["quests"][loc]))
        if loc in assistants:
            bits.append("assistants: " + ", ".join(assistants[loc]))
        if loc in ships:
            bits.append("ships: " + ", ".join(ships[loc]))
        out += _wrap(_said_bits(bits), said=True)
    out += ["", "EXPLORER TRACK (spaces 0 to " + str(C.END_SPACE) + ")"]
    barriers = ", ".join(f"{c} at {s}" for s, c in sorted(C.BARRIERS.items()))
    out += _wrap(f"Barriers: {barriers} (red 3 influence; blue, green 4 VP first, 2 after). The end: "
                 + "/".join(map(str, C.EXPLORER_DATA["end_vp"])) + f" VP and a village action ({view['ended']} "
                 "there so far).")
    for s, q in sorted(view["tquests"].items(), key=lambda kv: int(kv[0])):
        out += _wrap(_said_bits([f"space {s}: {_quest_text(q)}"]), said=True)
    # where each explorer is: the players' table (expl), Jean's line
    mult = view["multiplier"]
    counts = dict.fromkeys(C.NATIONS, 0)
    for n in view["markers"].values():
        counts[n] += 1
    if scen.get("nation_scoring", True):
        out += ["", "NATIONS (markers on the map, in supply; scoring multiplier)"]
        out += _wrap("; ".join(f"{n.title()} {counts[n]}, {sum(view['supply'][n])}; x{mult[n]}" for n in C.NATIONS))
    else:  # scenario 79: no nation scores at the end, so no multiplier is said (QA, #20: "x5" misled)
        out += ["", "NATIONS (markers on the map, in supply; no nation scores at the end of this scenario)"]
        out += _wrap("; ".join(f"{n.title()} {counts[n]}, {sum(view['supply'][n])}" for n in C.NATIONS))
    out += ["", "PRESTIGE BUILDINGS (cost, VP at the end, synergy; who invested)"]
    down = 0
    for b in view["prestige"]:
        if b["up"] and b["id"]:
            pb = C.PRESTIGE[b["id"]]
            who = ", ".join(str(view["players"][s]) for s in b["investors"]) or "nobody yet"
            per = C.PER_WORDS.get(pb["per"], pb["per"])
            out += _wrap(f"{pb['name']}: {pb['cost']} d and a figure; {pb['vp']} VP per {per}; {pb['synergy']}; "
                         f"{who}")
        else:
            down += 1
    if down:
        out.append(f"  and {down} face down")
    top = f", the top one {_quest_text(view['quest_top'])}" if view.get("quest_top") else ""
    out += _wrap(f"Draw pile {C.counted(view['deck'], 'card')}, discards {len(view['discard'])}; combat token piles "
                 f"{view['piles'][0]} and {view['piles'][1]}; quest pile {view['quest_pile']}{top}.", "", "  ")
    out += ["", "DISPLAY (draw one for 1 doubloon: 'draw 2 display')"]
    for i, cid in enumerate(view["display"]):
        out.append(f"  {i + 1}. {C.card_text(cid)}")  # one card a line, unwrapped: names stay whole
    seat = view.get("seat")
    out += ["", "PLAYERS"] + _track_table(view)
    for i, p in enumerate(view["p"]):
        out += _player_lines(view, i, p, brief=brief and i != seat)
    if view.get("jean"):
        from .jean import text_line

        out += _wrap(text_line(view).strip())
    if view.get("jacques"):
        from .jacques import text_line as jacques_line

        out += _wrap(jacques_line(view).strip())
    if view.get("search"):
        from .search import text_line as search_line

        out += _wrap(search_line(view).strip())
    if brief and len(view["p"]) > 1:
        out.append("  (Their careers and cards in full: on your game page.)")
    if view.get("story"):  # the story campaign (campaign.py)
        from .campaign import text_lines

        out += [""] + [w for line in text_lines(view) for w in _wrap(line, "", "    ")]
    me = view.get("me")
    if me and seat is not None:
        out += ["", "YOUR HAND (good/object, cost, effect)"]
        for cid in me["hand"]:
            out.append(f"  {C.card_text(cid)}")
        if not me["hand"]:
            out.append("  (empty)")
        plan = view["p"][seat]["plan"]
        if plan:
            out += ["", "YOUR PLANNING AREA (bought like the cards in your hand; not goods)"]
            out += [f"  {C.card_text(cid)}" for cid in plan]
        if me.get("setup"):
            out += ["", "YOUR DEALT CARDS TO CHOOSE FROM"]
            # the setup explained where it is decided (issue 21): what the choice is, in one mail
            dealt, left = me["setup"].get("dealt") or [], C.HAND_LIMIT - len(me["hand"])
            if dealt and me["setup"].get("plan") is None:
                out += _wrap(f"Plan one of these {len(dealt)} cards (it goes to your planning area) and keep "
                             f"{C.HAND_LIMIT} (your starting hand); the others are shuffled into the draw pile. "
                             "Every player chooses at once; nobody sees your choice before all have chosen. "
                             "In one mail: 'plan <card>', then a 'keep <card>' line for each card kept.")
            elif dealt and left > 0:
                out += _wrap(f"Keep {left} more of these (your starting hand); the others are shuffled into "
                             "the draw pile.")
            for cid in me["setup"]["dealt"]:
                out.append(f"  {C.card_text(cid)}")
        out += ["", "A MAIN ACTION HERE"]
        out += _here(view, seat, me)
        out += _sail_list(view, seat)
    if view.get("outcome"):
        scores = [*(f"{view['players'][int(k)]} {v:g}" for k, v in view["outcome"]["scores"].items()),
                  *(f"{k} {v:g}" for k, v in view["outcome"].get("automa", {}).items())]
        out += ["", "Final scores: " + ", ".join(scores)]
    return "\n".join(_said_lines(out))


#: The columns of the players' tables, heading and width: two tables, so that each is at most
#: 45 characters wide and stays whole on a phone (a mail's monospace text at 390 px).
_TRACKS = ((("VP", 4), ("d", 4), ("income", 7), ("CP", 3), ("fig", 4), ("hand", 5), ("at", 4)),
           (("expl", 5), ("F/E/S", 9), ("qst", 4), ("tok", 4), ("dlv", 4)))


def _track_cells(p: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    return ([p["vp"], p["d"], f"{p['inc_d']}+{p['inc_vp']}", p["cp"], p["fig"], p["hand"], p["at"]],
            [p["explorer"], "/".join(str(p["inf"][n]) for n in C.NATIONS), p["quests"], p["tokens"],
             p.get("delivered", 0)])


def _track_table(view: View) -> list[str]:
    """Each player's tracks, one row each in two tables, under a legend of the columns."""
    names = [f"{n}{' (' + say('you') + ')' if view.get('seat') == i else ''}" for i, n in enumerate(view["players"])]
    width = max(len(n) for n in names) + 1
    out = _wrap("(d doubloons; income a scoring, d+VP; CP combat points; fig figures; hand cards; at: the ship; "
                "expl explorer; F/E/S influence with France/England/Spain, rank = influence/3; qst quests; tok "
                "combat tokens; dlv deliveries)")
    cells = [_track_cells(p) for p in view["p"]]
    for t, columns in enumerate(_TRACKS):
        # each heading said in the reader's language before it is aligned (QA, #27: at/expl/qst/tok/dlv
        # stayed English in a Portuguese mail); labels.<lang>.json's "(column) <heading>"
        heads = [h if i18n.current() == i18n.DEFAULT else labels.label(f"(column) {h}").removeprefix("(column) ")
                 for h, _w in columns]
        out.append(_Said("  " + "".ljust(width) + "".join(h.rjust(w) for h, (_h, w) in zip(heads, columns,
                                                                                           strict=True))))
        for i in range(len(view["p"])):
            out.append(_Said("  " + names[i].ljust(width)
                       + "".join(str(c).rjust(w) for c, (_h, w) in zip(cells[i][t], columns, strict=True))))
    return out


def _player_lines(view: View, i: int, p: dict[str, Any], brief: bool = False) -> list[str]:
    """What the table leaves out about a player: synergy tokens, ship board, careers, planning
    area, bought cards, assistants. ``brief``: careers, planning area and bought cards as names
    and counts."""
    you = " (you)" if view.get("seat") == i else ""
    bits = [f"synergy {', '.join(p['synergy']) or 'none'}",
            f"ship upgrades {', '.join(p['areas']) or 'none'}, {C.counted(sum(p['discs'].values()), 'disc')} left"]
    if p.get("port"):  # the Uprising: the home port (area UH) and its effect in words
        hp = C_U.PORT[p["port"]]
        # (the rulebook's full wording in English; in another language, and for the other players in a
        # mail (``brief``), its effect in a few words, said from data like the ship areas' texts: the
        # rulebook's words of three players' ports, Roatán's 700 characters, left a 3-player mail of 78
        # no room for its picture, QA #20)
        full = i18n.current() == i18n.DEFAULT and not brief
        # (the rulebook's words end a sentence: without their last full stop, since "; " follows them)
        effect = str(hp["text"]).rstrip(". ") if full else port_text(hp, p.get("combat_tile") == "liberation")
        # the nation the rulebook's words call "the indicated nation" (its icon), named (QA, #20)
        nation = f"{str(hp['nation']).title()}, " if hp.get("nation") else ""
        bits.append(f"home port {hp['name']} ({nation}{'unlocked' if 'UH' in p['areas'] else 'locked'}): {effect}")
        if "explorer2" in p:  # Roatán's figure on the explorer track
            bits.append(f"home port figure on explorer space {p['explorer2']}")
    if "resist" in p:  # the Uprising: the resistance tile's four spaces
        bits.append("resistance tile: " + ", ".join(f"{n + 1} {str(x).title() if x else 'empty'}"
                                                      for n, x in enumerate(p["resist"])))
    tasks = [f"{k * 3 + t + 1} {state}" for k, car in enumerate(p.get("careers", ()))
             for t, state in enumerate(car["done"]) if state]
    bought = sum(int(C.CARD[c]["vp"]) for c in p["display"])
    if brief:
        bits.append(f"career tasks done {', '.join(tasks) or 'none'}")
        if p["plan"]:
            bits.append("planning area: " + ", ".join(str(C.CARD[c]["name"]) for c in p["plan"]))
    else:
        for k, car in enumerate(p.get("careers", ())):
            card = C.CAREER[car["id"]]
            bits.append(f"career {car['id']} (upper/lower): " + ", ".join(
                f"{k * 3 + t + 1} {task['metric']} {task['upper']}/{task['lower']}"
                + (f" {car['done'][t]} done" if car["done"][t] else "") for t, task in enumerate(card["tasks"])))
        if p["plan"] and not you:  # the reader's own: under their hand, one card a line
            bits.append("planning area: " + "; ".join(C.card_text(c) for c in p["plan"]))
    if p["display"]:
        bits.append(f"{C.counted(len(p['display']), 'card')} bought, {bought} VP at the end"
                    + ("" if brief else ": " + ", ".join(str(C.CARD[c]["name"]) for c in p["display"])))
    if p.get("assist"):
        bits.append("assistants at " + ", ".join(a["loc"] for a in p["assist"]))
    you = f" ({say('you')})" if you else ""
    return _wrap(f"{view['players'][i]}{you}: " + _said_bits(bits), said=True)


def _sail_list(view: View, seat: int) -> list[str]:
    """Where the reader's ship can sail on its turn, each place with its movement and what ending
    there gives or costs (issue 21): a village's actions for that movement, a city's delivery and
    action, a homeward space's reward, a legacy stop tile's gain or cost. One line each; the whole
    of a place is in THE CARIBBEAN above."""
    reach_spent = reach.sail_reach_spent(view)
    if not reach_spent:
        return []
    p = view["p"][seat]
    stops = _stops(view)
    out = ["", "WHERE YOUR SHIP CAN SAIL (place (movement): what ending there gives)"]
    for loc, spent in reach_spent:
        name = str(C.LOC[loc]["name"]).split(": ", 1)[-1]
        out += _wrap(f"{loc} {name} ({spent}): {_stop_gives(view, p, loc, spent, stops)}")
    return out


def _gives_title(view: View, seat: Any, loc: str, spent_at: dict[str, int], stops: dict[str, dict[str, Any]]) -> str:
    """": 2 village actions" for a place the reader's ship reaches, else ""."""
    if seat is None or loc not in spent_at:
        return ""
    return ": " + _stop_gives(view, view["p"][seat], loc, spent_at[loc], stops)


def _stop_gives(view: View, p: dict[str, Any], loc: str, spent: int, stops: dict[str, dict[str, Any]]) -> str:
    """What ending a sail of ``spent`` movement at ``loc`` gives or costs, in a few words."""
    kind = _kind(view, loc)
    info = C.LOC[loc]
    if kind == "village":
        n = sailing.village_count(p, spent)
        gives = f"{n} village action{'s' if n != 1 else ''}"
    elif kind == "city":
        m = info.get("market")
        taken = len(view["market"].get(loc, [])) if m else 0
        gives = (f"deliver {'/'.join(m['goods'])} ({m['rewards'][taken]} d), city action"
                 if m and taken < len(m["rewards"]) else "city action")
    elif info.get("home"):
        gives = {1: "combat action or explore 2", 2: "3 VP", 3: "5 VP, the voyage ends"}.get(
            int(info["home"]), "homeward")
    else:
        gives = kind
    if loc in stops:
        gives += f"; stop: {_stop_tag(stops[loc])} (legacy tile {stops[loc]['id']})"
    return gives


def _here(view: View, seat: int, me: dict[str, Any]) -> list[str]:
    """What a main action where the reader's ship is would give."""
    p = view["p"][seat]
    loc = p["at"]
    kind = _kind(view, loc)
    info = C.LOC[loc]
    out = _wrap(f"You are at {_name(loc)} ({kind}).")
    if kind == "village":
        more = "2 at 2-4 movement, 3 at 5 or more" if "U1" in p["areas"] else "2 after 4-6 movement, 3 after 7"
        out += _wrap(f"Village actions: 1 ({more}), each one of: buy a card from your hand or planning area, "
                     "invest in a face-up prestige building, take 1 doubloon, a village action of your own.")
        budget = p["d"]
        cards = [*me["hand"], *p["plan"]]
        can = [f"{C.CARD[c]['name']} ({C.CARD[c]['cost']} d)" for c in cards if int(C.CARD[c]["cost"]) <= budget]
        if cards and len(can) == len(cards):
            can = ["every card in your hand and planning area"]
        out += _wrap("You can pay for: " + (", ".join(can) or "none of your cards")
                     + f" ({C.counted(budget, 'doubloon')}).")
        extra = [f"{C.CARD[c]['name']}: " + (C.effect_text(e) if "ext" in e else C.gain_text(e["gain"]))
                 for c in p["display"] for e in C.CARD[c]["effects"] if e["t"] == "village"]
        extra += [f"{u['id']}: {u['text']}" for u in C.UPGRADES if u.get("village") and u["id"] in p["areas"]]
        if extra:
            out += _wrap("Your own village actions: " + "; ".join(extra))
    elif kind == "city":
        m = info.get("market")
        if m:
            taken = view["market"].get(loc, [])
            if len(taken) < len(m["rewards"]):
                have = sorted({C.CARD[c]["good"] for c in me["hand"]} & set(m["goods"]))
                reward = C.counted(m["rewards"][len(taken)], "doubloon")
                out += _wrap(f"Deliver {' or '.join(m['goods'])} for {reward}, a disc "
                             f"off your ship board, then the city action. You hold: {', '.join(have) or 'none'}.")
                areas = ship.areas_line(p)
                if areas:
                    good = (have or m["goods"])[0]
                    out += _wrap(f"The disc may come from ship area {areas}.")
                    out += _wrap(f"In one line: `deliver {good} ..., disc {ship.disc_areas(p)[0]}`.")
            else:
                out += _wrap("The market is full: the city action only.")
        out += _wrap(f"City action: {_city_text(view, loc)}.")
    elif info.get("home") == 1:
        out += _wrap("A combat action or explore 2.")
    else:
        out += _wrap("No main action here.")
    if loc in view["quests"]:
        out += _wrap(f"Here: {_quest_text(view['quests'][loc])}.")
    mine = [a for a in p.get("assist", ()) if a["loc"] == loc]
    for a in mine:
        gain = [C.effect_text(e) if "ext" in e else C.gain_text(e["gain"])
                for e in C.CARD[a["card"]]["effects"] if e["t"] == "assistant"]
        out += _wrap(f"Your assistant ({C.CARD[a['card']]['name']}): {', '.join(gain)}.")
    return out


# ---- SVG --------------------------------------------------------------------------------------------

def _decorations(view: View, loc: str, least: float) -> list[Box]:
    """What a place shows around it in ``view``: its owner's flag, its quest tag, its legacy stop tag,
    its market's discs, its assistants (as :func:`_svg_map` draws them)."""
    x, y = POS[loc]
    size = max(7.5, least)
    out: list[Box] = []
    if view["markers"].get(loc):
        out.append((x + 7, y - 19, x + 19, y - 9))
    if loc in view["quests"]:
        tw = max(14.0, kit.text_width(str(view["quests"][loc]), size) + 3)
        out.append((x - 16 - tw / 2, y - 15 - size, x - 14 + tw / 2, y - 10))
    stops = _stops(view)
    if loc in stops:
        tw = kit.text_width(_stop_tag(stops[loc]), size, True) + 3
        out.append((x - 14 - tw, y, x - 12, y + size + 5))
    if C.LOC[loc].get("market") and _kind(view, loc) == "city":
        out.append((x - 14, y + 23, x + 16, y + 30))
    if any(a["loc"] == loc for p in view["p"] for a in p.get("assist", ())):
        out.append((x + 13, y - 13, x + 32, y + 11))
    for t in view.get("uprising_legacy") or ():  # an Uprising tile's tag: right of its place, or left of it
        row = C_U.LEGACY.get(t["id"], {})
        if t["id"] in NEW_TAGS and str(row.get("loc")) == loc:
            dx, dy = _TAG_AT.get(loc, (14, -4))
            tw = kit.text_width(NEW_TAGS[t["id"]], size, True) + 3
            out += [(x + dx - 1, y + dy - 1, x + dx + tw + 1, y + dy + size + 9),
                    (x - 14 - tw, y + dy - 1, x - 12, y + dy + size + 9)]
    return out


def ship_offset(loc: str, n: int, view: View | None = None, least: float = 0) -> tuple[int, int]:
    """Where ``loc``'s row of ``n`` ships is drawn (its first ship's corner, from the place), so that it is
    seen at that place: the free spot nearest the place's drawing, beside its flag, quest and tags in
    ``view``. Why: Havana's ships were drawn above it, beside 21b (issue 21); then a fixed few spots put
    them 20 to 40 units off (QA of #20: Port Royal's framed ship half way to Providencia, Matanzas' row
    at Nassau's height)."""
    spots = _ship_spots(loc, n)
    if not spots:
        return (-14, -30)
    taken = _decorations(view, loc, least) if view is not None else []
    x, y = POS[loc]
    for dx, dy in spots:
        row = _row_box(x + dx, y + dy, n)
        if not any(_overlap(row, b) for b in taken):
            return dx, dy
    return spots[0]


def say(s: str) -> str:
    """A picture's text in the reader's language (issue 27: labels.py's data; English as it is)."""
    if i18n.current() == i18n.DEFAULT or _SAME.fullmatch(s):
        return s
    return labels.label(s)


#: texts that read the same in every language: codes (U3, Q12, 13a, H), numbers, signs
_SAME = re.compile(r"[A-Z]{1,2}\d*[ab]?|[-+x]?\d+[ab]?(/\d+)*|[\W\d_]*")


def _t(x: float, y: float, s: str, size: float = 9, anchor: str = "start", fill: str = "#111",
       weight: str = "normal") -> str:
    return _text(x, y, say(s), size, anchor, fill, weight)


def _text(x: float, y: float, s: str, size: float, anchor: str, fill: str, weight: str) -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}">{escape(s)}</text>')


def _colour(view: View, i: int) -> str:
    return SEAT_COLOUR[i % len(SEAT_COLOUR)]


def svg(view: View) -> str:
    w = 640
    body: list[str] = []
    body.append(_t(6, 13, f"Maracaibo - round {view['round']} of {view['rounds']} - SUBSTITUTE CONTENT "
                          "(not the published game's map or cards)", 10, weight="bold"))
    body += _svg_map(view)
    y = MAP_H + 8
    parts, y = _svg_explorer(view, y)
    body += parts
    parts, y = _svg_influence(view, y)
    body += parts
    parts, y = _svg_players(view, y)
    body += parts
    parts, y = render_story.svg_band(view, y, _colour)  # a campaign's story (render_story.py)
    body += parts
    seat = view.get("seat")
    if seat is not None:
        parts, y = _svg_ship(view, seat, y)
        body += parts
    parts, y = _svg_display(view, y)
    body += parts
    h = y + 6
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'font-family="sans-serif"><title>{escape(say("Maracaibo (substitute content)"))}</title>'
            f'<rect width="{w}" height="{h}" fill="#ffffff"/>'
            + "".join(body) + "</svg>")


def _svg_map(view: View, least: float = 0, legend: bool = True, rings: Collection[str] = (),
             box: tuple[float, float, float, float] | None = None) -> list[str]:
    """The map's drawing; ``least``: no text smaller (a mail draws it bigger, see :func:`mail_svg`),
    which also frames the reader's ship; ``legend``: with its legend in the corner; ``rings``:
    places ringed (a mail's sail targets), as the page rings the ones it links; ``box`` (x, y, w,
    h): the part of the map a picture shows, where every text is drawn whole (issue 21: names
    were cut at its edges): a place's name that its edge cuts is moved in along it when the place
    is in the part, any other text not wholly in it is left out (the mail's text says it)."""
    inner = None if box is None else (box[0] + 1, box[1] + 1, box[0] + box[2] - 1, box[1] + box[3] - 1)
    rows: list[Box] = []  # the ships' rows (set below, before any name is drawn)

    def _t(x: float, y: float, s: str, size: float = 9, anchor: str = "start", fill: str = "#111",
           weight: str = "normal", slide: bool = False, above: float | None = None) -> str:
        size = max(size, least)
        s = say(s)
        if inner is not None:
            w = kit.text_width(s, size, weight == "bold")
            left = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
            top, bottom = y - 0.78 * size, y + 0.25 * size  # as tests/engine/svg_checks measures
            dx = (inner[0] - left if left < inner[0] else inner[2] - left - w if left + w > inner[2] else 0.0)
            if top < inner[1] or bottom > inner[3] or (dx and not (slide and inner[0] <= x <= inner[2])):
                return ""
            # Why: a name slid in along the part's edge leaves the spot its place's ships' rows were kept
            # clear of (play-test of #20: around Havana, "Key West" slid onto Havana's row); it goes over
            # its place instead (``above``: its baseline there) where that is clear, else it is left out
            if dx and any(_overlap((left + dx, top, left + dx + w, bottom), r) for r in rows):
                if above is None:
                    return ""
                top, bottom = above - 0.78 * size, above + 0.25 * size
                spot = (left + dx, top, left + dx + w, bottom)
                if top < inner[1] or any(_overlap(spot, b) for b in rows + _all_places()):
                    return ""
                y = above
            x += dx
        return _text(x, y, s, size, anchor, fill, weight)

    out = [f'<rect x="0" y="18" width="640" height="{MAP_H - 18}" fill="#d7eefa"/>']
    live = [loc for loc in C.LOC_ORDER if _kind(view, loc) != "off"]
    for loc in live:  # the route first, under the places
        x1, y1 = POS.get(loc, (0, 0))
        for nx in C.LOC[loc]["next"]:
            if nx not in live:
                continue
            x2, y2 = POS.get(nx, (0, 0))
            dash = ' stroke-dasharray="4 3"' if C.LOC[loc]["kind"] == "home" or C.LOC[nx]["kind"] == "home" else ""
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#6b8fa8" stroke-width="2"{dash}/>')
    ships: dict[str, list[str]] = {}
    mine: tuple[str, int] | None = None  # the reader's ship: its place and its place in the row there
    for i, p in enumerate(view["p"]):
        if i == view.get("seat"):
            mine = (p["at"], len(ships.get(p["at"], [])))
        ships.setdefault(p["at"], []).append(_colour(view, i))
    if view.get("jean"):
        ships.setdefault(view["jean"]["at"], []).append(JEAN_COLOUR)
    if inner is not None:
        for loc, row in ships.items():
            if loc in POS:
                rx, ry = ship_offset(loc, len(row), view, least)
                rows.append(_row_box(POS[loc][0] + rx, POS[loc][1] + ry, len(row)))
    stops = _stops(view)
    links = view.get("links") or {}  # place -> address, given by a host page (the places its options name)
    titles = view.get("link_titles") or {}  # place -> what a click there does
    # a place in the reader's reach: what ending a sail there gives, in its link's title (issue 21)
    seat = view.get("seat")
    spent_at = dict(reach.sail_reach_spent(view)) if links else {}
    for loc in live:
        x, y = POS.get(loc, (0, 0))
        kind = _kind(view, loc)
        owner = view["markers"].get(loc)
        link = links.get(loc) if isinstance(links, dict) else None
        # only where the click sails there (a combat's annex link names a place too)
        sails = link and str(titles.get(loc) or "sail").lower().startswith("sail")
        told = _gives_title(view, seat, loc, spent_at, stops) if sails else ""
        if link:  # a reachable place: a link, ringed
            out.append(f'<a href="{escape(str(link), quote=True)}" class="target" data-place="{escape(loc)}">'
                       f'<title>{escape(str(titles.get(loc) or "Sail to " + _name(loc)) + told)}</title>'
                       f'<circle cx="{x}" cy="{y}" r="17" fill="#fff3bf" stroke="#e8590c" stroke-width="3"/>')
        # a place the reader's ship can reach (a mail's rings): its outline drawn thick and orange
        edge = ('stroke="#c2410c" stroke-width="3"' if loc in rings and not link else "")
        if kind == "city":
            out.append(f'<rect x="{x - 13}" y="{y - 11}" width="26" height="22" rx="4" fill="#f3d9b1" '
                       + (edge or 'stroke="#8a5a2b" stroke-width="1.5"') + "/>")
        elif kind == "village":
            out.append(f'<circle cx="{x}" cy="{y}" r="11" fill="#c9e8b8" '
                       + (edge or 'stroke="#4f7a3a" stroke-width="1.5"') + "/>")
        else:
            out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="#e9ecef" '
                       + (edge or 'stroke="#868e96" stroke-width="1.5"') + "/>")
        out.append(_t(x, y + 3.5, loc, 9, "middle", weight="bold"))
        label = str(C.LOC[loc]["name"]).split(": ", 1)[-1]
        out.append(_t(x, y + 21, label, 7.5 if len(label) < 14 else 7, "middle", "#33475b", slide=True, above=y - 15))
        if link:
            out.append("</a>")
        if owner:
            out.append(f'<rect x="{x + 8}" y="{y - 18}" width="10" height="8" fill="{NATION_COLOUR[owner]}" '
                       f'stroke="#222" stroke-width="0.5"/>')
            out.append(_t(x + 13, y - 11.5, owner[0].upper(), 6, "middle", kit.ink_on(NATION_COLOUR[owner]), "bold"))
        m = C.LOC[loc].get("market")
        if m and kind == "city":
            taken = view["market"].get(loc, [])
            for k in range(len(m["rewards"])):
                fill = _colour(view, taken[k]) if k < len(taken) and isinstance(taken[k], int) else "#fff"
                out.append(f'<rect x="{x - 13 + 7 * k}" y="{y + 24}" width="6" height="5" fill="{fill}" '
                           f'stroke="#8a5a2b" stroke-width="0.6"/>')
        if loc in view["quests"]:  # the tag as wide and tall as its words (QA #20: a mail's bigger "UQ23"
            qid = str(view["quests"][loc])  # spilled out of its 14-unit tag, up under the framed ship)
            size = max(6, least)
            tw = max(14.0, kit.text_width(qid, size, False) + 3)
            top = y - 11 - (size + 3)
            out.append(f'<rect class="quest" x="{x - 15 - tw / 2:.1f}" y="{top:.1f}" width="{tw:.1f}" '
                       f'height="{size + 3:.1f}" rx="2" fill="#ffd43b" stroke="#a07c00" stroke-width="0.6"/>')
            out.append(_t(x - 15, top + size + 1, qid, 6, "middle"))
        if loc in stops:  # a legacy stop tile: what ending a sail here gives or costs, left of the place
            tag = _stop_tag(stops[loc])
            size = max(6.5, least)
            tw = kit.text_width(tag, size, True) + 3
            out.append(f'<rect class="stop" x="{x - 13 - tw:.1f}" y="{y + 1}" width="{tw:.1f}" '
                       f'height="{size + 3:.1f}" rx="2" fill="#fff" stroke="#5f3dc4" stroke-width="0.8"/>')
            out.append(_t(x - 13 - tw / 2, y + size + 2, tag, size, "middle", "#5f3dc4", "bold"))
        dx, dy = ship_offset(loc, len(ships.get(loc, [])), view, least)
        for k, colour in enumerate(ships.get(loc, [])):
            sx, sy = x + dx + 8 * k, y + dy
            cls = ' class="mine"' if mine == (loc, k) else ""
            if cls and least:  # a picture has no page style to mark it: a frame
                out.append(f'<rect x="{sx - 2.5}" y="{sy - 7}" width="12" height="13" rx="2" fill="#ffffff" '
                           'stroke="#111" stroke-width="1.2"/>')
            out.append(f'<path{cls} d="M{sx} {sy} l7 0 l-1.5 4 l-4 0 z" fill="{colour}" stroke="#222" '
                       'stroke-width="0.4"/>'
                       f'<line x1="{sx + 3.5}" y1="{sy}" x2="{sx + 3.5}" y2="{sy - 5}" stroke="#222" '
                       'stroke-width="0.6"/>')
    for i, p in enumerate(view["p"]):
        for k, a in enumerate(p.get("assist", ())):
            x, y = POS.get(a["loc"], (0, 0))
            out.append(f'<circle cx="{x + 16 + 4 * k}" cy="{y + 8 - 6 * i}" r="2.6" fill="{_colour(view, i)}" '
                       'stroke="#222" stroke-width="0.4"/>')
    # a tag is drawn inside the part a picture shows (QA of #20: L37's right of 13 was cut at a mail's edge)
    out += _svg_new_legacy(view, _t, least, None if box is None else (box[0], box[1], box[0] + box[2], box[1] + box[3]))
    if not legend:
        return out
    # the legend
    new = bool(view.get("uprising_legacy"))
    lx, ly = 384, 222 - (9 if stops else 0) - (9 if new else 0)  # a line more each: the legend starts higher
    out.append(_t(lx, ly, "circle: village; square: city,", 6.5))
    out.append(_t(lx, ly + 9, "its market discs below; flag: owner", 6.5))
    out.append(_t(lx, ly + 18, "(F, E, S); Q: quest; boats: ships;", 6.5))
    out.append(_t(lx, ly + 27, "dots: assistants" + ("; +1 CP, -2 d: a stop's" if stops else ""), 6.5))
    if stops:
        out.append(_t(lx, ly + 36, "legacy tile (ending a sail there)", 6.5))
    if new:
        out.append(_t(lx, ly + (45 if stops else 36), "green tag: an Uprising legacy tile", 6.5))
    return out


#: the Uprising's new legacy tiles on a place: what using them costs or gives, in a tag's few words
NEW_TAGS = {"L30": "toll: 1 marker", "L33": "disc + village", "L34": "reveal: reward", "L35": "-1 CP +2 VP",
            "L36": "-2 goods +2 d", "L37": "disc: on to 2"}


#: where a new tile's tag goes from its place, where right of it would cover a neighbour's name
_TAG_AT = {"21a": (-20, 26), "10a": (-44, -46), "6": (21, -22), "15": (12, -4)}


def _svg_new_legacy(view: View, text: Any, least: float,
                    part: tuple[float, float, float, float] | None = None) -> list[str]:
    """The Uprising's new legacy tiles on the map: a green tag right of their place (what using them costs
    or gives), the players' discs on L33 and L37, the nations' markers given up on L30 (player's outline);
    ``part`` (x0, y0, x1, y1): the part of the map a picture shows, whose edges cut no tag: one right of
    a place in it is drawn left of the place when it would cross the right edge, one still cut is left out
    (the mail's text says the tile)."""
    out: list[str] = []
    board = view.get("legacy_board") or {}
    for t in view.get("uprising_legacy") or ():
        row = C_U.LEGACY.get(t["id"], {})
        if t["id"] not in NEW_TAGS or "loc" not in row:
            continue
        x, y = POS.get(str(row["loc"]), (0, 0))
        dx, dy = _TAG_AT.get(str(row["loc"]), (14, -4))
        x, y = x + dx - 14, y + dy + 4  # (the tag's corner; what lies on the tile under it)
        tag, size = NEW_TAGS[t["id"]], max(6, least)
        tw = kit.text_width(tag, size, True) + 3
        px = POS[str(row["loc"])][0]
        right = MAP_W - 2 if part is None or px > part[2] else min(MAP_W - 2, part[2] - 2)
        if x + 14 + tw > right:  # past the map's right edge (L36 at 8), or the picture's: left of its place
            x = round(px - 27 - tw)
        if part is not None:
            x0, y0, x1, y1 = x + 14, y - 4, x + 14 + tw, y - 4 + size + 3
            if not (part[0] <= x0 and x1 <= part[2] and part[1] <= y0 and y1 <= part[3]) and not (
                    x1 <= part[0] or x0 >= part[2] or y1 <= part[1] or y0 >= part[3]):
                continue
        out.append(f'<rect class="newtile" x="{x + 14}" y="{y - 4}" width="{tw:.1f}" height="{size + 3:.1f}" rx="2" '
                   'fill="#fff" stroke="#2b8a3e" stroke-width="0.8"/>')
        out.append(text(x + 14 + tw / 2, y + size - 3, tag, size, "middle", "#2b8a3e", "bold"))
        held = board.get(t["id"])
        if isinstance(held, list):  # discs (L33, L37), under the tag
            for k, seat in enumerate(held):
                out.append(f'<circle cx="{x + 18 + 6 * k}" cy="{y + size + 4}" r="2.6" fill="{_colour(view, seat)}" '
                           'stroke="#222" stroke-width="0.4"/>')
        elif isinstance(held, dict):  # the new city's Dutch flag: each marker given up
            for k, (seat, nation) in enumerate(sorted(held.items())):
                out.append(f'<rect x="{x + 15 + 8 * k}" y="{y + size + 1}" width="6" height="6" '
                           f'fill="{NATION_COLOUR[nation]}" stroke="{_colour(view, int(seat))}" stroke-width="1.2"/>')
    return out


def _svg_explorer(view: View, y: int) -> tuple[list[str], int]:
    out = [_t(6, y + 8, "Explorer track", 9, weight="bold")]
    n = C.END_SPACE + 1
    cw = (640 - 100) / n
    x0 = 94
    for s in range(n):
        x = x0 + s * cw
        fill = {"red": "#ffc9c9", "blue": "#a5d8ff", "green": "#b2f2bb"}.get(C.BARRIERS.get(s, ""), "#f1f3f5")
        if s == C.END_SPACE:
            fill = "#ffe066"
        out.append(f'<rect x="{x:.1f}" y="{y}" width="{cw - 1:.1f}" height="14" fill="{fill}" stroke="#adb5bd" '
                   'stroke-width="0.5"/>')
        out.append(_t(x + cw / 2, y + 10, str(s), 6.5, "middle", "#343a40"))
        if str(s) in view["tquests"]:
            out.append(_t(x + cw / 2, y + 22, "Q", 7, "middle", _INK_Q, "bold"))
    pawns = [(p["explorer"], _colour(view, i)) for i, p in enumerate(view["p"])]
    if view.get("jean"):
        pawns.append((view["jean"]["explorer"], JEAN_COLOUR))
    if view.get("jacques"):
        pawns.append((view["jacques"]["explorer"], JEAN_COLOUR))
    for k, (s, colour) in enumerate(pawns):
        x = x0 + s * cw + 3 + 3 * k
        out.append(f'<circle cx="{x:.1f}" cy="{y - 3}" r="2.8" fill="{colour}" stroke="#222" stroke-width="0.4"/>')
    for i, p in enumerate(view["p"]):  # the Uprising's Roatán: the home port's figure, a ring of the colour
        if "explorer2" in p:
            x = x0 + int(p["explorer2"]) * cw + cw - 4 - 3 * i
            out.append(f'<circle cx="{x:.1f}" cy="{y - 3}" r="2.6" fill="#fff" stroke="{_colour(view, i)}" '
                       'stroke-width="1.4"/>')
    board = view.get("legacy_board") or {}
    if "L32" not in board:
        return out, y + 28
    return _svg_ruin(view, board, x0, cw, y, out)


def _svg_ruin(view: View, board: dict[str, Any], x0: float, cw: float, y: int,
              out: list[str]) -> tuple[list[str], int]:
    """The Uprising's ruin (L31, after its explorer space) and its track (L32) with the figures on it."""
    after = int(C_U.LEGACY["L31"]["after_space"])
    rx = x0 + (after + 1) * cw - 1
    out.append(f'<rect x="{rx - 2:.1f}" y="{y - 2}" width="4" height="18" fill="#868e96"><title>the ruin (L31): '
               f'passing it puts a figure on the ruin track</title></rect>')
    yy = y + 32
    out.append(_t(6, yy + 10, "Ruin track", 8, weight="bold"))
    spaces = C_U.LEGACY["L32"]["spaces"]
    labels = ["start", *(C.gain_text(sp["gain"]) if "gain" in sp else "pay " + "/".join(sp["pay"]["objects"])
                         for sp in spaces), "end " + "/".join(map(str, C_U.LEGACY["L32"]["end_vp"])) + " VP"]
    w = (640 - 100) / len(labels)
    for k, text in enumerate(labels):
        out.append(f'<rect x="{x0 + k * w:.1f}" y="{yy}" width="{w - 1:.1f}" height="14" fill="#e9ecef" '
                   'stroke="#adb5bd" stroke-width="0.5"/>')
        out.append(_t(x0 + k * w + w / 2, yy + 10, f"{k} {text}" if 0 < k < len(labels) - 1 else text, 6.5,
                      "middle", "#343a40"))
    for j, (seat, at) in enumerate(sorted(board["L32"].items())):
        x = x0 + int(at) * w + 5 + 5 * j
        out.append(f'<circle cx="{x:.1f}" cy="{yy - 3}" r="2.8" fill="{_colour(view, int(seat))}" stroke="#222" '
                   'stroke-width="0.4"/>')
    return out, yy + 24


def _svg_influence(view: View, y: int) -> tuple[list[str], int]:
    # scenario 79 scores no nation at the end: no multiplier is shown (QA of #20: "France x2" misled, as in the mail)
    scores = nations_score(view)
    out = [_t(6, y + 8, "Influence" if scores else "Influence (no nation scores at the end of this scenario)", 9,
              weight="bold")]
    cw = (640 - 100) / (C.INFLUENCE_MAX + 1)
    x0 = 94
    for r, nation in enumerate(C.NATIONS):
        yy = y + 4 + r * 15
        name = f"{nation.title()} x{view['multiplier'][nation]}" if scores else nation.title()
        out.append(_t(x0 - 4, yy + 10, name, 8, "end",
                      kit.readable(NATION_COLOUR[nation]), "bold"))
        for v in range(C.INFLUENCE_MAX + 1):
            x = x0 + v * cw
            fill = "#ffe8cc" if v in C.RANK_AT else "#f8f9fa"
            out.append(f'<rect x="{x:.1f}" y="{yy}" width="{cw - 1:.1f}" height="12" fill="{fill}" stroke="#ced4da" '
                       'stroke-width="0.5"/>')
            if r == 0:
                out.append(_t(x + cw / 2, y + 1, str(v), 6, "middle", "#5c636a"))
        marks = [(p["inf"][nation], _colour(view, i)) for i, p in enumerate(view["p"])]
        if view.get("jean"):
            marks.append((view["jean"]["inf"][nation], JEAN_COLOUR))
        for k, (v, colour) in enumerate(marks):
            x = x0 + min(v, C.INFLUENCE_MAX) * cw + 3 + 4 * (k % 4)
            out.append(f'<circle cx="{x:.1f}" cy="{yy + 6}" r="2.6" fill="{colour}" stroke="#222" stroke-width="0.4"/>')
    return out, y + 4 + 3 * 15 + 4


def _svg_players(view: View, y: int) -> tuple[list[str], int]:
    out = [_t(6, y + 9, "Players: VP, doubloons, income (d / VP a scoring), combat points, figures", 9,
              weight="bold")]
    y += 14
    vmax = max([p["vp"] for p in view["p"]] + [view["jean"]["vp"] if view.get("jean") else 0]
               + [view["jacques"]["vp"] if view.get("jacques") else 0] + [40])
    rows = [(str(view["players"][i]), p["vp"], p, _colour(view, i)) for i, p in enumerate(view["p"])]
    if view.get("jean"):
        rows.append((str(view["jean"]["name"]), view["jean"]["vp"], None, JEAN_COLOUR))
    if view.get("jacques"):
        rows.append((str(view["jacques"]["name"]), view["jacques"]["vp"], None, JEAN_COLOUR))
    for name, vp, p, colour in rows:
        you = " (you)" if p is not None and view["p"].index(p) == view.get("seat") else ""
        said = name + (f" ({say('you')})" if you else "")  # (a player's name is no word to say again)
        out.append(_text(6, y + 9, said, 8.5, "start", kit.readable(colour), "bold"))
        bar = 180 * vp / vmax
        out.append(f'<rect x="94" y="{y + 2}" width="{max(bar, 1):.1f}" height="8" fill="{colour}"/>')
        out.append(_t(98 + bar, y + 9, f"{vp} VP", 8))
        if p is not None:
            inc = 120 * (p["inc_d"] - C.INCOME_D_MIN) / (C.INCOME_D_MAX - C.INCOME_D_MIN)
            out.append(f'<rect x="330" y="{y + 2}" width="120" height="8" fill="#f1f3f5" stroke="#ced4da" '
                       'stroke-width="0.5"/>')
            out.append(f'<rect x="330" y="{y + 2}" width="{max(inc, 1):.1f}" height="8" fill="#ffd43b"/>')
            out.append(_t(454, y + 9, f"{p['d']} d; income {p['inc_d']} d / {p['inc_vp']} VP; "
                                      f"{p['cp']} cp, {p['fig']} fig", 7.5))
        y += 13
    return out, y + 4


def ship_areas(p: dict[str, Any]) -> list[tuple[str, str]]:
    """A player's ship areas in the board's order, each with its words as that board says them: the
    base game's twelve; on the Uprising's new board (``board`` in the player) its own words (the
    indicated upgrade's compass, the combat action tile's side in Liberation: ``homeports.area_text``,
    as the options say them) and its resistance tile and home port slots (QA: the picture showed the base
    game's U4 and U6 to a 79 player, and neither slot)."""
    if "board" not in p:
        return [(str(u["id"]), str(u["text"])) for u in C.UPGRADES]
    hp = homeports
    extra = [a for a in (hp.RESISTANCE_AREA, hp.PORT_AREA) if a in p["discs"] or a in p["areas"]]
    return [(uid, hp.area_text(p, uid)) for uid in [*(str(u["id"]) for u in C.UPGRADES), *extra]]


def area_words(uid: str, text: str) -> str:
    """A ship area's words for a picture, in the reader's language: the base game's shortened (no note in
    brackets, "village:"), the Uprising's board's own whole (their catalogue entries are whole: cut, a
    Portuguese reader got half English, and the U side of the combat action tile lost its village)."""
    base = C.UPGRADE.get(uid)
    if base is not None and str(base["text"]) == text:
        return say(text.split(" (")[0].replace("village action: ", "village: "))
    return say(text)


def _svg_ship(view: View, seat: int, y: int) -> tuple[list[str], int]:
    """The ship board: twelve areas in a row, the Uprising's slots in a row of their own; each area's words
    whole (QA #20: two lines cut the U side of the combat action tile to "combat action tile, U side:"
    and a long home port mid-sentence), its row as tall as its longest words."""
    p = view["p"][seat]
    out = [_t(6, y + 9, "Your ship board (discs left; filled = upgrade done)", 9, weight="bold")]
    y += 13
    cw = 52
    areas = ship_areas(p)
    half = 6 * cw
    rows = ([(uid, text, 6 + k * cw, cw, 14) for k, (uid, text) in enumerate(areas[:12])],
            [(uid, text, 6 + k * half, half, 84) for k, (uid, text) in enumerate(areas[12:])])
    for n, row in enumerate(rows):
        if not row:
            continue
        if n:  # the Uprising's slots: a row of their own, half the board's width each
            y += 4
        lines = [textwrap.wrap(area_words(uid, text), chars) for uid, text, _x, _w, chars in row]
        height = 16 + 7 * max(2, *(len(ls) for ls in lines))
        for (uid, _words, x, w, _chars), words in zip(row, lines):
            fill = "#b2f2bb" if uid in p["areas"] else "#f8f9fa"
            out.append(f'<rect x="{x}" y="{y}" width="{w - 3}" height="{height}" rx="3" fill="{fill}" '
                       'stroke="#868e96" stroke-width="0.6"/>')
            out.append(_t(x + 3, y + 10, uid, 8, weight="bold"))
            for d in range(p["discs"].get(uid, 0)):
                out.append(f'<circle cx="{x + 30 + 8 * d}" cy="{y + 7}" r="3" fill="#495057"/>')
            for k2, line in enumerate(words):
                out.append(_text(x + 3, y + 20 + 7 * k2, line, 6, "start", "#111", "normal"))
        y += height
    return out, y + 6


def _card_box(x: float, y: int, cid: int, head: str) -> list[str]:
    c = C.CARD[cid]
    out = [f'<rect x="{x:.0f}" y="{y}" width="154" height="44" rx="3" fill="#fff9db" stroke="#a07c00" '
           'stroke-width="0.6"/>',
           _text(x + 4, y + 10, f"{head if head[:1].isdigit() or not head else say(head.rstrip(': ')) + ': '}"
                 f"{say(str(c['name']))}", 8, "start", "#111", "bold"),
           _t(x + 4, y + 20, f"{c['good']} / {c['object']} - {c['cost']} d - {c['vp']} VP", 7)]
    effects = say("; ".join(C.effect_text(e) for e in c["effects"]) or "no effect")
    for k, line in enumerate(textwrap.wrap(effects, 38)[:2]):  # (said before it is cut in lines)
        out.append(_text(x + 4, y + 30 + 9 * k, line, 6.5, "start", "#111", "normal"))
    return out


def _svg_display(view: View, y: int) -> tuple[list[str], int]:
    out = [_t(6, y + 9, "Display (draw for 1 doubloon)", 9, weight="bold")]
    y += 13
    for i, cid in enumerate(view["display"][:4]):
        out += _card_box(6 + 158 * i, y, cid, f"{i + 1}. ")
    y += 50
    seat = view.get("seat")
    if seat is not None:
        p = view["p"][seat]
        mine = [(c, "") for c in p["display"]] + [(c, "planned: ") for c in p["plan"]]
        out.append(_t(6, y + 9, "Your cards in play" + ("" if mine else ": none"), 9, weight="bold"))
        y += 13
        for k, (cid, head) in enumerate(mine):
            out += _card_box(6 + 158 * (k % 4), y + 48 * (k // 4), cid, head)
        if mine:
            y += 48 * ((len(mine) + 3) // 4)
    return out, y
