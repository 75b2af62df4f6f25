"""Bounces, as Mailman handles them: each one marks its address with a score that decays; past
a threshold mail to the address stops, its player's seats are treated as absent at their
deadlines (the game's no-move policy, without a reminder that cannot arrive) and the games'
moderators are told; the player turns mail on again from their page.

Where bounces come from: delivery status notifications (RFC 3464, pbem.mail.dsn) mailed to a
message's own return path (VERP: ``bounces+<row>-<signature>@domain``, which says which mail
bounced) or to any of our addresses, and the bounce and complaint events of a mail provider
(pbem.mail.providers).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from email.message import Message

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from pbem.games import moderation
from pbem.games.models import AuditEntry, Game, MailAddress, OutboundMessage, Player, Seat
from pbem.mail import dsn, outbox

log = logging.getLogger(__name__)

#: What one bounce adds to its address's score (Mailman: 1.0 hard, 0.5 soft).
SCORE = {dsn.HARD: 1.0, dsn.SOFT: 0.5}
#: Mail to the address stops when its score reaches this: three hard bounces an hour or more apart
#: within days, or six soft ones.
THRESHOLD = 2.5
#: The score halves in this time without bounces (Mailman forgets a bounce after 7 days).
SCORE_HALF_LIFE = timedelta(days=7)
#: At most one bounce counts in this time (a move's several mails bounce together); a hard one
#: counts after soft ones.
COUNT_EVERY = timedelta(hours=1)
#: A bounce that names no return path counts only for an address we mailed within this time.
MAILED_WITHIN = timedelta(days=14)


def is_mail_off(email: str) -> bool:
    return MailAddress.objects.filter(email=email.strip().lower(), disabled_at__isnull=False).exists()


def decayed(score: float, since: datetime | None, now: datetime) -> float:
    if since is None or score <= 0:
        return 0.0
    age = max((now - since).total_seconds(), 0.0)
    return float(score * 0.5 ** (age / SCORE_HALF_LIFE.total_seconds()))


def do_record_bounce(email: str, kind: str, detail: str, now: datetime | None = None) -> MailAddress:
    """Count one bounce (``dsn.HARD`` or ``dsn.SOFT``) against ``email``; stop its mail at the threshold."""
    now = now or timezone.now()
    with transaction.atomic():
        row = MailAddress.objects.select_for_update().get(pk=MailAddress.row(email).pk)
        recent = row.bounce_at is not None and now - row.bounce_at < COUNT_EVERY
        if recent and not (kind == dsn.HARD and row.bounce_kind == dsn.SOFT):
            row.bounce_detail = detail[:200]
            row.save(update_fields=["bounce_detail"])
            return row
        row.bounce_score = decayed(row.bounce_score, row.bounce_at, now) + SCORE.get(kind, SCORE[dsn.SOFT])
        row.bounce_at, row.bounce_kind, row.bounce_detail = now, kind, detail[:200]
        row.save(update_fields=["bounce_score", "bounce_at", "bounce_kind", "bounce_detail"])
        log.info("bounce (%s) counted: score %.2f", kind, row.bounce_score)
        if row.disabled_at is None and row.bounce_score >= THRESHOLD:
            _stop_mail(row, now)
    return row


def _stop_mail(row: MailAddress, now: datetime) -> None:
    row.disabled_at = now
    row.save(update_fields=["disabled_at"])
    player = Player.objects.filter(email=row.email).first()
    log.warning("mail stopped for an address after bounces (score %.2f)", row.bounce_score)
    if player is None:
        return
    seats = Seat.objects.filter(player=player, game__status__in=[Game.Status.RUNNING, Game.Status.OPEN]) \
        .select_related("game")
    for seat in seats:
        game = seat.game
        name = player.display_name
        AuditEntry.objects.create(game=game, actor=None, action="mail-bounced",
                                  details={"seat": seat.index, "score": round(row.bounce_score, 2),
                                           "detail": row.bounce_detail})
        outbox.queue_to_moderators(game, moderation.moderator_emails(), lambda: gettext(
            "Mail to %(name)s in game #%(pk)s (%(title)s) bounces (%(kind)s: %(detail)s), so pbem stopped mailing "
            "them. Until they turn mail on again from their page, their seat is treated as absent: at its deadline "
            "the game's no-move policy applies without a reminder. You may replace the player, move for the seat "
            "or pause the game from its moderator page.") % {
            "name": name, "pk": game.pk, "title": game.said_title, "kind": row.bounce_kind,  # noqa: B023
            "detail": row.bounce_detail})


def do_enable_mail(player: Player) -> bool:
    """The player turns mail on again (from their page): score and stop cleared. Whether it was off."""
    with transaction.atomic():
        changed = MailAddress.objects.filter(email=player.email.lower(), disabled_at__isnull=False).update(
            disabled_at=None, bounce_score=0.0, bounce_kind="", bounce_detail="")
        MailAddress.objects.filter(email=player.email.lower()).update(bounce_score=0.0)
        if changed:
            for seat in Seat.objects.filter(player=player, game__status=Game.Status.RUNNING).select_related("game"):
                AuditEntry.objects.create(game=seat.game, actor=player, action="mail-on", details={"seat": seat.index})
    return bool(changed)


def mail_state(player: Player | None) -> MailAddress | None:
    """The player's address row when mail to it is off (for their page), else None."""
    if player is None:
        return None
    return MailAddress.objects.filter(email=player.email.lower(), disabled_at__isnull=False).first()


