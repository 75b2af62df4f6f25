"""Sending outbox rows: claim with a conditional update, send, mark; never twice."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.core.mail import EmailMultiAlternatives
from django.db.models import F
from django.utils import timezone

from pbem.games import dispatch
from pbem.games.models import OutboundMessage

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
#: A row claimed longer ago than this is taken to belong to a dead worker.
STUCK_AFTER = timedelta(minutes=10)


def build_message(row: OutboundMessage) -> EmailMultiAlternatives:
    headers = dict(row.headers)
    reply_to = headers.pop("Reply-To", None)
    msg = EmailMultiAlternatives(subject=row.subject, body=row.body_text, to=[row.to_email],
                                 reply_to=[reply_to] if reply_to else None, headers=headers)
    if row.body_html:
        msg.attach_alternative(row.body_html, "text/html")
    return msg


def do_send_outbound(row_id: int) -> bool:
    """Send one row if it is still pending; True when this call sent it."""
    claimed = OutboundMessage.objects.filter(pk=row_id, status=OutboundMessage.Status.PENDING).update(
        status=OutboundMessage.Status.SENDING, claimed_at=timezone.now(), attempts=F("attempts") + 1)
    if not claimed:
        return False
    row = OutboundMessage.objects.get(pk=row_id)
    try:
        build_message(row).send()
    except Exception as exc:  # noqa: BLE001 - any transport failure means: try again later
        failed = row.attempts >= MAX_ATTEMPTS
        OutboundMessage.objects.filter(pk=row_id).update(
            status=OutboundMessage.Status.FAILED if failed else OutboundMessage.Status.PENDING,
            last_error=f"{type(exc).__name__}: {exc}"[:2000])
        log.warning("sending outbound %s failed (attempt %s): %s", row_id, row.attempts, type(exc).__name__)
        raise
    OutboundMessage.objects.filter(pk=row_id).update(status=OutboundMessage.Status.SENT, sent_at=timezone.now())
    return True


def do_requeue_stuck(now: object = None) -> int:
    """Rows claimed by a worker that died go back to pending and are sent again."""
    cutoff = timezone.now() - STUCK_AFTER
    stuck = OutboundMessage.objects.filter(status=OutboundMessage.Status.SENDING, claimed_at__lt=cutoff)
    ids = list(stuck.values_list("pk", flat=True))
    OutboundMessage.objects.filter(pk__in=ids, status=OutboundMessage.Status.SENDING).update(
        status=OutboundMessage.Status.PENDING)
    pending = OutboundMessage.objects.filter(status=OutboundMessage.Status.PENDING).values_list("pk", flat=True)
    for pk in pending:
        dispatch.enqueue("pbem.send_outbound", pk)
    return len(ids)
