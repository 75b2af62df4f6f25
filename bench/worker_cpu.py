"""Worker CPU per move of a game played by mail, from the mail judged to its mails built and sent.

    nice -n 5 python bench/worker_cpu.py [--game maretta|caravelas|maracaibo] [--players 3] [--moves 40] [--rounds 3]
                                         [--before-tree PATH] [--pg URL] [--db-name NAME]

One process, tasks run in it (no broker), mails given to Django's in-memory backend, the picture
cache in memory and emptied before each game (a worker meets a position's picture for the first
time; the other seats of that position find it cached, as with Redis). For each round, the same
seeded game (every player in the default mail mode, choices spread over the options at random)
is played three ways:

* raw: what a move needs with no pbem code around the engine: the engine's ``apply`` of the same
  moves, and one bare PostgreSQL transaction a move (lock a row, write a JSON state of the
  game's size, insert a log row) through psycopg;
* before (with ``--before-tree PATH``): another checkout of pbem, e.g. a git worktree of the
  commit before a change, in a process and a database of its own (migrated by its own code), and
  now-child: this checkout the same way; each child plays a game first, not counted (a worker that
  has served moves), and the ratio now/before is now-child's against before's;
* per-seat (Maretta only): this pbem with Maretta's mail picture drawn from each seat's own view (its "you"
  marks made every seat's picture differ: one render a seat, as before issue 28);
* now: pbem as it is (Maretta's picture is the public board: one render a position).

Each way's figure is this process's CPU (``process_time``) per move, summed over the game; the
figure is the median of ``--rounds``. Printed: ms a move, mails and renders a move, and the
ratios now/before (goal: at most 0.5), now/per-seat and raw against each. Run by hand, never in the tests.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
if "--tree" in sys.argv:  # a child playing another checkout: its pbem and engine, not this one's
    sys.path.insert(0, sys.argv[sys.argv.index("--tree") + 1])

from bench.common import machine_note, scratch_database


def play_pbem(game_name: str, players: int, moves: int, seed: int,
              options: dict[str, Any]) -> tuple[float, int, int, list[tuple[int, str]]]:
    """CPU seconds of ``moves`` moves by mail (judged, mails built and sent), mails sent, renders,
    and the moves played (seat, option code), for the raw replay."""
    from django.core import mail
    from django.core.cache import cache

    import engine
    from pbem.games import services
    from pbem.games.models import Game, Seat
    from pbem.mail import sending
    from pbem.mail import services as mail_services
    from pbem.mail.outbox import reply_address

    cache.clear()
    sending._render_png.cache_clear()
    getattr(sending.svg_to_png, "cache_clear", lambda: None)()  # (kept in the process since issue 28)
    tag = f"{seed}-{random.random():.12f}"[2:]
    fresh_seed = services.new_seed
    services.new_seed = lambda: f"bench-{seed}"  # the same deal each way
    people = [services.do_create_player(f"w{i}-{tag}@example.org", f"W{i}") for i in range(players)]
    game = services.do_create_game(people[0], game_name, options=options, invite=[p.email for p in people[1:]])
    for p in people[1:]:
        services.do_join_game(game.pk, p)
    services.new_seed = fresh_seed
    rules = engine.get(game_name)
    rnd = random.Random(seed)
    renders = 0
    real_render = sending._render_png.__wrapped__

    def counted(svg: str) -> bytes:
        nonlocal renders
        renders += 1
        return real_render(svg)

    sending._render_png = _lru(counted)
    mail.outbox = []
    cpu = 0.0
    played: list[tuple[int, str]] = []
    try:
        for n in range(moves):
            game = Game.objects.get(pk=game.pk)
            assert game.state is not None
            pending = rules.pending(game.state)
            if not pending:
                break
            index = rnd.choice(pending)
            seat = Seat.objects.select_related("player").get(game=game, index=index)
            code = rnd.choice(rules.options(game.state, index)).code
            assert seat.player is not None
            msg = EmailMessage()
            msg["From"], msg["To"], msg["Subject"] = seat.player.email, reply_address(seat), "move"
            msg["Message-ID"] = f"<w-{tag}-{n}@example.org>"
            msg.set_content(code)
            raw = msg.as_bytes()
            started = time.process_time()
            mail_services.do_receive_mail(raw, seat.player.email, [reply_address(seat)])  # judged and sent in process
            cpu += time.process_time() - started
            played.append((index, code))
    finally:
        sending._render_png = _lru(real_render)
    return cpu, len(mail.outbox), renders, played


def _lru(fn: Callable[[str], bytes]) -> Any:
    import functools

    return functools.lru_cache(maxsize=64)(fn)


def play_raw(game_name: str, players: int, seed: int, options: dict[str, Any], played: list[tuple[int, str]],
             dsn: str) -> float:
    """CPU seconds of the same moves with no pbem code: the engine's apply and a bare transaction each."""
    import psycopg

    import engine

    rules = engine.get(game_name)
    names = [f"W{i}" for i in range(players)]
    state = rules.setup(names, options, f"bench-{seed}")
    with psycopg.connect(dsn) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS raw_game (id int PRIMARY KEY, state jsonb, version int)")
        conn.execute("CREATE TABLE IF NOT EXISTS raw_move (id bigserial PRIMARY KEY, game int, n int, body jsonb)")
        conn.execute("INSERT INTO raw_game VALUES (%s, %s, 0) ON CONFLICT (id) DO NOTHING", [seed, json.dumps(state)])
        conn.commit()
        started = time.process_time()
        for n, (index, code) in enumerate(played):
            move = next(o.move for o in rules.options(state, index) if o.code == code)
            events = rules.apply(state, index, move)
            with conn.transaction():
                conn.execute("SELECT version FROM raw_game WHERE id = %s FOR UPDATE", [seed]).fetchone()
                conn.execute("UPDATE raw_game SET state = %s, version = version + 1 WHERE id = %s",
                             [json.dumps(state), seed])
                conn.execute("INSERT INTO raw_move (game, n, body) VALUES (%s, %s, %s)",
                             [seed, n, json.dumps([e.as_dict() for e in events])])
        return time.process_time() - started


