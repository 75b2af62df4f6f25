"""A reveal is a commit point, through the API: a refused batch gives nothing away.

The two attacks of issue 7: ``[draw, bogus]`` in Caravelas showed the four discovery cards a
draw would reveal and changed nothing, so it could be repeated; ``[b1, bogus]`` against
``[b2, bogus]`` in Maretta told which face-down barrel is which. Now a draw or a look stands
with the lines before it, and a batch refused before any reveal shows only the options as
they were before it.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

import pytest

import engine
from engine.batch import is_commit_point
from engine.games.caravelas import board
from pbem.games import services
from pbem.games.models import Game, Move, MoveRequest
from tests.factories import caravelas_ready_to_draw, maretta_at_barrels, player_at, start_game, token_client


@pytest.fixture
def decide(django_capture_on_commit_callbacks: Any) -> Callable[[Game, int, list[dict[str, Any]]], dict[str, Any]]:
    """POST commands as a player, let the worker decide (tasks run in process when the request's
    transaction commits), and read the decision back as the player does."""

    def post(game: Game, seat: int, commands: list[dict[str, Any]]) -> dict[str, Any]:
        client = token_client(player_at(game, seat))
        with django_capture_on_commit_callbacks(execute=True):
            r = client.post(f"/api/v1/games/{game.pk}/moves/", {"commands": commands}, format="json")
        assert r.status_code == 202, r.json()
        body: dict[str, Any] = client.get(r["Location"]).json()
        assert body["status"] in ("rejected", "partial"), body
        return body

    return post


def options_now(game: Game, seat: int) -> list[dict[str, object]]:
    """The seat's options as /options/ lists them, without their ``details`` (a rejection's options are
    the engine's: code, label, move)."""
    options: list[dict[str, object]] = token_client(player_at(game, seat)).get(
        f"/api/v1/games/{game.pk}/options/").json()["options"]
    return [{k: v for k, v in o.items() if k != "details"} for o in options]


def quiet_option(rules: engine.Rules, state: dict[str, object], seat: int) -> str:
    """An option that reveals nothing, uses no random numbers and leaves the seat to decide again."""
    for opt in rules.options(state, seat):
        trial = copy.deepcopy(state)
        events = rules.apply(trial, seat, opt.move)
        if not is_commit_point(state["rng"], trial, events) and seat in rules.pending(trial):
            return opt.code
    raise AssertionError("no quiet option")


def test_it_keeps_a_draw_that_a_later_bad_command_follows(alice, bob, decide):
    game = start_game("caravelas", alice, [bob])
    seat = caravelas_ready_to_draw(game)
    pile = list(game.state["dpile"][:4])
    body = decide(game, seat, [{"code": "draw"}, {"code": "bogus"}])
    reason = body["reason"]
    assert body["status"] == "partial" and reason["line"] == 2 and reason["version"] == game.version + 1
    assert [a["text"] for a in reason["applied"]] == ["draw"]
    drawn = [e["text"] for e in reason["applied"][0]["events"] if e["reveals"]]
    assert len(drawn) == 1 and all(board.name(c) in drawn[0] for c in pile)  # to the drawer, who keeps them
    game.refresh_from_db()
    assert game.state["stack"][-1] == {"k": "keep", "drawn": pile}  # the draw stands
    assert [m.move for m in Move.objects.filter(game=game)] == [{"act": "draw"}]
    assert reason["options"] == options_now(game, seat)  # keeping, from the state that stands
    # The peek cannot be repeated: drawing again is no longer possible.
    again = decide(game, seat, [{"code": "draw"}, {"code": "bogus"}])
    assert again["status"] == "rejected" and again["reason"]["line"] == 1 and again["reason"]["applied"] == []


