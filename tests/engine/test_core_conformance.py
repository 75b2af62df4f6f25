"""The conformance checker itself: it passes a correct toy game and catches each broken one.

A checker that never fails proves nothing, so every rule it enforces has a
deliberately broken subclass of the toy game here (see toy_games.py).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.core import Rules
from engine.testing import ConformanceError, check_conformance, replay, run_game
from tests.engine import toy_games as toy


@pytest.mark.parametrize(
    "options",
    [
        None,
        {"scoring": "exact"},
        {"rounds": 3, "high": 6, "banned": "2 5"},
        {"public_target": "yes"},
    ],
)
def test_correct_toy_passes(options: dict[str, object] | None) -> None:
    report = check_conformance(toy.Guess(), 2, options, seeds=range(6))
    assert report.games == report.finished == 6
    assert report.moves > 0
    assert report.resamples_that_changed > 0
    assert not report.errors


@pytest.mark.parametrize(
    ("broken", "message"),
    [
        (toy.LeakyView, "view depends on information hidden"),
        (toy.LeakyEnd, "view depends on information hidden"),
        (toy.LeakyEvent, "events depend on information hidden"),
        (toy.LeakyLabels, "option labels depend on information hidden"),
        (toy.HalfApplied, "refused move by seat .* changed the state"),
        (toy.OrderDependent, "give different states by arrival order"),
        (toy.TupleState, "does not survive a JSON round trip"),
        (toy.SetState, "JSON"),
        (toy.GlobalRandom, "global random"),
        (toy.UnparsableLabel, "parse"),
        (toy.MisreadLabel, "parses to"),
        (toy.EventForStranger, "unknown seat"),
        (toy.NoHiddenResample, "resample_hidden never changed anything"),
    ],
    ids=lambda v: v.__name__ if isinstance(v, type) else "",
)
def test_checker_catches(broken: type[Rules], message: str) -> None:
    with pytest.raises(ConformanceError, match=message):
        check_conformance(broken(), 2, None, seeds=range(5))


def test_failure_names_seed_and_step() -> None:
    with pytest.raises(ConformanceError, match=r"^seed 0, step \d+: "):
        check_conformance(toy.LeakyView(), 2, None, seeds=[0])


def test_global_random_untouched_by_a_correct_game() -> None:
    random.seed(1234)
    before = random.getstate()
    check_conformance(toy.Guess(), 2, None, seeds=range(3))
    assert random.getstate() == before


def test_unchecked_run_reports_outcome() -> None:
    report = run_game(toy.Guess(), 2, {"rounds": 4}, "s", checks=False)
    assert report.finished == 1
    assert report.moves == 8  # two picks a round
    assert sum(report.reasons.values()) == 1


def test_replay_is_deterministic() -> None:
    rules = toy.Guess()
    log: list[tuple[int, dict[str, Any]]] = [(0, {"code": "p1"}), (1, {"code": "p4"}), (1, {"pick": 2}),
                                             (0, {"pick": 3})]
    a = replay(rules, ["A", "B"], None, 42, log)
    b = replay(rules, ["A", "B"], None, 42, log)
    assert a == b
    assert a["history"][0]["picks"] == [1, 4]
    assert a["history"][1]["picks"] == [3, 2]
    assert rules.outcome(a) is not None


def test_checker_catches_a_hidden_move_told_to_everyone() -> None:
    with pytest.raises(ConformanceError):
        check_conformance(toy.LeakyPublicEvent(), 2, None, seeds=range(5))
