"""A Maracaibo game's name (``Rules.game_title``): the game mode or scenario it plays, so that a
player with several games tells a 79 game from a base game in a mail's subject, on a page and in
the API's ``title``; a campaign's game names its story (the service adds the game's number).

    Maracaibo (substitute content)                              the base game, scenario 75
    Maracaibo, Without story (hard) (77)                        scenarios 76 and 77
    Maracaibo: The Uprising, Unrest (79)                        the Uprising's modes (78, 79, 74, 193, basic)
    Maracaibo: the story campaign                               option campaign (the base story)
    Maracaibo: The Uprising, the story campaign                 with mode=campaign_base
    Maracaibo: The Uprising's campaign                          with mode=campaign (the Uprising's story)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from . import content as C
from . import uprising_content as U

GAME = "Maracaibo"
EXPANSION = "Maracaibo: The Uprising"

#: what each of the Uprising's modes plays: a scenario by its card's name in the data's modes table
#: (``uprising_content.MODES``, the rulebook's names: "Unrest (79)", "All Included (78)"), the one name
#: every door says (the mail's scenario line, the page, the API); the basic game by what it is
MODE_TITLE = {
    **{m: f"{U.MODES[m]['name']} ({m})" for m in ("78", "79", "74", "193")},
    "basic": "the basic game on the new ship boards",
}


def game_title(title: str, options: Mapping[str, Any]) -> str:
    """The name of a game with these checked options; ``title``: the rules' own (the base game's)."""
    mode = str(options.get("mode", "base"))
    if options.get("campaign"):
        if mode == "campaign":
            return f"{EXPANSION}'s campaign"
        if mode == "base":
            return f"{GAME}: the story campaign"
        return f"{EXPANSION}, the story campaign"
    if mode in MODE_TITLE:
        return f"{EXPANSION}, {MODE_TITLE[mode]}"
    scenario = str(options.get("scenario", "75"))
    if scenario != "75" and scenario in C.SCENARIOS:
        return f"{GAME}, {str(C.SCENARIOS[scenario]['name']).split(':')[0]} ({scenario})"
    return title