def test_it_shows_the_options_before_the_batch_and_those_at_the_refused_line_when_nothing_was_revealed(
        alice, bob, decide):
    game = start_game("caravelas", alice, [bob])
    seat = caravelas_ready_to_draw(game)
    before = options_now(game, seat)
    rules = engine.get("caravelas")
    quiet = quiet_option(rules, game.state, seat)
    after = copy.deepcopy(game.state)
    rules.apply(after, seat, next(o.move for o in rules.options(after, seat) if o.code == quiet))
    body = decide(game, seat, [{"code": quiet}, {"code": "bogus"}])
    reason = body["reason"]
    assert body["status"] == "rejected" and reason["line"] == 2 and reason["applied"] == []
    assert reason["options"] == before and reason["rolled_back"] == [1]
    # the refused line is judged where it stands: after line 1 (undone with it, it revealed nothing)
    assert reason["allowed"] == [f"{o.code}: {o.label}" for o in rules.options(after, seat)]
    game.refresh_from_db()
    assert game.version == 1 and not Move.objects.filter(game=game).exists()


@pytest.mark.parametrize("taken", ["b1", "b2"])
def test_it_keeps_a_face_down_barrel_so_its_look_cannot_be_taken_back(alice, bob, carol, taken, decide):
    game = start_game("maretta", alice, [bob, carol])
    maretta_at_barrels(game, 0, [("mo", False), ("sp", False)])
    body = decide(game, 0, [{"code": taken}, {"code": "bogus"}])
    assert body["status"] == "partial" and body["reason"]["applied"][0]["text"] == taken
    game.refresh_from_db()
    assert [m.move for m in Move.objects.filter(game=game)] == [{"a": "barrel", "b": int(taken[1])}]
    assert len(game.state["bar"]["4"]) == 1  # the other barrel is still there: no second look
    # Nobody else learns which barrel it was from the log.
    log = token_client(player_at(game, 1)).get(f"/api/v1/games/{game.pk}/log/").json()
    seen = " ".join(e["text"] for row in log["results"] for e in row["events"])
    assert "takes a face-down barrel" in seen
    assert "look at it" not in seen and "has no effect" not in seen and "finds nothing" not in seen


def test_it_shows_nothing_of_face_up_barrels_taken_in_a_refused_batch(alice, bob, carol, decide):
    game = start_game("maretta", alice, [bob, carol])
    maretta_at_barrels(game, 0, [("mo", True), ("sp", True)])
    before = options_now(game, 0)
    answers = [decide(game, 0, [{"code": b}, {"code": "bogus"}])["reason"] for b in ("b1", "b2")]
    for reason in answers:
        assert reason["applied"] == [] and reason["options"] == before
    assert answers[0]["allowed"] == answers[1]["allowed"]
    assert MoveRequest.objects.filter(status=MoveRequest.Status.REJECTED).count() == 2


def test_it_decides_a_request_that_crashes_the_engine_as_an_internal_error(alice, bob, monkeypatch, decide):
    game = start_game("caravelas", alice, [bob])
    seat = engine.get("caravelas").pending(game.state)[0]
    rules = engine.get("caravelas")

    def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(type(rules), "_apply", broken)
    body = decide(game, seat, [{"code": rules.options(game.state, seat)[0].code}])
    assert body["status"] == "rejected" and body["reason"]["code"] == "internal_error"
    assert "nothing was changed" in body["reason"]["message"] and "a bug" not in body["reason"]["message"]
    game.refresh_from_db()
    assert game.version == 1


def test_it_stores_the_matched_options_move_without_the_extra_keys(alice, bob, django_capture_on_commit_callbacks):
    game = start_game("caravelas", alice, [bob])
    seat = engine.get("caravelas").pending(game.state)[0]
    opt = engine.get("caravelas").options(game.state, seat)[0]
    with django_capture_on_commit_callbacks(execute=True):
        req = services.do_request_move(game.pk, player_at(game, seat),
                                       [services.Command(move={"code": opt.code, "note": "x" * 50})])
    req.refresh_from_db()
    assert req.status == MoveRequest.Status.ACCEPTED
    assert Move.objects.get(game=game).move == opt.move
