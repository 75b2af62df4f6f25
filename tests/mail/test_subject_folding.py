"""A mail's Subject reads as written whatever its length and language (QA of #20, the Uprising by mail).

A Portuguese turn mail's subject ("[pbem #2] Maracaibo: A Revolta, Agitação (79): é a sua vez, rodada I")
went out folded right after "Subject:" (Django encoded it without the header's name, the generator
folded it again before its first encoded word), so Python's mail parser and other mail programs read it
with a leading space. The mails go through a real SMTP relay and are read from the bytes it took."""

from __future__ import annotations

import email
import email.policy
import threading
from collections.abc import Iterator
from email.header import decode_header, make_header
from typing import Any

import pytest
from aiosmtpd.controller import Controller
from django.core.mail import get_connection

from pbem.games.models import OutboundMessage
from pbem.mail import sending
from pbem.mail.smtp import free_port
from tests.mail.conftest import Persona
from tests.mail.test_language_by_mail import send_in

pytestmark = [pytest.mark.django_db(transaction=True)]


class _Sink:
    """An SMTP relay that keeps the bytes of every mail it takes."""

    def __init__(self) -> None:
        self.raw: list[bytes] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.lock:
            self.raw.append(bytes(envelope.original_content))
        return "250 OK"


@pytest.fixture
def relay() -> Iterator[tuple[_Sink, int]]:
    sink, port = _Sink(), free_port()
    controller = Controller(sink, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield sink, port
    finally:
        controller.stop()


def _through_relay(rows: list[OutboundMessage], port: int, sink: _Sink) -> list[bytes]:
    before = len(sink.raw)
    with get_connection("django.core.mail.backends.smtp.EmailBackend", host="127.0.0.1", port=port,
                        use_tls=False, use_ssl=False) as connection:
        assert connection.send_messages([sending.build_message(row) for row in rows]) == len(rows)
    return sink.raw[before:]


def _subjects_read(raw: bytes) -> tuple[str, str]:
    """The Subject as a modern parser reads it, and as the legacy API decodes it once unfolded (RFC 5322)."""
    modern = str(email.message_from_bytes(raw, policy=email.policy.default)["Subject"])
    folded = str(email.message_from_bytes(raw)["Subject"])
    legacy = str(make_header(decode_header(folded.replace("\r\n", "").replace("\n", ""))))
    return modern, legacy


def test_a_portuguese_players_uprising_subject_reads_without_a_leading_space(
        ana: Persona, bruno: Persona, relay: tuple[_Sink, int]) -> None:
    sink, port = relay
    send_in(ana, "pt", f"new maracaibo with {bruno.email} mode=79 rounds=2")
    bruno.reply(bruno.latest(), "join")
    rows = list(OutboundMessage.objects.filter(to_email=ana.email).order_by("pk"))
    assert any("Agitação (79): é a sua vez" in row.subject for row in rows), [r.subject for r in rows]
    for row, raw in zip(rows, _through_relay(rows, port, sink), strict=True):
        assert b"Subject: \r\n" not in raw and b"Subject:\r\n" not in raw, raw[:400]
        assert _subjects_read(raw) == (row.subject, row.subject)


@pytest.mark.parametrize("words", [
    "é a sua vez",
    "Agitação, Revolta: é a sua vez, rodada III, ação de navegação",
    "Maracaibo: A Revolta, Agitação (79): é a sua vez, rodada I, Ana jogou; Bruno navegou até Matanzas e lutou",
    "your turn, round II",
    "Maracaibo: The Uprising, Unrest (79): your turn, round IV; Bruno moved, Carla sailed to Matanzas and fought",
    "Maracaibo:AUprisingSubjectWithoutAnySpaceThatIsLongerThanOneLineOfAMailHeaderCanHoldAtAllReally",
])
def test_a_subject_of_any_length_and_language_reads_as_written(words: str, relay: tuple[_Sink, int]) -> None:
    sink, port = relay
    rows = [OutboundMessage(to_email="ana@example.org", subject=f"[pbem #{n}] {words[:n * 9]}", body_text="hi")
            for n in range(1, 13)]
    for row, raw in zip(rows, _through_relay(rows, port, sink), strict=True):
        head = raw.split(b"\r\n\r\n", 1)[0]
        # (an ASCII word longer than a line is not folded: RFC 5322's limit is 998)
        assert all(len(line) <= (78 if " " in words else 998) for line in head.split(b"\r\n")), head
        assert _subjects_read(raw) == (row.subject, row.subject), head
