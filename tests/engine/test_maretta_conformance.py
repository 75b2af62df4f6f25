"""The engine's conformance checker on Maretta: both sides, 3 to 5 players, and the customisation options."""

from __future__ import annotations

import pytest

from engine import get
from engine.testing import check_conformance

R = get("maretta")


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("side", ["A", "B"])
def test_it_passes_the_conformance_checker(side: str, players: int) -> None:
    report = check_conformance(R, players, {"side": side}, seeds=[f"{side}{players}-{i}" for i in range(3)])
    assert report.finished == 3 and not report.errors
    assert report.resamples_that_changed > 0


@pytest.mark.parametrize(
    "options",
    [
        {"side": "A", "reefs": ""},  # reefs removed: every barrel face down
        {"side": "A", "reefs": "4", "steamship": 12},  # one reef, a close steamship
        {"side": "B", "crevasses": "", "lava_start": 0},
        {"side": "B", "crevasses": "5 12", "lava_crevasse_change": 1, "lava_speed": 2},
    ],
)
def test_it_passes_the_conformance_checker_with_customised_boards(options: dict[str, object]) -> None:
    report = check_conformance(R, 4, options, seeds=["c1", "c2"])
    assert report.finished == 2 and not report.errors
