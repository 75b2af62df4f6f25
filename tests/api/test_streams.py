"""Event streams over real HTTP (pytest-django's live server): a game's and an account's, as
server-sent events and ndjson, resumed from Last-Event-ID, and redacted per seat: a seat's
stream carries what that seat may see, no more."""

from __future__ import annotations

import http.client
import json
import threading
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import connection

from pbem.games import moderation, services
from pbem.games.models import Game, Player
from tests.factories import player_at, seat_of, start_game, token_client

pytestmark = pytest.mark.django_db(transaction=True)


def _get(base: str, path: str, player: Player | None = None, **headers: str) -> http.client.HTTPResponse:
    url = urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    if player is not None:
        headers["Authorization"] = f"Token {services.do_issue_api_token(player)}"
    conn.request("GET", path, headers=headers)
    return conn.getresponse()


def _sse(raw: str) -> list[dict[str, Any]]:
    """The events of a server-sent event stream: id, event, data (parsed)."""
    events = []
    for block in raw.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":") or ": " not in line:
                continue
            name, value = line.split(": ", 1)
            fields[name] = value
        if "event" in fields:
            events.append({"id": fields["id"], "event": fields["event"], "data": json.loads(fields["data"])})
    return events


def _read(base: str, path: str, player: Player | None = None, **headers: str) -> tuple[str, list[dict[str, Any]]]:
    r = _get(base, path, player, **headers)
    assert r.status == 200, r.read()
    return r.headers["Content-Type"], _sse(r.read().decode())


def _bid(game: Game, player: Player) -> int:
    game.refresh_from_db()
    card = min(game.state["hands"][seat_of(game, player)])
    services.do_submit_moves(game.pk, player, [services.Command(code=f"c{card}")], source="api")
    return card


def test_it_streams_a_game_as_server_sent_events_with_each_seat_seeing_only_its_own(
        live_server, settings, fake_game, alice, bob):
    settings.PBEM_API_STREAM_SECONDS = 0  # the backlog, then the end: a poll
    game = start_game(fake_game, alice, [bob])
    card = _bid(game, alice)
    path = f"/api/v1/games/{game.pk}/stream/"

    kind, mine = _read(live_server.url, path, alice)
    assert kind.startswith("text/event-stream")
    assert mine[0]["event"] == "state" and mine[0]["data"]["your_seat"] == seat_of(game, alice)
    moves = [e for e in mine if e["event"] == "move"]
    assert len(moves) == 1 and moves[0]["data"]["move"] is not None
    assert f"You bid {card}" in [ev["text"] for ev in moves[0]["data"]["events"]]

    for viewer in (bob, None):  # the other seat and a spectator: the bid is face down
        _, theirs = _read(live_server.url, path, viewer)
        move = next(e for e in theirs if e["event"] == "move")
        assert move["data"]["move"] is None
        texts = [ev["text"] for ev in move["data"]["events"]]
        assert texts == ["Alice bids face down"], texts
        assert f"bid {card}" not in json.dumps(theirs) and f'"card": {card}' not in json.dumps(theirs)


def test_it_resumes_after_last_event_id_with_exactly_what_was_missed(live_server, settings, fake_game, alice, bob):
    settings.PBEM_API_STREAM_SECONDS = 0
    game = start_game(fake_game, alice, [bob])
    _bid(game, alice)
    path = f"/api/v1/games/{game.pk}/stream/"
    _, first = _read(live_server.url, path, bob)
    last = first[-1]["id"]
    _bid(game, bob)  # the reveal

    _, rest = _read(live_server.url, path, bob, **{"Last-Event-ID": last})
    moves = [e for e in rest if e["event"] == "move"]
    assert [m["data"]["seat"] for m in moves] == [seat_of(game, bob)]
    assert any(ev["kind"] == "reveal" for ev in moves[0]["data"]["events"])
    _, same = _read(live_server.url, f"{path}?last_event_id={last}", bob)
    assert [e["data"] for e in same if e["event"] == "move"] == [m["data"] for m in moves]


def test_a_replayed_move_names_who_made_it_not_the_seats_player_now(
        live_server, settings, fake_game, alice, bob, dave):
    """Found by QA (#22): after a moderator's replacement, the stream replayed with Last-Event-ID
    named the newcomer for the moves of the player replaced (as /log/ did before 38b55e7)."""
    settings.PBEM_API_STREAM_SECONDS = 0
    game = start_game(fake_game, alice, [bob], options={"rounds": 3})
    path = f"/api/v1/games/{game.pk}/stream/"
    _, first = _read(live_server.url, path, alice)
    last = first[-1]["id"]
    b = seat_of(game, bob)
    _bid(game, alice)
    _bid(game, bob)
    moderation.do_replace_player(game.pk, None, b, dave, "bob is away")
    _bid(game, alice)
    _bid(game, dave)
    _, rest = _read(live_server.url, path, alice, **{"Last-Event-ID": last})
    moves = [(e["data"]["seat"], e["data"]["player"]) for e in rest if e["event"] == "move"]
    a = seat_of(game, alice)
    assert moves == [(a, "Alice"), (b, "Bob"), (a, "Alice"), (b, "Dave")]
    log = [(e["seat"], e["player"]) for e in token_client(alice).get(f"/api/v1/games/{game.pk}/log/").json()["results"]]
    assert log == moves


