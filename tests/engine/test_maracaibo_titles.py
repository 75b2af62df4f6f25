"""A Maracaibo game's name says the mode or scenario it plays (engine/games/maracaibo/titles.py), and a
campaign's game says its story on the board, not scenario 75's card."""

from __future__ import annotations

from typing import Any

import pytest

from engine import get, i18n

R = get("maracaibo")


@pytest.mark.parametrize(
    ("options", "title"),
    [
        ({}, "Maracaibo (substitute content)"),
        ({"scenario": "77"}, "Maracaibo, Without story (hard) (77)"),
        ({"mode": "78"}, "Maracaibo: The Uprising, All Included (78)"),
        ({"mode": "79"}, "Maracaibo: The Uprising, Unrest (79)"),
        ({"mode": "74"}, "Maracaibo: The Uprising, Cooperative in the Caribbean (74)"),
        ({"mode": "193"}, "Maracaibo: The Uprising, The Rescue (193)"),
        ({"mode": "basic"}, "Maracaibo: The Uprising, the basic game on the new ship boards"),
        ({"campaign": True}, "Maracaibo: the story campaign"),
        ({"campaign": True, "mode": "campaign"}, "Maracaibo: The Uprising's campaign"),
        ({"campaign": True, "mode": "campaign_base"}, "Maracaibo: The Uprising, the story campaign"),
    ],
)
def test_it_names_the_mode_or_scenario_a_game_plays(options: dict[str, Any], title: str) -> None:
    assert R.game_title(R.check_options(2, options)) == title
    assert len(title) <= 100  # (a game's title column)


@pytest.mark.parametrize(("mode", "story"), [("base", "the base game's story"), ("campaign", "the Uprising's story")])
def test_it_says_a_campaign_games_story_on_the_board_not_scenario_75(mode: str, story: str) -> None:
    st = R.setup(["Ana", "Bo"], {"campaign": True, "mode": mode}, "titles")
    text = R.render_text(R.view(st, 0))
    assert f"Round 1 of 4, campaign game 1 ({story}); turns played: 0." in text
    assert "scenario 75" not in text and "Without story" not in text
    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language("pt"):
        said = R.render_mail_text(R.view(st, 0))
    assert "Rodada 1 de 4, jogo 1 da campanha (a história d" in said
    assert not [m for m in missed if "campaign game" in m], missed
