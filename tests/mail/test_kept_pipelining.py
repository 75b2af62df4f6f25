"""The kept SMTP backend sends a mail pipelined (RFC 2920) when the relay advertises PIPELINING:
MAIL, every RCPT and DATA in one write, then the message (issue 28: two round trips a mail, not
four). Checked against smtplib's own exchange with a real aiosmtpd relay over real sockets."""

from __future__ import annotations

import smtplib
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP
from django.core.mail import EmailMessage

from pbem.mail import kept
from pbem.mail.smtp import free_port


class Recording(SMTP):
    """aiosmtpd's server, each read of its socket recorded as it came (one entry a read)."""

    def __init__(self, *args: Any, reads: list[bytes], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.reads = reads

    def data_received(self, data: bytes) -> None:
        self.reads.append(bytes(data))
        super().data_received(data)

    async def smtp_DATA(self, arg: str) -> None:
        # A relay that refuses DATA itself (a busy queue): aiosmtpd has no hook for it.
        if self.envelope is not None and "busy@example.org" in self.envelope.rcpt_tos:
            await self.push("451 queue busy, try later")
            return
        await super().smtp_DATA(arg)


class Relay:
    """Refuses a sender, a recipient and a message by name; keeps what it took."""

    def __init__(self, pipelining: bool) -> None:
        self.pipelining = pipelining
        self.taken: list[bytes] = []
        self.reads: list[bytes] = []
        self.sessions = 0
        self.servers: list[Any] = []

    async def handle_EHLO(self, server: Any, session: Any, envelope: Any, hostname: str,
                          responses: list[str]) -> list[str]:
        self.sessions += 1
        self.servers.append(server)
        session.host_name = hostname
        if self.pipelining:
            responses.insert(-1, "250-PIPELINING")
        return responses

    async def handle_MAIL(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address == "refused@pbem.localhost":
            return "553 sender refused"
        envelope.mail_from = address
        return "250 OK"

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address == "nobody@example.org":
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if b"Subject: spam" in envelope.original_content:
            return "554 message refused"
        self.taken.append(bytes(envelope.original_content))
        return "250 OK"


class RecordingController(Controller):
    def factory(self) -> SMTP:
        return Recording(self.handler, reads=self.handler.reads, **self.SMTP_kwargs)


def start(pipelining: bool) -> tuple[Relay, Controller, int]:
    handler = Relay(pipelining)
    port = free_port()
    controller = RecordingController(handler, hostname="127.0.0.1", port=port)
    controller.start()
    return handler, controller, port


@pytest.fixture
def relays() -> Iterator[tuple[tuple[Relay, int], tuple[Relay, int]]]:
    """A relay advertising PIPELINING and one that does not."""
    piped, piped_controller, piped_port = start(True)
    plain, plain_controller, plain_port = start(False)
    yield (piped, piped_port), (plain, plain_port)
    kept.drop_kept()
    piped_controller.stop()
    plain_controller.stop()


MESSAGE = (b"From: pbem@pbem.localhost\r\nTo: ana@example.org\r\nSubject: move\r\n\r\n"
           b"a1\r\n.a line starting with a dot\r\n..two\r\n.\r\nlast")


def exchange(client: smtplib.SMTP, *args: Any) -> tuple[Any, Any]:
    """What ``sendmail`` returned, or the type and args of what it raised."""
    try:
        outcome: tuple[Any, Any] = ("returned", client.sendmail(*args))
    except smtplib.SMTPException as e:
        outcome = (type(e), e.args)
    return outcome


def test_a_pipelined_mail_arrives_as_smtplib_sends_it_with_mail_rcpt_and_data_in_one_read(relays: Any) -> None:
    (piped, piped_port), (plain, plain_port) = relays
    args = ("pbem@pbem.localhost", ["ana@example.org", "bia@example.org"], MESSAGE)
    with kept._PipeliningSMTP("127.0.0.1", piped_port, local_hostname="pbem.localhost") as client:
        assert client.sendmail(*args) == {}
    with smtplib.SMTP("127.0.0.1", plain_port, local_hostname="pbem.localhost") as client:
        assert client.sendmail(*args) == {}
    assert piped.taken == plain.taken
    assert b"\r\n.a line starting with a dot\r\n..two\r\n.\r\n" in piped.taken[0]
    # The bytes on the wire are smtplib's, byte for byte; only their grouping into writes differs.
    assert b"".join(piped.reads) == b"".join(plain.reads)
    commands = [r for r in piped.reads if r.startswith(b"mail FROM:")]
    assert commands == [b"mail FROM:<pbem@pbem.localhost> size=%d\r\nrcpt TO:<ana@example.org>\r\n"
                        b"rcpt TO:<bia@example.org>\r\ndata\r\n" % len(MESSAGE)]
    assert b"mail FROM:<pbem@pbem.localhost> size=%d\r\n" % len(MESSAGE) in plain.reads  # smtplib: a read each


SPAM = MESSAGE.replace(b"Subject: move", b"Subject: spam")


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(("refused@pbem.localhost", ["ana@example.org"], MESSAGE), id="sender refused"),
        pytest.param(("pbem@pbem.localhost", ["nobody@example.org"], MESSAGE), id="every recipient refused"),
        pytest.param(("pbem@pbem.localhost", ["busy@example.org"], MESSAGE), id="DATA refused"),
        pytest.param(("pbem@pbem.localhost", ["ana@example.org"], SPAM), id="message refused"),
        pytest.param(("pbem@pbem.localhost", ["nobody@example.org", "ana@example.org"], MESSAGE),
                     id="one recipient refused"),
    ],
)
def test_a_refusal_is_answered_as_smtplib_answers_it_and_the_connection_goes_on(relays: Any, args: Any) -> None:
    (piped, piped_port), (_plain, plain_port) = relays
    with kept._PipeliningSMTP("127.0.0.1", piped_port) as piped_client, \
            smtplib.SMTP("127.0.0.1", plain_port) as plain_client:
        outcome = exchange(piped_client, *args)
        assert outcome == exchange(plain_client, *args)
        assert outcome[0] != "returned" or outcome[1]  # a refusal each (the last: a partial one)
        # The same connection takes the next mail.
        assert piped_client.sendmail("pbem@pbem.localhost", ["ana@example.org"], MESSAGE) == {}
    assert piped.taken[-1] == MESSAGE + b"\r\n"
    assert piped.sessions == 1


