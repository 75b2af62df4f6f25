"""CPU a mail of pbem's SMTP ingress against a bare aiosmtpd server, in the same run.

    python bench/ingress.py [--mails 600] [--clients 4] [--per-connection 12] [--rounds 3]
                            [--before-tree DIR] [--pairs 2]
                            [--pg URL] [--redis URL] [--broker-db N] [--cache-db N]

The ingress as a deployment runs it (``pbem.mail.smtp.make_controller``: the RCPT check, the mail
stored, its task published to a Redis broker, the queued mark in a Redis cache) takes ``--mails``
mails of the pipeline drivers' shape (``bench/pipeline.py``: a player's one-line move to a seat's
reply address) from ``--clients`` SMTP clients at once, each keeping its connection for
``--per-connection`` mails (a driver's round); the raw
baseline is a bare aiosmtpd server (a handler that answers 250 and keeps nothing) taking the same
mails from the same clients. The clients run in a process of their own, so this process's CPU in a
round (``os.times``) is the server's alone: the figure is the ingress's CPU a mail over the bare
server's (PostgreSQL's and Redis's CPU are not in it). No Celery worker runs: the tasks wait in the
bench's own broker database, dropped at the end.

``--before-tree``: another checkout of pbem (a ``git archive`` of the commit before) run the same
way in a process of its own, alternately with this one, ``--pairs`` times, so that one run prints
both trees' ratios at the same load. Figures only, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import smtplib
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(os.environ.get("BENCH_TREE") or Path(__file__).resolve().parent.parent)
sys.path.insert(0, str(ROOT))

from bench.common import add_service_arguments, machine_note, redis_databases, scratch_database  # noqa: E402

HERE = Path(__file__).resolve()


def _client(port: int, mails: int, clients: int, per_connection: int, prefix: str, sender: str, rcpt: str) -> int:
    """``--client``: ``mails`` mails in all from ``clients`` threads, each over a connection kept for
    ``per_connection`` mails (a pipeline driver keeps one for a round's 12 moves; the ingress allows
    50 MAIL commands a session)."""
    from email.message import EmailMessage

    failed: list[BaseException] = []

    def one(c: int) -> None:
        mine = list(range(c, mails, clients))
        try:
            for start in range(0, len(mine), per_connection):
                with smtplib.SMTP("127.0.0.1", port) as smtp:
                    for k in mine[start:start + per_connection]:
                        msg = EmailMessage()
                        msg["From"], msg["To"], msg["Subject"] = sender, rcpt, "move"
                        msg["Message-ID"] = f"<{prefix}-{k}@bench.example>"
                        msg.set_content("a1")
                        smtp.sendmail(sender, [rcpt], msg.as_bytes())
        except BaseException as exc:  # noqa: BLE001 - reported below, the run fails
            failed.append(exc)

    threads = [threading.Thread(target=one, args=(c,)) for c in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        print(f"client: {failed[0]!r}", file=sys.stderr)
        return 1
    return 0


class _Bare:
    """The baseline's handler: 250 for every mail, nothing kept."""

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        return "250 OK"


def _round(port: int, args: argparse.Namespace, sender: str, rcpt: str) -> tuple[float, float]:
    """(this process's CPU seconds, wall seconds) while the client process sends ``--mails`` mails."""
    prefix = f"b{os.getpid()}-{secrets.token_hex(4)}"
    argv = [sys.executable, str(HERE), "--client", str(port), "--mails", str(args.mails), "--clients",
            str(args.clients), "--per-connection", str(args.per_connection), "--prefix", prefix, "--sender", sender,
            "--rcpt", rcpt]
    t0, w0 = os.times(), time.perf_counter()
    subprocess.run(argv, check=True, env={**os.environ, "PYTHONPATH": ""})
    t1, w1 = os.times(), time.perf_counter()
    return (t1.user - t0.user) + (t1.system - t0.system), w1 - w0


