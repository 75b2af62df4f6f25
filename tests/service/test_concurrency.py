"""Row locking on real PostgreSQL: concurrent submissions never lose an update."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from pbem.games import services
from pbem.games.models import Game, Move, Source
from pbem.games.services import Command
from tests.factories import seat_of, start_game

pytestmark = [pytest.mark.postgres]


def _race(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls at the same moment on their own threads (and connections); results or exceptions."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = call()
        except Exception as exc:  # noqa: BLE001 - the test inspects what each thread met
            results[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


def test_simultaneous_moves_of_two_seats_are_both_kept(fake_game, alice, bob, transactional_db):
    game = start_game(fake_game, alice, [bob], options={"rounds": 5})
    a, b = seat_of(game, alice), seat_of(game, bob)
    for round_no in range(1, 6):
        game.refresh_from_db()
        assert game.state["round"] == round_no
        bid_a = Command(code=f"c{game.state['hands'][a][0]}")
        bid_b = Command(code=f"c{game.state['hands'][b][0]}")
        results = _race(
            lambda bid=bid_a: services.do_submit_moves(game.pk, alice, [bid], source=Source.API),
            lambda bid=bid_b: services.do_submit_moves(game.pk, bob, [bid], source=Source.API),
        )
        assert all(isinstance(r, services.BatchResult) for r in results), results
        assert sorted(r.version for r in results) == [2 * round_no, 2 * round_no + 1]
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.version == 11
    assert list(Move.objects.filter(game=game).values_list("number", flat=True)) == list(range(1, 11))
    # Every bid of both players is in the revealed rounds: nothing was overwritten.
    assert len(game.state["revealed"]) == 5 and all(None not in r for r in game.state["revealed"])


def test_two_batches_for_the_same_decision_apply_exactly_one(fake_game, alice, bob, transactional_db):
    game = start_game(fake_game, alice, [bob])
    hand = game.state["hands"][seat_of(game, alice)]
    results = _race(
        lambda: services.do_submit_moves(game.pk, alice, [Command(code=f"c{hand[0]}")], source=Source.API),
        lambda: services.do_submit_moves(game.pk, alice, [Command(code=f"c{hand[1]}")], source=Source.MAIL),
    )
    accepted = [r for r in results if isinstance(r, services.BatchResult)]
    rejected = [r for r in results if isinstance(r, services.MoveRejected)]
    assert len(accepted) == 1 and len(rejected) == 1, results
    assert rejected[0].as_dict()["code"] == "not_your_turn"
    game.refresh_from_db()
    assert game.version == 2 and Move.objects.filter(game=game).count() == 1


def test_a_stale_expected_version_loses_the_race_cleanly(fake_game, alice, bob, transactional_db):
    game = start_game(fake_game, alice, [bob])
    a, b = seat_of(game, alice), seat_of(game, bob)
    results = _race(
        lambda: services.do_submit_moves(game.pk, alice, [Command(code=f"c{game.state['hands'][a][0]}")],
                                         source=Source.API, expected_version=1),
        lambda: services.do_submit_moves(game.pk, bob, [Command(code=f"c{game.state['hands'][b][0]}")],
                                         source=Source.API, expected_version=1),
    )
    assert sum(isinstance(r, services.BatchResult) for r in results) == 1
    assert sum(isinstance(r, services.StaleVersion) for r in results) == 1
    game.refresh_from_db()
    assert game.version == 2
