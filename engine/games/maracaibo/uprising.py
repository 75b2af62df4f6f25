"""Maracaibo: The Uprising, the Uprising module (scenario 78; rulebook: "Revolta", legacy tile L40;
docs/rules/maracaibo-uprising.md). Always played with Resistance Tiles (resistance.py).

After revealing a combat token the player fights **for** a nation (the base game's combat) or
**against** one (option ``a<n>`` of the ``fight`` frame): the token's value for that nation
without the most / fewest markers modifiers; influence the token would give becomes 2 VP per
influence (Assumption A12), its other rewards as usual; then the frame ``against`` offers only
L40's two combat actions, each once per combat, paid like any combat action (the value, then
combat points and figures):

- Liberate City (``lc<loc>``, value 6): 3 doubloons and 1 VP per occupied city counted at the start
  of the action, and a marker of the fought nation from that city to the resistance tile;
- Liberate Village (``lv<loc>``, value 4): a marker of the fought nation from that village to the
  tile, and 3 VP per neighbouring location (one arrow away, either direction, A23) holding a
  marker of any nation (counted after the marker left: the liberated village is not its own
  neighbour).

No base, card or ship-upgrade combat action is offered against a nation. A player never fights
for and against the same nation in one turn (Assumption A32): ``p["fought"]`` holds the turn
(``state["turns"]``) and the sides taken in it, the only state this module adds.

SUBSTITUTE CONTENT: L40's numbers are the rulebook's; the map is the base game's substitute.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import combat, homeports
from . import content as C
from . import uprising_content as U
from .board import HANDLERS, P, loc_kind, opt, stack
from .careers import with_free_actions
from .combat import pay_shortfall, shortfall_splits
from .effects import add_vp, gain, perm, player, who
from .resistance import liberate

_L40: dict[str, dict[str, Any]] = {a["where"]: a for a in U.LEGACY["L40"]["actions"]}
CITY, VILLAGE = _L40["city"], _L40["village"]
_INF_VP = int(U.MODULES["uprising"]["against_influence_vp"])

#: location -> the locations one arrow away, either direction (A23)
NEIGHBOURS: dict[str, frozenset[str]] = {
    loc: frozenset([*C.LOC[loc]["next"], *(o for o in C.LOC if loc in C.LOC[o]["next"])]) for loc in C.LOC
}


def playing(state: State) -> bool:
    """Scenario 78, or a campaign whose story added the module (campaign.py)."""
    return "uprising" in homeports.modules(state)


def against_value(state: State, token: str | None, nation: str, p: P) -> int:
    """The token's value for ``nation`` without the most / fewest markers modifiers."""
    base = 3 if token is None else int(C.TOKEN[token]["value"][nation])
    return base + perm(p, "combat_plus")


def _sides(state: State, p: P) -> dict[str, str]:
    fought = p.get("fought")
    return dict(fought["sides"]) if fought and fought["turn"] == state["turns"] else {}


def note_side(state: State, seat: int, nation: str, side: str) -> None:
    p = player(state, seat)
    p["fought"] = {"turn": state["turns"], "sides": {**_sides(state, p), nation: side}}


def allowed(state: State, seat: int, nation: str, side: str) -> bool:
    """Not for and against the same nation in one turn."""
    taken = _sides(state, player(state, seat)).get(nation)
    return taken is None or taken == side


def fight_options(state: State, seat: int, token: str | None) -> list[Option]:
    """The ``fight`` frame's options to fight against a nation."""
    p = player(state, seat)
    out = []
    for n in C.NATIONS:
        if not allowed(state, seat, n, "against"):
            continue
        reward = _against_reward(token, n)
        # (QA, #20: in round 1 no marker stands anywhere; a fight against a nation then liberates nothing,
        # and only its token's reward is left: said before the token is paid)
        free = any(m == n and loc_kind(state, loc) in ("city", "village") for loc, m in state["markers"].items())
        out.append(opt(f"a{n[0]}", f"fight against {n} (value {against_value(state, token, n, p)}"
                       + (f"; the combat token: {C.gain_text(reward)}" if reward else "")
                       + ("" if free else f"; no {n.title()} marker to liberate") + ")"))
    return out


def _against_reward(token: str | None, nation: str) -> dict[str, Any]:
    if token is None:
        return {}
    got = dict(C.TOKEN[token]["reward"][nation])
    if "inf" in got:
        got["vp"] = got.get("vp", 0) + _INF_VP * got.pop("inf")
    return got


