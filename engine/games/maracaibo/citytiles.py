"""The Uprising's two new city tiles (rulebook: "Adicione ... as duas novas peças de cidade às do jogo
base"; iconography, "PEÇAS DE CIDADES"): they join the base game's city tiles in the modes 78 and 79
(scenarios.new_city_tiles; setup.py deals two at random among the non-helm ones, as always). Each is
a general reading of its data row (``data/uprising/cards.json`` ``city_tiles``, SUBSTITUTE CONTENT),
never a branch on a tile's id:

- ``city_tile_cities`` (``"action": "cities"``): the row's ``gain``, then the city action of one of the
  row's ``cities`` at once, and with ``"deliver": true`` first a delivery to that city's market if it
  is not full (frame ``citytile``; the delivery is the base game's: its card, its disc, its doubloons);
- ``one_of`` with ``"then": "top_quest"`` (``"action": "choice_quest"``): one of the row's ``gains``
  (extensions.py's frame ``oneof``), then the face-up top quest of the pile may be fulfilled (frame
  ``cityquest``; "Você pode": declined or not payable, nothing).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import uprising_content as U
from .board import HANDLERS, city_action, city_action_text, opt, stack
from .careers import with_free_actions
from .effects import gain, good_cards, player
from .quests import can_pay_quest
from .ship import disc_areas

#: the new tiles' city actions (board.city_action reads them from ``C.CITY_TILE``)
ACTIONS = frozenset(str(t["action"]) for t in U.CITY_TILES)
TILE: dict[str, dict[str, Any]] = {str(t["id"]): t for t in U.CITY_TILES}


def _cities_text(t: dict[str, Any], told: bool = False) -> str:
    named = " or ".join(f"{loc} {C.LOC[loc]['name']}" for loc in t["cities"])
    also = (" (and a delivery there first, if its market is not full)" if t.get("deliver") else "")
    return f"{C.gain_text(t['gain'])}, then the city action of {named}{also}"


def _choice_text(t: dict[str, Any], told: bool = False) -> str:
    who = "they may" if told else "you may"
    return " or ".join(C.gain_text(g) for g in t["gains"]) + f", then {who} fulfil the face-up top quest of the pile"


# Why registered in the base lookups: board.city_action and city_action_text read a tile's action and
# words there (the ids C16, C17 do not clash with C1-C15); only the modes 78 and 79 deal them.
for _t in U.CITY_TILES:
    C.CITY_TILE.setdefault(str(_t["id"]), _t)
    _words = _cities_text(_t) if _t["action"] == "cities" else _choice_text(_t)
    C.CITY_ACTION_TEXT.setdefault(str(_t["action"]), _words)
    C.CITY_ACTION_TOLD.setdefault(str(_t["action"]), _cities_text(_t, True) if _t["action"] == "cities"
                                  else _choice_text(_t, True))


def do_action(state: State, seat: int, tid: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The city action of the new tile ``tid`` (the city frame calls it)."""
    t = TILE[tid]
    if t["action"] == "cities":
        return [*gain(state, seat, t["gain"], rng, ev, "city"), frame("citytile", seat, tile=tid, ask=True)]
    return [frame("oneof", seat, gains=list(t["gains"]), source="city"), frame("cityquest", seat, ask=True)]


# ---- city_tile_cities: which city's action, with a delivery there --------------------------------

def _market_open(state: State, loc: str) -> bool:
    return len(state["market"].get(loc, [])) < len(C.LOC[loc]["market"]["rewards"])


def _citytile_options(state: State, f: Frame) -> list[Option]:
    t = TILE[f["data"]["tile"]]
    p = player(state, f["seat"])
    out: list[Option] = []
    for loc in t["cities"]:
        name = f"{loc} {C.LOC[loc]['name']}"
        if t.get("deliver") and _market_open(state, loc) and disc_areas(p):
            reward = C.LOC[loc]["market"]["rewards"][len(state["market"][loc])]
            for g in C.LOC[loc]["market"]["goods"]:
                if good_cards(p, g):
                    out.append(opt(f"d{loc}-{g}", f"deliver {g} to {name} ({reward} d), then its action: "
                                   f"{city_action_text(state, loc)}"))
        out.append(opt(f"c{loc}", f"the city action of {name}: {city_action_text(state, loc)}"))
    return out


def _citytile_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code.startswith("d"):
        loc, _, good = o.code[1:].partition("-")
        stack(state).push_all([frame("pay", seat, what="deliver", good=good, loc=loc), frame("disc", seat, n=1),
                               frame("city", seat, loc=loc)])
        return ev
    stack(state).push(frame("city", seat, loc=o.code[1:]))
    return ev


# ---- one_of, then the top quest ---------------------------------------------------------------------

def _cityquest_options(state: State, f: Frame) -> list[Option]:
    pile = state["quest_pile"]
    p = player(state, f["seat"])
    if not pile or not can_pay_quest(p, pile[0]):
        return []
    return [opt("quest", f"fulfil the top quest {pile[0]}: pay {C.cost_text(C.QUEST[pile[0]]['cost'])}"),
            opt("no", "leave the top quest in the pile")]


def _cityquest_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code != "quest":
        return ev
    q = state["quest_pile"].pop(0)
    if state["quest_pile"]:
        ev.append(new_event("quest_top", f"The next quest of the pile is {state['quest_pile'][0]}.",
                            {"quest": state["quest_pile"][0]}, reveals=True))
    stack(state).push(frame("pay", seat, what="quest", quest=q))
    return ev


def is_new(state: State, loc: str) -> bool:
    """The city at ``loc`` holds one of the new tiles."""
    return city_action(state, loc) in ACTIONS


HANDLERS["citytile"] = with_free_actions(FunctionHandler(_citytile_options, _citytile_resolve))
HANDLERS["cityquest"] = with_free_actions(FunctionHandler(_cityquest_options, _cityquest_resolve))
