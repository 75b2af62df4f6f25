"""The seat of a secret address read in one written-out statement (pbem.mail.seatrow, issue 28).

What could break: a column left out or read into the wrong field (the statement is built from the
models' fields in order), a JSON column left as text, a seat without a player, the game's lock.
Each is compared with what the ORM's ``select_related`` read gives, on PostgreSQL.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction
from django.test.utils import CaptureQueriesContext

from pbem.games import services
from pbem.games.models import ChatMessage, Game, Player, Seat
from pbem.mail import outbox, seatrow

pytestmark = pytest.mark.django_db(transaction=True)


def _fields(obj: object) -> dict[str, object]:
    assert obj is not None
    return {f.attname: getattr(obj, f.attname) for f in type(obj)._meta.concrete_fields}  # type: ignore[attr-defined]


def _game_with_an_invited_seat() -> Game:
    host = services.do_create_player("row0@example.org", "Row0")
    other = services.do_create_player("row1@example.org", "Row1")
    game = services.do_create_game(host, "maretta", options={"side": "A"},
                                   invite=[other.email, "nobody-yet@example.org"])
    services.do_join_game(game.pk, other)
    return game


def test_a_seat_read_by_its_token_is_what_the_orm_reads_with_its_game_and_player_in_one_statement() -> None:
    game = _game_with_an_invited_seat()
    seats = list(Seat.objects.filter(game=game).select_related("game", "player"))
    assert any(s.player is None for s in seats), "a seat still only invited"
    assert any(s.player is not None for s in seats)
    for orm in seats:
        with CaptureQueriesContext(connection) as queries:
            seat = seatrow.seat_by_token(orm.token)
            assert seat is not None
            game_read, player_read = seat.game, seat.player  # cached: no statement of their own
        assert len(queries) == 1, [q["sql"] for q in queries]
        assert _fields(seat) == _fields(orm)
        assert _fields(game_read) == _fields(orm.game)
        assert isinstance(game_read.options, dict) and isinstance(game_read.outcome, (dict, type(None)))
        assert (player_read is None) == (orm.player is None)
        if orm.player is not None:
            assert isinstance(player_read, Player) and _fields(player_read) == _fields(orm.player)
        # the objects behave as the ORM's: saved in place, they change their own row only
        seat.last_mailed_chat += 1
        seat.save(update_fields=["last_mailed_chat"])
        assert Seat.objects.get(pk=orm.pk).last_mailed_chat == orm.last_mailed_chat + 1
    assert seatrow.seat_by_token("no-such-token") is None


def test_a_seat_read_with_its_lock_holds_its_games_row_until_the_transaction_ends() -> None:
    game = _game_with_an_invited_seat()
    token = Seat.objects.filter(game=game).first().token  # type: ignore[union-attr]
    seen: list[str] = []

    def other_connection() -> None:
        with connections["default"].cursor() as cursor:  # a thread's own connection
            try:
                cursor.execute("SET lock_timeout = '300ms'")
                cursor.execute("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk])
                seen.append("got it")
            except Exception as exc:  # noqa: BLE001 - the lock's timeout is what is looked for
                seen.append(type(exc).__name__)
        connections["default"].close()

    with transaction.atomic():
        assert seatrow.seat_by_token(token, lock=True) is not None
        t = threading.Thread(target=other_connection)
        t.start()
        t.join()
    assert seen == ["OperationalError"], seen
    t = threading.Thread(target=other_connection)
    t.start()
    t.join()
    assert seen[-1] == "got it"


def test_a_games_seats_are_what_the_orm_reads_with_their_players_and_chat_flags_in_one_statement() -> None:
    game = Game.objects.get(pk=_game_with_an_invited_seat().pk)
    seats = list(Seat.objects.filter(game=game))
    told = next(s for s in seats if s.player is not None)
    said = ChatMessage.objects.create(game=game, seat=told.index or 0, player=told.player, text="oi", version=1)
    Seat.objects.filter(pk=told.pk).update(last_mailed_chat=said.pk)  # told of it: no new chat for this seat
    orm = list(outbox.with_chat_flag(game.seats.select_related("player")))
    assert {getattr(s, outbox.NEW_CHAT) for s in orm} == {True, False}, "both flags are compared"
    with CaptureQueriesContext(connection) as queries:
        read = seatrow.seats_of(game)
        players = [s.player for s in read]
        games = {id(s.game) for s in read}
    assert len(queries) == 1, [q["sql"] for q in queries]
    assert games == {id(game)}, "each seat's game is the game given"
    assert [s.pk for s in read] == [s.pk for s in orm]  # the ORM's order
    for ours, theirs, player in zip(read, orm, players, strict=True):
        assert _fields(ours) == _fields(theirs)
        assert getattr(ours, outbox.NEW_CHAT) is getattr(theirs, outbox.NEW_CHAT)
        assert (player is None) == (theirs.player is None)
        if player is not None:
            assert _fields(player) == _fields(theirs.player)
