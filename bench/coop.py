#!/usr/bin/env python
"""Maracaibo: The Uprising's cooperative scenarios, measured: N games of the bot playing as a table
per seed, mode (74, 193), player count and Jacques's level.

    nice -n 19 python bench/coop.py [--games N] [--seeds S ...] [--modes 74 193] [--players 1 2 3 4]
                                    [--levels 1 2 3 4] [--minutes M] [--report-every K]

Every seat is the project's bot (``engine.games.maracaibo.bot``) playing as a table (the weight
``team``: every marker off the board worth more, a player alone's combat points too; it sails to the
hints and to Luysa's prison, always reveals a hint, clears a blocked red space, frees Luysa at once,
pays her ransom when asked). For each seed and cell it prints the games finished and any error (with the
first failing game's seed), the table's win rate, how often each victory condition was missed (the
one that fails most first), the markers left at the end, Jacques's VP against the table's lowest,
and (193) how often Luysa was found and freed. Then, per seed: the win rate by level and by mode,
whether harder levels were lost more often (by mode, and by mode and player count) and The Rescue
more often than 74, the condition missed
most, the players' VP by source, the seats above Jacques by player count, and the cards played most
and least (the share of games in which some player played the card). Two seeds show a criterion
met on one deal of games only.

The content of ``data/uprising/`` is SUBSTITUTE CONTENT. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.maracaibo import RULES, coop
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.testing import player_names


def play(mode: str, n: int, level: int, seed: str) -> dict[str, Any]:
    state = RULES.setup(player_names(n), {"mode": mode, "jacques_level": level}, seed)
    rnd = random.Random(seed)
    for _ in range(20000):
        if state["over"]:
            break
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.bot_choice(state, seat, RULES.options(state, seat), rnd).move)
    out = RULES.outcome(state)
    assert out is not None and out.team is not None, "the game did not end"
    s = state.get("search") or {}
    him = state["jacques"]["victory_points"]
    sources: Counter[str] = Counter()
    for p in state["seats"]:
        sources.update({k: int(v) for k, v in (p.get("victory_points_by_source") or {}).items()})
    return {"won": out.team.won, "missed": out.team.missed, "markers": coop.markers_left(state),
            "jacques": him, "lowest": min(p["victory_points"] for p in state["seats"]),
            "above": [p["victory_points"] > him for p in state["seats"]], "sources": sources, "n": n,
            "cards": {c for p in state["seats"] for c in p["display"]},
            "found": bool(s.get("found")), "freed": s.get("freed") is not None}


def _rate(won: int, games: int) -> str:
    return f"{won}/{games} ({100 * won / games:.0f}%)" if games else "-"


def cell_line(mode: str, n: int, level: int, rows: list[dict[str, Any]], failed: list[str]) -> str:
    if not rows:
        return f"{mode:>4} {n} {level} | 0 {len(failed)} | (no game finished: {failed[:1]})"
    missed = Counter(m for r in rows for m in r["missed"])
    most = ", ".join(f"{m} ({c})" for m, c in missed.most_common())
    wins = sum(1 for r in rows if r["won"])
    luysa = (f"{sum(1 for r in rows if r['found'])} / {sum(1 for r in rows if r['freed'])}"
             if mode == "193" else "-")
    return (f"{mode:>4} {n} {level} | {len(rows)} {len(failed)} | {_rate(wins, len(rows))} | {most or '-'} | "
            f"{statistics.mean(r['markers'] for r in rows):.1f} | "
            f"{statistics.mean(r['jacques'] for r in rows):.0f} vs "
            f"{statistics.mean(r['lowest'] for r in rows):.0f} | {luysa}"
            + (f" | first error seed {failed[0]}" if failed else ""))


def summary(seed: str, cells: dict[tuple[str, int, int], list[dict[str, Any]]]) -> None:
    """The seed's figures over all its cells."""
    every = [r for rows in cells.values() for r in rows]
    if not every:
        return
    print(f"\n-- seed {seed}: {len(every)} games")
    by_level: dict[int, list[bool]] = defaultdict(list)
    by_mode_level: dict[tuple[str, int], list[bool]] = defaultdict(list)
    by_mode: dict[str, list[bool]] = defaultdict(list)
    for (mode, _n, level), rows in cells.items():
        for r in rows:
            by_level[level].append(r["won"])
            by_mode_level[mode, level].append(r["won"])
            by_mode[mode].append(r["won"])
    print("table wins by level: " + "; ".join(f"level {lv} {_rate(sum(w), len(w))}"
                                              for lv, w in sorted(by_level.items())))
    for mode in sorted(by_mode, key=int):
        rates = [sum(w) / len(w) for (m, _lv), w in sorted(by_mode_level.items()) if m == mode]
        harder = all(a >= b for a, b in itertools.pairwise(rates))
        print(f"  mode {mode}: " + ", ".join(f"{100 * x:.0f}%" for x in rates)
              + f" by level: harder lost more often (never less): {'yes' if harder else 'NO'}")
    for mode in sorted(by_mode, key=int):
        for n in sorted({k[1] for k in cells}):
            rates = [sum(r["won"] for r in cells[mode, n, lv]) / len(cells[mode, n, lv])
                     for lv in sorted({k[2] for k in cells}) if cells.get((mode, n, lv))]
            harder = all(a >= b for a, b in itertools.pairwise(rates))
            print(f"  mode {mode}, {n} player{'s' if n > 1 else ''}: " + ", ".join(f"{100 * x:.1f}%" for x in rates)
                  + f" by level: harder lost more often (never less): {'yes' if harder else 'NO'}")
    if {"74", "193"} <= set(by_mode):
        a, b = by_mode["74"], by_mode["193"]
        print(f"The Rescue (193) {_rate(sum(b), len(b))} against 74 {_rate(sum(a), len(a))}: "
              f"The Rescue harder: {'yes' if sum(b) / len(b) < sum(a) / len(a) else 'NO'}")
    missed = Counter(m for r in every for m in r["missed"])
    print("conditions missed: " + ", ".join(f"{m} ({100 * c / len(every):.0f}% of games)"
                                            for m, c in missed.most_common()))
    players = sum(r["n"] for r in every)
    src: Counter[str] = Counter()
    for r in every:
        src.update(r["sources"])
    print("a player's VP by source (mean): " + ", ".join(f"{k} {v / players:.1f}" for k, v in src.most_common())
          + f"; Jacques {statistics.mean(r['jacques'] for r in every):.1f}")
    for n in sorted({r["n"] for r in every}):
        rows = [r for r in every if r["n"] == n]
        print(f"  {n} players: above Jacques by seat " + ", ".join(
            f"seat {i + 1} {100 * sum(r['above'][i] for r in rows) / len(rows):.0f}%" for i in range(n)))
    played: Counter[int] = Counter()
    for r in every:
        played.update(r["cards"])
    # Why not every id of C.CARD: it holds the retired cards too (a stored game's), which a new game
    # never deals, so the least played were five retired Rebel Chroniclers at 0%.
    retired = {int(c["id"]) for c in U.RETIRED_CARDS}
    ranked = sorted((c for c in C.CARD if c not in retired), key=lambda c: (-played[c], c))
    def fmt(cs: list[int]) -> str:
        return ", ".join(f"{C.CARD[c]['name']} {100 * played[c] / len(every):.0f}%" for c in cs)
    print(f"cards played most (share of games): {fmt(ranked[:8])}")
    print(f"cards played least: {fmt(ranked[-8:])}")


