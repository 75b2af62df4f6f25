#!/usr/bin/env python
"""Maracaibo: The Uprising's cooperative scenarios, measured: N games of the bot playing as a table
per mode (74, 193), player count and Jacques's level.

    nice -n 19 python bench/coop.py [--games N] [--modes 74 193] [--players 1 2 3 4] [--levels 1 2 3 4]
                                    [--seed S]

Every seat is the project's bot (``engine.games.maracaibo.bot``; it liberates where it pays, plays The
Search for the table: always reveals a hint, clears a blocked red space, frees Luysa at once). For
each cell it prints the games finished and any error (with the first failing seed), the table's win
rate, how often each victory condition was missed (the one that fails most first), the markers left
at the end, Jacques's VP against the table's lowest, and (193) how often Luysa was found and freed.

The content of ``data/uprising/`` is SUBSTITUTE CONTENT. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.maracaibo import RULES, coop
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
    return {"won": out.team.won, "missed": out.team.missed, "markers": coop.markers_left(state),
            "jacques": state["jacques"]["vp"], "lowest": min(p["vp"] for p in state["p"]),
            "found": bool(s.get("found")), "freed": s.get("freed") is not None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--modes", nargs="+", default=["74", "193"])
    ap.add_argument("--players", nargs="+", type=int, default=[1, 2, 3, 4])
    ap.add_argument("--levels", nargs="+", type=int, default=[1, 2, 3, 4])
    ap.add_argument("--seed", default="coop")
    args = ap.parse_args()
    start = time.time()
    total = errors = 0
    print("mode players level | games err | table wins | missed most (count) | markers left | Jacques vs "
          "lowest player | Luysa found / freed")
    for mode in args.modes:
        for n in args.players:
            for level in args.levels:
                rows, failed = [], []
                for g in range(args.games):
                    seed = f"{args.seed}-{mode}-{n}-{level}-{g}"
                    try:
                        rows.append(play(mode, n, level, seed))
                    except Exception:  # noqa: BLE001 - counted and shown, the run goes on
                        failed.append(seed)
                        if len(failed) == 1:
                            traceback.print_exc()
                total += args.games
                errors += len(failed)
                if not rows:
                    print(f"{mode:>4} {n} {level} | 0 {len(failed)} | (no game finished: {failed[:1]})")
                    continue
                missed = Counter(m for r in rows for m in r["missed"])
                most = ", ".join(f"{m} ({c})" for m, c in missed.most_common())
                wins = sum(1 for r in rows if r["won"])
                luysa = (f"{sum(1 for r in rows if r['found'])} / {sum(1 for r in rows if r['freed'])}"
                         if mode == "193" else "-")
                print(f"{mode:>4} {n} {level} | {len(rows)} {len(failed)} | {wins}/{len(rows)} "
                      f"({100 * wins / len(rows):.0f}%) | {most or '-'} | "
                      f"{statistics.mean(r['markers'] for r in rows):.1f} | "
                      f"{statistics.mean(r['jacques'] for r in rows):.0f} vs "
                      f"{statistics.mean(r['lowest'] for r in rows):.0f} | {luysa}"
                      + (f" | first error seed {failed[0]}" if failed else ""))
    print(f"{total} games, {errors} errors, {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
