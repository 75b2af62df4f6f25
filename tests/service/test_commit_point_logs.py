"""Nothing of a crash in a rolled-back state reaches a log.

A batch whose line crashes the engine only after quiet lines (rolled back with it) is decided as
an internal error; what the service logs is the crash of that line alone on the state that stands,
or a generic BatchCrash, never the exception raised in the rolled-back state.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

import pytest

import engine
from engine.batch import is_commit_point
from pbem.games import services
from pbem.games.models import MoveRequest
from tests.factories import player_at, start_game

SENTINEL = "ROLLED-BACK-STATE"


def quiet_option(rules: engine.Rules, state: dict[str, Any], seat: int) -> str:
    for opt in rules.options(state, seat):
        trial = copy.deepcopy(state)
        events = rules.apply(trial, seat, opt.move)
        if not is_commit_point(state["rng"], trial, events) and seat in rules.pending(trial):
            return opt.code
    raise AssertionError("no quiet option")


def test_it_logs_nothing_of_a_crash_in_a_rolled_back_state(alice, bob, monkeypatch, caplog,
                                                           django_capture_on_commit_callbacks):
    game = start_game("caravelas", alice, [bob])
    rules = engine.get("caravelas")
    seat = rules.pending(game.state)[0]
    quiet = quiet_option(rules, game.state, seat)
    standing = copy.deepcopy(game.state)
    original = type(rules)._apply

    def telltale(self: Any, state: dict[str, Any], s: int, move: dict[str, Any], rng: Any) -> Any:
        if move.get("code") == "crash" and state != standing:
            raise RuntimeError(f"{SENTINEL}: {state['rng']}")
        return original(self, state, s, move, rng)

    monkeypatch.setattr(type(rules), "_apply", telltale)
    with django_capture_on_commit_callbacks(execute=False):
        req = services.do_request_move(game.pk, player_at(game, seat), [services.Command(code=quiet),
                                                                        services.Command(code="crash")])
    with caplog.at_level(logging.DEBUG):
        services.do_process_move_request(req.pk)
    req.refresh_from_db()
    assert req.status == MoveRequest.Status.REJECTED and req.reason["code"] == "internal_error"
    logged = "\n".join(caplog.text.splitlines())
    assert "BatchCrash" in logged and "line 2" in logged  # the operator still learns which line failed
    assert SENTINEL not in logged and SENTINEL not in str(req.reason)
    game.refresh_from_db()
    assert game.version == 1 and game.state == standing


def test_it_refuses_a_line_wrong_only_after_undone_lines_for_the_reason_where_it_stands(alice, bob):
    game = start_game("caravelas", alice, [bob])
    rules = engine.get("caravelas")
    seat = rules.pending(game.state)[0]
    quiet = quiet_option(rules, game.state, seat)
    after = copy.deepcopy(game.state)
    rules.apply(after, seat, next(o.move for o in rules.options(after, seat) if o.code == quiet))
    with pytest.raises(services.MoveRejected) as info:
        services.do_submit_moves(game.pk, player_at(game, seat), [services.Command(code=quiet),
                                                                  services.Command(code=quiet)], source="api")
    body = info.value.as_dict()
    assert body["line"] == 2 and body["rolled_back"] == [1] and body["applied"] == []
    # the same move twice: judged after line 1 (which revealed nothing and was undone), with the
    # options there; the options now are those of the game as it stands
    assert body["code"] != "not_after_undone" and "cannot follow" not in body["message"]
    assert body["allowed"] == [f"{o.code}: {o.label}" for o in rules.options(after, seat)]
    assert body["options"] == [o.as_dict() for o in rules.options(game.state, seat)]


def test_a_request_that_fails_after_its_move_is_written_changes_nothing_and_is_decided(
        alice, bob, monkeypatch, django_capture_on_commit_callbacks):
    """The move-request task records an internal error in the transaction that judged the moves,
    so the move's own writes are undone to a savepoint first (issue 28 left it only to the mail
    path, which ends its whole transaction on any error): no move row stays, the request is decided."""
    from pbem.games.models import Move
    from pbem.mail import outbox

    game = start_game("caravelas", alice, [bob])
    rules = engine.get("caravelas")
    seat = rules.pending(game.state)[0]
    quiet = quiet_option(rules, game.state, seat)

    def failing(*args: Any, **kwargs: Any) -> None:  # a fault after the move row was written
        raise RuntimeError("the outbox failed")

    monkeypatch.setattr(outbox, "queue_game_update", failing)
    with django_capture_on_commit_callbacks(execute=False):
        req = services.do_request_move(game.pk, player_at(game, seat), [services.Command(code=quiet)])
    services.do_process_move_request(req.pk)
    req.refresh_from_db()
    assert req.status == MoveRequest.Status.REJECTED and req.reason["code"] == "internal_error"
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.version == 1 and game.moves_recorded == 0
