"""Absence and replacement by mail over a real SMTP socket: ``extend``, ``vacation``, ``join``
for a seat offered after missed deadlines, and what each player reads."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings
from django.utils import timezone

from pbem.games import moderation, services
from pbem.games.models import AuditEntry, Game, InboundMessage, Seat
from tests.mail.conftest import Persona, seat_of, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def last_row() -> InboundMessage:
    row = InboundMessage.objects.order_by("-id").first()
    assert row is not None
    return row


def _to_move(game: Game, people: list[Persona]) -> Persona:
    game.refresh_from_db()
    pending = services.rules_for(game).pending(game.state)
    return next(p for p in people if seat_of(game, p).index == pending[0])


def test_it_extends_my_deadline_when_i_reply_extend(bids_game: Game, ana: Persona, bruno: Persona) -> None:
    before = Game.objects.get(pk=bids_game.pk).deadline_at
    ana.reply(ana.latest(), "Extend")
    assert last_row().status == InboundMessage.Status.APPLIED
    game = Game.objects.get(pk=bids_game.pk)
    assert game.deadline_at == before + timedelta(hours=game.extension_hours)
    answer = text_of(ana.latest())
    assert "your deadline is now" in answer and "1 extension left" in answer
    assert "Ana took 48 more hours" in text_of(bruno.latest())
    assert AuditEntry.objects.get(game=game, action="extension").details["via"] == "mail"


def test_it_refuses_extend_mixed_with_a_move(bids_game: Game, ana: Persona) -> None:
    before = Game.objects.get(pk=bids_game.pk)
    card = before.state["hands"][0][0]
    ana.reply(ana.latest(), f"extend\nc{card}")
    assert last_row().status == InboundMessage.Status.REJECTED
    after = Game.objects.get(pk=bids_game.pk)
    assert (after.version, after.deadline_at) == (before.version, before.deadline_at)
    assert "mixes `extend` with other lines" in text_of(ana.latest())


def test_it_sets_a_vacation_from_the_general_address(bids_game: Game, ana: Persona, bruno: Persona,
                                                     carla: Persona) -> None:
    until = (timezone.now() + timedelta(days=6)).date().isoformat()
    before = Game.objects.get(pk=bids_game.pk).deadline_at
    bruno.send_to(settings.PBEM_FROM_EMAIL, f"vacation until {until}")
    assert last_row().status != InboundMessage.Status.REJECTED
    assert "you are on vacation until" in text_of(bruno.latest())
    assert "Bruno is on vacation until" in text_of(ana.latest())
    assert "Bruno is on vacation until" in text_of(carla.latest())
    game = Game.objects.get(pk=bids_game.pk)
    # Ana and Carla are to move too: Bruno's vacation gives them no more time (his own clock
    # waits once the game waits on him alone)
    assert game.deadline_at == before
    bruno.send_to(settings.PBEM_FROM_EMAIL, "vacation off")
    assert "your vacation is over" in text_of(bruno.latest())
    assert "Bruno is back from vacation" in text_of(ana.latest())
    assert services.Player.objects.get(email=bruno.email).vacation_until is None


def test_it_answers_a_vacation_date_it_cannot_read(bids_game: Game, bruno: Persona) -> None:
    bruno.send_to(settings.PBEM_FROM_EMAIL, "vacation until the cows come home")
    answer = text_of(bruno.latest())
    assert "could not read" in answer and "Nothing was changed" in answer
    assert services.Player.objects.get(email=bruno.email).vacation_until is None


def test_it_offers_a_missing_players_seat_and_a_newcomer_takes_it_by_mail(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, mallory: Persona) -> None:
    game = bids_game
    moderation.do_set_game_policy(game.pk, None, {"no_move_policy": "replace"}, "open league")
    # Ana and Carla bid; Bruno never answers.
    for person in (ana, carla):
        game.refresh_from_db()
        person.reply(person.latest(), f"c{game.state['hands'][seat_of(game, person).index][0]}")
    game.refresh_from_db()
    for _ in range(2):
        with time_machine.travel(game.deadline_at + timedelta(minutes=1), tick=False):
            moderation.do_sweep_deadlines()
        game.refresh_from_db()
    assert seat_of(game, bruno).status == Seat.Status.OPEN
    assert f"join {game.pk}" in text_of(ana.latest())
    mallory.send_to(settings.PBEM_FROM_EMAIL, f"join {game.pk}")
    game.refresh_from_db()
    seat = Seat.objects.get(game=game, player__email=mallory.email)
    name = mallory.player.display_name  # created by this mail
    assert seat.status == Seat.Status.JOINED and game.state["players"][seat.index] == name
    welcome = next(text_of(m) for m in reversed(mallory.inbox()) if "Welcome" in text_of(m))
    assert "You took over seat" in text_of(mallory.latest())  # the answer to her command
    assert "you take over Bruno's seat" in welcome and f"You are {name}" in welcome
    assert "Your options" in welcome
    # the newcomer moves by replying to the welcome
    welcome_mail = next(m for m in reversed(mallory.inbox()) if "Welcome" in text_of(m))
    mallory.reply(welcome_mail, f"c{game.state['hands'][seat.index][0]}")
    assert last_row().status == InboundMessage.Status.APPLIED


def test_it_lists_my_options_when_i_move_into_a_paused_game(bids_game: Game, ana: Persona, bruno: Persona) -> None:
    moderation.do_pause_game(bids_game.pk, None, "a dispute")
    assert "paused" in text_of(ana.latest()) and "a dispute" in text_of(ana.latest())
    game = Game.objects.get(pk=bids_game.pk)
    card = game.state["hands"][0][0]
    ana.reply(ana.latest(), f"c{card}")
    assert last_row().status == InboundMessage.Status.REJECTED
    answer = text_of(ana.latest())
    assert "paused" in answer and "Your options when the game resumes" in answer and f"c{card}" in answer
    assert Game.objects.get(pk=bids_game.pk).version == game.version
