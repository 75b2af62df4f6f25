"""The fault suite: games played by mail while the parts of a deployment fail, then an account.

    python bench/chaos.py [--seconds 120] [--games 6] [--workers 2] [--settle 180] [--seed 1]
                          [--relay-outage 180] [--burst-one 1000] [--burst-many 4000 --burst-games 50]
    make chaos CHAOS_ARGS='--seconds 300 --games 10'

It starts everything itself, on free ports in a temporary folder, and touches nothing
else: its own PostgreSQL cluster (initdb and pg_ctl from /usr/lib/postgresql/*/bin; as the
``postgres`` user when run as root, since initdb refuses root), its own Redis, Celery
workers, Celery beat, the SMTP ingress (``manage.py smtpd``) and an outbound relay sink.
Then it plays Maretta games by mail, one driver thread per game sending the pending seat's
first option as an MTA would (a 4xx answer or a broken connection: the same mail again),
for ``--seconds``, while on a schedule it:

* SIGKILLs a worker (twice) and starts a new one (with ``--kill-mid-send`` the second time
  while the relay holds the mail it is sending: the row is left ``sending``);
* stops the relay sink for a while (outbound mail must wait and then all go out);
* stops Redis for a few seconds (inbound mail must still be answered 250), and later
  kills and restarts it empty (the queue is lost: the sweepers must find the work);
* kills the ingress with SIGKILL in the middle of a DATA, restarts it, and sends that
  mail again in full;
* restarts PostgreSQL (immediate stop, then start).

After the play (and its settling) come the bursts, without faults: ``--burst-one`` mails
to one game as fast as several SMTP clients can send them, then ``--burst-many`` mails
spread over ``--burst-games`` games (every mail is a command of the seat to move, sent
without waiting for the one before: most are judged stale or out of turn, none may be lost,
stuck or applied twice). ``--relay-outage`` gives the relay's outage in seconds (minutes,
say 180) instead of a share of the play; the play then lasts at least as long as it.

Then it stops playing, waits until nothing is waiting (at most ``--settle`` seconds) and
accounts from the database and the sink: mails accepted vs stored vs judged, moves lost
or applied twice (every game's seed and log replayed to its stored state), outbound rows
expected vs delivered vs delivered twice (by Message-ID), rows stuck, and how long each
fault took to recover from. Figures are printed last; the exit status is 1 on any loss,
any stuck row, any internal error, a state that does not replay, more duplicate
deliveries than 1 per 1,000 mails (at least 1 allowed), or a recovery slower than its
goal: inbound judged within 30 s of the broker's return, outbound rows held by a killed
worker sent within 60 s of its death, every pending mail sent within 300 s of the relay's
return.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import glob
import os
import random
import shutil
import signal
import smtplib
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, timeout: float = 30.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
        time.sleep(0.1)
    return False


def now() -> datetime:
    return datetime.now(UTC)


# ---- the services it starts ---------------------------------------------------------------


class Postgres:
    """A throw-away cluster in a temp folder, on a free port."""

    def __init__(self, base: Path) -> None:
        found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not found:
            raise SystemExit("chaos: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
        self.bin = Path(found[-1]).parent
        self.dir = base / "pg"
        self.dir.mkdir()
        self.port = free_port()
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            # Why: initdb refuses to run as root; the folder must belong to the server's user.
            shutil.chown(base, "postgres")
            shutil.chown(self.dir, "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.dir), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
        self.url = f"postgres://postgres@127.0.0.1:{self.port}"

    def _run(self, tool: str, *args: str) -> None:
        subprocess.run([*self.as_user, str(self.bin / tool), *args], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=100"
        self._run("pg_ctl", "-D", str(self.dir), "-o", opts, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self, mode: str = "immediate") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run("pg_ctl", "-D", str(self.dir), "-m", mode, "-w", "stop")


class Redis:
    """A Redis without persistence on a free port: a restart loses everything in it."""

    def __init__(self, base: Path) -> None:
        self.port = free_port()
        self.dir = base / "redis"
        self.dir.mkdir()
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not wait_port(self.port):
            raise SystemExit("chaos: redis-server did not start")

    def kill(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


class Sink:
    """The outbound relay: records the Message-ID of every mail it accepts; can be stopped."""

    def __init__(self) -> None:
        self.port = free_port()
        self.ids: collections.Counter[str] = collections.Counter()
        self.lock = threading.Lock()
        self.controller: Any = None

    #: Seconds the sink holds its answer after taking a mail (a slow relay), and how many it holds now.
    slow = 0.0
    holding = 0

    async def handle_DATA(self, server: object, session: object, envelope: Any) -> str:
        headers = BytesHeaderParser().parsebytes(envelope.original_content or envelope.content)
        with self.lock:
            # Counted when the data is in: a relay that has it delivers it, answered or not.
            self.ids[str(headers.get("Message-ID", "")).strip()] += 1
        if self.slow:
            import asyncio

            self.holding += 1
            try:
                await asyncio.sleep(self.slow)
            finally:
                self.holding -= 1
        return "250 OK"

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None


class Processes:
    """Workers, beat and the ingress, as a deployment runs them."""

    def __init__(self, base: Path, env: dict[str, str], smtp_port: int) -> None:
        self.base, self.env, self.smtp_port = base, env, smtp_port
        self.workers: list[subprocess.Popen[bytes]] = []
        self.beat: subprocess.Popen[bytes] | None = None
        self.ingress: subprocess.Popen[bytes] | None = None
        self.log = open(base / "processes.log", "ab")  # noqa: SIM115 - lives as long as the processes
        self.n = 0

    def _spawn(self, args: list[str]) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, *args], cwd=ROOT, env=self.env, stdout=self.log, stderr=self.log,
                                start_new_session=True)

    def start_worker(self) -> None:
        """One more worker of one pool process, started with the options a deployment starts its workers
        with (``workers.celery.WORKER_OPTIONS``, as bench/pipeline.py's ``worker_command``)."""
        # (imported here, as pipeline.py does: the Celery app reads Django's settings, set up by main)
        from workers.celery import WORKER_OPTIONS

        self.n += 1
        self.workers.append(self._spawn(["-m", "celery", "-A", "workers", "worker", "-c", "1", "-l", "WARNING",
                                         "-n", f"chaos{self.n}-{os.getpid()}@%h", *WORKER_OPTIONS]))

    def kill_worker(self, rng: random.Random) -> None:
        victim = rng.choice(self.workers)
        self.workers.remove(victim)
        # The whole process group: the pool child holding the task dies with its parent.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(victim.pid, signal.SIGKILL)
        victim.wait()

    def start_beat(self) -> None:
        self.beat = self._spawn(["-m", "celery", "-A", "workers", "beat", "-l", "WARNING",
                                 "--schedule", str(self.base / "beat-schedule")])

    def start_ingress(self) -> None:
        self.ingress = self._spawn(["manage.py", "smtpd", "--listen", f"127.0.0.1:{self.smtp_port}"])
        if not wait_port(self.smtp_port, 60):
            raise SystemExit("chaos: the ingress did not start")

    def kill_ingress(self) -> None:
        if self.ingress is not None:
            os.killpg(self.ingress.pid, signal.SIGKILL)
            self.ingress.wait()
            self.ingress = None

    def stop_all(self) -> None:
        procs = [*self.workers, *(p for p in (self.beat, self.ingress) if p is not None)]
        for p in procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        self.log.close()


# ---- playing ------------------------------------------------------------------------------


@dataclass
class Play:
    accepted: set[str] = field(default_factory=set)
    answers: collections.Counter[int] = field(default_factory=collections.Counter)
    refused_while_redis_down: int = 0
    redis_down: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)
    sent: int = 0


