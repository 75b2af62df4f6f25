"""Whole Maracaibo story campaigns played by the bot (issue 23): every game set up from the last
one's archive, every archive checked, every game replayed from seed + archive + moves.

    python bench/campaign.py --players 3 --campaigns 100

Prints the campaigns played, the errors (none expected), games a campaign, the votes taken and
the branches chosen, the legacy tiles and C-cards carried, and the time taken.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.maracaibo import RULES
from engine.testing import player_names


def play_game(n: int, seed: str, archive: dict[str, Any] | None) -> tuple[dict[str, Any], list[Any]]:
    state = RULES.setup(player_names(n), {"campaign": True}, seed, archive=archive)
    rnd = random.Random(seed)
    moves = []
    for _ in range(20_000):
        pending = RULES.pending(state)
        if not pending:
            break
        seat = pending[0]
        o = RULES.bot_choice(state, seat, RULES.options(state, seat), rnd)
        moves.append((seat, o.move))
        RULES.apply(state, seat, o.move)
    if RULES.outcome(state) is None:
        raise RuntimeError(f"game {seed} did not end")
    return state, moves


def campaign(n: int, name: str, stats: Counter[str]) -> None:
    archive: dict[str, Any] | None = None
    for g in range(10):
        seed = f"{name}-{g}"
        state, moves = play_game(n, seed, archive)
        again = RULES.setup(player_names(n), {"campaign": True}, seed, archive=archive)
        for seat, move in moves:
            RULES.apply(again, seat, move)
        if again != state:
            raise RuntimeError(f"game {seed} does not replay from seed + archive + moves")
        archive = RULES.archive(state)
        assert archive is not None
        stats["games"] += 1
        if archive["ended"]:
            s = archive["story"]
            stats[f"games {g + 1}"] += 1
            stats["votes"] += sum(1 for x in s["log"] if "choice" in x)
            stats["reads"] += len(s["read"])
            stats.update(f"flag {f}" for f in s["flags"])
            stats.update(f"legacy {t}" for t in archive["legacy"])
            stats["c-cards"] += len(s["c_cards"])
            return
        RULES.check_archive(archive)
    raise RuntimeError(f"campaign {name} did not end in 10 games")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--campaigns", type=int, default=20)
    ap.add_argument("--name", default="bench")
    args = ap.parse_args()
    stats: Counter[str] = Counter()
    errors = 0
    t0 = time.perf_counter()
    for i in range(args.campaigns):
        try:
            campaign(args.players, f"{args.name}-{args.players}-{i}", stats)
        except Exception:  # noqa: BLE001 - every error is counted and shown; the run goes on
            errors += 1
            traceback.print_exc()
    took = time.perf_counter() - t0
    print(f"{args.campaigns} campaigns of {args.players} players: {errors} errors, {stats['games']} games "
          f"({stats['games'] / max(1, args.campaigns):.2f} a campaign), {took:.0f} s "
          f"({stats['games'] / took:.1f} games/s, each replayed once more)")
    print("games a campaign:", {k: v for k, v in sorted(stats.items()) if k.startswith("games ")})
    print(f"story cards read {stats['reads']}, votes {stats['votes']}, C-cards unlocked {stats['c-cards']}")
    print("flags:", {k[5:]: v for k, v in sorted(stats.items()) if k.startswith("flag ")})
    print("legacy tiles at the end:", {k[7:]: v for k, v in sorted(stats.items()) if k.startswith("legacy ")})


if __name__ == "__main__":
    main()
