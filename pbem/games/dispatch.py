"""Hand work to the task queue after the transaction commits.

Services call :func:`enqueue` with a task name and primary keys only. With a
broker configured the task goes to Celery by name (so ``pbem`` never imports
``workers``); without one (the embedded default) the same service function
runs in this process right after commit.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import importlib
import json
import logging
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

log = logging.getLogger(__name__)

#: task name -> "module:function" of the service it runs. workers/tasks.py
#: defines a Celery task of each name that calls exactly this function.
TASKS: dict[str, str] = {
    "pbem.process_inbound": "pbem.mail.services:do_process_inbound",
    "pbem.process_move_request": "pbem.games.services:do_process_move_request",
    "pbem.send_outbound": "pbem.mail.sending:do_send_outbound",
    "pbem.send_outbound_batch": "pbem.mail.sending:do_send_outbound_batch",
    "pbem.campaign_next": "pbem.games.campaigns:do_continue_campaign",
}

#: The broker queues. Why three: recovery and sending must not wait behind a backlog of work.
#: The sweepers (beat's periodic jobs) have a queue of their own, so a sweep is taken as soon as
#: a worker process is free rather than after every mail queued before it (under a burst 224 of
#: 359 sweeps used to expire unexecuted behind the work); outbound sends have theirs, so the
#: mail of moves already decided leaves while thousands of inbound mails wait to be judged.
#: A worker started without ``-Q`` consumes all three (``workers/celery.py``).
DEFAULT_QUEUE = "celery"
OUTBOUND_QUEUE = "pbem.outbound"
SWEEP_QUEUE = "pbem.sweeps"
QUEUES: tuple[str, ...] = (DEFAULT_QUEUE, OUTBOUND_QUEUE, SWEEP_QUEUE)
_QUEUE_OF: dict[str, str] = {"pbem.send_outbound": OUTBOUND_QUEUE, "pbem.send_outbound_batch": OUTBOUND_QUEUE}


def queue_for(name: str) -> str:
    """The broker queue a task of this name goes to (periodic jobs: :data:`SWEEP_QUEUE`, routed by
    ``workers/celery.py``)."""
    return _QUEUE_OF.get(name, DEFAULT_QUEUE)


_client: Any = None


def service_for(name: str) -> Callable[..., Any]:
    return _service_at(TASKS[name])


def _service_at(path: str) -> Callable[..., Any]:
    """The function a ``"module:function"`` path names (:data:`TASKS`, :data:`HERE`)."""
    module, func = path.split(":")
    service: Callable[..., Any] = getattr(importlib.import_module(module), func)
    return service


#: Held while the client is made: threads of one process (an ASGI server's, three ``?wait=`` posts at
#: once) raced through its first ``from celery import Celery``, and celery's lazily built package
#: answered one of them "cannot import name 'Celery'": a 500 for a move already committed.
_client_lock = threading.Lock()


def _celery_client() -> Any:
    if _client is None:
        with _client_lock:
            _make_client()
    return _client


def _make_client() -> None:
    global _client
    if _client is None:
        from celery import Celery

        # Why a bare client: the web process only sends by name; the worker app
        # with the task bodies lives in workers/ which pbem must not import.
        client = Celery("pbem-client", broker=settings.CELERY_BROKER_URL)
        client.conf.task_serializer = "json"
        # Why short: with the broker down, the caller's work is committed already and the
        # sweepers hand it on later; a publish must fail fast, not hold an SMTP session.
        client.conf.broker_connection_timeout = 2
        client.conf.broker_connection_retry = False
        client.conf.task_publish_retry_policy = {
            "max_retries": 1, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5}
        _client = client  # (set last: another thread reads it without the lock)


#: A task handed on this recently is not handed on again by a sweeper (see :func:`recently_queued`).
QUEUED_MARK_SECONDS = 20


def _mark_key(name: str, args: tuple[Any, ...]) -> str:
    # Why a digest: the arguments may be lists ("[356, 357]"), and spaces or brackets in a
    # cache key are not portable between cache backends (Django warns about memcached).
    digest = hashlib.sha1(repr(args).encode(), usedforsecurity=False).hexdigest()[:20]
    return f"pbem:queued:{name}:{digest}"


_broker_redis: dict[str, Any] = {}

#: The longest queue :func:`queued_args` reads (about 1 KB a message); beyond it, it says "unknown".
QUEUE_READ_LIMIT = 20_000


def queued_args(name: str) -> set[tuple[Any, ...]] | None:
    """The arguments of every ``name`` task waiting in the broker's queue now; None when that
    cannot be told (no broker, not Redis, it does not answer, or the queue is very long).

    Why the sweepers ask: during a burst thousands of mails wait, each with its task in the
    queue but older than the sweepers' marks; handing all of them on again at every sweep
    doubled the queue every 20 s. A task taken by a worker that then died is no longer in
    the queue (it waits, unacknowledged, for the visibility timeout), so it is handed on.
    """
    url = settings.CELERY_BROKER_URL
    if not url or not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    try:
        client = _broker_redis.get(url)
        if client is None:
            import redis

            client = _broker_redis[url] = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        queue = queue_for(name)
        if client.llen(queue) > QUEUE_READ_LIMIT:
            return None
        found: set[tuple[Any, ...]] = set()
        for raw in client.lrange(queue, 0, QUEUE_READ_LIMIT - 1):
            message = json.loads(raw)
            if (message.get("headers") or {}).get("task") != name:
                continue
            body = message.get("body", "")
            if (message.get("properties") or {}).get("body_encoding") == "base64":
                body = base64.b64decode(body)
            args = json.loads(body)[0]  # Celery's message protocol 2: [args, kwargs, embed]
            found.add(tuple(tuple(a) if isinstance(a, list) else a for a in args))
        return found
    except Exception:  # noqa: BLE001 - unknown: the sweeper hands the work on, as without this check
        return None


def recently_queued(name: str, *args: Any) -> bool:
    """Whether this task was handed to the broker within :data:`QUEUED_MARK_SECONDS`.

    Why a mark in the shared cache (Redis in a deployment): the sweepers may then run
    every few seconds without flooding the queue, and when Redis is wiped (broker and
    queue gone) the marks go with it, so the lost work is handed on at the next sweep.
    """
    try:
        return cache.get(_mark_key(name, args)) is not None
    except Exception:  # noqa: BLE001 - no cache: hand it on again (the services are idempotent)
        return False


_kept = threading.local()


def _producer(client: Any) -> Any:
    """This thread's producer for ``client``, kept from one publish to the next on a broker
    connection of its own (not a slot of Celery's producer pool, so any number of threads can
    keep one). Why (issue 28): the SMTP ingress hands on a task a mail, and acquiring a pooled
    producer and releasing it was a tenth of a publish's CPU."""
    kept = getattr(_kept, "producer", None)
    if kept is not None and kept[0] is client and kept[2] == os.getpid():
        return kept[1]
    _drop_producer()
    producer = client.amqp.Producer(client.connection_for_write(), auto_declare=False)
    _kept.producer = (client, producer, os.getpid())
    _kept.declared = set()
    return producer


