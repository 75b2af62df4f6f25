"""The Celery app and a real worker on the real Redis broker.

The end-to-end test posts a move through the API with tasks NOT in process:
the web side sends ``pbem.process_move_request`` to Redis by name after commit,
a real worker thread (``celery.contrib.testing.worker.start_worker``) takes it
and decides it through the service, and the API reports the decision.
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.core.cache import cache
from django.db import connection
from django.utils import timezone

from pbem.games import dispatch, periodic
from pbem.games.models import MoveRequest, OutboundMessage
from pbem.mail import sending
from pbem.mail import services as mail_services
from tests.factories import seat_of, start_game, token_client
from workers import app
from workers import tasks as worker_tasks


def test_every_dispatch_name_has_a_task_calling_exactly_its_service(monkeypatch):
    for name in dispatch.TASKS:
        assert name in app.tasks, name
        calls: list[Any] = []
        module, func = dispatch.TASKS[name].split(":")
        monkeypatch.setattr(f"{module}.{func}", lambda *args, _calls=calls: _calls.append(args) or "done")
        assert app.tasks[name].run(42) == "done"
        assert calls == [(42,)]


def test_redelivery_settings_are_on_the_app():
    conf = app.conf
    assert conf.task_acks_late is True
    assert conf.task_reject_on_worker_lost is True
    assert conf.worker_prefetch_multiplier == 1
    assert conf.task_serializer == "json" and conf.accept_content == ["json"]
    visibility = conf.broker_transport_options["visibility_timeout"]
    send = app.tasks["pbem.send_outbound"]
    # A late-acked message must not be redelivered while it is legitimately running.
    assert visibility > conf.task_time_limit
    # A send ends (or its worker is killed) before the sweeper takes its row for a dead worker's.
    assert send.time_limit < sending.SEND_DEADLINE.total_seconds()
    # Retries are the sweeper's: none spent in a minute by Celery, then an hour's wait.
    assert not getattr(send, "autoretry_for", ())
    for name in ("pbem.process_move_request", "pbem.process_inbound"):
        assert app.tasks[name].max_retries  # finite: never an endless retry loop


def test_the_beat_schedule_is_static_and_runs_the_periodic_services():
    schedule = app.conf.beat_schedule
    assert set(schedule) == {j.task for j in periodic.JOBS}
    for j in periodic.JOBS:
        entry = schedule[j.task]
        assert entry["task"] in app.tasks and entry["schedule"] == j.every
        # A sweep waits for a free process in its own queue (never behind the work) rather than
        # expire; a pile of them runs once (workers.tasks._periodic's lock).
        assert entry["options"]["queue"] == dispatch.SWEEP_QUEUE and entry["options"]["expires"] >= 60
    assert periodic.job("pbem.sweep_deadlines").service == "pbem.games.moderation:do_sweep_deadlines"
    assert periodic.job("pbem.requeue_stuck_outbound").service == "pbem.mail.sending:do_requeue_stuck"
    # Stuck rows resent within a minute of their worker's death; lost inbound work within 30 s.
    assert schedule["pbem.requeue_stuck_outbound"]["schedule"] + sending.STUCK_AFTER.total_seconds() <= 60
    assert schedule["pbem.requeue_inbound"]["schedule"] + mail_services.INBOUND_LOST_AFTER.total_seconds() <= 30
    assert periodic.job("pbem.requeue_inbound").service == "pbem.mail.services:do_requeue_inbound"
    assert periodic.job("pbem.send_digests").service == "pbem.mail.services:do_send_digests"
    for j in periodic.JOBS:  # every scheduled service exists and takes ``now``
        periodic.service_of(j)


def test_periodic_tasks_call_their_service_with_now(monkeypatch):
    seen: list[Any] = []
    monkeypatch.setattr("pbem.games.moderation.do_sweep_deadlines", lambda now: seen.append(now) or 3)
    cache.delete("pbem:sweep-lock:pbem.sweep_deadlines")
    assert worker_tasks.sweep_deadlines.run() == 3
    assert abs((seen[0] - timezone.now()).total_seconds()) < 5


@pytest.fixture
def real_worker(redis_url: str, settings: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """A Celery worker thread consuming from the test Redis database; tasks leave this process."""
    settings.PBEM_TASKS_IN_PROCESS = False
    settings.CELERY_BROKER_URL = redis_url
    monkeypatch.setattr(dispatch, "_client", None)  # the web side's sender, rebuilt for this broker
    monkeypatch.setattr(app.conf, "broker_url", redis_url)

    def close_db(**kwargs: Any) -> None:
        # The worker thread has its own connection; close it so the test database can be flushed.
        connection.close()

    task_postrun.connect(close_db, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20) as worker:
            yield worker
    finally:
        task_postrun.disconnect(close_db)
        dispatch._client = None


def _poll(client: Any, url: str, timeout: float = 20.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        body = client.get(url).json()
        if body["status"] != "pending" or time.monotonic() > deadline:
            return body
        time.sleep(0.1)


@pytest.mark.redis
def test_a_real_worker_decides_an_api_move(fake_game, alice, bob, transactional_db, real_worker):
    game = start_game(fake_game, alice, [bob])
    hand = game.state["hands"][seat_of(game, alice)]
    client = token_client(alice)

    r = client.post(f"/api/v1/games/{game.pk}/moves/", {"commands": [{"code": f"c{hand[0]}"}]}, format="json")
    # 202: handed to the worker. Why "accepted" may show already: the real worker can decide
    # the request between its commit and the answer being written.
    assert r.status_code == 202 and r.json()["status"] in ("pending", "accepted")
    decided = _poll(client, r["Location"])
    assert decided["status"] == "accepted" and decided["result_version"] == 2

    # The same path with ?wait: the web process waits for the worker's decision.
    r = client.post(f"/api/v1/games/{game.pk}/moves/?wait=10", {"commands": [{"code": f"c{hand[1]}"}]},
                    format="json")
    assert r.status_code == 422 and r.json()["code"] == "not_your_turn"

    # The outbox rows written with those changes are sent by the worker too.
    deadline = time.monotonic() + 20
    while OutboundMessage.objects.exclude(status=OutboundMessage.Status.SENT).exists():
        assert time.monotonic() < deadline, list(OutboundMessage.objects.values_list("status", "last_error"))
        time.sleep(0.1)
    assert OutboundMessage.objects.filter(game=game).count() >= 2
    assert MoveRequest.objects.filter(status=MoveRequest.Status.PENDING).count() == 0


def test_it_drops_a_message_that_keeps_coming_back(db, caplog):
    """A task id that has started MAX_STARTS times is not run again (a poison message)."""
    task_id = f"poison-{time.monotonic_ns()}"
    for _ in range(worker_tasks.MAX_STARTS):
        result = worker_tasks.process_move_request.apply(args=[987654321], task_id=task_id)
        assert result.failed()  # the service really runs: no such move request
    with caplog.at_level("ERROR", logger="workers.tasks"):
        result = worker_tasks.process_move_request.apply(args=[987654321], task_id=task_id)
    assert result.successful() and result.result is None
    assert "dropped as a poison message" in caplog.text
    # Another id is not affected.
    assert worker_tasks.process_move_request.apply(args=[987654321], task_id=f"{task_id}-other").failed()


@pytest.mark.redis
def test_a_real_worker_counts_no_first_delivery_and_drops_a_poison_message_the_broker_redelivers(
        transactional_db, redis_url, settings, monkeypatch):
    """Over the real Redis broker (issue 28): a message's first delivery starts its task without the
    guard's round trip to the cache; a message the broker puts back (kombu's restore of an unacked
    message, as after a lost worker) comes marked redelivered, is counted, and once it has started
    MAX_STARTS times it is dropped, its task not run."""
    monkeypatch.setattr(app.conf, "broker_url", redis_url)
    settings.CELERY_BROKER_URL = redis_url
    monkeypatch.setattr("pbem.games.campaigns.do_continue_campaign", lambda game_id: "ran")  # the task's body
    ran: list[str] = []

    def seen(task_id: str | None = None, retval: Any = None, **kwargs: Any) -> None:
        ran.append(f"{task_id}:{retval!r}")
        connection.close()  # the worker thread's own connection

    fresh, poison = f"fresh-{time.monotonic_ns()}", f"poison-{time.monotonic_ns()}"
    cache.set(f"pbem:task-starts:{poison}", worker_tasks.MAX_STARTS - 1, timeout=60)  # 10 starts so far
    with app.connection_for_write() as conn:
        app.send_task("pbem.campaign_next", args=[987654321], task_id=poison, connection=conn)
        channel = conn.default_channel
        message = channel.basic_get(dispatch.DEFAULT_QUEUE, no_ack=False)  # a worker takes it ...
        assert message is not None and not message.delivery_info.get("redelivered")
        channel.qos.restore_unacked()  # ... and is lost: the broker puts it back
        app.send_task("pbem.campaign_next", args=[987654321], task_id=fresh, connection=conn)
    task_postrun.connect(seen, weak=False)
    try:
        with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=20):
            deadline = time.monotonic() + 20
            while len(ran) < 2 and time.monotonic() < deadline:
                time.sleep(0.05)
    finally:
        task_postrun.disconnect(seen)
    assert sorted(r.split(":")[0] for r in ran) == sorted([fresh, poison]), ran
    assert cache.get(f"pbem:task-starts:{fresh}") is None  # a first delivery: not counted
    assert cache.get(f"pbem:task-starts:{poison}") == worker_tasks.MAX_STARTS  # counted, the first one added
    assert sorted(ran) == sorted([f"{fresh}:'ran'", f"{poison}:None"])  # the poison's body not run: dropped


@pytest.mark.redis
def test_it_counts_a_tasks_starts_in_one_redis_round_trip(db, monkeypatch):
    """The poison guard costs one round trip before every task (INCR and EXPIRE pipelined), and
    its count lives in the shared cache with a day's expiry."""
    import redis.connection
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    if not isinstance(caches["default"], RedisCache):
        pytest.skip("the shared cache is not Redis here")
    sent: list[int] = []
    real = redis.connection.AbstractConnection.send_packed_command

    def counting(self, command, check_health=True):  # a spy: the real command is sent
        sent.append(1)
        return real(self, command, check_health)

    key = f"pbem:task-starts:trips-{time.monotonic_ns()}"
    worker_tasks.count_start(key)  # the connection made first
    monkeypatch.setattr(redis.connection.AbstractConnection, "send_packed_command", counting)
    assert worker_tasks.count_start(key) == 2
    assert len(sent) == 1
    monkeypatch.undo()
    from django.core.cache import cache

    assert cache.get(key) == 2
    ttl = caches["default"]._cache.get_client(key).ttl(caches["default"].make_and_validate_key(key))
    assert 0 < ttl <= worker_tasks.STARTS_SECONDS


