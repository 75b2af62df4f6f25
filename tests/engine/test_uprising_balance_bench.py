"""bench/uprising_balance.py's report arithmetic (#20): wins by home port for every port (kept, dealt, the
share won against 1.5 x the even share, the keepers' margin) and the expansion's cards' pick rates (bought
against held and against could buy), on hand-made games with a known answer (no game is played; nothing
here is timed)."""

from __future__ import annotations

from collections import Counter
from types import ModuleType
from typing import Any

import pytest

from tests.scripts import load_script

GENOVA, BREMEN, PORTO, NASSAU = "HP4", "HP2", "HP14", "HP11"
GUIDE, CAMP = 233, 234  # two of the expansion's project cards


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_script("bench/uprising_balance.py", "bench_uprising_balance")


def game(winners: list[int], vps: list[int], ports: list[str], dealt: list[list[str]],
         held: list[set[int]], buyable: list[set[int]], bought: list[list[int]]) -> dict[str, Any]:
    """A finished 2-player game as ``play`` returns it, with only what ``Tally.add`` reads."""
    players = [{"victory_points": vp, "victory_points_by_source": {"cards": vp}, "port": port, "bought": b, "areas": []}
               for vp, port, b in zip(vps, ports, bought, strict=True)]
    return {"state": {"turns": 40, "seats": players}, "winners": winners, "moves": 300,
            "used": [Counter(), Counter()], "offered": [Counter(), Counter()],
            "dealt": dealt, "held": held, "buyable": buyable}


def tally(bench: ModuleType) -> Any:
    """Four games. Genova is kept 3 times (won 2, the third a shared win) and dealt 8 times; Bremen kept 3 times
    (won none) and dealt 7 times; Porto dealt twice, never kept; Nassau kept twice (a win and a tie)."""
    t = bench.Tally(2)
    t.add(game([0], [120, 100], [GENOVA, BREMEN], [[GENOVA, PORTO, NASSAU], [BREMEN, GENOVA, PORTO]],
               [{GUIDE, CAMP}, {GUIDE}], [{GUIDE}, set()], [[GUIDE], []]))
    t.add(game([1], [90, 110], [BREMEN, GENOVA], [[BREMEN, NASSAU, GENOVA], [GENOVA, BREMEN, NASSAU]],
               [{CAMP}, set()], [{CAMP}, set()], [[], []]))
    t.add(game([0, 1], [100, 100], [GENOVA, NASSAU], [[GENOVA, BREMEN, NASSAU], [NASSAU, BREMEN, GENOVA]],
               [set(), {GUIDE}], [set(), {GUIDE}], [[], []]))
    # a card bought from the planning area is held even where no decision saw it in hand
    t.add(game([1], [80, 95], [BREMEN, NASSAU], [[BREMEN, GENOVA, NASSAU], [NASSAU, BREMEN, GENOVA]],
               [set(), set()], [set(), {CAMP}], [[], [CAMP]]))
    return t


def test_every_port_dealt_is_reported_with_its_keepers_wins_margin_and_times_dealt(bench: ModuleType) -> None:
    rows = {r["port"]: r for r in bench.port_rows(tally(bench).ports, 2)}
    assert set(rows) == {GENOVA, BREMEN, PORTO, NASSAU}
    g = rows[GENOVA]
    assert (g["kept"], g["dealt"]) == (3, 8)
    assert g["won"] == pytest.approx(100 * 2.5 / 3)  # 1 + 1 + a half (the tie)
    assert g["ratio"] == pytest.approx(2.5 / 3 * 2) and g["above"]  # 83% > 75%
    assert g["margin"] == pytest.approx((20 + 20 + 0) / 3)
    assert g["score"] == pytest.approx((120 + 110 + 100) / 3)
    b = rows[BREMEN]
    assert (b["kept"], b["dealt"], b["won"], b["above"]) == (3, 7, 0.0, False)
    assert b["margin"] == pytest.approx((-20 - 20 - 15) / 3)
    assert (rows[NASSAU]["kept"], rows[NASSAU]["won"]) == (2, 75.0)  # a half and a win
    assert not rows[NASSAU]["above"]  # 75% is the limit, not above it
    porto = rows[PORTO]  # dealt, never kept: listed, with nothing won
    assert (porto["kept"], porto["dealt"], porto["won"], porto["kept_of_dealt"]) == (0, 2, 0.0, 0.0)
    assert [r["port"] for r in bench.port_rows(tally(bench).ports, 2)] == [GENOVA, NASSAU, BREMEN, PORTO]


