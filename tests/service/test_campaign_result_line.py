"""A campaign's result line writes scores as people do (QA, #23): a Maracaibo game's scores are
stored as floats (169.0), and the campaign mail said "hal 169.0, ivy 164.0"."""

from __future__ import annotations

from pbem.games import campaign_selectors
from pbem.games.models import CampaignEntry, Game


def test_the_result_line_writes_whole_scores_without_a_decimal() -> None:
    game = Game(pk=5, rules="maracaibo", campaign_number=1, state={"players": ["hal", "ivy"]},
                outcome={"scores": {"0": 169.0, "1": 164.5}, "winners": [0]})
    assert campaign_selectors.result_line(game) == "Game 1 (#5): won by hal; hal 169, ivy 164.5"


def test_a_finished_games_story_entry_ends_its_result_line_before_the_story() -> None:
    """The API's campaign story ran the scores into the story (QA, #23): 'Game 1 (#4): won by Dan;
    Cid 8, Dan 18 Dan reads story card 151, ...'."""
    entry = CampaignEntry(action="finished", details={
        "result": "Game 1 (#4): won by Dan; Cid 8, Dan 18",
        "story": ["Dan reads story card 151.", "Story card 155 is added to the board."]})
    assert campaign_selectors._entry_text(entry) == ("Game 1 (#4): won by Dan; Cid 8, Dan 18. Dan reads story card "
                                                     "151. Story card 155 is added to the board.")
    alone = CampaignEntry(action="finished", details={"result": "Game 2 (#5): no winner; Cid 8, Dan 8", "story": []})
    assert campaign_selectors._entry_text(alone) == "Game 2 (#5): no winner; Cid 8, Dan 8"
