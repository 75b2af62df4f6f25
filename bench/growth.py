"""Flat cost: a move 1,000 moves into a game against a move 10 moves in, same position, same run.

    python bench/growth.py [--at 1000] [--early 10] [--moves 20] [--rounds 3] [--players 3] [--target 500]
                           [--pg URL] [--db-name NAME]

What it measures is the service and its SQL (``pbem.games.services.do_submit_moves``
with the outbox rows it writes; the send tasks are not run). Two Caravelas games
with the same seed (a high ``--target`` so that they last):

* ``long``: played through the service to ``--at`` moves (seeded random choices);
* ``short``: played to ``--early`` moves, then given the long game's state.

Both now stand in the same position, so the engine does the same work for the
next moves; only the log behind them differs (``--at`` rows against ``--early``).
Each round puts both games back to that position and applies the same ``--moves``
moves, alternating long and short move by move; ratio = long / short per round, the
median of the rounds is the figure (target: at most 1.1). Rows the move's SQL read
(``pg_stat_xact_user_tables``: sequential plus index tuples, inside the move's
transaction) are shown as well: they must not grow with the log either.
Also shown, not judged: the natural cost of moves at ``--early`` against moves at
``--at`` in the long game as it was played (different positions).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import add_service_arguments, machine_note, scratch_database, setup_django  # noqa: E402

ROWS_READ = """
SELECT coalesce(sum(seq_tup_read), 0) + coalesce(sum(idx_tup_fetch), 0)
FROM pg_stat_xact_user_tables WHERE relname LIKE 'games_%%'
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--at", type=int, default=1000, help="moves into the long game")
    parser.add_argument("--early", type=int, default=10, help="moves into the short game")
    parser.add_argument("--moves", type=int, default=20, help="moves timed per game and round")
    parser.add_argument("--rounds", type=int, default=3, help="paired rounds; the median ratio counts")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--target", type=int, default=500, help="Caravelas' points target (high: a long game)")
    parser.add_argument("--seed", default="growth-bench")
    add_service_arguments(parser)
    args = parser.parse_args(argv)
    with scratch_database(args.pg, args.db_name, args.keep_db) as db_name:
        # Why no broker: the send tasks are not part of what this bench measures.
        setup_django(f"{args.pg}/{db_name}", {"CELERY_BROKER_URL": "", "REDIS_URL": ""})
        lines = run(args)
    for line in lines:
        print(line)
    return 1 if any(line.startswith("error") for line in lines) else 0


