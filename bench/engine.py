#!/usr/bin/env python
"""Engine benchmark: random games per second, and the cost of one move against a JSON round trip.

    python bench/engine.py [--games N] [--positions M] [--game NAME ...]

For every registered game, each board side (a ``side`` choice option) and a few
player counts (min, middle, max):

* games/s: complete random games (the game's own bot where it has one), no checks;
* move: the service's work for one move in a position taken from those games:
  the mover's options, apply one of them, then the view of every seat;
* json: one ``json.dumps`` plus ``json.loads`` of the same state, the least the
  service pays per move to store and load the state;
* ratio = move / json, both measured now, in this process: a figure to compare before and after
  a change to the rules (regressions), not a goal. The engine is a small part of what a move
  costs the service (docs/scaling.md), so no verdict is printed; the service's goals are in
  bench/pipeline.py, bench/api.py and bench/storage.py.

The last line says which engine ran: the rules compiled with mypyc (``make compile`` builds
them, engine/compiled.py) or plain Python (``PBEM_ENGINE_PURE=1``, or no build).

The engine and JSON passes over the same positions alternate ``--rounds`` times
(fresh copies each pass, copying not timed); the times shown are the best pass,
the ratio is the median of the paired ratios, which holds up on a busy machine. Games that cannot be imported yet are
listed as skipped with the reason. Run by hand; never part of the test suite.
"""

from __future__ import annotations

import argparse
import copy
import json
import platform
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a checkout, installed or not

from engine import compiled, registry
from engine.core import Rules, State
from engine.testing import choose, player_names, run_game


@dataclass
class Config:
    label: str
    players: int
    options: dict[str, Any]


@dataclass
class Result:
    games_per_s: float
    moves_per_game: float
    move_us: float
    json_us: float
    state_bytes: float
    ratio: float  # median over paired rounds of (engine time / JSON time)


def configurations(rules: Rules) -> list[Config]:
    side = next((s for s in rules.option_specs if s.name == "side" and s.kind == "choice"), None)
    sides: Sequence[Any] = side.choices if side else (None,)
    lo, hi = rules.min_players, rules.max_players
    counts = sorted({lo, (lo + hi) // 2, hi})
    return [Config("-" if s is None else str(s), n, {} if s is None else {"side": s}) for s in sides for n in counts]


def games_per_second(rules: Rules, cfg: Config, games: int, seed: str) -> tuple[float, float]:
    started = time.perf_counter()
    moves = 0
    for i in range(games):
        report = run_game(rules, cfg.players, cfg.options, f"{seed}-{i}", checks=False)
        moves += report.moves
    elapsed = time.perf_counter() - started
    return games / elapsed, moves / games


def sample_positions(rules: Rules, cfg: Config, wanted: int, seed: str) -> list[tuple[State, int, float]]:
    """(state, mover, which option as a fraction) from random games, spread over whole games."""
    rnd = random.Random(f"{seed}-positions")
    positions: list[tuple[State, int, float]] = []
    game = 0
    while len(positions) < wanted:
        state = rules.setup(player_names(cfg.players), cfg.options, f"{seed}-pos-{game}")
        game += 1
        while (pending := rules.pending(state)) and len(positions) < wanted:
            seat = pending[rnd.randrange(len(pending))]
            opts = rules.options(state, seat)
            if rnd.random() < 0.25:  # a quarter of the positions of each game
                positions.append((copy.deepcopy(state), seat, rnd.random()))
            rules.apply(state, seat, choose(rules, state, seat, opts, rnd).move)
        if game > 10 * wanted:
            break
    return positions


def time_moves_once(rules: Rules, positions: list[tuple[State, int, float]], n: int) -> float:
    copies = [(json.loads(json.dumps(s)), seat, u) for s, seat, u in positions]  # not timed
    started = time.perf_counter()
    for state, seat, u in copies:
        opts = rules.options(state, seat)
        rules.apply(state, seat, opts[int(u * len(opts))].move)
        for viewer in range(n):
            rules.view(state, viewer)
    return time.perf_counter() - started


def time_json_once(positions: list[tuple[State, int, float]]) -> float:
    started = time.perf_counter()
    for state, _, _ in positions:
        json.loads(json.dumps(state))
    return time.perf_counter() - started


def measure(rules: Rules, cfg: Config, games: int, positions: int, rounds: int, seed: str) -> Result:
    gps, mpg = games_per_second(rules, cfg, games, seed)
    sample = sample_positions(rules, cfg, positions, seed)
    if not sample:
        raise RuntimeError("no positions to measure")
    size = sum(len(json.dumps(s)) for s, _, _ in sample) / len(sample)
    # Why paired rounds: on a shared machine the load changes from one moment to the
    # next; timing the engine and JSON back to back and taking the median of their
    # ratios compares them under the same conditions.
    moves, dumps, ratios = [], [], []
    for _ in range(rounds):
        m, j = time_moves_once(rules, sample, cfg.players), time_json_once(sample)
        moves.append(m)
        dumps.append(j)
        ratios.append(m / j)
    per = 1e6 / len(sample)
    return Result(gps, mpg, min(moves) * per, min(dumps) * per, size, statistics.median(ratios))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", "-k", type=int, default=100, help="random games per configuration (default 100)")
    parser.add_argument("--positions", "-p", type=int, default=300, help="positions timed per configuration")
    parser.add_argument("--rounds", "-r", type=int, default=9, help="paired passes; the median ratio counts")
    parser.add_argument("--game", "-g", action="append", help="only this game (repeatable)")
    parser.add_argument("--seed", default="bench")
    args = parser.parse_args(argv)

    print(f"pbem engine benchmark: Python {platform.python_version()} on {platform.machine()}, "
          f"{args.games} games and {args.positions} positions per configuration, {args.rounds} paired rounds")
    header = (f"{'game':<11} {'side':<5} {'players':>7} {'games/s':>9} {'moves/game':>10} {'state KB':>8} "
              f"{'move us':>9} {'json us':>9} {'ratio':>6}")
    print(header)
    print("-" * len(header))
    failures = 0
    for name in args.game or registry.names():
        try:
            rules = registry.get(name)
        except Exception as exc:  # noqa: BLE001 - a game being written may not import yet
            print(f"{name:<11} skipped: {type(exc).__name__}: {exc}")
            continue
        for cfg in configurations(rules):
            try:
                r = measure(rules, cfg, args.games, args.positions, args.rounds, args.seed)
            except Exception as exc:  # noqa: BLE001 - report and go on with the next configuration
                failures += 1
                print(f"{name:<11} {cfg.label:<5} {cfg.players:>7} error: {type(exc).__name__}: {exc}")
                continue
            print(f"{name:<11} {cfg.label:<5} {cfg.players:>7} {r.games_per_s:>9.1f} {r.moves_per_game:>10.1f} "
                  f"{r.state_bytes / 1024:>8.1f} {r.move_us:>9.1f} {r.json_us:>9.1f} {r.ratio:>6.2f}",
                  flush=True)
    # which engine the figures are of (engine/compiled.py; PBEM_ENGINE_PURE=1 for plain Python)
    print(f"engine: {compiled.status()}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
