"""Maretta's setup, side by side, and the validation of its options."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import get
from engine.errors import SetupError
from engine.games.maretta.rules import DATA, all_resource_cards

R = get("maretta")
NAMES = ["Ana", "Bruno", "Carla", "Duarte", "Eva"]


def cards_in_play(st: dict) -> list[str]:
    return st["deck"] + [c for h in st["hand"] for c in h]


def test_it_has_70_resource_cards_of_five_suits_numbered_1_to_5() -> None:
    cards = all_resource_cards()
    assert len(cards) == 70
    assert Counter(c[1:] for c in cards) == dict.fromkeys(DATA["suits"], 14)
    assert {int(c[0]) for c in cards} == {1, 2, 3, 4, 5}


@pytest.mark.parametrize(("players", "kept"), [(3, 39), (4, 52), (5, 65)])
def test_it_reduces_the_side_a_deck_by_player_count_and_adds_one_steamship_per_player(players: int, kept: int) -> None:
    st = R.setup(NAMES[:players], {"side": "A"}, 5)
    play = cards_in_play(st)
    assert play.count("ss") == players
    assert len(play) == kept + players
    assert len(st["box"]) == 70 - kept and "ss" not in st["box"]
    assert sorted([c for c in play if c != "ss"] + st["box"]) == sorted(all_resource_cards())
    assert all(len(h) == 4 for h in st["hand"])
    assert st["pos"] == [0] * players


@pytest.mark.parametrize("players", [3, 4, 5])
def test_it_uses_the_whole_deck_on_side_b(players: int) -> None:
    st = R.setup(NAMES[:players], {"side": "B"}, 5)
    assert sorted(cards_in_play(st)) == sorted(all_resource_cards())
    assert all(len(h) == 4 for h in st["hand"])
    assert st["lava"] == -3 and st["lspd"] == 3


def _faces(st: dict) -> dict[int, list[bool]]:
    return {int(k): [b[1] for b in v] for k, v in st["bar"].items()}


def test_it_turns_side_a_barrels_over_by_their_zone_between_the_reefs() -> None:
    st = R.setup(NAMES[:3], {"side": "A"}, 9)
    faces = _faces(st)
    assert sorted(faces) == DATA["A"]["barrel_spots"]
    for p, ups in faces.items():
        if p < 8:
            assert ups == [False, False]  # before the first reef: face down
        elif p < 15:
            assert sorted(ups) == [False, True]  # between the reefs: one of each
        else:
            assert ups == [True, True]  # after the second reef: face up
    kinds = [b[0] for bs in st["bar"].values() for b in bs] + st["bbox"]
    assert Counter(kinds) == Counter(DATA["barrels"]) and len(st["bbox"]) == 3
    assert sum(len(b) for b in st["bar"].values()) == 16


def test_it_turns_side_b_barrels_over_the_other_way_round() -> None:
    st = R.setup(NAMES[:3], {"side": "B"}, 9)
    for p, ups in _faces(st).items():
        if p <= 7:
            assert ups == [True, True]
        elif p <= 15:
            assert sorted(ups) == [False, True]
        else:
            assert ups == [False, False]
    assert st["bbox"] == []


def test_it_leaves_every_barrel_face_down_without_reefs_and_drops_barrels_past_a_closer_steamship() -> None:
    st = R.setup(NAMES[:3], {"side": "A", "reefs": "", "steamship": 11}, 9)
    assert all(ups == [False, False] for ups in _faces(st).values())
    assert sorted(_faces(st)) == [3, 5, 7, 10]
    assert len(st["bbox"]) == 19 - 8 and st["end"] == 11


def test_it_picks_the_starting_player_from_the_seed() -> None:
    starts = {R.setup(NAMES[:4], {"side": "A"}, s)["start"] for s in range(40)}
    assert starts == {0, 1, 2, 3}
    assert R.setup(NAMES[:4], {"side": "A"}, 7) == R.setup(NAMES[:4], {"side": "A"}, 7)


@pytest.mark.parametrize(
    ("players", "options", "message"),
    [
        (2, {}, "3 to 5 players, not 2"),
        (6, {}, "3 to 5 players, not 6"),
        (3, {"colour": "red"}, "unknown option colour"),
        (3, {"side": "C"}, "side must be one of A, B"),
        (3, {"steamship": 40}, "at most 22"),
        (3, {"steamship": "far"}, "whole number"),
        (3, {"reefs": "3 6 9"}, "only 2 Coral Reefs"),
        (3, {"reefs": "6 6"}, "same place"),
        (3, {"reefs": "14", "steamship": 12}, "after a space from 0 to 11"),
        (3, {"side": "B", "crevasses": "1 2 3"}, "only 2 Crevasses"),
        (3, {"lava_start": 9}, "at most 6"),
        (3, {"lava_speed": 0}, "at least 1"),
    ],
)
def test_it_refuses_bad_setups_with_a_clear_message(players: int, options: dict, message: str) -> None:
    with pytest.raises(SetupError, match=message):
        R.setup(NAMES[:players] + ["Filipa"] * max(0, players - 5), options, 1)


def test_it_accepts_options_as_typed_in_a_mail() -> None:
    st = R.setup(NAMES[:3], {"side": "b", "crevasses": "12, 3", "lava_crevasse_change": "-1"}, 1)
    assert st["side"] == "B" and st["reefs"] == [3, 12] and st["options"]["lava_crevasse_change"] == -1