@contextmanager
def per_seat_pictures(game_name: str) -> Iterator[bool]:
    """Maretta's mail picture as before issue 28: the phone board of each seat's own view."""
    import engine

    rules = engine.get(game_name)
    cls = type(rules)
    if game_name != "maretta" or "_render_mail_svg" not in vars(cls):
        yield False
        return
    saved = vars(cls)["_render_mail_svg"]
    try:
        cls._render_mail_svg = lambda self, view: self.render_phone_svg(view)[0]  # type: ignore[method-assign]
    except TypeError:  # a compiled class cannot be patched
        yield False
        return
    try:
        yield True
    finally:
        cls._render_mail_svg = saved  # type: ignore[method-assign]


def _child(args: argparse.Namespace, options: dict[str, Any]) -> int:
    """``--child``: one game played by the tree this process imports (``--tree``), as JSON."""
    from bench.common import setup_django

    setup_django(os.environ["DATABASE_URL"])
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    # A game first, not counted: a worker that has served moves (its imports done, its caches
    # filled), as the parent is by its rounds; a cold process paid its first moves' imports.
    play_pbem(args.game, args.players, args.moves, args.child + 500, options)
    cpu, mails, renders, played = play_pbem(args.game, args.players, args.moves, args.child, options)
    print(json.dumps({"cpu": cpu, "mails": mails, "renders": renders, "played": played}))
    return 0