def send_until_answered(smtp_port: int, mail_from: str, rcpt: str, raw: bytes, mid: str, play: Play,
                        stop_at: float) -> int:
    """Deliver like an MTA: a 4xx answer or a broken connection means the same mail again later."""
    while time.monotonic() < stop_at:
        down = play.redis_down.is_set()
        try:
            with smtplib.SMTP("127.0.0.1", smtp_port, timeout=30) as client:
                client.sendmail(mail_from, [rcpt], raw)
            code = 250
        except smtplib.SMTPRecipientsRefused as exc:
            code = next(iter(exc.recipients.values()))[0]
        except smtplib.SMTPResponseException as exc:
            code = exc.smtp_code
        except (OSError, smtplib.SMTPException):
            time.sleep(0.5)
            continue
        with play.lock:
            play.answers[code] += 1
            if down and code != 250:
                play.refused_while_redis_down += 1
            if code == 250:
                play.accepted.add(mid)
        if 400 <= code < 500:
            time.sleep(1.0)
            continue
        return code
    return 0


def db_retry(func: Any, *args: Any, tries: int = 60) -> Any:
    """A read in the driver, retried across a database restart."""
    from django.db import connection

    for _ in range(tries):
        try:
            return func(*args)
        except Exception:  # noqa: BLE001 - the database is restarting
            connection.close()
            time.sleep(0.5)
    return None


