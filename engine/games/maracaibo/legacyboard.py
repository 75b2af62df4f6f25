"""Maracaibo: The Uprising, the new legacy tiles that change the route (rulebook page 12;
docs/rules/maracaibo-uprising.md, "New legacy tiles"). Each reads its row of
``data/uprising/tiles.json``; what is on them is ``state["legacy_board"]`` (public):

- **L30** the new city (``new_city``, location 10a off Maracaibo, ``data/map.json``): the first time a
  player ends the movement there, one of their three influence markers goes to the Dutch flag for good
  (frame ``newcity``: "pegue um de seus marcadores de influência ... e coloque-o na bandeira holandesa"),
  5 doubloons per noble rank reached with that nation; then, as every later time, the city action is the
  main action there (1 doubloon and 1 combat point per assistant on the board and per figure in the
  supply). Influence with that nation is lost from then on and scores nothing at the end (Assumption
  A37). ``legacy_board["L30"]``: seat -> the nation given up.
- **L33** the 21a outpost (``then: village``): sailing to 21a with one's space empty, a disc from the ship
  board to the tile (frame ``legacydisc``, asked; the disc unlocks what a disc leaving the ship unlocks,
  the ``disc`` frame), then a village action; the disc stays (``legacy_board["L33"]``: the seats).
- **L37** the 13 -> 2 passage (``then: move_to``): a sail option of its own (``x<loc>``, "via the
  passage") for every location the ship reaches from 2 with the movement left after reaching 13; a disc
  from the ship board to the tile; once a player (``legacy_board["L37"]``).

SUBSTITUTE CONTENT: the tiles' locations are this project's (Assumption A18).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import uprising_content as U
from .board import HANDLERS, P, last_round, opt, stack
from .careers import with_free_actions
from .effects import gain, player, who
from .ship import disc_areas

#: the tile kinds this module plays
KINDS = frozenset({"place", "discs"})


def played(tile: str) -> bool:
    row = U.LEGACY.get(tile)
    return bool(row and row.get("kind") in KINDS)


def new_board(tiles: list[str]) -> dict[str, Any]:
    """What the tiles in play hold at setup (nothing yet)."""
    out: dict[str, Any] = {}
    for t in tiles:
        kind = U.LEGACY[t].get("kind")
        if kind == "place":
            out[t] = {}
        elif kind == "discs":
            out[t] = []
        elif kind == "ruin_track":
            out[t] = {}
            out["order"] = []
            out["since"] = {}
    return out


def _board(state: State) -> dict[str, Any]:
    found: dict[str, Any] = state.get("legacy_board", {})
    return found


def _set(state: State, tile: str, value: Any) -> None:
    """A new value for one tile (the board's dict replaced, never changed in place: views share it)."""
    state["legacy_board"] = {**state["legacy_board"], tile: value}


def has_disc(p: P) -> bool:
    return bool(disc_areas(p))


# ---- L30, the new city --------------------------------------------------------------------------

CITY = next((t for t in U.LEGACY.values() if t.get("ext") == "new_city"), None)


def city_loc(state: State) -> str | None:
    """The new city's location when its tile is in play."""
    return str(CITY["loc"]) if CITY and CITY["id"] in _board(state) else None


def toll_due(state: State, seat: int) -> bool:
    """Ending the movement at the new city costs this player an influence marker (their first time)."""
    return CITY is not None and CITY["id"] in _board(state) and str(seat) not in _board(state)[CITY["id"]]


def sail_note(state: State, seat: int, loc: str) -> str:
    """What ending the movement at ``loc`` costs because of these tiles ('' for nothing)."""
    if loc == city_loc(state) and toll_due(state, seat):
        per = int(CITY["first"]["d_per_rank"]) if CITY else 0
        return (f" (the new city: give up one of your influence markers for good, {C.counted(per, 'doubloon')} per "
                "noble rank with that nation)")
    return ""


def on_stop(state: State, seat: int, loc: str, ev: list[Event]) -> list[Frame]:
    """The ship ended its movement at ``loc``: the new city's toll, the 21a outpost's disc."""
    board = _board(state)
    if loc == city_loc(state) and toll_due(state, seat):
        return [frame("newcity", seat)]
    for tid in board:
        t = U.LEGACY.get(tid)
        # (21a "ends the first, second or third round": not in the last round)
        if t and t.get("kind") == "discs" and t.get("then") == "village" and t["loc"] == loc \
                and not last_round(state) and seat not in board[tid] and has_disc(player(state, seat)):
            return [frame("legacydisc", seat, tile=tid, ask=True)]
    return []


def _newcity_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    per = int(CITY["first"]["d_per_rank"]) if CITY else 0
    return [opt(f"g{n[0]}",
                f"give up your {n.title()} influence marker for good (rank {C.rank(int(p['influence'][n]))}: "
                f"{C.counted(per * C.rank(int(p['influence'][n])), 'doubloon')}; "
                f"no more influence with {n.title()}, none of "
                "its VP at the end)") for n in C.NATIONS]


def _newcity_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    assert CITY is not None
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    p = player(state, seat)
    _set(state, CITY["id"], {**_board(state)[CITY["id"]], str(seat): nation})
    ev = [new_event("newcity", f"{who(state, seat)} gives up their {nation.title()} influence marker to the Dutch "
                    f"flag of {CITY['name']}.", {"seat": seat, "nation": nation})]
    d = int(CITY["first"]["d_per_rank"]) * C.rank(int(p["influence"][nation]))
    stack(state).push_all(gain(state, seat, {"d": d}, rng, ev, "legacy") if d else [])
    return ev


def city_gain(p: P) -> dict[str, int]:
    """The new city's action: so much per assistant on the board and per figure in the supply."""
    assert CITY is not None
    n = len(p["assist"]) + int(p["figures"])
    return {k: v * n for k, v in CITY["action"]["per_assistant_and_figure"].items()}


# ---- L33, the 21a outpost -----------------------------------------------------------------------

def _disc_options(state: State, f: Frame) -> list[Option]:
    t = U.LEGACY[f["data"]["tile"]]
    return [opt("yes", f"{t['name']}: a disc from your ship board to the tile, then a village action"),
            opt("no", f"{t['name']}: leave it")]


def _disc_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    if o.code == "no":
        return []
    tid = f["data"]["tile"]
    _set(state, tid, [*_board(state)[tid], seat])
    ev = [new_event("legacy", f"{who(state, seat)} puts a disc on {U.LEGACY[tid]['name']}.",
                    {"seat": seat, "tile": tid})]
    stack(state).push_all([frame("disc", seat, n=1), frame("village", seat, left=1, used=[])])
    return ev


# ---- L37, the passage ---------------------------------------------------------------------------

_PASSAGE = next((t for t in U.LEGACY.values() if isinstance(t.get("then"), dict) and "move_to" in t["then"]), None)


def passage_open(state: State, seat: int) -> bool:
    return (_PASSAGE is not None and _PASSAGE["id"] in _board(state) and seat not in _board(state)[_PASSAGE["id"]]
            and has_disc(player(state, seat)))


def passage(state: State, seat: int) -> tuple[str, str] | None:
    """(where the passage starts, where it takes the ship) when this player may take it now."""
    if not passage_open(state, seat):
        return None
    assert _PASSAGE is not None
    return str(_PASSAGE["loc"]), str(_PASSAGE["then"]["move_to"])


def passage_label(state: State, loc: str, steps: int) -> str:
    assert _PASSAGE is not None
    return (f"sail {steps} to {loc} {C.LOC[loc]['name']} via the {_PASSAGE['loc']}-{_PASSAGE['then']['move_to']} "
            f"passage (a disc from your ship board to {_PASSAGE['name']}; once)")


def do_passage(state: State, seat: int, ev: list[Event]) -> list[Frame]:
    """The disc to the passage's tile (the ship is moved by the sail itself)."""
    assert _PASSAGE is not None
    _set(state, _PASSAGE["id"], [*_board(state)[_PASSAGE["id"]], seat])
    ev.append(new_event("legacy", f"{who(state, seat)} takes the {_PASSAGE['name']} and puts a disc on it.",
                        {"seat": seat, "tile": _PASSAGE["id"]}))
    return [frame("disc", seat, n=1)]


def public(state: State) -> dict[str, Any]:
    """What is on the tiles (all public)."""
    return {k: (dict(v) if isinstance(v, dict) else list(v)) for k, v in _board(state).items()}


HANDLERS["newcity"] = with_free_actions(FunctionHandler(_newcity_options, _newcity_resolve))
HANDLERS["legacydisc"] = with_free_actions(FunctionHandler(_disc_options, _disc_resolve))