def report(args: argparse.Namespace, cells: dict[tuple[str, str, int, int], list[dict[str, Any]]],
           failed: dict[tuple[str, str, int, int], list[str]]) -> None:
    """Every cell's line, then each seed's summary."""
    for base in args.seeds:
        print(f"\n== seed {base}")
        mine = {}
        for mode in args.modes:
            for n in args.players:
                for level in args.levels:
                    key = (base, mode, n, level)
                    print(cell_line(mode, n, level, cells[key], failed[key]))
                    mine[mode, n, level] = cells[key]
        summary(base, mine)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="games per seed and cell")
    ap.add_argument("--seeds", nargs="+", default=["coop", "coop2"])
    ap.add_argument("--modes", nargs="+", default=["74", "193"])
    ap.add_argument("--players", nargs="+", type=int, default=[1, 2, 3, 4])
    ap.add_argument("--levels", nargs="+", type=int, default=[1, 2, 3, 4])
    ap.add_argument("--minutes", type=float, default=0.0,
                    help="start no new sweep after this long (0: no limit); the figures are of the sweeps done")
    ap.add_argument("--report-every", type=int, default=0, help="print the figures so far every N sweeps")
    args = ap.parse_args(argv)
    start = time.time()
    keys = [(b, m, n, lv) for b in args.seeds for m in args.modes for n in args.players for lv in args.levels]
    cells: dict[tuple[str, str, int, int], list[dict[str, Any]]] = {k: [] for k in keys}
    failed: dict[tuple[str, str, int, int], list[str]] = {k: [] for k in keys}
    total = errors = 0
    print("mode players level | games err | table wins | missed most (count) | markers left | Jacques vs "
          "lowest player | Luysa found / freed", flush=True)
    # Why game by game across every cell (a sweep: one game of each seed and cell): a run cut short
    # still has every cell and both seeds, evenly
    for g in range(args.games):
        if args.minutes and time.time() - start > 60 * args.minutes:
            print(f"(stopped after {g} sweeps: --minutes {args.minutes})")
            break
        for key in keys:
            base, mode, n, level = key
            seed = f"{base}-{mode}-{n}-{level}-{g}"
            try:
                cells[key].append(play(mode, n, level, seed))
            except Exception:  # noqa: BLE001 - counted and shown, the run goes on
                failed[key].append(seed)
                errors += 1
                if errors == 1:
                    traceback.print_exc()
            total += 1
        print(f"sweep {g + 1}: {total} games, {errors} errors, {time.time() - start:.0f} s", flush=True)
        if args.report_every and (g + 1) % args.report_every == 0:
            report(args, cells, failed)
    report(args, cells, failed)
    print(f"\n{total} games, {errors} errors, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
