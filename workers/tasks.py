"""Celery tasks: thin doors, one service call each, primary keys only.

Every name in ``pbem.games.dispatch.TASKS`` has a task here that calls exactly
the mapped service; the web process sends them by name after commit. All the
services are idempotent (a second delivery of the same key finds the work
claimed or decided and does nothing), which is what makes ``acks_late`` and
redelivery after a lost worker safe.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import signal
import smtplib
import threading
from collections.abc import Iterator
from typing import Any

from celery import Task
from django.core.cache import cache, caches
from django.core.cache.backends.redis import RedisCache
from django.db import InterfaceError, OperationalError
from django.utils import timezone

from pbem.games import dispatch, periodic
from workers.celery import app

log = logging.getLogger(__name__)

#: How often one task id may start (first run, retries and redeliveries together)
#: before it is dropped. Only a poison message hits it (retries are the sweepers' job).
MAX_STARTS = 10


class GuardedTask(Task):
    """Drops a message that keeps coming back.

    Why: ``acks_late`` with ``reject_on_worker_lost`` puts a message back when its worker
    dies, so a task that kills its worker (a crash in a native library, memory) would be
    redelivered forever. The count lives in the shared cache (Redis in a deployment), keyed
    by the task id, which retries and redeliveries keep. The work is not lost: the
    services' sweepers find undecided mail and unsent outbox rows again.
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        request = self.request
        task_id = request.id
        if task_id:
            # Why not counted on a broker's first delivery (issue 28: a Redis round trip before every
            # task): a message that kills its worker comes back marked ``redelivered`` (a retry
            # carries ``retries``), and from then on each start is counted, the first one added.
            first_uncounted = not request.is_eager and _marks_redeliveries(self.app.conf.broker_url)
            if first_uncounted and not request.retries and not (request.delivery_info or {}).get("redelivered"):
                return super().__call__(*args, **kwargs)
            starts = count_start(f"pbem:task-starts:{task_id}") + (1 if first_uncounted else 0)
            if starts > MAX_STARTS:
                log.error("task %s %s started %s times; dropped as a poison message", self.name, task_id, starts)
                return None
        return super().__call__(*args, **kwargs)


#: Brokers whose every redelivery is marked ``redelivered`` in the message's delivery info:
#: kombu's Redis transport sets it on each way back (a worker lost, a visibility timeout, a
#: restore at shutdown), AMQP brokers by the protocol. Another transport counts every start.
MARKING_SCHEMES = ("redis", "rediss", "amqp", "amqps", "pyamqp")


@functools.cache
def _marks_redeliveries(broker_url: str | None) -> bool:
    return bool(broker_url) and str(broker_url).split("://", 1)[0].lower() in MARKING_SCHEMES

#: How long a task id's starts are remembered.
STARTS_SECONDS = 24 * 3600


def count_start(key: str) -> int:
    """The counted starts of a task id, this one included: one round trip to Redis (INCR and EXPIRE
    in a pipeline), where ``cache.add`` and ``cache.incr`` took three (ADD, EXISTS, INCR); made only
    for a redelivered or retried message (or one applied in process), not a first delivery
    (:class:`GuardedTask`). Another cache (no Redis: one process) counts through Django's cache API."""
    backend = caches["default"]
    if isinstance(backend, RedisCache):
        name = backend.make_and_validate_key(key)
        pipe = backend._cache.get_client(name, write=True).pipeline(transaction=False)
        pipe.incr(name)
        pipe.expire(name, STARTS_SECONDS)
        starts, _ = pipe.execute()
        return int(starts)
    cache.add(key, 0, timeout=STARTS_SECONDS)
    return int(cache.incr(key))


#: Database hiccups (a dropped connection, a deadlock victim) are worth another try;
#: rule errors never are: the services answer those themselves and do not raise.
TRANSIENT = (OperationalError, InterfaceError)


#: The hard limit of a move's sends made by the task that decided it: a send task's (below).
SEND_TIME_LIMIT = 35


@contextlib.contextmanager
def _hard_send_limit() -> Iterator[None]:
    """Ends this worker process when the sends take longer than :data:`SEND_TIME_LIMIT`, as a
    send task's hard time limit does.

    Why end the process: the rows of a batch are claimed together, and the outbox sweeper takes
    a claim older than ``sending.SEND_DEADLINE`` (40 s) for a dead worker's; the sends must
    stop before that, or a mail could go twice. Celery's pool replaces the process and the
    deciding task, delivered again, finds its mail judged (the services are idempotent).
    """
    def end(signum: int, frame: Any) -> None:
        log.error("a move's sends took over %s s; this worker process ends", SEND_TIME_LIMIT)
        os._exit(1)

    previous = signal.signal(signal.SIGALRM, end)
    signal.setitimer(signal.ITIMER_REAL, SEND_TIME_LIMIT)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _sending_here() -> contextlib.AbstractContextManager[Any]:
    """The move's mails sent by the task that decided it (:func:`dispatch.sending_here`), where the
    sends can be bounded (a signal: the main thread of a worker process, as prefork's are);
    elsewhere (a thread pool) by a send task of their own, as before."""
    if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
        return dispatch.sending_here(_hard_send_limit)
    return contextlib.nullcontext()


