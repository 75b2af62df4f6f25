"""The number of SQL statements of the lobby page and of a view does not grow with games or seats.

Why a count, not a time: a query per row (a seat, a player, a creator) is what made the lobby
slow under gunicorn (bench/api.py), and a count is what such a change breaks.
"""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

from pbem.games.models import Player
from tests.factories import make_player, seat_of, start_game, token_client

GAMES = "/api/v1/games/"


def _statements(client, path: str) -> list[str]:
    client.get(path)  # once first: rules loaded, the token's last use recorded
    with CaptureQueriesContext(connection) as ctx:
        r = client.get(path)
    assert r.status_code == 200, r.content
    return [q["sql"] for q in ctx.captured_queries]


def _games(fake_game, creator, n: int) -> list[int]:
    ids = []
    for _ in range(n):
        others = [make_player(f"p{k}-{Player.objects.count()}@example.org", "P") for k in range(2)]
        ids.append(start_game(fake_game, creator, others).pk)
    return ids


def test_it_answers_the_lobby_with_as_many_queries_for_many_games_as_for_one(fake_game, alice):
    client = token_client(alice)
    _games(fake_game, alice, 1)
    few = _statements(client, GAMES)
    _games(fake_game, alice, 6)
    many = _statements(client, GAMES)
    assert len(many) == len(few), "\n".join(many)
    assert len(few) <= 3, "\n".join(few)  # the token with its player, the games with their count, their seats


def test_it_answers_a_view_with_a_few_queries_however_many_seats(fake_game, alice):
    client = token_client(alice)
    (game_id,) = _games(fake_game, alice, 1)
    statements = _statements(client, f"{GAMES}{game_id}/view/")
    assert len(statements) <= 2, "\n".join(statements)  # the token with its player, the game with the seat


def test_it_lists_games_exactly_as_the_game_serializer_would(fake_game, alice, bob, carol):
    """The lobby builds its rows without GameOut; its JSON must be GameOut's, byte for byte."""
    from rest_framework.renderers import JSONRenderer
    from rest_framework.test import APIRequestFactory

    from pbem.api import presenters
    from pbem.api import serializers as s
    from pbem.games import services
    from pbem.games.models import Game

    start_game(fake_game, alice, [bob])
    services.do_create_game(alice, fake_game, options={"rounds": 2}, invite=["nobody@example.org"],
                            open_seats=1, title="Tuesday bids")
    client = token_client(carol)
    body = client.get(GAMES).content
    request = APIRequestFactory().get(GAMES)
    games = list(Game.objects.order_by("-id"))
    rows = [presenters.game_data(request, g, carol) for g in games]
    results = JSONRenderer().render(s.GameOut(rows, many=True).data)
    assert b'"results":' + results in body


def test_it_answers_a_view_exactly_as_the_view_serializer_would(fake_game, alice, bob, carol):
    """The view is answered without GameViewOut; its JSON must be GameViewOut's, byte for byte,
    for a player, a resigned player and a spectator."""
    from rest_framework.renderers import JSONRenderer

    from pbem.api import presenters
    from pbem.api import serializers as s
    from pbem.games import selectors, services

    game = start_game(fake_game, alice, [bob, carol])
    services.do_resign(game.pk, carol)
    for viewer in (alice, carol, None, make_player("dan@example.org", "Dan")):
        client = token_client(viewer)
        body = client.get(f"{GAMES}{game.pk}/view/").content
        g, seat = selectors.get_game_for_viewer(game.pk, viewer)
        assert seat == (seat_of(game, alice) if viewer == alice else None)  # resigned: the spectator's
        expected = JSONRenderer().render(s.GameViewOut(presenters.view_data(selectors.game_view(g, seat))).data)
        assert body == expected


def test_it_counts_the_lobby_in_the_page_and_apart_only_past_the_end(fake_game, alice):
    """The count comes with the page (a window over the same rows): the same figure as counting
    apart, for a full page, a short one, a filtered one, and a page past the end."""
    client = token_client(alice)
    _games(fake_game, alice, 3)
    from pbem.games import services

    services.do_create_game(make_player("zed@example.org", "Zed"), fake_game,
                            invite=["nobody@example.org"])  # open, and not Alice's
    for query, count, shown in (("", 4, 4), ("?limit=2", 4, 2), ("?limit=2&offset=3", 4, 1),
                                ("?offset=9", 4, 0), ("?mine=1", 3, 3), ("?mine=1&offset=5", 3, 0),
                                ("?status=open", 1, 1), ("?status=finished", 0, 0)):
        body = client.get(GAMES + query).json()
        assert (body["count"], len(body["results"])) == (count, shown), query
        assert all(set(g) >= {"id", "seats", "waiting_for"} and "_pbem_total" not in g for g in body["results"])
