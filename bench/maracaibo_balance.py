#!/usr/bin/env python
"""Balance figures for Maracaibo's SUBSTITUTE CONTENT, from games of the seeded heuristic bot.

    python bench/maracaibo_balance.py [--games N] [--players 2 3 4] [--option key=value ...]
    python bench/maracaibo_balance.py --against random|v1 [--games N] [--players 2 3 4]
    python bench/maracaibo_balance.py --ab explorer=1.5,quests=1.5 [--ab influence=0.6 ...] [--games N]
    python bench/maracaibo_balance.py --games 1000 --dump runs/75.jsonl ...; then --pool runs/*.jsonl

Prints, per player count: the score distribution, the share of points by
source, what a player does in a game (deliveries, ship upgrades, quests,
combats, explorer, cards), wins by seat, game length (turns and moves), how
often each card is bought, overall and by winners, and how often each ship
upgrade is completed, overall and by winners. Run by hand; the figures go into
docs/rules/maracaibo-balance.md.

``--against``: one seat (each seat in turn, game by game) is the bot, the others
play random legal moves (``random``) or the first bot (``v1``,
bench/maracaibo_bot_v1.py); prints the bot's win rate against the even share.

``--ab``: self-play, one seat (each in turn) the bot with some of its value weights changed
(``engine.games.maracaibo.bot.WEIGHTS``), the others the bot as it is: does leaning on one
source pay? A ship area's id as a weight (``--ab U8=6``) adds that many VP to the bot's value of
completing it, to judge an area the bot seldom completes by a bot that goes for it.

``--dump FILE``: one JSON line a game (player count, options, winners, each seat's score, points
by source, cards bought and ship areas completed). ``--table FILE ...``: the criteria table of
docs/rules/maracaibo-balance.md, one row per player count and scenario of such files. ``--pool FILE ...``:
each ship area's and card's winners' share against the even share over all the files' games together,
of any player counts and scenarios (an area completed by few players a game is judged this way).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.core import Option, State
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo.board import multiplier
from engine.games.maracaibo.bot import choose as bot
from engine.games.maracaibo.effects import count_of
from engine.testing import player_names

Chooser = Callable[[State, int, list[Option], random.Random], Option]


def _random(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
    return rnd.choice(options)


def _v1(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
    from bench.maracaibo_bot_v1 import choose

    return choose(state, seat, options, rnd)


OPPONENTS: dict[str, Chooser] = {"random": _random, "v1": _v1}


def play(n: int, options: dict[str, object], seed: str,
         players: Sequence[Chooser] | None = None) -> dict[str, object]:
    state = RULES.setup(player_names(n), options, seed)
    rnd = random.Random(f"{seed}-bot")
    moves = 0
    who = list(players) if players else [bot] * n
    while pending := RULES.pending(state):
        seat = pending[0]
        opts = RULES.options(state, seat)
        RULES.apply(state, seat, who[seat](state, seat, opts, rnd).move)
        moves += 1
        if moves > 20000:
            raise RuntimeError(f"game {seed} did not end")
    outcome = RULES.outcome(state)
    assert outcome is not None
    return {"state": state, "winners": outcome.winners, "moves": moves}


def quantiles(xs: list[float]) -> str:
    xs = sorted(xs)
    pick = [xs[int(q * (len(xs) - 1))] for q in (0, 0.25, 0.5, 0.75, 1)]
    return (f"min {pick[0]:.0f}  q1 {pick[1]:.0f}  median {pick[2]:.0f}  q3 {pick[3]:.0f}  max {pick[4]:.0f}  "
            f"mean {statistics.mean(xs):.1f}")


#: what a player did in a game, from its part of the final state
ACTIVITY: dict[str, Callable[[dict[str, Any]], float]] = {
    "deliveries": lambda p: p["delivered"],
    "upgrades": lambda p: len(p["areas"]),
    "quests": lambda p: p["quests"],
    "combats": lambda p: p["tokens"],
    "explorer": lambda p: p["explorer"],
    "cards": lambda p: len(p["bought"]),
    "influence": lambda p: sum(p["influence"].values()),
    "assistants": lambda p: len(p["assist"]),
}


def against(n: int, opponent: str, games: int, options: dict[str, object], seed: str) -> None:
    wins = 0.0
    margins: list[float] = []
    for i in range(games):
        me = i % n
        who: list[Chooser] = [OPPONENTS[opponent]] * n
        who[me] = bot
        r = play(n, options, f"{seed}-{opponent}-{n}-{i}", who)
        winners = r["winners"]
        assert isinstance(winners, tuple)
        state = r["state"]
        assert isinstance(state, dict)
        if me in winners:
            wins += 1 / len(winners)
        best_other = max(p["victory_points"] for s, p in enumerate(state["seats"]) if s != me)
        margins.append(state["seats"][me]["victory_points"] - best_other)
    print(f"{n} players, the bot against {n - 1} {opponent} seat{'s' if n > 2 else ''}: the bot wins "
          f"{100 * wins / games:.1f}% of {games} games (even share {100 / n:.0f}%); its score minus the best "
          f"other: {quantiles(margins)}")


def ab(n: int, spec: str, games: int, options: dict[str, object], seed: str) -> None:
    weights = {k: float(v) for k, v in (kv.split("=") for kv in spec.split(","))}

    def leaning(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
        return bot(state, seat, options, rnd, weights)

    wins = 0.0
    margins: list[float] = []
    areas: Counter[str] = Counter()
    for i in range(games):
        me = i % n
        who: list[Chooser] = [bot] * n
        who[me] = leaning
        r = play(n, options, f"{seed}-ab-{n}-{i}", who)
        winners = r["winners"]
        state = r["state"]
        assert isinstance(winners, tuple) and isinstance(state, dict)
        if me in winners:
            wins += 1 / len(winners)
        margins.append(state["seats"][me]["victory_points"] - max(p["victory_points"]
                                                                  for s, p in enumerate(state["seats"]) if s != me))
        areas.update(state["seats"][me]["areas"])
    named = [k for k in weights if k in C.UPGRADE]
    completed = "".join(f", completes {k} in {100 * areas[k] / games:.0f}% of them" for k in named)
    print(f"{n} players, the bot with {spec} against the bot: wins {100 * wins / games:.1f}% of {games} games "
          f"(even {100 / n:.0f}%), mean margin over the best other {statistics.mean(margins):+.1f}{completed}")


def pool(paths: Sequence[str]) -> None:
    """Winners' share of each ship area and card over dumped games of any player counts, against even.

    Each completion (purchase) by a player of an n-player game adds 1/n to the even expectation and 1 to
    the winners' count if that player won (a tie shares the win): the excess is (winners - even) over
    the completions, in points, with its standard error."""
    games = 0
    configs: Counter[str] = Counter()
    counts: dict[str, dict[str, list[float]]] = {"area": {}, "card": {}}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line)
                games += 1
                n = g["n"]
                configs[f"{n} players, scenario {g['options'].get('scenario', '75')}"] += 1
                for s, p in enumerate(g["seats"]):
                    won = 1 / len(g["winners"]) if s in g["winners"] else 0.0
                    for what, ids in (("area", p["areas"]), ("card", p["bought"])):
                        for x in ids:
                            c = counts[what].setdefault(str(x), [0.0, 0.0, 0.0, 0.0])
                            c[0] += 1
                            c[1] += won
                            c[2] += 1 / n
                            c[3] += (1 / n) * (1 - 1 / n)
    print(f"pooled: {games} games ({', '.join(f'{k}: {v}' for k, v in sorted(configs.items()))})")

    def fmt(c: list[float]) -> str:
        k, won, even, var = c
        se = 100 * math.sqrt(var) / k  # each completion a win with chance 1/n if the area changed nothing
        return f"{k:.0f} times, winners {100 * won / k:.1f}% (even {100 * even / k:.1f}%, " \
               f"{100 * (won - even) / k:+.1f} points, s.e. {se:.1f})"

    print("ship areas completed (per player-game; winners' share against even):")
    seats = sum(int(cfg.split()[0]) * v for cfg, v in configs.items())
    for u in C.UPGRADES:
        got = counts["area"].get(u["id"])
        print(f"  {u['id']} {0 if not got else got[0] / seats:.3f}: " + (fmt(got) if got else "never"))
    cards = sorted(counts["card"].items(), key=lambda kv: -(kv[1][1] - kv[1][2]) / kv[1][0])
    cards = [(k, c) for k, c in cards if c[0] >= 0.2 * games]
    print("cards bought in 1 game of 5 or more, highest excess over even first:")
    for k, c in cards[:8]:
        print(f"  {C.CARD[int(k)]['name']} ({k}) " + fmt(c))


def table(paths: Sequence[str]) -> None:
    """One row per player count and scenario of --dump files, against the criteria of docs/rules/maracaibo.md:
    wins by seat, the sources, the card and effect kind with the highest winners' share, the ship areas judged
    (completed in one game of five or more) and the one furthest from even."""
    rows: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                g = json.loads(line)
                rows.setdefault((g["n"], g["options"].get("scenario", "75")), []).append(g)
    print("| players | scenario | games | wins by seat (%) | largest seat gap (limit 3) | cards / nations / next "
          "source (%) | highest card winners' share (limit) | highest effect kind (limit) | ship areas judged: "
          "the furthest from even (limit 10) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (n, sc), games in sorted(rows.items()):
        even = 100 / n
        wins: dict[int, float] = dict.fromkeys(range(n), 0.0)
        src: Counter[str] = Counter()
        bought: Counter[int] = Counter()
        by_winners: Counter[int] = Counter()
        areas: Counter[str] = Counter()
        areas_by_winners: Counter[str] = Counter()
        area_games: Counter[str] = Counter()
        for g in games:
            for w in g["winners"]:
                wins[w] += 1 / len(g["winners"])
            done: set[str] = set()
            for s, p in enumerate(g["seats"]):
                src.update(p["victory_points_by_source"])
                bought.update(p["bought"])
                areas.update(p["areas"])
                done.update(p["areas"])
                if s in g["winners"]:
                    by_winners.update(p["bought"])
                    areas_by_winners.update(p["areas"])
            area_games.update(done)
        seats = [100 * wins[s] / len(games) for s in range(n)]
        total = sum(src.values())
        third = max((100 * v / total, k) for k, v in src.items() if k not in ("cards", "nations"))
        often = [c for c, v in bought.items() if v >= 0.2 * len(games)]
        card = max(often, key=lambda c: by_winners[c] / bought[c])
        kinds: dict[str, list[float]] = {}
        for c, v in bought.items():
            for e in C.CARD[c]["effects"] or [{"t": "end VP only"}]:
                kinds.setdefault(e["t"], [0.0, 0.0])
                kinds[e["t"]][0] += v
                kinds[e["t"]][1] += by_winners[c]
        kind = max(kinds, key=lambda k: kinds[k][1] / kinds[k][0])
        judged = sorted((u for u in areas if area_games[u] >= 0.2 * len(games)), key=lambda u: int(u[1:]))
        far = max(judged, key=lambda u: abs(100 * areas_by_winners[u] / areas[u] - even))
        print(f"| {n} | {sc} | {len(games)} | {' / '.join(f'{x:.1f}' for x in seats)} | "
              f"{max(abs(x - even) for x in seats):.1f} | {100 * src['cards'] / total:.0f} / "
              f"{100 * src['nations'] / total:.0f} / {third[1]} {third[0]:.0f} | {C.CARD[card]['name']} ({card}) "
              f"{100 * by_winners[card] / bought[card]:.1f} ({even + 15:.1f}) | {kind} "
              f"{100 * kinds[kind][1] / kinds[kind][0]:.1f} ({even + 8:.1f}) | {', '.join(judged)}: {far} "
              f"{100 * areas_by_winners[far] / areas[far]:.1f} (even {even:.1f}) |")

def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", "-k", type=int, default=200)
    parser.add_argument("--players", "-n", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--option", "-o", action="append", default=[])
    parser.add_argument("--seed", default="balance")
    parser.add_argument("--against", choices=sorted(OPPONENTS))
    parser.add_argument("--ab", action="append", default=[], help="weights of one seat, e.g. influence=1.5")
    parser.add_argument("--dump", help="write one JSON line a game to this file")
    parser.add_argument("--pool", nargs="+", help="read --dump files and print pooled winners' shares")
    parser.add_argument("--table", nargs="+", help="read --dump files and print the criteria table")
    args = parser.parse_args(argv)
    if args.pool:
        pool(args.pool)
        return 0
    if args.table:
        table(args.table)
        return 0
    options = dict(pair.split("=", 1) for pair in args.option)
    dump = open(args.dump, "w", encoding="utf-8") if args.dump else None  # noqa: SIM115
    if args.ab:
        for n in args.players:
            for spec in args.ab:
                ab(n, spec, args.games, options, args.seed)
        return 0
    if args.against:
        for n in args.players:
            against(n, args.against, args.games, options, args.seed)
        return 0
    print(f"Maracaibo balance ({C.LABEL}); bot games: {args.games} per player count; options {options}")
    for n in args.players:
        started = time.perf_counter()
        scores: list[float] = []
        win_scores: list[float] = []
        sources: Counter[str] = Counter()
        wins: dict[int, float] = dict.fromkeys(range(n), 0.0)
        turns: list[float] = []
        moves: list[float] = []
        bought: Counter[int] = Counter()
        bought_by_winners: Counter[int] = Counter()
        areas: Counter[str] = Counter()
        areas_by_winners: Counter[str] = Counter()
        activity: dict[str, float] = dict.fromkeys(ACTIVITY, 0.0)
        prestige: dict[str, list[float]] = {b["id"]: [0.0, 0.0, 0.0] for b in C.TILES["prestige"]}
        nations: list[float] = []
        for i in range(args.games):
            r = play(n, options, f"{args.seed}-{n}-{i}")
            state = r["state"]
            winners = r["winners"]
            assert isinstance(winners, tuple) and isinstance(state, dict)
            for w in winners:
                wins[w] += 1 / len(winners)
            if dump:
                dump.write(json.dumps({"n": n, "options": options, "seed": f"{args.seed}-{n}-{i}",
                                       "winners": list(winners), "p": [
                                           {"victory_points": p["victory_points"],
                                            "victory_points_by_source": p["victory_points_by_source"],
                                            "bought": p["bought"],
                                            "areas": p["areas"]} for p in state["seats"]]}) + "\n")
                dump.flush()
            for s, p in enumerate(state["seats"]):
                scores.append(p["victory_points"])
                sources.update(p["victory_points_by_source"])
                bought.update(p["bought"])
                areas.update(p["areas"])
                for k, f in ACTIVITY.items():
                    activity[k] += f(p)
                if s in winners:
                    win_scores.append(p["victory_points"])
                    bought_by_winners.update(p["bought"])
                    areas_by_winners.update(p["areas"])
            for b in state["prestige"]:
                pb = C.PRESTIGE[b["id"]]
                prestige[b["id"]][0] += 1
                for s in b["investors"]:
                    prestige[b["id"]][1] += 1
                    prestige[b["id"]][2] += pb["vp"] * count_of(state["seats"][s], pb["per"])
            nations.append(max(multiplier(state).values()))
            turns.append(state["turns"] / n)
            moves.append(float(str(r["moves"])))
        elapsed = time.perf_counter() - started
        total = sum(sources.values()) or 1
        games = args.games
        seats = games * n
        print(f"\n## {n} players ({games} games, {games / elapsed:.1f} games/s)")
        print(f"scores: {quantiles(scores)}")
        print(f"winning scores: {quantiles(win_scores)}")
        print("points by source: " + ", ".join(f"{k} {100 * v / total:.0f}% ({v / seats:.1f})"
                                               for k, v in sources.most_common()))
        print("a player's game: " + ", ".join(f"{k} {v / seats:.1f}" for k, v in activity.items()))
        print("prestige buildings (investors per game in play, end VP per investor): " + ", ".join(
            f"{C.PRESTIGE[b]['name']} {inv / max(1, k):.1f}, {vp / max(1, inv):.1f}"
            for b, (k, inv, vp) in prestige.items()))
        print(f"highest nation multiplier at the end: {quantiles(nations)}")
        print("wins by seat: " + ", ".join(f"seat {s + 1} {100 * wins[s] / games:.1f}%" for s in range(n)))
        print(f"turns per player: {quantiles(turns)}; moves per game: {quantiles(moves)}")
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
        print(f"winners' share of purchases (cards bought in 1 game of 5 or more; even: {100 / n:.0f}%): " + "; ".join(
            f"{C.CARD[c]['name']} ({c}) {100 * bought_by_winners[c] / bought[c]:.0f}%" for c in share[:5])
              + " ... lowest " + "; ".join(f"{C.CARD[c]['name']} ({c}) {100 * bought_by_winners[c] / bought[c]:.0f}%"
                                           for c in share[-3:]))
        print("ship upgrades completed per player (winners' share): " + ", ".join(
            f"{u['id']} {areas[u['id']] / seats:.2f} ({100 * areas_by_winners[u['id']] / max(1, areas[u['id']]):.0f}%)"
            for u in C.UPGRADES))
        kinds: Counter[str] = Counter()
        for c, v in bought.items():
            for e in C.CARD[c]["effects"] or [{"t": "end VP only"}]:
                kinds[e["t"]] += v
        print("purchases by effect kind: " + ", ".join(f"{k} {v / games:.1f}/game" for k, v in kinds.most_common()))
        by_kind: dict[str, list[float]] = {}
        for c, v in bought.items():
            for e in C.CARD[c]["effects"] or [{"t": "end VP only"}]:
                by_kind.setdefault(e["t"], [0.0, 0.0])
                by_kind[e["t"]][0] += v
                by_kind[e["t"]][1] += bought_by_winners[c]
        print("winners' share of purchases by effect kind: " + ", ".join(
            f"{k} {100 * w / max(1, v):.0f}%" for k, (v, w) in sorted(by_kind.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
