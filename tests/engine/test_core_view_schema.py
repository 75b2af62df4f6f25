"""Each game declares the JSON Schema of its views (Rules.view_schema); real views match it.

Views are taken from seeded games played by each game's own bot (random choices where it has
none): every seat and the spectator, at several points and at the end, solo Maracaibo too, and
Maracaibo in every mode the Uprising adds (basic, 78, 79, the cooperative 74 and 193, the
campaigns, Jacques), whose views carry keys the base game's do not.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import jsonschema
import pytest

import engine
from engine.core import Rules
from engine.rng import Rng, seed_to_state
from engine.testing import choose, player_names
from tests.fakegame import RULES as BLINDBIDS

CASES: list[tuple[str, int, dict[str, Any] | None]] = [
    ("blindbids", 2, None), ("blindbids", 4, {"deck": "long"}),
    ("maretta", 3, {"side": "A"}), ("maretta", 5, {"side": "B"}),
    ("caravelas", 2, None), ("caravelas", 4, None),
    ("maracaibo", 1, None), ("maracaibo", 2, None), ("maracaibo", 4, None),
]

#: Maracaibo's expansion modes: each adds keys to the view (home ports, the resistance tile, the
#: liberation tile, fights for and against, Jacques, The Search, the team result, the story).
EXPANSION: list[tuple[int, dict[str, Any]]] = [
    (2, {"mode": "basic"}), (3, {"mode": "78"}), (4, {"mode": "79"}), (2, {"mode": "79", "promos": True}),
    (1, {"mode": "74"}), (2, {"mode": "74"}), (1, {"mode": "193"}), (3, {"mode": "193"}),
    (1, {"automa": "jacques"}), (2, {"campaign": True}),
    (2, {"mode": "campaign", "campaign": True}), (1, {"mode": "campaign", "campaign": True, "automa": "jacques"}),
    (2, {"mode": "campaign_base", "campaign": True}),
]
EXPANSION_IDS = [f"{n}-" + "-".join(f"{k}={v}" for k, v in o.items()) for n, o in EXPANSION]
CASES += [("maracaibo", n, o) for n, o in EXPANSION]


def _rules(name: str) -> Rules:
    return BLINDBIDS if name == "blindbids" else engine.get(name)


def _moments(rules: Rules, n: int, options: dict[str, Any] | None, seed: int, every: int = 11) -> list[Any]:
    """Copies of one seeded game's state every few steps from the start, and at the end."""
    rnd = random.Random(seed)
    state = rules.setup(player_names(n), options, seed)
    states = []
    for step in range(20_000):
        over = rules.outcome(state) is not None
        if step % every == 0 or over:
            states.append(copy.deepcopy(state))
        if over:
            break
        seat = rnd.choice(rules.pending(state))
        rules.apply(state, seat, choose(rules, state, seat, rules.options(state, seat), rnd).move)
    assert rules.outcome(state) is not None, "the game should be over: its final views are checked too"
    return states


def _views(rules: Rules, n: int, options: dict[str, Any] | None, seed: int) -> list[dict[str, Any]]:
    """Every seat's and the spectator's view every few steps and at the end of one seeded game."""
    return [copy.deepcopy(rules.view(state, seat)) for state in _moments(rules, n, options, seed)
            for seat in [None, *range(n)]]


@pytest.mark.parametrize(("name", "n", "options"), CASES,
                         ids=[f"{c[0]}-{c[1]}" for c in CASES[:-len(EXPANSION)]] + EXPANSION_IDS)
def test_it_matches_every_view_of_a_seeded_game_with_the_declared_schema(name: str, n: int,
                                                                           options: dict[str, Any] | None) -> None:
    rules = _rules(name)
    schema = rules.view_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    views = _views(rules, n, options, seed=7)
    assert len(views) >= 2 * (n + 1)  # the start and the end at least
    for view in views:
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(view)]
        assert not errors, f"seat {view.get('seat')}: {errors[:3]}"


