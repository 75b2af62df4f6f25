"""Mail test fixtures: personas with their own mailboxes, a real SMTP server, a tiny game.

Everything here is real: mail goes over a TCP socket to the aiosmtpd
controller on 127.0.0.1, is stored in the database, judged by the service in
process (``PBEM_TASKS_IN_PROCESS``), and the answers are the messages Django
actually sent (the locmem backend keeps their bytes). A persona reads only
the mails addressed to it.
"""

from __future__ import annotations

import email
import email.policy
import smtplib
import weakref
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

import pytest
from django.core import mail as django_mail

import engine.registry
from pbem.games import campaigns
from pbem.games import services as game_services
from pbem.games.models import Game, Player, Seat
from pbem.mail.smtp import free_port, make_controller
from tests import fakegame
from tests.mail import clients

DOMAIN = "pbem.localhost"


@pytest.fixture(autouse=True)
def _mail_settings(settings: Any) -> None:
    settings.PBEM_TASKS_IN_PROCESS = True
    settings.PBEM_MAIL_DOMAIN = DOMAIN
    settings.PBEM_FROM_EMAIL = f"pbem@{DOMAIN}"
    settings.PBEM_PUBLIC_URL = "http://pbem.test"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture
def blindbids(monkeypatch: pytest.MonkeyPatch) -> str:
    """The test-only hidden-information game (tests/fakegame.py), registered for one test."""
    monkeypatch.setitem(engine.registry._MODULES, "blindbids", "tests.fakegame")
    monkeypatch.setitem(engine.registry._loaded, "blindbids", fakegame.RULES)
    return "blindbids"


_parsed: weakref.WeakKeyDictionary[object, EmailMessage] = weakref.WeakKeyDictionary()


def sent_messages() -> list[EmailMessage]:
    """Every mail the server sent so far, parsed from the bytes that went out (each parsed once)."""
    return [_parsed_message(m) for m in getattr(django_mail, "outbox", [])]


def _parsed_message(m: Any) -> EmailMessage:
    parsed = _parsed.get(m)
    if parsed is None:
        parsed = email.message_from_bytes(m.message().as_bytes(), policy=email.policy.default)
        _parsed[m] = parsed
    return parsed


#: id(message) -> (its To header, its text part). Why: a simulated player rereads its whole
#: mailbox before every reply, and the email package parses headers anew on each access,
#: which made a long game by mail quadratic in the test harness, not in the server.
#: The message itself is kept in the entry so that its id cannot be reused by another one.
_facts: dict[int, tuple[EmailMessage, str, str | None]] = {}


def _fact(msg: EmailMessage) -> tuple[EmailMessage, str, str | None]:
    got = _facts.get(id(msg))
    if got is None or got[0] is not msg:
        part = msg.get_body(preferencelist=("plain",))
        got = (msg, str(msg.get("To", "")), None if part is None else str(part.get_content()))
        _facts[id(msg)] = got
    return got


def text_of(msg: EmailMessage) -> str:
    text = _fact(msg)[2]
    assert text is not None, "no text/plain part"
    return text


def html_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("html",))
    assert part is not None, "no text/html part"
    return str(part.get_content())


@dataclass
class SmtpServer:
    host: str
    port: int

    def send(self, mail_from: str, rcpt_tos: list[str], raw: bytes) -> dict[str, tuple[int, bytes]]:
        with smtplib.SMTP(self.host, self.port, timeout=30) as client:
            return client.sendmail(mail_from, rcpt_tos, raw)

    def session(self) -> smtplib.SMTP:
        return smtplib.SMTP(self.host, self.port, timeout=30)


@pytest.fixture
def smtp_server() -> Iterator[SmtpServer]:
    """The real ingress: aiosmtpd on a free port of 127.0.0.1, our handler behind it."""
    port = free_port()
    controller = make_controller("127.0.0.1", port)
    controller.start()
    try:
        yield SmtpServer("127.0.0.1", port)
    finally:
        controller.stop()


