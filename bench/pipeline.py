"""Moves per second from SMTP in to every outbound mail accepted, against the machine's raw limit.

    python bench/pipeline.py [--games 4] [--moves 12] [--rounds 3] [--workers 2] [--max-seconds 300]
                             [--pg URL] [--db-name NAME] [--redis URL] [--broker-db 13] [--cache-db 12]

Needs PostgreSQL and Redis (see ``bench/common.py`` for the arguments: the bench
creates its own scratch database and drops only that one, and refuses Redis
databases that hold someone else's keys). It starts the SMTP ingress in this
process, an SMTP sink for outbound mail, and real Celery worker processes, then
drives several Maretta games at once: each move is a mail to the seat's reply
address, and it counts as done when the game's version has moved and every
outbox row it wrote has been accepted by the sink. Drivers wake when the sink
accepts a mail (and at the latest every ``--poll`` seconds), so the bench's own
cost stays small.

The baseline, measured in the same run on the same database server, is the
least any move can cost: one PostgreSQL transaction that locks a row,
updates a JSON state of the same size and inserts a log row.
Why rounds: on a shared machine the load changes from minute to minute, so each round
measures the raw parts and then drives ``--moves`` moves per game right after them; the
ratio is taken per round and the median of the rounds is the figure.
Bounded: every move waits at most ``--move-timeout`` s, the whole drive
``--max-seconds``. Figures and ratios are printed last.
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

from bench.common import (  # noqa: E402
    add_service_arguments,
    free_port,
    machine_note,
    redis_databases,
    scratch_database,
)


class Sink:
    """Outbound SMTP relay stand-in: counts what it is given."""

    def __init__(self) -> None:
        self.count = 0
        self.arrived = threading.Condition()

    async def handle_DATA(self, server: object, session: object, envelope: object) -> str:
        with self.arrived:
            self.count += 1
            self.arrived.notify_all()
        return "250 OK"


# ---- CPU per process (from /proc: Linux only) ----------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int, children: bool = False) -> float:
    """User + system CPU of a process (and its reaped children when asked), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


def tree_cpu(pid: int) -> float:
    """A process and its live descendants (a Celery worker is a parent and its pool child)."""
    total = cpu_seconds(pid, children=True)
    try:
        kids = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        kids = []
    return total + sum(tree_cpu(int(k)) for k in kids)


def thread_cpu(tids: list[int]) -> float:
    total = 0.0
    for tid in tids:
        try:
            fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / TICK
    return total


def pg_backends(database_url: str, db_name: str) -> list[int]:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
                            [db_name]).fetchall()
    return [int(r[0]) for r in rows]


def redis_server_pid(url: str) -> int | None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        return int(client.info("server")["process_id"])
    except Exception:  # noqa: BLE001 - another machine: not measurable here
        return None
    finally:
        client.close()


# ---- the raw parts, each measured alone in this run ------------------------------------------------


def part_smtp_in(n: int) -> float:
    """Seconds per mail received by a bare aiosmtpd server over one kept connection."""
    from aiosmtpd.controller import Controller

    sink = Sink()
    port = free_port()
    ctl = Controller(sink, hostname="127.0.0.1", port=port)
    ctl.start()
    try:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "a@bench.example", "seat-x@bench.example", "move"
        msg.set_content("a1")
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            started = time.perf_counter()
            for _ in range(n):
                smtp.send_message(msg)
            return (time.perf_counter() - started) / n
    finally:
        ctl.stop()


def part_task(broker: str, n: int) -> float:
    """Seconds per Celery task through the broker to a worker and done: a send task for a row that
    does not exist (one conditional UPDATE, then nothing), drained by the running workers."""
    import redis

    from pbem.games.dispatch import _celery_client

    client = redis.Redis.from_url(broker)
    started = time.perf_counter()
    for i in range(n):
        _celery_client().send_task("pbem.send_outbound", args=[10**9 + i])
    while client.llen("celery") and time.perf_counter() - started < 120:
        time.sleep(0.02)
    client.close()
    return (time.perf_counter() - started) / n


def part_mails(game_id: int, sink_port: int, rounds: int) -> tuple[float, int]:
    """Seconds to build and send one move's mails (its last outbox rows) over one kept SMTP connection."""
    from django.core.mail import get_connection

    from pbem.games.models import OutboundMessage
    from pbem.mail.sending import build_message

    version_rows = list(OutboundMessage.objects.filter(game_id=game_id).order_by("-pk")[:3])
    started = time.perf_counter()
    for _ in range(rounds):
        with get_connection(host="127.0.0.1", port=sink_port, use_tls=False) as conn:
            for row in version_rows:
                m = build_message(row)
                m.connection = conn
                m.send()
    return (time.perf_counter() - started) / rounds, len(version_rows)


