"""How long mail bodies are kept: as long as retry and audit need them, then pruned.

A sent mail's body is most of what the service stores (33-93 KB a move when text, HTML and
board picture were all stored; an update mail now keeps only its content, the seat's view and
the mail's lines, ~1.6 KB, from which pbem.mail.compose makes the rest when it is sent). The
outbox keeps it while the row may still be sent (pending, sending,
failed: the sweeper and an operator's resend need them) and for ``PBEM_MAIL_BODY_DAYS``
after it was sent, so that a player's "what did your mail say?" can be answered; then the
beat schedule empties it. The row itself stays: to whom, when, subject and its Message-ID
are the audit record, and the game's state and move log can compose the mail again. Its other
headers go with the body (issue 28: the threading headers and the seat's secret Reply-To were
a third of what a pruned row kept; nothing reads them after the hour the answer limit counts).
Inbound mail keeps its raw bytes as long (a bad mail's answer quotes it, a moderator may read it),
then only the Message-ID stays, which is all deduplication needs, with the sender, the game, the
verdict and the times: the recipient addresses go too (each holds a seat's secret token, like the
outbox's Reply-To; a judged mail is never judged again). A move's own record, what replay and
audits read, is the move log, which retention never touches.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.db.models.fields.json import KT
from django.db.models.functions import JSONObject
from django.utils import timezone

from pbem.games.models import InboundMessage, OutboundMessage

log = logging.getLogger(__name__)

#: What a pruned outbox row keeps of its headers: its Message-ID, made in the UPDATE itself.
KEPT_HEADERS = JSONObject(**{"Message-ID": KT("headers__Message-ID")})
#: Rows pruned per statement: keeps each UPDATE's locks and WAL short on a big table.
BATCH = 500


def keep_for() -> timedelta:
    return timedelta(days=float(getattr(settings, "PBEM_MAIL_BODY_DAYS", 7)))


def do_prune_mail_bodies(now: datetime | None = None) -> int:
    """Empty the bodies of mails sent, and the raw bytes of mails judged, before ``now`` minus
    the retention. Returns how many rows were pruned. Safe to run twice at once (each batch
    is a conditional update on rows not pruned yet)."""
    now = now or timezone.now()
    cutoff = now - keep_for()
    pruned = 0
    while True:
        ids = list(
            OutboundMessage.objects.filter(
                status=OutboundMessage.Status.SENT, pruned_at__isnull=True, sent_at__lt=cutoff
            ).values_list("pk", flat=True)[:BATCH]
        )
        if not ids:
            break
        pruned += OutboundMessage.objects.filter(pk__in=ids, pruned_at__isnull=True).update(
            body_text="", body_html="", svg="", content=None, pruned_at=now, headers=KEPT_HEADERS
        )
    while True:
        ids = list(
            InboundMessage.objects.filter(pruned_at__isnull=True, processed_at__lt=cutoff)
            .filter(~Q(status=InboundMessage.Status.RECEIVED))
            .values_list("pk", flat=True)[:BATCH]
        )
        if not ids:
            break
        pruned += InboundMessage.objects.filter(pk__in=ids, pruned_at__isnull=True).update(
            raw=b"", rcpt_to="", pruned_at=now
        )
    if pruned:
        log.info("mail retention: %s bodies pruned", pruned)
    return pruned