def drive(game_id: int, smtp_port: int, play: Play, stop_at: float, rng: random.Random) -> None:
    from django.db import connection

    import engine
    from pbem.games.models import Game, Seat
    from pbem.mail.outbox import reply_address

    rules = engine.get("maretta")
    n = 0
    try:
        while time.monotonic() < stop_at:
            game = db_retry(lambda: Game.objects.get(pk=game_id))
            if game is None or game.status != Game.Status.RUNNING or game.state is None:
                return
            pending = rules.pending(game.state)
            if not pending:
                return
            seat_index = rng.choice(pending)
            seat = db_retry(lambda g=game, i=seat_index: Seat.objects.select_related("player").get(game=g, index=i))
            options = rules.options(game.state, seat_index)
            if seat is None or seat.player is None or not options:
                time.sleep(0.5)
                continue
            n += 1
            mid = f"<chaos.g{game_id}.n{n}.{rng.randrange(1 << 30)}@chaos.example>"
            msg = EmailMessage()
            msg["From"] = seat.player.email
            msg["To"] = reply_address(seat)
            msg["Subject"] = "move"
            msg["Message-ID"] = mid
            msg.set_content(options[0].code)
            with play.lock:
                play.sent += 1
            send_until_answered(smtp_port, seat.player.email, reply_address(seat), msg.as_bytes(), mid, play,
                                stop_at)
            deadline = time.monotonic() + 45.0
            while time.monotonic() < min(deadline, stop_at):
                version = db_retry(lambda: Game.objects.filter(pk=game_id).values_list("version", flat=True).first())
                if version is not None and version != game.version:
                    break
                time.sleep(0.3)
    finally:
        connection.close()


