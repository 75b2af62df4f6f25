"""Moves per second from SMTP in to every outbound mail accepted, against the honest ceiling of its raw parts.

    python bench/pipeline.py [--game maretta --game maracaibo] [--games 4] [--moves 12] [--rounds 3]
                             [--workers 2] [--max-seconds 300]
                             [--pg URL] [--db-name NAME] [--redis URL] [--broker-db 13] [--cache-db 12]

Needs PostgreSQL and Redis (see ``bench/common.py`` for the arguments: the bench
creates its own scratch database and drops only that one, and refuses Redis
databases that hold someone else's keys). It starts the SMTP ingress in this
process, an SMTP sink for outbound mail, and real Celery worker processes, then
drives ``--games`` games of each ``--game`` at once (3 players each, every
player in the default mail mode): each move is a mail to the seat's reply
address naming one of the seat's options, picked at random (seeded) so that
the choices spread over the options; it counts as done when the game's version
has moved and every outbox row it wrote has been accepted by the sink: the game's
version and its rows counted in one statement, against the mails the sink accepted for its
players. Why counted at the sink and not by pbem's ``sent`` marks (``--through marks``, the
bench before): the mark is written after the relay's answer, so the driver woken by the last
mail's arrival found it unmarked and waited for another game's mail or ``--poll`` s, a wait no
player has (they answer the mail they got). Drivers wake when the sink accepts a mail of their
game (and at the latest every ``--poll`` seconds). A driver chooses as a player does, from the mails the sink
accepted for its game's players (the seat that a mail asked and that has not
answered; the option codes the mail lists), not by reading the game and asking
the engine for its options (``--choose game``, the bench before: 20 ms of the
drivers' CPU a move on the pipeline's cores, which the ceiling's parts do not
pay). Every seat a mail asks answers at once, as players choosing at the same time do
(``--answer each``; Maretta's cards): a driver sent its game's next move only once the last was
through (``--answer one``, the bench before), and a move that writes no mail (the first two of three
cards chosen) was seen through only by the ``--poll`` check, 100 ms a move in which no player waits.
The drivers' CPU is their threads' own (``thread_time``); the rest of this
process's is the SMTP ingress's and the sink's (the ingress stores a mail and
queues its task in a thread of asgiref's, counted as the drivers' before).

The ceiling is made of the raw parts a move needs, none of them pbem's own
code, each measured right after the round it is compared with, as a throughput
with the same concurrency as the pipeline:

* SMTP receive: ``--games`` clients, one kept connection each, sending mails
  of the drivers' shape to a bare aiosmtpd server in this process;
* a Celery task: Celery's own ``celery.accumulate`` (no pbem code), sent
  through the same broker and run by the same ``--workers`` worker processes;
* the move transaction: ``--workers`` connections, each locking a row of its
  own, updating a JSON state of the game's size and inserting a log row;
* the mails: the bytes the sink accepted in the round (the very mails the
  pipeline composed), sent again prebuilt by ``--workers`` senders over one
  kept connection each to the same sink, pipelined (RFC 2920: MAIL, RCPT and
  DATA in one write, then the message; two round trips a mail), written raw
  with smtplib's ``putcmd``/``getreply``. The sink advertises PIPELINING as
  every real relay does, and pbem's backend pipelines too (issue 28), so the
  ceiling stays the best raw way and the ratio moves only by what pbem waits for.

A move needs one of each of the first three and the round's mails per move of
the last, all on the same cores, so the ceiling is 1 / (1/smtp + 1/task +
1/transaction + mails per move/mails). The ratio pipeline/ceiling is taken per
round, and the median of the rounds is the figure (goals: 0.25, then 0.5).
Bounded: every move waits at most ``--move-timeout`` s, the whole drive
``--max-seconds``. Figures and ratios are printed last.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import smtplib
import subprocess
import sys
import threading
import time
from email.message import EmailMessage
from functools import partial
from pathlib import Path
from typing import Any

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
    """Outbound SMTP relay stand-in: counts what it is given, and keeps its bytes when asked."""

    def __init__(self) -> None:
        self.count = 0
        self.arrived = threading.Condition()
        self.keep = False
        self.kept: list[tuple[str, list[str], bytes]] = []
        #: Every mail's bytes by recipient, until a driver takes them (it chooses its move from them).
        self.inbox: dict[str, list[bytes]] = {}
        #: False while the raw parts resend a round's mails: the players never get those twice.
        self.to_players = True
        #: How many mails each recipient was given (never the raw parts' resends).
        self.accepted: dict[str, int] = {}

    async def handle_EHLO(self, server: object, session: Any, envelope: object, hostname: str,
                          responses: list[str]) -> list[str]:
        """EHLO's lines with PIPELINING (RFC 2920), as every real relay advertises it."""
        session.host_name = hostname
        return [*responses[:-1], "250-PIPELINING", responses[-1]]

    async def handle_DATA(self, server: object, session: object, envelope: Any) -> str:
        with self.arrived:
            self.count += 1
            content = bytes(envelope.original_content)
            if self.keep:
                self.kept.append((envelope.mail_from, list(envelope.rcpt_tos), content))
            for rcpt in envelope.rcpt_tos if self.to_players else ():
                self.inbox.setdefault(rcpt, []).append(content)
                self.accepted[rcpt] = self.accepted.get(rcpt, 0) + 1
            self.arrived.notify_all()
        return "250 OK"

    def given(self, addresses: list[str]) -> int:
        """How many mails ``addresses`` were given in all (a game's players: its mails); the caller
        holds ``arrived``."""
        return sum(self.accepted.get(a, 0) for a in addresses)

    def given_other_than(self, addresses: list[str], count: int) -> bool:
        """Whether ``addresses`` were given other than ``count`` mails in all (the caller holds ``arrived``)."""
        return self.given(addresses) != count

    def take(self, addresses: list[str]) -> list[tuple[str, bytes]]:
        """The mails to ``addresses`` not taken yet, (recipient, bytes), oldest first for each."""
        with self.arrived:
            return [(a, raw) for a in addresses for raw in self.inbox.pop(a, [])]


