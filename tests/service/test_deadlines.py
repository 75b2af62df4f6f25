"""Deadlines on a fake clock: warnings, reminders, each no-move policy, vacations, extensions,
and the moderator's tools, with the mails each player gets."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.utils import timezone

import engine
from pbem.games import moderation, selectors, services
from pbem.games.models import AuditEntry, Game, Move, OutboundMessage, Player, Seat, Source
from pbem.games.services import Command
from tests.factories import mail_text, make_player, seat_of, start_game


def _bid(game: Game, player: Player, pick: int = 0) -> None:
    game.refresh_from_db()
    assert game.state is not None
    card = game.state["hands"][seat_of(game, player)][pick]
    services.do_submit_moves(game.pk, player, [Command(code=f"c{card}")], source=Source.API)


def _mails(player: Player, since: int = 0) -> list[OutboundMessage]:
    return list(OutboundMessage.objects.filter(to_email=player.email, pk__gt=since).order_by("pk"))


def _last_pk() -> int:
    row = OutboundMessage.objects.order_by("-pk").first()
    return row.pk if row else 0


def _sweep_at(moment):  # type: ignore[no-untyped-def]
    with time_machine.travel(moment, tick=False):
        return moderation.do_sweep_deadlines()


@pytest.fixture
def late_game(fake_game, alice, bob) -> Game:
    """Alice has bid; the game waits for Bob, whose deadline is 48 hours away."""
    game = start_game(fake_game, alice, [bob], deadline_hours=48)
    _bid(game, alice)
    game.refresh_from_db()
    return game


def test_it_warns_then_reminds_then_plays_the_declared_default(late_game, alice, bob):
    game = late_game
    deadline = game.deadline_at
    mark = _last_pk()
    assert _sweep_at(deadline - timedelta(hours=25)) == 0  # not yet within 24 hours
    assert _sweep_at(deadline - timedelta(hours=23)) == 1
    warn = _mails(bob, mark)
    assert len(warn) == 1 and "23 hours left" in mail_text(warn[0])
    assert "safe default move" in mail_text(warn[0])  # the policy is said in the mail
    assert _mails(alice, mark) == []  # only the seat that is to move hears it
    assert _sweep_at(deadline - timedelta(hours=1)) == 0  # warned once per deadline

    assert _sweep_at(deadline + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    assert game.reminded_at is not None
    assert "Reminder" in mail_text(_mails(bob, mark)[-1])

    hand = list(game.state["hands"][seat_of(game, bob)])
    assert _sweep_at(game.deadline_at + timedelta(minutes=1)) == 1
    move = Move.objects.get(game=game, seat=seat_of(game, bob))
    assert move.source == Source.DEADLINE
    # the blind-bids game declares "the lowest bid" its safe default, not the first option listed
    assert move.move == {"code": f"c{min(hand)}"}
    assert AuditEntry.objects.get(game=game, action="deadline").details["policy"] == "default"


def test_it_waits_and_tells_the_moderator_under_the_wait_policy(late_game, bob, moderator):
    game = late_game
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "wait"}, "a slow league")
    game.refresh_from_db()
    _sweep_at(game.deadline_at + timedelta(minutes=1))
    game.refresh_from_db()
    mark = _last_pk()
    _sweep_at(game.deadline_at + timedelta(minutes=1))
    game.refresh_from_db()
    # the clock keeps running (a moderator can extend it), and the moderators hear again then
    assert game.deadline_at is not None and game.moderator_told_at is not None
    told = OutboundMessage.objects.filter(pk__gt=mark, to_email=moderator.email).get()
    assert "waits for Bob" in mail_text(told) and f"/admin/games/game/{game.pk}/moderate/" in mail_text(told)
    assert not Move.objects.filter(game=game, seat=seat_of(game, bob)).exists()
    late = selectors.late_seats(game)
    assert [(s.name, s.reminded) for s in late] == [("Bob", True)]
    assert game in selectors.overdue_games()
    # the moderator moves for the seat; Bob is told, the game goes on
    mark = _last_pk()
    hand = game.state["hands"][seat_of(game, bob)]
    moderation.do_move_for_seat(game.pk, moderator, seat_of(game, bob), [Command(code=f"c{hand[-1]}")],
                                "Bob sent it by phone")
    assert Move.objects.get(game=game, seat=seat_of(game, bob)).source == Source.MODERATOR
    assert any("A moderator moved for you" in mail_text(m) for m in _mails(bob, mark))
    entry = AuditEntry.objects.get(game=game, action="move-for-seat")
    assert entry.actor == moderator and entry.details["reason"] == "Bob sent it by phone"
    game.refresh_from_db()
    assert game.moderator_told_at is None and game.deadline_at is not None


def test_it_lets_the_bot_play_a_seat_under_the_bot_policy(alice, bob, moderator):
    game = start_game("caravelas", alice, [bob], options={"target": 20}, deadline_hours=24)
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "bot"}, "league rule")
    game.refresh_from_db()
    waiting = engine.get("caravelas").pending(game.state)
    _sweep_at(game.deadline_at + timedelta(minutes=1))
    game.refresh_from_db()
    _sweep_at(game.deadline_at + timedelta(minutes=1))
    played = Move.objects.filter(game=game, source=Source.BOT)
    assert played.exists() and played.first().seat == waiting[0]


def test_it_opens_the_seat_for_a_replacement_under_the_replace_policy(late_game, alice, bob, dave, moderator):
    game = late_game
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "replace"}, "open league")
    game.refresh_from_db()
    _sweep_at(game.deadline_at + timedelta(minutes=1))
    game.refresh_from_db()
    mark = _last_pk()
    _sweep_at(game.deadline_at + timedelta(minutes=1))
    seat = game.seats.get(player=bob)
    assert seat.status == Seat.Status.OPEN
    notice = mail_text(_mails(alice, mark)[-1])
    assert f"join {game.pk}" in notice and "open for a replacement" in notice
    old_token = seat.token
    mark = _last_pk()
    moderation.do_join(game.pk, dave)
    seat.refresh_from_db()
    game.refresh_from_db()
    assert seat.player == dave and seat.status == Seat.Status.JOINED and seat.token != old_token
    assert game.state["players"][seat.index] == "Dave"  # the board and the result name the newcomer
    welcome = mail_text(_mails(dave, mark)[-1])
    assert "you take over Bob's seat" in welcome and "The game so far" in welcome and "You are Dave" in welcome
    assert "Since your last mail" not in welcome  # no story in Bob's voice
    assert "Dave takes over Bob's seat" in mail_text(_mails(alice, mark)[-1])
    with pytest.raises(services.Forbidden):
        services.do_submit_moves(game.pk, bob, [Command(code="c1")], source=Source.MAIL)
    _bid(game, dave)
    assert game.deadline_at is not None


def test_it_holds_a_deadline_for_a_vacation_up_to_the_games_cap(late_game, alice, bob):
    game = late_game
    deadline = game.deadline_at
    mark = _last_pk()
    with time_machine.travel(timezone.now(), tick=False):
        moderation.do_set_vacation(bob, timezone.now() + timedelta(days=5), via="api")
    game.refresh_from_db()
    assert "Bob is on vacation until" in mail_text(_mails(alice, mark)[-1])
    assert _mails(bob, mark) == []  # the others are told, not Bob
    assert game.deadline_at > deadline + timedelta(days=3)  # back after 5 days, plus a day
    seat = game.seats.get(player=bob)
    first = seat.vacation_hours_used
    assert 0 < first < 14 * 24
    # a second, long vacation is held only up to the cap (14 days in all)
    moved = game.deadline_at
    with time_machine.travel(timezone.now(), tick=False):
        moderation.do_set_vacation(bob, timezone.now() + timedelta(days=60), via="api")
    game.refresh_from_db()
    seat.refresh_from_db()
    assert seat.vacation_hours_used == 14 * 24
    assert game.deadline_at == moved + timedelta(hours=14 * 24 - first)


def test_it_moves_a_deadline_that_falls_in_a_vacation_set_earlier(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob], deadline_hours=24)
    bob.vacation_until = timezone.now() + timedelta(days=3)
    bob.save()
    _bid(game, alice)
    game.refresh_from_db()
    assert _sweep_at(game.deadline_at + timedelta(minutes=1)) == 1
    game.refresh_from_db()
    assert game.reminded_at is None  # no reminder to someone away: the clock waits
    assert game.deadline_at >= bob.vacation_until + timedelta(hours=23)
    assert AuditEntry.objects.filter(game=game, action="vacation-wait").exists()


def test_it_grants_a_players_extensions_up_to_the_games_number(late_game, alice, bob):
    game = late_game
    before = game.deadline_at
    ext = moderation.do_request_extension(game.pk, bob, via="api")
    assert ext.until == before + timedelta(hours=48) and ext.left == 1
    moderation.do_request_extension(game.pk, bob)
    with pytest.raises(services.Forbidden, match="used all 2 extensions"):
        moderation.do_request_extension(game.pk, bob)
    with pytest.raises(services.Conflict, match="not waiting for you"):
        moderation.do_request_extension(game.pk, alice)
    assert "took 48 more hours" in mail_text(_mails(alice)[-1])


def test_it_tells_players_of_a_pause_and_gives_their_options_on_resume(late_game, alice, bob, moderator):
    game = late_game
    mark = _last_pk()
    moderation.do_pause_game(game.pk, moderator, "a dispute about a card")
    for p in (alice, bob):
        body = mail_text(_mails(p, mark)[-1])
        assert "paused" in body and "a dispute about a card" in body
    game.refresh_from_db()
    assert _sweep_at(timezone.now() + timedelta(days=30)) == 0
    mark = _last_pk()
    moderation.do_resume_game(game.pk, moderator, "settled")
    bob_mail = mail_text(_mails(bob, mark)[-1])
    assert "resumed" in bob_mail and "Your options" in bob_mail


def test_it_plays_a_seat_resigned_during_a_pause_as_soon_as_the_game_resumes(late_game, bob, moderator):
    game = late_game
    moderation.do_pause_game(game.pk, moderator, "lunch")
    services.do_resign(game.pk, bob)
    assert not Move.objects.filter(game=game, seat=seat_of(game, bob)).exists()
    moderation.do_resume_game(game.pk, moderator, "back")
    played = Move.objects.filter(game=game, seat=seat_of(game, bob))
    assert played.exists() and {m.source for m in played} == {Source.BOT}


def test_it_renames_the_seat_for_a_replacement_by_the_moderator(late_game, alice, bob, moderator):
    game = late_game
    nina = make_player("nina@example.org", "Nina")
    mark = _last_pk()
    moderation.do_replace_player(game.pk, moderator, seat_of(game, bob), nina, "Bob moved abroad")
    game.refresh_from_db()
    assert game.state["players"] == ["Alice", "Nina"]
    welcome = mail_text(_mails(nina, mark)[-1])
    assert "You are Nina" in welcome and "Bob" in welcome  # told whose seat it was
    assert "Nina takes over Bob's seat" in mail_text(_mails(alice, mark)[-1])
    # the replay from the seed still gives the stored state (names included)
    assert services.replay_state(game, list(services.live_moves(game))) == game.state


def test_it_renames_a_newcomer_whose_name_is_taken(late_game, bob, moderator):
    other_alice = make_player("alice2@example.org", "Alice")
    moderation.do_replace_player(late_game.pk, moderator, seat_of(late_game, bob), other_alice, "swap")
    late_game.refresh_from_db()
    assert late_game.state["players"] == ["Alice", "Alice B"]  # a letter: numbers name cards


def test_it_extends_messages_rolls_back_and_aborts_for_the_moderator(late_game, alice, bob, moderator):
    game = late_game
    mark = _last_pk()
    before = game.deadline_at
    moderation.do_extend_deadline(game.pk, moderator, 24, "storm in the harbour")
    game.refresh_from_db()
    assert game.deadline_at == before + timedelta(hours=24)
    assert "storm in the harbour" in mail_text(_mails(bob, mark)[-1])
    moderation.do_message_players(game.pk, moderator, "Please keep the chat friendly.")
    assert "Please keep the chat friendly." in mail_text(_mails(alice, mark)[-1])
    with pytest.raises(services.ServiceError, match="needs a reason"):
        moderation.do_extend_deadline(game.pk, moderator, 24, " ")

    _bid(game, bob)  # round 1 over; round 2 starts
    game.refresh_from_db()
    start_state = services.replay_state(game, [])
    with pytest.raises(services.Conflict, match="revealed hidden information"):
        moderation.do_rollback(game.pk, moderator, 0, "a misdeal")  # the bids were shown: confirm first
    moderation.do_rollback(game.pk, moderator, 0, "a misdeal", confirm_reveals=True)
    game.refresh_from_db()
    assert game.state == start_state
    assert Move.objects.filter(game=game, undone_at__isnull=True).count() == 0
    assert "took game" in mail_text(_mails(alice, mark)[-1]) and "a misdeal" in mail_text(_mails(alice, mark)[-1])
    assert AuditEntry.objects.get(game=game, action="rollback").details["moves"] == [1, 2]
    assert "the same hidden cards come out again" in mail_text(_mails(alice, mark)[-1])

    moderation.do_abort_game(game.pk, moderator, "players gone")
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED and game.deadline_at is None
    assert "without a result" in mail_text(_mails(bob, mark)[-1])
    with pytest.raises(services.Conflict):
        moderation.do_abort_game(game.pk, moderator, "twice")


def test_it_refuses_a_rollback_with_nothing_after_it(late_game, moderator):
    with pytest.raises(services.ServiceError, match="not before the last move"):
        moderation.do_rollback(late_game.pk, moderator, 1, "nothing to undo")
    with pytest.raises(services.ServiceError, match="not before the last move"):
        moderation.do_rollback(late_game.pk, moderator, -1, "negative")


def _seat_handed_the_turn_by_defaults(rules, state) -> int | None:  # type: ignore[no-untyped-def]
    """A seat not deciding now that decides once every late seat has played its default move."""
    late = set(rules.pending(state))
    trial = services._json_copy(state)
    for seat in sorted(late):
        default = rules.default_move(trial, seat)
        if default is None:
            return None
        rules.apply(trial, seat, default.move)
    after = [s for s in rules.pending(trial) if s not in late]
    return after[0] if after else None


def test_it_records_the_moves_played_for_a_resigned_seat_after_a_deadline_default(alice, bob, carol):
    """A default move for a late seat can hand the turn to a resigned seat, played at once:
    every one of those moves is in the log, so the game replays from its seed."""
    game = start_game("maretta", alice, [bob, carol], options={"side": "A"}, deadline_hours=48)
    rules = engine.get("maretta")
    for _ in range(60):  # play on until the late seats' defaults hand the turn to someone idle
        game.refresh_from_db()
        nxt = _seat_handed_the_turn_by_defaults(rules, game.state)
        if nxt is not None:
            break
        seat = rules.pending(game.state)[0]
        code = rules.options(game.state, seat)[0].code
        services.do_submit_moves(game.pk, game.seats.get(index=seat).player, [Command(code=code)],
                                 source=Source.API)
    assert nxt is not None
    services.do_resign(game.pk, game.seats.get(index=nxt).player)
    game.refresh_from_db()
    before = game.moves.count()
    for _ in range(2):  # warned, then the policy
        game.refresh_from_db()
        _sweep_at(game.deadline_at + timedelta(minutes=1))
    game.refresh_from_db()
    rows = list(services.live_moves(game))
    assert any(r.seat == nxt and r.source == Source.BOT for r in rows[before:]), [(r.seat, r.source) for r in rows]
    assert services.replay_state(game, rows) == game.state