def _serve(args: argparse.Namespace) -> int:
    """``--serve``: the rounds of this process's tree, as JSON (CPU ms a mail, bare and pbem)."""
    from aiosmtpd.controller import Controller

    from bench.common import setup_django

    setup_django(os.environ["DATABASE_URL"])
    from pbem.games import services
    from pbem.games.models import Seat
    from pbem.mail.outbox import reply_address
    from pbem.mail.smtp import free_port, make_controller

    players = [services.do_create_player(f"ingress{i}@bench.example", f"P{i}") for i in range(3)]
    game = services.do_create_game(players[0], "maretta", options={"side": "A"},
                                   invite=[p.email for p in players[1:]])
    for p in players[1:]:
        services.do_join_game(game.pk, p)
    seat = Seat.objects.select_related("player").get(game=game, index=0)
    sender, rcpt = seat.player.email, reply_address(seat)  # type: ignore[union-attr]
    bare_port, pbem_port = free_port(), free_port()
    bare = Controller(_Bare(), hostname="127.0.0.1", port=bare_port)
    ingress = make_controller("127.0.0.1", pbem_port)
    bare.start()
    ingress.start()
    out: dict[str, list[float]] = {"bare": [], "pbem": [], "bare_rate": [], "pbem_rate": []}
    try:
        warm = argparse.Namespace(mails=40, clients=args.clients, per_connection=args.per_connection)
        _round(pbem_port, warm, sender, rcpt)  # imports, connections
        for _ in range(args.rounds):
            for way, port in (("bare", bare_port), ("pbem", pbem_port)):
                cpu, wall = _round(port, args, sender, rcpt)
                out[way].append(cpu / args.mails * 1e3)
                out[f"{way}_rate"].append(args.mails / wall)
    finally:
        ingress.stop()
        bare.stop()
    print(json.dumps(out))
    return 0


def _in_tree(tree: str, args: argparse.Namespace, pg: str, broker: str, cache: str) -> dict[str, list[float]]:
    # (scratch_database closes this process's Django connections at its end: none here, but it asks settings)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")
    with scratch_database(pg) as name:
        env = {**os.environ, "BENCH_TREE": tree, "PYTHONPATH": tree, "DATABASE_URL": f"{pg}/{name}",
               "CELERY_BROKER_URL": broker, "REDIS_URL": cache, "LOG_LEVEL": "WARNING"}
        argv = [sys.executable, str(HERE), "--serve", "--mails", str(args.mails), "--clients", str(args.clients),
                "--per-connection", str(args.per_connection), "--rounds", str(args.rounds)]
        done = subprocess.run(argv, env=env, cwd=tree, check=True, capture_output=True, text=True)
    result: dict[str, list[float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mails", type=int, default=600, help="mails a round, each way")
    parser.add_argument("--clients", type=int, default=4, help="SMTP clients at once, one kept connection each")
    parser.add_argument("--per-connection", type=int, default=12,
                        help="mails a client sends over one connection (a pipeline driver's round: 12)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before-tree", default="", help="a checkout of the commit before, run alternately")
    parser.add_argument("--pairs", type=int, default=2, help="with --before-tree: how many times each tree runs")
    parser.add_argument("--client", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--prefix", default="", help=argparse.SUPPRESS)
    parser.add_argument("--sender", default="", help=argparse.SUPPRESS)
    parser.add_argument("--rcpt", default="", help=argparse.SUPPRESS)
    add_service_arguments(parser)
    args = parser.parse_args(argv)
    if args.client is not None:
        return _client(args.client, args.mails, args.clients, args.per_connection, args.prefix, args.sender, args.rcpt)
    if args.serve:
        return _serve(args)
    trees = [("before", args.before_tree)] * bool(args.before_tree) + [("now", str(ROOT))]
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in trees}
    print(f"{args.mails} mails a round from {args.clients} clients, {args.rounds} rounds; {machine_note()}")
    with redis_databases(args.redis, args.broker_db, args.cache_db, args.flush_redis) as (broker_db, cache_db):
        broker, cache = f"{args.redis}/{broker_db}", f"{args.redis}/{cache_db}"
        for _pair in range(args.pairs if args.before_tree else 1):
            for label, tree in trees:
                got = _in_tree(tree, args, args.pg, broker, cache)
                ratios = [p / b for p, b in zip(got["pbem"], got["bare"])]
                runs[label].append(got)
                print(f"  {label} (load {os.getloadavg()[0]:.1f}): CPU ms a mail, bare aiosmtpd "
                      + ", ".join(f"{v:.2f}" for v in got["bare"]) + "; pbem ingress "
                      + ", ".join(f"{v:.2f}" for v in got["pbem"]) + "; ratios "
                      + ", ".join(f"{r:.2f}" for r in ratios)
                      + f"; mails/s bare {statistics.median(got['bare_rate']):.0f}, "
                      f"pbem {statistics.median(got['pbem_rate']):.0f}", flush=True)
    for label, got_runs in runs.items():
        ratios = [statistics.median([p / b for p, b in zip(g["pbem"], g["bare"])]) for g in got_runs]
        pbem = [statistics.median(g["pbem"]) for g in got_runs]
        print(f"{label}: pbem ingress/bare aiosmtpd, CPU a mail (median of each run's rounds): "
              + ", ".join(f"{r:.2f}" for r in ratios) + "; pbem " + ", ".join(f"{v:.2f}" for v in pbem) + " ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