@dataclass
class Persona:
    """Someone with a mail address who reads only their own mail."""

    email: str
    name: str
    server: SmtpServer | None = None
    replied: set[str] = field(default_factory=set)
    #: (recipient, Message-ID) of every mail this person sent, in order
    sent: list[tuple[str, str]] = field(default_factory=list)

    #: the outbox this person last read, how many of its mails (the last of them), and theirs among them.
    #: Why: a simulated player rereads the mailbox before every reply, and the outbox only grows during a
    #: test, so each read looks at the mails sent since the last one (not at every mail again: a long game
    #: by mail spent a quarter of its time rereading). Another outbox, or one shorter or changed at the
    #: mail last read, is read from its start.
    _read: tuple[object, int, object, list[EmailMessage]] | None = field(default=None, repr=False, compare=False)

    @property
    def player(self) -> Player:
        return Player.objects.get(email=self.email)

    def inbox(self) -> list[EmailMessage]:
        outbox = getattr(django_mail, "outbox", [])
        read = self._read
        if read is None or read[0] is not outbox or len(outbox) < read[1] or (
                read[1] and outbox[read[1] - 1] is not read[2]):
            read = (outbox, 0, None, [])
        box = read[3]
        box += [m for m in map(_parsed_message, outbox[read[1]:]) if self.email in _fact(m)[1]]
        self._read = (outbox, len(outbox), outbox[-1] if outbox else None, box)
        return list(box)

    def latest(self) -> EmailMessage:
        box = self.inbox()
        assert box, f"{self.name} got no mail"
        return box[-1]

    def compose(self, to: str, body: str, *, subject: str = "moves", in_reply_to: str = "",
                references: str = "", html: str | None = None, sender: str | None = None,
                headers: dict[str, str] | None = None, message_id: str | None = None) -> bytes:
        msg = EmailMessage(policy=email.policy.SMTP)
        msg["From"] = f"{self.name} <{sender or self.email}>"
        msg["To"] = to
        msg["Subject"] = subject
        msg["Message-ID"] = message_id or make_msgid(domain="client.example")
        if in_reply_to:
            msg["In-Reply-To"] = in_reply_to
            msg["References"] = references or in_reply_to
        for k, v in (headers or {}).items():
            msg[k] = v
        if html is not None and body == "":
            msg.set_content(html, subtype="html")
        else:
            msg.set_content(body)
            if html is not None:
                msg.add_alternative(html, subtype="html")
        return msg.as_bytes()

    def reply_raw(self, to_msg: EmailMessage, text: str, *, quote: bool = True, style: str | None = None,
                  **kw: Any) -> bytes:
        """A reply as a mail program writes it: our text on top, the original quoted below.

        ``style`` names a mail program's shape instead (tests/mail/clients.py: bottom-posted,
        interleaved, Outlook's unquoted copy...).
        """
        original = text_of(to_msg)
        body = text
        if style is not None:
            body = clients.STYLES[style](original, text, self.name)
        elif quote:
            quoted = "\n".join(f"> {line}" if line else ">" for line in original.splitlines())
            body = f"{text}\n\nOn Mon, 1 Jan 2029 at 10:00, pbem <pbem@{DOMAIN}> wrote:\n{quoted}\n"
        refs = " ".join(x for x in [str(to_msg.get("References", "")), str(to_msg["Message-ID"])] if x)
        return self.compose(str(to_msg["Reply-To"]), body, subject=f"Re: {to_msg['Subject']}",
                            in_reply_to=str(to_msg["Message-ID"]), references=refs, **kw)

    def reply(self, to_msg: EmailMessage, text: str, **kw: Any) -> bytes:
        raw = self.reply_raw(to_msg, text, **kw)
        assert self.server is not None
        self.server.send(self.email, [str(to_msg["Reply-To"])], raw)
        self._sent(str(to_msg["Reply-To"]), raw)
        return raw

    def send_to(self, to: str, body: str, **kw: Any) -> bytes:
        raw = self.compose(to, body, **kw)
        assert self.server is not None
        self.server.send(self.email, [to], raw)
        self._sent(to, raw)
        return raw

    def _sent(self, to: str, raw: bytes) -> None:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        self.sent.append((to, str(msg["Message-ID"])))


@pytest.fixture
def ana(smtp_server: SmtpServer) -> Persona:
    return Persona("ana@example.org", "Ana", smtp_server)


@pytest.fixture
def bruno(smtp_server: SmtpServer) -> Persona:
    return Persona("bruno@example.net", "Bruno", smtp_server)


@pytest.fixture
def carla(smtp_server: SmtpServer) -> Persona:
    return Persona("carla@example.com", "Carla", smtp_server)


@pytest.fixture
def mallory(smtp_server: SmtpServer) -> Persona:
    return Persona("mallory@evil.example", "Mallory", smtp_server)


def start_game(rules: str, people: list[Persona], *, options: dict[str, object] | None = None,
               allow_any_sender: bool = False, mail_mode: str | None = None) -> Game:
    """A running game with ``people`` seated in order (seat i = people[i]), started directly.

    ``mail_mode``: everyone's mode (None: the default a new player has)."""
    players = [game_services.do_get_or_create_player(p.email) for p in people]
    for p, pl in zip(people, players):
        game_services.do_update_preferences(pl, display_name=p.name, mail_mode=mail_mode)
    invite = [p.email for p in people[1:]]
    if (options or {}).get("campaign"):  # a campaign's game is made by its campaign (do_create_game refuses it)
        _campaign, game = campaigns.do_create_campaign(players[0], rules, options=options, invite=invite)
    else:
        game = game_services.do_create_game(players[0], rules, options=options or {}, invite=invite,
                                            allow_any_sender=allow_any_sender)
    for pl in players[1:]:
        game_services.do_join_game(game.pk, pl)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    return game


def seat_of(game: Game, person: Persona) -> Seat:
    return Seat.objects.get(game=game, player__email=person.email)


@pytest.fixture
def bids_game(blindbids: str, ana: Persona, bruno: Persona, carla: Persona) -> Game:
    """A running Blind Bids game of Ana, Bruno and Carla (seats 0, 1, 2); the start mails are sent.

    Everyone is in mail mode "all" (a mail after every turn), so each move mails everyone."""
    return start_game(blindbids, [ana, bruno, carla], mail_mode=Player.MailMode.EVERY_MOVE)