@pytest.mark.postgres
def test_it_keeps_one_database_connection_across_tasks(transactional_db):
    """Celery's Django fixup, as the worker installs it, no longer closes the connection
    around every task (issue 12: four new PostgreSQL connections per move)."""
    from celery.fixups.django import DjangoWorkerFixup
    from celery.signals import task_postrun as post
    from celery.signals import task_prerun as pre

    fixup = DjangoWorkerFixup(app)
    task = app.tasks["pbem.send_outbound"]

    def backend() -> int:
        with connection.cursor() as cur:
            cur.execute("SELECT pg_backend_pid()")
            return int(cur.fetchone()[0])

    first = backend()
    for _ in range(3):
        fixup.on_task_prerun(sender=task)
        pre.send(sender=task, task_id="t", task=task, args=(), kwargs={})
        backend()
        post.send(sender=task, task_id="t", task=task, args=(), kwargs={})
        fixup.on_task_postrun(sender=task)
    assert backend() == first



@pytest.mark.redis
def test_the_task_that_judges_a_move_mail_sends_the_moves_mails_itself(transactional_db, redis_url, settings,
                                                                        monkeypatch):
    """One task a move by mail (issue 28): the task that judged the mail sends the mails the move
    queued right after its commit, under a send task's hard limit; no send task goes to the broker."""
    import random
    import signal

    import redis
    from django.core import mail

    from tests.mail.test_query_counts_mail import _maretta, _move_mail

    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    settings.PBEM_TASKS_IN_PROCESS = False
    settings.CELERY_BROKER_URL = redis_url
    monkeypatch.setattr(dispatch, "_client", None)
    broker = redis.Redis.from_url(redis_url)
    game = _maretta()
    OutboundMessage.objects.filter(game=game).update(status=OutboundMessage.Status.SENT)  # the start's
    handed_on = broker.llen(dispatch.OUTBOUND_QUEUE)  # the start's send tasks, by the web door
    rnd = random.Random(3)
    handler = signal.getsignal(signal.SIGALRM)
    try:
        for _ in range(6):  # a round and more: some moves queue the next seats' turn mails
            game.refresh_from_db()
            raw, sender, to = _move_mail(game, rnd)
            row = mail_services.do_receive_mail(raw, sender, [to])
            assert worker_tasks.process_inbound.apply(args=[row.pk]).get() == "applied"
            assert signal.getsignal(signal.SIGALRM) == handler  # the sends' hard limit is lifted
            assert not OutboundMessage.objects.filter(game=game).exclude(status=OutboundMessage.Status.SENT).exists()
        assert len(mail.outbox) >= 2
        assert broker.llen(dispatch.OUTBOUND_QUEUE) == handed_on  # no send task was handed on
    finally:
        broker.close()
        dispatch._client = None


