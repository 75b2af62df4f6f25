"""Maracaibo: The Uprising, the Resistance Tiles module (rulebook: "Peças de Resistência";
docs/rules/maracaibo-uprising.md). Played with the Uprising (78) and Liberation (79).

SUBSTITUTE CONTENT: the four spaces' rewards are this project's (``data/uprising/boards.json``).

State (only in a mode with this module; every read of it is here): ``p["resist"]``, the four
spaces of the player's resistance tile, each the nation of the marker on it or None. The tile is
the ship area ``UR`` of the new board (homeports.py), turned to its village-action side: once
unlocked it gives 4 doubloons and the village action ``vR``.

Liberating a location (:func:`liberate`) takes its marker off the board; the player may put it
on a space of the tile whose neighbours hold no marker of the same nation (the spaces in a row,
Assumption A1), with that space's reward (twice from the tile's village action), else it leaves
the game without reward (frame ``resist``). All four spaces filled: the four markers leave the
game, 3 doubloons and 1 VP per combat token (A2). The base game's displace never comes here.
"""

from __future__ import annotations

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import coop
from . import uprising_content as U
from .board import HANDLERS, P, loc_kind, opt, stack
from .careers import with_free_actions
from .combat import pay_shortfall, shortfall_splits
from .effects import gain, player, who
from .removal import removed

_TILE = U.BOARDS["resistance"]
#: space number -> its reward (a gain bundle)
SPACES: dict[int, dict[str, int]] = {int(s["n"]): s["gain"] for s in _TILE["spaces"]}
#: space number -> its neighbours (Assumption A1: a row)
ADJACENT: dict[int, list[int]] = {int(k): [int(x) for x in v] for k, v in _TILE["adjacent"].items()}
#: the tile's village action: the combat value it costs (Assumption A10: combat points and figures)
VILLAGE_VALUE = int(_TILE["back"]["village"]["cost_value"])
#: the unlock of the tile's village-action side
UNLOCK: dict[str, int] = _TILE["back"]["unlock"][0]["gain"]
_FULL_D = int(U.MODULES["resistance"]["full"]["d"])
_FULL_VP = int(U.MODULES["resistance"]["full"]["vp_per_combat_token"])


def playing(p: P) -> bool:
    return "resist" in p


def set_tiles(state: State) -> None:
    """Every player turns the resistance tile to its village-action side (an empty tile)."""
    for p in state["seats"]:
        p["resist"] = [None] * len(SPACES)


def free_spaces(p: P, nation: str) -> list[int]:
    """The empty spaces whose neighbours hold no marker of ``nation``."""
    tile = p["resist"]
    return [n for n in sorted(SPACES) if tile[n - 1] is None
            and all(tile[m - 1] != nation for m in ADJACENT[n])]


def reward_text(n: int, times: int = 1) -> str:
    g = {k: v * times for k, v in SPACES[n].items()}
    return C.gain_text(g)


def liberate(state: State, seat: int, loc: str, ev: list[Event], times: int = 1) -> list[Frame]:
    """The marker at ``loc`` leaves the board; the tile's space is asked (frame ``resist``), or the
    marker leaves the game when no space may take it."""
    p = player(state, seat)
    nation = state["markers"].pop(loc)
    coop.restock(state, loc, nation, ev)  # (the cooperative scenarios: a marker beneath comes up)
    ev.append(new_event("liberate", f"{who(state, seat)} liberates {loc} {C.LOC[loc]['name']} from "
                        f"{nation.title()}.", {"seat": seat, "loc": loc, "nation": nation}))
    after = removed(state, seat, loc, "liberate")  # the Gravedigger on every liberation (Assumption A11)
    if not free_spaces(p, nation):
        ev.append(new_event("resist", f"No space of {who(state, seat)}'s resistance tile may take the "
                            f"{nation.title()} marker: it leaves the game.", {"seat": seat}))
        return after
    return [frame("resist", seat, nation=nation, times=times), *after]


def _resist_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    d = f["data"]
    out = [opt(f"r{n}", f"resistance {n}: the {str(d['nation']).title()} marker there, "
               f"{reward_text(n, d['times'])}") for n in free_spaces(p, d["nation"])]
    out.append(opt("r0", "the marker leaves the game (no reward)"))
    return out


def _resist_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    n = int(o.code[1:])
    d = f["data"]
    if n == 0:
        ev.append(new_event("resist", f"{who(state, seat)} removes the {str(d['nation']).title()} marker from "
                            "the game.", {"seat": seat}))
        return ev
    p = player(state, seat)
    tile = list(p["resist"])
    tile[n - 1] = d["nation"]
    p["liberated"] = int(p.get("liberated", 0)) + 1  # (the career metric "liberated": Fighting Spirit)
    ev.append(new_event("resist", f"{who(state, seat)} puts the {str(d['nation']).title()} marker on space {n} "
                        "of the resistance tile.", {"seat": seat, "space": n}))
    g = {k: v * int(d["times"]) for k, v in SPACES[n].items()}
    frames = gain(state, seat, g, rng, ev, "resistance")
    if all(tile):
        tile = [None] * len(SPACES)
        ev.append(new_event("resist_full", f"{who(state, seat)}'s resistance tile is full: its four markers "
                            "leave the game.", {"seat": seat}))
        frames += gain(state, seat, {"d": _FULL_D}, rng, ev, "resistance")
        frames += gain(state, seat, {"vp": _FULL_VP, "per": "combat"}, rng, ev, "resistance")
    p["resist"] = tile
    stack(state).push_all(frames)
    return ev


# ---- the tile's village action ---------------------------------------------------------------

def village_options(state: State, seat: int, suffix: str) -> list[Option]:
    """``vR``: pay 3 combat value to liberate the village where the ship is (never a city)."""
    p = player(state, seat)
    loc = p["at"]
    if ("UR" not in p["areas"] or loc not in state["markers"] or loc_kind(state, loc) != "village"
            or not shortfall_splits(p, VILLAGE_VALUE)):
        return []
    return [opt("vR", f"village action of the resistance tile: pay {VILLAGE_VALUE} combat value to liberate "
                f"{loc} {C.LOC[loc]['name']} ({state['markers'][loc].title()}), its reward twice{suffix}")]


def do_village(state: State, seat: int, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    splits = shortfall_splits(p, VILLAGE_VALUE)
    short: list[Frame] = []
    if len(splits) > 1:
        short = [frame("short", seat, need=VILLAGE_VALUE)]
    else:
        pay_shortfall(p, VILLAGE_VALUE)
    return [*short, *liberate(state, seat, p["at"], ev, times=2)]


HANDLERS["resist"] = with_free_actions(FunctionHandler(_resist_options, _resist_resolve))
