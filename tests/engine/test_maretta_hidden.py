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
from engine.games.maretta.rules import BARREL_NAMES
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
            changed["used barrels"] += other["bdisc"] != st["bdisc"]
            # a barrel a seat took face down keeps its kind for that seat
            if seat is not None:
                assert other["bseen"][seat] == st["bseen"][seat]
                for t, seen in enumerate(other["bseen"]):  # a taker's knowledge follows the resampled kinds
                    assert seen is None or all(k in ("?", other["bdisc"][i]) for i, k in enumerate(seen)), t
    assert changed["deck"] and changed["hands"] and changed["barrels"] and changed["used barrels"]


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


# ---- barrels taken face down: known to the taker only ------------------------------------------

NAMES = tuple(BARREL_NAMES.values())


def resolve_barrel(st: dict[str, Any], seats: tuple[int | None, ...]) -> dict[int | None, list[Any]]:
    """Take the face-down barrel Purple stands on and answer every decision it brings (first option),
    up to the next turn; return the events each of ``seats`` was shown."""
    seen: dict[int | None, list[Any]] = {s: [] for s in seats}
    ev = R.apply(st, PURPLE, {"code": "b1"})
    while True:
        for s in seats:
            seen[s] += visible_events(ev, s)
        if not R.pending(st) or st["todo"][-1]["t"] == "p1":
            return seen
        for s in seats:  # what the others see while the effect is resolved
            if s != PURPLE:
                v = R.view(st, s)
                assert not [x for x in NAMES if x in v["decision"] or x in R.render_text(v)]
                if s is not None:
                    assert not [x for x in NAMES for o in R.options(st, s) if x in o.label]
        seat = R.pending(st)[0]
        ev = R.apply(st, seat, R.options(st, seat)[0].move)


@pytest.mark.parametrize("side,kind", [("A", k) for k in BARREL_NAMES] + [("B", "mo"), ("B", "pe"), ("B", "sp")])
def test_it_tells_only_the_taker_which_face_down_barrel_it_took(side: str, kind: str) -> None:
    st = barrel_game(kind, side=side, pos=[4, 6, 6] if side == "A" else [4, 4, 9])
    at_barrel(st, PURPLE, [(kind, False)])
    seen = resolve_barrel(st, (None, PURPLE, PINK, YELLOW))
    mine = [e for e in seen[PURPLE] if e.kind == "barrel_look"]
    assert len(mine) == 1 and BARREL_NAMES[kind] in mine[0].text and mine[0].to == (PURPLE,) and mine[0].reveals
    for seat in (None, PINK, YELLOW):
        told = [e for e in seen[seat] if e.kind == "barrel"]
        assert [e.text for e in told] == ["Purple takes a face-down barrel from space 4"]
        for e in seen[seat]:
            assert not [x for x in NAMES if x in e.text], e.text
            assert "barrel" not in e.data
        v = R.view(st, seat)
        assert v["barrels_used"] == ["?"]
        assert not [x for x in NAMES if x in R.render_text(v)]
        assert "one taken face down (unseen)" in R.render_text(v)
    assert R.view(st, PURPLE)["barrels_used"] == [kind]
    assert f"Barrels used: {BARREL_NAMES[kind]}." in R.render_text(R.view(st, PURPLE))


@pytest.mark.parametrize("kind,other", [("mo", "sh"), ("cu", "sp"), ("pe", "an"), ("sx", "tr")])
def test_it_gives_a_third_seat_the_same_views_and_events_whatever_barrel_another_seat_took_face_down(
        kind: str, other: str) -> None:
    # Purple took a face-down barrel and resolved it; the twin differs only in what that barrel was
    # (the other kind lies in the box instead, unseen by everybody)
    a = barrel_game(kind, pos=[4, 6, 6])
    at_barrel(a, PURPLE, [(kind, False)])
    resolve_barrel(a, (PURPLE,))
    edit(a, bbox=[other, *a["bbox"][1:]])
    b = json.loads(json.dumps(a))
    b["bdisc"][0], b["bseen"][PURPLE][0], b["bbox"][0] = other, other, kind
    assert a["bdisc"] == [kind] and b["bdisc"] == [other] and a["bseen"] == [[kind], None, None]
    assert R.view(a, PURPLE) != R.view(b, PURPLE)
    rnd = random.Random(3)
    while R.pending(a):
        for seat in (None, PINK, YELLOW):
            assert R.view(a, seat) == R.view(b, seat)
            if seat is not None:
                assert [o.label for o in R.options(a, seat)] == [o.label for o in R.options(b, seat)]
        seat = rnd.choice(R.pending(a))
        move = rnd.choice(R.options(a, seat)).move
        ev_a, ev_b = R.apply(a, seat, move), R.apply(b, seat, move)
        for s in (None, PINK, YELLOW):  # every event, reveals included
            assert [e.as_dict() for e in visible_events(ev_a, s)] == [e.as_dict() for e in visible_events(ev_b, s)]


