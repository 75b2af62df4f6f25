"""The hourly limit of answers holds back loop-like traffic only, never a seat's own player
writing moves to their own game; where it held answers back, the next answer says so once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from pbem.games.models import Game, InboundMessage, MailAddress, OutboundMessage
from pbem.mail import outbox
from pbem.mail import services as mail_services
from tests.mail.conftest import Persona, seat_of, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def _answers(person: Persona, before: int) -> list[str]:
    return [text_of(m) for m in person.inbox()[before:]]


def test_it_answers_every_refused_turn_a_player_writes_to_their_own_seat(bids_game: Game, ana: Persona) -> None:
    seat = seat_of(bids_game, ana)
    card = bids_game.state["hands"][seat.index][0]
    before = len(ana.inbox())
    n = mail_services.REPLIES_PER_HOUR + 3
    for i in range(n):
        # A whole turn whose second line is refused (she has bid already by then): nothing
        # stands, and she must hear why every time, however often she tries in an hour.
        ana.send_to(outbox.reply_address(seat), f"c{card}\nc{card}\n", subject=f"Re: moves {i}")
    refused = InboundMessage.objects.filter(status=InboundMessage.Status.REJECTED)
    assert refused.count() == n, list(InboundMessage.objects.values_list("result", flat=True))
    answers = _answers(ana, before)
    assert len(answers) == n, f"{len(answers)} answers to {n} refused turns"
    assert all("not accepted" in a for a in answers)
    assert not MailAddress.objects.filter(email=ana.email, answers_held__gt=0).exists()


def test_it_holds_prose_back_after_the_limit_and_says_so_once_when_answers_resume(
        bids_game: Game, ana: Persona) -> None:
    seat = seat_of(bids_game, ana)
    before = len(ana.inbox())
    for i in range(mail_services.REPLIES_PER_HOUR + 2):  # a responder the headers did not give away
        ana.send_to(outbox.reply_address(seat), f"I am away, back on Monday ({i}).", subject="Re: moves")
    assert len(_answers(ana, before)) == mail_services.REPLIES_PER_HOUR
    held = MailAddress.objects.get(email=ana.email)
    assert held.answers_held == 2 and held.held_since is not None

    # An hour later the answers go again: the first says what was held back, once.
    OutboundMessage.objects.filter(to_email=ana.email).update(created_at=timezone.now() - timedelta(hours=2))
    before = len(ana.inbox())
    ana.send_to(outbox.reply_address(seat), "Still away.", subject="Re: moves")
    ana.send_to(outbox.reply_address(seat), "Still away, really.", subject="Re: moves")
    first, second = _answers(ana, before)
    assert "2 earlier mails from you" in first and "got no answer" in first
    assert "earlier mail" not in second
    assert MailAddress.objects.get(email=ana.email).answers_held == 0