#: The line above a mail's options, and how a mail whose options are those of the mail before it
#: says so (pbem.mail.compose, pbem.mail.outbox.options_again; tools/localmail.py reads them too).
OPTIONS_HEADINGS = ("Your options:", "As suas opções:")
AGAIN = ("The same as in my last mail (", "As mesmas da minha última mensagem (")


def asked(raw: bytes) -> tuple[str, list[str] | None]:
    """(the seat's reply address, the option codes the mail lists) of a mail as a player gets it;
    codes ``[]`` when it says its options are those of the mail before, None when it asks nothing.
    Why from the mail: a player chooses from the mail they got; reading the game and asking the
    engine for its options cost the bench's drivers 20 ms of CPU a move on the cores the pipeline
    runs on, which none of the ceiling's raw parts pays (issue 28)."""
    import email

    # Why the legacy policy: the default one's header objects made a mail's reading 3 ms of CPU
    m = email.message_from_bytes(raw)
    reply_to = str(m["Reply-To"] or "")
    part = next((p for p in m.walk() if p.get_content_type() == "text/plain"), None)
    payload = part.get_payload(decode=True) if part is not None else b""
    text = (
        payload.decode(part.get_content_charset() or "utf-8") if part is not None and isinstance(payload, bytes) else ""
    )
    lines = text.splitlines()
    heading = next((i for i, line in enumerate(lines) if line in OPTIONS_HEADINGS), None)
    if heading is None:
        return reply_to, None
    codes: list[str] = []
    for line in lines[heading + 1 :]:
        if not line.strip():
            break
        if line.strip().startswith(AGAIN):
            return reply_to, []
        codes.append(line.split()[0])
    return reply_to, codes


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


def pg_backends(database_url: str, db_name: str) -> list[int]:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        rows = conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()", [db_name]
        ).fetchall()
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


# ---- the raw parts, each a throughput at the pipeline's concurrency, none of it pbem's code ------------


def _threads(n: int, work: Any) -> float:
    """Runs work(i) in n threads at once; the seconds from the first start to the last end."""
    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def inbound_shape(i: int) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "p0-1@bench.example", "seat-x@bench.example", "move"
    msg["Message-ID"] = f"<raw-{i}@bench.example>"
    msg.set_content("a1")
    return msg


