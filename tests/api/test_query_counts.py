"""The number of SQL statements of the lobby page and of a view does not grow with games or seats.

Why a count, not a time: a query per row (a seat, a player, a creator) is what made the lobby
slow under gunicorn (bench/api.py), and a count is what such a change breaks.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from pbem.games.models import Player
from tests.campaign_toy import guess
from tests.factories import make_player, seat_of, start_game, token_client

__all__ = ["guess"]

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
    assert len(few) <= 3, "\n".join(few)  # the token with its player, the page of games (no count), their seats


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


def test_it_counts_a_list_only_on_a_page_that_shows_its_end(fake_game, alice):
    """No list is counted whole (at a million games a count reads a million rows): the count is
    the rows of a first page that shows the whole list, null on any other page."""
    client = token_client(alice)
    _games(fake_game, alice, 3)
    from pbem.games import services

    services.do_create_game(make_player("zed@example.org", "Zed"), fake_game,
                            invite=["nobody@example.org"])  # open, and not Alice's
    for query, count, shown in (("", 4, 4), ("?limit=2", None, 2),
                                ("?limit=4", 4, 4), ("?limit=3", None, 3),
                                ("?mine=1", 3, 3), ("?status=open", 1, 1),
                                ("?status=finished", 0, 0)):
        body = client.get(GAMES + query).json()
        assert (body["count"], len(body["results"])) == (count, shown), query
        assert all(set(g) >= {"id", "seats", "waiting_for"} for g in body["results"])


def test_it_pages_every_game_list_by_keyset_forth_and_back_without_count_or_offset(fake_game, alice):
    """next and previous carry a cursor: the page's statement finds its rows from the id it
    continues from (no OFFSET, no COUNT), and walking forth then back gives every game once."""
    client = token_client(alice)
    ids = sorted(_games(fake_game, alice, 7), reverse=True)
    for path in (GAMES, GAMES + "?mine=1", "/api/v1/me/games/"):
        sep = "&" if "?" in path else "?"
        page = client.get(f"{path}{sep}limit=3").json()
        seen, pages = [g["id"] for g in page["results"]], [page]
        while page["next"]:
            assert "cursor=" in page["next"] and "offset=" not in page["next"]
            with CaptureQueriesContext(connection) as ctx:
                page = client.get(page["next"]).json()
            sql = " ".join(q["sql"].upper() for q in ctx.captured_queries)
            assert "COUNT(" not in sql and "OFFSET" not in sql, sql
            assert page["count"] is None and page["previous"]
            seen += [g["id"] for g in page["results"]]
            pages.append(page)
        assert seen == ids, path
        back = [g["id"] for g in pages[-1]["results"]]
        page = pages[-1]
        while page["previous"]:
            page = client.get(page["previous"]).json()
            back = [g["id"] for g in page["results"]] + back
        assert back == ids and page["results"] == pages[0]["results"], path


@pytest.mark.parametrize("cursor", ["x1", "b", "b-1", "a1.5", "b1234567890123456789", "cD0x"])
def test_it_answers_400_to_a_game_list_cursor_it_never_gave(fake_game, alice, cursor):
    for path in (GAMES, "/api/v1/me/games/"):
        r = token_client(alice).get(path, {"cursor": cursor})
        assert r.status_code == 400 and "cursor" in r.json()["message"], r.content


def test_it_takes_a_huge_page_size_as_the_maximum(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    client = token_client(alice)
    for path, name in ((GAMES, "limit"), ("/api/v1/me/games/", "limit"), (f"{GAMES}{game.pk}/log/", "page_size")):
        r = client.get(path, {name: "9" * 40})
        assert r.status_code == 200, (path, r.content)


def test_the_web_lobby_reads_four_pages_of_names_and_no_state(fake_game, alice, bob, client):
    """Each of its lists is one LIMIT query of the columns an entry shows (issue 28): no count,
    no offset, no game's state (kilobytes of JSON each), however many games there are."""
    ids = _games(fake_game, alice, 3)
    client.force_login(alice.user)
    client.get("/games/")
    with CaptureQueriesContext(connection) as ctx:
        r = client.get("/games/")
    assert r.status_code == 200
    lists = [q["sql"] for q in ctx.captured_queries if 'FROM "games_game"' in q["sql"]]
    assert len(lists) == 4, lists  # mine, open, running, finished
    for sql in lists:
        assert '"games_game"."state"' not in sql and "COUNT(" not in sql.upper() and "OFFSET" not in sql, sql
        assert "LIMIT 50" in sql, sql
    assert all(f"#{pk} ".encode() in r.content for pk in ids)  # in "mine" and "running"


@pytest.mark.parametrize("path", [GAMES, "/api/v1/me/games/", "/api/v1/campaigns/"])
@pytest.mark.parametrize("offset", ["0", "3", "abc"])
def test_it_refuses_an_offset_and_says_to_follow_the_cursors(fake_game, alice, path, offset):
    """No list pages by offset (it reads every row it skips): a clear 400, not a silent first page."""
    r = token_client(alice).get(f"{path}?offset={offset}")
    assert r.status_code == 400, r.content
    assert "offset" in r.json()["message"] and "cursor" in r.json()["message"], r.json()


def test_it_pages_the_campaigns_by_keyset(guess, alice):
    """The campaigns list pages as the game lists do: cursors, no OFFSET, no COUNT, every one once."""
    from pbem.games import campaigns

    ids = sorted((campaigns.do_create_campaign(alice, guess, name=f"c{i}", games=2,
                                               invite=[make_player(f"cp{i}@example.org", "P").email])[0].pk
                  for i in range(5)), reverse=True)
    client = token_client(alice)
    page = client.get("/api/v1/campaigns/?limit=2").json()
    assert page["count"] is None
    seen = [c["id"] for c in page["results"]]
    while page["next"]:
        assert "cursor=" in page["next"]
        with CaptureQueriesContext(connection) as ctx:
            page = client.get(page["next"]).json()
        sql = " ".join(q["sql"].upper() for q in ctx.captured_queries)
        assert "COUNT(" not in sql and "OFFSET" not in sql, sql
        seen += [c["id"] for c in page["results"]]
    assert seen == ids
    assert client.get("/api/v1/campaigns/?limit=10").json()["count"] == 5
