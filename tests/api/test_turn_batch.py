"""A whole Maracaibo turn, with its sub-decisions, in one API request, as by mail: the codes (or the
notation lines) of every decision of the turn in one batch, one version step, and a trailing
"done" taken as the mail path takes it (ignored once the turn is over, and said so)."""

from __future__ import annotations

import copy
import random

import engine
from pbem.games import selectors
from pbem.games.models import Game, Move
from tests.factories import play_first_options, player_at, start_game, token_client


def _main_phase(game: Game) -> tuple[Game, int]:
    """Play the setup (each seat's first options) until one seat is in its main phase alone."""
    rules = engine.get("maracaibo")
    for _ in range(60):
        game.refresh_from_db()
        pending = rules.pending(game.state)
        if len(pending) == 1 and any(o.code.startswith("s") and o.code[1:].isdigit()
                                     for o in rules.options(game.state, pending[0])):
            return game, pending[0]
        play_first_options(game.pk, until_finished=False)
    raise AssertionError("no main phase reached")


def _a_turn(game: Game, seat: int, rnd: random.Random) -> list[tuple[str, str]]:
    """On a copy of the state: a whole turn of ``seat`` (its decisions until it waits no more), as (code, label)."""
    rules = engine.get("maracaibo")
    state = copy.deepcopy(game.state)
    steps = []
    while seat in rules.pending(state) and len(steps) < 40:
        options = rules.options(state, seat)
        sails = [o for o in options if o.code.startswith("s") and o.code[1:].isdigit()]
        opt = rnd.choice(sails) if not steps and sails else rnd.choice(options)
        steps.append((opt.code, opt.label))
        rules.apply(state, seat, opt.move)
    assert seat not in rules.pending(state)
    return steps


def _post(game: Game, seat: int, commands: list[dict]) -> dict:
    r = token_client(player_at(game, seat)).post(f"/api/v1/games/{game.pk}/moves/?wait=5", {"commands": commands},
                                                 format="json")
    assert r.status_code == 200, r.json()
    return r.json()


def test_it_takes_a_whole_turn_with_its_sub_decisions_in_one_request(alice, bob, transactional_db):
    game, seat = _main_phase(start_game("maracaibo", alice, [bob], {"rounds": 1}))
    turn = _a_turn(game, seat, random.Random(11))
    assert len(turn) >= 2, turn  # a sail and what follows it
    before = game.version
    body = _post(game, seat, [{"code": code} for code, _label in turn])
    game.refresh_from_db()
    assert body["status"] == "accepted" and game.version == before + 1
    assert Move.objects.filter(game=game, version=game.version).count() >= len(turn)
    assert seat not in selectors.waiting_for(game)


def test_it_reads_a_turn_written_as_by_mail_with_a_closing_done(alice, bob, transactional_db):
    game, seat = _main_phase(start_game("maracaibo", alice, [bob], {"rounds": 1}))
    turn = _a_turn(game, seat, random.Random(5))
    lines = [{"text": label} for _code, label in turn] + [{"text": "done"}]
    body = _post(game, seat, lines)
    game.refresh_from_db()
    assert body["status"] == "accepted" and seat not in selectors.waiting_for(game)
    assert body["commands"][-1] == {"text": "done", "ignored": True}
    assert all("ignored" not in c for c in body["commands"][:-1])

    # a "done" in the middle of a turn is no sign-off: refused, nothing applied
    game, seat = _main_phase(start_game("maracaibo", bob, [alice], {"rounds": 1}))
    turn = _a_turn(game, seat, random.Random(5))
    before = game.version
    r = token_client(player_at(game, seat)).post(
        f"/api/v1/games/{game.pk}/moves/?wait=5", {"commands": [{"code": turn[0][0]}, {"text": "thanks!"}]},
        format="json")
    game.refresh_from_db()
    assert r.status_code == 422 and game.version == before