@app.task(base=GuardedTask, name="pbem.process_inbound", autoretry_for=TRANSIENT,
          retry_backoff=True, retry_backoff_max=60,
          max_retries=3)
def process_inbound(inbound_id: int) -> Any:
    with _sending_here():  # the move's mails leave from this task (issue 28)
        return dispatch.service_for("pbem.process_inbound")(inbound_id)


@app.task(base=GuardedTask, name="pbem.process_move_request", autoretry_for=TRANSIENT,
          retry_backoff=True, retry_backoff_max=60,
          max_retries=3)
def process_move_request(request_id: int) -> Any:
    with _sending_here():
        return dispatch.service_for("pbem.process_move_request")(request_id)


@app.task(base=GuardedTask, name="pbem.campaign_next", autoretry_for=TRANSIENT,
          retry_backoff=True, retry_backoff_max=60,
          max_retries=3)
def campaign_next(game_id: int) -> Any:
    """A campaign game ended: the campaign records it and sets up its next game (idempotent)."""
    return dispatch.service_for("pbem.campaign_next")(game_id)


@app.task(base=GuardedTask, name="pbem.send_outbound", throws=(OSError, smtplib.SMTPException),
          time_limit=35, soft_time_limit=30)
def send_outbound(outbound_id: int) -> Any:
    """Sends one outbox row. A transient failure puts the row back to pending and raises; the
    outbox sweeper (every 5 s) sends it again after its backoff (at most 2 minutes), so pending
    mail leaves within minutes of a relay coming back. Why no Celery retries: they were spent in
    a minute, then the mail waited an hour. Why the short time limits: a row in ``sending``
    longer than ``sending.SEND_DEADLINE`` is taken to be a dead worker's and is sent again."""
    return dispatch.service_for("pbem.send_outbound")(outbound_id)


@app.task(base=GuardedTask, name="pbem.send_outbound_batch", throws=(OSError, smtplib.SMTPException),
          time_limit=35, soft_time_limit=30)
def send_outbound_batch(outbound_ids: list[int]) -> Any:
    """Sends the outbox rows of one move over one SMTP connection, under the same policy as
    send_outbound: no Celery retries, the outbox sweeper sends again what is left pending (each
    row keeps its own claim and ``claimed_at``, so a row is never sent twice)."""
    return dispatch.service_for("pbem.send_outbound_batch")(outbound_ids)


def _periodic(task_name: str) -> Any:
    """One run of a periodic job, at most one at a time and one per half period (10 s at most).

    Why the lock: sweeps now wait for a free process rather than expire, so after a stall
    several of one job may come at once; the first runs, the others return at once. The
    services are idempotent, so a run the lock cannot see (no cache) is harmless too."""
    j = periodic.job(task_name)
    try:
        if not cache.add(f"pbem:sweep-lock:{task_name}", 1, timeout=min(max(j.every / 2, 1.0), 10.0)):
            log.info("periodic %s skipped: one ran or runs within half its period", task_name)
            return None
    except Exception:  # noqa: BLE001 - no cache: run anyway
        log.warning("periodic %s runs without its lock (cache unavailable)", task_name)
    return periodic.run_job(j, timezone.now())


@app.task(name="pbem.sweep_deadlines")
def sweep_deadlines() -> Any:
    return _periodic("pbem.sweep_deadlines")


@app.task(name="pbem.requeue_stuck_outbound")
def requeue_stuck_outbound() -> Any:
    return _periodic("pbem.requeue_stuck_outbound")


@app.task(name="pbem.requeue_move_requests")
def requeue_move_requests() -> Any:
    return _periodic("pbem.requeue_move_requests")


@app.task(name="pbem.requeue_inbound")
def requeue_inbound() -> Any:
    return _periodic("pbem.requeue_inbound")


@app.task(name="pbem.send_digests")
def send_digests() -> Any:
    return _periodic("pbem.send_digests")


@app.task(name="pbem.prune_mail_bodies")
def prune_mail_bodies() -> Any:
    return _periodic("pbem.prune_mail_bodies")


@app.task(name="pbem.deliver_webhooks")
def deliver_webhooks() -> Any:
    return _periodic("pbem.deliver_webhooks")


@app.task(name="pbem.sweep_campaigns")
def sweep_campaigns() -> Any:
    return _periodic("pbem.sweep_campaigns")
