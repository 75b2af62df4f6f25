"""The extension ``by_object`` of the effect language (docs/rules/maracaibo-uprising.md, "Effect
language: needed extensions"): the top project card revealed, the reward its object names in the
row's table, the card to the discard pile. A card's immediate effect (extensions.now), a card's
combat action (combat.py, the row's effect key ``by_object``) and a legacy space read it here.

Why a module of its own: combat.py reads it, and extensions.py (which imports the resistance tile,
which imports combat.py) cannot be imported by combat.py without a circle.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, State, new_event
from engine.rng import Rng
from engine.stack import Frame

from . import content as C
from .effects import gain, refill_deck, who


def by_object(state: State, seat: int, table: dict[str, dict[str, Any]], rng: Rng, ev: list[Event],
              source: str = "cards") -> list[Frame]:
    """The top project card revealed (the discards shuffled if the pile is empty), the reward its object
    names in ``table``, the card to the discard pile."""
    if not refill_deck(state, rng, ev):
        return []
    cid = state["deck"].pop()
    state["discard"].append(cid)
    obj = str(C.CARD[cid]["object"])
    ev.append(new_event("reveal", f"{who(state, seat)} reveals {C.CARD[cid]['name']} ({obj}) and discards it.",
                        {"seat": seat, "card": cid, "object": obj}, reveals=True))
    return gain(state, seat, table.get(obj, {}), rng, ev, source)


def table_text(table: dict[str, dict[str, Any]]) -> str:
    """The table in words: ``book: 4 doubloons; herbs: 4 VP ...``."""
    return C.by_object_text(table)
