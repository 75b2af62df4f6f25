"""Mail bodies are kept as long as retry and audit need them, then pruned by the beat schedule;
the board picture is stored once (issue 12: the outbox was 97-99 % of the storage)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from pbem.games.models import Game, InboundMessage, OutboundMessage
from pbem.mail import retention, sending
from tests.mail.conftest import Persona, html_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_stores_an_update_mail_once_as_its_content_and_composes_the_rest(bids_game: Game, ana: Persona) -> None:
    """Not stored twice: an update mail's row keeps its view and lines (``content``) only; the
    text, HTML and picture sent are composed from it, the same each time it is built."""
    row = OutboundMessage.objects.filter(to_email=ana.email).latest("pk")
    assert row.content is not None and row.content["picture"]
    assert (row.body_text, row.body_html, row.svg) == ("", "", "")
    made = sending.bodies(row)
    assert made.svg.startswith("<svg") and "It is your turn" in made.text and "<table" in made.html
    assert sending.bodies(OutboundMessage.objects.get(pk=row.pk)) == made  # a resend builds the same mail
    sent = ana.latest()  # what the relay received
    plain = sent.get_body(preferencelist=("plain",))
    assert plain is not None
    assert _lines(str(plain.get_content())) == _lines(made.text)
    assert _lines(html_of(sent)) == _lines(made.html)
    assert OutboundMessage.BOARD_SLOT not in html_of(sent)
    assert any(part.get_content_type() == "image/png" for part in sent.walk())


def _lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.replace("\r\n", "\n").strip().split("\n")]


def test_it_prunes_only_sent_bodies_older_than_the_retention(bids_game: Game, ana: Persona,
                                                             bruno: Persona) -> None:
    now = timezone.now()
    old = now - retention.keep_for() - timedelta(hours=1)
    sent_old, sent_new, failed_old = OutboundMessage.objects.filter(game=bids_game).order_by("pk")[:3]
    OutboundMessage.objects.filter(pk=sent_old.pk).update(status="sent", sent_at=old)
    OutboundMessage.objects.filter(pk=sent_new.pk).update(status="sent", sent_at=now - timedelta(hours=1))
    OutboundMessage.objects.filter(pk=failed_old.pk).update(status="failed", sent_at=None, created_at=old)
    inbound_done = InboundMessage.objects.create(message_id="<done@x>", raw=b"raw mail", mail_from="a@x",
                                                 rcpt_to="b@x", status="applied", processed_at=old)
    inbound_waiting = InboundMessage.objects.create(message_id="<wait@x>", raw=b"raw mail", mail_from="a@x",
                                                    rcpt_to="b@x", status="received")

    assert retention.do_prune_mail_bodies(now) >= 2
    pruned = OutboundMessage.objects.get(pk=sent_old.pk)
    assert (pruned.body_text, pruned.body_html, pruned.svg, pruned.content) == ("", "", "", None)
    assert pruned.pruned_at is not None
    # The record of what was sent stays: to whom, subject, its Message-ID, when; the other headers
    # (threading, the seat's secret Reply-To) go with the body (issue 28)
    assert pruned.to_email == sent_old.to_email and pruned.subject == sent_old.subject
    assert len(sent_old.headers) > 1 and pruned.headers == {"Message-ID": sent_old.headers["Message-ID"]}
    assert OutboundMessage.objects.get(pk=sent_new.pk).headers == sent_new.headers
    kept = OutboundMessage.objects.get(pk=sent_new.pk)
    assert (kept.body_text, kept.content) == (sent_new.body_text, sent_new.content) != ("", None)
    kept = OutboundMessage.objects.get(pk=failed_old.pk)  # may still be resent
    assert (kept.body_text, kept.content) == (failed_old.body_text, failed_old.content) != ("", None)
    assert bytes(InboundMessage.objects.get(pk=inbound_done.pk).raw) == b""
    assert bytes(InboundMessage.objects.get(pk=inbound_waiting.pk).raw) == b"raw mail"
    # Twice is harmless, and a pruned row builds no mail body by accident: it is never sent again.
    assert retention.do_prune_mail_bodies(now) == 0
    assert not sending.do_send_outbound(pruned.pk)
