"""Undo by mail: the single word ``undo`` in a reply to the seat address takes back the last move."""

from __future__ import annotations

import pytest

from pbem.games.models import AuditEntry, Game, InboundMessage, Move
from tests.mail.conftest import Persona, sent_messages, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def hand(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    assert game.state is not None
    return list(game.state["hands"][seat])


def last_row() -> InboundMessage:
    row = InboundMessage.objects.order_by("-id").first()
    assert row is not None
    return row


def test_it_takes_back_a_move_when_the_reply_says_undo(bids_game: Game, ana: Persona, bruno: Persona,
                                                       carla: Persona) -> None:
    before_state = Game.objects.get(pk=bids_game.pk).state
    card = hand(bids_game, 0)[0]
    ana.reply(ana.latest(), f"c{card}")
    assert last_row().status == InboundMessage.Status.APPLIED
    mails = len(sent_messages())
    ana.reply(ana.latest(), "Undo")
    assert last_row().status == InboundMessage.Status.APPLIED
    game = Game.objects.get(pk=bids_game.pk)
    assert game.state == before_state
    assert Move.objects.get(game=game).undone_at is not None
    assert AuditEntry.objects.get(game=game, action="undo").details["via"] == "mail"
    new = sent_messages()[mails:]
    assert sorted(str(m["To"]) for m in new) == sorted([ana.email, bruno.email, carla.email])
    for person in (ana, bruno, carla):
        body = text_of(person.latest())
        told = "You took back your last move" if person is ana else "Ana took back their last move"
        assert told in body
        assert "Ana bids face down" not in body and "You bid" not in body
    assert f"c{card}" in text_of(ana.latest())  # the card is back among her options
    # And she plays again from the mail that told her.
    ana.reply(ana.latest(), f"c{hand(game, 0)[-1]}")
    assert last_row().status == InboundMessage.Status.APPLIED
    assert list(Move.objects.filter(game=game).order_by("number").values_list("number", flat=True)) == [1, 2]


def test_it_rejects_undo_mixed_with_moves(bids_game: Game, ana: Persona) -> None:
    first, second = hand(bids_game, 0)[:2]
    ana.reply(ana.latest(), f"c{first}")
    version = Game.objects.get(pk=bids_game.pk).version
    mails = len(sent_messages())
    ana.reply(ana.latest(), f"undo\nc{second}")
    assert last_row().status == InboundMessage.Status.REJECTED
    assert Game.objects.get(pk=bids_game.pk).version == version
    new = sent_messages()[mails:]
    assert [str(m["To"]) for m in new] == [ana.email]
    body = text_of(new[0])
    assert "mixes undo with other lines" in body and "Nothing was changed" in body


def test_it_refuses_undo_after_another_player_moved(bids_game: Game, ana: Persona, bruno: Persona) -> None:
    ana.reply(ana.latest(), f"c{hand(bids_game, 0)[0]}")
    bruno.reply(bruno.latest(), f"c{hand(bids_game, 1)[0]}")
    version = Game.objects.get(pk=bids_game.pk).version
    mails = len(sent_messages())
    ana.reply(ana.latest(), "undo")
    assert last_row().status == InboundMessage.Status.REJECTED
    assert Game.objects.get(pk=bids_game.pk).version == version
    new = sent_messages()[mails:]
    assert [str(m["To"]) for m in new] == [ana.email]
    assert "Bruno has moved since" in text_of(new[0])
