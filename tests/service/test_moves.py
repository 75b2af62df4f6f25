"""Moves through the service: atomic batches, versions, the seed commitment and replay."""

from __future__ import annotations

import hashlib
import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone

import engine
from engine.testing import replay
from pbem.games import services
from pbem.games.models import Game, Move, MoveRequest, Source
from pbem.games.services import Command
from tests.factories import play_first_options, player_at, seat_of, start_game


def _hand(game: Game, seat: int) -> list[int]:
    assert game.state is not None
    return list(game.state["hands"][seat])


def test_an_accepted_batch_is_logged_with_its_version_and_events(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    card = _hand(game, seat_of(game, alice))[0]
    result = services.do_submit_moves(game.pk, alice, [Command(code=f"c{card}")], source=Source.API)
    assert result.version == 2
    row = Move.objects.get(game=game)
    assert (row.number, row.seat, row.version, row.source) == (1, seat_of(game, alice), 2, "api")
    assert row.move == {"code": f"c{card}"}
    assert [e["kind"] for e in row.events] == ["choose", "choose_own"]


def test_commands_may_be_codes_text_or_structured_moves(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob], options={"rounds": 3})
    a, b = _hand(game, seat_of(game, alice)), _hand(game, seat_of(game, bob))
    services.do_submit_moves(game.pk, alice, [Command(text=f"Bid {a[0]}")], source=Source.MAIL)
    services.do_submit_moves(game.pk, bob, [Command(move={"code": f"c{b[0]}"})], source=Source.API)
    game.refresh_from_db()
    assert game.version == 3 and game.state["round"] == 2


