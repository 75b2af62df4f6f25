"""Jacques, the Uprising's automa (rulebook: "Jacques"; docs/rules/maracaibo-cooperative.md):
a seat inside the engine, driven by his pile in the state, never asked anything.

He plays in a solo game with the option ``automa=jacques`` (instead of Jean) and in the
cooperative modes (74, 193) at any player count. He sits to the right of the starting player
(seat 0): each time play passes from the last seat to the first within a round, every player has
played once and his ``jacques`` frame (one option, which the decision stack takes by itself)
reveals the top card of his pile and resolves only its n-th area, n the number of cards he has
revealed this round. His turns are events in the players' moves; no mail goes to him.

His cards are data (``data/uprising/jacques.json``): 12 cards, 7 A (5 VP) and 5 B (10 VP), seven
areas each: ``disc`` (a disc to that city's market unless it is full), ``quest`` (the quest at the
lowest-numbered location of the range, else the quest pile's top), ``explore`` (n spaces: to a
reachable quest on the track, else by the shortest way; no reward, no barrier, skipping occupied
spaces and skipped by other explorers) and ``end_round`` (nothing now; he ends the round when play
comes round to him again, twice in the last round, unless a player ended it first: 15 VP).

His part of the state, ``state["jacques"]``: ``level`` (1-4), ``pile`` (face down, top last:
hidden), ``box`` (the cards the difficulty removed: hidden), ``seen`` (every card revealed so
far), ``revealed`` (this round's cards, in order: public), ``ends_in`` (None, or how many more
times play must come round to him before he ends the round), ``ended`` (he ended the current
round), ``vp``, ``src`` (VP by source), ``explorer``, ``quests`` (quest tiles taken), ``discs``
(discs he put on markets).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import automa
from . import content as C
from .automa import TO_END
from .board import HANDLERS, last_round, opt, stack, start_turn
from .effects import add_vp, who

J = dict[str, Any]

# (the package's folder from importlib.resources, not __file__: see engine/compiled.py)
DATA: dict[str, Any] = json.loads(
    resources.files("engine.games.maracaibo").joinpath("data", "uprising", "jacques.json").read_text("utf-8"))
NAME: str = DATA["name"]
CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["cards"]}
LEVELS: dict[int, dict[str, Any]] = {int(k): v for k, v in DATA["levels"].items()}
CARD_VP: dict[str, int] = DATA["vp"]
END_ROUND: dict[str, int] = DATA["end_round"]
FINAL: dict[str, int] = DATA["final"]
AREAS = 7


# ---- reading ---------------------------------------------------------------------------------------

def playing(state: State) -> bool:
    """Jacques sits at the table."""
    return "jacques" in state


def explorers(state: State) -> set[int]:
    """The explorer space Jacques occupies (none without him): a player's explorer skips it."""
    return {int(state["jacques"]["explorer"])} if "jacques" in state else set()


def card_vp(cid: str) -> int:
    return int(CARD_VP[CARDS[cid]["level"]])


def area_text(a: dict[str, Any]) -> str:
    act = a["do"]
    if act == "disc":
        sub = " (substitute for city 17)" if a.get("substitute") else ""
        return f"a disc to the market of {a['city']} {C.LOC[a['city']]['name']}{sub}"
    if act == "quest":
        return f"a quest from locations {a['from']}-{a['to']} (else the pile's top)"
    if act == "explore":
        return f"explore {a['n']}"
    return "end the round"


def card_text(cid: str, area: int | None = None) -> str:
    c = CARDS[cid]
    if area is not None:
        return f"{cid} ({card_vp(cid)} VP), area {area + 1}: {area_text(c['areas'][area])}"
    return f"{cid} ({card_vp(cid)} VP): " + "; ".join(f"{i + 1} {area_text(a)}" for i, a in enumerate(c["areas"]))


# ---- setup -----------------------------------------------------------------------------------------

