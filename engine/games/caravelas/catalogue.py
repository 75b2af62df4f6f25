"""Caravelas's content for a front end: the board (places and sea circles with their coordinates,
the lines and arrow routes between them), the discovery cards, the movement cards and the die;
versioned with the data. An option's details come from its structured move (``act`` and what it
names). Read through :meth:`engine.core.Rules.catalogue` and :meth:`~engine.core.Rules.option_details`."""

from __future__ import annotations

import functools
from typing import Any

from engine.core import versioned
from engine.games.caravelas.board import CARDS, MAP

#: Every kind of option, with what it does (the OpenAPI document lists them).
OPTION_KINDS: dict[str, str] = {
    "move": "move caravela `caravela`... with movement card `card` to `place`",
    "draw": "draw discovery cards",
    "deliver": "deliver cargo in Lisboa and recover caravelas (ends the turn)",
    "keep": "keep the discovery `cards`",
    "cards": "keep your cards, returning `cards`",
    "sink": "sink caravela `caravela`",
    "end": "end the turn",
}

OPTION_DETAILS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "CaravelasOptionDetails",
    "type": "object",
    "description": "what a Caravelas option does, in the catalogue's terms (GET /api/v1/rules/caravelas/catalogue/)",
    "required": ["kind"],
    "additionalProperties": False,
    "properties": {
        "kind": {"type": "string", "enum": [*OPTION_KINDS, "other"]},
        "card": {"type": "integer", "description": "a movement card of the catalogue's `movement`"},
        "place": {"type": "string", "description": "a place id of the catalogue's `places`"},
        "caravela": {"type": "integer"},
        "cards": {"type": "array", "items": {"type": "string"}, "description": "discovery ids of the catalogue"},
    },
}


def _build() -> dict[str, Any]:
    body = {
        "game": "caravelas",
        "label": "Caravelas II: the board and the cards",
        "places": [dict(n) for n in MAP["nodes"]],
        "lines": MAP["lines"], "arrows": MAP["arrows"], "width": MAP["width"], "height": MAP["height"],
        "discoveries": CARDS["discoveries"], "movement": CARDS["movement"], "die": CARDS["die"],
        "option_kinds": dict(OPTION_KINDS),
    }
    return versioned(body)


@functools.cache
def catalogue() -> dict[str, Any]:
    return _build()


def option_details(state: Any, seat: int, option: Any) -> dict[str, Any]:
    move = option.move if isinstance(option.move, dict) else {}
    kind = move.get("act")
    out: dict[str, Any] = {"kind": kind if kind in OPTION_KINDS else "other"}
    if isinstance(move.get("card"), int):
        out["card"] = move["card"]
    if isinstance(move.get("to"), str):
        out["place"] = move["to"]
    if isinstance(move.get("caravela"), int):
        out["caravela"] = move["caravela"]
    cards = move.get("cards") if kind == "keep" else move.get("return") if kind == "cards" else None
    if isinstance(cards, list):
        out["cards"] = [str(c) for c in cards]
    return out