def test_a_batch_whose_second_command_fails_applies_nothing(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    before = json.dumps(game.state, sort_keys=True)
    hand = _hand(game, seat_of(game, alice))
    # The second bid is refused: after the first, the round waits for Bob. It is judged where it
    # stands, after the first (which revealed nothing and was undone with it).
    with pytest.raises(services.MoveRejected) as err:
        services.do_submit_moves(game.pk, alice, [Command(code=f"c{hand[0]}"), Command(code=f"c{hand[1]}")],
                                 source=Source.API)
    assert err.value.line_no == 2 and err.value.status == 422
    assert err.value.at_line == [] and err.value.as_dict()["allowed"] == []
    assert err.value.rolled_back == [1]
    game.refresh_from_db()
    assert json.dumps(game.state, sort_keys=True) == before
    assert game.version == 1 and not Move.objects.filter(game=game).exists()


def test_an_illegal_command_is_rejected_with_the_options(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    with pytest.raises(services.MoveRejected) as err:
        services.do_submit_moves(game.pk, alice, [Command(code="c99")], source=Source.API)
    body = err.value.as_dict()
    assert body["line"] == 1 and "not a legal choice" in body["message"]
    assert {o["code"] for o in body["options"]} == {f"c{c}" for c in _hand(game, seat_of(game, alice))}


def test_a_move_against_an_old_version_is_refused(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    bid = f"c{_hand(game, seat_of(game, alice))[0]}"
    with pytest.raises(services.StaleVersion) as err:
        services.do_submit_moves(game.pk, alice, [Command(code=bid)], source=Source.API, expected_version=7)
    assert err.value.status == 412
    services.do_submit_moves(game.pk, alice, [Command(code=bid)], source=Source.API, expected_version=1)


def test_outsiders_cannot_move(fake_game, alice, bob, dave):
    game = start_game(fake_game, alice, [bob])
    with pytest.raises(services.Forbidden):
        services.do_submit_moves(game.pk, dave, [Command(code="c1")], source=Source.API)
    with pytest.raises(services.Forbidden):
        services.do_request_move(game.pk, dave, [Command(code="c1")])


def test_the_seed_is_revealed_at_the_end_and_replaying_the_log_gives_the_same_state(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob, carol], options={"rounds": 4, "deck": "long"})
    committed = game.seed_hash
    play_first_options(game.pk, rnd=random.Random(5))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.finished_at is not None
    assert game.outcome is not None and game.outcome["reason"] == "all rounds played"
    assert hashlib.sha256(game.seed.encode()).hexdigest() == committed
    rules = engine.get(game.rules)
    names = [player_at(game, i).display_name for i in range(3)]
    log = [(m.seat, m.move) for m in Move.objects.filter(game=game).order_by("number")]
    assert replay(rules, names, game.options, game.seed, log) == game.state
    with pytest.raises(services.Conflict, match="takes no moves"):
        services.do_submit_moves(game.pk, alice, [Command(code="c1")], source=Source.API)


def test_a_maretta_game_replays_from_seed_and_log(alice, bob, carol):
    game = start_game("maretta", alice, [bob, carol], options={"side": "B"})
    play_first_options(game.pk, rnd=random.Random(11))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    rules = engine.get("maretta")
    log = [(m.seat, m.move) for m in Move.objects.filter(game=game).order_by("number")]
    names = [player_at(game, i).display_name for i in range(3)]
    assert replay(rules, names, game.options, game.seed, log) == game.state


def test_a_move_request_is_decided_once(fake_game, alice, bob, django_capture_on_commit_callbacks):
    game = start_game(fake_game, alice, [bob])
    bid = f"c{_hand(game, seat_of(game, alice))[0]}"
    with django_capture_on_commit_callbacks(execute=True):
        req = services.do_request_move(game.pk, alice, [Command(code=bid)])
    req.refresh_from_db()
    assert req.status == MoveRequest.Status.ACCEPTED and req.result_version == 2
    services.do_process_move_request(req.pk)  # a redelivered task
    assert Move.objects.filter(game=game).count() == 1
    req.refresh_from_db()
    assert req.result_version == 2


def test_a_rejected_move_request_keeps_the_reason(fake_game, alice, bob, django_capture_on_commit_callbacks):
    game = start_game(fake_game, alice, [bob])
    with django_capture_on_commit_callbacks(execute=True):
        req = services.do_request_move(game.pk, alice, [Command(text="bid a lot")])
    req.refresh_from_db()
    assert req.status == MoveRequest.Status.REJECTED
    assert req.reason["code"] == "malformed" and req.reason["line"] == 1
    assert "not understood" in req.reason["message"]


def test_a_trailing_line_is_judged_as_written_while_the_seat_still_has_a_decision(alice, bob):
    # Caravelas: a movement step leaves the turn open, so "Thanks!" after it is not a sign-off.
    game = start_game("caravelas", alice, [bob])
    rules = engine.get("caravelas")
    assert game.state is not None
    seat = rules.pending(game.state)[0]
    mover = player_at(game, seat)
    first = rules.options(game.state, seat)[0]
    with pytest.raises(services.MoveRejected) as refused:
        services.do_submit_moves(game.pk, mover, [Command(code=first.code), Command(text="Thanks!")],
                                 source=Source.MAIL, signoff=True)
    assert refused.value.line_no == 2


def test_a_trailing_sign_off_is_ignored_once_the_seat_has_nothing_to_decide(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    card = _hand(game, seat_of(game, alice))[0]
    result = services.do_submit_moves(game.pk, alice, [Command(text=f"c{card}"), Command(text="Thanks!"),
                                                       Command(text="Alice")], source=Source.MAIL, signoff=True)
    assert result.ignored == ["Thanks!", "Alice"]
    assert [a.move for a in result.applied] == [{"code": f"c{card}"}]
    with pytest.raises(services.MoveRejected):  # the API and other doors judge every line
        services.do_submit_moves(game.pk, bob, [Command(text=f"c{_hand(game, seat_of(game, bob))[0]}"),
                                                Command(text="Thanks!")], source=Source.API)


def test_a_move_request_whose_task_was_lost_is_decided_by_the_sweeper(fake_game, alice, bob,
                                                                      django_capture_on_commit_callbacks):
    game = start_game(fake_game, alice, [bob])
    bid = f"c{_hand(game, seat_of(game, alice))[0]}"
    with django_capture_on_commit_callbacks(execute=False):  # the broker was away: the task never ran
        req = services.do_request_move(game.pk, alice, [Command(code=bid)])
    req.refresh_from_db()
    assert req.status == MoveRequest.Status.PENDING
    with django_capture_on_commit_callbacks(execute=True):
        assert services.do_requeue_move_requests() == 0  # young: its task may still be queued
    with django_capture_on_commit_callbacks(execute=True):
        later = timezone.now() + services.MOVE_REQUEST_LOST_AFTER + timedelta(seconds=1)
        assert services.do_requeue_move_requests(later) == 1
    req.refresh_from_db()
    assert req.status == MoveRequest.Status.ACCEPTED
    with django_capture_on_commit_callbacks(execute=True):
        services.do_requeue_move_requests(later)
        services.do_process_move_request(req.pk)
    assert Move.objects.filter(game=game).count() == 1


def _maracaibo_turn_the_game_ends_itself(game: Game) -> tuple[int, list[str]]:
    """Play the game's state on (fixed choices) to a turn whose sail and ``pass`` end it by
    themselves (nothing left to do in its main phase: the game ends the phase itself), and store
    it. The seat and that turn's lines: the farthest sail, ``pass``."""
    from engine import batch
    from tests.factories import set_state

    rules = engine.get("maracaibo")
    state = json.loads(json.dumps(game.state))
    rnd = random.Random(7)
    for _ in range(3000):
        seat = rules.pending(state)[0]
        options = rules.options(state, seat)
        sails = [o for o in options if o.label.startswith("sail ") and " Homeward: " not in o.label]
        if sails:
            lines = [max(sails, key=lambda o: int(o.label.split()[1])).code, "pass"]
            trial = json.loads(json.dumps(state))
            if batch.apply_batch(rules, trial, seat, [batch.Command(text=x) for x in lines]).ok \
                    and seat not in rules.pending(trial):
                set_state(game, state)
                return seat, lines
        rules.apply(state, seat, rnd.choice(options).move)
    raise AssertionError("no such turn")


def test_a_last_done_after_a_turn_the_game_ended_by_itself_is_ignored_by_mail(alice, bob):
    """'s7, pass, done': the main phase had nothing left, so the game ended it after pass; the
    'done' has nothing to apply to. By mail it is ignored like a sign-off (before, it was refused:
    the turn stood only if something was revealed, else the whole turn was undone)."""
    game = start_game("maracaibo", alice, [bob], options={"rounds": 1})
    seat, lines = _maracaibo_turn_the_game_ends_itself(game)
    mover = player_at(game, seat)
    result = services.do_submit_moves(game.pk, mover, [Command(text=x) for x in [*lines, "Done."]],
                                      source=Source.MAIL, signoff=True)
    assert result.ignored == ["Done."] and len([a for a in result.applied if a.seat == seat]) >= 2
