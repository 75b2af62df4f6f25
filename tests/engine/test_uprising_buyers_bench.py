"""bench/uprising_buyers.py's report arithmetic (#20): its expectations conditioned on the position, the
synergy tokens and the doubloons held, leave-one-out, on hand-made records with a known answer (no game
is played; nothing here is timed)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
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
    assert f["tok"] == {"buyers": 1, "won": 1, "expected": pytest.approx(4 / 9), "var": pytest.approx(20 / 81)}
    # and the doubloons: the rich cell, 4 players, 3 won; without the buyer: 2 of 3
    assert f["dbl"] == {"buyers": 1, "won": 1, "expected": pytest.approx(2 / 3), "var": pytest.approx(2 / 9)}
    # its excess: won 1 against 2/3 expected, +33 points, a standard error of sqrt(2/9) = 47 points had the card
    # done nothing
    assert bench.excess(f["dbl"]) == (pytest.approx(100 / 3), pytest.approx(100 * (2 / 9) ** 0.5))
    assert f["holders"] is None  # (these records do not say who held the card)
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
    assert f["dbl"] == {"buyers": 0, "won": 0, "expected": 0, "var": 0}


def test_the_player_games_in_which_the_card_was_held(bench: ModuleType) -> None:
    # (records that say who held the watched cards: the holders counted per card, buyer or not)
    games = records()
    for g, held in zip(games, ([[239, 0]], [[239, 1], [208, 0]], [], [[239, 0], [239, 1]], [], [[239, 1]]),
                       strict=True):
        g["held"] = held
    assert bench.figures(2, games, 239)["holders"] == 5
    assert bench.figures(2, games, 208)["holders"] == 1


@pytest.mark.parametrize(("doubloons", "band"), [(0, 0), (5, 0), (6, 1), (11, 1), (12, 2), (17, 2), (18, 3), (40, 3)])
def test_the_doubloons_band_of_a_position(bench: ModuleType, doubloons: int, band: int) -> None:
    players = [{"victory_points": 30, "synergy": [1, 2, 3, 4], "explorer": 0, "doubloons": doubloons},
               {"victory_points": 20, "synergy": [], "explorer": 0, "doubloons": 3}]
    key = bench._position({"seats": players, "turns": 11}, 0)
    assert key == (5, 1, 2, 0, 4, band)


@contextlib.contextmanager
def _card_240_set() -> Iterator[dict[str, Any]]:
    """Inside it, ``--set`` may change card 240 in this process; yields a copy of its row as the data has it,
    and puts back after the row and what buying works out from it (its window, its price and needs)."""
    from engine.games.maracaibo import board
    from engine.games.maracaibo import cards as buying
    from engine.games.maracaibo import uprising_content as U

    row, needs = dict(U.CARD[240]), dict(U.CARD[240]["needs"])
    try:
        yield row
    finally:
        U.CARD[240].clear()
        U.CARD[240].update({**row, "needs": needs})
        board.SOLD_BEFORE.pop(240, None)
        buying._BUY_NEEDS[240] = buying._buy_needs(U.CARD[240])


def test_an_ab_run_changes_the_cards_window_and_barrier_for_the_engine_too(bench: ModuleType) -> None:
    # (--set 240:before_round=2 240:barrier=green: what buying reads, not only the row; the card restored after)
    from engine.games.maracaibo import board
    from engine.games.maracaibo import cards as buying
    from engine.games.maracaibo import uprising_content as U

    with _card_240_set() as row:
        assert bench.main(["--cards", "240", "--games", "0", "--set", "240:before_round=2", "240:barrier=green"]) == 0
        assert U.CARD[240]["needs"] == {"barrier": "green", "before_round": 2}
        assert board.window_closed({"round": 2, "rounds": 4}, 240)
        assert not board.window_closed({"round": 1, "rounds": 4}, 240)
        assert buying._BUY_NEEDS[240] == buying._buy_needs({**row, "needs": {"barrier": "green"}})
    assert board.window_closed({"round": 3, "rounds": 4}, 240)
    assert not board.window_closed({"round": 2, "rounds": 4}, 240)


def test_an_ab_run_may_take_the_cards_barrier_away_and_keep_its_window(bench: ModuleType) -> None:
    # (--set 240:barrier=none 240:cost=8: sold in rounds 1 and 2 to an explorer anywhere; buying reads no
    # barrier space and the new price)
    from engine.games.maracaibo import board
    from engine.games.maracaibo import cards as buying
    from engine.games.maracaibo import uprising_content as U

    with _card_240_set() as row:
        assert bench.main(["--cards", "240", "--games", "0", "--set", "240:barrier=none", "240:cost=8"]) == 0
        assert U.CARD[240]["needs"] == {"before_round": 3}
        assert buying._BUY_NEEDS[240] == (8, 1, 0)
        assert board.window_closed({"round": 3, "rounds": 4}, 240)
        assert not board.window_closed({"round": 2, "rounds": 4}, 240)
    assert buying._BUY_NEEDS[240] == (12, 1, buying._buy_needs(row)[2]) and buying._BUY_NEEDS[240][2] > 0


def test_an_interleaved_run_resumed_plays_only_the_games_its_file_lacks(bench: ModuleType, tmp_path: Any,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games.jsonl"
    args = ["--cards", "241", "--modes", "78", "--players", "2", "--seeds", "a", "b", "--json", str(out),
            "--interleave"]
    assert bench.main([*args, "--games", "1"]) == 0
    first = out.read_text().splitlines()
    assert [bench.json.loads(line)["seed"] for line in first] == ["a-78-2-0", "b-78-2-0"]
    assert bench.main([*args, "--games", "2", "--resume"]) == 0
    lines = out.read_text().splitlines()
    assert lines[:2] == first and [bench.json.loads(line)["seed"] for line in lines[2:]] == ["a-78-2-1", "b-78-2-1"]
    assert "(4 games" in capsys.readouterr().out  # (the two read and the two played, reported together)
    # every record says who held the watched card (a buyer among them), a seat of the game's
    for line in lines:
        g = bench.json.loads(line)
        assert all(c == 241 and 0 <= s < 2 for c, s in g["held"])
        assert {(b["card"], b["seat"]) for b in g["buys"]} <= {(c, s) for c, s in g["held"]}
