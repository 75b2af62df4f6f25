"""OptionSpec coercion, Rules.check_options, the checks the Rules base adds, errors, registry, value types."""

from __future__ import annotations

import copy
import dataclasses
import json
import pickle
from typing import Any

import pytest

import engine
from engine import registry
from engine.core import Event, Option, OptionSpec, Outcome, new_event, new_option, option_by_code, visible_events
from engine.errors import EngineError, GameOver, IllegalMove, Malformed, NotYourTurn, SetupError, UnknownGame
from tests.engine import toy_games as toy

# ---- OptionSpec.coerce ------------------------------------------------------------------

BOOL = OptionSpec("cuttlefish", "bool", True, "use the cuttlefish barrels")
INT = OptionSpec("distance", "int", 3, "steamship distance", min=1, max=6)
CHOICE = OptionSpec("side", "choice", "A", "board side", choices=("A", "B"))
LIST = OptionSpec("reefs", "intlist", [4, 9], "reef spaces", min=1, max=20)


@pytest.mark.parametrize("raw", [True, "yes", "YES", "true", "on", "1", "y", " Yes "])
def test_bool_true(raw: Any) -> None:
    assert BOOL.coerce(raw) is True


@pytest.mark.parametrize("raw", [False, "no", "False", "off", "0", "n"])
def test_bool_false(raw: Any) -> None:
    assert BOOL.coerce(raw) is False


@pytest.mark.parametrize("raw", ["maybe", "2", None, 3])
def test_bool_refuses(raw: Any) -> None:
    with pytest.raises(SetupError, match="cuttlefish takes yes or no"):
        BOOL.coerce(raw)


