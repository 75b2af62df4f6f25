"""Maretta's content for a front end: the suits and the cards (value and suit: ``1fo`` is a 1 of
Food), the barrels, each board side's track; versioned with the data. An option's details come
from its structured move (``a`` and what it names). Read through :meth:`engine.core.Rules.catalogue`
and :meth:`~engine.core.Rules.option_details`."""

from __future__ import annotations

import functools
from typing import Any

from engine.core import versioned
from engine.games.maretta.cards import DATA

OPTION_KINDS: dict[str, str] = {
    "play": "play `card`",
    "give": "give `card` to seat `seat`",
    "take": "take `card` from seat `seat`",
    "steal": "steal `card` from seat `seat`",
    "discard": "discard `card` from your stock",
    "look": "look at seat `seat`'s hand",
    "barrel": "take barrel `barrel`",
    "move": "move instead of stealing",
}

OPTION_DETAILS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "MarettaOptionDetails",
    "type": "object",
    "description": "what a Maretta option does, in the catalogue's terms (GET /api/v1/rules/maretta/catalogue/)",
    "required": ["kind"],
    "additionalProperties": False,
    "properties": {
        "kind": {"type": "string", "enum": [*OPTION_KINDS, "other"]},
        "card": {"type": "string", "description": "a card: its value then its suit (`1fo`)"},
        "value": {"type": "integer"},
        "suit": {"type": "string", "enum": list(DATA["suits"])},
        "seat": {"type": "integer"},
        "barrel": {"type": "integer", "description": "a barrel spot of the board"},
    },
}


def _build() -> dict[str, Any]:
    body = {
        "game": "maretta",
        "label": "Maretta: the cards, the barrels and the boards",
        "suits": dict(DATA["suits"]),
        "cards": [{"id": f"{v}{s}", "value": int(v), "suit": s, "name": f"{v} {name}", "copies": n}
                  for s, name in DATA["suits"].items() for v, n in DATA["copies_per_value"].items()],
        "barrels": [{"id": b, "name": DATA["barrel_names"][b], "count": n} for b, n in DATA["barrels"].items()],
        "sides": {side: DATA[side] for side in ("A", "B")},
        "option_kinds": dict(OPTION_KINDS),
    }
    return versioned(body)


@functools.cache
def catalogue() -> dict[str, Any]:
    return _build()


def option_details(state: Any, seat: int, option: Any) -> dict[str, Any]:
    move = option.move if isinstance(option.move, dict) else {}
    kind = move.get("a")
    out: dict[str, Any] = {"kind": kind if kind in OPTION_KINDS else "other"}
    card = move.get("c")
    if isinstance(card, str) and card[:1].isdigit():
        out |= {"card": card, "value": int(card[:-2]), "suit": card[-2:]}
    if isinstance(move.get("p"), int):
        out["seat"] = move["p"]
    if isinstance(move.get("b"), int):
        out["barrel"] = move["b"]
    return out
