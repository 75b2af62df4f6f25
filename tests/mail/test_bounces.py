"""Bounces as Mailman handles them: a delivery status notification (RFC 3464) to a mail's own
return path (VERP) marks its address with a decaying score; past the threshold mail to it stops,
the seat is treated as absent at its deadline (the no-move policy without a reminder), the
moderator is told, and the player turns mail on again from their page."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core import mail as django_mail
from django.test import Client
from django.utils import timezone

from pbem.games import links, moderation
from pbem.games import services as game_services
from pbem.games.models import AuditEntry, Game, InboundMessage, MailAddress, Move, OutboundMessage
from pbem.mail import bounces, dsn, outbox, sending
from tests.mail.conftest import Persona, SmtpServer, seat_of

pytestmark = pytest.mark.django_db(transaction=True)

#: RFC 3464's example of a failed delivery (appendix "Simple DSN"), addressed to our return path.
DSN = """\
From: Mail Delivery Subsystem <MAILER-DAEMON@mx.example.net>
To: <{to}>
Subject: Returned mail: User unknown
Message-ID: <{mid}@mx.example.net>
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
    boundary="JAA13167.773673707/CS.UTK.EDU"

--JAA13167.773673707/CS.UTK.EDU
content-type: text/plain; charset=us-ascii

   ----- The following addresses had delivery problems -----
<{rcpt}>  (unrecoverable error)
   ----- Transcript of session follows -----
... while talking to mx.example.net:
>>> RCPT To:<{rcpt}>
<<< 550 <{rcpt}>... User unknown

--JAA13167.773673707/CS.UTK.EDU
content-type: message/delivery-status

Reporting-MTA: dns; mx.example.net
Arrival-Date: Wed, 8 Mar 2029 11:09:32 -0500

Original-Recipient: rfc822;{rcpt}
Final-Recipient: rfc822;{rcpt}
Action: {action}
Status: {status}
Diagnostic-Code: smtp; 550 <{rcpt}>... User unknown

--JAA13167.773673707/CS.UTK.EDU
content-type: message/rfc822

From: pbem <pbem@pbem.localhost>
To: {rcpt}
Subject: game mail

