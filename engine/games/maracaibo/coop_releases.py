"""The cooperative scenarios' (74, 193) older releases (issue 22): what each one's setup and The Search
dealt unlike today's, so that a game stored by it replays from its seed, options and log exactly as it
was played (scenarios.RELEASES takes these rows; scenarios.release_of tells them by what a stored state
holds; upgrade.py's format 10 stamps the option ``release`` on a stored state).

SUBSTITUTE CONTENT, as it was: the markers of cards 74 and 193 (``data/uprising/coop.json``) and The
Search's hints, card 191/192 and L39 (``data/uprising/search.json``) of each release.

A row says only what differs from today's data (absent: today's):

- ``per_location``: by player count, the markers on each village and city (coop.json's row of both modes);
- ``red``: the hints that were red (every other one green);
- ``card``: by card (191, 192), its red and green spaces with their rewards (and 192's ``found_at_left``);
- ``luysa_cp``: L39's price in combat points;
- ``renumbered``: it dealt the cards renumbered since (scenarios.RENUMBERED) under their old ids: 0 the
  first ids (every release before 6a0f3d2), 1 the next (6a0f3d2 to the second change, format 13: card 237), 2
  the next (52a3425 to the third change, format 14: card 238), 3 the next (d8e1100 to the fourth change, format
  15: card 239), 4 the next (9c5edb3 to the Powder Monkey's change, format 17: card 204 where today's is 242), 5
  the next (2eed0d6 to the Rebel Chronicler's fifth change, format 18: card 240 where today's is 241; row
  2eed0d67).

This module imports nothing of the package (search.py and coop.py read it; scenarios.py, which imports
them, names the rows)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: the modes these rows set up
MODES = ("74", "193")

_RED_8 = ("H1", "H2", "H3", "H4", "H5", "H6", "H7", "H8")
_RED_FIRST: list[dict[str, int]] = [{"d": 2}, {"vp": 2}]
_GREEN_SIX: list[dict[str, int]] = [{"d": 2}, {"cp": 1}, {"vp": 2}, {"d": 3}, {"vp": 3}, {"cp": 2}]
_191_FIRST = {"red": _RED_FIRST, "green": _GREEN_SIX}
_192_FOUR = {"red": _RED_FIRST, "green": _GREEN_SIX[:4], "found_at_left": 11}

ROWS: dict[str, dict[str, Any]] = {
    # fa60223 (74; 193 from 31046186, The Search) to 5b2b789's parent: one marker on each village and each
    # city with one or two players (18), card 192 as 191 (six green spaces), 8 red hints, L39 5 combat points
    "fa60223": {"modes": MODES, "coop": True,
                "per_location": {"1": {"village": 1, "city": 1}, "2": {"village": 1, "city": 1}},
                "red": _RED_8, "card": {"191": _191_FIRST, "192": {**_191_FIRST, "found_at_left": 11}},
                "luysa_cp": 5, "renumbered": 0},
    # 5b2b789 to fbaa97f's parent: today's markers; card 192 with four green spaces; hints, 191 and L39 as before
    "5b2b789": {"modes": MODES, "coop": True, "red": _RED_8, "card": {"191": _191_FIRST, "192": _192_FOUR},
                "luysa_cp": 5, "renumbered": 0},
    # fbaa97f to 6a0f3d2's parent: today's hints, card 191 and L39; card 192 with four green spaces and their
    # first rewards
    "fbaa97f": {"modes": MODES, "coop": True, "card": {"192": _192_FOUR}, "renumbered": 0},
    # 6a0f3d2 (the Rebel Chronicler renumbered, #20: card 237) to the change of card 192 (three green spaces,
    # format 11)
    "6a0f3d2": {"modes": MODES, "coop": True, "card": {"192": _192_FOUR}, "renumbered": 1},
    # 6efc36b (format 11) to the Rebel Chronicler's second change (#20: card 238, format 13): today's but for
    # card 237
    "6efc36b": {"modes": MODES, "coop": True, "renumbered": 1},
    # 52a3425 (card 238, format 13) to the Rebel Chronicler's third change (#20: card 239, format 14): today's
    # but for card 238
    "52a3425": {"modes": MODES, "coop": True, "renumbered": 2},
    # d8e1100 (card 239, format 14) to the Rebel Chronicler's fourth change (#20: card 240, format 15): today's
    # but for card 239
    "d8e1100": {"modes": MODES, "coop": True, "renumbered": 3},
    # 9c5edb3 (card 240, format 15) to the Powder Monkey's change (#20: card 242, format 17): today's but for card
    # 204
    "9c5edb3": {"modes": MODES, "coop": True, "renumbered": 4},
    # 2eed0d6 (card 242, format 17) to the Rebel Chronicler's fifth change (#20: card 241, format 18): today's but
    # for card 240 (named by eight digits: scenarios.RELEASES' row of 78/79 for the same window is 2eed0d6, the
    # commit its golden game was played on, and the two tables are one option's values)
    "2eed0d67": {"modes": MODES, "coop": True, "renumbered": 5},
}


def row_of(options: Mapping[str, Any]) -> dict[str, Any] | None:
    """The older release's row a cooperative game was set up by, None for today's."""
    if str(options.get("mode", "base")) not in MODES:
        return None
    return ROWS.get(str(options.get("release", "current")))


def per_location(options: Mapping[str, Any], n: int, today: Mapping[str, Any]) -> Mapping[str, Any]:
    """The markers on each village and city with ``n`` players (``today``: coop.json's)."""
    row = row_of(options) or {}
    old: Mapping[str, Any] | None = row.get("per_location", {}).get(str(n))
    return old if old is not None else today


def card(options: Mapping[str, Any], cid: str, today: Mapping[str, Any]) -> Mapping[str, Any]:
    """Card ``cid``'s (191, 192) spaces and rewards (``today``: search.json's)."""
    row = row_of(options) or {}
    old: Mapping[str, Any] | None = row.get("card", {}).get(cid)
    return old if old is not None else today


def colour(options: Mapping[str, Any], hint: str, today: str) -> str:
    """A hint's colour (``today``: search.json's)."""
    row = row_of(options) or {}
    return today if "red" not in row else "red" if hint in row["red"] else "green"


def luysa_cp(options: Mapping[str, Any], today: int) -> int:
    """L39's price in combat points (``today``: search.json's)."""
    return int((row_of(options) or {}).get("luysa_cp", today))
