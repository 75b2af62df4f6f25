"""Absent players handled right (issue 24), on a fake clock, with the mails each player gets:
a vacation stops only its own seat's clock and spends only what it stopped; an offered seat
closes when its player acts; a waiting game keeps a running clock; civil disorder plays the
whole turn and says so; replaced and resigning players are told."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

import engine
from pbem.games import moderation, services
from pbem.games.models import AuditEntry, Game, Move, OutboundMessage, Player, Seat, Source
from pbem.games.services import Command
from pbem.mail import absence_commands
from tests.factories import mail_text, make_player, seat_of, start_game


def _bid(game: Game, player: Player) -> None:
    game.refresh_from_db()
    assert game.state is not None
    card = game.state["hands"][seat_of(game, player)][0]
    services.do_submit_moves(game.pk, player, [Command(code=f"c{card}")], source=Source.MAIL)


def _mark() -> int:
    row = OutboundMessage.objects.order_by("-pk").first()
    return row.pk if row else 0


def _texts(email: str, since: int) -> list[str]:
    return [mail_text(m) for m in OutboundMessage.objects.filter(to_email=email, pk__gt=since).order_by("pk")]


def _sweep_at(moment: datetime) -> int:
    with time_machine.travel(moment, tick=False):
        return moderation.do_sweep_deadlines()


def _two_deadlines(game: Game) -> None:
    """The reminder, then the no-move policy."""
    for _ in range(2):
        game.refresh_from_db()
        assert game.deadline_at is not None
        _sweep_at(game.deadline_at + timedelta(minutes=1))
    game.refresh_from_db()


# ---- vacation ------------------------------------------------------------------------------------


def test_it_moves_no_deadline_for_a_vacation_of_a_player_not_to_move(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob], deadline_hours=72)
    _bid(game, bob)  # the game waits for Alice only
    game.refresh_from_db()
    before = game.deadline_at
    moderation.do_set_vacation(bob, timezone.now() + timedelta(days=14), via="mail")
    game.refresh_from_db()
    assert game.deadline_at == before
    assert game.seats.get(player=bob).vacation_hours_used == 0  # nothing stopped, nothing spent


def test_it_stops_only_the_vacationing_seats_clock_while_others_are_late(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol], deadline_hours=48)
    _bid(game, alice)  # Bob and Carol to move
    game.refresh_from_db()
    before = game.deadline_at
    moderation.do_set_vacation(bob, timezone.now() + timedelta(days=10), via="mail")
    game.refresh_from_db()
    assert game.deadline_at == before  # Carol gets no more time from Bob's vacation
    mark = _mark()
    _sweep_at(before + timedelta(minutes=1))  # the reminder goes to Carol, not to Bob on vacation
    assert any("Reminder" in t for t in _texts(carol.email, mark))
    assert _texts(bob.email, mark) == []
    _bid(game, carol)  # now the game waits on Bob alone: his clock stops until he is back
    game.refresh_from_db()
    _sweep_at(game.deadline_at - timedelta(hours=23))
    game.refresh_from_db()
    assert game.deadline_at >= bob.vacation_until + timedelta(hours=23)
    assert game.seats.get(player=bob).vacation_hours_used > 0


def test_it_gives_back_the_unused_vacation_when_the_player_returns_early(fake_game, alice, bob):
    start = datetime(2026, 12, 18, 9, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False):
        game = start_game(fake_game, alice, [bob], deadline_hours=72)
        _bid(game, alice)
        game.refresh_from_db()
        first = game.deadline_at  # 21 Dec 09:00
        moderation.do_set_vacation(bob, datetime(2027, 1, 3, tzinfo=UTC), via="mail")
    game.refresh_from_db()
    seat = game.seats.get(player=bob)
    assert game.deadline_at == datetime(2027, 1, 4, tzinfo=UTC)  # back plus a day
    held = seat.vacation_hours_used
    assert held == int((game.deadline_at - first).total_seconds() // 3600)
    mark = _mark()
    back = datetime(2026, 12, 22, 9, 0, tzinfo=UTC)
    with time_machine.travel(back, tick=False):
        moderation.do_set_vacation(bob, None, via="mail")
    game.refresh_from_db()
    seat.refresh_from_db()
    assert game.deadline_at == back + timedelta(hours=24)  # the rest of the hold is given back
    assert seat.vacation_hours_used == 48 and seat.vacation_hold is None  # 21 Dec 09:00 to 23 Dec 09:00
    told = _texts(alice.email, mark)[-1]
    assert "Bob is back from vacation" in told and "given back" in told


def test_it_refunds_the_rest_of_a_hold_when_the_player_moves_during_it(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob], deadline_hours=72)
    _bid(game, alice)
    moderation.do_set_vacation(bob, timezone.now() + timedelta(days=10), via="mail")
    assert game.seats.get(player=bob).vacation_hours_used > 0
    _bid(game, bob)  # he moves from his phone at once: the hold used nothing
    seat = game.seats.get(player=bob)
    assert seat.vacation_hours_used == 0 and seat.vacation_hold is None


def test_it_reads_a_vacation_date_without_a_year_as_the_next_one(fake_game, alice, bob):
    with time_machine.travel(datetime(2026, 12, 20, 12, 0, tzinfo=UTC), tick=False):
        answer = absence_commands.run("vacation 5 Jan", bob, None)
        assert answer.ok, answer.text
        bob.refresh_from_db()
        assert bob.vacation_until == datetime(2027, 1, 5, tzinfo=UTC)
        assert "Tue 05 Jan 2027" in answer.text
        refused = absence_commands.run("vacation until 2026-12-01", bob, None)
        assert not refused.ok and "must end in the future" in refused.text  # a year given is kept


# ---- the no-move policies ------------------------------------------------------------------------


def test_it_closes_an_offered_seat_when_its_player_moves_and_tells_the_moderators(
        fake_game, alice, bob, carol, dave, moderator, settings):
    settings.PBEM_MODERATOR_EMAILS = ["league@example.org"]
    game = start_game(fake_game, alice, [bob, carol], deadline_hours=48)
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "replace"}, "open league")
    _bid(game, alice)
    mark = _mark()
    _two_deadlines(game)  # Bob and Carol both missed two deadlines: both seats are offered
    assert set(game.seats.filter(status=Seat.Status.OPEN).values_list("player__email", flat=True)) == {
        bob.email, carol.email}
    for address in ("league@example.org", moderator.email):
        assert any("open for a replacement" in t for t in _texts(address, mark))
    mark = _mark()
    _bid(game, bob)  # Bob is back: his seat is his again
    assert game.seats.get(player=bob).status == Seat.Status.JOINED
    assert any("no longer open" in t for t in _texts(alice.email, mark))
    carol_seat = seat_of(game, carol)
    moderation.do_join(game.pk, dave)  # the newcomer gets Carol's seat, not Bob's
    assert game.seats.get(index=carol_seat).player == dave
    assert game.seats.get(player=bob).status == Seat.Status.JOINED


def test_it_keeps_a_waiting_games_clock_running_for_extend_and_a_newcomer(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob], deadline_hours=48)
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "wait"}, "slow league")
    _bid(game, alice)
    _two_deadlines(game)
    assert game.moderator_told_at is not None and game.deadline_at is not None
    told = game.deadline_at
    moderation.do_extend_deadline(game.pk, moderator, 24, "Bob wrote he is ill")  # not 409 any more
    game.refresh_from_db()
    assert game.deadline_at == told + timedelta(hours=24)
    nina = make_player("nina@example.org", "Nina")
    mark = _mark()
    moderation.do_replace_player(game.pk, moderator, seat_of(game, bob), nina, "Bob left", name="Captain Nina")
    game.refresh_from_db()
    assert game.deadline_at is not None and game.deadline_at > timezone.now() + timedelta(hours=47)
    welcome = _texts(nina.email, mark)[-1]
    assert "You play as Captain Nina" in welcome and moderation.when_text(game.deadline_at) in welcome
    farewell = _texts(bob.email, mark)
    assert len(farewell) == 1 and "You no longer play in game" in farewell[0] and "Captain Nina" in farewell[0]


def test_it_plays_the_absent_seats_whole_turn_and_tells_everyone(alice, bob):
    game = start_game("maracaibo", alice, [bob], deadline_hours=72)
    rules = engine.get("maracaibo")
    alice_seat, bob_seat = seat_of(game, alice), seat_of(game, bob)
    while True:  # Alice chooses her setup; Bob never answers
        game.refresh_from_db()
        if alice_seat not in rules.pending(game.state):
            break
        services.do_submit_moves(game.pk, alice, [Command(code=rules.default_move(game.state, alice_seat).code)],
                                 source=Source.API)
    assert rules.pending(game.state) == [bob_seat]
    mark = _mark()
    _two_deadlines(game)
    played = Move.objects.filter(game=game, seat=bob_seat, source=Source.DEADLINE)
    assert played.count() == 5  # his whole setup (a plan and four cards kept) at one deadline, not one a time
    assert bob_seat not in rules.pending(game.state)
    for player in (alice, bob):
        mail = _texts(player.email, mark)[-1]
        assert "Civil disorder" in mail and "These moves were not their choice" in mail, mail
    assert not any("Civil disorder" in t and "It is your turn" in t for t in _texts(bob.email, mark))


def test_it_announces_a_resignation_to_the_others(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol])
    mark = _mark()
    services.do_resign(game.pk, bob)
    assert any("Bob resigned from game" in t for t in _texts(alice.email, mark))
    assert any("Bob resigned from game" in t for t in _texts(carol.email, mark))


def test_it_sends_no_your_turn_mail_while_paused(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    _bid(game, alice)
    _bid(game, bob)
    moderation.do_pause_game(game.pk, moderator, "a dispute")
    mark = _mark()
    moderation.do_rollback(game.pk, moderator, 0, "misdeal", confirm_reveals=True)
    nina = make_player("nina@example.org", "Nina")
    moderation.do_replace_player(game.pk, moderator, seat_of(game, bob), nina, "Bob left")
    texts = _texts(alice.email, mark) + _texts(nina.email, mark)
    assert texts and not any("It is your turn" in t for t in texts)
    assert any("paused by a moderator" in t and "when it resumes" in t for t in texts)
    assert AuditEntry.objects.filter(game=game, action="replace").exists()


@pytest.mark.parametrize("policy", ["default", "bot"])
def test_it_names_the_policy_in_the_mail_as_civil_disorder(fake_game, alice, bob, moderator, policy):
    game = start_game(fake_game, alice, [bob], deadline_hours=48)
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": policy}, "league rule")
    _bid(game, alice)
    mark = _mark()
    _two_deadlines(game)
    for player in (alice, bob):
        assert any("Civil disorder" in t and "for Bob:" in t for t in _texts(player.email, mark))


# ---- time banks ----------------------------------------------------------------------------------


def test_it_keeps_a_time_bank_per_player_shown_in_words_and_stopped_by_a_pause(fake_game, alice, bob, moderator):
    t0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False):
        game = start_game(fake_game, alice, [bob], deadline_hours=72)
        moderation.do_set_game_policy(game.pk, moderator, {"time_bank_hours": 100, "time_bank_increment_hours": 10},
                                      "a clock league")
    game.refresh_from_db()
    assert game.deadline_at == t0 + timedelta(hours=100)  # both bid: the earlier bank to run out
    assert any("a time bank: 100 hours" in t for t in _texts(alice.email, 0))
    with time_machine.travel(t0 + timedelta(hours=30), tick=False):
        _bid(game, alice)  # 100 - 30 + 10 = 80 hours left
    game.refresh_from_db()
    assert game.deadline_at == t0 + timedelta(hours=100)  # Bob's clock alone runs now
    mark = _mark()
    with time_machine.travel(t0 + timedelta(hours=50), tick=False):
        _bid(game, bob)  # 100 - 50 + 10 = 60 hours; a new round: both clocks run again
    game.refresh_from_db()
    assert game.deadline_at == t0 + timedelta(hours=110)  # Bob's 60 hours from now
    assert any("your time bank: 2 days 12 hours left" in t for t in _texts(bob.email, mark))
    assert any("your time bank: 3 days 8 hours left" in t for t in _texts(alice.email, mark))
    with time_machine.travel(t0 + timedelta(hours=60), tick=False):
        moderation.do_pause_game(game.pk, moderator, "a dispute")  # every clock stops
    with time_machine.travel(t0 + timedelta(hours=200), tick=False):
        moderation.do_resume_game(game.pk, moderator, "settled")
    game.refresh_from_db()
    assert game.deadline_at == t0 + timedelta(hours=250)  # Bob had 50 hours left when it paused
    with time_machine.travel(t0 + timedelta(hours=250, minutes=1), tick=False):
        assert moderation.do_sweep_deadlines() == 1  # an empty bank is a missed deadline: the reminder


def test_it_gives_a_newcomer_a_full_time_bank_not_the_leavers_remainder(fake_game, alice, bob, moderator):
    t0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False):
        game = start_game(fake_game, alice, [bob], deadline_hours=72)
        moderation.do_set_game_policy(game.pk, moderator, {"time_bank_hours": 100}, "a clock league")
    with time_machine.travel(t0 + timedelta(hours=1), tick=False):
        _bid(game, alice)  # the game waits for Bob, whose clock runs
    nina = make_player("nina@example.org", "Nina")
    mark = _mark()
    with time_machine.travel(t0 + timedelta(hours=90), tick=False):  # Bob has 10 hours left
        moderation.do_replace_player(game.pk, moderator, seat_of(game, bob), nina, "Bob left")
    game.refresh_from_db()
    assert game.deadline_at == t0 + timedelta(hours=190)  # Nina's own 100 hours from now
    assert any("your time bank: 4 days 4 hours left" in t for t in _texts(nina.email, mark))


def test_it_offers_an_unanswered_open_seat_to_the_next_volunteer_and_tells_the_moderators(
        fake_game, alice, bob, moderator):
    from pbem.games import moderators

    game = start_game(fake_game, alice, [bob], deadline_hours=48)
    vera, walt = make_player("vera@example.org", "Vera"), make_player("walt@example.org", "Walt")
    moderators.do_volunteer(vera, game.pk)
    moderators.do_volunteer(walt, None)
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "replace"}, "open league")
    _bid(game, alice)
    _two_deadlines(game)
    first = AuditEntry.objects.get(game=game, action="standby-offer")
    assert first.details["to"] == vera.email
    mark = _mark()
    _sweep_at(first.created_at + timedelta(hours=47))  # Vera still has time
    assert not _texts(walt.email, mark)
    _sweep_at(first.created_at + timedelta(hours=48, minutes=1))
    assert any("A seat is open in game" in t and f"join {game.pk}" in t for t in _texts(walt.email, mark))
    told = _texts(moderator.email, mark)
    assert len(told) == 1 and "vera@example.org did not take Bob's open seat within 48 hours" in told[0]
    assert "offered to walt@example.org" in told[0]
    assert not _texts(vera.email, mark)  # not offered twice
    mark = _mark()
    _sweep_at(first.created_at + timedelta(hours=97))  # Walt did not answer either: nobody is left
    told = _texts(moderator.email, mark)
    assert len(told) == 1 and "the standby list has nobody else" in told[0]
    mark = _mark()
    _sweep_at(first.created_at + timedelta(hours=200))  # told once, not at every sweep
    assert not _texts(moderator.email, mark) and not _texts(walt.email, mark)
    moderation.do_join(game.pk, walt)  # a late answer still takes the seat
    assert game.seats.get(index=seat_of(game, walt)).player == walt


def test_it_puts_the_time_banks_back_on_undo_and_rollback(fake_game, alice, bob, moderator):
    t0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False):
        game = start_game(fake_game, alice, [bob], deadline_hours=72)
        moderation.do_set_game_policy(game.pk, moderator, {"time_bank_hours": 100, "time_bank_increment_hours": 10},
                                      "a clock league")
    with time_machine.travel(t0 + timedelta(hours=30), tick=False):
        _bid(game, alice)  # Alice had 70 hours left; the move adds 10
    mark = _mark()
    with time_machine.travel(t0 + timedelta(hours=40), tick=False):
        services.do_undo_last_move(game.pk, alice, via="mail")  # back to 70: the increment goes with the move
    assert any("your time bank: 2 days 22 hours left" in t for t in _texts(alice.email, mark))
    game.refresh_from_db()
    assert game.deadline_at == t0 + timedelta(hours=100)  # Bob's clock ran on all along
    with time_machine.travel(t0 + timedelta(hours=41), tick=False):
        _bid(game, alice)  # 70 - 1 + 10 = 79
    with time_machine.travel(t0 + timedelta(hours=50), tick=False):
        _bid(game, bob)  # 100 - 50 + 10 = 60; a new round: both clocks run
    game.refresh_from_db()
    assert game.deadline_at == t0 + timedelta(hours=110)
    first = Move.objects.filter(game=game, undone_at__isnull=True).order_by("number").first()
    assert first is not None
    with time_machine.travel(t0 + timedelta(hours=60), tick=False):
        moderation.do_rollback(game.pk, moderator, first.number - 1, "a misdeal", confirm_reveals=True)
    game.refresh_from_db()  # the banks of Alice's move at 41 h: 69 and 59 hours, from now
    assert game.deadline_at == t0 + timedelta(hours=60 + 59)
