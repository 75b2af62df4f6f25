"""``Rules.presented``: the order a mail and a page list a seat's options in (play-test of #20).

Maretta lists its options as the hand and the stocks are shown (by suit, then value); the engine's
own order (by value, then the suit's code), which the deadline's default and stored games go by, and
the codes stay. Caravelas and Maracaibo list them as the engine gives them."""

from __future__ import annotations

import copy
import random

import pytest

import engine
from engine.games.maretta.cards import card_key


def _walk(name: str, options: dict[str, object], seed: str, steps: int) -> list[tuple[dict, int]]:
    """(state, seat) at each decision of a game played by random options, on copies."""

    rules = engine.get(name)
    state = rules.setup(["Ana", "Bruno", "Carla"], options, seed)
    rnd, seen = random.Random(seed), []
    for _ in range(steps):
        pending = rules.pending(state)
        if not pending:
            break
        seat = rnd.choice(pending)
        seen.append((copy.deepcopy(state), seat))
        rules.apply(state, seat, rnd.choice(rules.options(state, seat)).move)
    return seen


@pytest.mark.parametrize(("name", "options"), [("caravelas", {}), ("maracaibo", {}),
                                               ("maracaibo", {"mode": 78}), ("maracaibo", {"mode": 79})])
def test_caravelas_and_maracaibo_list_their_options_in_the_engines_order(name: str, options: dict) -> None:
    rules = engine.get(name)
    for state, seat in _walk(name, options, "presented-1", 60):
        given = rules.options(state, seat)
        assert rules.presented(state, seat, given) == given


@pytest.mark.parametrize("side", ["A", "B"])
def test_maretta_lists_each_decision_as_its_cards_are_shown_with_the_same_codes(side: str) -> None:
    rules = engine.get("maretta")
    kinds, moved = set(), 0
    for state, seat in _walk("maretta", {"side": side}, f"presented-{side}", 400):
        given = rules.options(state, seat)
        shown = rules.presented(state, seat, given)
        assert sorted(o.code for o in shown) == sorted(o.code for o in given), "the same options, the same codes"
        assert rules.options(state, seat) == given, "the engine's own order is left as it was"
        kind = state["todo"][-1]["t"]
        kinds.add(kind)
        moved += [o.code for o in shown] != [o.code for o in given]
        cards = [o.move["c"] for o in shown if "c" in o.move]
        if kind == "monkey":  # by opponent first, as the engine lists them; each one's cards as shown
            for p in {o.move["p"] for o in shown}:
                mine = [card_key(o.move["c"]) for o in shown if o.move["p"] == p]
                assert mine == sorted(mine)
        else:
            keys = [card_key(c) for c in cards]
            assert keys == sorted(keys), (kind, [o.label for o in shown])
        if kind == "steal":
            assert shown[-1].move == {"a": "move"}, "moving instead stays last"
    assert moved > 10 and {"p1" if side == "A" else "play", "place"} <= kinds
