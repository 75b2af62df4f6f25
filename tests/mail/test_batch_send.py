"""The mails of one move leave as one task over one SMTP connection, each row still sent once
(issue 12: a task and an SMTP connection per mail)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import MISSING

from pbem.games import dispatch
from pbem.games.models import Game, OutboundMessage
from pbem.mail import sending
from pbem.mail.smtp import free_port
from tests.mail.conftest import Persona

pytestmark = pytest.mark.django_db(transaction=True)


class Relay:
    """A real SMTP relay on a socket: counts connections, refuses one address."""

    def __init__(self, refuse: str) -> None:
        self.refuse = refuse
        self.sessions = 0
        self.accepted: list[str] = []
        self.lock = threading.Lock()

    async def handle_EHLO(self, server: Any, session: Any, envelope: Any, hostname: str,
                          responses: list[str]) -> list[str]:
        with self.lock:
            self.sessions += 1
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address == self.refuse:
            return "450 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.accepted.extend(envelope.rcpt_tos)
        return "250 OK"


@pytest.fixture
def relay(settings: Any, bruno: Persona) -> Any:
    handler = Relay(refuse=bruno.email)
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    yield handler
    controller.stop()


def test_it_sends_a_moves_mails_as_one_task_over_one_connection(bids_game: Game, ana: Persona, bruno: Persona,
                                                                carla: Persona, relay: Relay,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.mail.test_outbound import play

    tasks: list[tuple[str, tuple[Any, ...]]] = []
    monkeypatch.setattr(dispatch, "_run_now", lambda name, args: tasks.append((name, args)))
    play(bids_game, ana, 0)
    assert [name for name, _ in tasks] == ["pbem.send_outbound_batch"]
    (ids,) = tasks[0][1]
    assert len(ids) == 3

    with pytest.raises(Exception, match="450"):
        sending.do_send_outbound_batch(ids)
    assert relay.sessions == 1
    assert sorted(relay.accepted) == sorted([ana.email, carla.email])
    rows = {r.to_email: r for r in OutboundMessage.objects.filter(pk__in=ids)}
    assert rows[bruno.email].status == "pending" and "450" in rows[bruno.email].last_error
    assert {rows[a].status for a in (ana.email, carla.email)} == {"sent"}

    # The retry sends only what is still pending (and the relay takes it now).
    relay.refuse = ""
    assert sending.do_send_outbound_batch(ids) == 1
    assert sorted(relay.accepted) == sorted([ana.email, carla.email, bruno.email])


class HoldingRelay:
    """A real SMTP relay that takes every mail, keeps each one's Message-ID, and holds the
    client's QUIT until told: a worker that sent a batch waits there, before its ``sent`` mark."""

    def __init__(self) -> None:
        self.message_ids: list[str] = []
        self.quitting = threading.Event()
        self.release = threading.Event()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from email import message_from_bytes

        self.message_ids.append(str(message_from_bytes(envelope.content)["Message-ID"]))
        return "250 OK"

    async def handle_QUIT(self, server: Any, session: Any, envelope: Any) -> Any:
        import asyncio

        self.quitting.set()
        await asyncio.get_running_loop().run_in_executor(None, self.release.wait, 30)
        return MISSING


@pytest.mark.postgres
def test_a_worker_killed_between_its_sends_and_the_sent_mark_has_them_sent_again_with_their_message_ids(
        settings: Any, ana: Persona, bruno: Persona) -> None:
    """At least once (issue 28: a batch is marked sent in one statement after its sends): a worker
    process killed (SIGKILL) after the relay took its mails and before the mark leaves the rows
    ``sending``; the sweeper sends each again with the same Message-ID, once, and marks it."""
    import os
    import signal
    from datetime import timedelta

    from django.db import connections
    from django.utils import timezone

    handler = HoldingRelay()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"  # QUIT after the batch
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    try:
        rows = [OutboundMessage.objects.create(to_email=ana.email, subject="one", body_text="1",
                                               headers={"Message-ID": "<kill-1@pbem.localhost>"}),
                OutboundMessage.objects.create(to_email=bruno.email, subject="two", body_text="2",
                                               headers={"Message-ID": "<kill-2@pbem.localhost>"}),
                OutboundMessage.objects.create(to_email=ana.email, subject="three", body_text="3", headers={})]
        ids = [r.pk for r in rows]
        connections.close_all()  # the worker opens its own
        child = os.fork()
        if child == 0:  # the worker
            try:
                sending.do_send_outbound_batch(ids)
            finally:
                os._exit(0)
        assert handler.quitting.wait(30), "the worker sent its batch"
        os.kill(child, signal.SIGKILL)
        assert os.waitpid(child, 0)[1] != 0
        handler.release.set()
        first = list(handler.message_ids)
        assert len(first) == 3 and len(set(first)) == 3
        assert f"<pbem.o{ids[2]}@{settings.PBEM_MAIL_DOMAIN}>" in first  # a row without one: from its id
        assert set(OutboundMessage.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"sending"}

        assert sending.do_requeue_stuck(now=timezone.now()) == 0  # a recent claim: not a dead worker's yet
        assert sending.do_requeue_stuck(now=timezone.now() + sending.STUCK_AFTER + timedelta(seconds=1)) == 3
        for pk in ids:  # the sweeper's tasks (in-process here they ran already: then no-ops)
            sending.do_send_outbound(pk)
        assert sorted(handler.message_ids[3:]) == sorted(first)  # each once more, with its Message-ID
        assert set(OutboundMessage.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"sent"}
        assert sending.do_requeue_stuck(now=timezone.now() + timedelta(minutes=5)) == 0
        assert len(handler.message_ids) == 6
    finally:
        handler.release.set()
        controller.stop()


