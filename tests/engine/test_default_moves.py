"""Every game's declared safe default move (the "default move" no-move policy)."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.testing import choose, player_names

CASES = [("maretta", 3, {"side": "A"}), ("maretta", 4, {"side": "B"}), ("caravelas", 2, {"target": 20}),
         ("caravelas", 3, {"target": 20})]


@pytest.mark.parametrize(("name", "n", "opts"), CASES)
def test_it_declares_a_legal_default_for_every_decision(name: str, n: int, opts: dict[str, object]) -> None:
    rules = registry.get(name)
    kinds: set[str] = set()
    for seed in range(4):
        state = rules.setup(player_names(n), opts, seed)
        rnd = random.Random(seed)
        for _step in range(600):
            pending = rules.pending(state)
            if not pending:
                break
            seat = pending[0]
            options = rules.options(state, seat)
            default = rules.default_move(state, seat)
            assert default is not None, f"no default for {state.get('todo') or state.get('stack')}"
            assert default in options
            top = (state.get("todo") or state.get("stack"))[-1]
            kinds.add(str(top.get("t") or top.get("k")))
            # play the default now and then, so games reach the steps that only it leads to
            pick = default if rnd.random() < 0.3 else choose(rules, state, seat, options, rnd)
            rules.apply(state, seat, pick.move)
    assert len(kinds) >= 3, kinds


def test_it_ends_the_caravelas_turn_rather_than_sailing() -> None:
    rules = registry.get("caravelas")
    state = rules.setup(player_names(2), {"target": 20}, 7)
    seat = rules.pending(state)[0]
    default = rules.default_move(state, seat)
    assert default is not None and default.code == "end"


def test_it_moves_rather_than_steals_in_maretta() -> None:
    rules = registry.get("maretta")
    for seed in range(40):
        state = rules.setup(player_names(3), {"side": "A"}, seed)
        rnd = random.Random(seed)
        for _ in range(400):
            pending = rules.pending(state)
            if not pending:
                break
            seat = pending[0]
            if state["todo"][-1]["t"] == "steal":
                default = rules.default_move(state, seat)
                assert default is not None and default.move == {"a": "move"}
                return
            options = rules.options(state, seat)
            rules.apply(state, seat, rnd.choice(options).move)
    pytest.fail("no steal step reached in 40 games")


def test_it_has_nothing_to_play_for_a_seat_that_is_not_asked() -> None:
    rules = registry.get("caravelas")
    state = rules.setup(player_names(2), {"target": 20}, 1)
    waiting = set(rules.pending(state))
    idle = next(s for s in range(2) if s not in waiting)
    assert rules.default_move(state, idle) is None
