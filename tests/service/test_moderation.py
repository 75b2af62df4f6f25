"""Resignation with autoplay, moderation (pause, resume, replace) and the deadline sweep."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

import engine
from pbem.games import moderation, moderation_seats, services
from pbem.games.models import AuditEntry, Game, Move, OutboundMessage, Seat, Source
from pbem.games.services import Command
from tests.factories import mail_text, make_player, player_at, seat_of, start_game


def _bid(game: Game, seat: int) -> Command:
    assert game.state is not None
    return Command(code=f"c{game.state['hands'][seat][0]}")


def test_it_plays_a_resigned_seat_so_the_game_goes_on(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol])
    services.do_resign(game.pk, carol)
    game.refresh_from_db()
    seat = seat_of(game, carol)
    bot_moves = Move.objects.filter(game=game, seat=seat, source=Source.BOT)
    assert bot_moves.count() == 1  # the round waited for everyone, so Carol's bid was made at once
    assert game.seats.get(player=carol).status == Seat.Status.RESIGNED
    assert AuditEntry.objects.filter(game=game, action="resign", actor=carol).exists()
    with pytest.raises(services.Forbidden, match="resigned"):
        services.do_submit_moves(game.pk, carol, [Command(code="c1")], source=Source.API)
    for _ in range(3):
        game.refresh_from_db()
        services.do_submit_moves(game.pk, alice, [_bid(game, seat_of(game, alice))], source=Source.API)
        game.refresh_from_db()
        services.do_submit_moves(game.pk, bob, [_bid(game, seat_of(game, bob))], source=Source.API)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert bot_moves.count() == 3


def test_pause_and_resume_are_audited_and_a_paused_game_takes_no_moves(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    moderation.do_pause_game(game.pk, moderator, "dispute about a card")
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED and game.deadline_at is None
    with pytest.raises(services.Conflict, match="paused"):
        services.do_submit_moves(game.pk, alice, [_bid(game, seat_of(game, alice))], source=Source.API)
    with pytest.raises(services.Conflict):
        moderation.do_pause_game(game.pk, moderator, "twice")
    # a moderator moving for a seat is answered as the moderator, not as a player waiting for a mail (QA, #23)
    with pytest.raises(services.Conflict) as refused:
        moderation.do_move_for_seat(game.pk, moderator, seat_of(game, bob), [_bid(game, seat_of(game, bob))],
                                    "sent by phone")
    said = str(refused.value)
    assert "is paused: resume it first, then move for the seat" in said and "you will get a mail" not in said
    assert not Move.objects.filter(game=game).exists() and not AuditEntry.objects.filter(action="move-for-seat")
    moderation.do_resume_game(game.pk, moderator, "settled")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING and game.deadline_at is not None
    actions = list(AuditEntry.objects.filter(game=game, actor=moderator).values_list("action", "details__reason"))
    assert actions == [("resume", "settled"), ("pause", "dispute about a card")]


def test_replacing_a_player_hands_over_the_seat_with_a_new_token(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    seat = game.seats.get(player=bob)
    old_token = seat.token
    newcomer = make_player("nina@example.org", "Nina")
    moderation.do_replace_player(game.pk, moderator, seat.index, newcomer, "Bob moved abroad")
    seat.refresh_from_db()
    assert seat.player == newcomer and seat.token != old_token
    entry = AuditEntry.objects.get(game=game, action="replace")
    assert entry.details == {"seat": seat.index, "old": bob.email, "new": newcomer.email,
                             "reason": "Bob moved abroad", "old_name": "Bob"}
    assert OutboundMessage.objects.filter(game=game, to_email=newcomer.email).exists()
    services.do_submit_moves(game.pk, newcomer, [_bid(game, seat.index)], source=Source.MAIL)
    with pytest.raises(services.Forbidden):
        services.do_submit_moves(game.pk, bob, [Command(code="c1")], source=Source.MAIL)


def test_the_deadline_sweep_reminds_first_then_plays_for_the_late_seats(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob], deadline_hours=24)
    services.do_submit_moves(game.pk, alice, [_bid(game, seat_of(game, alice))], source=Source.API)
    game.refresh_from_db()
    late = seat_of(game, bob)
    start = game.deadline_at
    assert start is not None

    with time_machine.travel(start - timedelta(hours=13), tick=False):
        assert moderation.do_sweep_deadlines() == 0  # a 24-hour deadline warns 12 hours before

    with time_machine.travel(start - timedelta(minutes=1), tick=False):
        assert moderation.do_sweep_deadlines() == 1  # "Less than an hour left"
        assert moderation.do_sweep_deadlines() == 0

    with time_machine.travel(start + timedelta(minutes=1), tick=False):
        assert moderation.do_sweep_deadlines() == 1
        assert moderation.do_sweep_deadlines() == 0  # a second sweep in the same period does nothing
    game.refresh_from_db()
    assert game.reminded_at is not None and game.version == 2
    assert AuditEntry.objects.filter(game=game, action="remind", details__seats=[late]).exists()
    assert any("Reminder" in mail_text(m) for m in OutboundMessage.objects.filter(game=game, to_email=bob.email))

    with time_machine.travel(start + timedelta(hours=24, minutes=2), tick=False):
        assert moderation.do_sweep_deadlines(timezone.now()) == 1
    game.refresh_from_db()
    assert game.version == 3 and game.state["round"] == 2
    move = Move.objects.get(game=game, seat=late)
    assert move.source == Source.DEADLINE
    assert AuditEntry.objects.filter(game=game, action="deadline").exists()
    assert game.reminded_at is None and game.deadline_at > start + timedelta(hours=24)


def test_the_sweep_leaves_paused_and_finished_games_alone(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob], deadline_hours=1)
    moderation.do_pause_game(game.pk, moderator, "holiday")
    with time_machine.travel(timezone.now() + timedelta(days=30), tick=False):
        assert moderation.do_sweep_deadlines() == 0
    game.refresh_from_db()
    # the pause itself moved the version on (ETags change), the sweep did nothing
    assert game.version == 2 and game.status == Game.Status.PAUSED


def test_it_plays_the_games_default_move_for_a_resigned_seat_not_its_first_option(alice, bob, carol):
    """Caravelas lists a caravela's move first; the default a resigned seat plays ends the turn."""
    game = start_game("caravelas", alice, [bob, carol])
    rules = engine.get("caravelas")
    assert game.state is not None
    seat = rules.pending(game.state)[0]
    first, default = rules.options(game.state, seat)[0], rules.default_move(game.state, seat)
    assert default is not None and default.code != first.code  # else this test proves nothing
    services.do_resign(game.pk, player_at(game, seat))
    game.refresh_from_db()
    played = list(Move.objects.filter(game=game, seat=seat, source=Source.BOT).order_by("number"))
    assert played and played[0].move == default.move
    assert game.state is not None and seat not in rules.pending(game.state)
    assert services.replay_state(game, list(services.live_moves(game))) == game.state


