"""The Portuguese summary of the games' options (issue 27) names every option of every game, under
the game's own heading, and every rules page links it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import engine

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
SUMMARY = DOCS / "options.pt.md"


def _section(game: str) -> str:
    text = SUMMARY.read_text(encoding="utf-8")
    m = re.search(rf"^## {game}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert m, f"no section '## {game}' in {SUMMARY.name}"
    return m.group(1)


@pytest.mark.parametrize("game", engine.names())
def test_it_summarises_every_option_of_the_game_in_portuguese(game: str) -> None:
    section = _section(game)
    for spec in engine.get(game).option_specs:
        if spec.internal:  # (never offered to a player: Maracaibo's release)
            assert f"| `{spec.name}` |" not in section, f"{game}: internal option {spec.name} in {SUMMARY.name}"
            continue
        assert f"| `{spec.name}` |" in section, f"{game}: option {spec.name} is not in {SUMMARY.name}"


@pytest.mark.parametrize("page", ["maretta.md", "caravelas.md", "maracaibo.md", "maracaibo-uprising.md"])
def test_it_links_the_portuguese_summary_from_every_rules_page(page: str) -> None:
    assert "(options.pt.md)" in (DOCS / page).read_text(encoding="utf-8")
