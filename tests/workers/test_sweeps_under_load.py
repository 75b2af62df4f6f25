"""Recovery does not depend on how busy the queue is: a real worker on the real Redis broker with
a backlog of work still runs the sweeps beat schedules, and sends mail already decided.

Before: the sweeps waited in the work's own queue and expired 1 s after they were scheduled, so
under a burst most were discarded unexecuted and stuck mail waited minutes.
"""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest
import redis
from celery.signals import task_prerun
from django.core.cache import cache
from django.db import transaction

from pbem.games import dispatch
from pbem.games.models import OutboundMessage
from pbem.mail import outbox
from tests.workers.test_worker import real_worker
from workers import app
from workers import tasks as worker_tasks

__all__ = ["real_worker"]

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]

#: Seconds each backlog task keeps the worker busy; BACKLOG of them is a queue of about 12 s.
BUSY = 0.06
BACKLOG = 200


@app.task(name="tests.busy")
def _busy() -> None:
    time.sleep(BUSY)


def _backlog(n: int) -> None:
    for _ in range(n):
        _busy.apply_async()


def _started(names: set[str]) -> tuple[dict[str, float], Any]:
    seen: dict[str, float] = {}
    lock = threading.Lock()

    def record(sender: Any = None, **kwargs: Any) -> None:
        if sender is not None and sender.name in names:
            with lock:
                seen.setdefault(sender.name, time.monotonic())

    task_prerun.connect(record, weak=False)
    return seen, record


def test_it_runs_a_scheduled_sweep_within_seconds_behind_a_backlog_of_work(real_worker: Any, redis_url: str) -> None:
    broker = redis.Redis.from_url(redis_url)
    seen, record = _started({"pbem.requeue_inbound", "pbem.requeue_stuck_outbound"})
    try:
        _backlog(BACKLOG)
        time.sleep(0.5)  # the worker is busy with the backlog
        sent_at = time.monotonic()
        for name in ("pbem.requeue_inbound", "pbem.requeue_stuck_outbound"):
            cache.delete(f"pbem:sweep-lock:{name}")
            entry = app.conf.beat_schedule[name]
            app.tasks[entry["task"]].apply_async(**entry["options"])  # what beat does
        deadline = time.monotonic() + 5
        while len(seen) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        waiting = broker.llen(dispatch.DEFAULT_QUEUE)
        assert len(seen) == 2, f"sweeps not run within 5 s with {waiting} tasks of work waiting: {seen}"
        delays = {name: round(at - sent_at, 2) for name, at in seen.items()}
        print(f"sweeps started {delays} s after beat sent them, {waiting} tasks of work still waiting")
        assert waiting > BACKLOG // 2, "the sweeps did not wait for the backlog"
        assert max(delays.values()) < 4.0  # the backlog is 12 s of work: a sweep waits one task, not the queue
    finally:
        task_prerun.disconnect(record)
        broker.delete(dispatch.DEFAULT_QUEUE)


def test_it_sends_decided_mail_while_inbound_work_waits(real_worker: Any, redis_url: str, alice: Any) -> None:
    broker = redis.Redis.from_url(redis_url)
    try:
        _backlog(BACKLOG)
        time.sleep(0.3)
        with transaction.atomic():  # handed to the broker after commit, as every service does
            row = outbox.queue_reply(alice, "backlog", "sent past the queue of work")
        deadline = time.monotonic() + 5
        while OutboundMessage.objects.get(pk=row.pk).status != OutboundMessage.Status.SENT:
            assert time.monotonic() < deadline, "the mail waited behind the backlog"
            time.sleep(0.05)
        assert broker.llen(dispatch.DEFAULT_QUEUE) > BACKLOG // 2
    finally:
        broker.delete(dispatch.DEFAULT_QUEUE)


def test_it_runs_one_sweep_of_a_pile_and_skips_the_rest(db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    runs: list[Any] = []
    monkeypatch.setattr("pbem.mail.services.do_requeue_inbound", lambda now: runs.append(now) or 0)
    cache.delete("pbem:sweep-lock:pbem.requeue_inbound")
    results = [worker_tasks.requeue_inbound.run() for _ in range(5)]
    assert len(runs) == 1 and results == [0, None, None, None, None]


def test_the_sweeps_have_their_own_queue_and_live_long_enough_to_wait_for_a_free_process() -> None:
    for name, entry in app.conf.beat_schedule.items():
        assert entry["options"]["queue"] == dispatch.SWEEP_QUEUE, name
        assert entry["options"]["expires"] >= 60, name
    queues = {q.name for q in app.conf.task_queues}
    assert queues == set(dispatch.QUEUES)
    assert dispatch.queue_for("pbem.send_outbound") == dispatch.OUTBOUND_QUEUE
    assert dispatch.queue_for("pbem.process_inbound") == dispatch.DEFAULT_QUEUE
    assert app.conf.worker_max_tasks_per_child and app.conf.worker_max_memory_per_child
