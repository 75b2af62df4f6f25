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


# Why two rounds with 2 and 3 players: the checker applies every listed option at every step
# (a full game is about 300-500 steps of 20-40 options); with rounds=2, round I ends in an
# interim scoring (the scenario card's quests for that round and player count: the tables
# have a 2-player and a 3-4-player column, the new display and prestige building) and round
# II in the final scoring, so every frame kind shows. With 4 players one round (ending at 22
# and the final scoring) keeps the case short. Every pairing of player count and scenario:
# 16-25 s of CPU for the nine (`pytest --durations=0` on this file).
PAIRINGS = [(n, scenario, 2 if n < 4 else 1) for n in (2, 3, 4) for scenario in ("75", "76", "77")]


@pytest.mark.parametrize(("n", "scenario", "rounds"), PAIRINGS)
def test_it_passes_the_conformance_checker_for_every_player_count_and_scenario(n: int, scenario: str,
                                                                              rounds: int) -> None:
    report = check_conformance(RULES, n, {"rounds": rounds, "scenario": scenario}, seeds=[f"conf-{n}-{scenario}"])
    assert report.finished == 1 and report.resamples_that_changed > 0
    assert report.reasons == {"final scoring": 1}


@pytest.mark.parametrize("scenario", ["76", "77"])
def test_it_passes_the_conformance_checker_solo_with_the_legacy_tiles(scenario: str) -> None:
    # solo at levels 1, 3, 5 with scenario 75 is in test_maracaibo_jean.py; levels 1 and 5 with 76, 77 below
    report = check_conformance(RULES, 1, {"rounds": 2, "scenario": scenario, "difficulty": 3},
                               seeds=[f"conf-1-{scenario}"])
    assert report.finished == 1 and report.resamples_that_changed > 0


# Why one round at the extremes: Jean's deck differs most at levels 1 (A-cards only) and 5 (the
# most B- and C-cards), and with the legacy tiles of 76 and 77 her moves meet other locations;
# one round (her cards, the scenario's round-I quests, the final scoring) keeps each case short.
@pytest.mark.parametrize(("scenario", "level"), [(s, lv) for s in ("76", "77") for lv in (1, 5)])
def test_it_passes_the_conformance_checker_solo_with_the_legacy_tiles_at_levels_1_and_5(scenario: str,
                                                                                      level: int) -> None:
    report = check_conformance(RULES, 1, {"rounds": 1, "scenario": scenario, "difficulty": level},
                               seeds=[f"conf-1-{scenario}-{level}"])
    assert report.finished == 1 and report.resamples_that_changed > 0
    assert [r.split(":")[0] for r in report.reasons] == ["final scoring"]  # "final scoring: Ana beats Jean"


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