def _drop_producer() -> None:
    kept, _kept.producer = getattr(_kept, "producer", None), None
    if kept is not None and kept[2] == os.getpid():  # a forked child leaves its parent's socket alone
        with contextlib.suppress(Exception):
            kept[1].connection.close()


def _publish(client: Any, name: str, listed: list[Any]) -> None:
    """The message ``client.send_task(name, args=listed, queue=queue_for(name))`` sends, published on
    this thread's kept producer.

    Why not ``send_task`` (issue 28, ingress session): it is the ingress's largest cost after the
    session itself; its routing, options, signals and result object cost as much as building the
    message and publishing it. Here Celery's own ``create_task_message`` builds the message (with the
    parent and root ids of a worker's current task and the reply address, as ``send_task`` gives
    them) and the producer publishes it with ``send_task_message``'s arguments; the queue is declared
    on the first publish to it over a connection, as kombu's ``maybe_declare`` does (its cache check
    then cost a fifth of the publish). argsrepr and kwargsrepr are given, not made by Celery's
    saferepr: keys only, short (a fifth of a publish's CPU was that repr)."""
    producer = _producer(client)
    queue = queue_for(name)
    root_id = parent_id = None
    parent = client.current_worker_task
    if parent:
        root_id, parent_id = parent.request.root_id or parent.request.id, parent.request.id
    reprs = {"argsrepr": repr(listed)[:1024], "kwargsrepr": "{}"}
    headers, properties, body, _sent_event = client.amqp.create_task_message(
        str(uuid.uuid4()), name, listed, {}, reply_to=client.thread_oid, root_id=root_id, parent_id=parent_id,
        ignore_result=None, **reprs)
    properties.update(reprs)  # (send_task copies its options into the properties too)
    declared: set[str] = _kept.declared
    conf = client.conf
    producer.publish(body, exchange="", routing_key=queue, serializer=conf.task_serializer,
                     compression=conf.task_compression, retry=conf.task_publish_retry,
                     retry_policy=dict(conf.task_publish_retry_policy),
                     delivery_mode=conf.task_default_delivery_mode, headers=headers,
                     declare=[] if queue in declared else [client.amqp.queues[queue]], **properties)
    declared.add(queue)


