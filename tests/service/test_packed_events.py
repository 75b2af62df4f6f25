"""A move's events are stored deflated (issue 28: storage) and read back as the data written; migration
0027 converts stored rows both ways; a game played by mail replays and its log reads after the retention."""

from __future__ import annotations

import io
import json
import math
import zlib
from datetime import timedelta
from email.message import EmailMessage

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

import engine
from engine.testing import choose
from pbem.games import selectors
from pbem.games.fields import pack, unpack
from pbem.games.models import Game, InboundMessage, Move, Seat, Source
from pbem.mail import retention
from pbem.mail import services as mail_services
from pbem.mail.outbox import reply_address
from tests.factories import start_game

EVENTS = [
    {
        "kind": "draw",
        "to": [1],
        "reveals": True,
        "data": {"cards": ["4ro", "3wa"], "n": 2, "x": 1.5, "none": None},
        "msg": {"id": "Você compra {a} e {b}", "params": {"a": {"_": "{n} Rope", "n": 4}, "b": "água ✓"}},
    },
    {"kind": "turn", "msg": {"id": "Turn {turn} begins", "params": {"turn": 2}}},
]


def _stored(pk: int) -> bytes:
    with connection.cursor() as cur:
        cur.execute("SELECT events FROM games_move WHERE id = %s", [pk])
        return bytes(cur.fetchone()[0])


@pytest.mark.django_db
def test_events_read_back_as_written_and_are_stored_deflated_json(alice, bob):
    game = start_game("caravelas", alice, [bob])
    row = Move.objects.create(
        game=game, seat=1, move={"code": "x"}, source=Source.API, version=99, number=99, events=EVENTS
    )
    assert Move.objects.get(pk=row.pk).events == EVENTS
    assert Move.objects.filter(pk=row.pk).values_list("events", flat=True).get() == EVENTS
    assert Move.objects.only("events").get(pk=row.pk).events == EVENTS
    raw = _stored(row.pk)
    # Any zlib reads a stored value back to the JSON text: an operator needs no pbem code for it.
    assert json.loads(zlib.decompress(raw)) == EVENTS
    assert len(raw) < len(json.dumps(EVENTS)) and unpack(raw) == EVENTS
    assert Move.objects.create(game=game, seat=0, move={}, source=Source.API, version=100, number=100).events == []
    assert Move.objects.filter(number=100).get().events == []
    # What JSONB refused is refused here too, before anything is written.
    with pytest.raises(ValueError):
        pack([{"x": math.nan}])


@pytest.mark.django_db
def test_moves_played_store_their_events_deflated_and_readers_see_them(alice, bob, carol):
    game = start_game("maretta", alice, [bob, carol])
    from tests.factories import play_first_options

    play_first_options(game.pk, limit=6)
    rows = list(Move.objects.filter(game=game).order_by("number"))
    assert rows and all(r.events and unpack(_stored(r.pk)) == r.events for r in rows)
    # The log as a seat reads it (the API and the web page): redacted events with their text.
    told = [selectors.redacted_events(r.events, 0) for r in rows]
    assert all(e["text"] for events in told for e in events)


@pytest.mark.django_db(transaction=True)
def test_migration_0027_packs_stored_jsonb_events_and_unpacks_them_when_reversed(alice, bob):
    game = start_game("caravelas", alice, [bob])
    executor = MigrationExecutor(connection)
    before, after = [("games", "0026_maracaibo_release")], [("games", "0027_packed_events")]
    try:
        executor.migrate(before)
        with connection.cursor() as cur:  # a row as 0026 stored it: JSONB
            cur.execute(
                "INSERT INTO games_move (game_id, seat, move, source, version, number, events, created_at) "
                "VALUES (%s, 1, '{}', 'api', 77, 77, %s::jsonb, now()) RETURNING id",
                [game.pk, json.dumps(EVENTS)],
            )
            pk = cur.fetchone()[0]
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(after)
        assert unpack(_stored(pk)) == EVENTS
        assert Move.objects.get(pk=pk).events == EVENTS
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(before)  # and back: JSONB again, the same data
        with connection.cursor() as cur:
            cur.execute("SELECT events FROM games_move WHERE id = %s", [pk])
            value = cur.fetchone()[0]
        assert (json.loads(value) if isinstance(value, str) else value) == EVENTS
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_after_the_retention_a_game_played_by_mail_replays_and_its_record_stays(alice, bob, carol, settings):
    """Retention empties mail bodies and the inbound recipients (seat tokens) only: the move log, which
    replay, undo and audits read, and each mail's Message-ID, sender, game and verdict stay."""
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = start_game("maretta", alice, [bob, carol])
    rules = engine.get("maretta")
    import random

    rnd = random.Random("retention")
    for i in range(8):
        game = Game.objects.get(pk=game.pk)
        state = game.state
        assert state is not None
        index = rules.pending(state)[0]
        seat = Seat.objects.select_related("player").get(game=game, index=index)
        assert seat.player is not None
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = seat.player.email, reply_address(seat), "move"
        msg["Message-ID"] = f"<retention-{i}@example.com>"
        msg.set_content(choose(rules, state, index, rules.options(state, index), rnd).code)
        row = mail_services.do_receive_mail(msg.as_bytes(), seat.player.email, [reply_address(seat)])
        mail_services.do_process_inbound(row.pk)
    log_before = list(Move.objects.filter(game=game).order_by("number").values_list("move", "events"))
    mails = {
        r.pk: (r.message_id, r.mail_from, r.status, r.result, r.game_id)
        for r in InboundMessage.objects.filter(game=game)
    }
    assert len(log_before) == 8 and len(mails) == 8
    assert all(r.status == "applied" for r in InboundMessage.objects.filter(game=game))

    later = timezone.now() + retention.keep_for() + timedelta(hours=1)
    assert retention.do_prune_mail_bodies(later) >= 8
    after = InboundMessage.objects.filter(game=game)
    assert all((bytes(r.raw), r.rcpt_to) == (b"", "") and r.pruned_at for r in after)
    assert {r.pk: (r.message_id, r.mail_from, r.status, r.result, r.game_id) for r in after} == mails
    assert list(Move.objects.filter(game=game).order_by("number").values_list("move", "events")) == log_before
    out = io.StringIO()
    call_command("verify_games", str(game.pk), stdout=out)
    assert "1 game replayed (8 moves): all match" in out.getvalue()
    # A pruned mail delivered again is still a duplicate: its Message-ID is all deduplication needs.
    first = InboundMessage.objects.filter(game=game).order_by("pk").first()
    assert first is not None
    again = EmailMessage()
    again["From"], again["To"], again["Message-ID"] = first.mail_from, "x@example.com", first.message_id
    again.set_content("anything")
    assert mail_services.do_receive_mail(again.as_bytes(), first.mail_from, ["x@example.com"]).pk == first.pk
    assert Move.objects.filter(game=game).count() == 8


@pytest.mark.django_db
def test_the_admin_shows_a_moves_events_as_json(alice, bob, moderator, client):
    game = start_game("caravelas", alice, [bob])
    row = Move.objects.create(
        game=game, seat=1, move={"code": "x"}, source=Source.API, version=99, number=99, events=EVENTS
    )
    client.force_login(moderator.user)
    page = client.get(f"/admin/games/move/{row.pk}/change/")
    assert page.status_code == 200
    assert "Turn {turn} begins" in page.content.decode() and "água ✓" in page.content.decode()
