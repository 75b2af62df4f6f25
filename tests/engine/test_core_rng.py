"""The seeded generator: deterministic, JSON-only state, unbiased, never the global random."""

from __future__ import annotations

import itertools
import json
import random
import re
from collections import Counter
from collections.abc import Mapping
from typing import Any

import pytest

from engine.rng import Rng, seed_to_state


def draws(seed: int | str, n: int, below: int = 1000) -> list[int]:
    holder = {"rng": seed_to_state(seed)}
    rng = Rng(holder)
    return [rng.below(below) for _ in range(n)]


def test_same_seed_same_sequence() -> None:
    assert draws(7, 200) == draws(7, 200)
    assert draws("game-12", 50) == draws("game-12", 50)


def test_different_seeds_differ() -> None:
    assert draws(1, 50) != draws(2, 50)
    assert draws("a", 50) != draws("b", 50)


def test_state_is_a_short_hex_string_inside_the_holder() -> None:
    holder: dict[str, object] = {"rng": seed_to_state("x"), "other": 1}
    rng = Rng(holder)
    rng.shuffle(list(range(10)))
    assert isinstance(holder["rng"], str)
    assert re.fullmatch(r"[0-9a-f]{16}", holder["rng"])
    assert json.loads(json.dumps(holder)) == holder
    assert holder["other"] == 1


def test_state_resumes_exactly_after_a_json_round_trip() -> None:
    holder = {"rng": seed_to_state(99)}
    rng = Rng(holder)
    first = [rng.below(10**6) for _ in range(10)]
    saved = json.loads(json.dumps(holder))
    rest = [rng.below(10**6) for _ in range(10)]
    again = Rng(saved)
    assert [again.below(10**6) for _ in range(10)] == rest
    assert first != rest


def test_custom_key() -> None:
    holder = {"deck_rng": seed_to_state(3)}
    Rng(holder, key="deck_rng").die()
    assert holder["deck_rng"] != seed_to_state(3)


def test_below_range_and_errors() -> None:
    rng = Rng({"rng": seed_to_state(5)})
    values = {rng.below(7) for _ in range(500)}
    assert values == set(range(7))
    assert {rng.below(1) for _ in range(20)} == {0}
    for bad in (0, -3):
        with pytest.raises(ValueError, match="positive"):
            rng.below(bad)


def test_die_and_choice() -> None:
    rng = Rng({"rng": seed_to_state(6)})
    assert {rng.die() for _ in range(300)} == {1, 2, 3, 4, 5, 6}
    assert {rng.die(20) for _ in range(2000)} == set(range(1, 21))
    items = ["wood", "rope", "water"]
    assert {rng.choice(items) for _ in range(100)} == set(items)


def chi_square(counts: Mapping[Any, int], expected: float) -> float:
    return sum((c - expected) ** 2 / expected for c in counts.values())


def test_below_is_uniform_for_small_n() -> None:
    rng = Rng({"rng": seed_to_state("uniform")})
    n, k = 12000, 6
    counts = Counter(rng.below(k) for _ in range(n))
    # 5 degrees of freedom: 20.5 is the 0.1% critical value.
    assert chi_square(counts, n / k) < 20.5


def test_below_has_no_modulo_bias_for_huge_n() -> None:
    # With n = 3 * 2**62, "x % n" of a 64-bit x hits [0, 2**62) twice as often as the
    # rest: half of the draws instead of a third. Rejection sampling must avoid that.
    n = 3 * 2**62
    rng = Rng({"rng": seed_to_state("bias")})
    draws_ = [rng.below(n) for _ in range(6000)]
    assert all(0 <= d < n for d in draws_)
    low = sum(d < 2**62 for d in draws_) / len(draws_)
    assert abs(low - 1 / 3) < 0.03, low


def test_shuffle_is_a_permutation_and_uniform() -> None:
    rng = Rng({"rng": seed_to_state("shuffle")})
    perms: Counter[object] = Counter()
    n = 24000
    for _ in range(n):
        deck = list("abcd")
        rng.shuffle(deck)
        assert sorted(deck) == list("abcd")
        perms[tuple(deck)] += 1
    assert set(perms) == set(itertools.permutations("abcd"))
    # 23 degrees of freedom: 49.7 is the 0.1% critical value.
    assert chi_square(perms, n / 24) < 49.7


def test_shuffle_positions_are_uniform() -> None:
    rng = Rng({"rng": seed_to_state("positions")})
    where: Counter[int] = Counter()
    n = 10000
    for _ in range(n):
        deck = list(range(10))
        rng.shuffle(deck)
        where[deck.index(0)] += 1
    assert chi_square(where, n / 10) < 27.9  # 9 degrees of freedom, 0.1%


def test_seed_forms() -> None:
    assert seed_to_state(1) == seed_to_state("1")  # seeds are compared as text
    assert seed_to_state(1) != seed_to_state(2)
    assert len({seed_to_state(i) for i in range(1000)}) == 1000


def test_global_random_is_untouched() -> None:
    random.seed(2024)
    before = random.getstate()
    rng = Rng({"rng": seed_to_state(0)})
    deck = list(range(52))
    rng.shuffle(deck)
    rng.die()
    rng.choice(deck)
    assert random.getstate() == before