@pytest.mark.redis
def test_a_batch_handed_to_the_broker_marks_itself_and_each_of_its_rows_as_queued(db, redis_url, settings,
                                                                                   monkeypatch):
    """The sweepers skip what was handed on within QUEUED_MARK_SECONDS: the batch and each of its
    rows by the single-send name, marked together (one round trip to the cache, issue 28)."""
    import redis

    settings.CELERY_BROKER_URL = redis_url
    monkeypatch.setattr(dispatch, "_client", None)
    cache.clear()
    broker = redis.Redis.from_url(redis_url)
    try:
        before = broker.llen(dispatch.OUTBOUND_QUEUE)
        dispatch._send("pbem.send_outbound_batch", ([901, 902],))
        assert broker.llen(dispatch.OUTBOUND_QUEUE) == before + 1
    finally:
        broker.close()
        dispatch._client = None
    assert dispatch.recently_queued("pbem.send_outbound_batch", [901, 902])
    assert dispatch.recently_queued("pbem.send_outbound", 901) and dispatch.recently_queued("pbem.send_outbound", 902)
    assert not dispatch.recently_queued("pbem.send_outbound", 903)


@pytest.mark.redis
def test_a_door_hands_on_its_tasks_over_a_kept_broker_connection_and_replaces_a_broken_one(db, redis_url, settings,
                                                                                          monkeypatch):
    """The SMTP ingress hands on a task a mail (issue 28): over one broker connection kept by its thread,
    not a pooled producer a publish. When the broker drops that connection, the next publishes still
    reach the queue; a task that did not is not marked queued, so the sweeper hands it on."""
    import redis

    settings.CELERY_BROKER_URL = redis_url
    monkeypatch.setattr(dispatch, "_client", None)
    cache.clear()
    broker = redis.Redis.from_url(redis_url)
    db_number = broker.connection_pool.connection_kwargs.get("db", 0)
    try:
        for pk in (801, 802):
            dispatch._send("pbem.process_inbound", (pk,))
        kept = dispatch._kept.producer[1]
        dispatch._send("pbem.process_inbound", (803,))
        assert dispatch._kept.producer[1] is kept  # one producer and connection for all three
        me = broker.client_id()
        others = [c["id"] for c in broker.client_list() if int(c.get("db", -1)) == db_number and int(c["id"]) != me]
        assert others  # the kept connection, on this test's own database
        for client_id in others:
            broker.client_kill_filter(_id=client_id)  # the broker drops it
        for pk in (804, 805):
            dispatch._send("pbem.process_inbound", (pk,))
        queued = dispatch.queued_args("pbem.process_inbound")
    finally:
        dispatch._drop_producer()
        broker.close()
        dispatch._client = None
    assert queued is not None and {(801,), (802,), (803,), (805,)} <= queued, queued
    for pk in (801, 802, 803, 804, 805):  # marked queued exactly when it is in the queue
        assert dispatch.recently_queued("pbem.process_inbound", pk) == ((pk,) in queued), pk


