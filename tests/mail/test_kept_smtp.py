"""The SMTP backend keeps its connection to the relay from one mail to the next (issue 28: a new
SMTP session a mail), on a real relay over real sockets."""

from __future__ import annotations

import smtplib
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.core.mail import EmailMessage, get_connection

from pbem.mail import kept
from pbem.mail.smtp import free_port


class Relay:
    """Counts SMTP sessions (EHLO) and the mails it took, by Message-ID."""

    def __init__(self) -> None:
        self.sessions = 0
        self.taken: list[str] = []
        self.lock = threading.Lock()
        self.servers: list[Any] = []

    async def handle_EHLO(self, server: Any, session: Any, envelope: Any, hostname: str,
                          responses: list[str]) -> list[str]:
        with self.lock:
            self.sessions += 1
            self.servers.append(server)
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: Any) -> str:
        if address == "nobody@example.org":
            return "550 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            for line in bytes(envelope.original_content).splitlines():
                if line.lower().startswith(b"message-id:"):
                    self.taken.append(line.split(b":", 1)[1].strip().decode())
        return "250 OK"


@pytest.fixture
def relay(settings: Any) -> Iterator[tuple[Relay, Controller]]:
    handler = Relay()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "pbem.mail.kept.KeptSMTPBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.PBEM_SMTP_KEEP_SECONDS = 30
    yield handler, controller
    kept.drop_kept()
    controller.stop()


def mail(n: int) -> EmailMessage:
    return EmailMessage("move", "a1", "pbem@pbem.localhost", ["ana@example.org"],
                        headers={"Message-ID": f"<kept-{n}@pbem.localhost>"})


def test_mails_sent_one_after_another_share_one_session(relay: tuple[Relay, Controller]) -> None:
    handler, _controller = relay
    for n in range(3):
        assert mail(n).send() == 1  # each its own send, as each move's task does
    with get_connection() as connection:  # a move's batch: one backend for its mails
        assert connection.send_messages([mail(3), mail(4)]) == 2
    assert handler.taken == [f"<kept-{n}@pbem.localhost>" for n in range(5)]
    assert handler.sessions == 1


def test_a_connection_idle_too_long_is_not_used_again(relay: tuple[Relay, Controller]) -> None:
    handler, _controller = relay
    mail(0).send()
    kept._kept.used -= 31  # idle past PBEM_SMTP_KEEP_SECONDS
    mail(1).send()
    assert handler.sessions == 2
    assert handler.taken == ["<kept-0@pbem.localhost>", "<kept-1@pbem.localhost>"]


def test_nothing_is_kept_when_keeping_is_off(relay: tuple[Relay, Controller], settings: Any) -> None:
    handler, _controller = relay
    settings.PBEM_SMTP_KEEP_SECONDS = 0
    mail(0).send()
    mail(1).send()
    assert handler.sessions == 2
    assert getattr(kept._kept, "connection", None) is None


def test_a_kept_connection_the_relay_closed_is_replaced_and_the_mail_goes_once(relay: tuple[Relay, Controller]) -> None:
    handler, controller = relay
    mail(0).send()
    # The relay closes the idle session (as a relay's idle timeout does); the client does not know.
    closed = threading.Event()

    def close() -> None:
        handler.servers[0].transport.close()
        closed.set()

    controller.loop.call_soon_threadsafe(close)
    assert closed.wait(10)
    assert mail(1).send() == 1
    assert handler.taken == ["<kept-0@pbem.localhost>", "<kept-1@pbem.localhost>"]
    assert handler.sessions == 2


def test_a_refused_mail_drops_the_connection_and_raises(relay: tuple[Relay, Controller], settings: Any) -> None:
    handler, _controller = relay
    mail(0).send()
    refused = EmailMessage("move", "a1", "pbem@pbem.localhost", ["nobody@example.org"])
    with pytest.raises(smtplib.SMTPRecipientsRefused):
        refused.send()
    assert getattr(kept._kept, "connection", None) is None
    mail(1).send()
    assert handler.sessions == 2
