"""Moves per second from SMTP in to outbox sent, against the machine's raw limit.

    python bench/pipeline.py [--games 4] [--moves 40] [--workers 2]

Needs PostgreSQL (127.0.0.1:5432, or BENCH_PG_URL) and Redis (127.0.0.1:6379,
or BENCH_REDIS_URL). It creates a scratch database ``pbem_bench``, starts the
SMTP ingress in this process, an SMTP sink for outbound mail, and real Celery
worker processes, then drives several Maretta games at once: each move is a
mail to the seat's reply address, and it counts as done when the game's
version has moved and every outbox row it wrote has been sent to the sink.

The baseline, measured in the same run on the same database server, is the
least any move can cost: one PostgreSQL transaction that locks a row,
updates a JSON state of the same size and inserts a log row.
"""

from __future__ import annotations

import argparse
import json
import os
import smtplib
import subprocess
import sys
import threading
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432")
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
DB_NAME = "pbem_bench"


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def recreate_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")


class Sink:
    """Outbound SMTP relay stand-in: counts what it is given."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        with self.lock:
            self.count += 1
        return "250 OK"


def baseline(state: dict, seconds: float) -> float:
    """Transactions per second: lock a row, update its JSON state, insert a log row."""
    import psycopg
    from psycopg.types.json import Jsonb

    payload = json.dumps(state)
    with psycopg.connect(f"{PG}/{DB_NAME}") as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS raw_game (id int primary key, version int, state jsonb)")
        conn.execute("CREATE TABLE IF NOT EXISTS raw_move (id bigserial primary key, game int, move jsonb)")
        conn.execute("INSERT INTO raw_game VALUES (1, 0, %s) ON CONFLICT DO NOTHING", (Jsonb(state),))
        conn.commit()
        n = 0
        end = time.perf_counter() + seconds
        start = time.perf_counter()
        while time.perf_counter() < end:
            with conn.transaction():
                conn.execute("SELECT version FROM raw_game WHERE id = 1 FOR UPDATE")
                conn.execute("UPDATE raw_game SET state = %s::jsonb, version = version + 1 WHERE id = 1", (payload,))
                conn.execute("INSERT INTO raw_move (game, move) VALUES (1, %s)", (Jsonb({"code": "x"}),))
            n += 1
        return n / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games driven at once")
    parser.add_argument("--moves", type=int, default=40, help="moves per game")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    args = parser.parse_args()

    recreate_database()
    sink = Sink()
    from aiosmtpd.controller import Controller

    sink_port = free_port()
    sink_ctl = Controller(sink, hostname="127.0.0.1", port=sink_port)
    sink_ctl.start()
    env = {
        "DATABASE_URL": f"{PG}/{DB_NAME}",
        "CELERY_BROKER_URL": REDIS,
        "REDIS_URL": REDIS.rsplit("/", 1)[0] + "/12",  # the shared cache, as docker-compose sets it
        "EMAIL_HOST": "127.0.0.1",
        "EMAIL_PORT": str(sink_port),
        "EMAIL_USE_TLS": "0",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "pbem.settings",
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    import redis

    redis.Redis.from_url(REDIS).flushdb()

    import engine
    from pbem.games import services
    from pbem.games.models import Game, OutboundMessage, Seat
    from pbem.mail.outbox import reply_address
    from pbem.mail.smtp import make_controller

    smtp_port = free_port()
    ingress = make_controller("127.0.0.1", smtp_port)
    ingress.start()
    # BENCH_WORKER_LOG=INFO BENCH_WORKER_LOGFILE=/tmp/w.log shows each task's time.
    level = os.environ.get("BENCH_WORKER_LOG", "WARNING")
    worker_log = open(os.environ.get("BENCH_WORKER_LOGFILE", os.devnull), "a")  # noqa: SIM115 - lives with the workers
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers", "worker", "-c", "1", "-l", level,
             "-n", f"bench{i}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=worker_log)
        for i in range(args.workers)
    ]
    try:
        time.sleep(3.0)  # workers connect to the broker
        games = []
        for g in range(args.games):
            players = [services.do_create_player(f"p{g}-{i}@bench.example", f"P{g}{i}") for i in range(3)]
            game = services.do_create_game(players[0], "maretta", options={"side": "A"},
                                           invite=[p.email for p in players[1:]])
            for p in players[1:]:
                services.do_join_game(game.pk, p)
            games.append(game.pk)
        rules = engine.get("maretta")
        errors: list[str] = []
        done = [0]
        lock = threading.Lock()

        def drive(game_id: int) -> None:
            smtp = smtplib.SMTP("127.0.0.1", smtp_port)
            try:
                for n in range(args.moves):
                    game = Game.objects.get(pk=game_id)
                    if game.status != Game.Status.RUNNING or game.state is None:
                        return
                    seat_index = rules.pending(game.state)[0]
                    seat = Seat.objects.select_related("player").get(game=game, index=seat_index)
                    code = rules.options(game.state, seat_index)[0].code
                    assert seat.player is not None
                    msg = EmailMessage()
                    msg["From"] = seat.player.email
                    msg["To"] = reply_address(seat)
                    msg["Subject"] = "move"
                    msg["Message-ID"] = f"<bench-{game_id}-{n}@bench.example>"
                    msg.set_content(code)
                    smtp.send_message(msg)
                    deadline = time.monotonic() + 60
                    while time.monotonic() < deadline:
                        fresh = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
                        unsent = OutboundMessage.objects.filter(
                            game_id=game_id, status__in=["pending", "sending"]).exists()
                        if fresh != game.version and not unsent:
                            break
                        time.sleep(0.01)  # gentle: the driver must not eat the cores it measures
                    else:
                        errors.append(f"game {game_id}: move {n} not through in 60 s")
                        return
                    with lock:
                        done[0] += 1
            finally:
                smtp.quit()
                from django.db import connection

                connection.close()

        threads = [threading.Thread(target=drive, args=(gid,)) for gid in games]
        start = time.perf_counter()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.perf_counter() - start
        rate = done[0] / elapsed if elapsed else 0.0
        state = Game.objects.get(pk=games[0]).state or {}
        raw = baseline(state, seconds=5.0)
    finally:
        for w in workers:
            w.terminate()
        for w in workers:
            w.wait(10)
        ingress.stop()
        sink_ctl.stop()
        worker_log.close()

    print(f"pipeline: {done[0]} moves in {elapsed:.1f}s over {args.games} games, {args.workers} workers "
          f"= {rate:.1f} moves/s (SMTP in -> worker -> outbox sent; {sink.count} mails delivered)")
    print(f"baseline: {raw:.0f} transactions/s (lock row + update JSON state of {len(json.dumps(state))} bytes "
          "+ insert row, one connection)")
    print(f"ratio pipeline/baseline: {rate / raw:.3f}")
    for e in errors:
        print(f"error: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