def baseline(pg_db: str, state: dict, seconds: float) -> float:
    """Transactions per second: lock a row, update its JSON state, insert a log row."""
    import psycopg
    from psycopg.types.json import Jsonb

    payload = json.dumps(state)
    with psycopg.connect(pg_db) as conn:
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games driven at once")
    parser.add_argument("--moves", type=int, default=12, help="moves per game and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (raw parts, then the pipeline); median counts")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--move-timeout", type=float, default=60.0, help="seconds one move may take")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="the whole drive stops after this")
    parser.add_argument("--poll", type=float, default=0.25, help="longest wait between two checks of a move")
    add_service_arguments(parser)
    args = parser.parse_args(argv)

    with (redis_databases(args.redis, args.broker_db, args.cache_db, args.flush_redis) as (broker_db, cache_db),
          scratch_database(args.pg, args.db_name, args.keep_db) as db_name):
        base = args.redis.rstrip("/")
        result = run(args, f"{args.pg}/{db_name}", f"{base}/{broker_db}", f"{base}/{cache_db}")
    for line in result:
        print(line)
    return 1 if any(line.startswith("error") for line in result) else 0


def run(args: argparse.Namespace, database_url: str, broker: str, cache_url: str) -> list[str]:
    sink = Sink()
    from aiosmtpd.controller import Controller

    sink_port = args.sink_port or free_port()
    sink_ctl = Controller(sink, hostname="127.0.0.1", port=sink_port)
    sink_ctl.start()
    env = {
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "REDIS_URL": cache_url,  # the shared cache, as docker-compose sets it
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

    import engine
    from pbem.games import services
    from pbem.games.models import Game, OutboundMessage, Seat
    from pbem.mail.outbox import reply_address
    from pbem.mail.smtp import make_controller

    smtp_port = args.smtp_port or free_port()
    ingress = make_controller("127.0.0.1", smtp_port)
    ingress.start()
    # BENCH_WORKER_LOG=INFO BENCH_WORKER_LOGFILE=/tmp/w.log shows each task's time.
    level = os.environ.get("BENCH_WORKER_LOG", "WARNING")
    worker_log = open(os.environ.get("BENCH_WORKER_LOGFILE", os.devnull), "a")  # noqa: SIM115 - lives with the workers
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "workers", "worker", "-c", "1", "-l", level,
             "-n", f"bench{i}-{os.getpid()}@%h", "--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, stderr=worker_log)
        for i in range(args.workers)
    ]
    errors: list[str] = []
    done = [0]
    elapsed = 0.0
    cpu: dict[str, float] = {}
    state: dict = {}
    rounds: list[dict[str, float]] = []
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
        lock = threading.Lock()
        stop_at = time.monotonic() + args.max_seconds
        sent_n = dict.fromkeys(games, 0)

        def through(game_id: int, version: int) -> bool:
            fresh = Game.objects.filter(pk=game_id).values_list("version", flat=True).first()
            return fresh != version and not OutboundMessage.objects.filter(
                game_id=game_id, status__in=["pending", "sending"]).exists()

        def drive(game_id: int) -> None:
            smtp = smtplib.SMTP("127.0.0.1", smtp_port)
            try:
                for _ in range(args.moves):
                    if time.monotonic() > stop_at:
                        errors.append(f"game {game_id}: stopped after --max-seconds {args.max_seconds:.0f}")
                        return
                    game = Game.objects.get(pk=game_id)
                    if game.status != Game.Status.RUNNING or game.state is None:
                        return
                    seat_index = rules.pending(game.state)[0]
                    seat = Seat.objects.select_related("player").get(game=game, index=seat_index)
                    code = rules.options(game.state, seat_index)[0].code
                    assert seat.player is not None
                    sent_n[game_id] += 1
                    msg = EmailMessage()
                    msg["From"] = seat.player.email
                    msg["To"] = reply_address(seat)
                    msg["Subject"] = "move"
                    msg["Message-ID"] = f"<bench-{game_id}-{sent_n[game_id]}@bench.example>"
                    msg.set_content(code)
                    with sink.arrived:
                        seen = sink.count
                    smtp.send_message(msg)
                    deadline = time.monotonic() + args.move_timeout
                    while time.monotonic() < deadline:
                        # Why wait on the sink: a move is through only once mails arrive, so
                        # checking the database on each arrival (or every --poll s) costs the
                        # bench a few queries per move instead of a busy loop.
                        with sink.arrived:
                            if sink.count == seen:
                                sink.arrived.wait(args.poll)
                            seen = sink.count
                        if through(game_id, game.version):
                            break
                    else:
                        errors.append(f"game {game_id}: move {sent_n[game_id]} not through in "
                                      f"{args.move_timeout:.0f} s")
                        return
                    with lock:
                        done[0] += 1
            finally:
                smtp.quit()
                from django.db import connection

                connection.close()

        db_name = database_url.rsplit("/", 1)[1]
        redis_pid = redis_server_pid(broker)
        ingress_tids = [t.native_id for t in threading.enumerate()
                        if t.native_id is not None and t is not threading.current_thread()]

        def snapshot() -> dict[str, float]:
            return {"workers": sum(tree_cpu(w.pid) for w in workers), "smtpd+sink": thread_cpu(ingress_tids),
                    "redis (shared server)": cpu_seconds(redis_pid) if redis_pid else 0.0,
                    "own": os.times().user + os.times().system}

        cpu = {"workers": 0.0, "smtpd+sink": 0.0, "redis (shared server)": 0.0, "postgresql (this database)": 0.0,
               "bench drivers": 0.0}
        for _ in range(args.rounds):
            state = Game.objects.get(pk=games[0]).state or {}
            # The raw parts, measured right before the round they are compared with.
            raw = baseline(database_url, state, seconds=2.0)
            t_smtp = part_smtp_in(100)
            t_task = part_task(broker, 100)
            t_mails, mails_per_move = part_mails(games[0], sink_port, 10)
            before = done[0]
            c0 = snapshot()
            pg0 = {pid: cpu_seconds(pid) for pid in pg_backends(database_url, db_name)}
            threads = [threading.Thread(target=drive, args=(gid,)) for gid in games]
            start = time.perf_counter()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            took = time.perf_counter() - start
            c1 = snapshot()
            elapsed += took
            for k in ("workers", "smtpd+sink", "redis (shared server)"):
                cpu[k] += c1[k] - c0[k]
            # Backends that started during the round count whole; those before, their increase.
            cpu["postgresql (this database)"] += sum(cpu_seconds(pid) - pg0.get(pid, 0.0)
                                                     for pid in pg_backends(database_url, db_name))
            # The drivers' threads: this process's CPU in the round less the SMTP threads'.
            cpu["bench drivers"] += max(0.0, (c1["own"] - c0["own"]) - (c1["smtpd+sink"] - c0["smtpd+sink"]))
            moved = done[0] - before
            t_ceiling = t_smtp + t_task + 1 / raw + t_mails
            rounds.append({"moves": moved, "seconds": took, "rate": moved / took if took else 0.0,
                           "smtp": t_smtp, "task": t_task, "tx": 1 / raw, "mails": t_mails,
                           "mails_per_move": mails_per_move, "ceiling": 1 / t_ceiling,
                           "load": os.getloadavg()[0]})
            if errors or moved == 0:
                break
    finally:
        for w in workers:
            w.terminate()
        for w in workers:
            try:
                w.wait(10)
            except subprocess.TimeoutExpired:
                w.kill()
        ingress.stop()
        sink_ctl.stop()
        worker_log.close()

    from statistics import median

    moves = max(done[0], 1)
    rate = done[0] / elapsed if elapsed else 0.0
    lines = [f"machine: {machine_note()}"]
    for i, r in enumerate(rounds, 1):
        lines.append(
            f"round {i} (load {r['load']:.1f}): {r['moves']:.0f} moves in {r['seconds']:.1f} s = {r['rate']:.1f} "
            f"moves/s; raw parts: aiosmtpd receive {r['smtp'] * 1e3:.2f} ms + Celery task {r['task'] * 1e3:.2f} ms "
            f"+ move transaction {r['tx'] * 1e3:.2f} ms + {r['mails_per_move']:.0f} mails over one SMTP connection "
            f"{r['mails'] * 1e3:.2f} ms = ceiling {r['ceiling']:.1f} moves/s; ratio {r['rate'] / r['ceiling']:.3f}")
    ratios = [r["rate"] / r["ceiling"] for r in rounds if r["ceiling"]]
    tx_ratios = [r["rate"] * r["tx"] for r in rounds]
    lines += [
        f"pipeline: {done[0]} moves in {elapsed:.1f}s over {args.games} games, {args.workers} workers "
        f"= {rate:.1f} moves/s (SMTP in -> worker -> every mail accepted; {sink.count} mails delivered, "
        f"state {len(json.dumps(state))} bytes)",
        "CPU per move (ms): " + ", ".join(f"{k} {v / moves * 1e3:.1f}" for k, v in cpu.items()),
        f"ratio pipeline/raw transaction (median of {len(rounds)} rounds): "
        f"{median(tx_ratios) if tx_ratios else 0.0:.3f}",
        f"ratio pipeline/ceiling of its raw parts (median of {len(rounds)} rounds): "
        f"{median(ratios) if ratios else 0.0:.3f}  target >= 0.25",
    ]
    return lines + [f"error: {e}" for e in errors]


if __name__ == "__main__":
    sys.exit(main())
