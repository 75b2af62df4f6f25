#!/usr/bin/env python
"""Balance figures for Maracaibo's SUBSTITUTE CONTENT, from games of the seeded heuristic bot.

    python bench/maracaibo_balance.py [--games N] [--players 2 3 4] [--option key=value ...]

Prints, per player count: the score distribution, the share of points by
source, wins by seat, game length (turns and moves), and how often each card
is bought, overall and by winners (the five most and least bought). Run by
hand; the figures go into docs/rules/maracaibo.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.testing import choose, player_names


def play(n: int, options: dict[str, object], seed: str) -> dict[str, object]:
    state = RULES.setup(player_names(n), options, seed)
    rnd = random.Random(f"{seed}-bot")
    moves = 0
    while pending := RULES.pending(state):
        seat = pending[0]
        RULES.apply(state, seat, choose(RULES, state, seat, RULES.options(state, seat), rnd).move)
        moves += 1
    outcome = RULES.outcome(state)
    assert outcome is not None
    return {"state": state, "winners": outcome.winners, "moves": moves}


def quantiles(xs: list[float]) -> str:
    xs = sorted(xs)
    pick = [xs[int(q * (len(xs) - 1))] for q in (0, 0.25, 0.5, 0.75, 1)]
    return (f"min {pick[0]:.0f}  q1 {pick[1]:.0f}  median {pick[2]:.0f}  q3 {pick[3]:.0f}  max {pick[4]:.0f}  "
            f"mean {statistics.mean(xs):.1f}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", "-k", type=int, default=200)
    parser.add_argument("--players", "-n", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--option", "-o", action="append", default=[])
    parser.add_argument("--seed", default="balance")
    args = parser.parse_args(argv)
    options = dict(pair.split("=", 1) for pair in args.option)
    print(f"Maracaibo balance ({C.LABEL}); bot games: {args.games} per player count; options {options}")
    for n in args.players:
        started = time.perf_counter()
        scores: list[float] = []
        win_scores: list[float] = []
        sources: Counter[str] = Counter()
        wins: Counter[int] = Counter()
        turns: list[float] = []
        moves: list[float] = []
        bought: Counter[int] = Counter()
        bought_by_winners: Counter[int] = Counter()
        for i in range(args.games):
            r = play(n, options, f"{args.seed}-{n}-{i}")
            state = r["state"]
            winners = r["winners"]
            assert isinstance(winners, tuple) and isinstance(state, dict)
            for w in winners:
                wins[w] += 1
            for s, p in enumerate(state["p"]):
                scores.append(p["vp"])
                sources.update(p["src"])
                bought.update(p["bought"])
                if s in winners:
                    win_scores.append(p["vp"])
                    bought_by_winners.update(p["bought"])
            turns.append(state["turns"] / n)
            moves.append(float(str(r["moves"])))
        elapsed = time.perf_counter() - started
        total = sum(sources.values()) or 1
        print(f"\n## {n} players ({args.games} games, {args.games / elapsed:.1f} games/s)")
        print(f"scores: {quantiles(scores)}")
        print(f"winning scores: {quantiles(win_scores)}")
        print("points by source: " + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in sources.most_common()))
        print("wins by seat: " + ", ".join(f"seat {s + 1} {100 * wins[s] / args.games:.0f}%" for s in range(n)))
        print(f"turns per player: {quantiles(turns)}; moves per game: {quantiles(moves)}")
        games = args.games
        ranked = bought.most_common()
        print("most bought: " + "; ".join(f"{C.CARD[c]['name']} ({c}) {v / games:.2f}/game, by winners "
                                          f"{bought_by_winners[c] / games:.2f}" for c, v in ranked[:5]))
        never = [c for c in C.CARD if bought[c] == 0]
        print("least bought: " + "; ".join(f"{C.CARD[c]['name']} ({c}) {v / games:.2f}/game" for c, v in ranked[-5:])
              + f"; never bought: {len(never)} cards")
        # Why a share: a card every winner buys may just be a card everybody buys; the share of its
        # purchases made by the game's winners, against 1/n, says whether it wins games.
        often = [c for c, v in ranked if v >= 0.2 * games]
        share = sorted(often, key=lambda c: -bought_by_winners[c] / bought[c])
        print(f"winners' share of purchases (even: {100 / n:.0f}%): " + "; ".join(
            f"{C.CARD[c]['name']} ({c}) {100 * bought_by_winners[c] / bought[c]:.0f}%" for c in share[:5])
              + " ... lowest " + "; ".join(f"{C.CARD[c]['name']} ({c}) {100 * bought_by_winners[c] / bought[c]:.0f}%"
                                           for c in share[-3:]))
        kinds: Counter[str] = Counter()
        for c, v in bought.items():
            for e in C.CARD[c]["effects"] or [{"t": "end VP only"}]:
                kinds[e["t"]] += v
        print("purchases by effect kind: " + ", ".join(f"{k} {v / games:.1f}/game" for k, v in kinds.most_common()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
