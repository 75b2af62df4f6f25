"""Maracaibo's board in words for mails (the text part of a turn's mail, and the whole of it on request),
made from a view only (so nothing hidden can leak).

It says SUBSTITUTE CONTENT: the cards, map and tiles are this project's, not the published game's.
It is meant to be followed without the box: the map state place by place, each player's tracks, the
reader's hand with each card's good, object, cost and effect in words, the display, the quests and
what they need, what a main action where the reader's ship is would give, and where it can sail.
Said in the reader's language line by line (``_said_lines``) with the pictures' words (render_base.say).
"""

from __future__ import annotations

import functools
import textwrap
from typing import Any

from engine import i18n
from engine.core import View

from . import content as C
from . import coop, labels, reach, render_story, ship
from . import uprising_content as C_U
from .homeports import port_text
from .render_base import _kind, _name, _scenario, _stop_gives, _stops, say

WIDTH = 76
SUBSTITUTE = "the cards, map and tiles are this project's own"


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
    goal = coop.goal_lines(view)
    if goal:
        out += ["", "THE TABLE'S GOAL (all win or all lose together, checked at the end of the game)"]
        out += [w for line in goal for w in _wrap(line)]
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
