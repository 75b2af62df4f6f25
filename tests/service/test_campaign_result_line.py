"""A campaign's result line writes scores as people do (QA, #23): a Maracaibo game's scores are
stored as floats (169.0), and the campaign mail said "hal 169.0, ivy 164.0"."""

from __future__ import annotations

from pbem.games import campaign_selectors
from pbem.games.models import Game


def test_the_result_line_writes_whole_scores_without_a_decimal() -> None:
    game = Game(pk=5, rules="maracaibo", campaign_number=1, state={"players": ["hal", "ivy"]},
                outcome={"scores": {"0": 169.0, "1": 164.5}, "winners": [0]})
    assert campaign_selectors.result_line(game) == "Game 1 (#5): won by hal; hal 169, ivy 164.5"