Your move.
--JAA13167.773673707/CS.UTK.EDU--
"""


def _bounce(server: SmtpServer, to: str, rcpt: str, n: int, *, action: str = "failed", status: str = "5.1.1") -> None:
    raw = DSN.format(to=to, rcpt=rcpt, mid=f"dsn{n}.{timezone.now().timestamp()}", action=action, status=status)
    server.send("", [to], raw.replace("\n", "\r\n").encode())  # bounces come from the null sender


def _return_path_of_last_mail_to(person: Persona) -> str:
    sent = [m for m in django_mail.outbox if person.email in m.to]
    assert sent, f"nothing sent to {person.email}"
    return sent[-1].from_email


def test_it_sends_each_mail_from_its_own_signed_return_path(bids_game: Game, bruno: Persona) -> None:
    path = _return_path_of_last_mail_to(bruno)
    row_id = bounces.verp_row(path)
    assert row_id is not None and OutboundMessage.objects.get(pk=row_id).to_email == bruno.email
    assert str(bruno.latest()["From"]) == "pbem <pbem@pbem.localhost>"
    forged = path.replace(path.split("-")[-1].split("@")[0], "0123456789")
    assert bounces.verp_row(forged) is None


def test_it_counts_dsns_stops_mail_treats_the_seat_as_absent_and_lets_the_player_turn_it_on(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, smtp_server: SmtpServer,
        settings: Any) -> None:
    settings.PBEM_MODERATOR_EMAILS = ["mod@example.org"]
    path = _return_path_of_last_mail_to(bruno)

    _bounce(smtp_server, path, bruno.email, 1)
    row = InboundMessage.objects.get(rcpt_to=path)
    assert row.status == InboundMessage.Status.IGNORED and row.result == "bounce counted: hard 5.1.1"
    address = MailAddress.objects.get(email=bruno.email)
    assert address.bounce_kind == dsn.HARD and address.bounce_score == pytest.approx(1.0)
    assert "User unknown" in address.bounce_detail and address.disabled_at is None
    bounced = OutboundMessage.objects.get(pk=bounces.verp_row(path))  # the mail that bounced says so
    assert bounced.status == OutboundMessage.Status.SENT and bounced.last_error == "bounced: hard 5.1.1"

    _bounce(smtp_server, path, bruno.email, 2)  # the same hour: the move's other mails bouncing too
    assert MailAddress.objects.get(email=bruno.email).bounce_score == pytest.approx(1.0)
    _bounce(smtp_server, path, bruno.email, 3, action="delayed", status="4.4.7")  # no bounce
    assert MailAddress.objects.get(email=bruno.email).bounce_score == pytest.approx(1.0)

    for n in (4, 5):  # hours apart: each counts, the score decays a little in between
        MailAddress.objects.filter(email=bruno.email).update(bounce_at=timezone.now() - timedelta(hours=2))
        _bounce(smtp_server, path, bruno.email, n)
    address = MailAddress.objects.get(email=bruno.email)
    assert address.bounce_score >= bounces.THRESHOLD and address.disabled_at is not None
    told = OutboundMessage.objects.filter(to_email="mod@example.org").last()
    assert told is not None and "bounces" in told.body_text and f"game #{bids_game.pk}" in told.body_text
    assert AuditEntry.objects.filter(game=bids_game, action="mail-bounced").exists()

    # No more mail to the address: ana and carla move, the game's mails to bruno are not sent.
    for person in (ana, carla):
        seat = seat_of(bids_game, person)
        game = Game.objects.get(pk=bids_game.pk)
        game_services.do_submit_moves(game.pk, seat.player, [game_services.Command(
            text=f"c{game.state['hands'][seat.index][0]}")], source="mail")
    to_bruno = OutboundMessage.objects.filter(to_email=bruno.email, created_at__gte=address.disabled_at)
    assert to_bruno.exists() and all(r.status == "failed" and r.last_error == sending.MAIL_OFF for r in to_bruno)

    # At the deadline his seat is absent: the no-move policy plays for him with no reminder first.
    Game.objects.filter(pk=bids_game.pk).update(deadline_at=timezone.now() - timedelta(minutes=1))
    moved = Move.objects.filter(game=bids_game).count()
    moderation.do_sweep_deadlines(timezone.now())
    game = Game.objects.get(pk=bids_game.pk)
    assert game.reminded_at is None
    assert Move.objects.filter(game=bids_game).count() > moved

    # His page says so; he turns mail on again, and the score starts afresh.
    client = Client()
    url = links.seat_page_url(seat_of(game, bruno)).removeprefix("http://pbem.test")
    page = client.get(url).content.decode()
    assert "We stopped mailing you" in page and "User unknown" in page
    r = client.post(url.rstrip("/") + "/mail-on/")
    assert r.status_code == 302
    address = MailAddress.objects.get(email=bruno.email)
    assert address.disabled_at is None and address.bounce_score == 0
    page = client.get(r["Location"]).content.decode()
    assert "We stopped mailing you" not in page and "Your mail is on again" in page
    assert not bounces.is_mail_off(bruno.email)


def test_it_counts_a_dsn_to_the_general_address_only_for_an_address_we_mailed(
        bids_game: Game, bruno: Persona, smtp_server: SmtpServer) -> None:
    general = outbox.general_address()
    _bounce(smtp_server, general, "stranger@example.com", 1)
    _bounce(smtp_server, general, bruno.email, 2, status="4.2.2")
    assert not MailAddress.objects.filter(email="stranger@example.com").exists()
    address = MailAddress.objects.get(email=bruno.email)
    assert address.bounce_kind == dsn.SOFT and address.bounce_score == pytest.approx(0.5)


def test_it_refuses_mail_to_a_return_path_whose_signature_is_wrong(bids_game: Game, bruno: Persona,
                                                                    smtp_server: SmtpServer) -> None:
    import smtplib

    with pytest.raises(smtplib.SMTPRecipientsRefused):
        _bounce(smtp_server, "bounces+1-0123456789@pbem.localhost", bruno.email, 1)
    assert not MailAddress.objects.exists()
