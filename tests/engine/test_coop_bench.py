"""The cooperative figures on docs/rules/maracaibo-cooperative.md are what bench/coop.py prints for
the command the page names (each game's seed is its seed name, mode, players, level and number, so
one cell re-run alone plays the same games as in the whole run). Nothing here is timed."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from tests.scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules" / "maracaibo-cooperative.md"
COMMAND = "bench/coop.py --games 200 --seeds coop coop2"
#: the games a cell of the page's run (200: both runs finished within their --minutes)
GAMES = 200


def load_bench() -> ModuleType:
    return load_script("bench/coop.py", "bench_coop")


def page_wins(mode: str, players: int) -> list[tuple[int, int]]:
    """The page's table row: the wins of GAMES games by level, (seed coop, seed coop2)."""
    text = PAGE.read_text("utf-8")
    row = next(line for line in text.splitlines() if line.startswith(f"| {mode} | {players} |"))
    cells = [c.strip() for c in row.strip("|").split("|")][2:6]
    out = []
    for cell in cells:
        m = re.match(r"\**(\d+)\**\s*/\s*\**(\d+)\**", cell)
        assert m, f"no 'coop / coop2' wins in {cell!r}"
        out.append((int(m[1]), int(m[2])))
    return out


def test_the_page_names_the_command_its_figures_come_from() -> None:
    assert COMMAND in PAGE.read_text("utf-8")
    for mode in ("74", "193"):
        for n in (1, 2, 3, 4):
            assert all(0 <= w <= GAMES for pair in page_wins(mode, n) for w in pair)


@pytest.mark.slow
def test_the_bench_prints_the_pages_solo_figure(capsys: pytest.CaptureFixture[str]) -> None:
    # one cell of the page's run again (GAMES solo games of 74 at level 1, seed coop; some 20 seconds)
    load_bench().main(["--games", str(GAMES), "--seeds", "coop", "--modes", "74", "--players", "1", "--levels", "1"])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("  74 1 1 |"))
    wins = int(line.split("|")[2].split("/")[0])
    assert f"| {GAMES} 0 |" in line  # GAMES games, no error
    assert wins == page_wins("74", 1)[0][0]


def test_the_least_played_cards_are_cards_a_new_game_deals(capsys: pytest.CaptureFixture[str]) -> None:
    # The retired cards (a stored game's Rebel Chroniclers and Powder Monkey) are never dealt now: they
    # once filled the least played list at 0%, one name five times.
    load_bench().main(["--games", "1", "--seeds", "coop", "--modes", "74", "--players", "1", "--levels", "1"])
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("cards played least: "))
    names = [part.rsplit(" ", 1)[0] for part in line.removeprefix("cards played least: ").split(", ")]
    assert len(names) == 8 and len(set(names)) == 8, line
