"""Refusals that do not mislead (issue 21, the audit's lines): while a player draws cards, 'sail 1'
or 'plan 1' is answered about the draw phase, not as a misread 'draw 1'; 'reveal T12' outside a
fight says that tokens are revealed in a fight, not something about career tasks, a legacy place
or the display. Over real games played by the engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.errors import IllegalMove

RULES = engine.get("maracaibo")


def _decision(prefix: str, seed: int) -> tuple[dict[str, Any], int]:
    st = RULES.setup(["Ana", "Bruno"], {}, f"refusals-{seed}")
    rnd = random.Random(seed)
    for _ in range(600):
        seat = RULES.pending(st)[0]
        opts = RULES.options(st, seat)
        if any(o.label.startswith(prefix) for o in opts):
            return st, seat
        RULES.apply(st, seat, rnd.choice(opts).move)
    raise AssertionError(f"no decision with a {prefix!r} option")


def _why(line: str, st: dict[str, Any], seat: int) -> str:
    with pytest.raises(IllegalMove) as refused:
        RULES.parse(line, st, seat)
    return str(refused.value)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_sail_or_plan_line_while_drawing_is_told_the_draw_phase(seed: int) -> None:
    st, seat = _decision("draw", seed)
    for line in ("sail 1", "plan 1", "sail -1"):
        why = _why(line, st, seat)
        assert "your main phase has ended: now you draw cards" in why, why
        assert "'draw 1' could be" not in why
    # a count with 'draw' is still told both readings
    assert "could be a count of cards from the pile" in _why("draw 2", st, seat)


@pytest.mark.parametrize("prefix", ["draw", "sail"])
def test_reveal_a_token_outside_a_fight_says_there_is_no_fight(prefix: str) -> None:
    st, seat = _decision(prefix, 4)
    why = _why("reveal T12", st, seat)
    assert "a combat token is revealed in a fight" in why and "there is no fight now" in why, why
    for wrong in ("career", "legacy tile", "the display has cards"):
        assert wrong not in why.split("Closest:")[0], why
