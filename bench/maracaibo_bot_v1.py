"""The first Maracaibo bot, kept as a baseline: ``bench/maracaibo_balance.py --against v1``.

It was engine/games/maracaibo/bot.py until the bot that plans deliveries replaced it: it
plans where to sail, buys what pays, fights when it pays, but seldom delivers.

It reads only what its own seat may know (its hand, the public board). Each
option gets a score from a few rules of thumb; small noise from the seeded
``rnd`` breaks ties so that games differ.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Option, State
from engine.games.maracaibo import content as C
from engine.games.maracaibo.board import city_action, last_round, loc_kind
from engine.games.maracaibo.cards import card_cost
from engine.games.maracaibo.effects import player
from engine.games.maracaibo.quests import can_pay_quest
from engine.games.maracaibo.sailing import village_count


def card_value(state: State, p: dict[str, Any], cid: int) -> float:
    """What a card is worth to its buyer now, in VP, roughly."""
    c = C.CARD[cid]
    left = int(state["rounds"]) - int(state["round"]) + 1
    v = float(c["vp"])
    for e in c["effects"]:
        t = e["t"]
        if t == "income":
            if e.get("needs") and e["needs"] not in p["synergy"]:
                v += 0.5
            else:
                v += (e.get("d", 0) * 0.45 + e.get("vp", 0)) * left
        elif t == "now":
            g = e["gain"]
            v += g.get("vp", 0) + g.get("d", 0) * 0.4 + g.get("cp", 0) * 0.5 + g.get("inf", 0) * 1.2 \
                + g.get("explore", 0) * 1.2 + g.get("disc", 0) * 1.5
            if "per" in g:
                v += 1.5
        elif t in ("village", "assistant", "combat"):
            v += 1.2 * left
        elif t == "perm":
            v += 1.5 * left
    if c.get("synergy") and c["synergy"] not in p["synergy"]:
        v += 1
    return v - 0.25 * card_cost(p, cid)


def _score(state: State, seat: int, o: Option, steps: dict[str, int]) -> float:
    p = player(state, seat)
    code = o.code
    if code.startswith("s") and code[1:] in C.LOC:
        return _sail_score(state, seat, code[1:], steps[code[1:]])
    if code.startswith("b") and code[1:].isdigit():
        return 5 + card_value(state, p, int(code[1:]))
    if code.startswith("i"):
        return 6.0
    if code == "quest":
        return 12.0
    if code.startswith("d") and code[1:] in C.GOODS:
        return 9.0
    if code == "city":
        return 3.0 if city_action(state, p["at"]) != "pay_cp" or p["combat_points"] >= 2 else 0.5
    if code.startswith("a") and code[1:].isdigit():
        return 8.0
    if code == "hfight":
        return 4.0
    if code == "hexplore":
        return 4.5
    if code.startswith("v"):
        return 2.0 if code == "vd" else 4.0
    if code == "ypay":
        return 0.0
    if code.startswith("y") and code[1:2].isdigit():  # pay with the cards worth least to keep
        return -sum(card_value(state, p, int(c)) for c in code[1:].split("-"))
    if code in ("pass", "done", "no", "end"):
        return 0.0
    if code == "vp2":
        return 2.0
    if code.startswith("k") and code[1:].isdigit():  # setup keep: the best cards
        return card_value(state, p, int(code[1:]))
    if code.startswith("p") and code[1:].isdigit():
        cid = int(code[1:])
        if p["setup"] is not None:
            return card_value(state, p, cid)
        # plan only what we want to buy later, when the hand is full
        return card_value(state, p, cid) - 2 if len(p["hand"]) >= 4 else -1.0
    if code.startswith("k"):
        return 5.0 if code.endswith("l") or last_round(state) else -0.5
    if code.startswith(("ca", "cd", "cv", "cw")):
        return 7.0
    if code.startswith("ci"):
        return 5.0 + int(code[2:])
    if code.startswith(("cc", "cx")):
        return 6.0
    if code == "cend":
        return 0.0
    if code[:1] in ("n", "r") and len(code) == 2:
        nation = next(n for n in C.NATIONS if n[0] == code[1])
        return 1.0 + int(p["influence"][nation]) % 3 * 0.3
    if code.startswith("f"):  # the nation with the highest value
        return float(o.label.split("value ")[1].split(")")[0].split(",")[0])
    if code.startswith("e") and code[1:].isdigit():
        return float(code[1:])
    if code == "explore":  # U11: explore 3 against 4 doubloons and 4 VP
        return 4.5
    if code == "money":
        return 4.0
    if code == "pile" or code.startswith("t") or code == "x":
        return 1.0
    if code.startswith("x"):
        return -1.0
    return 0.5


def _sail_score(state: State, seat: int, loc: str, steps: int) -> float:
    p = player(state, seat)
    kind = loc_kind(state, loc)
    v = -0.3 * abs(steps - 3)
    if C.LOC[loc]["kind"] == "home":
        # go home when there is little left to do, or to end the round first
        v += 2.0 if C.LOC[loc].get("home") == 1 else 3.0
    if loc in state["quests"] and can_pay_quest(p, state["quests"][loc]):
        v += 8
    if kind == "village":
        affordable = [c for c in [*p["hand"], *p["plan"]] if card_cost(p, c) <= p["doubloons"]]
        n = village_count(p, steps)
        v += min(len(affordable), n) * 3 + n
    elif kind == "city":
        m = C.LOC[loc].get("market")
        if m and len(state["market"][loc]) < len(m["rewards"]) and any(C.CARD[c]["good"] in m["goods"]
                                                                        for c in p["hand"]):
            v += 5
        action = city_action(state, loc)
        if action == "top_quest":
            v += 6 if state["quest_pile"] and can_pay_quest(p, state["quest_pile"][0]) else -2
        else:
            v += {"combat": 2.5, "gain": 3.5}.get(action, 1.5)
    return v


def _targets(state: State, seat: int) -> list[tuple[str, int]]:
    from engine.games.maracaibo.sailing import sail_targets

    return sail_targets(state, seat)


def choose(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
    steps = dict(_targets(state, seat)) if options[0].code.startswith("s") else {}
    best = max(options, key=lambda o: _score(state, seat, o, steps) + rnd.random() * 0.5)
    return best
