"""Hidden information in Maretta: what each seat may know, and that resampling the rest changes nothing it sees.

``resample_hidden`` is the conformance checker's tool; these tests check it is neither a no-op nor
too wide (it keeps what the seat knows: its own hand, what it saw with a pelican, face-up things).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from engine.core import visible_events
from engine.rng import Rng
from tests.engine.test_maretta_rules import (
    BLUE,
    PINK,
    PURPLE,
    YELLOW,
    R,
    at_barrel,
    barrel_game,
    edit,
    game,
    play,
    side_a_turn,
)


def resample(st: dict[str, Any], seat: int | None, seed: int = 1) -> dict[str, Any]:
    return R.resample_hidden(st, seat, Rng({"rng": format(seed * 7919 + 1, "016x")}))


def random_states(side: str, n: int, seed: int, every: int = 3) -> list[dict[str, Any]]:
    """Copies of the states of one random game, every few moves."""
    rnd = random.Random(seed)
    st = game(side, n, seed=seed)
    out = []
    i = 0
    while R.pending(st):
        if i % every == 0:
            out.append(json.loads(json.dumps(st)))
        s = rnd.choice(R.pending(st))
        R.apply(st, s, rnd.choice(R.options(st, s)).move)
        i += 1
    return out


@pytest.mark.parametrize("side", ["A", "B"])
def test_it_changes_what_a_seat_cannot_see_and_keeps_what_it_sees(side: str) -> None:
    changed = Counter[str]()
    for st in random_states(side, 4, 11):
        for seat in (None, 0, 1, 2, 3):
            other = resample(st, seat)
            assert R.view(other, seat) == R.view(st, seat)
            if seat is not None:
                assert sorted(other["hand"][seat]) == sorted(st["hand"][seat])
                assert [o.label for o in R.options(other, seat)] == [o.label for o in R.options(st, seat)]
            # the multiset of all cards is the same: nothing appears or vanishes
            every = lambda s: sorted(s["deck"] + s["box"] + [c for h in s["hand"] for c in h]  # noqa: E731
                                     + [c for c in s["p1"] if c])
            assert every(other) == every(st)
            changed["deck"] += other["deck"] != st["deck"]
            changed["hands"] += any(sorted(other["hand"][t]) != sorted(st["hand"][t])
                                    for t in range(4) if t != seat)
            changed["barrels"] += other["bar"] != st["bar"]
    assert changed["deck"] and changed["hands"] and changed["barrels"]


def test_it_never_puts_a_steamship_card_among_the_cards_removed_at_setup() -> None:
    for st in random_states("A", 5, 3):
        for seed in range(5):
            assert "ss" not in resample(st, 0, seed)["box"]


def test_it_keeps_face_up_barrels_and_shuffles_face_down_ones_with_the_box() -> None:
    st = game("A", 3)
    seen = set()
    for seed in range(30):
        other = resample(st, 0, seed)
        for k, bs in st["bar"].items():
            for b, ob in zip(bs, other["bar"][k]):
                assert ob[1] == b[1]
                if b[1]:
                    assert ob[0] == b[0]
        seen.add(json.dumps(other["bar"], sort_keys=True))
        assert len(other["bbox"]) == 3
    assert len(seen) > 20


def test_it_hides_phase_one_cards_of_others_until_all_are_in() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    play(st, PURPLE, "3fi")
    for seat in (None, PINK, YELLOW):
        assert "3fi" not in json.dumps(R.view(st, seat))
        assert R.view(resample(st, seat), seat) == R.view(st, seat)
    assert len({resample(st, PINK, seed)["p1"][PURPLE] for seed in range(20)}) > 1
    assert resample(st, PURPLE)["p1"][PURPLE] == "3fi"
    assert R.view(st, PINK)["p1"] == ["?", None, None]


def test_it_keeps_a_cuttlefish_card_hidden_from_others_through_phase_two() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     start=PINK)
    edit(st, cut=[True, False, False])
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    assert st["phase"] == 2 and st["p1d"] == [True, False, False]
    samples = {resample(st, PINK, seed)["p1"][PURPLE] for seed in range(20)}
    assert len(samples) > 1  # the face-down card really is unknown to Pink
    for seat in (None, PINK, YELLOW):
        assert R.view(resample(st, seat), seat) == R.view(st, seat)
        assert "3fi" not in json.dumps(R.view(st, seat)["p1"])
    # Pink's own move's events, before the reveal, do not depend on the hidden card
    a, b = json.loads(json.dumps(st)), resample(st, PINK, 4)
    ea = [e.as_dict() for e in visible_events(R.apply(a, PINK, {"code": "1wa-3"}), PINK) if not e.reveals]
    eb = [e.as_dict() for e in visible_events(R.apply(b, PINK, {"code": "1wa-3"}), PINK) if not e.reveals]
    assert ea == eb


def test_it_keeps_pelican_knowledge_for_the_looker_only_and_updates_it_when_cards_are_played() -> None:
    st = barrel_game("pe")
    edit(st, hand=[["1wo", "2wo", "3wo", "4wo"], ["2fi", "5ro", "1wa", "3wa"], ["3wa", "1fo", "2fo", "4fo"]])
    play(st, PURPLE, "b1")
    play(st, PURPLE, "look-2")
    assert R.view(st, PURPLE)["known_hands"] == {"1": ["1wa", "2fi", "3wa", "5ro"]}
    # for the looker, Pink's hand is fixed; for Yellow, it is not
    for seed in range(10):
        assert sorted(resample(st, PURPLE, seed)["hand"][PINK]) == ["1wa", "2fi", "3wa", "5ro"]
    assert any(sorted(resample(st, YELLOW, seed)["hand"][PINK]) != ["1wa", "2fi", "3wa", "5ro"]
               for seed in range(10))
    # what Purple saw is hidden from Yellow too, and is resampled with Pink's hand
    assert R.view(st, YELLOW)["known_hands"] == {}
    other = resample(st, YELLOW, 3)
    assert Counter(other["known"][PURPLE]["1"]) <= Counter(other["hand"][PINK])
    # Pink's first card goes face down; once turned over it is no longer "known to be in hand"
    for s, c in ((0, "1wo"), (1, "5ro"), (2, "3wa")):
        play(st, s, c)
    assert R.view(st, PURPLE)["known_hands"] == {"1": ["1wa", "2fi", "3wa"]}


def test_it_sends_drawn_cards_and_pelican_sights_only_to_their_owner() -> None:
    rnd = random.Random(5)
    st = game("A", 4, seed=5)
    while R.pending(st):
        s = rnd.choice(R.pending(st))
        for e in R.apply(st, s, rnd.choice(R.options(st, s)).move):
            if e.kind in ("draw", "pelican_look", "committed"):
                assert e.to is not None and len(e.to) == 1
            if e.kind in ("draw", "pelican_look"):
                assert e.reveals


def test_it_shows_hand_sizes_and_deck_size_but_never_the_deck_or_other_hands() -> None:
    st = game("B", 5, seed=2)
    v = R.view(st, BLUE)
    assert v["hand_counts"] == [4] * 5 and v["deck"] == 50
    assert isinstance(v["deck"], int)
    assert v["hand"] == sorted(st["hand"][BLUE])
    assert R.view(st, None)["hand"] is None
    for t in (PURPLE, PINK, YELLOW):
        assert R.view(st, BLUE) == R.view(resample(st, BLUE, t), BLUE)


def test_it_shows_face_down_barrels_as_unknown_to_everybody_until_taken() -> None:
    st = barrel_game("mo", up=False)
    for seat in (None, PURPLE, PINK, YELLOW):
        assert R.view(st, seat)["barrels"]["4"] == ["?", "an"]
    at_barrel(st, PINK, [("sh", False), ("sx", False)])
    labels = [o.label for o in R.options(st, PINK)]
    assert labels == ["take barrel 1 (face down)", "take barrel 2 (face down)"]
    assert [o.label for o in R.options(resample(st, PINK, 8), PINK)] == labels
