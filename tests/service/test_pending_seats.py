"""``Game.pending_seats``: whom the state waits for, stored with every write of the state (and
``Game.seat_names``, the seats' names in the game, the same way: #20).

The lobby reads the column instead of decoding 50 states (issue 12), so after every kind
of write that changes a state (moves, the start, undo, resignations and their autoplay,
the deadline's default and bot moves, a moderator's move, rollback, pause and resume,
replacement, a player's rename, the end, an abort) the column must say what decoding
the state says, and the lobby entry must show it.
"""

from __future__ import annotations

import importlib
import random
from datetime import timedelta

import time_machine
from django.apps import apps as django_apps
from django.test import Client

import engine
from pbem.games import moderation, selectors, services
from pbem.games.models import Game, Player, Source
from pbem.games.services import Command
from tests.factories import play_first_options, seat_of, start_game


def _assert_stored_equals_decoded(game_id: int) -> Game:
    game = Game.objects.get(pk=game_id)
    if game.state is None:
        assert game.pending_seats is None and game.seat_names is None
    else:
        assert game.pending_seats == engine.get(game.rules).pending(game.state)
        assert game.seat_names == game.state["players"]  # the seats' names in the game (#20)
    # and the lobby shows exactly that, without reading the state
    entry = next(g for g in Client().get("/api/v1/games/?limit=200").json()["results"] if g["id"] == game_id)
    decoded = (engine.get(game.rules).pending(game.state)
               if game.state is not None and game.status in (Game.Status.RUNNING, Game.Status.PAUSED) else [])
    assert entry["waiting_for"] == decoded
    assert [s["index"] for s in entry["seats"] if s["waiting"]] == sorted(decoded)
    if game.state is not None:  # and names each seat as the game does, without reading the state
        assert [s["name"] for s in entry["seats"]] == game.state["players"]
    return game


def _bid(game_id: int, player: Player, pick: int = 0) -> None:
    game = Game.objects.get(pk=game_id)
    assert game.state is not None
    card = game.state["hands"][seat_of(game, player)][pick]
    services.do_submit_moves(game_id, player, [Command(code=f"c{card}")], source=Source.API)


def test_it_stores_whom_the_game_waits_for_after_the_start_moves_undo_and_the_end(fake_game, alice, bob, carol):
    game = services.do_create_game(alice, fake_game, invite=[bob.email, carol.email])
    _assert_stored_equals_decoded(game.pk)  # no state yet: None
    services.do_join_game(game.pk, bob)
    services.do_join_game(game.pk, carol)
    game = _assert_stored_equals_decoded(game.pk)
    assert len(game.pending_seats or []) == 3  # simultaneous bids: everyone
    _bid(game.pk, alice)
    game = _assert_stored_equals_decoded(game.pk)
    assert seat_of(game, alice) not in (game.pending_seats or [])
    services.do_undo_last_move(game.pk, alice, via="api")
    game = _assert_stored_equals_decoded(game.pk)
    assert seat_of(game, alice) in (game.pending_seats or [])
    play_first_options(game.pk)
    game = _assert_stored_equals_decoded(game.pk)
    assert game.status == Game.Status.FINISHED and game.pending_seats == []


def test_it_stores_it_after_a_resignation_autoplays_and_after_pause_resume_and_abort(
        fake_game, alice, bob, carol, moderator):
    game = start_game(fake_game, alice, [bob, carol])
    _bid(game.pk, alice)
    _bid(game.pk, bob)
    services.do_resign(game.pk, carol)  # carol's seat is autoplayed: the round resolves
    game = _assert_stored_equals_decoded(game.pk)
    moderation.do_pause_game(game.pk, moderator, "a storm")
    _assert_stored_equals_decoded(game.pk)
    moderation.do_resume_game(game.pk, moderator, "calm again")
    _assert_stored_equals_decoded(game.pk)
    moderation.do_abort_game(game.pk, moderator, "misdeal")
    game = _assert_stored_equals_decoded(game.pk)
    assert game.pending_seats is not None  # the stored value stays; the lobby shows nobody for an aborted game


