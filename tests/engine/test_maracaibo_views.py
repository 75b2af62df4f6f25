"""A Maracaibo view is a snapshot: the moves applied after it is taken never change it.

Why this needs a test of its own: a view shares the state's lists and dicts instead of copying
them (views._public_player, the markets, the supply, the investors, Jean's part), which holds only
while every apply replaces those lists and dicts rather than changing them in place. A single
``append`` on one of them anywhere in the rules would make earlier views change with the game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.core import View
from engine.games.maracaibo import RULES
from engine.testing import choose, player_names

GAMES = [
    (1, {"scenario": "75"}, "solo-75"),
    (1, {"scenario": "77", "difficulty": 5}, "solo-77"),
    (2, {"scenario": "75"}, "two-75"),
    (2, {"scenario": "77"}, "two-77"),
    (3, {"scenario": "76"}, "three-76"),
    (4, {"scenario": "77"}, "four-77"),
]


def play_keeping_views(n: int, options: dict[str, Any], seed: str) -> list[tuple[int, int | None, View, str]]:
    """Play a whole game on one state object, keeping every seat's and the spectator's view of
    every position with its JSON as taken: (move number, seat, view, JSON then)."""
    rnd = random.Random(seed)
    state = RULES.setup(player_names(n), options, seed)
    kept: list[tuple[int, int | None, View, str]] = []
    moves = 0
    while pending := RULES.pending(state):
        for seat in [None, *range(n)]:
            view = RULES.view(state, seat)
            kept.append((moves, seat, view, json.dumps(view, sort_keys=True)))
        seat = pending[rnd.randrange(len(pending))]
        opts = RULES.options(state, seat)
        # half the moves the bot's (it delivers, fights and completes ship areas), half at random
        chosen = choose(RULES, state, seat, opts, rnd) if rnd.random() < 0.5 else rnd.choice(opts)
        RULES.apply(state, seat, chosen.move)
        moves += 1
    assert state["over"]
    kept.append((moves, None, RULES.view(state, None), json.dumps(RULES.view(state, None), sort_keys=True)))
    return kept


@pytest.mark.parametrize(("n", "options", "name"), GAMES, ids=[g[2] for g in GAMES])
def test_a_view_never_changes_with_the_moves_applied_after_it(n: int, options: dict[str, Any], name: str) -> None:
    for g in range(2):
        kept = play_keeping_views(n, options, f"views-{name}-{g}")
        changed = [(m, seat) for m, seat, view, then in kept if json.dumps(view, sort_keys=True) != then]
        assert not changed, f"views changed by later moves (move, seat): {changed[:10]}"


def test_views_of_one_position_are_equal_and_not_the_same_objects() -> None:
    """Two views of one seat are equal; one seat's extra part (its hand) is its own list."""
    state = RULES.setup(player_names(2), {}, "views-same")
    a, b = RULES.view(state, 0), RULES.view(state, 0)
    assert a == b and a is not b
    assert a["me"]["hand"] == state["seats"][0]["hand"] and a["me"]["hand"] is not state["seats"][0]["hand"]