def setup(state: State, level: int, rng: Rng) -> None:
    """His pile: from 7 A and 5 B cards, the difficulty removes some of each at random; 7 shuffled."""
    pile: list[str] = []
    box: list[str] = []
    for lv in ("A", "B"):
        ids = [c["id"] for c in DATA["cards"] if c["level"] == lv]
        rng.shuffle(ids)
        k = int(LEVELS[level]["remove"][lv])
        box += ids[:k]
        pile += ids[k:]
    rng.shuffle(pile)
    state["jacques"] = {"level": level, "pile": pile, "box": sorted(box), "seen": [], "revealed": [], "ends_in": None,
                        "ended": False, "victory_points": 0, "victory_points_by_source": {}, "explorer": 0,
                        "quests": 0, "discs": 0}


def resample(state: State, rng: Rng) -> None:
    """Change what nobody may know of him: which of his cards never revealed are in his pile or
    out of the game (by level: the difficulty's numbers are known), and their order."""
    j = state["jacques"]
    shown = set(j["seen"])
    for lv in ("A", "B"):
        slots = [i for i, cid in enumerate(j["pile"]) if cid not in shown and CARDS[cid]["level"] == lv]
        pool = [j["pile"][i] for i in slots] + [cid for cid in j["box"] if CARDS[cid]["level"] == lv]
        rng.shuffle(pool)
        for i in slots:
            j["pile"][i] = pool.pop()
        j["box"] = sorted([cid for cid in j["box"] if CARDS[cid]["level"] != lv] + pool)


def public(state: State) -> dict[str, Any]:
    """What everybody sees of Jacques (his pile by its size only, his removed cards not at all)."""
    j = state["jacques"]
    return {
        "name": NAME, "level": j["level"], "level_name": LEVELS[int(j["level"])]["name"], "pile": len(j["pile"]),
        "revealed": list(j["revealed"]), "ends_in": j["ends_in"], "ended": j["ended"], "vp": j["victory_points"],
        "src": dict(j["victory_points_by_source"]), "explorer": j["explorer"], "quests": j["quests"],
        "discs": j["discs"],
        "round_vp": sum(card_vp(c) for c in j["revealed"]),
    }


def text_line(view: dict[str, Any]) -> str:
    """Jacques's line in the mail text."""
    j = view["jacques"]
    last = j["revealed"][-1] if j["revealed"] else None
    card = f"; his last card {card_text(last, len(j['revealed']) - 1)}" if last else ""
    ends = f"; he ends the round in {j['ends_in']} more pass(es) of play" if j["ends_in"] else ""
    return (f"  {j['name']} (the automa, {j['level_name']}): {j['vp']} VP; explorer {j['explorer']}; "
            f"quests {j['quests']}; cards revealed this round {len(j['revealed'])} ({j['round_vp']} VP at the "
            f"round's end); his pile {C.counted(j['pile'], 'card')}{card}{ends}")


# ---- his turn --------------------------------------------------------------------------------------

def his_turn_now(state: State, seat: int) -> bool:
    """Whether play now passes Jacques: the last seat has ended a turn that did not end the round."""
    return playing(state) and seat == len(state["players"]) - 1


def play(state: State, rng: Rng, ev: list[Event]) -> bool:
    """His turn when every player has played once; True when he ends the round now."""
    j = state["jacques"]
    if j["ends_in"] is not None:
        j["ends_in"] -= 1
        if j["ends_in"] <= 0:
            j["ends_in"] = None
            j["ended"] = True
            add_vp(j, int(END_ROUND["vp"]), "end round")
            ev.append(new_event("jacques_end", f"{NAME} ends round {state['round']} and scores "
                                f"{END_ROUND['vp']} VP.", {"vp": END_ROUND["vp"]}))
            return True
        ev.append(new_event("jacques_wait", f"{NAME} reveals no card: he ends the round after each player's "
                            f"next turn ({j['ends_in']} more).", {"ends_in": j["ends_in"]}))
        return False
    cid: str = j["pile"].pop()
    j["revealed"] = [*j["revealed"], cid]
    if cid not in j["seen"]:
        j["seen"].append(cid)
    area_no = min(len(j["revealed"]), AREAS) - 1
    area = CARDS[cid]["areas"][area_no]
    ev.append(new_event("jacques_card", f"{NAME} reveals {card_text(cid, area_no)}.",
                        {"card": cid, "area": area_no + 1}, reveals=True))
    act = area["do"]
    if act == "disc":
        disc(state, str(area["city"]), ev)
    elif act == "quest":
        quest(state, int(area["from"]), int(area["to"]), ev)
    elif act == "explore":
        explore(state, int(area["n"]), ev)
    else:
        # Why a local: mypy narrows j["ends_in"] to None after the early return above, and the compiled
        # engine (mypyc) read the narrowed None here, not the number just stored (the event said
        # "ends_in": null compiled, 1 or 2 in plain Python; bench/engine_hash.py's solo Jacques lines)
        ends_in = int(END_ROUND["turns_last_round"] if last_round(state) else END_ROUND["turns"])
        j["ends_in"] = ends_in
        ev.append(new_event("jacques_wait", f"{NAME} does nothing now; he ends the round after each player has "
                            f"played {'twice' if ends_in == 2 else 'once'} more, unless a player ends it "
                            "first.", {"ends_in": ends_in}))
    return False


