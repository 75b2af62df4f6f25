"""What the SMTP ingress does for a mail, made cheaper in issue 28's ingress session, over a real SMTP
socket, PostgreSQL and a real Redis broker: the task's message is the one Celery's ``send_task`` sends,
no queued mark is written (the sweeper reads the row's receipt instead), and the Message-ID a mail is
stored under is the one the header parser gives, whether or not the parser is asked."""

from __future__ import annotations

import base64
import json
import smtplib
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
import redis
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.games import dispatch
from pbem.games.models import InboundMessage
from pbem.mail import parsing
from pbem.mail import services as mail_services
from tests.mail.conftest import Persona, SmtpServer

HOSTILE = Path(__file__).parent / "hostile"


@pytest.fixture
def broker(redis_url: str, settings: Any) -> Iterator[redis.Redis]:
    """The Celery broker is this test's own Redis database; tasks wait there, no worker takes them."""
    settings.CELERY_BROKER_URL = redis_url
    settings.PBEM_TASKS_IN_PROCESS = False
    dispatch._drop_producer()
    dispatch._client = None  # the bare client is made for the broker URL of its first use
    client = redis.Redis.from_url(redis_url)
    yield client
    dispatch._drop_producer()
    dispatch._client = None
    client.close()


def _messages(broker: redis.Redis, queue: str = "celery") -> list[dict[str, Any]]:
    """The queue's task messages, oldest first, each body decoded."""
    found = []
    for raw in reversed(broker.lrange(queue, 0, -1)):
        message = json.loads(raw)
        message["body"] = json.loads(base64.b64decode(message["body"]))
        found.append(message)
    return found


def _without_ids(message: dict[str, Any]) -> dict[str, Any]:
    """The message with what differs from one publish to the next (the task's id and its copies, the
    delivery tag) and from one thread to another (``reply_to``: the publishing thread's id) taken out."""
    headers = {k: v for k, v in message["headers"].items() if k not in ("id", "root_id")}
    properties = {k: v for k, v in message["properties"].items()
                  if k not in ("correlation_id", "delivery_tag", "reply_to")}
    return {**message, "headers": headers, "properties": properties}


@pytest.mark.django_db(transaction=True)
@pytest.mark.redis
def test_the_ingress_hands_a_mail_on_as_send_task_would_and_the_sweeper_goes_by_its_receipt(
        broker: redis.Redis, ana: Persona, smtp_server: SmtpServer) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = ana.email, "pbem@pbem.localhost", "help"
    msg["Message-ID"] = "<ingress-cost-1@example.org>"
    msg.set_content("help")
    with smtplib.SMTP(smtp_server.host, smtp_server.port) as smtp:
        smtp.ehlo()
        smtp.mail(ana.email)
        assert smtp.rcpt("pbem@pbem.localhost")[0] == 250
        code, answer = smtp.data(msg.as_bytes())
    row = InboundMessage.objects.get(message_id="<ingress-cost-1@example.org>")
    assert code == 250 and answer.decode().endswith(f"as {row.pk}")
    [ours] = _messages(broker)
    assert ours["headers"]["task"] == "pbem.process_inbound" and ours["body"][0] == [row.pk]
    assert ours["headers"]["root_id"] == ours["headers"]["id"] == ours["properties"]["correlation_id"]

    # The message Celery's own send_task sends for the same task (what the ingress sent until now).
    client = dispatch._celery_client()
    client.send_task("pbem.process_inbound", args=[row.pk], queue="celery", argsrepr=repr([row.pk]),
                     kwargsrepr="{}")
    celerys = _messages(broker)[1]
    assert _without_ids(ours) == _without_ids(celerys)
    broker.rpop("celery")  # (Celery's copy: the queue holds the ingress's task alone again)

    # No queued mark: the row's receipt tells the sweeper its task was handed on.
    assert not dispatch.recently_queued("pbem.process_inbound", row.pk)
    lost_after = mail_services.INBOUND_LOST_AFTER
    assert lost_after.total_seconds() == dispatch.QUEUED_MARK_SECONDS
    received = InboundMessage.objects.get(pk=row.pk).received_at
    broker.rpop("celery")  # a worker took the task and died with it: it is not in the queue
    soon = received + mail_services.INBOUND_LOST_AFTER - timedelta(seconds=1)
    assert mail_services.do_requeue_inbound(soon) == 0, "within the mark's lifetime it counts as handed on"
    later = received + mail_services.INBOUND_LOST_AFTER + timedelta(seconds=1)
    assert mail_services.do_requeue_inbound(later) == 1, "then its mail is handed on again"
    assert [m["body"][0] for m in _messages(broker)] == [[row.pk]]
    # The sweeper's own hand-on is marked: the next sweep leaves it alone though it waits in no queue.
    assert dispatch.recently_queued("pbem.process_inbound", row.pk)
    broker.rpop("celery")
    assert mail_services.do_requeue_inbound(later) == 0


