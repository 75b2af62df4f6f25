"""What every service bench shares: its own scratch database, its own Redis databases, free ports.

Safe to run anywhere, next to other people's runs and deployments:

* the database is created under a name of this run (``pbem_bench_<pid>_<random>`` unless
  ``--db-name`` says otherwise); a name that exists already is refused, never dropped, and
  only the database this run created is dropped at its end (``--keep-db`` keeps it);
* Redis databases are given by number (``--broker-db``, ``--cache-db``); one that holds keys
  is refused unless ``--flush-redis`` says the caller owns it;
* ports default to free ones the kernel picks (``--smtp-port``, ``--sink-port``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import socket
import statistics
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

_DB_NAME = re.compile(r"[a-z_][a-z0-9_]{0,62}")


def add_service_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--pg", default=os.environ.get("BENCH_PG_URL", "postgres://postgres@127.0.0.1:5432"),
                        help="PostgreSQL server URL, without a database (default BENCH_PG_URL or 127.0.0.1:5432)")
    parser.add_argument("--db-name", default="",
                        help="scratch database to create (default pbem_bench_<pid>_<random>); must not exist")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the scratch database at the end")
    parser.add_argument("--redis", default=os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379"),
                        help="Redis server URL, without a database number")
    parser.add_argument("--broker-db", type=int, default=None,
                        help="Redis database for the Celery broker (default: claim a free one)")
    parser.add_argument("--cache-db", type=int, default=None,
                        help="Redis database for the Django cache (default: claim a free one)")
    parser.add_argument("--flush-redis", action="store_true",
                        help="empty the two Redis databases first (only if they are yours)")
    parser.add_argument("--smtp-port", type=int, default=0, help="SMTP ingress port (0: a free one)")
    parser.add_argument("--sink-port", type=int, default=0, help="outbound SMTP sink port (0: a free one)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def scratch_database(pg: str, name: str = "", keep: bool = False) -> Iterator[str]:
    """A new, empty database for this run; dropped at the end only because this run made it."""
    import psycopg

    name = name or f"pbem_bench_{os.getpid()}_{secrets.token_hex(3)}"
    if not _DB_NAME.fullmatch(name):
        raise SystemExit(f"database name {name!r}: use lower-case letters, digits and _ only")
    with psycopg.connect(f"{pg}/postgres", autocommit=True, connect_timeout=5) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            raise SystemExit(f"database {name} exists already; the bench never reuses or drops a database "
                             "it did not create (choose another --db-name)")
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        if not keep:
            from django.db import connections

            connections.close_all()
            with psycopg.connect(f"{pg}/postgres", autocommit=True, connect_timeout=5) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


#: The test suite's claim protocol (tests/conftest.py): a key in database 0 per database in use.
REDIS_CLAIM_KEY = "pbem-tests:claim:{db}"


@contextlib.contextmanager
def redis_databases(url: str, broker_db: int | None, cache_db: int | None, flush: bool) -> Iterator[tuple[int, int]]:
    """(broker, cache) database numbers: the given ones, or two free ones claimed like the tests do,
    so that a test run and a bench on one server never share one. Released at the end."""
    import redis

    me = f"{socket.gethostname()}:{os.getpid()}"
    admin = redis.Redis.from_url(f"{url.rstrip('/')}/0", socket_connect_timeout=3)
    claimed: list[int] = []
    try:
        wanted = [d for d in (broker_db, cache_db) if d is None]
        if wanted:
            try:
                top = int(admin.config_get("databases").get("databases") or 16) - 1
            except Exception:  # noqa: BLE001 - CONFIG may be disabled
                top = 15
            for db in range(top, 0, -1):
                if len(claimed) == len(wanted) or db in (broker_db, cache_db):
                    continue
                if admin.set(REDIS_CLAIM_KEY.format(db=db), me, nx=True, ex=3 * 3600):
                    if _dbsize(url, db):
                        # Why skip it: unclaimed keys mean someone uses it without the protocol.
                        admin.delete(REDIS_CLAIM_KEY.format(db=db))
                        continue
                    claimed.append(db)
            if len(claimed) < len(wanted):
                raise SystemExit("no free Redis database: every one is claimed (give --broker-db/--cache-db)")
        free = iter(claimed)
        broker = broker_db if broker_db is not None else next(free)
        cache = cache_db if cache_db is not None else next(free)
        # Why flush the claimed ones: a claim is only taken on a database nobody uses now.
        check_redis(url, [broker, cache], flush)
        for db in claimed:
            check_redis(url, [db], flush=True)
        yield broker, cache
        check_redis(url, [broker, cache], flush=True)  # this run's own keys
    finally:
        for db in claimed:
            key = REDIS_CLAIM_KEY.format(db=db)
            if admin.get(key) == me.encode():
                admin.delete(key)
        admin.close()


def _dbsize(url: str, db: int) -> int:
    import redis

    client = redis.Redis.from_url(f"{url.rstrip('/')}/{db}", socket_connect_timeout=3)
    try:
        return int(client.dbsize())
    finally:
        client.close()


def check_redis(url: str, dbs: Sequence[int], flush: bool) -> None:
    import redis

    for db in dbs:
        client = redis.Redis.from_url(f"{url.rstrip('/')}/{db}", socket_connect_timeout=3)
        try:
            if flush:
                client.flushdb()
            elif client.dbsize():
                raise SystemExit(f"Redis database {db} holds keys (someone else's?): choose another "
                                 "--broker-db/--cache-db, or --flush-redis if it is yours")
        finally:
            client.close()


def setup_django(database_url: str, extra_env: dict[str, str] | None = None) -> None:
    os.environ.update({"DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "pbem.settings",
                       "LOG_LEVEL": os.environ.get("LOG_LEVEL", "WARNING"), **(extra_env or {})})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else float("nan")


def machine_note() -> str:
    try:
        load = os.getloadavg()
    except OSError:
        return f"{os.cpu_count()} cores"
    return (f"{os.cpu_count()} cores, load average {load[0]:.1f} (a loaded machine makes absolute figures "
            "noisy: compare the same-run ratios)")