def disc(state: State, city: str, ev: list[Event]) -> None:
    """A disc (one from out of the game) into the city's next free market space, unless it is full."""
    market = state["market"].get(city, [])
    name = C.LOC[city]["name"]
    if len(market) >= len(C.LOC[city]["market"]["rewards"]):
        ev.append(new_event("jacques_disc", f"The market of {city} {name} is full: {NAME} places no disc.",
                            {"loc": city}))
        return
    state["market"][city] = [*market, "jacques"]  # (replaced: views share it)
    state["jacques"]["discs"] += 1
    ev.append(new_event("jacques_disc", f"{NAME} puts a disc on the market of {city} {name}.", {"loc": city}))


def _number(loc: str) -> int:
    return int(loc.rstrip("ab"))


def quest(state: State, first: int, last: int, ev: list[Event]) -> None:
    """The quest at the lowest-numbered location from ``first`` to ``last`` (by number: 9a with 9),
    else the top of the quest pile."""
    j = state["jacques"]
    here = sorted((loc for loc in state["quests"] if first <= _number(loc) <= last), key=lambda x: (_number(x), x))
    if here:
        loc = here[0]
        q = state["quests"].pop(loc)
        j["quests"] += 1
        ev.append(new_event("jacques_quest", f"{NAME} takes quest {q} at {loc} {C.LOC[loc]['name']}.",
                            {"quest": q, "loc": loc}))
        return
    if not state["quest_pile"]:
        ev.append(new_event("jacques_quest", f"No quest at locations {first}-{last} and the quest pile is empty: "
                            f"{NAME} takes none.", {}))
        return
    q = state["quest_pile"].pop(0)
    j["quests"] += 1
    top = state["quest_pile"][0] if state["quest_pile"] else None
    ev.append(new_event("jacques_quest", f"No quest at locations {first}-{last}: {NAME} takes quest {q} from the "
                        "pile" + (f"; the pile now shows {top}." if top else "; the pile is empty."),
                        {"quest": q, "top": top}, reveals=True))


# ---- his explorer -----------------------------------------------------------------------------------

def _occupied(state: State) -> set[int]:
    """The players' explorers (and Roatán's second figures): skipped, not counted."""
    held = {int(p["explorer"]) for p in state["seats"]} | {int(p["explorer2"]) for p in state["seats"]
                                                           if "explorer2" in p}
    return held - {C.END_SPACE}


def quest_in_reach(state: State, start: int, n: int) -> int | None:
    """The track quest he can reach with at most n counted spaces: the fewest spaces, then the
    lower space (occupied spaces are skipped and not counted)."""
    return automa.quest_in_reach(state, start, n, _occupied(state))


def explore(state: State, n: int, ev: list[Event]) -> None:
    """n spaces on: to a quest within reach (stopping there and taking it), else by the shortest
    way; no reward, no barrier bonus, no end-of-track bonus (he ignores the track's effects)."""
    j = state["jacques"]
    start = int(j["explorer"])
    if start == C.END_SPACE:
        ev.append(new_event("jacques_explore", f"{NAME}'s explorer is at the end of the track already.", {}))
        return
    occupied = _occupied(state)
    to = quest_in_reach(state, start, n)
    took = to is not None
    if to is None:
        to = automa.shortest_way(start, n, occupied)
    j["explorer"] = to
    ev.append(new_event("jacques_explore", f"{NAME}'s explorer moves to space {to}.", {"to": to}))
    if took:
        q = state["track_quests"].pop(str(to))
        j["quests"] += 1
        ev.append(new_event("jacques_quest", f"{NAME} takes quest {q} on the explorer track.", {"quest": q}))


