"""Session-wide test set-up: which database and Redis the tests use.

Runs at import time, before Django reads ``pbem.settings`` (pytest-django's
``DJANGO_SETTINGS_MODULE`` is deliberately absent from pyproject.toml so that
this file can choose first):

* ``PBEM_TEST_DATABASE_URL`` set: the tests use that database.
* else, PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) answers: the
  tests use it. Django creates and drops ``test_pbem_p<pid>`` (plus ``_gw0``...
  under pytest-xdist): one database per test process, so that several people
  running the suite on one server never clobber each other's database. Such
  databases left behind by a killed run (their process is gone) are dropped
  at the next start.
* else: SQLite, and tests marked ``@pytest.mark.postgres`` are skipped with
  the reason shown by ``-ra``.

Redis: ``PBEM_TEST_REDIS_URL`` or redis://127.0.0.1:6379. When it answers, each
test process claims two free database numbers (1..15; the claims are keys in
database 0, released at exit, taken over when their process is gone), so that
concurrent runs never flush each other's data: one for the Django cache
(``REDIS_URL``), flushed at the start, and one for the ``redis_url`` fixture
(a broker for a real Celery worker, say), flushed before and after each test.
Without Redis, tests marked ``@pytest.mark.redis`` or using ``redis_url`` are
skipped.

``PBEM_REQUIRE_SERVICES=1`` (set by .ci/run): an unreachable PostgreSQL or
Redis stops the run with an error instead of skipping anything.

The developer's own ``DATABASE_URL``, ``REDIS_URL`` and ``CELERY_BROKER_URL``
are ignored here on purpose, so a test run never touches a real deployment.
Tasks run in process unless a test starts a worker itself; fixtures for that,
and for the SMTP server, live in the conftest.py files of the sub-folders.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import shutil
import socket
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import pytest

DEFAULT_PG_SERVER = "postgres://postgres@127.0.0.1:5432"
TEST_DB_PREFIX = "pbem_p"  # Django prefixes "test_"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379"
REDIS_CLAIM_KEY = "pbem-tests:claim:{db}"  # in database 0; value "host:pid"


def _truthy(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _postgres_answers(server: str) -> str | None:
    """None when the server accepts a connection, else why not. Drops stale test databases."""
    try:
        import psycopg

        # Why: the test database does not exist yet; Django itself connects to
        # the maintenance database "postgres" to create it, so probe that one.
        with psycopg.connect(f"{server}/postgres", connect_timeout=3, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT datname FROM pg_database WHERE datname LIKE %s", [f"test_{TEST_DB_PREFIX}%"]
            ).fetchall()
            for (name,) in rows:
                m = re.fullmatch(rf"test_{TEST_DB_PREFIX}(\d+)(_\w+)?", name)
                if m and not _pid_alive(int(m.group(1))):
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
        text = str(exc).strip()
        return f"{type(exc).__name__}: {text.splitlines()[0] if text else ''}"
    return None


def _redis_answers(url: str) -> str | None:
    try:
        import redis

        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
        return f"{type(exc).__name__}: {exc}"
    return None


def _claim_redis_dbs(base: str, count: int) -> list[int]:
    """Claim ``count`` database numbers no other live test process holds."""
    import redis

    me = f"{socket.gethostname()}:{os.getpid()}"
    client = redis.Redis.from_url(_with_db(base, 0), socket_connect_timeout=2, socket_timeout=2)
    claimed: list[int] = []
    try:
        # Why: a server started with more databases (--databases N) lets more
        # test runs share it; the stock 16 gives seven processes two each.
        try:
            top = int(client.config_get("databases").get("databases", 16)) - 1
        except Exception:  # noqa: BLE001 - CONFIG may be disabled on a managed Redis
            top = 15
        for db in range(top, 0, -1):
            key = REDIS_CLAIM_KEY.format(db=db)
            holder = client.get(key)
            if holder is not None:
                text = holder.decode() if isinstance(holder, bytes) else str(holder)
                host, _, pid = text.partition(":")
                if host == socket.gethostname() and pid.isdigit() and not _pid_alive(int(pid)):
                    client.delete(key)  # its process is gone
            if client.set(key, me, nx=True, ex=12 * 3600):
                claimed.append(db)
                if len(claimed) == count:
                    break
    finally:
        client.close()
    if len(claimed) < count:
        _release_redis_dbs(base, claimed)
        raise RuntimeError("every Redis database is claimed by other test runs")
    atexit.register(_release_redis_dbs, base, claimed)
    return claimed


def _release_redis_dbs(base: str, dbs: list[int]) -> None:
    import redis

    me = f"{socket.gethostname()}:{os.getpid()}".encode()
    with contextlib.suppress(Exception):  # best effort at exit; the claims expire anyway
        client = redis.Redis.from_url(_with_db(base, 0), socket_connect_timeout=2, socket_timeout=2)
        try:
            for db in dbs:
                key = REDIS_CLAIM_KEY.format(db=db)
                if client.get(key) == me:
                    client.delete(key)
        finally:
            client.close()


def _with_db(url: str, db: int) -> str:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{db}"))


@dataclass(frozen=True)
class Services:
    database_url: str
    postgres: bool
    postgres_reason: str  # why PostgreSQL is not used ("" when it is)
    redis_url: str | None  # the redis_url fixture's database, or None without Redis
    redis_cache_url: str | None  # the Django cache's database (REDIS_URL)
    redis_reason: str


def _choose_services() -> Services:
    require = _truthy("PBEM_REQUIRE_SERVICES")
    problems: list[str] = []

    explicit = os.environ.get("PBEM_TEST_DATABASE_URL", "").strip()
    if explicit:
        database_url, pg_reason = explicit, ""
        postgres = explicit.split(":", 1)[0] in ("postgres", "postgresql", "pgsql", "postgis")
        if not postgres:
            pg_reason = f"PBEM_TEST_DATABASE_URL is not PostgreSQL ({explicit.split(':', 1)[0]})"
    else:
        why_not = _postgres_answers(DEFAULT_PG_SERVER)
        if why_not is None:
            database_url, postgres, pg_reason = f"{DEFAULT_PG_SERVER}/{TEST_DB_PREFIX}{os.getpid()}", True, ""
        else:
            tmp = tempfile.mkdtemp(prefix="pbem-test-")
            database_url, postgres = f"sqlite:///{tmp}/pbem.sqlite3", False
            pg_reason = f"PostgreSQL at {DEFAULT_PG_SERVER.split('@')[-1]} does not answer ({why_not})"
    if require and not postgres:
        problems.append(pg_reason)

    base = os.environ.get("PBEM_TEST_REDIS_URL", "").strip() or DEFAULT_REDIS_URL
    redis_url: str | None = None
    redis_cache_url: str | None = None
    redis_reason = ""
    why_not_redis = _redis_answers(_with_db(base, 0))
    if why_not_redis is None:
        try:
            cache_db, fixture_db = _claim_redis_dbs(base, 2)
        except Exception as exc:  # noqa: BLE001 - any failure means "not usable"
            why_not_redis = str(exc)
        else:
            redis_cache_url, redis_url = _with_db(base, cache_db), _with_db(base, fixture_db)
    if why_not_redis is not None:
        redis_reason = f"Redis at {base} is not usable ({why_not_redis})"
        if require:
            problems.append(redis_reason)

    if problems:
        raise pytest.UsageError(
            "PBEM_REQUIRE_SERVICES=1 but a required service is unreachable:\n  " + "\n  ".join(problems)
        )
    return Services(database_url, postgres, pg_reason, redis_url, redis_cache_url, redis_reason)


SERVICES = _choose_services()

os.environ["DATABASE_URL"] = SERVICES.database_url
if SERVICES.redis_cache_url:
    os.environ["REDIS_URL"] = SERVICES.redis_cache_url
else:
    os.environ.pop("REDIS_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)  # tasks in process unless a test starts a worker
if "PBEM_VAR_DIR" not in os.environ:  # maildir etc.; xdist workers inherit the controller's
    os.environ["PBEM_VAR_DIR"] = _var_dir = tempfile.mkdtemp(prefix="pbem-test-var-")
    atexit.register(shutil.rmtree, _var_dir, ignore_errors=True)  # made here, so removed here
os.environ["DJANGO_SETTINGS_MODULE"] = "pbem.settings"

import django  # noqa: E402 - must come after the environment above

django.setup()


def _test_caches() -> dict[str, dict[str, str]]:
    if SERVICES.redis_cache_url:
        return {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                            "LOCATION": SERVICES.redis_cache_url}}
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}


from django.conf import settings as _django_settings  # noqa: E402 - after setup

if _test_caches() != _django_settings.CACHES:
    # Why: a pytest-xdist worker inherits DJANGO_SETTINGS_MODULE and REDIS_URL from the
    # controller, so pytest-django set Django up before this file claimed the worker's own
    # Redis database: every worker used the controller's cache, and one worker's
    # cache.clear() wiped another's counters mid-test (the log-in limit test lost its
    # failures between requests under -n 2). Point the cache at this process's database.
    from django.test.utils import override_settings

    override_settings(CACHES=_test_caches()).enable()


def _flush_redis(url: str) -> None:
    import redis

    client = redis.Redis.from_url(url)
    try:
        client.flushdb()
    finally:
        client.close()


if SERVICES.redis_cache_url:
    _flush_redis(SERVICES.redis_cache_url)


def pytest_report_header(config: pytest.Config) -> list[str]:
    db = SERVICES.database_url.split("@")[-1] if SERVICES.postgres else "SQLite (" + SERVICES.postgres_reason + ")"
    rd = (f"{SERVICES.redis_cache_url} (cache), {SERVICES.redis_url} (redis_url fixture)"
          if SERVICES.redis_url else f"none ({SERVICES.redis_reason})")
    return [f"pbem test database: {db}", f"pbem test redis: {rd}"]


def _slow_first(item: pytest.Item) -> int:
    """Where a test runs: the tests marked slow first, within the order pytest-django gives (the tests on a
    database in a transaction, then those that commit and empty the database after them, then those without
    a database, as Django orders them): slow ones without commits, the others in a transaction, slow ones
    that commit, the others that commit, the others.

    Why: pytest-xdist hands the tests out in this order, and a test of a minute handed out near the end kept
    one process busy alone at the end of the run (the whole games by mail and the conformance checker's whole
    games were the suite's tail); early, they run while the other process takes short tests."""
    marker = item.get_closest_marker("django_db")
    names = getattr(item, "fixturenames", ())
    commits = "transactional_db" in names or "live_server" in names or bool(marker is not None and (
        marker.kwargs.get("transaction", marker.args[0] if marker.args else False)
        or marker.kwargs.get("reset_sequences")))
    slow = item.get_closest_marker("slow") is not None
    if commits:
        return 2 if slow else 3
    if slow:
        return 0
    return 1 if marker is not None or "db" in names else 4


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items[:] = sorted(items, key=_slow_first)  # (a stable sort: each group keeps its order)
    skip_pg = pytest.mark.skip(reason=f"needs PostgreSQL: {SERVICES.postgres_reason}")
    skip_redis = pytest.mark.skip(reason=f"needs Redis: {SERVICES.redis_reason}")
    for item in items:
        if not SERVICES.postgres and item.get_closest_marker("postgres"):
            item.add_marker(skip_pg)
        wants_redis = item.get_closest_marker("redis") or "redis_url" in getattr(item, "fixturenames", ())
        if SERVICES.redis_url is None and wants_redis:
            item.add_marker(skip_redis)


#: The seeds dealt to the games a test started, in order (see :func:`_game_seeds`).
GAME_SEEDS = pytest.StashKey[list[str]]()


@pytest.fixture(autouse=True)
def _game_seeds(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Remember each game's secret seed, so that a failed test names them; and deal the seeds
    of ``PBEM_TEST_SEEDS`` (comma-separated, in order) instead of fresh ones, to replay it.

    Why: a game created by mail (``new maracaibo ...``) takes a fresh secret seed, so every
    run of a whole game by mail plays a different game; only the seed makes a failure repeatable.
    """
    if request.node.get_closest_marker("django_db") is None and not {"db", "transactional_db"} & set(
            request.fixturenames):
        yield
        return
    from pbem.games import services

    given = [s.strip() for s in os.environ.get("PBEM_TEST_SEEDS", "").split(",") if s.strip()]
    made: list[str] = []
    fresh = services.new_seed

    def seed() -> str:
        made.append(given.pop(0) if given else fresh())
        return made[-1]

    monkeypatch.setattr(services, "new_seed", seed)
    request.node.stash[GAME_SEEDS] = made
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """A failed test that dealt games says their seeds and how to replay them."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    seeds = item.stash.get(GAME_SEEDS, [])
    if report.failed and seeds:
        report.sections.append(("game seeds", (
            f"the games of this test were dealt the seeds {', '.join(seeds)}; replay with\n"
            f"PBEM_TEST_SEEDS={','.join(seeds)} python -m pytest -p no:xdist '{item.nodeid}'")))


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A real Redis database for this test alone: flushed before and after."""
    if SERVICES.redis_url is None:  # pragma: no cover - collection already skipped it
        pytest.skip(f"needs Redis: {SERVICES.redis_reason}")
    _flush_redis(SERVICES.redis_url)
    yield SERVICES.redis_url
    _flush_redis(SERVICES.redis_url)


@pytest.fixture(scope="session")
def test_services() -> Services:
    """What this run uses: ``.postgres`` (bool), ``.database_url``, ``.redis_url`` (None without Redis)."""
    return SERVICES