def _in_tree(tree: str, args: argparse.Namespace, seed: int, database_url: str) -> tuple[float, int, int, list[Any]]:
    """One game played by another checkout of pbem (``--before-tree``), in a process of its own."""
    import subprocess

    argv = [sys.executable, __file__, "--child", str(seed), "--tree", tree, "--game", args.game,
            "--players", str(args.players), "--moves", str(args.moves), *[f"--option={o}" for o in args.option]]
    env = {**os.environ, "DATABASE_URL": database_url, "PYTHONPATH": tree}
    out = subprocess.run(argv, env=env, check=True, capture_output=True, text=True, cwd=tree).stdout
    got = json.loads(out.strip().splitlines()[-1])
    return got["cpu"], got["mails"], got["renders"], [tuple(p) for p in got["played"]]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="maretta")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--option", action="append", default=[], help="a game option, name=value (repeatable)")
    parser.add_argument("--before-tree", default="", help="another checkout of pbem (a git worktree of the commit "
                        "before): its worker CPU a move, in a process of its own, as 'before'")
    parser.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tree", default="", help=argparse.SUPPRESS)
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432"))
    parser.add_argument("--db-name", default="")
    args = parser.parse_args(argv)
    options: dict[str, Any] = dict(o.split("=", 1) for o in args.option)
    if args.game == "maretta":
        options.setdefault("side", "A")
    os.environ.pop("REDIS_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)
    if args.child is not None:
        return _child(args, options)
    with scratch_database(args.pg, args.db_name) as name, contextlib.ExitStack() as stack:
        from bench.common import setup_django

        url = f"{args.pg}/{name}"
        # Why a database of its own: the commit before may predate a migration (a column's type
        # changed under it: its moves were refused and it played another game); it migrates its own.
        before_url = f"{args.pg}/{stack.enter_context(scratch_database(args.pg))}" if args.before_tree else ""
        # Why this checkout in a child too: "before" is played in a process of its own, and a
        # child against this warm parent favoured now (each child now warms up with a game first).
        child_url = f"{args.pg}/{stack.enter_context(scratch_database(args.pg))}" if args.before_tree else ""
        setup_django(url)
        from django.conf import settings

        settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
        print(f"{args.game}, {args.players} players, {args.moves} moves a game, {args.rounds} rounds; {machine_note()}")
        # Why per-seat for Maretta only: the other games' pictures were never shared, so it would
        # play the game a third time for the same figure as now.
        ways = ["raw", *(["before", "now-child"] if args.before_tree else []),
                *(["per-seat"] if args.game == "maretta" else []), "now"]
        figures: dict[str, list[float]] = {k: [] for k in ways}
        counts: dict[str, tuple[float, float]] = {}
        for r in range(args.rounds):
            seed = 1000 + r
            got: dict[str, tuple[float, int, int, list[Any]]] = {}
            if args.before_tree:
                got["before"] = _in_tree(args.before_tree, args, seed, before_url)
                got["now-child"] = _in_tree(str(Path(__file__).resolve().parent.parent), args, seed, child_url)
            patched = False
            if "per-seat" in ways:
                with per_seat_pictures(args.game) as patched:
                    got["per-seat"] = play_pbem(args.game, args.players, args.moves, seed, options)
            got["now"] = play_pbem(args.game, args.players, args.moves, seed, options)
            played = got["now"][3]
            assert all(g[3] == played for g in got.values()), "the same seed played the same moves each way"
            n = len(played)
            figures["raw"].append(play_raw(args.game, args.players, seed, options, played, url) / n)
            line = [f"raw {figures['raw'][-1] * 1e3:.2f}"]
            for way, (cpu, mails, renders, _p) in got.items():
                figures[way].append(cpu / n)
                counts[way] = (mails / n, renders / n)
                line.append(f"{way} {cpu / n * 1e3:.1f} ({renders} renders)")
            print(f"  round {r + 1}: {n} moves; ms a move: {', '.join(line)}"
                  + ("" if patched or "per-seat" not in ways else "  [per-seat = now: nothing to patch]"))
        med = {k: statistics.median(v) for k, v in figures.items()}
        print(f"worker CPU a move (median of {args.rounds}): "
              + ", ".join(f"{k} {med[k] * 1e3:.2f} ms" for k in ways))
        for k in ways[1:]:
            print(f"  {k}: {counts[k][0]:.2f} mails and {counts[k][1]:.2f} picture renders a move; "
                  f"raw/{k} {med['raw'] / med[k]:.3f}")
        if "per-seat" in ways:
            print(f"ratio now/per-seat {med['now'] / med['per-seat']:.2f} (the shared picture alone)")
        if args.before_tree:
            print(f"ratio now/before {med['now-child'] / med['before']:.2f} (goal: at most 0.5; each played in a "
                  f"process of its own after a game not counted)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