@pytest.mark.parametrize(("raw", "value"), [(4, 4), ("4", 4), (" 5 ", 5), ("1", 1), (6, 6)])
def test_int(raw: Any, value: int) -> None:
    assert INT.coerce(raw) == value


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("four", "takes a whole number"),
        ("4.5", "takes a whole number"),
        (True, "takes a whole number"),  # a bool is not a number here
        (0, "at least 1"),
        ("7", "at most 6"),
    ],
)
def test_int_refuses(raw: Any, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        INT.coerce(raw)


def test_choice_folds_case_and_returns_the_canonical_value() -> None:
    assert CHOICE.coerce("b") == "B"
    assert CHOICE.coerce("A") == "A"
    accented = OptionSpec("lava", "choice", "lenta", "lava speed", choices=("lenta", "rápida"))
    assert accented.coerce("RAPIDA") == "rápida"


def test_choice_refuses_listing_the_choices() -> None:
    with pytest.raises(SetupError, match="side must be one of A, B, not 'C'"):
        CHOICE.coerce("C")


@pytest.mark.parametrize(("raw", "value"), [("3, 8 12", [3, 8, 12]), ([2, "5"], [2, 5]), ("", []), ((1,), [1])])
def test_intlist(raw: Any, value: list[int]) -> None:
    assert LIST.coerce(raw) == value


@pytest.mark.parametrize(("raw", "message"), [("3 x", "whole number"), ("0 4", "at least 1"), (7, "list of numbers")])
def test_intlist_refuses(raw: Any, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        LIST.coerce(raw)


def test_option_spec_as_dict_is_json() -> None:
    d = INT.as_dict()
    assert d == {"name": "distance", "type": "int", "default": 3, "help": "steamship distance", "min": 1, "max": 6}
    assert CHOICE.as_dict()["choices"] == ["A", "B"]
    assert "choices" not in BOOL.as_dict() and "min" not in BOOL.as_dict()
    json.dumps([s.as_dict() for s in (BOOL, INT, CHOICE, LIST)])


# ---- Rules.check_options ------------------------------------------------------------------

RULES = toy.Guess()


def test_check_options_fills_defaults() -> None:
    assert RULES.check_options(2, None) == {
        "rounds": 2, "high": 4, "scoring": "closest", "public_target": False, "banned": [],
    }
    assert RULES.check_options(2, {"rounds": "5", "public_target": "yes"})["rounds"] == 5


@pytest.mark.parametrize("n", [0, 1, 3, 7])
def test_bad_player_count(n: int) -> None:
    with pytest.raises(SetupError, match=f"Guess is for 2 to 2 players, not {n}"):
        RULES.check_options(n, None)


def test_unknown_option_lists_the_known_ones() -> None:
    with pytest.raises(SetupError) as caught:
        RULES.check_options(2, {"colour": "red", "rounds": 2})
    msg = str(caught.value)
    assert "unknown option colour for Guess" in msg
    assert "known options: rounds, high, scoring, public_target, banned" in msg


def test_bad_value_names_the_option() -> None:
    with pytest.raises(SetupError, match="rounds must be at most 9, not 10"):
        RULES.check_options(2, {"rounds": 10})
    with pytest.raises(SetupError, match="scoring must be one of closest, exact"):
        RULES.check_options(2, {"scoring": "loudest"})


def test_cross_option_check() -> None:
    with pytest.raises(SetupError, match="leaves no number"):
        RULES.check_options(2, {"high": 2, "banned": "1 2"})


def test_setup_puts_players_options_and_rng_in_the_state() -> None:
    state = RULES.setup(["Ana", "Bruno"], {"rounds": "3"}, seed="abc")
    assert state["game"] == "guess"
    assert state["players"] == ["Ana", "Bruno"]
    assert state["options"]["rounds"] == 3
    assert isinstance(state["rng"], str)
    assert json.loads(json.dumps(state)) == state
    assert RULES.setup(["Ana", "Bruno"], {"rounds": "3"}, seed="abc") == state
    with pytest.raises(SetupError):
        RULES.setup(["Ana"], None, seed=1)


# ---- what the Rules base checks for every game -----------------------------------------------


def finished_state() -> dict[str, Any]:
    state = RULES.setup(["Ana", "Bruno"], {"rounds": 1}, seed=1)
    RULES.apply(state, 0, {"code": "p1"})
    RULES.apply(state, 1, {"code": "p2"})
    return state


def test_not_your_turn_names_who_is_awaited() -> None:
    state = RULES.setup(["Ana", "Bruno"], None, seed=1)
    RULES.apply(state, 0, {"code": "p1"})
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(NotYourTurn, match="waits for Bruno") as caught:
        RULES.apply(state, 0, {"code": "p2"})
    assert caught.value.code == "not_your_turn"
    assert json.dumps(state, sort_keys=True) == before
    assert RULES.options(state, 0) == []
    assert [o.code for o in RULES.options(state, 1)] == ["p1", "p2", "p3", "p4"]


def test_illegal_move_lists_what_is_allowed() -> None:
    state = RULES.setup(["Ana", "Bruno"], None, seed=1)
    with pytest.raises(IllegalMove, match="p9 is not a legal choice now") as caught:
        RULES.apply(state, 0, {"code": "p9"})
    assert caught.value.allowed == ("p1: pick 1", "p2: pick 2", "p3: pick 3", "p4: pick 4")
    assert caught.value.as_dict()["code"] == "illegal"
    with pytest.raises(IllegalMove, match="must be an object"):
        RULES.apply(state, 0, ["p1"])  # type: ignore[arg-type]


def test_game_over_refuses_everything() -> None:
    state = finished_state()
    assert RULES.outcome(state) is not None
    assert RULES.pending(state) == []
    assert RULES.options(state, 0) == []
    with pytest.raises(GameOver, match="game is over") as caught:
        RULES.apply(state, 0, {"code": "p1"})
    assert caught.value.code == "game_over"
    with pytest.raises(GameOver):
        RULES.parse("p1", state, 0)


def test_parse_when_not_pending() -> None:
    state = RULES.setup(["Ana", "Bruno"], None, seed=1)
    RULES.apply(state, 0, {"code": "p1"})
    with pytest.raises(NotYourTurn, match="nothing for you to decide"):
        RULES.parse("p2", state, 0)


def test_parse_uses_game_notation_then_option_codes() -> None:
    state = RULES.setup(["Ana", "Bruno"], None, seed=1)
    assert RULES.parse("three", state, 0) == {"pick": 3}
    assert RULES.parse("Pick 2", state, 1) == {"pick": 2}
    assert RULES.parse("P4", state, 1) == {"pick": 4}
    with pytest.raises(Malformed):
        RULES.parse("jump", state, 0)


@pytest.mark.parametrize("name", ["maretta", "caravelas", "maracaibo"])
def test_the_contract_runs_a_hook_patched_on_the_class(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # Why: tests elsewhere make a move crash or a parser fail by patching the game's class or
    # instance; compiled, the contract must still find the hooks as Python does (engine/core.py)
    rules = engine.get(name)
    state = rules.setup(["Ana", "Bruno", "Carla"][:max(rules.min_players, 2)], None, seed=1)
    seat = rules.pending(state)[0]
    code = rules.options(state, seat)[0].code

    def broken(*args: object) -> Any:
        raise ZeroDivisionError("a bug")

    monkeypatch.setattr(type(rules), "_apply", broken)
    with pytest.raises(ZeroDivisionError):
        rules.apply(state, seat, {"code": code})
    monkeypatch.setattr(type(rules), "_parse", broken)
    with pytest.raises(ZeroDivisionError):
        rules.read(code, state, seat)


def test_a_parser_set_on_a_game_object_is_the_one_read_uses(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = toy.Guess()
    state = rules.setup(["Ana", "Bruno"], None, seed=1)
    assert rules.read("three", state, 0).move == {"pick": 3}
    monkeypatch.setattr(rules, "_parse", lambda *args: {"pick": 1})
    assert rules.read("three", state, 0).move == {"pick": 1}


def test_describe_move() -> None:
    state = RULES.setup(["Ana", "Bruno"], None, seed=1)
    assert RULES.describe_move(state, 0, {"pick": 2}) == "pick 2"
    assert RULES.describe_move(state, 0, {"pick": 99}) == '{"pick": 99}'


def test_option_by_code_by_structure() -> None:
    opts = [Option("a", "alpha", {"x": 1}), Option("b", "beta", {"x": 2})]
    assert option_by_code(opts, {"code": "b"}).label == "beta"
    assert option_by_code(opts, {"x": 1}).code == "a"
    with pytest.raises(IllegalMove) as caught:
        option_by_code(opts, {"x": 3})
    assert '{"x": 3} is not a legal choice now' in str(caught.value)
    assert caught.value.allowed == ("a: alpha", "b: beta")


# ---- errors, events, outcome, registry --------------------------------------------------------


def test_error_family() -> None:
    for cls in (SetupError, UnknownGame, IllegalMove, NotYourTurn, GameOver, Malformed):
        assert issubclass(cls, EngineError)
    assert issubclass(SetupError, ValueError)
    assert {c.code for c in (IllegalMove, NotYourTurn, GameOver, Malformed)} == {
        "illegal", "not_your_turn", "game_over", "malformed",
    }
    err = Malformed("what?", ["a", "b"])
    assert err.as_dict() == {"code": "malformed", "message": "what?", "allowed": ["a", "b"]}
    assert str(UnknownGame("no game called 'x'")) == "no game called 'x'"


def test_event_visibility_and_round_trip() -> None:
    public = Event("move", "Ana moves 3", {"n": 3})
    private = Event("draw", "you draw 2 wood", {"cards": [2]}, to=(1,), reveals=True)
    events = [public, private]
    assert visible_events(events, None) == [public]
    assert visible_events(events, 0) == [public]
    assert visible_events(events, 1) == [public, private]
    for e in events:
        d = json.loads(json.dumps(e.as_dict()))
        assert Event.from_dict(d) == e


def test_the_fast_builders_make_the_same_frozen_values_as_the_constructors() -> None:
    made = [(new_option("3wo", "play 3 Wood", {"a": "play", "c": "3wo"}),
             Option("3wo", "play 3 Wood", {"a": "play", "c": "3wo"})),
            (new_event("draw", "you draw", {"cards": [2]}, (1,), True),
             Event("draw", "you draw", {"cards": [2]}, to=(1,), reveals=True)),
            (new_event("move", "Ana moves", {}), Event("move", "Ana moves"))]
    for fast, built in made:
        assert type(fast) is type(built)
        assert fast == built and repr(fast) == repr(built) and fast.as_dict() == built.as_dict()
        assert pickle.loads(pickle.dumps(fast)) == built
        assert copy.deepcopy(fast) == built and copy.copy(fast) == built
        assert dataclasses.replace(fast) == built and dataclasses.astuple(fast) == dataclasses.astuple(built)
        name = dataclasses.fields(built)[0].name
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(fast, name, "changed")
        assert not hasattr(fast, "__dict__")


def test_outcome_as_dict() -> None:
    out = Outcome({0: 3, 1: 3, 2: 1}, ((0, 1), (2,)), "steamship boarded")
    assert out.winners == (0, 1)
    assert out.as_dict() == {
        "scores": {"0": 3, "1": 3, "2": 1}, "ranking": [[0, 1], [2]], "winners": [0, 1], "reason": "steamship boarded",
    }
    # whole scores stay whole (compiled, a value read as a float would become one: 3.0 in the views)
    assert [type(v) for v in out.as_dict()["scores"].values()] == [int, int, int]
    assert Outcome({}, (), "abandoned").winners == ()


def test_registry_unknown_game_lists_names() -> None:
    with pytest.raises(UnknownGame) as caught:
        registry.get("chess")
    assert "no game called 'chess'" in str(caught.value)
    for name in registry.names():
        assert name in str(caught.value)


def test_registry_finds_a_registered_module(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._MODULES, "guess", "tests.engine.toy_games")
    monkeypatch.setattr(registry, "_loaded", {})
    assert "guess" in registry.names()
    assert registry.get(" Guess ") is toy.RULES
    assert engine.get("guess") is toy.RULES
