"""Rules.example_turn: the worked whole turn a mail shows is built from the seat's options and
applies as written, as one batch, for every game and player count (issue 21)."""

from __future__ import annotations

import copy
import random

import pytest

import engine
from engine.batch import Command, apply_batch
from engine.testing import choose, player_names


@pytest.mark.parametrize("name", engine.names())
def test_it_shows_whole_turns_that_apply_as_written(name: str) -> None:
    rules = engine.get(name)
    rnd = random.Random(name)
    shown = chained = 0
    for n in sorted({rules.min_players, rules.max_players}):
        for seed in range(2):
            state = rules.setup(player_names(n), {}, seed)
            for _ in range(600):
                pending = rules.pending(state)
                if not pending:
                    break
                seat = pending[0]
                lines = rules.example_turn(state, seat)
                if lines:
                    result = apply_batch(rules, copy.deepcopy(state), seat, [Command(text=x) for x in lines])
                    assert result.ok, (lines, result.refused and result.refused.error.message)
                    shown += 1
                    # a sub-decision is written on the line that asked it (``buy X, explore 2``)
                    chained += any(len(rules.line_parts(x)) > 1 for x in lines)
                rules.apply(state, seat, choose(rules, state, seat, rules.options(state, seat), rnd).move)
    if name == "maracaibo":
        assert shown >= 20
        assert chained, "some worked turn writes a sub-decision on the line that asked it"
