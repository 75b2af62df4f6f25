"""Maracaibo: The Uprising, the cooperative scenarios (rulebook: "Cooperativa no Caribe (carta 74)",
"O Resgate (cartas 193/185)"; docs/rules/maracaibo-cooperative.md): option ``mode`` 74 or 193, for
1 to 4 players, always against Jacques (jacques.py).

SUBSTITUTE CONTENT: the scenario cards' tables (``data/uprising/coop.json``) are this project's.

What this module adds to the state, only in a cooperative mode:

- the ownership markers of the card by player count (``blocks`` of locations per nation,
  ``per_location`` markers on each village and city); the markers beyond the first on a location
  wait beneath it in ``state["garrison"]`` (location -> markers left under the one on top), and
  one comes up each time the top one is liberated (:func:`restock`); the unused markers go to the
  box (the nations' supplies are emptied: nothing annexes in these scenarios);
- Jacques, at the level of the option ``jacques_level``;
- the shared outcome (:func:`outcome`): the whole table wins or loses together, by the card's
  conditions, checked after the last round's final scoring.

This module reads the mode from the options itself (it imports no other expansion module, so
``resistance.py`` may call :func:`restock` without an import circle).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from engine.core import Event, Outcome, State, TeamResult, new_event
from engine.rng import Rng

from . import content as C
from . import coop_releases, jacques, search
from .board import loc_kind

DATA: dict[str, Any] = json.loads(
    resources.files("engine.games.maracaibo").joinpath("data", "uprising", "coop.json").read_text("utf-8"))
SCENARIOS: dict[str, dict[str, Any]] = DATA["scenarios"]
CONDITIONS: dict[str, str] = DATA["conditions"]
MODES: tuple[str, ...] = tuple(SCENARIOS)
#: the ``mode`` option's help for these modes (added to homeports.MODE_HELP)
MODE_HELP = ("; cooperative, 1 to 4 players against Jacques (jacques_level): 74 (Cooperative in the Caribbean: "
             "Home Ports, Resistance Tiles, Liberation) or 193 (The Rescue: the same and The Search)")


def cooperative(state: State) -> bool:
    """A cooperative mode (74, 193): the table plays together against Jacques."""
    return str(state["options"].get("mode", "base")) in SCENARIOS


def scenario(state: State) -> dict[str, Any]:
    return SCENARIOS[str(state["options"]["mode"])]


# ---- setup ---------------------------------------------------------------------------------------

def setup(state: State, rng: Rng) -> None:
    """The card's markers (the board's own markers replaced), the rest to the box; Jacques."""
    scen = scenario(state)
    n = len(state["players"])
    # (a game stored by an older release: its markers, coop_releases.py)
    per = coop_releases.per_location(state["options"], n, scen["per_location"][str(n)])
    markers: dict[str, str] = {}
    garrison: dict[str, int] = {}
    for nation, locs in scen["blocks"].items():
        for loc in locs:
            kind = loc_kind(state, loc)
            if kind not in ("village", "city") or int(per[kind]) < 1:
                continue
            markers[loc] = nation
            if per[kind] > 1:
                garrison[loc] = int(per[kind]) - 1
    state["markers"] = markers
    state["garrison"] = garrison
    state["supply"] = {n: [0] * len(C.SUPPLY_SPACES) for n in C.NATIONS}  # the unused markers: the box
    jacques.setup(state, int(state["options"].get("jacques_level", 2)), rng)
    if scen["search"]:  # The Rescue: The Search (search.py)
        search.setup(state, rng)


# ---- the markers beneath -------------------------------------------------------------------------

def restock(state: State, loc: str, nation: str, ev: list[Event]) -> None:
    """After the marker on top of ``loc`` left it: the next one beneath, if any, comes up."""
    left = int(state.get("garrison", {}).get(loc, 0))
    if left <= 0:
        return
    garrison = dict(state["garrison"])  # (replaced: views share it)
    if left > 1:
        garrison[loc] = left - 1
    else:
        del garrison[loc]
    state["garrison"] = garrison
    state["markers"][loc] = nation
    ev.append(new_event("garrison", f"Another {nation.title()} marker holds {loc} {C.LOC[loc]['name']} "
                        f"({left - 1} more beneath).", {"loc": loc, "nation": nation, "left": left - 1}))


def markers_left(state: State) -> int:
    """Every ownership marker still on the board, those beneath included."""
    return len(state["markers"]) + sum(int(v) for v in state.get("garrison", {}).values())


# ---- the shared outcome ---------------------------------------------------------------------------

def conditions(state: State) -> list[tuple[str, bool]]:
    """The card's conditions, each with whether the table meets it now."""
    out = []
    him = int(state["jacques"]["victory_points"])
    for cid in scenario(state)["conditions"]:
        if cid == "no_markers":
            met = markers_left(state) == 0
        elif cid == "above_jacques":
            met = all(int(p["victory_points"]) > him for p in state["seats"])
        else:  # "luysa": found and freed (search.py)
            met = state.get("search", {}).get("freed") is not None
        out.append((cid, met))
    return out


def team_result(state: State) -> TeamResult:
    checked = conditions(state)
    met = tuple(CONDITIONS[c] for c, ok in checked if ok)
    missed = tuple(CONDITIONS[c] for c, ok in checked if not ok)
    return TeamResult(won=not missed, met=met, missed=missed)


def outcome(state: State) -> Outcome:
    team = team_result(state)
    name = scenario(state)["name"]
    if team.won:
        reason = f"{name}: the table wins together: " + "; ".join(team.met)
    else:
        reason = f"{name}: the table loses together: not met: " + "; ".join(team.missed)
    scores = {i: float(p["victory_points"]) for i, p in enumerate(state["seats"])}
    return Outcome.cooperative(scores, team, reason, automa={jacques.NAME: float(state["jacques"]["victory_points"])})


def goal_lines(view: dict[str, Any]) -> list[str]:
    """The card's conditions in words, each with where the table stands now, from a view (the mail's text
    and the phone's column). Why: a cooperative table wins or loses only by them, and without this line no
    mail nor page said what they were until the game's last mail."""
    mode = str(view["options"].get("mode", "base"))
    if mode not in SCENARIOS or view["over"]:  # (over: the result says each condition met or missed)
        return []
    out = []
    for cid in SCENARIOS[mode]["conditions"]:
        words = CONDITIONS[cid]
        if cid == "no_markers":
            left = len(view["markers"]) + sum(int(v) for v in (view.get("garrison") or {}).values())
            out.append(f"{words}: met now" if left == 0 else f"{words}: {left} left now")
        elif cid == "above_jacques":
            him = int(view["jacques"]["vp"])
            lowest = min(int(p["vp"]) for p in view["p"])
            out.append(f"{words}: met now" if lowest > him
                       else f"{words}: not now: Jacques has {him} VP, the player with the fewest has {lowest}")
        else:  # "luysa" (search.py)
            s = view.get("search") or {}
            if s.get("freed") is not None:
                out.append(f"{words}: met now")
            elif s.get("found"):
                out.append(f"{words}: not yet (she is held at {s['found']})")
            else:
                out.append(f"{words}: not yet (she is not found)")
    return out


def final(state: State, ev: list[Event]) -> None:
    """The result told in an event at the end of the final scoring (the ransom was decided before it,
    search.ransom_frames)."""
    out = outcome(state)
    ev.append(new_event("team_result", out.reason + ".", {"won": out.seats_won}))
