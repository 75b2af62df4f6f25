"""The LMTP listener (for Postfix in front): LHLO, recipients checked at RCPT, the mail committed
and judged through the same path as SMTP, one answer per accepted recipient after DATA."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from pbem.games.models import Game, InboundMessage
from pbem.mail import outbox
from pbem.mail.smtp import free_port, make_controller
from tests.mail.conftest import Persona, seat_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def lmtp_port() -> Iterator[int]:
    port = free_port()
    controller = make_controller("127.0.0.1", port, lmtp=True)
    controller.start()
    try:
        yield port
    finally:
        controller.stop()


class _Session:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.file = self.sock.makefile("rb")

    def reply(self) -> list[str]:
        lines = []
        while True:
            line = self.file.readline().decode().rstrip("\r\n")
            lines.append(line)
            if len(line) < 4 or line[3] != "-":
                return lines

    def send(self, line: str) -> list[str]:
        self.sock.sendall(line.encode() + b"\r\n")
        return self.reply()


def test_it_takes_mail_over_lmtp_and_answers_each_recipient(bids_game: Game, ana: Persona, bruno: Persona,
                                                            lmtp_port: int) -> None:
    bids_game.refresh_from_db()
    assert bids_game.state is not None
    card = bids_game.state["hands"][seat_of(bids_game, ana).index][0]
    own, other = outbox.reply_address(seat_of(bids_game, ana)), outbox.reply_address(seat_of(bids_game, bruno))
    s = _Session(lmtp_port)
    assert s.reply()[0].startswith("220")
    assert s.send("EHLO postfix.example")[0].startswith("500"), "LMTP greets with LHLO"
    assert s.send("LHLO postfix.example")[-1].startswith("250")
    assert s.send(f"MAIL FROM:<{ana.email}>")[0].startswith("250")
    assert s.send("RCPT TO:<seat-nosuchtoken@pbem.localhost>")[0].startswith("550")
    assert s.send(f"RCPT TO:<{own}>")[0].startswith("250")
    assert s.send(f"RCPT TO:<{other}>")[0].startswith("250")
    assert s.send("DATA")[0].startswith("354")
    body = (f"From: Ana <{ana.email}>\r\nTo: {own}\r\nSubject: Re: moves\r\nMessage-ID: <lmtp-1@client.example>\r\n"
            f"\r\nc{card}\r\n.")
    s.sock.sendall(body.encode() + b"\r\n")
    first, second = s.reply(), s.reply()
    assert first[0].startswith("250 2.0.0 Message accepted") and second == first, (first, second)
    s.send("QUIT")
    s.sock.close()
    row = InboundMessage.objects.get()
    assert row.status == InboundMessage.Status.APPLIED, row.result
    assert Game.objects.get(pk=bids_game.pk).version > bids_game.version