def test_it_delivers_a_move_made_while_the_stream_is_open(live_server, settings, fake_game, alice, bob):
    settings.PBEM_API_STREAM_SECONDS = 30
    settings.PBEM_API_STREAM_POLL = 0.1
    game = start_game(fake_game, alice, [bob])
    r = _get(live_server.url, f"/api/v1/games/{game.pk}/stream/?format=ndjson&timeout=5", bob)
    assert r.status == 200 and r.headers["Content-Type"].startswith("application/x-ndjson")
    first = json.loads(r.readline())
    assert first["type"] == "state" and first["your_turn"] is True

    def move() -> None:
        try:
            _bid(game, alice)
        finally:
            connection.close()  # this thread's own connection

    mover = threading.Thread(target=move)
    mover.start()
    events = []
    while not any(e["type"] == "move" for e in events):
        line = r.readline()
        assert line, "the stream ended before the move came"
        if line.strip():  # an empty line is a keep-alive
            events.append(json.loads(line))
    mover.join()
    assert [e["action"] for e in events if e["type"] == "game"][:1] == ["create"]  # the backlog came first
    move = events[-1]
    assert move["seat"] == seat_of(game, alice) and move["move"] is None and move["your_turn"] is True
    r.read()  # to the stream's end (its timeout), so its worker is done before the test database goes


def test_the_account_stream_carries_all_my_games_from_now_on_redacted_per_game(
        live_server, settings, fake_game, alice, bob, carol):
    settings.PBEM_API_STREAM_SECONDS = 0
    settings.PBEM_API_STREAM_SETTLE = 0
    one = start_game(fake_game, alice, [bob])
    _, hello = _read(live_server.url, "/api/v1/me/stream/", bob)
    assert hello[0]["event"] == "hello" and hello[0]["data"]["my_turn"] == [one.pk]
    since = hello[0]["id"]
    other = start_game(fake_game, alice, [carol])  # bob has no seat in it
    _bid(one, alice)
    _bid(other, carol)

    _, events = _read(live_server.url, "/api/v1/me/stream/", bob, **{"Last-Event-ID": since})
    assert {e["data"]["game"] for e in events if e["event"] in ("move", "game")} == {one.pk}
    move = next(e for e in events if e["event"] == "move")
    assert move["data"]["move"] is None and move["data"]["your_turn"] is True
    assert all(ev["kind"] != "choose_own" for ev in move["data"]["events"])
    assert player_at(one, seat_of(one, bob)) == bob


def test_the_streams_refuse_what_they_cannot_serve(live_server, fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    assert _get(live_server.url, "/api/v1/me/stream/").status == 401
    assert _get(live_server.url, "/api/v1/games/999999/stream/", alice).status == 404
    bad = _get(live_server.url, f"/api/v1/games/{game.pk}/stream/?last_event_id=x", alice)
    assert bad.status == 400 and "last_event_id" in json.loads(bad.read())["message"]


def test_it_ignores_a_last_event_id_header_it_never_gave(live_server, settings, fake_game, alice, bob):
    settings.PBEM_API_STREAM_SECONDS = 0
    game = start_game(fake_game, alice, [bob])
    path = f"/api/v1/games/{game.pk}/stream/"
    _, fresh = _read(live_server.url, path, alice)
    _, odd = _read(live_server.url, path, alice, **{"Last-Event-ID": "yesterday"})
    assert [e["id"] for e in odd] == [e["id"] for e in fresh]


def test_it_documents_each_event_kind_s_payload_as_a_closed_component() -> None:
    from drf_spectacular.generators import SchemaGenerator

    openapi = SchemaGenerator().get_schema(request=None, public=True)
    schemas = openapi["components"]["schemas"]
    for url in ("/api/v1/games/{game_id}/stream/", "/api/v1/me/stream/"):
        content = openapi["paths"][url]["get"]["responses"]["200"]["content"]
        by_kind = content["text/event-stream"]["schema"]["x-pbem-data"]
        assert set(by_kind) == {"state", "hello", "move", "game"}
        for kind, ref in by_kind.items():
            component = schemas[ref["$ref"].rsplit("/", 1)[1]]
            assert component["additionalProperties"] is False and component["required"], kind
        lines = schemas[content["application/x-ndjson"]["schema"]["$ref"].rsplit("/", 1)[1]]
        assert lines["discriminator"]["propertyName"] == "type"
        assert set(lines["discriminator"]["mapping"]) == set(by_kind)
    assert set(schemas["StreamMoveOut"]["required"]) >= {"game", "number", "seat", "events", "your_turn"}