@pytest.mark.parametrize(("n", "options"), EXPANSION, ids=EXPANSION_IDS)
def test_it_shows_a_seat_nothing_of_the_others_hidden_parts_in_every_expansion_mode(n: int,
                                                                                 options: dict[str, Any]) -> None:
    """A seat's view is the same whatever the others hold: their hands, the cards and home ports they
    were dealt, the token draws, the piles (Rules.resample_hidden deals those anew), at the start,
    every few steps and at the end; the players' part shows a hand as a count and no setup."""
    rules = engine.get("maracaibo")
    changed = 0
    for i, state in enumerate(_moments(rules, n, options, seed=11, every=17)):
        for seat in [None, *range(n)]:
            view = rules.view(state, seat)
            assert all(isinstance(p["hand"], int) and "setup" not in p for p in view["p"])
            assert ("me" in view) == (seat is not None)
            other = rules.resample_hidden(copy.deepcopy(state), seat, Rng({"rng": seed_to_state(f"hidden-{i}-{seat}")}))
            changed += other != state
            assert rules.view(other, seat) == view, f"seat {seat} at moment {i} sees a hidden part"
    assert changed, "the resampling never changed anything: the test proved nothing"


@pytest.mark.parametrize("name", ["blindbids", *engine.names()])
def test_it_refuses_a_view_missing_a_required_key_or_with_an_unknown_one(name: str) -> None:
    rules = _rules(name)
    schema = rules.view_schema()
    assert schema["type"] == "object" and schema["additionalProperties"] is False
    view = _views(rules, max(2, rules.min_players), None, seed=3)[1]  # the first seat's, at the start
    jsonschema.validate(view, schema, cls=jsonschema.Draft202012Validator)
    for key in schema["required"]:
        broken = {k: v for k, v in view.items() if k != key}
        with pytest.raises(jsonschema.ValidationError, match=repr(key)):
            jsonschema.validate(broken, schema, cls=jsonschema.Draft202012Validator)
    with pytest.raises(jsonschema.ValidationError, match="additional"):
        jsonschema.validate({**view, "secret_hands": [[1, 2]]}, schema, cls=jsonschema.Draft202012Validator)
    wrong = {**view, "players": "Ann, Bob"}
    with pytest.raises(jsonschema.ValidationError, match="is not of type 'array'"):
        jsonschema.validate(wrong, schema, cls=jsonschema.Draft202012Validator)


def test_it_answers_a_permissive_object_for_a_game_that_declares_no_schema() -> None:
    class Undeclared(Rules):
        name = "undeclared"
        title = "Undeclared"
        min_players = 1
        max_players = 1

    schema = Undeclared().view_schema()
    assert schema["type"] == "object"
    jsonschema.validate({"anything": [1, "two"]}, schema)


#: Parts whose shape is not fixed, on purpose (each says why in its description).
OPEN_PARTS = {("maracaibo", "/step/data")}


def _open_parts(schema: Any, path: str = "") -> list[str]:
    """Objects with no ``additionalProperties`` and arrays with no ``items``: typed, but not closed."""
    found = []
    if isinstance(schema, dict):
        types = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
        if ("object" in types or "properties" in schema) and "additionalProperties" not in schema:
            found.append(path)
        if "array" in types and "items" not in schema and "prefixItems" not in schema:
            found.append(path)
        for key, value in schema.items():
            if key in ("properties", "patternProperties"):
                for name, sub in value.items():
                    found += _open_parts(sub, f"{path}/{name}")
            elif key in ("items", "additionalProperties") and isinstance(value, dict):
                found += _open_parts(value, f"{path}/{key}")
            elif key in ("anyOf", "oneOf", "allOf", "prefixItems"):
                for i, sub in enumerate(value):
                    found += _open_parts(sub, f"{path}/{key}/{i}")
    return found


@pytest.mark.parametrize("name", engine.names())
def test_it_closes_every_nested_part_of_fixed_shape(name: str) -> None:
    schema = engine.get(name).view_schema()
    open_parts = [p for p in _open_parts(schema) if (name, p) not in OPEN_PARTS]
    assert not open_parts, open_parts
    for game, path in OPEN_PARTS:
        if game == name:  # still there, and saying why it is open
            node: Any = schema
            for part in path.strip("/").split("/"):
                node = node["properties"][part]
            assert node.get("description"), path


def test_it_describes_every_key_of_maracaibos_view_and_players_for_front_end_developers() -> None:
    schema = engine.get("maracaibo").view_schema()
    player = schema["properties"]["p"]["items"]["properties"]
    bare = [k for k, v in schema["properties"].items() if not v.get("description")]
    bare += [f"p/{k}" for k, v in player.items() if not v.get("description")]
    assert not bare, bare