def test_a_replacement_players_story_says_a_line_repeated_in_a_row_once_with_how_many_times(alice, bob, moderator):
    """QA (#23): a replacement player's story read "... draws 1 card." six times over."""
    assert moderation_seats._grouped(["A draws 1 card."] * 6 + ["B sails.", "A draws 1 card."]) == [
        "A draws 1 card. (6 times)", "B sails.", "A draws 1 card."]
    game = start_game("maracaibo", alice, [bob])
    for _ in range(12):  # a few moves of the first options: setup choices, sails, draws
        game.refresh_from_db()
        rules = engine.get(game.rules)
        seat = rules.pending(game.state)[0]
        player = alice if seat == seat_of(game, alice) else bob
        services.do_submit_moves(game.pk, player, [Command(code=rules.options(game.state, seat)[0].code)],
                                 source=Source.API)
    mark = OutboundMessage.objects.latest("pk").pk
    moderation.do_replace_player(game.pk, moderator, seat_of(game, bob), make_player("nina@example.org", "Nina"),
                                 "Bob moved abroad")
    welcome = mail_text(OutboundMessage.objects.filter(pk__gt=mark, to_email="nina@example.org").get())
    story = [line for line in welcome.split("The game so far:")[1].split("\n\n")[0].splitlines() if line.strip()]
    assert story and all(a != b for a, b in itertools.pairwise(story)), story