@pytest.mark.postgres
def test_a_deciding_task_killed_between_its_commit_and_its_sends_has_its_born_claimed_mails_sent_by_the_sweeper(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, relay: Relay, settings: Any) -> None:
    """A worker's deciding task inserts its move's mails claimed by itself (issue 28: no claim statement
    after the commit). Killed (SIGKILL) after the commit and before its sends, it leaves them
    ``sending``; no one sends them while the claim is young, and the outbox sweeper sends each once
    after ``STUCK_AFTER``, over the real relay."""
    import contextlib
    import os
    import signal
    from collections.abc import Iterator
    from datetime import timedelta

    from django.db import connections
    from django.utils import timezone

    from tests.mail.test_outbound import play

    relay.refuse = ""
    before = set(OutboundMessage.objects.values_list("pk", flat=True))
    accepted = len(relay.accepted)

    @contextlib.contextmanager
    def killed() -> Iterator[None]:  # the send bound of a process that dies as its sends begin
        os.kill(os.getpid(), signal.SIGKILL)
        yield

    connections.close_all()  # the worker opens its own
    child = os.fork()
    if child == 0:  # the worker process: a deciding task, as workers/tasks.py runs one
        try:
            settings.PBEM_TASKS_IN_PROCESS = False
            with dispatch.sending_here(killed):
                play(bids_game, ana, 0)
        finally:
            os._exit(0)
    assert os.waitpid(child, 0)[1] == signal.SIGKILL
    rows = OutboundMessage.objects.exclude(pk__in=before).filter(game=bids_game)
    assert sorted(rows.values_list("to_email", flat=True)) == sorted([ana.email, bruno.email, carla.email])
    assert set(rows.values_list("status", "attempts")) == {("sending", 1)}  # born claimed, by the dead task
    assert len(relay.accepted) == accepted  # nothing left before the kill

    assert sending.do_requeue_stuck(now=timezone.now()) == 0  # a young claim: not a dead worker's yet
    assert sending.do_send_outbound_batch(list(rows.values_list("pk", flat=True))) == 0  # nor anyone else's
    assert sending.do_requeue_stuck(now=timezone.now() + sending.STUCK_AFTER + timedelta(seconds=1)) == 3
    # (in process here, the sweeper's send tasks ran at its commit)
    assert sorted(relay.accepted[accepted:]) == sorted([ana.email, bruno.email, carla.email])
    assert set(rows.values_list("status", flat=True)) == {"sent"}


@pytest.mark.parametrize("rules", ["maretta", "maracaibo"])
def test_a_picture_mail_built_once_is_the_mail_django_builds(rules: str, settings: Any) -> None:
    """A picture mail's MIME is built once, the picture's part added to the build that weighed the
    rest (issue 28: it was built twice); it is byte for byte the mail Django builds from the same
    parts, bar the MIME boundaries, and a mail program reads the same headers, text, HTML, picture."""
    import re
    from email import message_from_bytes

    from tests.mail.test_query_counts_mail import played_by_mail

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    game = played_by_mail(rules, "once", moves=4, seed=11)
    rows = list(OutboundMessage.objects.filter(game=game).exclude(content=None))
    built = [(r, sending.build_message(r)) for r in rows]
    once = [(r, m) for r, m in built if getattr(m, "built", None) is not None]
    assert len(once) == sum(1 for _r, m in built if m.attachments) >= 2  # every picture mail
    for row, msg in once:
        # (a _Mail never built: Django's build, with the Subject folded knowing its name, QA of #20)
        fresh = sending._Mail(subject=msg.subject, body=msg.body, from_email=msg.from_email, to=msg.to,
                                       reply_to=msg.reply_to, headers=msg.extra_headers,
                                       alternatives=msg.alternatives, attachments=msg.attachments)
        fresh.mixed_subtype = msg.mixed_subtype  # type: ignore[attr-defined]
        ours, theirs = msg.message().as_bytes(), fresh.message().as_bytes()

        def plain(b: bytes) -> bytes:
            b = re.sub(rb"=+[0-9]{10,}=+", b"BOUNDARY", b)
            return re.sub(rb"^Date: .*$", b"Date: -", b, flags=re.MULTILINE)

        assert plain(ours) == plain(theirs), row.pk
        assert message_from_bytes(ours).get_content_type() == "multipart/related"