# ---- bounce mail --------------------------------------------------------------------------------


def verp_row(address: str) -> int | None:
    return dsn.row_of_return_path(address, local=settings.PBEM_BOUNCE_LOCAL, domain=settings.PBEM_MAIL_DOMAIN,
                                  secret=settings.SECRET_KEY)


def return_path_for(row_id: int) -> str:
    return dsn.return_path(row_id, local=settings.PBEM_BOUNCE_LOCAL, domain=settings.PBEM_MAIL_DOMAIN,
                           secret=settings.SECRET_KEY)


def do_process_bounce(msg: Message, verp_row_id: int | None, auto_reason: str | None,
                      now: datetime | None = None) -> str:
    """A bounce mail: what it counted, as the inbound row's result.

    To a return path (VERP), the row says whose mail bounced; a DSN's own recipients count too
    when we mailed them lately. A mail to a return path that is no DSN (an old MTA's plain text
    bounce) counts soft for the row's address."""
    now = now or timezone.now()
    counted: list[str] = []
    row_address = ""
    if verp_row_id is not None:
        row_address = (OutboundMessage.objects.filter(pk=verp_row_id).values_list("to_email", flat=True).first()
                       or "").lower()
    reports = dsn.bounces_of(msg)
    if reports:
        for b in reports:
            address = b.address
            if row_address and address != row_address and len(reports) == 1:
                address = row_address  # the return path is surer than a rewritten recipient
            elif not row_address and not OutboundMessage.objects.filter(
                    to_email__iexact=address, created_at__gte=now - MAILED_WITHIN).exists():
                continue  # not an address we mailed: a stray or forged report
            do_record_bounce(address, b.kind, f"{b.status} {b.detail}".strip(), now)
            counted.append(f"{b.kind} {b.status or ''}".strip())
    elif row_address:
        if dsn.is_dsn(msg):
            return "bounce: a delivery report of no failure (delayed or delivered)"
        if not (auto_reason or "").startswith("bounce"):
            return "to a return path: no bounce (an automatic reply?), nothing counted"
        do_record_bounce(row_address, dsn.SOFT, "a bounce that is no delivery report", now)
        counted.append("soft (no delivery report)")
    if not counted:
        return "bounce: nothing counted"
    if verp_row_id is not None:
        # The mail that bounced says so (the admin's Outbound messages), its status stays "sent".
        OutboundMessage.objects.filter(pk=verp_row_id).update(last_error=f"bounced: {', '.join(counted)}"[:2000])
    return "bounce counted: " + ", ".join(counted)
