"""The Uprising's promos (rulebook, components: "'Holandês Voador' e 'Próprio Monumento' promos";
iconography, "PROMOS"), in play with the option ``promos`` (modes basic, 78, 79; off by default: the
rulebook lists them among the components without a setup step, and advises against Own Monument with
the Liberation, so they are the players' choice: Assumption A65). Each is read from its data row
(``data/uprising/cards.json`` ``promos``, SUBSTITUTE CONTENT):

- Flying Dutchman (``"kind": "quest"``, extension ``hand_plus``): a quest tile shuffled into the quest
  pile at setup; its cost is the row's, its reward the row's ``vp`` (fixed, not times the compass) and
  ``hand``, the hand limit raised for good (quests.do_quest, board.hand_limit);
- Own Monument (``"kind": "end"``, extension ``end_per_rank``): a prestige building among the base
  game's (setup draws four of them as always): its investors score its ``vp`` per noble rank at the
  end (scoring.final_scores' prestige, counter ``rank``), its price the row's substitute
  ``prestige_cost``.
"""

from __future__ import annotations

from typing import Any

from engine.core import State

from . import content as C
from . import uprising_content as U

_ROW: dict[str, dict[str, Any]] = {str(p["id"]): p for p in U.PROMOS}


def _quest(p: dict[str, Any]) -> dict[str, Any]:
    """A promo quest as a quest tile of the base format (``hand``: hand_plus)."""
    reward = dict(p["reward"])
    return {"id": p["id"], "name": p["name"], "cost": dict(p["cost"]), "per": {},
            "fixed": {k: v for k, v in reward.items() if k != "hand"}, "hand": int(reward.get("hand", 0))}


def _prestige(p: dict[str, Any]) -> dict[str, Any]:
    """A promo end effect ``end_per_rank`` as a prestige building (its VP per noble rank)."""
    e = next(e for e in p["effects"] if e.get("ext") == "end_per_rank")
    return {"id": p["id"], "name": p["name"], "cost": int(p["prestige_cost"]), "per": "rank", "vp": int(e["vp"]),
            "synergy": None}


QUESTS: list[str] = [str(p["id"]) for p in U.PROMOS if p["kind"] == "quest"]
PRESTIGE: list[str] = [str(p["id"]) for p in U.PROMOS if p["kind"] == "end"]
# Why registered in the base lookups: every rule reads a quest or a prestige building by its id there (FD
# and OM clash with none); only a game with the option promos deals them.
for _p in U.PROMOS:
    if _p["kind"] == "quest":
        C.QUEST.setdefault(str(_p["id"]), _quest(_p))
    else:
        C.PRESTIGE.setdefault(str(_p["id"]), _prestige(_p))

#: the modes the option promos may be used with (the competitive games with the expansion's boxes)
MODES = ("basic", "78", "79")


def playing(state: State) -> bool:
    return bool(state["options"].get("promos"))


def quests(state: State) -> list[str]:
    """The promo quests shuffled into the quest pile."""
    return list(QUESTS) if playing(state) else []


def prestige(state: State) -> list[str]:
    """The promo prestige buildings among the base game's."""
    return list(PRESTIGE) if playing(state) else []
