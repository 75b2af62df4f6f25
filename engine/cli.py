"""``python -m engine simulate|play|games|replay``: random simulation, hot-seat play, replaying an export."""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from collections.abc import Sequence
from typing import Any, TextIO

from engine import compiled, registry
from engine.core import visible_events
from engine.errors import EngineError, IllegalMove
from engine.notation import format_options
from engine.record import outcome_record
from engine.testing import Report, check_campaign, player_names, run_game


def _parse_options(pairs: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for pair in pairs:
        if "=" not in pair:
            raise SystemExit(f"--option takes key=value, not {pair!r}")
        key, value = pair.split("=", 1)
        out[key.strip()] = value.strip()
    return out


def _progress(done: int, total: int, started: float, out: TextIO) -> None:
    width = 30
    filled = width * done // max(total, 1)
    rate = done / max(time.perf_counter() - started, 1e-9)
    out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {rate:.0f}/s")
    out.flush()


def simulate(args: argparse.Namespace) -> int:
    rules = registry.get(args.game)
    options = _parse_options(args.option)
    rules.check_options(args.players, options)  # fail early with the game's own message
    report = Report()
    errors: Counter[str] = Counter()
    tty = sys.stderr.isatty() and not args.quiet
    started = time.perf_counter()
    for i in range(args.games):
        seed = f"{args.seed}-{i}"
        try:
            if args.campaign:  # a whole campaign: every game after the first set up from the last one's archive
                check_campaign(rules, args.players, options, seed, checks=args.check, check_every=args.check_every,
                               report=report)
            else:
                run_game(rules, args.players, options, seed, checks=args.check, report=report,
                         check_every=args.check_every)
        except Exception as exc:  # noqa: BLE001 - a simulation reports every failure and goes on
            first_line = f"{type(exc).__name__}: {exc}".splitlines()[0]
            errors[first_line] += 1
            report.errors.append(seed)
            if args.verbose:
                traceback.print_exc()
        if tty and (i % 25 == 0 or i == args.games - 1):
            _progress(i + 1, args.games, started, sys.stderr)
    if tty:
        sys.stderr.write("\n")
    elapsed = time.perf_counter() - started
    names = player_names(args.players)
    print(f"game: {rules.name}  players: {args.players}  options: {rules.check_options(args.players, options)}")
    if args.campaign:
        print(f"campaigns: {args.games}  games: {report.finished} finished  errors: {len(report.errors)}")
    else:
        print(f"games: {args.games}  finished: {report.finished}  errors: {len(report.errors)}")
    print(f"moves: {report.moves}  ({report.moves / max(report.finished, 1):.1f} per game)  "
          f"time: {elapsed:.1f}s  ({report.finished / max(elapsed, 1e-9):.0f} games/s)")
    if report.lengths:
        lengths = sorted(report.lengths)
        pick = [lengths[int(q * (len(lengths) - 1))] for q in (0, 0.25, 0.5, 0.75, 1)]
        print(f"moves per game: min {pick[0]}  q1 {pick[1]}  median {pick[2]}  q3 {pick[3]}  max {pick[4]}")
    print("wins by seat: " + ", ".join(f"{names[s]} {report.winners[s]}" for s in range(args.players)))
    print("endings: " + ", ".join(f"{k} {v}" for k, v in report.reasons.most_common()))
    for message, count in errors.most_common(10):
        print(f"error x{count}: {message}")
    if report.errors:
        print(f"first failing seeds: {', '.join(report.errors[:5])}")
    return 1 if report.errors else 0


def play(args: argparse.Namespace) -> int:
    rules = registry.get(args.game)
    options = _parse_options(args.option)
    names = args.names.split(",") if args.names else player_names(args.players)
    try:
        state = rules.setup(names, options, args.seed)
    except EngineError as exc:
        print(exc)
        return 2
    while True:
        pending = rules.pending(state)
        if not pending:
            break
        seat = pending[0]
        print("\n" + "=" * 60)
        print(rules.render_text(rules.view(state, seat)))
        print(f"\n{names[seat]}, your options:\n{format_options(rules.options(state, seat))}")
        try:
            line = input(f"{names[seat]}> ")
        except EOFError:
            print()
            return 0
        if line.strip() in ("quit", "exit"):
            return 0
        try:
            move = rules.parse(line, state, seat)
            events = rules.apply(state, seat, move)
        except IllegalMove as exc:
            print(f"! {exc}")
            if exc.allowed:
                print("  allowed: " + "; ".join(exc.allowed[:20]))
            continue
        for e in visible_events(events, seat):
            print(f"- {e.text}")
    outcome = rules.outcome(state)
    print(rules.render_text(rules.view(state, None)))
    if outcome is not None:
        print(f"\nGame over ({outcome.reason}). Winners: {', '.join(names[s] for s in outcome.winners)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="pbem rules engine")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, fn, helptext in (("simulate", simulate, "play random games and summarise"),
                               ("play", play, "play at one terminal (hot seat)")):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("game", choices=registry.names())
        p.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE")
        p.add_argument("--players", "-n", type=int, default=3)
        p.add_argument("--seed", default="1")
        p.set_defaults(fn=fn)
        if name == "simulate":
            p.add_argument("--games", "-k", type=int, default=100)
            p.add_argument("--check", action="store_true", help="run the full conformance checks (slow)")
            p.add_argument("--check-every", type=int, default=1, metavar="N",
                           help="with --check: the per-step checks every N steps (and wherever seats decide at once)")
            p.add_argument("--campaign", action="store_true",
                           help="each of --games is a whole campaign: every later game set up from the last one's "
                                "archive (a game with campaigns; e.g. -o campaign=true for maracaibo)")
            p.add_argument("--quiet", "-q", action="store_true", help="no progress bar")
            p.add_argument("--verbose", "-v", action="store_true", help="print tracebacks")
        else:
            p.add_argument("--names", help="comma-separated player names")
    rep = sub.add_parser("replay", help="replay an exported game (pbem-game/1 JSON) and check its outcome")
    rep.add_argument("file", help="the export, as GET /api/v1/games/{id}/export/ gives it ('-': standard input)")
    rep.set_defaults(fn=replay)
    games = sub.add_parser("games", help="list the games and their options")
    games.set_defaults(fn=lambda a: _list_games())
    comp = sub.add_parser("compile", help="compile the rules with mypyc, or say what runs (engine/compiled.py)")
    comp.add_argument("action", nargs="?", choices=("build", "status", "clean"), default="status")
    comp.add_argument("--verbose", "-v", action="store_true", help="show the compiler's output")
    comp.set_defaults(fn=lambda a: compiled.main([a.action, *(["-v"] if a.verbose else [])]))
    args = parser.parse_args(argv)
    try:
        return int(args.fn(args))
    except EngineError as exc:  # a bad --option or player count: the game's own message, no traceback
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2


#: The export format this command reads (pbem's GET /api/v1/games/{id}/export/).
EXPORT_FORMAT = "pbem-game/1"


def replay(args: argparse.Namespace) -> int:
    """Setup from the export's players, options and seed, then every move in order; the outcome
    must be the one recorded. Exit 0 when it is, 1 when it is not or a move is refused."""
    if args.file == "-":
        text = sys.stdin.read()
    else:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    data = json.loads(text)
    if data.get("format") != EXPORT_FORMAT:
        print(f"not a {EXPORT_FORMAT} export (format: {data.get('format')!r})", file=sys.stderr)
        return 2
    rules = registry.get(data["rules"])
    names = [p["name"] for p in sorted(data["players"], key=lambda p: p["seat"])]
    # a campaign's game was set up from the archive of the game before it (None: no campaign)
    state = rules.setup(names, data.get("options") or {}, data["seed"], archive=data.get("archive"))
    moves = data.get("moves") or []
    for entry in moves:
        try:
            rules.apply(state, entry["seat"], entry["move"])
        except IllegalMove as exc:
            print(f"move {entry.get('number', '?')} (seat {entry['seat']}) is refused: {exc.message}", file=sys.stderr)
            return 1
    got = outcome_record(rules, state)  # with the breakdown, as the server records it
    expected = data.get("outcome")
    print(f"{rules.title}: {len(moves)} moves replayed; "
          + (f"finished ({got['reason']}), winners {got['winners']}" if got else "not finished"))
    if expected is not None and json.loads(json.dumps(got)) != expected:
        print(f"the outcome differs from the recorded one: {expected}", file=sys.stderr)
        return 1
    return 0


def _list_games() -> int:
    for name in registry.names():
        rules = registry.get(name)
        print(f"{name}: {rules.title} ({rules.min_players}-{rules.max_players} players)")
        for spec in (s for s in rules.option_specs if not s.internal):
            print(f"  {spec.name} ({spec.kind}, default {spec.default!r}): {spec.help}")
    return 0
