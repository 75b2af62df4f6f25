"""Time banks with absent players (issue 24), in a real game (Maretta, three players: a round of
simultaneous face-down plays), on a fake clock, with the mails each player gets: a vacation
stops only the vacationing seat's own clock and spends only the hours it stopped; only the
seats whose own clock ran out are warned, reminded and played for; undo and rollback of moves
made before ``Move.banks_before`` was kept (migration 0018) still put the banks back."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine

import engine
from pbem.games import clocks, moderation, services
from pbem.games.models import AuditEntry, Game, Move, OutboundMessage, Player, Seat, Source
from pbem.games.services import Command
from tests.factories import mail_text, seat_of, start_game

T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
RULES = engine.get("maretta")


def _at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def _banked_game(alice: Player, bob: Player, carol: Player, moderator: Player, **policy: int) -> Game:
    with time_machine.travel(T0, tick=False):
        game = start_game("maretta", alice, [bob, carol], options={"side": "A"}, deadline_hours=72)
        moderation.do_set_game_policy(game.pk, moderator, {"time_bank_hours": 100, **policy}, "a clock league")
    game.refresh_from_db()
    assert sorted(RULES.pending(game.state)) == [0, 1, 2]  # the first round's plays: everyone at once
    return game


def _play(game: Game, player: Player, hours: float) -> None:
    with time_machine.travel(_at(hours), tick=False):
        game.refresh_from_db()
        seat = seat_of(game, player)
        assert seat in RULES.pending(game.state)
        move = RULES.default_move(game.state, seat)
        assert move is not None
        services.do_submit_moves(game.pk, player, [Command(code=move.code)], source=Source.MAIL)


def _vacation(player: Player, hours: float, until: datetime | None) -> None:
    with time_machine.travel(_at(hours), tick=False):
        moderation.do_set_vacation(player, until, via="mail")


def _sweep(hours: float) -> int:
    with time_machine.travel(_at(hours), tick=False):
        return moderation.do_sweep_deadlines()


def _seat(game: Game, player: Player) -> Seat:
    return game.seats.select_related("player").get(player=player)


def _left(game: Game, player: Player, hours: float) -> float:
    game.refresh_from_db()
    left = clocks.left(game, _seat(game, player), _at(hours))
    assert left is not None
    return left / 3600


def _mark() -> int:
    row = OutboundMessage.objects.order_by("-pk").first()
    return row.pk if row else 0


def _texts(player: Player, since: int) -> list[str]:
    return [mail_text(m) for m in OutboundMessage.objects.filter(to_email=player.email, pk__gt=since).order_by("pk")]


def test_it_stops_only_the_vacationing_seats_time_bank_and_spends_only_what_it_stopped(
        alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator)
    mark = _mark()
    _vacation(bob, 10, _at(130))  # five days away, while everyone is to play
    assert any("Bob's time bank stops while the game waits on Bob" in t and "nobody else's clock stops" in t
               for t in _texts(carol, mark))
    game.refresh_from_db()
    assert game.deadline_at == _at(100)  # Alice's and Carol's clocks run on: nobody else gains time
    _play(game, alice, 20)
    _play(game, carol, 30)
    game.refresh_from_db()
    assert RULES.pending(game.state) == [seat_of(game, bob)]
    assert game.deadline_at == _at(10 + 120 + 90)  # Bob's 90 hours run from the end of his vacation
    assert _left(game, bob, 100) == 90  # stopped: nothing spent while he is away
    assert clocks.stopped_by_vacation(game, _seat(game, bob), _at(100))
    assert (_left(game, alice, 100), _left(game, carol, 100)) == (80, 70)  # their own time, untouched
    with time_machine.travel(_at(40), tick=False):
        from pbem.games.pages import seat_page
        assert seat_page(_seat(game, bob)).deadline == (
            "your time bank: 3 days 18 hours left for the whole game (stopped while you are on vacation)")
    assert _sweep(100.1) == 0  # the others' old deadline is not Bob's: no warning, no reminder
    mark = _mark()
    _vacation(bob, 70, None)  # back early: 60 hours stopped his clock, 60 are spent, nothing more
    seat = _seat(game, bob)
    assert seat.vacation_hours_used == 60 and seat.vacation_hold is None and seat.absences_taken == 1
    game.refresh_from_db()
    assert game.deadline_at == _at(70 + 90)  # his clock runs again from now
    assert any("Bob is back from vacation" in t and "stopped it for 2 days 12 hours" in t
               for t in _texts(alice, mark))
    assert AuditEntry.objects.get(game=game, action="vacation-end").details["used_hours"] == 60
    _play(game, bob, 75)
    assert _seat(game, bob).bank_seconds == 85 * 3600


def test_it_stops_a_clock_only_within_the_vacation_allowance_and_the_absence_limits(alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator, vacation_cap_days=2, absences_allowed=2)
    _vacation(bob, 0, _at(240))
    _vacation(bob, 10, None)  # a first absence: 10 hours stopped
    _vacation(bob, 20, _at(240))  # a second: ten days, but only 38 hours of the game's two days are left
    _play(game, alice, 21)
    _play(game, carol, 21)
    game.refresh_from_db()
    assert game.deadline_at == _at(20 + 38 + 90)  # 38 hours stopped, then the 90 hours he had left
    mark = _mark()
    assert _sweep(148 - 23) == 1
    assert any("23 hours left to move" in t for t in _texts(bob, mark))  # his clock runs out: he is warned
    _play(game, bob, 130)
    seat = _seat(game, bob)
    assert seat.vacation_hours_used == 48 and seat.absences_taken == 2
    assert seat.bank_seconds == (90 - (130 - 20 - 38)) * 3600
    _vacation(bob, 131, None)
    _vacation(bob, 132, _at(400))  # a third absence: the game allows two, so nothing stops his clock
    assert clocks.clock_allowance(game, _seat(game, bob), _at(133)) == 0


def test_it_reminds_and_plays_for_only_the_seat_whose_own_clock_ran_out(alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator)
    _vacation(bob, 0, _at(240))  # Bob away for ten days: his clock stops
    with time_machine.travel(_at(5), tick=False):
        moderation.do_request_extension(game.pk, carol, via="mail")  # 48 hours more in Carol's bank
    game.refresh_from_db()
    assert game.deadline_at == _at(100)  # Alice's clock, the first to run out
    mark = _mark()
    assert _sweep(100 - 23) == 1
    assert any("23 hours left" in t for t in _texts(alice, mark))
    assert not _texts(carol, mark) and not _texts(bob, mark)  # their clocks have time left
    mark = _mark()
    assert _sweep(100.1) == 1
    assert any("Reminder" in t for t in _texts(alice, mark))
    assert not any("Reminder" in t for t in _texts(carol, mark) + _texts(bob, mark))
    _sweep(100 + 72.1)  # the reminder's grace passed: civil disorder for Alice alone
    played = Move.objects.filter(game=game, source=Source.DEADLINE)
    assert {m.seat for m in played} == {seat_of(game, alice)}
    game.refresh_from_db()
    assert seat_of(game, carol) in RULES.pending(game.state) and seat_of(game, bob) in RULES.pending(game.state)


def test_it_takes_back_the_increments_of_moves_made_before_snapshots_were_kept(alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator, time_bank_increment_hours=10)
    _play(game, alice, 30)  # 100 - 30 + 10 = 80 hours left
    Move.objects.filter(game=game).update(banks_before=None)  # a row written before migration 0018
    with time_machine.travel(_at(40), tick=False):
        services.do_undo_last_move(game.pk, alice, via="mail")
    assert _left(game, alice, 40) == 70  # as at the move: its increment went with it
    _play(game, alice, 41)  # 70 - 1 + 10 = 79
    _play(game, bob, 50)  # 100 - 50 + 10 = 60
    Move.objects.filter(game=game).update(banks_before=None)
    with time_machine.travel(_at(60), tick=False):
        moderation.do_rollback(game.pk, moderator, 0, "a misdeal", confirm_reveals=True)
    # no snapshot to go back to: each clock as it stood, less what the undone moves earned it;
    # the time spent on them stays spent, and every clock runs again from the rollback
    assert (_left(game, alice, 60), _left(game, bob, 60), _left(game, carol, 60)) == (69, 50, 40)
    game.refresh_from_db()
    assert game.deadline_at == _at(60 + 40)


def test_it_uses_the_first_kept_snapshot_after_old_moves_on_rollback(alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator, time_bank_increment_hours=10)
    _play(game, alice, 30)
    Move.objects.filter(game=game).update(banks_before=None)  # Alice's move: before migration 0018
    _play(game, bob, 50)  # Bob's keeps the banks at 50 h: Alice 80, Bob 50, Carol 50
    with time_machine.travel(_at(60), tick=False):
        moderation.do_rollback(game.pk, moderator, 0, "a misdeal", confirm_reveals=True)
    assert (_left(game, alice, 60), _left(game, bob, 60), _left(game, carol, 60)) == (70, 50, 50)


def test_it_shows_the_time_banks_on_the_game_page_and_the_personal_page(client, alice, bob, carol, moderator):
    from pbem.games.pages import seat_page

    game = _banked_game(alice, bob, carol, moderator)
    _vacation(bob, 10, _at(130))
    _play(game, alice, 20)
    with time_machine.travel(_at(30), tick=False):
        page = client.get(f"/games/{game.pk}/").content.decode()
        personal = seat_page(_seat(game, alice))
    assert "a time bank of 100 hours for each player's whole game" in page
    assert "time bank: 3 days 8 hours left, stopped" in page  # Alice: 80 hours, she played
    assert "3 days 18 hours left, stopped: on vacation" in page  # Bob: 90 hours
    assert "2 days 22 hours left, running" in page  # Carol: 70 hours
    assert "your time bank: 3 days 8 hours left for the whole game" in personal.deadline


def test_it_keeps_a_reminded_clocks_grace_when_others_move_and_extends_the_waiting_banks(
        alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator)
    with time_machine.travel(_at(5), tick=False):
        moderation.do_request_extension(game.pk, carol, via="mail")  # Carol: 148 hours
    _play(game, bob, 1)
    mark = _mark()
    assert _sweep(100.1) == 1  # Alice's clock ran out: her reminder, and a grace of 72 hours
    _play(game, carol, 110)  # someone else moves: Alice keeps her grace, not a fresh reminder
    game.refresh_from_db()
    assert game.deadline_at == _at(100.1 + 72)
    _sweep(110.2)
    assert sum("Reminder" in t for t in _texts(alice, mark)) == 1
    mark = _mark()
    with time_machine.travel(_at(120), tick=False):
        moderation.do_extend_deadline(game.pk, moderator, 24, "Alice wrote she is ill")
    game.refresh_from_db()
    assert game.deadline_at == _at(144)  # 24 hours on Alice's bank, from now: her clock had run out
    assert game.reminded_at is None  # warned and reminded again when it runs out
    assert any("A moderator gave Alice 24 more hours on their time bank" in t and "ill" in t
               for t in _texts(bob, mark))
    assert _sweep(144.1) == 1
    assert any("Reminder" in t for t in _texts(alice, mark))


def test_it_keeps_the_hours_an_extension_gave_after_the_move_a_rollback_goes_back_to(
        alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator)
    _play(game, alice, 30)  # its snapshot: 70 hours each
    with time_machine.travel(_at(40), tick=False):
        moderation.do_extend_deadline(game.pk, moderator, 24, "a storm")  # Bob and Carol: 24 hours more
    with time_machine.travel(_at(50), tick=False):
        moderation.do_rollback(game.pk, moderator, 0, "a misdeal", confirm_reveals=True)
    assert (_left(game, alice, 50), _left(game, bob, 50), _left(game, carol, 50)) == (70, 94, 94)


def test_it_keeps_the_others_clocks_running_when_a_seat_opens_for_a_replacement(alice, bob, carol, moderator):
    game = _banked_game(alice, bob, carol, moderator)
    with time_machine.travel(T0, tick=False):
        moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "replace"}, "an open league")
    with time_machine.travel(_at(5), tick=False):
        moderation.do_request_extension(game.pk, carol, via="mail")  # Carol: 148 hours
    _play(game, alice, 1)
    assert _sweep(100.1) == 1  # Bob's clock ran out: his reminder
    mark = _mark()
    assert _sweep(172.2) == 1  # and his seat is offered; Carol's clock still counts
    assert game.seats.get(player=bob).status == Seat.Status.OPEN
    game.refresh_from_db()
    assert game.deadline_at == _at(148)  # Carol's clock, not none at all
    assert _sweep(172.3) == 1
    assert any("Reminder" in t for t in _texts(carol, mark))
    assert sum("open for a replacement" in t for t in _texts(alice, mark)) == 1  # Bob's seat opened once
