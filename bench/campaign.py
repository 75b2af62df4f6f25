"""Whole Maracaibo story campaigns played by the bot (issue 23): every game set up from the last
one's archive, every archive checked, every game replayed from seed + archive + moves; the votes
taken by the bots (at random, seeded). With the balance figures of docs/rules/maracaibo-campaign.md.

    python bench/campaign.py --story uprising --players 2,3,4 --campaigns 100 --seed a

Prints the campaigns played and the errors (none expected), games a campaign, each vote's outcomes
and how often each was chosen, the legacy tiles carried, the score spread game by game, and the
standings by seat (campaign wins: most game wins, then the highest total, as the service ranks).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.maracaibo import RULES
from engine.testing import player_names

#: the options of a first game, by story
OPTIONS: dict[str, dict[str, Any]] = {"base": {"campaign": True}, "uprising": {"campaign": True, "mode": "campaign"}}


def play_game(n: int, options: dict[str, Any], seed: str,
              archive: dict[str, Any] | None) -> tuple[dict[str, Any], list[Any]]:
    state = RULES.setup(player_names(n), options, seed, archive=archive)
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


class Stats:
    def __init__(self) -> None:
        self.count: Counter[str] = Counter()
        self.votes: dict[str, Counter[str]] = defaultdict(Counter)  # "card title" -> choice -> times
        self.scores: dict[int, list[int]] = defaultdict(list)  # game number -> every seat's score
        self.spread: dict[int, list[int]] = defaultdict(list)  # game number -> best minus worst
        self.seat_games: dict[int, Counter[int]] = defaultdict(Counter)  # players -> seat -> games won
        self.seat_campaigns: dict[int, Counter[int]] = defaultdict(Counter)  # players -> seat -> campaigns won
        self.campaigns: Counter[int] = Counter()  # players -> campaigns
        # solo: game -> [games won against the automa, games]; campaigns won (more game wins than losses)
        self.solo_games: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        self.solo_vp: dict[str, list[int]] = defaultdict(list)  # game kind -> the player's VP minus the automa's
        self.solo_campaigns = [0, 0]


def campaign(n: int, story: str, name: str, st: Stats, automa: str = "jean") -> None:
    archive: dict[str, Any] | None = None
    options = {**OPTIONS[story], "automa": automa} if n == 1 else OPTIONS[story]
    for g in range(10):
        seed = f"{name}-{g}"
        state, moves = play_game(n, options, seed, archive)
        again = RULES.setup(player_names(n), options, seed, archive=archive)
        for seat, move in moves:
            RULES.apply(again, seat, move)
        if again != state:
            raise RuntimeError(f"game {seed} does not replay from seed + archive + moves")
        archive = RULES.archive(state)
        assert archive is not None
        st.count["games"] += 1
        if archive["ended"]:
            break
        RULES.check_archive(archive)
    else:
        raise RuntimeError(f"campaign {name} did not end in 10 games")
    s = archive["story"]
    st.count[f"games {g + 1}"] += 1
    st.count["votes"] += sum(1 for x in s["log"] if "choice" in x)
    st.count["reads"] += len(s["read"])
    st.count.update(f"legacy {t}" for t in archive["legacy"])
    st.count.update(f"module {m}" for m in s["modules"])
    for x in s["log"]:
        if "choice" in x:
            st.votes[f"card {x['card']}"][x["choice"]] += 1
    wins: Counter[int] = Counter()
    total: Counter[int] = Counter()
    for r in archive["results"]:
        st.scores[r["game"]] += r["scores"]
        st.spread[r["game"]].append(max(r["scores"]) - min(r["scores"]))
        for w in r["winners"]:
            wins[w] += 1
            st.seat_games[n][w] += 1
        for i, v in enumerate(r["scores"]):
            total[i] += v
    st.count.update(f"scenario {r['scenario']}" for r in archive["results"] if "scenario" in r)
    if n == 1:  # solo: against the automa (a tie is the automa's); card 185's game: the table's result
        for r in archive["results"]:
            kind = f"{r['automa']['name']}" + (f" (scenario {r['scenario']})" if "scenario" in r else "")
            st.solo_games[kind][0] += 1 if r["winners"] else 0
            st.solo_games[kind][1] += 1
            st.solo_vp[kind].append(r["scores"][0] - r["automa"]["vp"])
        won = sum(1 for r in archive["results"] if r["winners"])
        st.solo_campaigns[0] += 1 if won > len(archive["results"]) - won else 0
        st.solo_campaigns[1] += 1
    best = max(range(n), key=lambda i: (wins[i], total[i], -i))  # (a full tie: the first seat, as listed)
    st.seat_campaigns[n][best] += 1
    st.campaigns[n] += 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--story", choices=sorted(OPTIONS), default="base")
    ap.add_argument("--players", default="3", help="player counts, taken in turn (e.g. 2,3,4)")
    ap.add_argument("--campaigns", type=int, default=20)
    ap.add_argument("--seed", default="bench", help="the name the campaigns' seeds are made from")
    ap.add_argument("--automa", choices=("jean", "jacques"), default="jean", help="solo: the automa played against")
    ap.add_argument("--report-every", type=int, default=0, help="also print the figures so far every N campaigns")
    args = ap.parse_args()
    counts = [int(x) for x in args.players.split(",")]
    st = Stats()
    errors = 0
    t0 = time.perf_counter()
    for i in range(args.campaigns):
        n = counts[i % len(counts)]
        try:
            campaign(n, args.story, f"{args.seed}-{args.story}-{n}-{i}", st, args.automa)
        except Exception:  # noqa: BLE001 - every error is counted and shown; the run goes on
            errors += 1
            traceback.print_exc()
        if args.report_every and (i + 1) % args.report_every == 0 and i + 1 < args.campaigns:
            report(args, i + 1, errors, time.perf_counter() - t0, st)
    report(args, args.campaigns, errors, time.perf_counter() - t0, st)


def report(args: argparse.Namespace, played: int, errors: int, took: float, st: Stats) -> None:
    c = st.count
    print(f"story {args.story}, seed {args.seed!r}, players {args.players} (solo against {args.automa}): "
          f"{played} campaigns, "
          f"{errors} errors, {c['games']} games ({c['games'] / max(1, played):.2f} a campaign), {took:.0f} s "
          f"({c['games'] / took:.1f} games/s, each replayed once more)")
    print("games a campaign:", {k: v for k, v in sorted(c.items()) if k.startswith("games ")})
    print(f"story cards read {c['reads']}, votes {c['votes']}")
    for card, choices in sorted(st.votes.items(), key=lambda x: int(x[0].split()[1])):
        all_ = sum(choices.values())
        print(f"  vote on {card}: " + ", ".join(f"{k} {v} ({100 * v / all_:.0f}%)" for k, v in choices.most_common()))
    print("legacy tiles at the end:", {k[7:]: v for k, v in sorted(c.items()) if k.startswith("legacy ")})
    print("scenario games (cards 184/185):", {k[9:]: v for k, v in sorted(c.items()) if k.startswith("scenario ")})
    print("modules added:", {k[7:]: v for k, v in sorted(c.items()) if k.startswith("module ")})
    print("scores by game (every seat): mean, stdev, spread best-worst mean")
    for g in sorted(st.scores):
        sc = st.scores[g]
        print(f"  game {g}: {statistics.mean(sc):.1f}, {statistics.pstdev(sc):.1f}, "
              f"{statistics.mean(st.spread[g]):.1f} ({len(st.spread[g])} games)")
    print("standings by seat (share of game wins; share of campaigns won):")
    for n in sorted(st.campaigns):
        gw = st.seat_games[n]
        allw = sum(gw.values())
        print(f"  {n} players, {st.campaigns[n]} campaigns: games " + ", ".join(
            f"seat {s + 1} {100 * gw[s] / max(1, allw):.0f}%" for s in range(n)) + "; campaigns " + ", ".join(
            f"seat {s + 1} {100 * st.seat_campaigns[n][s] / st.campaigns[n]:.0f}%" for s in range(n)))
    if st.solo_campaigns[1]:
        print(f"solo: campaigns won (more games won than lost) {st.solo_campaigns[0]} of {st.solo_campaigns[1]}")
        for kind, (won, games) in sorted(st.solo_games.items()):
            gap = st.solo_vp[kind]
            print(f"  against {kind}: games won {won} of {games} ({100 * won / games:.0f}%), player minus automa "
                  f"VP mean {statistics.mean(gap):.1f}, sd {statistics.pstdev(gap):.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
