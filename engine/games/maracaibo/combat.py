"""Combat (rulebook: "Combat"): the token revealed, the nation fought for, its combat
value, and the combat actions it pays for (frames ``pile``, ``fight``, ``combat``, ``short``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from .board import (
    HANDLERS,
    P,
    first_two,
    has_marker,
    legacy,
    loc_kind,
    markers_on_board,
    open_to,
    opt,
    stack,
    take_marker,
)
from .careers import with_free_actions
from .effects import gain, gain_influence, perm, player, who


def pay_shortfall(p: P, need: int, cp: int | None = None) -> None:
    """Combat value raised by paying ``cp`` combat points and figures for the rest (by default
    combat points first, then figures)."""
    if cp is None:
        cp = min(p["cp"], need)
    p["cp"] -= cp
    need -= cp
    p["fig"] -= need
    p["figs"] -= need


def shortfall_splits(p: P, need: int) -> list[int]:
    """How many of ``need`` combat value the player may pay in combat points (figures pay the rest),
    most combat points first: the rulebook lets the player mix them."""
    return list(range(min(p["cp"], need), max(0, need - p["fig"]) - 1, -1))


def fight_value(state: State, token: str | None, nation: str, p: P) -> int:
    if token is None:
        return 3 + perm(p, "combat_plus")
    t = C.TOKEN[token]
    value = int(t["value"][nation]) + perm(p, "combat_plus")
    counts = markers_on_board(state)
    others = [counts[m] for m in C.NATIONS if m != nation]
    if t["mod"] == "most" and counts[nation] > max(others):
        value -= 2
    if t["mod"] == "fewest" and counts[nation] < min(others):
        value += 3
    return value


#: card id -> (cost, label) of each of its combat actions (static data, worked out once; most cards have none)
_CARD_COMBAT: dict[int, list[tuple[int, str]]] = {
    cid: [(e["cost"], f"{c['name']}: {C.gain_text(e['gain'])} (value {e['cost']})") for e in c["effects"]
          if e["t"] == "combat"]
    for cid, c in C.CARD.items() if any(e["t"] == "combat" for e in c["effects"])
}


def combat_options(state: State, seat: int, data: dict[str, Any]) -> list[Option]:
    return list(_combat_options_in_order(state, seat, data))


def _combat_options_in_order(state: State, seat: int, data: dict[str, Any]) -> Iterator[Option]:
    """combat_options one at a time (the stack's settle asks for the first two only)."""
    p = player(state, seat)
    nation, value, used = data["nation"], data["value"], data["used"]
    budget = value + p["cp"] + p["fig"]
    if "inf" not in used:
        for n, cost in ((1, 2), (2, 5)):
            if cost <= budget:
                yield opt(f"ci{n}", f"influence {n} with {nation.title()} (value {cost})")
    if "annex" not in used and has_marker(state, nation):
        for loc in C.FLAGS:
            if loc_kind(state, loc) not in ("village", "city") or not open_to(state, p, loc):
                continue
            here = state["markers"].get(loc)
            name = f"{loc} {C.LOC[loc]['name']}"
            if here is None and budget >= 4:
                yield opt(f"ca{loc}", f"annex {name} (value 4)")
            elif here is not None and here != nation and budget >= 6:
                yield opt(f"cd{loc}", f"displace {here.title()} at {name} (value 6)")
    if "U6" in p["areas"] and "vil" not in used and has_marker(state, nation):
        for loc in C.LOC_ORDER:  # the villages as this game has them (L1 makes 17 a city; 2 players, 10 a village)
            if loc not in C.FLAG_SET or loc_kind(state, loc) != "village":
                continue
            here = state["markers"].get(loc)
            name = f"{loc} {C.LOC[loc]['name']}"
            if here is None and budget >= 2:
                yield opt(f"cv{loc}", f"ship action: annex village {name} (value 2)")
            elif here is not None and here != nation and budget >= 5:
                yield opt(f"cw{loc}", f"ship action: displace {here.title()} at village {name} (value 5)")
    for cid in p["display"]:
        for cost, label in _CARD_COMBAT.get(cid, ()):
            if f"c{cid}" not in used and cost <= budget:
                yield opt(f"cc{cid}", label)
    for t in legacy(state, "combat"):
        for a in t["actions"]:
            if a["id"] not in used and a["cost"] <= budget:
                yield opt(f"cx{a['id']}", f"{t['name']}: {C.gain_text(a['gain'])} (value {a['cost']})")
    yield opt("cend", "end the combat")


def do_combat_action(state: State, seat: int, code: str, data: dict[str, Any], rng: Rng,
                     ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    nation = data["nation"]
    used = list(data["used"])
    frames: list[Frame] = []
    if code == "cend":
        p["tokens"] += 1 if data["token"] else 0
        ev.append(new_event("combat_end", f"{who(state, seat)} ends the combat.", {"seat": seat}))
        return []
    if code.startswith("ci"):
        n = int(code[2:])
        cost = 2 if n == 1 else 5
        used.append("inf")
        gain_influence(state, seat, nation, n, ev)
    elif code[:2] in ("ca", "cd", "cv", "cw"):
        loc = code[2:]
        cost = {"ca": 4, "cd": 6, "cv": 2, "cw": 5}[code[:2]]
        used.append("annex" if code[:2] in ("ca", "cd") else "vil")
        old = state["markers"].get(loc)
        take_marker(state, nation)
        state["markers"][loc] = nation
        text = f"{who(state, seat)} " + (f"displaces {old.title()} at" if old else "annexes") + \
            f" {loc} {C.LOC[loc]['name']} for {nation.title()}."
        ev.append(new_event("annex", text, {"seat": seat, "loc": loc, "nation": nation}))
        gain_influence(state, seat, nation, 1, ev)
        if code[:2] in ("ca", "cd"):
            frames += gain(state, seat, C.LOC[loc]["flag"], rng, ev, "nations")
    elif code.startswith("cx"):
        a = next(a for t in legacy(state, "combat") for a in t["actions"] if a["id"] == code[2:])
        cost = a["cost"]
        used.append(a["id"])
        ev.append(new_event("combat_legacy", f"{who(state, seat)} raids the treasure fleet.", {"seat": seat}))
        frames += gain(state, seat, a["gain"], rng, ev, "nations")
    else:
        cid = int(code[2:])
        e = next(e for e in C.CARD[cid]["effects"] if e["t"] == "combat")
        cost = e["cost"]
        used.append(f"c{cid}")
        ev.append(new_event("combat_card", f"{who(state, seat)} uses {C.CARD[cid]['name']}.", {"seat": seat}))
        frames += gain(state, seat, e["gain"], rng, ev, "cards", nation=nation)
    value = data["value"]
    short: list[Frame] = []
    if cost > value:
        if len(shortfall_splits(p, cost - value)) > 1:  # combat points or figures: the player's mix, asked
            short = [frame("short", seat, need=cost - value)]
        else:
            pay_shortfall(p, cost - value)
        value = 0
    else:
        value -= cost
    return [*short, *frames, frame("combat", seat, nation=nation, value=value, used=used, token=data["token"])]


def _pile_options(state: State, f: Frame) -> list[Option]:
    piles = state["piles"]
    if not piles[0] and not piles[1]:
        return [opt("x", "fight with no token (every nation's value is 3)")]
    return [opt(f"t{i + 1}", f"reveal a combat token from pile {i + 1}") for i in range(2) if piles[i]]


def _pile_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    token = None
    ev: list[Event] = []
    if o.code != "x":
        token = state["piles"][int(o.code[1]) - 1].pop()
        t = C.TOKEN[token]
        vals = ", ".join(f"{n.title()} {t['value'][n]} ({C.gain_text(t['reward'][n])})" for n in C.NATIONS)
        ev.append(new_event("token", f"{who(state, seat)} reveals combat token {token}: {vals}"
                            + (f"; modifier: {t['mod']}" if t["mod"] else "") + ".", {"seat": seat, "token": token},
                            reveals=True))
    stack(state).push(frame("fight", seat, token=token, ask=True))
    return ev


def _fight_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    token = f["data"]["token"]
    out = []
    for n in C.NATIONS:
        reward = C.TOKEN[token]["reward"][n] if token else {}
        if reward.get("d", 0) < 0 and p["d"] < -reward["d"]:
            continue
        out.append(opt(f"f{n[0]}", f"fight {n} (value {fight_value(state, token, n, p)}"
                       + (f", {C.gain_text(reward)}" if reward else "") + ")"))
    return out


def _fight_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    token = f["data"]["token"]
    ev = [new_event("fight", f"{who(state, seat)} fights for {nation.title()}.", {"seat": seat, "nation": nation})]
    frames: list[Frame] = []
    if token:
        frames = gain(state, seat, C.TOKEN[token]["reward"][nation], rng, ev, "nations", nation=nation)
    frames.append(frame("combat", seat, nation=nation, value=fight_value(state, token, nation, p), used=[],
                        token=token))
    stack(state).push_all(frames)
    return ev


def _combat_options(state: State, f: Frame) -> list[Option]:
    return combat_options(state, f["seat"], f["data"])


def _combat_settle(state: State, f: Frame) -> list[Option]:
    return first_two(_combat_options_in_order(state, f["seat"], f["data"]))


def _combat_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    stack(state).push_all(do_combat_action(state, seat, o.code, f["data"], rng, ev))
    return ev


def _short_options(state: State, f: Frame) -> list[Option]:
    """The combat value a combat action lacks, paid in combat points and figures as the player mixes them."""
    p = player(state, f["seat"])
    need = f["data"]["need"]
    out = []
    for cp in shortfall_splits(p, need):
        figs = need - cp
        words = [f"{cp} combat point{'s' if cp != 1 else ''}"] if cp else []
        words += [f"{figs} figure{'s' if figs != 1 else ''}"] if figs else []
        out.append(opt(f"cp{cp}", f"pay {' and '.join(words)} for the {need} combat value missing"))
    return out


def _short_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    need, cp = f["data"]["need"], int(o.code[2:])
    pay_shortfall(p, need, cp)
    return [new_event("shortfall", f"{who(state, seat)} pays {cp} combat points and {need - cp} figures for "
                      "the combat value missing.", {"seat": seat, "cp": cp, "figures": need - cp})]


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["pile"] = with_free_actions(FunctionHandler(_pile_options, _pile_resolve))
HANDLERS["fight"] = with_free_actions(FunctionHandler(_fight_options, _fight_resolve))
HANDLERS["combat"] = with_free_actions(FunctionHandler(_combat_options, _combat_resolve, _combat_settle))
HANDLERS["short"] = FunctionHandler(_short_options, _short_resolve)