def part_smtp_in(clients: int, per_client: int) -> float:
    """Mails per second received by a bare aiosmtpd server, ``clients`` kept connections at once."""
    from aiosmtpd.controller import Controller

    port = free_port()
    ctl = Controller(Sink(), hostname="127.0.0.1", port=port)
    ctl.start()
    try:

        def client(i: int) -> None:
            with smtplib.SMTP("127.0.0.1", port) as smtp:
                for k in range(per_client):
                    smtp.send_message(inbound_shape(i * per_client + k))

        return clients * per_client / _threads(clients, client)
    finally:
        ctl.stop()


def part_task(broker: str, n: int) -> float:
    """Tasks per second through the broker to the running workers and done: Celery's own
    ``celery.accumulate`` (returns its arguments; no pbem code), sent by a bare Celery client."""
    import redis
    from celery import Celery

    client = redis.Redis.from_url(broker)
    app = Celery("bench", broker=broker)
    started = time.perf_counter()
    with app.producer_pool.acquire(block=True) as producer:
        for i in range(n):
            app.send_task("celery.accumulate", args=[i], producer=producer)
    # Done: nothing waits in the queue and nothing is taken but unacknowledged (acks_late).
    while (client.llen("celery") or client.hlen("unacked")) and time.perf_counter() - started < 120:
        time.sleep(0.005)
    took = time.perf_counter() - started
    client.close()
    return n / took


def part_transaction(database_url: str, state: dict, connections: int, seconds: float) -> float:
    """Transactions per second, ``connections`` at once, each on a row of its own: lock the row,
    update its JSON state (the game's size), insert a log row."""
    import psycopg
    from psycopg.types.json import Jsonb

    payload = json.dumps(state)
    with psycopg.connect(database_url) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS raw_game (id int primary key, version int, state jsonb)")
        conn.execute("CREATE TABLE IF NOT EXISTS raw_move (id bigserial primary key, game int, move jsonb)")
        for i in range(connections):
            conn.execute("INSERT INTO raw_game VALUES (%s, 0, %s) ON CONFLICT DO NOTHING", (i, Jsonb(state)))
        conn.commit()
    counts = [0] * connections
    end = time.perf_counter() + seconds

    def worker(i: int) -> None:
        with psycopg.connect(database_url) as conn:
            while time.perf_counter() < end:
                with conn.transaction():
                    conn.execute("SELECT version FROM raw_game WHERE id = %s FOR UPDATE", (i,))
                    conn.execute(
                        "UPDATE raw_game SET state = %s::jsonb, version = version + 1 WHERE id = %s", (payload, i)
                    )
                    conn.execute("INSERT INTO raw_move (game, move) VALUES (%s, %s)", (i, Jsonb({"code": "x"})))
                counts[i] += 1

    took = _threads(connections, worker)  # first: the counts are the threads' work
    return sum(counts) / took


def _pipelined(smtp: smtplib.SMTP, mail_from: str, rcpt_tos: list[str], content: bytes) -> None:
    """One mail in two round trips (RFC 2920): MAIL, every RCPT and DATA in one write, their
    replies, then the message (dot-stuffed by smtplib's own helper) and its reply."""
    envelope = [f"mail FROM:<{mail_from}> size={len(content)}"] + [f"rcpt TO:<{r}>" for r in rcpt_tos]
    smtp.send("".join(f"{c}\r\n" for c in [*envelope, "data"]))
    codes = [smtp.getreply()[0] for _ in range(len(rcpt_tos) + 2)]
    quoted = smtplib._quote_periods(content)  # type: ignore[attr-defined]
    smtp.send(quoted + (b"" if quoted.endswith(b"\r\n") else b"\r\n") + b".\r\n")
    codes.append(smtp.getreply()[0])
    if codes != [250] * (len(rcpt_tos) + 1) + [354, 250]:
        raise RuntimeError(f"the sink refused a prebuilt mail: {codes}")