def _send(name: str, args: tuple[Any, ...], mark: bool = True) -> None:
    try:
        # (the client made inside the try too: a failure to make it, as the import race of 115d40c, is the
        # broker's failure for the caller, whose work is committed: never a 500 for a move already made)
        _publish(_celery_client(), name, list(args))
    except Exception as exc:  # noqa: BLE001 - the work is committed; a sweeper hands it on later
        _drop_producer()  # a broken connection is not kept
        log.warning("task %s not handed to the broker (%s); the sweeper will", name, type(exc).__name__)
        return
    if not mark:
        return
    with contextlib.suppress(Exception):
        if name == "pbem.send_outbound_batch":
            # Its rows are queued too: the outbox sweeper asks about each row by the single-send name.
            marks = {_mark_key(name, args): 1}
            marks.update({_mark_key("pbem.send_outbound", (pk,)): 1 for pk in args[0]})
            cache.set_many(marks, timeout=QUEUED_MARK_SECONDS)  # one round trip to Redis (issue 28: was two)
        else:
            # Why not set_many for one key: on Redis that is MULTI, MSET, EXPIRE, EXEC; a SET with its
            # expiry is one command (issue 28: the ingress marks every mail it hands on)
            cache.set(_mark_key(name, args), 1, timeout=QUEUED_MARK_SECONDS)


def _run_now(name: str, args: tuple[Any, ...]) -> None:
    try:
        service_for(name)(*args)
    except Exception:
        log.exception("in-process task %s failed", name)


#: The sends a task that decides a move makes itself, right after its commit (:func:`sending_here`).
SENT_HERE = frozenset({"pbem.send_outbound", "pbem.send_outbound_batch"})
_send_here: ContextVar[Callable[[], contextlib.AbstractContextManager[Any]] | None] = ContextVar(
    "pbem_send_here", default=None)


@contextlib.contextmanager
def sending_here(bound: Callable[[], contextlib.AbstractContextManager[Any]]) -> Iterator[None]:
    """Inside it, a move's mails are sent by this process after the move commits, not by a task
    of their own; ``bound`` holds the sends to a send task's time limit (workers/tasks.py).

    Why (issue 28): the worker that decided the move is free and warm; a second task cost a
    publish, two cache marks, the broker's fetch and ack and the poison guard's count, and it
    waited behind the queue. What a send leaves undone (the relay refused, the process ended)
    is the outbox sweeper's, as a lost send task's was: each row keeps its own claim.
    """
    token = _send_here.set(bound)
    try:
        yield
    finally:
        _send_here.reset(token)


def _run_here(name: str, args: tuple[Any, ...], bound: Callable[[], contextlib.AbstractContextManager[Any]]) -> None:
    try:
        with bound():
            _service_at(TASKS[name] if name in TASKS else HERE[name])(*args)
    except Exception as exc:
        if type(exc).__name__ in ("SoftTimeLimitExceeded", "TimeLimitExceeded"):
            raise  # never swallow the worker's time limit
        # Why a warning: the rows are pending or claimed, and the outbox sweeper sends them.
        log.warning("%s in the deciding task failed (%s); the outbox sweeper sends what is left",
                    name, type(exc).__name__)


#: Services only the task that decided a move runs, right after its commit, with the rows it holds
#: (never through the broker: their arguments are rows, not keys; see :func:`run_here`).
HERE: dict[str, str] = {
    "pbem.send_born_claimed": "pbem.mail.sending:do_send_born_claimed",
}


def sends_here() -> bool:
    """Whether a move's mails queued now are sent by this process right after its commit under the
    send bound (:func:`sending_here`: a worker's deciding task), not by a task of their own. Not
    with tasks in process (the test harness, the embedded default): those send by the send tasks'
    own services after the commit, claiming the rows as a send task does."""
    return not settings.PBEM_TASKS_IN_PROCESS and _send_here.get() is not None


def run_here(name: str, *args: Any) -> None:
    """Runs the :data:`HERE` service ``name`` in this process after the commit, under the send
    bound of :func:`sending_here` (only when :func:`sends_here`). What it leaves undone (the process
    ended, the relay refused) is the outbox sweeper's, as for a send task."""
    bound = _send_here.get()
    if name not in HERE or bound is None or settings.PBEM_TASKS_IN_PROCESS:
        raise RuntimeError(f"{name} runs only in a deciding task (dispatch.sends_here)")
    transaction.on_commit(lambda: _run_here(name, args, bound))


def enqueue(name: str, *args: Any, mark: bool = True) -> None:
    """Hands the task on after the caller's transaction commits (at once outside one).

    ``mark=False``: no queued mark in the shared cache (:func:`recently_queued` then says no), for a
    caller whose sweeper tells a recent hand-on by its own row (the SMTP ingress: a mail's receipt
    time, ``pbem.mail.services.INBOUND_LOST_AFTER``)."""
    if name not in TASKS:
        raise KeyError(f"unknown task {name}")
    if settings.PBEM_TASKS_IN_PROCESS:
        transaction.on_commit(lambda: _run_now(name, args))
    elif name in SENT_HERE and (bound := _send_here.get()) is not None:
        transaction.on_commit(lambda: _run_here(name, args, bound))
    else:
        transaction.on_commit(lambda: _send(name, args, mark))
