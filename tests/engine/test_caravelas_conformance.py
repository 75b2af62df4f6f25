"""Caravelas II under the engine's conformance checker and the simulator, for 2, 3 and 4 players."""

from __future__ import annotations

import random

import pytest

from engine import registry
from engine.cli import main as cli_main
from engine.games.caravelas import RULES
from engine.testing import check_conformance, run_game


def test_it_is_registered_as_caravelas() -> None:
    rules = registry.get("caravelas")
    assert rules is RULES
    assert (rules.name, rules.title, rules.min_players, rules.max_players) == ("caravelas", "Caravelas II", 2, 4)
    assert rules.notation_help


@pytest.mark.parametrize("n", [2, 3, 4])
def test_it_passes_the_conformance_checker(n: int) -> None:
    report = check_conformance(RULES, n, seeds=[f"conf-{n}-{i}" for i in range(3)])
    assert report.finished == 3 and report.resamples_that_changed > 0


def test_it_passes_the_conformance_checker_with_a_short_target() -> None:
    report = check_conformance(RULES, 3, {"target": 25}, seeds=["short-0", "short-1"])
    assert report.finished == 2


def test_it_finishes_bot_games_in_a_reasonable_number_of_turns() -> None:
    for n in (2, 3, 4):
        for i in range(15):
            report = run_game(RULES, n, None, f"len-{n}-{i}", checks=False)
            assert report.finished == 1
            assert report.lengths[0] < 800


def test_it_finishes_pure_random_play_with_a_short_target() -> None:
    rnd = random.Random(3)
    state = RULES.setup(["a", "b"], {"target": 12}, "random")
    for _ in range(20000):
        if not RULES.pending(state):
            break
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, rnd.choice(RULES.options(state, seat)).move)
    assert RULES.outcome(state) is not None


def test_it_simulates_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli_main(["simulate", "caravelas", "--players", "4", "--games", "10", "--seed", "t", "-q"]) == 0
    out = capsys.readouterr().out
    assert "finished: 10  errors: 0" in out