def test_it_stores_it_after_deadline_moves_a_moderator_move_and_a_rollback(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob], deadline_hours=48)
    _bid(game.pk, alice)
    game = _assert_stored_equals_decoded(game.pk)
    for _ in range(3):  # warning, reminder, then the declared default move
        game = Game.objects.get(pk=game.pk)
        assert game.deadline_at is not None
        with time_machine.travel(game.deadline_at + timedelta(minutes=1), tick=False):
            moderation.do_sweep_deadlines()
        _assert_stored_equals_decoded(game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.moves.filter(source=Source.DEADLINE).exists()
    assert game.state is not None
    waiting = engine.get(game.rules).pending(game.state)
    seat = waiting[0]
    hand = game.state["hands"][seat]
    moderation.do_move_for_seat(game.pk, moderator, seat, [Command(code=f"c{hand[0]}")], "sent by phone")
    _assert_stored_equals_decoded(game.pk)
    moderation.do_rollback(game.pk, moderator, 0, "a misdeal", confirm_reveals=True)
    game = _assert_stored_equals_decoded(game.pk)
    assert sorted(game.pending_seats or []) == [0, 1]


def test_it_stores_it_after_a_replacement_and_a_rename_that_rewrite_the_state_without_a_move(
        alice, bob, carol, dave, moderator):
    """A rename rewrites the names in the state without a new version: the column is written
    with the state all the same (a version-keyed cache would have kept the old entry)."""
    game = start_game("maretta", alice, [bob, carol], options={"side": "A"})
    rnd = random.Random("pending-seats")
    rules = engine.get("maretta")
    for _ in range(5):
        game = Game.objects.get(pk=game.pk)
        assert game.state is not None
        seat = rules.pending(game.state)[0]
        code = rnd.choice(rules.options(game.state, seat)).code
        player = game.seats.get(index=seat).player
        services.do_submit_moves(game.pk, player, [Command(code=code)], source=Source.MAIL)
        _assert_stored_equals_decoded(game.pk)
    version = Game.objects.get(pk=game.pk).version
    services.do_update_preferences(bob, display_name="Roberto")
    game = _assert_stored_equals_decoded(game.pk)
    assert game.version == version and "Roberto" in game.state["players"]
    moderation.do_replace_player(game.pk, moderator, seat_of(game, carol), dave, "Carol moved abroad")
    game = _assert_stored_equals_decoded(game.pk)
    assert "Dave" in game.state["players"]


def test_it_writes_the_column_with_a_save_that_names_only_the_state(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    _bid(game.pk, alice)
    game = Game.objects.get(pk=game.pk)
    assert game.state is not None
    stale = list(game.pending_seats or [])
    # a state written by hand through save(update_fields=["state"]), as the rename does
    game.state = engine.get(game.rules).setup(game.state["players"], game.options, game.seed)
    game.save(update_fields=["state"])
    fresh = _assert_stored_equals_decoded(game.pk)
    assert fresh.pending_seats != stale


def test_it_backfills_existing_games_in_the_migration(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    _bid(game.pk, alice)
    Game.objects.filter(pk=game.pk).update(pending_seats=None)  # as a game written before the column
    migration = importlib.import_module("pbem.games.migrations.0009_game_pending_seats")
    migration.backfill(django_apps, None)
    _assert_stored_equals_decoded(game.pk)


def test_it_backfills_the_seats_names_in_the_migration(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    Game.objects.filter(pk=game.pk).update(seat_names=None)  # as a game written before the column (#20)
    migration = importlib.import_module("pbem.games.migrations.0030_game_seat_names")
    migration.backfill(django_apps, None)
    assert _assert_stored_equals_decoded(game.pk).seat_names == ["Alice", "Bob"]


def test_it_leaves_the_lobby_waiting_for_nobody_when_the_game_is_not_under_way(fake_game, alice, bob):
    game = services.do_create_game(alice, fake_game, invite=[bob.email])
    assert selectors.waiting_for(Game.objects.get(pk=game.pk)) == []
    assert not selectors.is_dealt(Game.objects.get(pk=game.pk))
    _assert_stored_equals_decoded(game.pk)
