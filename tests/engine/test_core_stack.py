"""The shared decision stack: frames in the JSON state, automatic frames, simultaneous frames."""

from __future__ import annotations

import json

import pytest

from engine.core import Event, Option, State
from engine.errors import IllegalMove, NotYourTurn
from engine.rng import Rng, seed_to_state
from engine.stack import DecisionStack, Frame, FunctionHandler, StackError, frame


def _pick_options(state: State, f: Frame) -> list[Option]:
    return [Option(str(n), f"take {n}", {"n": n}) for n in f["data"]["choices"]]


def _pick_resolve(state: State, f: Frame, seat: int, option: Option, rng: Rng) -> list[Event]:
    state["taken"].append((seat, option.move["n"]))
    if f["data"].get("again", 0) > 0:
        state["stack"].append(frame("pick", seat, choices=f["data"]["choices"], again=f["data"]["again"] - 1))
    return [Event("pick", f"took {option.move['n']}")]


def _both_options(state: State, f: Frame) -> list[Option]:
    if f["seat"] in state["done"]:
        return []
    return [Option("a", "say a", {"w": "a"}), Option("b", "say b", {"w": "b"})]


def _both_resolve(state: State, f: Frame, seat: int, option: Option, rng: Rng) -> list[Event]:
    state["done"][str(seat)] = option.move["w"]
    stack.done_for(seat)
    return []


HANDLERS = {
    "pick": FunctionHandler(_pick_options, _pick_resolve),
    "both": FunctionHandler(_both_options, _both_resolve),
}
stack: DecisionStack


def _new() -> tuple[State, DecisionStack, Rng]:
    global stack
    state: State = {"rng": seed_to_state(1), "taken": [], "done": {}}
    stack = DecisionStack(state, HANDLERS)
    return state, stack, Rng(state)


def test_it_reads_pending_and_options_from_the_top_frame() -> None:
    _state, s, _ = _new()
    s.push_all([frame("pick", 1, choices=[1, 2]), frame("pick", 0, choices=[3, 4])])
    assert s.pending() == [1]
    assert [o.code for o in s.options(1)] == ["1", "2"]
    assert s.options(0) == []


def test_it_resolves_a_choice_then_asks_the_next_frame() -> None:
    state, s, rng = _new()
    s.push_all([frame("pick", 0, choices=[1, 2]), frame("pick", 1, choices=[3, 4])])
    s.choose(0, {"code": "2"}, rng)
    assert state["taken"] == [(0, 2)]
    assert s.pending() == [1]


def test_it_takes_a_single_forced_choice_without_asking() -> None:
    state, s, rng = _new()
    s.push_all([frame("pick", 0, choices=[1, 2]), frame("pick", 0, choices=[7]), frame("pick", 1, choices=[3, 4])])
    s.choose(0, {"code": "1"}, rng)
    assert state["taken"] == [(0, 1), (0, 7)]
    assert s.pending() == [1]


def test_it_asks_a_single_choice_when_the_frame_says_so() -> None:
    _state, s, rng = _new()
    s.push_all([frame("pick", 0, choices=[1, 2]), frame("pick", 0, choices=[7], ask=True)])
    s.choose(0, {"code": "1"}, rng)
    assert s.pending() == [0] and [o.code for o in s.options(0)] == ["7"]


def test_it_drops_a_frame_with_nothing_to_choose() -> None:
    _state, s, rng = _new()
    s.push_all([frame("pick", 0, choices=[1, 2]), frame("pick", 0, choices=[]), frame("pick", 1, choices=[5, 6])])
    s.choose(0, {"code": "1"}, rng)
    assert s.pending() == [1]


def test_it_lets_a_handler_push_its_frame_back() -> None:
    state, s, rng = _new()
    s.push(frame("pick", 0, choices=[1, 2], again=1))
    s.choose(0, {"code": "1"}, rng)
    assert s.pending() == [0]
    s.choose(0, {"code": "2"}, rng)
    assert state["taken"] == [(0, 1), (0, 2)] and s.pending() == []


def test_it_refuses_without_changing_anything() -> None:
    state, s, rng = _new()
    s.push(frame("pick", 0, choices=[1, 2]))
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove):
        s.choose(0, {"code": "9"}, rng)
    with pytest.raises(NotYourTurn):
        s.choose(1, {"code": "1"}, rng)
    assert json.dumps(state, sort_keys=True) == before


def test_it_keeps_a_simultaneous_frame_until_every_seat_has_chosen() -> None:
    state, s, rng = _new()
    s.push(frame("both", seats=[2, 0]))
    assert s.pending() == [0, 2]
    s.choose(2, {"code": "b"}, rng)
    assert s.pending() == [0] and s.options(2) == []
    s.choose(0, {"code": "a"}, rng)
    assert s.pending() == [] and state["done"] == {"2": "b", "0": "a"}


def test_it_survives_a_json_round_trip() -> None:
    state, s, _rng = _new()
    s.push_all([frame("pick", 0, choices=[1, 2]), frame("both", seats=[0, 1])])
    copy = json.loads(json.dumps(state))
    assert copy == state
    again = DecisionStack(copy, HANDLERS)
    assert again.pending() == s.pending()


def test_it_names_an_unknown_frame_kind() -> None:
    _state, s, _rng = _new()
    s.push(frame("nope", 0))
    with pytest.raises(StackError):
        s.options(0)