def explorer_margin(state: State, seat: int) -> int:
    """How many spaces the player's explorer is ahead of his (negative: behind), by the spaces
    each still has to the end by the shortest way (on different branches: how far each is from
    where the branches meet)."""
    return TO_END[int(state["jacques"]["explorer"])] - TO_END[int(state["seats"][seat]["explorer"])]


# ---- scoring ------------------------------------------------------------------------------------------

def round_end(state: State, rng: Rng, ev: list[Event]) -> None:
    """At a round's end: VP for each card revealed this round; those cards shuffled under his pile."""
    j = state["jacques"]
    vp = sum(card_vp(c) for c in j["revealed"])
    if vp:
        add_vp(j, vp, "cards")
    n = len(j["revealed"])
    ev.append(new_event("jacques_round", f"{NAME} scores {vp} VP for the {n} card{'' if n == 1 else 's'} he "
                        "revealed this round; they go under his pile.", {"vp": vp}))
    back = list(j["revealed"])
    rng.shuffle(back)
    j["pile"] = back + j["pile"]  # (top last: the bottom is the front)
    j["revealed"] = []
    j["ends_in"] = None
    j["ended"] = False


def final(state: State, ev: list[Event]) -> None:
    """The game's end: each player ahead of / behind his explorer, and with more / fewer quests,
    scores / loses 5 VP (nothing for a tie)."""
    j = state["jacques"]
    for i, p in enumerate(state["seats"]):
        parts = []
        for what, margin in (("explorer", explorer_margin(state, i)), ("quests", int(p["quests"]) - int(j["quests"]))):
            if margin == 0:
                continue
            vp = FINAL[what] if margin > 0 else -FINAL[what]
            add_vp(p, vp, "jacques")
            parts.append(f"{'+' if vp > 0 else ''}{vp} VP for the {what} ({'ahead of' if margin > 0 else 'behind'} "
                         f"{NAME})" if what == "explorer" else
                         f"{'+' if vp > 0 else ''}{vp} VP for {'more' if margin > 0 else 'fewer'} quests than {NAME}")
        ev.append(new_event("jacques_final", f"{who(state, i)}: " + ("; ".join(parts) or f"level with {NAME}")
                            + f": {p['victory_points']} VP.", {"seat": i}))


def outcome_reason(state: State) -> tuple[bool, str]:
    """Solo against Jacques: whether the player beat him (more VP; a tie is his)."""
    me, him = int(state["seats"][0]["victory_points"]), int(state["jacques"]["victory_points"])
    if me > him:
        return True, f"final scoring: {state['players'][0]} beats {NAME}"
    return False, f"final scoring: {NAME} wins" + (" the tie" if me == him else "")


# ---- the frame -----------------------------------------------------------------------------------------

def _jacques_options(state: State, f: Frame) -> list[Option]:
    return [opt("jacques", f"{NAME}'s turn")]


def _jacques_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    """His turn between the last seat and the first; then the first seat's turn, or the end of
    the round he ends (the players score from the first seat on)."""
    ev: list[Event] = []
    if not play(state, rng, ev):
        start_turn(state, 0, ev)
        return ev
    n = len(state["players"])
    kind = "final" if last_round(state) else "interim"
    ev.append(new_event("round_end", f"{NAME} ended round {state['round']}: {kind} scoring.", {"jacques": True}))
    # the scoring frame's seat is the last seat, so that the next round begins with the first
    stack(state).push_all([*(frame("score", s, mode=kind, ask=True) for s in range(n)),
                           frame("scoring", n - 1, mode=kind)])
    return ev


HANDLERS["jacques"] = FunctionHandler(_jacques_options, _jacques_resolve)