def part_mails(kept: list[tuple[str, list[str], bytes]], sink_port: int, senders: int, least: int = 200) -> float:
    """Mails per second: the round's mails, prebuilt (the bytes the sink accepted), sent again by
    ``senders`` at once over one kept SMTP connection each."""
    if not kept:
        return float("inf")
    mails = kept * max(1, -(-least // len(kept)))

    def sender(i: int) -> None:
        with smtplib.SMTP("127.0.0.1", sink_port) as smtp:
            smtp.ehlo()
            for mail_from, rcpt_tos, content in mails[i::senders]:
                _pipelined(smtp, mail_from, rcpt_tos, content)

    return len(mails) / _threads(senders, sender)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--game",
        action="append",
        choices=("maretta", "maracaibo", "caravelas"),
        help="a game driven (repeatable; default maretta and maracaibo)",
    )
    parser.add_argument("--games", type=int, default=4, help="games of each --game driven at once")
    parser.add_argument("--moves", type=int, default=12, help="moves per game and round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (the pipeline, then the raw parts)")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--move-timeout", type=float, default=60.0, help="seconds one move may take")
    parser.add_argument("--max-seconds", type=float, default=300.0, help="the whole drive stops after this")
    parser.add_argument("--poll", type=float, default=0.1, help="longest wait between two checks of a move")
    parser.add_argument(
        "--answer",
        choices=["each", "one"],
        default="each",
        help="a driver answers every seat a mail asks at once, as its players would (default), or sends its "
        "game's next move only once the last is through (the bench before: a move that writes no mail then "
        "waited for --poll)",
    )
    parser.add_argument("--seed", default="pipeline", help="seeds the choices among the options")
    parser.add_argument(
        "--through",
        choices=("mails", "marks"),
        default="mails",
        help="a move is through when the game moved and the sink accepted every mail it wrote "
        "(default), or also when pbem marked them sent (the bench before: 'marks')",
    )
    parser.add_argument(
        "--choose",
        choices=("mail", "game"),
        default="mail",
        help="a driver chooses its move from the mail the seat got (default), or by reading the "
        "game and asking the engine for the options (the bench before issue 28's fair driver)",
    )
    add_service_arguments(parser)
    args = parser.parse_args(argv)
    args.game = args.game or ["maretta", "maracaibo"]

    with (
        redis_databases(args.redis, args.broker_db, args.cache_db, args.flush_redis) as (broker_db, cache_db),
        scratch_database(args.pg, args.db_name, args.keep_db) as db_name,
    ):
        base = args.redis.rstrip("/")
        result = run(args, f"{args.pg}/{db_name}", f"{base}/{broker_db}", f"{base}/{cache_db}")
    for line in result:
        print(line)
    return 1 if any(line.startswith("error") for line in result) else 0


OPTIONS = {"maretta": {"side": "A"}, "maracaibo": {}, "caravelas": {}}


def worker_command(i: int, level: str) -> list[str]:
    """The command of the bench's ``i``-th worker: one pool process, started with the options a deployment
    starts its workers with (docker-compose.yml's worker: ``workers.celery.WORKER_OPTIONS``)."""
    from workers.celery import WORKER_OPTIONS

    return [sys.executable, "-m", "celery", "-A", "workers", "worker", "-c", "1", "-l", level,
            "-n", f"bench{i}-{os.getpid()}@%h", *WORKER_OPTIONS]


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
            worker_command(i, level),
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=subprocess.DEVNULL,
            stderr=worker_log,
        )
        for i in range(args.workers)
    ]
    errors: list[str] = []
    lines = [f"machine: {machine_note()}"]
    summary: list[str] = []
    try:
        time.sleep(3.0)  # workers connect to the broker
        stop_at = time.monotonic() + args.max_seconds
        db_name = database_url.rsplit("/", 1)[1]
        redis_pid = redis_server_pid(broker)

        def snapshot() -> dict[str, float]:
            return {
                "workers": sum(tree_cpu(w.pid) for w in workers),
                "redis (shared server)": cpu_seconds(redis_pid) if redis_pid else 0.0,
                "own": os.times().user + os.times().system,
            }

        players_of: dict[int, list[str]] = {}
        #: Per game, the seats a mail asked for a move and not answered yet: reply address ->
        #: (player's address, codes); and the codes each seat's last listing mail named.
        asks: dict[int, dict[str, tuple[str, list[str]]]] = {}
        last_codes: dict[str, list[str]] = {}
        read_game = [0]
        polled = [0]  # waits for a move that ended by the --poll timeout, not by a mail of its game
        drivers_cpu = [0.0]

        def from_mails(game_id: int) -> tuple[str, str, list[str]] | None:
            """(player's address, seat's reply address, codes) of the seat to move, from the mails
            the game's players got; the lowest seat first when several are asked (as the engine's
            pending list); None when no mail asks (then the driver reads the game)."""
            waiting = asks[game_id]
            for address, raw in sink.take(players_of[game_id]):
                reply_to, codes = asked(raw)
                if codes is None:
                    waiting.pop(reply_to, None)
                    continue
                codes = codes or last_codes.get(reply_to, [])
                if codes:
                    waiting[reply_to] = (address, codes)
                    last_codes[reply_to] = codes
            if not waiting:
                return None
            order = players_of[game_id]
            reply_to, (address, codes) = min(waiting.items(), key=lambda kv: order.index(kv[1][0]))
            return address, reply_to, codes

        outbox, games_table = OutboundMessage._meta.db_table, Game._meta.db_table
        progress_sql = (
            f"SELECT g.version, EXISTS (SELECT 1 FROM {outbox} o WHERE o.game_id = g.id"
            f" AND o.status IN ('pending', 'sending')) FROM {games_table} g WHERE g.id = %s"
            if args.through == "marks"
            else f"SELECT g.version, (SELECT count(*) FROM {outbox} o WHERE o.game_id = g.id AND o.status <> 'failed')"
            f" FROM {games_table} g WHERE g.id = %s"
        )

        def progress(game_id: int) -> tuple[int, int] | None:
            """(the game's version, with ``--through marks`` whether a mail of it waits to be sent, else
            how many mails it wrote that can be sent): one statement written out (the ORM's building
            of it was most of a check's CPU, and a driver checks on every mail of its game)."""
            from django.db import connection

            with connection.cursor() as cursor:
                cursor.execute(progress_sql, [game_id])
                row = cursor.fetchone()
            return None if row is None else (int(row[0]), int(row[1]))

        def through(game_id: int, version: int, given: int, moves: int = 1) -> bool:
            """Whether the game's version moved by ``moves`` (each move is a version) and every mail it
            wrote was accepted by the sink (``given`` of them were); with ``--through marks``: and none of
            them waits to be marked sent (the bench before: the mark follows the relay's answer, which a
            player never waits for)."""
            now = progress(game_id)
            if now is None or now[0] < version + moves:
                return False
            return not now[1] if args.through == "marks" else given >= now[1]

        for name in args.game:
            rules = engine.get(name)
            read_game[0] = 0
            polled[0] = 0
            games = []
            for g in range(args.games):
                players = [services.do_create_player(f"{name}{g}-{i}@bench.example", f"P{g}{i}") for i in range(3)]
                game = services.do_create_game(
                    players[0], name, options=OPTIONS[name], invite=[p.email for p in players[1:]]
                )
                for p in players[1:]:
                    services.do_join_game(game.pk, p)
                games.append(game.pk)
                players_of[game.pk] = [p.email for p in players]
                asks[game.pk] = {}
            # the games' first mails sent before the drive: a driver chooses its first move from them
            settle = time.monotonic() + args.move_timeout
            while OutboundMessage.objects.filter(game_id__in=games, status__in=["pending", "sending"]).exists():
                if time.monotonic() > settle:
                    errors.append(f"{name}: the games' first mails not sent in {args.move_timeout:.0f} s")
                    break
                time.sleep(0.05)
            lock = threading.Lock()
            sent_n = dict.fromkeys(games, 0)
            done = [0]
            choose = random.Random(f"{args.seed}-{name}")

            def drive(
                game_id: int,
                rules: Any = rules,
                lock: threading.Lock = lock,
                sent_n: dict[int, int] = sent_n,
                done: list[int] = done,
                choose: random.Random = choose,
            ) -> None:
                started = time.thread_time()
                smtp = smtplib.SMTP("127.0.0.1", smtp_port)
                in_flight = 0  # moves sent and not yet seen through (several while seats choose at once)
                version = 0
                try:
                    for n in range(args.moves):
                        if time.monotonic() > stop_at:
                            errors.append(f"game {game_id}: stopped after --max-seconds {args.max_seconds:.0f}")
                            return
                        if not in_flight:
                            # the version the moves must change: one indexed column, not the game's state
                            now = progress(game_id)
                            if now is None:
                                return
                            version = now[0]
                        mailed = from_mails(game_id) if args.choose == "mail" else None
                        if mailed is not None:
                            sender, seat_address, codes = mailed
                            with lock:  # choices spread over the options, the same for a seed
                                code = choose.choice(codes)
                            del asks[game_id][seat_address]
                        else:
                            game = Game.objects.get(pk=game_id)
                            if game.status != Game.Status.RUNNING or game.state is None:
                                return
                            with lock:
                                read_game[0] += 1
                            seat_index = rules.pending(game.state)[0]
                            seat = Seat.objects.select_related("player").get(game=game, index=seat_index)
                            with lock:
                                code = choose.choice(rules.options(game.state, seat_index)).code
                            assert seat.player is not None
                            sender, seat_address = seat.player.email, reply_address(seat)
                            asks[game_id].pop(seat_address, None)
                        sent_n[game_id] += 1
                        msg = EmailMessage()
                        msg["From"] = sender
                        msg["To"] = seat_address
                        msg["Subject"] = "move"
                        msg["Message-ID"] = f"<bench-{game_id}-{sent_n[game_id]}@bench.example>"
                        msg.set_content(code)
                        players = players_of[game_id]
                        with sink.arrived:
                            seen, given = sink.count, sink.given(players)
                        smtp.send_message(msg)
                        in_flight += 1
                        if args.answer == "each" and asks[game_id] and n + 1 < args.moves:
                            # Another seat's mail asks it too (choices made at once, as Maretta's cards): its
                            # player answers the mail they got now, not once this move is judged. Why: a move
                            # that writes no mail (the first two of three choices) was seen through only by
                            # the --poll check, 100 ms a move in which no player waits (issue 28).
                            continue
                        deadline = time.monotonic() + args.move_timeout
                        while time.monotonic() < deadline:
                            # Why wait on the sink: a move is through only once mails arrive, so
                            # checking the database on each arrival of its game's mails (or every
                            # --poll s) costs the bench a few queries per move instead of a busy loop.
                            woken = True
                            with sink.arrived:
                                if args.through == "marks":
                                    if sink.count == seen:
                                        woken = sink.arrived.wait(args.poll)
                                    seen = sink.count
                                elif sink.given(players) == given:
                                    woken = sink.arrived.wait_for(
                                        partial(sink.given_other_than, players, given), args.poll
                                    )
                                given = sink.given(players)
                            if not woken:
                                with lock:
                                    polled[0] += 1
                            if through(game_id, version, given, in_flight):
                                break
                        else:
                            errors.append(
                                f"game {game_id}: move {sent_n[game_id]} not through in {args.move_timeout:.0f} s"
                            )
                            return
                        with lock:
                            done[0] += in_flight
                        in_flight = 0
                finally:
                    smtp.quit()
                    from django.db import connection

                    connection.close()
                    with lock:
                        drivers_cpu[0] += time.thread_time() - started

            cpu = {
                "workers": 0.0,
                "smtp ingress+sink": 0.0,
                "redis (shared server)": 0.0,
                "postgresql (this database)": 0.0,
                "bench drivers": 0.0,
            }
            rounds: list[dict[str, float]] = []
            elapsed = 0.0
            state: dict = {}
            for _ in range(args.rounds):
                before = done[0]
                with sink.arrived:
                    sink.kept = []
                    sink.keep = True
                c0 = snapshot()
                pg0 = {pid: cpu_seconds(pid) for pid in pg_backends(database_url, db_name)}
                took = _threads(len(games), lambda i, g=games: drive(g[i]))
                c1 = snapshot()
                with sink.arrived:
                    sink.keep = False
                    kept = sink.kept
                elapsed += took
                for k in ("workers", "redis (shared server)"):
                    cpu[k] += c1[k] - c0[k]
                # Backends that started during the round count whole; those before, their increase.
                cpu["postgresql (this database)"] += sum(
                    cpu_seconds(pid) - pg0.get(pid, 0.0) for pid in pg_backends(database_url, db_name)
                )
                # The drivers' threads count their own CPU (thread_time); the rest of this process's
                # CPU in the round is the SMTP ingress's and the sink's: their event loops' threads and
                # the thread the ingress stores a mail and queues its task in (asgiref's, started on
                # the first mail: counted as the drivers' before, 15-19 ms a move of their 20).
                cpu["bench drivers"] += drivers_cpu[0]
                cpu["smtp ingress+sink"] += max(0.0, (c1["own"] - c0["own"]) - drivers_cpu[0])
                drivers_cpu[0] = 0.0
                moved = done[0] - before
                if errors or moved == 0:
                    break
                # The raw parts, right after the round they are compared with.
                state = Game.objects.get(pk=games[0]).state or {}
                x_smtp = part_smtp_in(len(games), 50)
                x_task = part_task(broker, 200)
                x_tx = part_transaction(database_url, state, args.workers, seconds=2.0)
                sink.to_players = False
                try:
                    x_mails = part_mails(kept, sink_port, args.workers)
                finally:
                    sink.to_players = True
                per_move = len(kept) / moved
                ceiling = 1 / (1 / x_smtp + 1 / x_task + 1 / x_tx + per_move / x_mails)
                rounds.append(
                    {
                        "moves": moved,
                        "seconds": took,
                        "rate": moved / took,
                        "smtp": x_smtp,
                        "task": x_task,
                        "tx": x_tx,
                        "mails": x_mails,
                        "per_move": per_move,
                        "ceiling": ceiling,
                        "load": os.getloadavg()[0],
                    }
                )
            from statistics import median

            moves = max(done[0], 1)
            for i, r in enumerate(rounds, 1):
                lines.append(
                    f"{name} round {i} (load {r['load']:.1f}): {r['moves']:.0f} moves in {r['seconds']:.1f} s = "
                    f"{r['rate']:.1f} moves/s; raw parts a second: aiosmtpd receive {r['smtp']:.0f} + Celery task "
                    f"{r['task']:.0f} + move transaction {r['tx']:.0f} + prebuilt mails {r['mails']:.0f} "
                    f"({r['per_move']:.2f} a move) = ceiling {r['ceiling']:.1f} moves/s; "
                    f"ratio {r['rate'] / r['ceiling']:.3f}"
                )
            ratios = [r["rate"] / r["ceiling"] for r in rounds]
            value = median(ratios) if ratios else 0.0
            mailed = sum(r["per_move"] * r["moves"] for r in rounds)
            lines += [
                f"{name} pipeline: {done[0]} moves in {elapsed:.1f}s over {args.games} games, {args.workers} workers "
                f"= {done[0] / elapsed if elapsed else 0.0:.1f} moves/s, {mailed:.0f} "
                f"mails accepted by the sink (state {len(json.dumps(state))} bytes)",
                f"{name} CPU per move (ms): "
                + ", ".join(f"{k} {v / moves * 1e3:.1f}" for k, v in cpu.items())
                + f"; drivers chose from the mails ({args.choose}), read the game for {read_game[0]} moves, "
                f"answered each seat asked {'at once' if args.answer == 'each' else 'one move at a time'}, "
                f"waited --poll for a move {polled[0]} times",
            ]
            verdict = "met" if value >= 0.5 else "first goal met" if value >= 0.25 else "not met"
            summary.append(
                f"ratio {name} pipeline/honest ceiling (median of {len(rounds)} rounds): {value:.3f}  "
                f"goals >= 0.25 then 0.5: {verdict}"
            )
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
    return lines + summary + [f"error: {e}" for e in errors]


if __name__ == "__main__":
    sys.exit(main())