def run(args: argparse.Namespace) -> list[str]:
    from django.db import connection, transaction

    import engine
    from engine.testing import choose
    from pbem.games import dispatch, services
    from pbem.games.models import Game, Move, OutboundMessage, Seat

    dispatch.enqueue = lambda name, *a: None  # sends are not measured here
    rules = engine.get("caravelas")

    def new_game(tag: str) -> int:
        players = [services.do_create_player(f"{tag}{i}@bench.example", f"P{i}") for i in range(args.players)]
        game = services.do_create_game(players[0], "caravelas", options={"target": args.target},
                                       invite=[p.email for p in players[1:]])
        for p in players[1:]:
            services.do_join_game(game.pk, p)
        game.refresh_from_db()
        assert game.state is not None
        # Why reseed: both games must deal the same way so their positions can be made equal.
        game.seed = args.seed
        game.state = rules.setup(list(game.state["players"]), game.options, args.seed)
        game.save(update_fields=["seed", "state"])
        return game.pk

    def next_command(game_id: int, rnd: random.Random) -> tuple[int, Any]:
        state: dict[str, Any] = Game.objects.values_list("state", flat=True).get(pk=game_id) or {}
        seat = rules.pending(state)[0]
        opt = choose(rules, state, seat, rules.options(state, seat), rnd)
        return seat, services.Command(code=opt.code)

    def one_move(game_id: int, rnd: random.Random) -> tuple[float, int]:
        seat, command = next_command(game_id, rnd)
        seat_player = Seat.objects.select_related("player").get(game_id=game_id, index=seat).player
        with transaction.atomic():
            with connection.cursor() as cur:
                cur.execute(ROWS_READ)
                before = int(cur.fetchone()[0])
            started = time.perf_counter()
            services.do_submit_moves(game_id, seat_player, [command], source="mail")
            elapsed = time.perf_counter() - started
            with connection.cursor() as cur:
                cur.execute(ROWS_READ)
                rows = int(cur.fetchone()[0]) - before
        return elapsed, rows

    lines = [f"machine: {machine_note()}"]
    long_id, short_id = new_game("long"), new_game("short")
    rnd = random.Random(args.seed)
    natural_early: list[float] = []
    natural_late: list[float] = []
    played = 0
    window = range(args.early, args.early + args.moves)
    late_window = range(args.at, args.at + args.moves)
    while played < args.at + args.moves:
        game = Game.objects.get(pk=long_id)
        if game.status != Game.Status.RUNNING:
            return lines + [f"error: the long game ended after {played} moves; raise --target"]
        if played == args.at:
            snapshot = (game.state, game.version, Move.objects.filter(game_id=long_id).count(),
                        dict(Seat.objects.filter(game_id=long_id).values_list("index", "last_mailed_version")),
                        random.Random(f"{args.seed}-timed"))
        elapsed, _rows = one_move(long_id, rnd)
        if played in window:
            natural_early.append(elapsed)
        if played in late_window:
            natural_late.append(elapsed)
        played += 1
    state, long_version, long_rows, long_mailed, _ = snapshot
    # Back to the position at --at, then the short game gets it after its own --early moves.
    rnd_short = random.Random(args.seed)
    for _ in range(args.early):
        one_move(short_id, rnd_short)

    def reset(game_id: int, version: int, log_rows: int, mailed: dict[Any, int], watermark: int) -> None:
        Move.objects.filter(game_id=game_id, number__gt=log_rows).delete()
        OutboundMessage.objects.filter(game_id=game_id, pk__gt=watermark).delete()
        Game.objects.filter(pk=game_id).update(state=state, version=version, status=Game.Status.RUNNING)
        for index, v in mailed.items():
            Seat.objects.filter(game_id=game_id, index=index).update(last_mailed_version=v)

    short = Game.objects.get(pk=short_id)
    short_rows = Move.objects.filter(game_id=short_id).count()
    short_mailed = dict.fromkeys(range(args.players), short.version)
    watermark = OutboundMessage.objects.order_by("-pk").values_list("pk", flat=True).first() or 0

    ratios: list[float] = []
    per_long: list[float] = []
    per_short: list[float] = []
    rows_long: list[int] = []
    rows_short: list[int] = []
    for _ in range(args.rounds):
        reset(long_id, long_version, long_rows, long_mailed, watermark)
        reset(short_id, short.version, short_rows, short_mailed, watermark)
        rl, rs = random.Random(f"{args.seed}-timed"), random.Random(f"{args.seed}-timed")
        t_long = t_short = 0.0
        for _ in range(args.moves):
            e, r = one_move(long_id, rl)
            t_long += e
            rows_long.append(r)
            e, r = one_move(short_id, rs)
            t_short += e
            rows_short.append(r)
        ratios.append(t_long / t_short)
        per_long.append(t_long / args.moves)
        per_short.append(t_short / args.moves)

    median = statistics.median
    verdict = "ok" if median(ratios) <= 1.1 else "over"
    return lines + [
        f"caravelas, {args.players} players, target {args.target}; {args.moves} moves per game and round, "
        f"{args.rounds} rounds, same position in both games",
        f"natural (different positions): move at {args.early}: {median(natural_early) * 1e3:.1f} ms, "
        f"at {args.at}: {median(natural_late) * 1e3:.1f} ms "
        f"(ratio {median(natural_late) / median(natural_early):.2f})",
        f"rows read per move (median): log of {long_rows}: {median(rows_long):.0f}, "
        f"log of {short_rows}: {median(rows_short):.0f}",
        f"move with a log of {long_rows}: {median(per_long) * 1e3:.1f} ms; "
        f"with a log of {short_rows}: {median(per_short) * 1e3:.1f} ms (medians of {args.rounds})",
        f"ratio long/short (median of {args.rounds} paired rounds): {median(ratios):.3f}  target <= 1.1  {verdict}",
    ]


if __name__ == "__main__":
    sys.exit(main())