def test_a_hand_on_whose_client_cannot_be_made_is_left_to_the_sweeper_and_never_fails_the_commit(
        db, settings, monkeypatch, caplog, django_capture_on_commit_callbacks):
    """A door's move is committed before its task is handed on: when the Celery client cannot even be made
    (the import race of 115d40c: "cannot import name 'Celery'"), the hand-off fails as a broker down does,
    logged by name, not marked queued (the sweeper hands it on), and the commit's caller gets no exception
    (it was a 500 for a move already made)."""
    import logging

    settings.PBEM_TASKS_IN_PROCESS = False
    monkeypatch.setattr(dispatch, "_client", None)
    cache.clear()

    def race() -> None:
        raise ImportError("cannot import name 'Celery' from partially initialized module 'celery'")

    monkeypatch.setattr(dispatch, "_make_client", race)
    with caplog.at_level(logging.WARNING, logger="pbem.games.dispatch"), \
            django_capture_on_commit_callbacks(execute=True):
        dispatch.enqueue("pbem.process_inbound", 806)
    assert "task pbem.process_inbound not handed to the broker (ImportError)" in caplog.text
    assert not dispatch.recently_queued("pbem.process_inbound", 806)


def test_a_worker_warms_every_games_rules_up_before_it_forks_its_pool() -> None:
    """Issue 28 (pipe session): the worker's init, which its pool processes are forked from, has each
    game's rules compute what their first moves would (Maracaibo: where every place's ships go), so
    no move's picture pays that search."""
    from engine.games.maracaibo import places
    from workers.celery import _load_the_rules  # connected to Celery's worker_init

    places._SPOTS.clear()
    try:
        _load_the_rules()
    finally:
        gc.unfreeze()  # (it froze this test process's objects too: let later tests' garbage go)
    assert {loc for loc, _n in places._SPOTS} == set(places.POS)
    assert {n for _loc, n in places._SPOTS} == {1, 2, 3, 4}


