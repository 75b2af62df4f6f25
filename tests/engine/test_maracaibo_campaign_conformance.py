"""Whole Maracaibo campaigns under the conformance checker (issue 23; docs/rules/maracaibo-campaign.md):
every game of a bot campaign, the first from the options, each later one set up from the archive the
game before it produced (and replayed from seed + archive + moves), both stories, 1 to 4 players.

Why every so many steps (``check_every``): the checker applies every listed option at every step it
checks, and a whole campaign is five games of 250-700 steps; each case checks every 40th-200th step
and every step where several seats decide at once (the setup's hidden choices, the votes), and the
whole of each game's replay, archive and renderings (about 30 s for the four on the shared machine).
The full checks at every step over whole campaigns are run by hand: ``python -m engine simulate
maracaibo --campaign --check`` (the figures in docs/rules/maracaibo-campaign.md)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.games.maracaibo import RULES
from engine.testing import check_campaign

UPRISING = {"campaign": True, "mode": "campaign"}


def _scenarios(archive: dict[str, Any]) -> list[str]:
    return [r.get("scenario", "-") for r in archive["results"]]


# (seeds chosen so that the Uprising's campaigns play card 184's game, scenario 79's, and card 185's,
# scenario 193's cooperative game against Jacques, both set up from an archive; the checker's checks draw
# from the choices' generator, so a change of the bot's choices or of check_every can move a seed off them:
# cc-upr-2-25 lost scenario 79 with the learned home port choice, c0020d0; cc-upr-1-0 lost 193 when Genova was
# left out of the ports dealt with Liberation, format 16)
@pytest.mark.slow
@pytest.mark.parametrize(
    ("n", "options", "seed", "every", "scenarios"),
    [
        (1, UPRISING, "cc-upr-1-77", 40, ["-", "79", "-", "193", "-"]),
        (2, UPRISING, "cc-upr-2-35", 40, ["-", "79", "-", "193", "-"]),
        (3, {"campaign": True}, "cc-base-3-0", 60, ["-"] * 5),
        (4, {"campaign": True, "mode": "campaign_base"}, "cc-cb-4-0", 200, ["-"] * 5),
    ],
    ids=["uprising-solo", "uprising-2", "base-3", "base-with-expansion-4"],
)
def test_it_passes_the_conformance_checker_over_every_game_of_a_whole_campaign(
    n: int, options: dict[str, Any], seed: str, every: int, scenarios: list[str]
) -> None:
    report = check_campaign(RULES, n, options, seed, check_every=every)
    assert report.finished == len(report.archives) == 5 and report.resamples_that_changed > 0
    last = report.archives[-1]
    assert last["ended"] and [a["game"] for a in report.archives] == [1, 2, 3, 4, 5]
    assert _scenarios(last) == scenarios
    assert last["story"]["book"] == ("uprising" if options.get("mode") == "campaign" else "base")
    assert report.last_state is not None and report.last_state["story"]["game"] == 5
