"""bench/engine.py keeps working (a smoke run on the toy game; nothing here is timed)."""

from __future__ import annotations

from types import ModuleType

import pytest

from engine import registry
from engine.core import OptionSpec
from tests.scripts import load_script


def load_bench() -> ModuleType:
    return load_script("bench/engine.py", "bench_engine")


def test_bench_runs_and_reports_skips(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bench = load_bench()
    monkeypatch.setattr(registry, "_MODULES", {"guess": "tests.engine.toy_games", "ghost": "tests.engine.no_such"})
    monkeypatch.setattr(registry, "_loaded", {})
    assert bench.main(["--games", "3", "--positions", "6", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "ghost       skipped: ModuleNotFoundError" in out
    rows = [line.split() for line in out.splitlines() if line.startswith("guess")]
    assert len(rows) == 1  # one side, one player count
    assert rows[0][1:3] == ["-", "2"]
    assert float(rows[0][-1]) > 0  # a ratio was computed, with no verdict after it


def test_bench_configurations_cover_sides_and_player_counts() -> None:
    bench = load_bench()

    class Sided:
        min_players, max_players = 3, 5
        option_specs = (OptionSpec("side", "choice", "A", "board side", choices=("A", "B")),)

    configs = bench.configurations(Sided())
    assert [(c.label, c.players, c.options) for c in configs] == [
        ("A", 3, {"side": "A"}), ("A", 4, {"side": "A"}), ("A", 5, {"side": "A"}),
        ("B", 3, {"side": "B"}), ("B", 4, {"side": "B"}), ("B", 5, {"side": "B"}),
    ]