def test_a_relay_without_pipelining_gets_smtplibs_exchange(relays: Any) -> None:
    _piped, (plain, plain_port) = relays
    with kept._PipeliningSMTP("127.0.0.1", plain_port) as client:
        assert client.sendmail("pbem@pbem.localhost", ["ana@example.org", "bia@example.org"], MESSAGE) == {}
    # One command a read: each waited for its reply.
    assert [r[:4] for r in plain.reads[1:-1]] == [b"mail", b"rcpt", b"rcpt", b"data", b"From"]


def test_the_backend_pipelines_and_replaces_a_kept_connection_the_relay_closed(
        relays: Any, settings: Any) -> None:
    (piped, piped_port), _plain = relays
    settings.EMAIL_BACKEND = "pbem.mail.kept.KeptSMTPBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", piped_port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.PBEM_SMTP_KEEP_SECONDS = 30
    EmailMessage("move", "a1", "pbem@pbem.localhost", ["ana@example.org"]).send()
    closed = threading.Event()

    def close() -> None:
        piped.servers[0].transport.close()
        closed.set()

    piped.servers[0].loop.call_soon_threadsafe(close)
    assert closed.wait(10)
    assert EmailMessage("move", "b2", "pbem@pbem.localhost", ["ana@example.org"]).send() == 1
    assert [m.endswith((b"\r\n\r\na1\r\n", b"\r\n\r\nb2\r\n")) for m in piped.taken] == [True, True]
    assert piped.sessions == 2
    assert sum(r.startswith(b"mail FROM:") and r.endswith(b"data\r\n") for r in piped.reads) == 2
