"""bench/uprising_buyers.py's report arithmetic (#20): its expectations conditioned on the position, the
synergy tokens and the doubloons held, leave-one-out, on hand-made records with a known answer (no game
is played; nothing here is timed)."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from tests.scripts import load_script

#: (turn, rank, lead band, past the green barrier): every player below stands here but the lone buyer
POS = [5, 1, 0, 1]
RICH = [*POS, 4, 2]  # 4 tokens, 12-17 doubloons
POOR = [*POS, 4, 0]  # 4 tokens, 0-5 doubloons
LONE = [9, 2, -1, 0, 5, 1]  # a position nobody else held


def load_bench() -> ModuleType:
    return load_script("bench/uprising_buyers.py", "bench_uprising_buyers")


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench()


def game(winners: list[int], seen: list[list[list[int]]], buys: list[dict[str, Any]] | None = None,
         vps: list[int] | None = None) -> dict[str, Any]:
    return {"winners": winners, "vps": vps or [100, 90], "seen": seen, "buys": buys or []}


def buy(seat: int, at: list[int], doubloons: int = 14, vp: int = 60) -> dict[str, Any]:
    return {"card": 239, "seat": seat, "at": at, "gain": 12, "income": 0, "card_vp": 0,
            "doubloons": doubloons, "vp": vp}


def records(key_len: int = 6) -> list[dict[str, Any]]:
    """Six 2-player games. The rich (seat 0 in games 1, 2, 3, 5) won 3 of 4, the poor 2 of 6."""
    def k(key: list[int]) -> list[int]:
        return key[:key_len]
    return [
        # the buyer, rich, won by 15: still a win without the card's 12 points
        game([0], [[k(RICH)], [k(POOR)]], [buy(0, k(RICH))], vps=[105, 90]),
        game([0], [[k(RICH)], [k(POOR)]]),
        game([1], [[k(RICH)], [k(POOR)]]),
        game([1], [[k(POOR)], [k(POOR)]]),
        game([0], [[k(RICH)], [k(POOR)]]),
        # a buyer alone at its position: lost; in the position's column only (its cell: 1 player, no win)
        game([0], [[k(POS + [0, 0])], [k(LONE)]], [buy(1, k(LONE), doubloons=20, vp=40)], vps=[100, 80]),
    ]


def test_the_expectations_conditioned_on_position_tokens_and_doubloons(bench: ModuleType) -> None:
    f = bench.figures(2, records(), 239)
    assert f["buyers"] == 2 and f["won"] == 1
    # the position alone: 11 players at POS (6 of them won: game 6's seat 0 too, with no tokens) for the
    # first buyer, 0 of 1 for the lone one (the position's column is not leave-one-out)
    assert f["expected"] == pytest.approx(6 / 11 + 0)
    # with the tokens: POS and 4 tokens held by 10 players, 5 won; leave-one-out of the buyer's win: 4 of 9;
    # the lone buyer is alone in its cell, so out of the column
    assert f["tok"] == {"buyers": 1, "won": 1, "expected": pytest.approx(4 / 9)}
    # and the doubloons: the rich cell, 4 players, 3 won; without the buyer: 2 of 3
    assert f["dbl"] == {"buyers": 1, "won": 1, "expected": pytest.approx(2 / 3)}
    # without the card's points: the first buyer's 105 - 12 = 93 still beats 90; the lone buyer lost anyway
    assert f["without"] == 1
    assert sorted(f["doubloons"]) == [14, 20] and sorted(f["vp"]) == [40, 60]
    assert dict(f["held"]) == {4: 1, 5: 1}


def test_a_player_counts_once_a_cell_whatever_else_its_turns_held(bench: ModuleType) -> None:
    # one player at POS at the same turn with 0-5 and then 12-17 doubloons (two keys): once in the position's
    # and the tokens' cells, once in each doubloons' cell
    at = bench.cells(2, [game([0], [[POOR, RICH], [LONE]])])
    assert at[4][tuple(POS)] == [1, 1]
    assert at[5][tuple(POS + [4])] == [1, 1]
    assert at[6][tuple(POOR)] == [1, 1] and at[6][tuple(RICH)] == [1, 1]


def test_older_records_without_the_doubloons_leave_that_column_out(bench: ModuleType) -> None:
    f = bench.figures(2, records(key_len=5), 239)
    assert f["tok"]["buyers"] == 1 and f["tok"]["expected"] == pytest.approx(4 / 9)
    assert f["dbl"] == {"buyers": 0, "won": 0, "expected": 0}


@pytest.mark.parametrize(("doubloons", "band"), [(0, 0), (5, 0), (6, 1), (11, 1), (12, 2), (17, 2), (18, 3), (40, 3)])
def test_the_doubloons_band_of_a_position(bench: ModuleType, doubloons: int, band: int) -> None:
    players = [{"vp": 30, "synergy": [1, 2, 3, 4], "explorer": 0, "d": doubloons},
               {"vp": 20, "synergy": [], "explorer": 0, "d": 3}]
    key = bench._position({"p": players, "turns": 11}, 0)
    assert key == (5, 1, 2, 0, 4, band)
