"""Replies as mail programs write them, over the real SMTP socket: join, moves, sign-offs, names, modes.

The reply bodies come from tests/mail/clients.py (Thunderbird, Outlook, Gmail, Apple Mail,
mutt, K-9, a Portuguese webmail; top-posted, bottom-posted and interleaved), each built
around the very mail the server sent.
"""

from __future__ import annotations

import pytest

from pbem.games.models import Game, InboundMessage, Move, Seat
from tests.mail import clients
from tests.mail.conftest import Persona, sent_messages, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def hand(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    assert game.state is not None
    return list(game.state["hands"][seat])


def last_row() -> InboundMessage:
    row = InboundMessage.objects.order_by("-pk").first()
    assert row is not None
    return row


@pytest.mark.parametrize("style", sorted(clients.STYLES))
def test_it_applies_a_move_however_the_mail_program_wrote_the_reply(style: str, bids_game: Game,
                                                                     bruno: Persona) -> None:
    card = hand(bids_game, 1)[0]
    bruno.reply(bruno.latest(), f"c{card}", style=style)
    assert last_row().status == InboundMessage.Status.APPLIED, last_row().result
    assert list(Move.objects.filter(game=bids_game).values_list("seat", "move")) == [(1, {"code": f"c{card}"})]


@pytest.mark.parametrize("style", clients.BOTTOM_POSTED)
def test_it_takes_a_bottom_posted_join(style: str, blindbids: str, ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    game = Game.objects.get()
    bruno.reply(bruno.latest(), "join", style=style)
    assert Seat.objects.get(game=game, player__email=bruno.email).status == Seat.Status.JOINED
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert "Reply with the word join" not in "".join(text_of(m) for m in bruno.inbox())


def test_it_still_refuses_a_bottom_posted_reply_that_holds_only_the_quote(bids_game: Game, bruno: Persona) -> None:
    before = len(sent_messages())
    bruno.reply(bruno.latest(), "", style="thunderbird_bottom")
    assert last_row().status == InboundMessage.Status.REJECTED
    assert not Move.objects.filter(game=bids_game).exists()
    assert "I found no command" in text_of(sent_messages()[before])
