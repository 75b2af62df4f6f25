"""Maretta's mail picture is public: one picture a position, the same for every seat (issue 28).

Why it matters: each seat's picture used to differ (its "you" marks), so a move's mails rendered
the board once a seat (resvg and a palette pass, half a Maretta move's worker CPU); one shared
picture is rendered once a position and served from the cache to every seat. It must carry
nothing hidden: checked by property, on real random games, by redealing everything the table
does not see (``resample_hidden`` for a spectator) and finding every seat's picture unchanged.
"""

from __future__ import annotations

import pytest

from tests.engine.test_maretta_hidden import R, random_states, resample


@pytest.mark.parametrize(("side", "n", "seed"), [("A", 3, 4), ("A", 5, 8), ("B", 4, 6), ("B", 3, 3)])
def test_every_seat_gets_the_spectators_picture_and_it_shows_nothing_hidden(side: str, n: int, seed: int) -> None:
    states = random_states(side, n, seed, every=5)
    assert len(states) >= 4
    differs = 0
    for k, st in enumerate(states):
        public = R.render_mail_svg(R.view(st, None))
        other = resample(st, None, seed=k + 1)  # every hidden card and barrel dealt again
        for seat in range(n):
            assert R.render_mail_svg(R.view(st, seat)) == public, f"{side} {n}p state {k}: seat {seat}'s picture"
            redealt = R.render_mail_svg(R.view(other, seat))
            assert redealt == public, f"{side} {n}p state {k}: seat {seat} after a redeal"
        # the property is not empty: the redeal changed what the seats themselves see
        differs += any(R.view(other, s) != R.view(st, s) for s in range(n))
    assert differs, "the redeal changed no seat's view: the property checked nothing"


def test_the_picture_still_shows_the_board_as_it_stands() -> None:
    """Shared does not mean empty: a later position draws a different picture (pawns moved)."""
    states = random_states("A", 3, 4, every=5)
    pictures = {R.render_mail_svg(R.view(st, 0)) for st in states}
    assert len(pictures) == len(states)
