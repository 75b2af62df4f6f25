"""Maracaibo under the conformance checker and the simulator (2, 3, 4 players, every scenario)."""

from __future__ import annotations

import json

import pytest

from engine import registry
from engine.games.maracaibo import RULES
from engine.games.maracaibo.data.build import HERE, build
from engine.testing import check_conformance, run_game


def test_it_is_registered_as_maracaibo() -> None:
    assert registry.get("maracaibo") is RULES
    assert (RULES.min_players, RULES.max_players) == (1, 4)  # 1: solo against Jean
    assert "SUBSTITUTE" in RULES.view(RULES.setup(["A", "B"], {}, 1), 0)["label"]


def test_it_ships_the_data_its_build_script_writes() -> None:
    for name, content in build().items():
        assert json.loads((HERE / name).read_text(encoding="utf-8")) == json.loads(json.dumps(content)), name


# Why one round: the checker applies every listed option at every step (a full
# game is about 400 steps of 20-40 options); one round covers every frame kind
# including the round's end and, with rounds=1, the final scoring.
@pytest.mark.parametrize(("n", "scenario"), [(2, "75"), (3, "76"), (4, "77")])
def test_it_passes_the_conformance_checker_for_one_round(n: int, scenario: str) -> None:
    report = check_conformance(RULES, n, {"rounds": 1, "scenario": scenario}, seeds=[f"conf-{n}"])
    assert report.finished == 1 and report.resamples_that_changed > 0


@pytest.mark.slow
def test_it_passes_the_conformance_checker_for_a_whole_two_player_game() -> None:
    report = check_conformance(RULES, 2, {}, seeds=["whole-2"])
    assert report.finished == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_it_finishes_whole_games_with_its_bot(n: int) -> None:
    for i in range(2):
        report = run_game(RULES, n, {"scenario": ("75", "76", "77")[i + n - 2 if i + n - 2 < 3 else 0]},
                          f"sim-{n}-{i}", checks=False)
        assert report.finished == 1
