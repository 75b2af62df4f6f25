"""Story campaigns by seat (issue 23): who wins the campaign's games game by game and mode by mode,
the mean VP, the story tiles claimed, the story cards read and the tied votes broken, by seat; the
same campaigns as bench/campaign.py (its games, seeds and ranking: most game wins, then the highest
total, then the first seat), one player count a run.

    nice -n 10 python bench/campaign_seats.py --story uprising --players 3 --campaigns 250 --seed a
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.campaign import OPTIONS, play_game
from engine.games.maracaibo import RULES


def shares(c: Counter[int], n: int, total: int) -> str:
    return " / ".join(f"{100 * c[k] / max(1, total):.0f}" for k in range(n))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--story", choices=sorted(OPTIONS), default="uprising")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--campaigns", type=int, default=20)
    ap.add_argument("--seed", default="bench")
    args = ap.parse_args()
    n = args.players
    by_game: dict[int, Counter[int]] = defaultdict(Counter)
    by_mode: dict[str, Counter[int]] = defaultdict(Counter)
    vp: Counter[int] = Counter()
    campaign_wins: Counter[int] = Counter()
    tiles: Counter[int] = Counter()
    reads: Counter[int] = Counter()
    ties: Counter[int] = Counter()
    games = 0
    t0 = time.perf_counter()
    for i in range(args.campaigns):
        name = f"{args.seed}-{args.story}-{n}-{i}"  # (bench/campaign.py's names)
        archive: dict[str, Any] | None = None
        wins: Counter[int] = Counter()
        total: Counter[int] = Counter()
        for g in range(10):
            state, _moves = play_game(n, OPTIONS[args.story], f"{name}-{g}", archive)
            archive = RULES.archive(state)
            assert archive is not None
            result = archive["results"][-1]
            games += 1
            for w in result["winners"]:
                by_game[g + 1][w] += 1
                by_mode[str(state["options"].get("mode"))][w] += 1
                wins[w] += 1
            for seat, v in enumerate(result["scores"]):
                total[seat] += v
                vp[seat] += v
            tiles.update(t for t in state["story"]["tiles"] if t is not None)
            if archive["ended"]:
                break
        assert archive is not None
        for x in archive["story"]["log"]:
            reads[x["reader"]] += 1
            tally = x.get("tally") or {}
            if tally and list(tally.values()).count(max(tally.values())) > 1:
                ties[x["reader"]] += 1
        campaign_wins[max(range(n), key=lambda k: (wins[k], total[k], -k))] += 1
    took = time.perf_counter() - t0
    print(f"story {args.story}, {n} players, seed {args.seed!r}: {args.campaigns} campaigns, {games} games, "
          f"{took:.0f} s")
    print(f"campaigns won (%, by seat): {shares(campaign_wins, n, args.campaigns)}")
    for g in sorted(by_game):
        print(f"game {g}: share of the wins (%, by seat) {shares(by_game[g], n, sum(by_game[g].values()))} "
              f"({sum(by_game[g].values())} wins)")
    for m in sorted(by_mode):
        print(f"mode {m}: share of the wins (%, by seat) {shares(by_mode[m], n, sum(by_mode[m].values()))} "
              f"({sum(by_mode[m].values())} wins)")
    print("mean VP by seat:", " / ".join(f"{vp[k] / max(1, games):.1f}" for k in range(n)))
    print(f"story tiles claimed (%, by seat): {shares(tiles, n, sum(tiles.values()))} ({sum(tiles.values())})")
    print(f"story cards read (%, by seat): {shares(reads, n, sum(reads.values()))} ({sum(reads.values())})")
    print(f"tied votes broken, by seat: {dict(sorted(ties.items()))}")


if __name__ == "__main__":
    main()
