"""Maracaibo: The Uprising, the competitive scenarios' own setup (rulebook: "Regras de cenário",
"Agitação (cartas 79/184)" and "Tudo incluído (carta 78)"; docs/rules/maracaibo-uprising.md,
"Scenario 78" and "Scenario 79"). Everything is read from the scenario's row of
``data/uprising/tiles.json`` (``scenarios``): no scenario has a code branch of its own.

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

from typing import Any

from engine.core import Event, State, new_event

from . import content as C
from . import homeports
from . import uprising_content as U
from .board import has_marker, take_marker


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