def kill_ingress_mid_data(procs: Processes, play: Play, seat_mail: tuple[str, str, bytes, str],
                          stop_at: float) -> None:
    """Half a DATA, the ingress SIGKILLed under it, restarted, the mail sent again in full."""
    mail_from, rcpt, raw, mid = seat_mail
    with contextlib.suppress(OSError, smtplib.SMTPException):
        client = smtplib.SMTP("127.0.0.1", procs.smtp_port, timeout=10)
        client.ehlo()
        client.mail(mail_from)
        client.rcpt(rcpt)
        client.putcmd("data")
        client.getreply()
        client.send(raw[: len(raw) // 2])
        time.sleep(0.2)
    procs.kill_ingress()
    procs.start_ingress()
    send_until_answered(procs.smtp_port, mail_from, rcpt, raw, mid, play, stop_at)


@dataclass
class Burst:
    name: str
    games: list[int]
    mids: list[str] = field(default_factory=list)
    sent_seconds: float = 0.0
    started: datetime | None = None
    rss_before: int = 0
    rss_after: int = 0


def send_burst(burst: Burst, n: int, smtp_port: int, play: Play, clients: int, rng: random.Random,
               limit: float) -> None:
    """``n`` mails over ``burst.games`` as fast as ``clients`` SMTP connections send them: each a
    command of a seat to move, by what the game's row says just then (no waiting for it to apply)."""
    from django.db import connection

    import engine
    from pbem.games.models import Game, Seat
    from pbem.mail.outbox import reply_address

    rules = engine.get("maretta")
    seats = {(s.game_id, s.index): (s.player.email, reply_address(s)) for s in
             Seat.objects.select_related("player").filter(game_id__in=burst.games, player__isnull=False)
             if s.player is not None}
    counter = iter(range(n))
    lock = threading.Lock()
    stop_at = time.monotonic() + limit

    def client(seed: float) -> None:
        r = random.Random(seed)
        try:
            while time.monotonic() < stop_at:
                with lock:
                    i = next(counter, None)
                if i is None:
                    return
                game_id = burst.games[i % len(burst.games)]
                state = db_retry(lambda g=game_id: Game.objects.filter(pk=g).values_list("state", flat=True).first())
                pending = rules.pending(state) if state else []
                seat = r.choice(pending) if pending else 0
                options = rules.options(state, seat) if state and pending else []
                sender, rcpt = seats[(game_id, seat)]
                mid = f"<chaos.b{game_id}.{i}.{r.randrange(1 << 30)}@chaos.example>"
                msg = EmailMessage()
                msg["From"], msg["To"], msg["Subject"], msg["Message-ID"] = sender, rcpt, "move", mid
                msg.set_content(options[0].code if options else "help")
                with play.lock:
                    play.sent += 1
                    burst.mids.append(mid)
                send_until_answered(smtp_port, sender, rcpt, msg.as_bytes(), mid, play, stop_at)
        finally:
            connection.close()

    burst.started = now()
    t = time.monotonic()
    threads = [threading.Thread(target=client, args=(rng.random(),)) for _ in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    burst.sent_seconds = time.monotonic() - t


def tree_rss_kb(pids: list[int]) -> int:
    """Resident memory of processes and their children (a worker and its pool child), in KiB."""
    total = 0
    todo = list(pids)
    while todo:
        pid = todo.pop()
        with contextlib.suppress(OSError, ValueError, IndexError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            todo += [int(k) for k in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    return total


# ---- the run ------------------------------------------------------------------------------


@dataclass
class Fault:
    name: str
    start: datetime
    end: datetime
    kind: str  # "inbound" (recovery: mail stored before its end judged after), "outbound", "both"
    #: Longest recovery allowed, seconds, per kind ("inbound"/"outbound"); none: only reported.
    goals: dict[str, float] = field(default_factory=dict)

#: Recovery goals (issue 14).
INBOUND_AFTER_BROKER = 30.0
OUTBOUND_AFTER_WORKER_DEATH = 60.0
OUTBOUND_AFTER_RELAY = 300.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=120.0, help="how long the games are played")
    parser.add_argument("--games", type=int, default=6, help="games played at once")
    parser.add_argument("--workers", type=int, default=2, help="Celery worker processes")
    parser.add_argument("--settle", type=float, default=180.0, help="longest wait for everything to be done")
    parser.add_argument("--relay-down", type=float, default=0.15, help="share of the play the relay is down")
    parser.add_argument("--relay-outage", type=float, default=0.0,
                        help="seconds the relay is down (default: --relay-down of the play)")
    parser.add_argument("--burst-one", type=int, default=0, help="mails sent at once to one game after the play")
    parser.add_argument("--burst-many", type=int, default=0, help="mails sent at once over --burst-games games")
    parser.add_argument("--burst-games", type=int, default=10)
    parser.add_argument("--burst-clients", type=int, default=8, help="SMTP clients sending a burst")
    parser.add_argument("--kill-mid-send", action="store_true",
                        help="the last worker kill happens while the relay holds its mail (a row stuck in "
                             "sending; its resend takes about 45 s, so CI's small run leaves it out)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the temp folder (logs, database files)")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    base = Path(tempfile.mkdtemp(prefix="pbem-chaos-"))
    t0 = time.monotonic()
    pg = Postgres(base)
    pg.start()
    redis = Redis(base)
    redis.start()
    sink = Sink()
    sink.start()
    smtp_port = free_port()
    import psycopg

    with psycopg.connect(f"{pg.url}/postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE pbem")
    env = {
        **os.environ,
        "DATABASE_URL": f"{pg.url}/pbem",
        "CELERY_BROKER_URL": f"redis://127.0.0.1:{redis.port}/0",
        "REDIS_URL": f"redis://127.0.0.1:{redis.port}/1",
        "EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(sink.port), "EMAIL_USE_TLS": "0", "EMAIL_TIMEOUT": "10",
        "LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "pbem.settings", "PYTHONUNBUFFERED": "1",
    }
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    procs = Processes(base, env, smtp_port)
    faults: list[Fault] = []
    play = Play()
    lines: list[str] = []
    failures: list[str] = []
    try:
        for _ in range(args.workers):
            procs.start_worker()
        procs.start_beat()
        procs.start_ingress()
        from pbem.games import services

        games = new_games(services, args.games, "p")
        setup_seconds = time.monotonic() - t0
        relay_seconds = args.relay_outage or max(3.0, args.relay_down * args.seconds)
        # Why: a long relay outage pushes the faults after it back; the play lasts that much longer.
        extra = max(0.0, relay_seconds - max(3.0, args.relay_down * args.seconds))
        start = time.monotonic()
        stop_at = start + args.seconds + extra
        drivers = [threading.Thread(target=drive, args=(gid, smtp_port, play, stop_at, random.Random(rng.random())),
                                    daemon=True) for gid in games]
        for t in drivers:
            t.start()

        def at(share: float) -> None:
            shift = extra if share > 0.2 else 0.0
            time.sleep(max(0.0, start + share * args.seconds + shift - time.monotonic()))

        def outage(name: str, kind: str, begin: Any, finish: Any, seconds: float,
                   goals: dict[str, float] | None = None) -> None:
            s = now()
            begin()
            time.sleep(seconds)
            finish()
            faults.append(Fault(name, s, now(), kind, goals or {}))

        worker_goals = {"outbound": OUTBOUND_AFTER_WORKER_DEATH}
        broker_goals = {"inbound": INBOUND_AFTER_BROKER}

        at(0.10)
        outage("worker SIGKILL", "both", lambda: procs.kill_worker(rng), procs.start_worker, 1.0, worker_goals)
        at(0.20)
        outage("relay down", "outbound", sink.stop, sink.start, relay_seconds, {"outbound": OUTBOUND_AFTER_RELAY})

        def redis_down() -> None:
            play.redis_down.set()
            redis.kill()

        def redis_up() -> None:
            redis.start()
            play.redis_down.clear()

        at(0.40)
        outage("Redis down (mail keeps coming)", "inbound", redis_down, redis_up, 5.0, broker_goals)
        at(0.50)
        outage("Redis killed and restarted empty", "both", redis.kill, redis.start, 0.5, broker_goals)
        at(0.60)
        from pbem.games.models import Seat
        from pbem.mail.outbox import reply_address

        seat = Seat.objects.select_related("player").filter(game_id=games[0], index=0).first()
        assert seat is not None and seat.player is not None
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = seat.player.email, reply_address(seat), "half a mail"
        mid = "<chaos.mid-data@chaos.example>"
        msg["Message-ID"] = mid
        msg.set_content("hello\n" * 2000)  # no command: answered with a reply, moves nothing
        s = now()
        kill_ingress_mid_data(procs, play, (seat.player.email, reply_address(seat), msg.as_bytes(), mid), stop_at)
        faults.append(Fault("ingress SIGKILL mid-DATA", s, now(), "inbound"))
        at(0.70)
        from django.db import connection

        connection.close()
        outage("PostgreSQL restart", "both", pg.stop, pg.start, 1.0)
        at(0.85)
        if args.kill_mid_send:
            # A worker killed while the relay holds its mail: the row stays `sending`, the relay
            # has the mail; the sweeper must send it again within the minute (one duplicate,
            # same Message-ID, is the price: the fault suite allows 1 per 1,000 mails).
            def slow_relay_then_kill() -> None:
                sink.slow = 8.0
                until = time.monotonic() + 15.0
                while sink.holding < len(procs.workers) and time.monotonic() < until:
                    time.sleep(0.05)
                procs.kill_worker(rng)
                sink.slow = 0.0

            outage("worker SIGKILL while the relay holds its mail", "outbound", slow_relay_then_kill,
                   procs.start_worker, 1.0, worker_goals)
        else:
            outage("worker SIGKILL", "both", lambda: procs.kill_worker(rng), procs.start_worker, 1.0, worker_goals)
        for t in drivers:
            t.join()
        played = time.monotonic() - start
        settled_in = settle(args.settle)
        bursts: list[Burst] = []
        for name, n, n_games in (("one game", args.burst_one, 1), ("many games", args.burst_many, args.burst_games)):
            if n <= 0:
                continue
            burst = Burst(name, new_games(services, n_games, f"b{len(bursts)}"))
            settle(args.settle)  # the new games' start mails
            burst.rss_before = tree_rss_kb([w.pid for w in procs.workers])
            send_burst(burst, n, smtp_port, play, args.burst_clients, rng, args.settle)
            settle(args.settle)
            burst.rss_after = tree_rss_kb([w.pid for w in procs.workers])
            bursts.append(burst)
            games += burst.games
        lines, failures = account(games, sink, play, faults, played, settled_in, setup_seconds, args, bursts)
    finally:
        procs.stop_all()
        sink.stop()
        from django.db import connections

        connections.close_all()
        redis.kill()
        pg.stop("fast")
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    lines.append(f"total: {time.monotonic() - t0:.0f} s" + (f" (kept {base})" if args.keep else ""))
    for line in lines:
        print(line)
    for f in failures:
        print(f"FAILED: {f}")
    print("chaos: " + ("FAILED" if failures else "ok: nothing lost, nothing doubled, nothing stuck"))
    return 1 if failures else 0


def new_games(services: Any, n: int, prefix: str) -> list[int]:
    """``n`` running three-player Maretta games; their ids."""
    games = []
    for g in range(n):
        players = [services.do_create_player(f"{prefix}{g}-{i}@chaos.example", f"P{g}{i}") for i in range(3)]
        game = services.do_create_game(players[0], "maretta", options={"side": "A"},
                                       invite=[p.email for p in players[1:]])
        for p in players[1:]:
            services.do_join_game(game.pk, p)
        games.append(game.pk)
    return games


def settle(limit: float) -> float:
    """Wait until no mail waits (inbound unjudged, outbox unsent); the seconds it took, or -1."""
    from pbem.games.models import InboundMessage, OutboundMessage

    start = time.monotonic()
    while time.monotonic() - start < limit:
        waiting = db_retry(lambda: InboundMessage.objects.filter(status="received").count()
                           + OutboundMessage.objects.filter(status__in=["pending", "sending"]).count())
        if waiting == 0:
            return time.monotonic() - start
        time.sleep(1.0)
    return -1.0


def account(games: list[int], sink: Sink, play: Play, faults: list[Fault], played: float, settled_in: float,
            setup_seconds: float, args: argparse.Namespace,
            bursts: list[Burst] | None = None) -> tuple[list[str], list[str]]:
    from pbem.games.models import Game, InboundMessage, Move, OutboundMessage
    from pbem.games.services import live_moves, replay_state

    failures: list[str] = []
    rows = {r.message_id: r for r in InboundMessage.objects.all()}
    lost_in = sorted(play.accepted - set(rows))
    stuck_in = [r.pk for r in rows.values() if r.status == "received"]
    internal = [r.pk for r in rows.values() if r.result.startswith(("internal error", "took too long"))]
    applied_rows = sum(1 for r in rows.values()
                       if r.status == "applied" and r.message_id.startswith(("<chaos.g", "<chaos.b")))
    mail_moves = Move.objects.filter(game_id__in=games, source="mail", undone_at__isnull=True).count()
    bad_replay = []
    for game in Game.objects.filter(pk__in=games):
        if replay_state(game, list(live_moves(game))) != game.state:
            bad_replay.append(game.pk)
    out = list(OutboundMessage.objects.values_list("headers__Message-ID", "status", "created_at", "sent_at"))
    expected = {str(mid): status for mid, status, _c, _s in out}
    with sink.lock:
        delivered = dict(sink.ids)
    lost_out = [m for m in expected if m not in delivered]
    not_sent = [m for m, s in expected.items() if s != "sent"]
    duplicates = sum(n - 1 for m, n in delivered.items() if m in expected and n > 1)
    unknown = sum(n for m, n in delivered.items() if m not in expected)
    allowed_dups = max(1, len(expected) // 1000)

    def recovery(f: Fault) -> str:
        parts = []
        waited: dict[str, float] = {}
        if f.kind in ("inbound", "both"):
            waits = [(r.processed_at - f.end).total_seconds() for r in rows.values()
                     if r.processed_at is not None and r.received_at < f.end < r.processed_at]
            parts.append(f"inbound judged {max(waits):.1f} s after" if waits else "no inbound mail waited")
            waited["inbound"] = max(waits, default=0.0)
        if f.kind in ("outbound", "both"):
            waits = [(s - f.end).total_seconds() for _m, _st, c, s in out if s is not None and c < f.end < s]
            parts.append(f"outbound sent {max(waits):.1f} s after" if waits else "no outbound mail waited")
            waited["outbound"] = max(waits, default=0.0)
        for kind, goal in f.goals.items():
            ok = waited.get(kind, 0.0) <= goal
            parts.append(f"{kind} goal <= {goal:.0f} s: {'ok' if ok else 'MISSED'}")
            if not ok:
                failures.append(f"{f.name}: {kind} recovered {waited[kind]:.1f} s after, goal {goal:.0f} s")
        return ", ".join(parts)

    settled = f"in {settled_in:.0f} s" if settled_in >= 0 else "NOT within the limit"
    lines = [
        f"chaos: {len(games)} Maretta games by mail for {played:.0f} s, {args.workers} workers, seed {args.seed} "
        f"(setup {setup_seconds:.0f} s, settled {settled})",
        "faults, each with the time from its end until the last mail it held up went through:",
    ]
    for f in faults:
        lines.append(f"  {f.start:%H:%M:%S} {f.name} ({(f.end - f.start).total_seconds():.1f} s): {recovery(f)}")
    lines += [
        f"inbound: {play.sent} mails sent by the players, {len(play.accepted)} accepted with 250, "
        f"{len(lost_in)} accepted but not stored, {len(rows)} stored, {len(rows) - len(stuck_in)} judged, "
        f"{len(stuck_in)} stuck unjudged, {len(internal)} internal errors",
        f"SMTP answers: {dict(sorted(play.answers.items()))}; refused while Redis was down: "
        f"{play.refused_while_redis_down}",
        f"moves: {applied_rows} mails applied, {mail_moves} moves in the log, "
        f"{max(applied_rows - mail_moves, 0)} lost, {max(mail_moves - applied_rows, 0)} applied twice, "
        f"{len(bad_replay)} games whose seed + log do not replay to their state",
        f"outbound: {len(expected)} expected, {len(expected) - len(lost_out)} delivered, {len(lost_out)} lost, "
        f"{duplicates} delivered twice (same Message-ID; allowed {allowed_dups}), {len(not_sent)} not marked sent, "
        f"{unknown} unknown",
    ]
    for b in bursts or []:
        judged = [rows[m] for m in b.mids if m in rows and rows[m].processed_at is not None]
        last = max((r.processed_at for r in judged if r.processed_at is not None), default=None)
        took = (last - b.started).total_seconds() if last is not None and b.started is not None else 0.0
        applied = sum(1 for r in judged if r.status == "applied")
        lines.append(
            f"burst to {b.name} ({len(b.games)} games): {len(b.mids)} mails sent in {b.sent_seconds:.1f} s by "
            f"{args.burst_clients} clients, {sum(1 for m in b.mids if m in play.accepted)} accepted, "
            f"{len(judged)} judged (last {took:.1f} s after the first was sent: "
            f"{len(judged) / took if took else 0.0:.0f} judged/s), {applied} applied; "
            f"worker memory {b.rss_before / 1024:.0f} -> {b.rss_after / 1024:.0f} MiB")
        if len(judged) != len(b.mids):
            failures.append(f"burst to {b.name}: {len(b.mids) - len(judged)} mails not judged")
    if lost_in:
        failures.append(f"{len(lost_in)} mails accepted with 250 were not stored")
    if stuck_in:
        failures.append(f"{len(stuck_in)} inbound rows never judged")
    if internal:
        failures.append(f"{len(internal)} inbound rows ended in an internal error")
    if applied_rows != mail_moves:
        failures.append(f"moves lost or doubled: {applied_rows} mails applied vs {mail_moves} moves")
    if bad_replay:
        failures.append(f"games {bad_replay} do not replay from seed and log")
    if lost_out or not_sent:
        failures.append(f"outbound: {len(lost_out)} never delivered, {len(not_sent)} not marked sent")
    if duplicates > allowed_dups:
        failures.append(f"{duplicates} duplicate deliveries (allowed {allowed_dups})")
    if settled_in < 0:
        failures.append(f"work still waiting after {args.settle:.0f} s of settling")
    return lines, failures


if __name__ == "__main__":
    sys.exit(main())
