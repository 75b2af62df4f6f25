"""Each game declares the JSON Schema of its views (Rules.view_schema); real views match it.

Views are taken from seeded games played by each game's own bot (random choices where it has
none): every seat and the spectator, at several points and at the end, solo Maracaibo too.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import jsonschema
import pytest

import engine
from engine.core import Rules
from engine.testing import choose, player_names
from tests.fakegame import RULES as BLINDBIDS

CASES = [
    ("blindbids", 2, None), ("blindbids", 4, {"deck": "long"}),
    ("maretta", 3, {"side": "A"}), ("maretta", 5, {"side": "B"}),
    ("caravelas", 2, None), ("caravelas", 4, None),
    ("maracaibo", 1, None), ("maracaibo", 2, None), ("maracaibo", 4, None),
]


def _rules(name: str) -> Rules:
    return BLINDBIDS if name == "blindbids" else engine.get(name)


def _views(rules: Rules, n: int, options: dict[str, Any] | None, seed: int) -> list[dict[str, Any]]:
    """Every seat's and the spectator's view every few steps and at the end of one seeded game."""
    rnd = random.Random(seed)
    state = rules.setup(player_names(n), options, seed)
    views = []
    for step in range(20_000):
        over = rules.outcome(state) is not None
        if step % 11 == 0 or over:
            views += [copy.deepcopy(rules.view(state, seat)) for seat in [None, *range(n)]]
        if over:
            break
        seat = rnd.choice(rules.pending(state))
        rules.apply(state, seat, choose(rules, state, seat, rules.options(state, seat), rnd).move)
    assert rules.outcome(state) is not None, "the game should be over: its final views are checked too"
    return views


@pytest.mark.parametrize(("name", "n", "options"), CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
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
