"""The mails of one move leave as one task over one SMTP connection, each row still sent once
(issue 12: a task and an SMTP connection per mail)."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from aiosmtpd.controller import Controller

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
