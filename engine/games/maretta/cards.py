"""Maretta's cards and barrels: the data file and the small helpers that name and order them.

Apart from the rules so that the renderer can use them without importing the rules
(which use the renderer): no import circle.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from engine.i18n import N_, _, word

# (the package's folder from importlib.resources, not __file__: see engine/compiled.py)
DATA: dict[str, Any] = json.loads(resources.files("engine.games.maretta").joinpath("data.json").read_text("utf-8"))

SUITS: dict[str, str] = DATA["suits"]
SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
BARREL_NAMES: dict[str, str] = DATA["barrel_names"]
HAND = DATA["hand_size"]
SHIP = "ss"
_VALUES = {f"{v}{s}": v for v in range(1, 6) for s in SUITS} | {SHIP: 0}
_NAMES = {f"{v}{s}": f"{v} {name}" for v in range(1, 6) for s, name in SUITS.items()} | {SHIP: "the Steamship card"}


#: every card's name (``card_name`` as a dict, for the hot paths)
NAMES: dict[str, str] = _NAMES


def value(card: str) -> int:
    """A card's number; the steamship card counts 0."""
    return _VALUES[card]


def suit(card: str) -> str | None:
    return None if card == SHIP else card[1:]


#: a card's name, to translate (engine.i18n): its number in the suit's form
_CARD_FORM = {"wo": N_("{n} Wood"), "ro": N_("{n} Rope"), "fi": N_("{n} Fire"), "wa": N_("{n} Water"),
              "fo": N_("{n} Food")}
_SHIP_NAME = N_("the Steamship card")
#: the barrels' and the places' names, to translate
_WORDS = (N_("Monkey"), N_("Troop of Monkeys"), N_("Cuttlefish"), N_("School of Cuttlefish"), N_("Shark"),
          N_("Sharks"), N_("Fishing Spear"), N_("Anchor"), N_("Pelican"), N_("Steamship"), N_("Island of Maretta"),
          N_("the sea"), N_("Starting Village"), N_("face down"), N_("Wood"), N_("Rope"), N_("Fire"), N_("Water"),
          N_("Food"))


def card_word(card: str) -> dict[str, Any]:
    """A card's name as a parameter of a message (engine.i18n.word)."""
    if card == SHIP:
        return word(_SHIP_NAME)
    return word(_CARD_FORM[card[1:]], n=int(card[0]))


def card_name(card: str) -> str:
    """A card's name in the context's language (English: ``3 Fire``, ``the Steamship card``)."""
    if card == SHIP:
        return _(_SHIP_NAME)
    return _(_CARD_FORM[card[1:]]).format(n=card[0])


def card_key(card: str) -> tuple[int, int]:
    return (99, 0) if card == SHIP else (SUIT_ORDER[card[1:]], int(card[0]))


def all_resource_cards() -> list[str]:
    return [f"{v}{s}" for s in SUITS for v, k in DATA["copies_per_value"].items() for _ in range(k)]


#: the parts of the score breakdown (rules.score_breakdown: the outcome keeps the English words;
#: the results table translates them), for the catalogue
_BREAKDOWN = (N_("space reached"), N_("movement in the last turn"), N_("resource types in stock"),
              N_("caught by the lava on turn"))