def fight_against(state: State, seat: int, nation: str, token: str | None, rng: Rng) -> list[Event]:
    p = player(state, seat)
    note_side(state, seat, nation, "against")
    ev = [new_event("fight", f"{who(state, seat)} fights against {nation.title()}.",
                    {"seat": seat, "nation": nation, "against": True})]
    frames: list[Frame] = []
    reward = _against_reward(token, nation)
    if reward:
        frames = gain(state, seat, reward, rng, ev, "nations")
    frames.append(frame("against", seat, nation=nation, value=against_value(state, token, nation, p), used=[],
                        token=token))
    stack(state).push_all(frames)
    return ev


def occupied_cities(state: State) -> int:
    return sum(1 for loc in state["markers"] if loc_kind(state, loc) == "city")


def occupied_neighbours(state: State, loc: str) -> int:
    return sum(1 for n in NEIGHBOURS[loc] if n in state["markers"])


def _against_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    d = f["data"]
    nation, used = d["nation"], d["used"]
    budget = int(d["value"]) + p["combat_points"] + p["figures"]
    out = []
    for a, key in ((CITY, "city"), (VILLAGE, "village")):
        if a["id"] in used or budget < a["cost"]:
            continue
        for loc in C.LOC_ORDER:
            if state["markers"].get(loc) != nation or loc_kind(state, loc) != key:
                continue
            name = f"{loc} {C.LOC[loc]['name']}"
            if key == "city":
                n = occupied_cities(state)
                out.append(opt(f"lc{loc}", f"liberate city {name} (value {a['cost']}): "
                               f"{C.counted(int(a['gain']['d']), 'doubloon')} and {a['per_occupied']['vp'] * n} VP "
                               f"({C.counted(n, 'occupied city', 'occupied cities')})"))
            else:
                n = occupied_neighbours(state, loc)
                out.append(opt(f"lv{loc}", f"liberate village {name} (value {a['cost']}): "
                               f"{VILLAGE['per_occupied']['vp'] * n} VP ({C.counted(n, 'occupied neighbour')})"))
    out.append(opt("cend", "end the combat"))
    return out


def _against_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    d = f["data"]
    ev: list[Event] = []
    if o.code == "cend":
        p["tokens"] += 1 if d["token"] else 0
        ev.append(new_event("combat_end", f"{who(state, seat)} ends the combat.", {"seat": seat}))
        return ev
    loc = o.code[2:]
    a = CITY if o.code.startswith("lc") else VILLAGE
    frames: list[Frame] = []
    if a is CITY:
        n = occupied_cities(state)  # at the start of the action
        frames += gain(state, seat, {**a["gain"], "vp": a["per_occupied"]["vp"] * n}, rng, ev, "liberation")
        frames += liberate(state, seat, loc, ev)
    else:
        frames += liberate(state, seat, loc, ev)
        vp = a["per_occupied"]["vp"] * occupied_neighbours(state, loc)
        if vp:
            add_vp(p, vp, "liberation")
            ev.append(new_event("gain", f"{who(state, seat)} scores {vp} VP for the occupied neighbours.",
                                {"seat": seat}))
    value = int(d["value"])
    short: list[Frame] = []
    if a["cost"] > value:
        need = a["cost"] - value
        if len(shortfall_splits(p, need)) > 1:
            short = [frame("short", seat, need=need)]
        else:
            pay_shortfall(p, need)
        value = 0
    else:
        value -= a["cost"]
    stack(state).push_all([*short, *frames, frame("against", seat, nation=d["nation"], value=value,
                                                   used=[*d["used"], a["id"]], token=d["token"])])
    return ev


# ---- the fight frame with the choice of side ---------------------------------------------------
# Why here, not in combat.py: the base game's frame stays as it is; in scenario 78 its options gain
# the sides against, and a fight for a nation is remembered for the rule of one side per nation
# and turn. In every other mode these two functions call the base ones and change nothing.

def _fight_options(state: State, f: Frame) -> list[Option]:
    out = combat._fight_options(state, f)
    if not playing(state):
        return out
    seat = f["seat"]
    out = [o for o in out if allowed(state, seat, _nation(o.code[1]), "for")]
    return out + fight_options(state, seat, f["data"]["token"])


def _fight_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    if not playing(state):
        return combat._fight_resolve(state, f, seat, o, rng)
    nation = _nation(o.code[1])
    if o.code.startswith("a"):
        return fight_against(state, seat, nation, f["data"]["token"], rng)
    note_side(state, seat, nation, "for")
    return combat._fight_resolve(state, f, seat, o, rng)


def _nation(letter: str) -> str:
    return next(n for n in C.NATIONS if n[0] == letter)


HANDLERS["fight"] = with_free_actions(FunctionHandler(_fight_options, _fight_resolve))
HANDLERS["against"] = with_free_actions(FunctionHandler(_against_options, _against_resolve))