def _as_parsed(raw: bytes) -> str:
    return parsing.message_id_of(parsing.parse_headers(raw), raw)


def test_a_plain_mail_is_stored_under_its_message_id_without_parsing_its_headers(
        monkeypatch: pytest.MonkeyPatch) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "ana@example.com", "pbem@pbem.localhost", "move"
    msg["Message-ID"] = "<CAB+x_y=z.1@mail.example.com>"
    msg.set_content("a1")
    raw = msg.as_bytes()
    assert parsing.stored_message_id(raw) == _as_parsed(raw) == "<CAB+x_y=z.1@mail.example.com>"
    assert parsing.stored_message_id(raw.replace(b"\n", b"\r\n")) == "<CAB+x_y=z.1@mail.example.com>"

    def parsed(raw: bytes) -> None:
        raise AssertionError("the header parser was asked")

    monkeypatch.setattr(parsing, "parse_headers", parsed)
    assert parsing.stored_message_id(raw) == "<CAB+x_y=z.1@mail.example.com>"


@pytest.mark.parametrize("raw", [
    b"Message-ID: <a@b>\r\n (a comment)\r\n\r\nx",  # folded
    b"Message-ID: <a@b> (a comment)\r\n\r\nx",
    b"Message-ID: <a@b>\r\nMessage-ID: <c@d>\r\n\r\nx",  # two: the first is the parser's
    b"Message-ID: <=?utf-8?q?a?=@b>\r\n\r\nx",
    b"Message-ID: <\xc3\xa9@b>\r\n\r\nx",
    b"Message-ID: <@b>\r\n\r\nx",  # not a msg-id: a synthetic one
    b"Message-ID: <a@b>\rX: y\r\n\r\nx",
    b"From someone Mon Dec 7\nMessage-ID: <a@b>\n\nx",
    b"X: y\nnot a header\nMessage-ID: <a@b>\n\nx",  # the parser's body starts at the second line
    b" folded-first: y\nMessage-ID: <a@b>\n\nx",
    b"Message-ID: <" + b"a" * 300 + b"@b>\n\nx",
    b"Subject: no id\n\nx",
])
def test_any_other_header_block_is_read_by_the_parser(raw: bytes) -> None:
    assert parsing.stored_message_id(raw) == _as_parsed(raw)


def test_the_hostile_mails_are_stored_under_the_parsers_message_id() -> None:
    mails = sorted(p for p in HOSTILE.rglob("*") if p.is_file())
    assert mails
    for path in mails:
        raw = path.read_bytes()
        assert parsing.stored_message_id(raw) == _as_parsed(raw), path.name


_PIECES = st.sampled_from([b"<", b">", b"@", b"a", b"B", b".", b"=", b"?", b"(", b")", b" ", b"\t", b"\r\n", b"\n",
                           b"\r", b'"', b"\\", b"[", b"]", b",", b";", b":", b"\xc3\xa9", b"=?utf-8?q?x?=", b"-",
                           b"Message-ID: ", b"From ", b"\n ", b"X-A: b\n", b"\x00", b"+", b"_", b"/"])


@settings(max_examples=400, deadline=None)
@given(before=st.sampled_from([b"", b"From: a@b\r\n", b"Subject: x\n", b"X: y\r\n\tz\r\n", b"From a b\n"]),
       name=st.sampled_from([b"Message-ID:", b"Message-Id: ", b"message-id:\t", b"MESSAGE-ID:  ", b"Message-ID :"]),
       value=st.lists(_PIECES, max_size=12).map(b"".join),
       wrapped=st.booleans(),
       after=st.sampled_from([b"\r\n\r\nbody", b"\n\nbody", b"\r\nTo: c\r\n\r\nx", b"", b"\n \tfold\n\nx",
                              b"\r\nMessage-ID: <z@y>\r\n\r\n"]))
def test_any_header_block_is_stored_under_the_parsers_message_id(before: bytes, name: bytes, value: bytes,
                                                                 wrapped: bool, after: bytes) -> None:
    raw = before + name + (b"<" + value + b"@ex.org>" if wrapped else value) + after
    assert parsing.stored_message_id(raw) == _as_parsed(raw)