def test_a_worker_loads_what_a_pool_processs_first_mail_needs_and_freezes_it_before_it_forks() -> None:
    """Issue 28: each new pool process paid about 0.4 s of CPU in its first task (the mail's modules and
    Pillow imported, its template compiled, the catalogues read); forked from a worker's init that did it,
    it finds them done, and the objects made so far are frozen out of its collections (gc.freeze)."""
    import subprocess
    import sys
    from pathlib import Path

    probe = (
        "import gc, sys, django; django.setup()\n"
        "import workers.celery as w\n"
        "from django.template import engines\n"
        "loader = engines['django'].engine.template_loaders[0]\n"
        "print('before', 'pbem.mail.painter' in sys.modules, len(loader.get_template_cache), gc.get_freeze_count())\n"
        "w._load_the_rules()\n"
        "print('after', 'pbem.mail.painter' in sys.modules, 'mail/game_update.html' in loader.get_template_cache,\n"
        "      gc.get_freeze_count() > 10000)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"} | {"DJANGO_SETTINGS_MODULE": "pbem.settings"}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env,
                         cwd=Path(__file__).resolve().parents[2]).stdout.split("\n")
    assert out[0] == "before False 0 0"
    assert out[1] == "after True True True"


def _compose_worker() -> dict[str, Any]:
    from pathlib import Path

    import yaml

    compose = yaml.safe_load((Path(__file__).resolve().parents[2] / "docker-compose.yml").read_text())
    return dict(compose["services"]["worker"])


def test_a_deployments_worker_and_the_pipeline_benchs_start_with_the_worker_options() -> None:
    """Issue 28 (celery session): heartbeat, gossip and mingle are off where workers run for real (the compose
    file's worker) and in the bench that measures them, which started its workers without them while a
    deployment ran with them; remote control stays on, as the compose healthcheck needs it."""
    from bench.pipeline import worker_command
    from workers.celery import WORKER_OPTIONS

    assert set(WORKER_OPTIONS) == {"--without-gossip", "--without-mingle", "--without-heartbeat"}
    command = _compose_worker()["command"]
    assert command[:4] == ["celery", "-A", "workers", "worker"]
    assert set(WORKER_OPTIONS) <= set(command), command
    bench = worker_command(0, "WARNING")
    assert bench[bench.index("-A"):bench.index("-A") + 3] == ["-A", "workers", "worker"]
    assert set(WORKER_OPTIONS) <= set(bench), bench
    assert "--without-heartbeat" in bench and "-E" not in bench and "--task-events" not in bench
    assert app.conf.worker_enable_remote_control is True  # the healthcheck's ping goes through it


@pytest.mark.redis
def test_a_worker_started_as_the_compose_file_starts_it_answers_its_healthcheck(redis_url: str,
                                                                              test_services: Any) -> None:
    """The compose worker's healthcheck (``celery inspect ping`` to its own node), run as written against a
    real worker started with the compose file's options on the real Redis broker: it fails while no such
    worker runs and passes once it does."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    service = _compose_worker()
    node_host = f"hc{os.getpid()}-{time.monotonic_ns() % 100000}"
    env = {**os.environ, "CELERY_BROKER_URL": redis_url, "REDIS_URL": redis_url, "HOSTNAME": node_host,
           "DATABASE_URL": test_services.database_url, "LOG_LEVEL": "WARNING"}
    root = Path(__file__).resolve().parents[2]
    # The check as compose runs it in the container ($$ is compose's escape of $), with this interpreter's celery.
    check = service["healthcheck"]["test"][1].replace("$$", "$").replace("celery ", f"{sys.executable} -m celery ", 1)

    def healthy(timeout: int | None = None) -> bool:
        cmd = check if timeout is None else check.replace("--timeout 10", f"--timeout {timeout}")
        return subprocess.run(["sh", "-c", cmd], cwd=root, env=env, capture_output=True, timeout=60).returncode == 0

    assert not healthy(timeout=1), "no worker runs: the healthcheck must fail"
    command = service["command"]
    args = ["1" if a.startswith("${WORKER_CONCURRENCY") else a for a in command[command.index("-A"):]]
    worker = subprocess.Popen([sys.executable, "-m", "celery", *args, "-n", f"celery@{node_host}"],
                              cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 90
        while not healthy():
            assert worker.poll() is None, "the worker exited"
            assert time.monotonic() < deadline, "the worker never answered the healthcheck"
    finally:
        worker.terminate()
        try:
            worker.wait(20)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()
