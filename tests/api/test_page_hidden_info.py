"""The personal page shows a player only what they may know: tested by property.

The same game, its state swapped for one where everything the seat cannot know is
changed (the engine's ``resample_hidden``: other hands, deck orders, face-down cards,
barrels), must give that seat's personal page byte for byte the same HTML (and the
same board picture). The move log is the same rows, redacted per seat as always, so
a leak in the headline, options, board, text view, history or results shows as a
difference. Like tests/api/test_hidden_info.py, for the page instead of the API.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.test import Client

import engine
from engine.rng import Rng
from pbem.games import links
from pbem.games.models import Game, Seat, pending_of
from tests.factories import play_first_options, start_game

CSRF = re.compile(rb'name="csrfmiddlewaretoken" value="[^"]+"')


def _page(seat: Seat) -> tuple[bytes, bytes]:
    client = Client()
    url = f"/p/{links.seat_page_token(seat)}/"
    html = client.get(url)
    board = client.get(url + "board.svg")
    assert html.status_code == 200 and board.status_code == 200
    return CSRF.sub(b"csrf", html.content), board.content


@pytest.mark.parametrize(("rules", "options", "n_moves"), [
    ("maretta", {"side": "A"}, 7),
    ("maretta", {"side": "B"}, 12),
    ("caravelas", {}, 9),
    ("maracaibo", {}, 11),
])
@time_machine.travel(datetime(2026, 12, 1, 12, 0, tzinfo=UTC), tick=False)
def test_it_shows_the_same_page_whatever_the_player_cannot_see(alice, bob, carol, rules, options, n_moves):
    rnd = random.Random(f"page-{rules}-{options}")
    engine_rules = engine.get(rules)
    changed = 0
    for trial in range(2):
        for _attempt in range(5):
            game = start_game(rules, alice, [bob, carol], options=options)
            play_first_options(game.pk, limit=n_moves + 3 * trial, rnd=rnd)
            game.refresh_from_db()
            if game.status == Game.Status.RUNNING:
                break
        assert game.status == Game.Status.RUNNING and game.state is not None
        original = game.state
        for seat in game.seats.select_related("player").exclude(index__isnull=True).order_by("index"):
            assert seat.index is not None
            before = _page(seat)
            other = engine_rules.resample_hidden(original, seat.index, Rng({"rng": f"{rnd.getrandbits(64):016x}"}))
            changed += other != original
            Game.objects.filter(pk=game.pk).update(state=other, pending_seats=pending_of(game.rules, other))
            try:
                assert _page(seat) == before, (rules, trial, seat.index)
            finally:
                Game.objects.filter(pk=game.pk).update(state=original, pending_seats=pending_of(game.rules, original))
    assert changed > 0, "resample_hidden never changed a state: the property proved nothing"
