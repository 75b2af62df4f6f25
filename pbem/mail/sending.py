"""Sending outbox rows: claim with a conditional update, send, mark; never twice.

``do_send_outbound(row_id)`` is the body of the Celery task ``pbem.send_outbound``
(autoretry with backoff wraps it: it raises on a transport failure after
putting the row back to pending). ``do_requeue_stuck(now)`` is the sweeper the
beat schedule runs: rows left in ``sending`` by a worker that died go back to
pending once, and pending rows whose task was lost or whose backoff has passed
are handed to the queue again. The claim makes every extra task harmless.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
from datetime import datetime, timedelta
from email.mime.image import MIMEImage

from django.conf import settings
from django.core.cache import cache
from django.core.mail import EmailMultiAlternatives
from django.db.models import F, Q
from django.utils import timezone

from pbem.games import dispatch
from pbem.games.models import OutboundMessage

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
#: A row claimed longer ago than this is taken to belong to a dead worker.
STUCK_AFTER = timedelta(minutes=10)
#: A pending row never tried this long after it was written lost its task.
LOST_AFTER = timedelta(minutes=2)
#: Content-ID of the board picture inside a mail.
BOARD_CID = "board"

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def backoff(attempts: int) -> timedelta:
    """Wait before the next try after ``attempts`` failures: 1, 2, 4 ... minutes, at most 2 hours."""
    return timedelta(minutes=min(2 ** max(attempts - 1, 0), 120))


#: A font that Debian and most Linux servers ship; without any font the picture has no labels
#: (the text part of the mail still says everything).
PNG_FONT = "DejaVu Sans"
PNG_MAX_WIDTH = 900


def _png_width(svg: str) -> int | None:
    match = re.search(r'<svg[^>]*\swidth="(\d+)', svg[:400])
    if match is None:
        return None
    return min(int(match.group(1)), PNG_MAX_WIDTH)


def svg_to_png(svg: str) -> bytes:
    """The board as PNG, through the shared cache.

    Why a shared cache: the players of one game often see the same picture (in Maretta
    everything on the board is public), and the render is the dearest step of a send;
    with Redis as the cache every worker profits from the first one's render.
    """
    key = f"pbem:png:{hashlib.sha256(svg.encode()).hexdigest()}"
    png = cache.get(key)
    if isinstance(png, bytes) and png.startswith(PNG_MAGIC):
        return png
    png = _render_png(svg)
    cache.set(key, png, timeout=24 * 3600)
    return png


@functools.lru_cache(maxsize=64)
def _render_png(svg: str) -> bytes:
    """The board as PNG, for mail programs that do not draw SVG. Raises ValueError on a bad SVG."""
    import resvg_py

    # Why these options: resvg maps "sans-serif" to Arial, which few servers have, so the
    # labels vanished; and a mail is read at about 900 px, where a wider board only costs
    # render time (Caravelas' map took 110 ms at full size, 35 ms like this).
    data = resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff", sans_serif_family=PNG_FONT,
                                 font_family=PNG_FONT, width=_png_width(svg),
                                 shape_rendering="optimize_speed")
    png = bytes(data)
    if not png.startswith(PNG_MAGIC):
        raise ValueError("the renderer did not return a PNG")
    return png


def _board_image(row: OutboundMessage) -> MIMEImage | None:
    if not row.svg:
        return None
    try:
        png = svg_to_png(row.svg)
    except Exception as exc:  # noqa: BLE001 - a bad picture must not stop the mail
        log.warning("outbound %s: board picture not rendered (%s)", row.pk, type(exc).__name__)
        return None
    image = MIMEImage(png, "png")
    image.add_header("Content-ID", f"<{BOARD_CID}>")
    name = f"board-{row.game_id}.png" if row.game_id else "board.png"
    image.add_header("Content-Disposition", "inline", filename=name)
    return image


def build_message(row: OutboundMessage) -> EmailMultiAlternatives:
    headers = dict(row.headers)
    reply_to = headers.pop("Reply-To", None)
    headers.setdefault("Auto-Submitted", "auto-generated")
    from_email = f"pbem <{settings.PBEM_FROM_EMAIL}>"
    msg = EmailMultiAlternatives(subject=row.subject, body=row.body_text, from_email=from_email,
                                 to=[row.to_email], reply_to=[reply_to] if reply_to else None, headers=headers)
    if row.body_html:
        msg.attach_alternative(row.body_html, "text/html")
    image = _board_image(row)
    if image is not None:
        msg.attach(image)
    return msg


def do_send_outbound(row_id: int) -> bool:
    """Send one row if it is still pending; True when this call sent it.

    False: another worker holds it, or it was sent or given up already.
    Raises on a transport failure (the row is pending again, for the retry).
    """
    claimed = OutboundMessage.objects.filter(pk=row_id, status=OutboundMessage.Status.PENDING).update(
        status=OutboundMessage.Status.SENDING, claimed_at=timezone.now(), attempts=F("attempts") + 1)
    if not claimed:
        return False
    row = OutboundMessage.objects.get(pk=row_id)
    try:
        build_message(row).send()
    except Exception as exc:
        failed = row.attempts >= MAX_ATTEMPTS
        OutboundMessage.objects.filter(pk=row_id, status=OutboundMessage.Status.SENDING).update(
            status=OutboundMessage.Status.FAILED if failed else OutboundMessage.Status.PENDING,
            last_error=f"{type(exc).__name__}: {exc}"[:2000])
        log.warning("sending outbound %s failed (attempt %s): %s", row_id, row.attempts, type(exc).__name__)
        raise
    OutboundMessage.objects.filter(pk=row_id, status=OutboundMessage.Status.SENDING).update(
        status=OutboundMessage.Status.SENT, sent_at=timezone.now())
    return True


def do_requeue_stuck(now: datetime | None = None) -> int:
    """The outbox sweeper. Returns how many rows stuck in ``sending`` went back to pending.

    Each stuck row is reset by one conditional update, so two sweepers running
    at once reset it once, and the claim in :func:`do_send_outbound` lets only
    one of the resulting tasks send it.
    """
    now = now or timezone.now()
    stuck_ids = list(OutboundMessage.objects.filter(
        status=OutboundMessage.Status.SENDING, claimed_at__lt=now - STUCK_AFTER).values_list("pk", flat=True))
    reset = 0
    for pk in stuck_ids:
        reset += OutboundMessage.objects.filter(
            pk=pk, status=OutboundMessage.Status.SENDING, claimed_at__lt=now - STUCK_AFTER,
        ).update(status=OutboundMessage.Status.PENDING)
    if reset:
        log.warning("outbox sweeper: %s row(s) stuck in sending went back to pending", reset)
    due = OutboundMessage.objects.filter(status=OutboundMessage.Status.PENDING).filter(
        Q(attempts=0, created_at__lt=now - LOST_AFTER) | Q(attempts__gt=0) | Q(pk__in=stuck_ids))
    for pk, attempts, claimed_at in due.values_list("pk", "attempts", "claimed_at"):
        if attempts and pk not in stuck_ids and claimed_at is not None and claimed_at > now - backoff(attempts):
            continue  # still backing off
        dispatch.enqueue("pbem.send_outbound", pk)
    return reset
