#!/usr/bin/env python
"""Solo Maracaibo: the seeded heuristic bot (the human seat) against Jean, the automa, by difficulty.

    python bench/maracaibo_jean.py [--games N] [--levels 1 2 3 4 5] [--seed S] [--option key=value ...]

Plays N games per difficulty level (each game from its own seed, the bot seeded by it) and
prints, per level: games, errors, how often the bot beats Jean, the bot's score, Jean's score
and Jean's margin (quartiles), and where Jean's points come from. Run by hand; the figures
go into docs/rules/maracaibo.md (Jean). Harder levels must beat the bot more often.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.maracaibo import RULES
from engine.testing import choose


def quartiles(xs: list[float]) -> str:
    s = sorted(xs)
    pick = [s[int(q * (len(s) - 1))] for q in (0, 0.25, 0.5, 0.75, 1)]
    return (f"min {pick[0]:g}  q1 {pick[1]:g}  median {pick[2]:g}  q3 {pick[3]:g}  max {pick[4]:g}  "
            f"mean {statistics.mean(s):.1f}")


def play(options: dict[str, object], seed: str) -> tuple[float, float, dict[str, int], int]:
    state = RULES.setup(["Bot"], options, seed)
    rnd = random.Random(f"{seed}-bot")
    moves = 0
    while RULES.pending(state):
        RULES.apply(state, 0, choose(RULES, state, 0, RULES.options(state, 0), rnd).move)
        moves += 1
    outcome = RULES.outcome(state)
    assert outcome is not None and "Jean" in outcome.automa
    assert bool(outcome.winners) == (outcome.scores[0] > outcome.automa["Jean"])
    return outcome.scores[0], outcome.automa["Jean"], dict(state["jean"]["victory_points_by_source"]), moves


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200, help="games per difficulty level")
    ap.add_argument("--levels", type=int, nargs="+", default=[1, 2, 3, 4, 5])
    ap.add_argument("--seed", default="jean")
    ap.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    base: dict[str, object] = dict(kv.split("=", 1) for kv in args.option)
    total = errors = 0
    started = time.perf_counter()
    for level in args.levels:
        options = {**base, "difficulty": level}
        bot: list[float] = []
        jean: list[float] = []
        src: Counter[str] = Counter()
        moves = 0
        failed: Counter[str] = Counter()
        for i in range(args.games):
            try:
                b, j, s, m = play(options, f"{args.seed}-{level}-{i}")
            except Exception as exc:  # noqa: BLE001 - a simulation reports every failure and goes on
                failed[f"{type(exc).__name__}: {exc}".splitlines()[0]] += 1
                if sum(failed.values()) == 1:
                    traceback.print_exc()
                continue
            bot.append(b)
            jean.append(j)
            src.update(s)
            moves += m
        total += args.games
        errors += sum(failed.values())
        done = len(bot)
        wins = sum(1 for b, j in zip(bot, jean, strict=True) if b > j)
        print(f"## difficulty {level} ({done} games, {sum(failed.values())} errors, {moves / max(done, 1):.0f} moves "
              f"a game)")
        print(f"bot beats Jean: {wins} of {done} ({100 * wins / max(done, 1):.1f} %)")
        print(f"bot score:   {quartiles(bot)}")
        print(f"Jean score:  {quartiles(jean)}")
        print(f"Jean - bot:  {quartiles([j - b for b, j in zip(bot, jean, strict=True)])}")
        all_points = sum(src.values()) or 1
        print("Jean's points by source: " + ", ".join(f"{k} {100 * v / all_points:.0f}% ({v / max(done, 1):.1f})"
                                                     for k, v in src.most_common()))
        for message, count in failed.most_common(5):
            print(f"error x{count}: {message}")
        print()
    elapsed = time.perf_counter() - started
    print(f"{total} games, {errors} errors, {elapsed:.0f} s ({total / max(elapsed, 1e-9):.1f} games/s)")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