def test_it_resamples_a_barrel_another_seat_took_face_down_but_keeps_the_ones_a_seat_took_itself() -> None:
    st = barrel_game("cu", pos=[4, 6, 6])
    at_barrel(st, PURPLE, [("cu", False)])
    resolve_barrel(st, (PURPLE,))
    edit(st, bdisc=["cu", "sh", "mo"], bdv=["?", "sh", "?"], bseen=[["cu", "sh", "?"], None, ["?", "sh", "mo"]])
    assert R.view(st, PURPLE)["barrels_used"] == ["cu", "sh", "?"]
    assert R.view(st, YELLOW)["barrels_used"] == ["?", "sh", "mo"]
    assert R.view(st, PINK)["barrels_used"] == R.view(st, None)["barrels_used"] == ["?", "sh", "?"]
    every = sorted(st["bbox"] + st["bdisc"])
    purple, yellow, spectator = set(), set(), set()
    for seed in range(30):
        for seat, kinds in ((PURPLE, purple), (YELLOW, yellow), (None, spectator)):
            other = resample(st, seat, seed)
            assert R.view(other, seat) == R.view(st, seat)
            assert sorted(other["bbox"] + other["bdisc"]) == every
            assert other["bdisc"][1] == "sh"  # taken face up: public
            kinds.add(tuple(other["bdisc"]))
    assert {k[0] for k in purple} == {"cu"} and len({k[2] for k in purple}) > 1
    assert {k[2] for k in yellow} == {"mo"} and len({k[0] for k in yellow}) > 1
    assert len({k[0] for k in spectator}) > 1 and len({k[2] for k in spectator}) > 1


# ---- a face-down barrel shows the table its visible consequences only ------------------------------

#: With every stock empty and everybody on one space, each of these barrels does nothing visible.
QUIET_KINDS = ["mo", "sp", "sh", "an", "sx", "tr", "cu", "sc"]


def quiet_barrel(kind: str) -> tuple[dict[str, Any], list[Any]]:
    st = side_a_turn([["1wo", "2wo", "3wo", "4wo"]] * 3, pos=[4, 4, 4], stock=[[], [], []])
    at_barrel(st, PURPLE, [(kind, False), ("an", True)])
    return st, play(st, PURPLE, "b1")


@pytest.mark.parametrize("kind", QUIET_KINDS[1:])
def test_it_shows_the_table_the_same_whichever_face_down_barrel_did_nothing(kind: str) -> None:
    monkey, ev_monkey = quiet_barrel("mo")
    other, ev_other = quiet_barrel(kind)
    for seat in (None, PINK, YELLOW):
        assert [e.as_dict() for e in visible_events(ev_other, seat)] == \
               [e.as_dict() for e in visible_events(ev_monkey, seat)], (kind, seat)
        assert R.view(other, seat) == R.view(monkey, seat), (kind, seat)
    # the taker alone is told what it was and why it did nothing
    mine = " ".join(e.text for e in visible_events(ev_other, PURPLE))
    assert BARREL_NAMES[kind] in mine


def test_it_tells_the_taker_alone_why_a_face_down_barrel_did_nothing() -> None:
    _st, ev = quiet_barrel("sp")
    lines = [e for e in ev if e.kind == "no_effect"]
    assert len(lines) == 1 and lines[0].to == (PURPLE,) and "Fishing Spear has no effect" in lines[0].text
    _st, ev = quiet_barrel("an")
    assert [e.to for e in ev if e.kind == "no_effect"] == [(PURPLE,), (PURPLE,)]


def test_it_keeps_the_visible_consequences_of_a_face_down_barrel_public() -> None:
    st = side_a_turn([["1wo", "2wo", "3wo", "4wo"]] * 3, pos=[4, 4, 4], stock=[["1fi"], ["3fo"], []])
    at_barrel(st, PURPLE, [("mo", False), ("an", True)])
    ev = play(st, PURPLE, "b1")  # one card in any opponent's stock: the Monkey takes it at once
    taken = [e for e in ev if e.kind == "take"]
    assert len(taken) == 1 and taken[0].to is None and "Monkey" not in taken[0].text
    assert "Monkey" not in " ".join(e.text for e in visible_events(ev, PINK))


def test_it_announces_a_face_down_cuttlefish_to_the_table_only_when_its_turn_comes() -> None:
    st, ev = quiet_barrel("sc")
    assert R.view(st, PINK)["cuttlefish_next"] == [False] * 3
    assert R.view(st, PURPLE)["cuttlefish_next"] == [True] * 3
    assert not [e for e in visible_events(ev, PINK) if e.kind == "cuttlefish"]
    # resampling what Pink cannot know keeps Pink's view: the checker's tool agrees
    assert R.view(resample(st, PINK), PINK) == R.view(st, PINK)