def test_pick_rates_are_bought_against_held_and_against_could_buy(bench: ModuleType) -> None:
    rows = {r["card"]: r for r in bench.pick_rows(tally(bench).cards)}
    guide = rows[GUIDE]  # held by 3 player-games, buyable in 2, bought in 1 (a win)
    assert (guide["bought"], guide["held"], guide["buyable"], guide["won"]) == (1, 3, 2, 1)
    assert guide["of_held"] == pytest.approx(1 / 3) and guide["of_buyable"] == pytest.approx(1 / 2)
    camp = rows[CAMP]  # held twice in hand, once only in the planning area (bought there)
    assert (camp["bought"], camp["held"], camp["buyable"]) == (1, 3, 2)
    assert camp["of_held"] == pytest.approx(1 / 3)
    assert bench.pick_rows({GUIDE: [0.0, 0.0, 0.0, 0.0]})[0]["of_held"] == 0.0  # never held: no rate, no error


def test_a_solo_game_is_tallied_with_its_port_and_no_margin(bench: ModuleType) -> None:
    # (the keepers' margin is over the table's others: a solo game has none, and is no error)
    t = bench.Tally(1)
    solo = game([0], [90, 0], [GENOVA, None], [[GENOVA, PORTO, NASSAU], []], [set(), set()], [set(), set()],
                [[], []])
    solo["state"]["seats"] = solo["state"]["seats"][:1]
    t.add(solo)
    (row,) = [r for r in bench.port_rows(t.ports, 1) if r["port"] == GENOVA]
    assert (row["kept"], row["won"], row["score"], row["margin"]) == (1, 100.0, 90.0, 0.0)


def test_the_tables_show_every_port_and_card_by_cell_and_seed_with_the_limit(bench: ModuleType) -> None:
    t = tally(bench)
    records = [{"mode": "78", "n": 2, "seed": seed, "ports": t.ports, "cards": {str(k): v for k, v in t.cards.items()}}
               for seed in ("s1", "s2")]
    ports = bench.port_table(records)
    assert len(ports) == 2 + 15  # every port has a row, kept or not
    assert "| Genova | **83% (3)** / **83% (3)** |" in ports
    assert "| Bremen | 0% (3) / 0% (3) |" in ports
    assert "| Porto | - / - |" in ports and "limit 75%" in ports[0]
    picks = bench.pick_table(records)
    guide = next(line for line in picks if f"({GUIDE})" in line)
    assert guide.endswith("| 0.33 (3) / 0.33 (3) |")
    assert len(picks) == 2 + 2  # only the cards held


@pytest.fixture
def genova_row() -> Any:
    """Genova's row as the data has it, put back after the test (``--set`` changes it in place)."""
    import copy

    from engine.games.maracaibo import uprising_content as U

    kept = copy.deepcopy(U.PORT[GENOVA])
    yield U.PORT[GENOVA]
    U.PORT[GENOVA].clear()
    U.PORT[GENOVA].update(kept)


def test_set_changes_a_ports_number_for_the_run_where_the_rules_read_it(bench: ModuleType, genova_row: Any) -> None:
    from engine.games.maracaibo.homeports import bonus_text

    assert bonus_text(genova_row, liberation=True) == "pay 4 doubloons for 4 VP"
    bench.set_port("HP4.bonus.pay.d=5")
    bench.set_port('HP4.bonus.gain={"inf": 1}')
    bench.set_port("HP4.effects.0.inf=1")
    assert bonus_text(genova_row, liberation=True) == "pay 5 doubloons for 2 VP"
    assert genova_row["effects"][0] == {"t": "income", "ext": "income_influence", "inf": 1, "nation": "fewest"}


@pytest.mark.parametrize("item", ["HP4.bonus.pay.dd=5", "HP99.bonus=1", "HP4.effects.3.inf=1", "HP4.bonus",
                                  "HP4=1", "HP4.bonus.pay.d=five"])
def test_set_refuses_a_key_the_row_does_not_have_or_a_value_that_is_not_json(
        bench: ModuleType, genova_row: Any, item: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        bench.main(["--set", item, "--games", "0", "--modes", "79", "--players", "2"])
    assert exc.value.code == 2
    assert f"--set {item}:" in capsys.readouterr().err
    assert genova_row["bonus"]["pay"] == {"d": 4}
