"""The SMTP ingress's database lanes (issue 28, pipe session), over real SMTP sockets and PostgreSQL.

Each test holds a lock on the inbound table from the test's own connection, so that a mail's
INSERT waits in the database where the test can see it (``pg_locks``), then lets it go. Nothing is
timed: an answer the ingress could not give while another mail waits would never come, and the
SMTP client's timeout would fail the test.
"""

from __future__ import annotations

import smtplib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection, transaction

from pbem.games.models import Game, InboundMessage, Move
from pbem.mail.smtp import free_port, make_controller
from tests.mail.conftest import Persona, SmtpServer, sent_messages

pytestmark = pytest.mark.django_db(transaction=True)

#: Seconds the test waits at most for an answer, or for a mail to reach its INSERT: a bound, not a timing.
PATIENCE = 20.0


@pytest.fixture(autouse=True)
def _postgresql() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the lanes are PostgreSQL's (SQLite has one writer: one lane)")


def inserts_waiting() -> int:
    """INSERTs into the inbound table waiting for the test's lock (pg_locks is live, not a snapshot)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted AND relation = %s::regclass",
                       [InboundMessage._meta.db_table])
        return int(cursor.fetchone()[0])


def wait_for(what: Callable[[], bool], message: str) -> None:
    end = time.monotonic() + PATIENCE
    while not what():
        assert time.monotonic() < end, message
        time.sleep(0.02)


@contextmanager
def inbound_table_locked() -> Iterator[None]:
    """A lock that lets the seats be read (RCPT) but makes every INSERT into the inbound table wait."""
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"LOCK TABLE {connection.ops.quote_name(InboundMessage._meta.db_table)} IN SHARE MODE")
        yield


class Sending(threading.Thread):
    """One SMTP session in a thread of its own: MAIL, RCPT, DATA; its answers kept."""

    def __init__(self, server: SmtpServer, mail_from: str, rcpt: str, raw: bytes) -> None:
        super().__init__(daemon=True)
        self.args_ = (server, mail_from, rcpt, raw)
        self.rcpt_answer: tuple[int, bytes] | None = None
        self.data_answer: tuple[int, bytes] | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        server, mail_from, rcpt, raw = self.args_
        try:
            with smtplib.SMTP(server.host, server.port, timeout=PATIENCE) as s:
                s.ehlo()
                s.mail(mail_from)
                self.rcpt_answer = s.rcpt(rcpt)
                self.data_answer = s.data(raw)
        except BaseException as exc:  # noqa: BLE001 - the test reads it
            self.error = exc


def reply_to(person: Persona) -> str:
    return str(person.latest()["Reply-To"])


def a_bid(game: Game, seat: int) -> str:
    game.refresh_from_db()
    assert game.state is not None
    return f"c{game.state['hands'][seat][0]}"


def test_a_recipient_is_checked_while_another_sessions_mail_waits_in_the_database(
        bids_game: Game, ana: Persona, bruno: Persona, smtp_server: SmtpServer) -> None:
    ana_raw = ana.reply_raw(ana.latest(), a_bid(bids_game, 0))
    ana_sends = Sending(smtp_server, ana.email, reply_to(ana), ana_raw)
    with inbound_table_locked():
        ana_sends.start()
        wait_for(lambda: inserts_waiting() == 1, "Ana's mail never reached its INSERT")
        # Before the lanes, Bruno's RCPT check queued behind Ana's INSERT in the ingress's one
        # database thread: no answer until the lock went.
        with smtplib.SMTP(smtp_server.host, smtp_server.port, timeout=PATIENCE) as s:
            s.ehlo()
            s.mail(bruno.email)
            assert s.rcpt(reply_to(bruno))[0] == 250
            assert s.rcpt("seat-ThisTokenDoesNotExist@pbem.localhost")[0] == 550
            s.rset()
        assert ana_sends.is_alive() and ana_sends.data_answer is None  # still waiting for the database
        assert not InboundMessage.objects.exists()
    ana_sends.join(PATIENCE)
    assert ana_sends.error is None and ana_sends.data_answer is not None
    assert ana_sends.data_answer[0] == 250
    # The mail waited, then was stored and judged as ever.
    assert InboundMessage.objects.get().status == InboundMessage.Status.APPLIED
    bruno.reply(bruno.latest(), a_bid(bids_game, 1))
    assert Move.objects.filter(game=bids_game).count() == 2


def test_mails_arriving_together_are_each_committed_before_their_250_and_a_duplicate_is_stored_once(
        bids_game: Game, ana: Persona, bruno: Persona, smtp_server: SmtpServer) -> None:
    ana_raw = ana.reply_raw(ana.latest(), a_bid(bids_game, 0))
    bruno_raw = bruno.reply_raw(bruno.latest(), a_bid(bids_game, 1))
    # Ana's MTA delivers her mail twice at once (two sessions, the same Message-ID), Bruno's once.
    sessions = [Sending(smtp_server, ana.email, reply_to(ana), ana_raw),
                Sending(smtp_server, ana.email, reply_to(ana), ana_raw),
                Sending(smtp_server, bruno.email, reply_to(bruno), bruno_raw)]
    mails_before = len(sent_messages())
    with inbound_table_locked():
        for s in sessions:
            s.start()
        wait_for(lambda: inserts_waiting() == 3, "the three mails never all reached their INSERTs")
        assert all(s.data_answer is None for s in sessions)  # no 250 before its row is committed
    for s in sessions:
        s.join(PATIENCE)
        assert s.error is None and s.data_answer is not None
        assert s.data_answer[0] == 250, s.data_answer
    rows = {r.message_id: r for r in InboundMessage.objects.all()}
    assert len(rows) == 2
    answered: list[Any] = [s.data_answer[1].decode().rsplit(" ", 1)[1] for s in sessions if s.data_answer]
    assert answered[0] == answered[1]  # both deliveries of Ana's mail name the one row
    assert set(answered) == {str(r.pk) for r in rows.values()}
    assert all(r.status == InboundMessage.Status.APPLIED for r in rows.values())
    assert Move.objects.filter(game=bids_game).count() == 2  # Ana's bid applied once
    assert len(sent_messages()) > mails_before


def ingress_backends() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                       "AND pid <> pg_backend_pid() AND backend_type = 'client backend'")
        return int(cursor.fetchone()[0])


def test_stopping_the_ingress_closes_the_connection_of_every_lane(bids_game: Game, ana: Persona,
                                                                   bruno: Persona) -> None:
    connection.ensure_connection()
    before = ingress_backends()
    port = free_port()
    controller = make_controller("127.0.0.1", port)
    controller.start()
    server = SmtpServer("127.0.0.1", port)
    try:
        sessions = [Sending(server, ana.email, reply_to(ana), ana.reply_raw(ana.latest(), a_bid(bids_game, 0))),
                    Sending(server, bruno.email, reply_to(bruno), bruno.reply_raw(bruno.latest(), a_bid(bids_game, 1)))]
        with inbound_table_locked():
            for s in sessions:
                s.start()
            wait_for(lambda: inserts_waiting() == 2, "the two mails never reached their INSERTs")
            assert ingress_backends() >= before + 2  # two lanes, a connection each
        for s in sessions:
            s.join(PATIENCE)
            assert s.data_answer is not None and s.data_answer[0] == 250
    finally:
        controller.stop()
    # A backend ends shortly after its client closes the socket.
    wait_for(lambda: ingress_backends() == before, "a lane's database connection outlived the ingress")
