"""The Celery app, configured from Django settings (``CELERY_*``), with a static beat schedule.

Redelivery after a dead worker: tasks are acknowledged late (after they ran)
and requeued when their worker process is lost; each worker takes one message
at a time. That is safe because every task is idempotent against the
database (see ``workers/tasks.py``).
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_init
from kombu import Queue

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")

app = Celery("pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")

from pbem.games import dispatch  # noqa: E402 - the app must exist before tasks import it
from pbem.games.periodic import JOBS  # noqa: E402


def sweep_expires(every: float) -> float:
    """How long a scheduled sweep may wait in its queue before it is dropped. Why not 1 s (as it
    was): a sweep that waited behind work expired unexecuted, so recovery depended on how busy
    the queue was. Its own queue takes it as soon as a worker process is free; a pile of sweeps
    after a long stall is harmless (each run takes a lock and skips when one ran just before)."""
    return max(6 * every, 60.0)


#: How a deployment starts a worker beyond ``celery -A workers worker -c N`` (docker-compose.yml's worker
#: service; bench/pipeline.py starts its workers with the same). Why (issue 28): pbem uses no event
#: monitor, revokes no task and elects nothing, and each of these is traffic every worker pays: the
#: heartbeat publishes an event every 2 s, gossip makes every worker decode every other's heartbeats
#: (work that grows with the square of the workers), mingle asks the others for their revokes at each
#: start. Remote control stays on: the compose healthcheck is ``celery inspect ping`` (tested), and it
#: cost nothing measurable a task (the pidbox is one more subscribed connection, read only when a
#: command comes).
WORKER_OPTIONS = ("--without-gossip", "--without-mingle", "--without-heartbeat")


def _env_int(name: str, default: int) -> int:
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default

# Why set them here as well as in settings: redelivery is a property of this
# app, not something a deployment's environment should be able to switch off.
app.conf.update(
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_serializer="json",
    accept_content=["json"],
    task_ignore_result=True,
    # Late acks on Redis: a task not acked within this time is delivered again;
    # it must exceed the longest task and the largest retry backoff.
    broker_transport_options={"visibility_timeout": 3600},
    task_time_limit=300,
    task_soft_time_limit=240,
    # Why not cancel: a send cancelled after the relay took the mail but before the row was
    # marked sent is sent again (a duplicate). Every task is idempotent, so one that runs on
    # while the broker is away (and is delivered again later) only finds its work done.
    worker_cancel_long_running_tasks_on_connection_loss=False,
    # Why: Celery's Django fixup closes every database connection before and after each
    # task unless this is set, so each task paid a new PostgreSQL connection (a backend
    # fork, about 5 ms of server CPU, 4 per move). With it the fixup closes them only
    # every this many tasks; in between, Django's own rules (CONN_MAX_AGE, health
    # checks) decide, through close_old_connections below, as they do for web requests.
    CELERY_DB_REUSE_MAX=1000,
    # Queues (see dispatch.QUEUES): a worker without -Q consumes all of them; a worker started
    # with ``-Q pbem.sweeps -c 1`` only sweeps, so recovery never waits for a free process.
    task_default_queue=dispatch.DEFAULT_QUEUE,
    task_queues=tuple(Queue(q, routing_key=q) for q in dispatch.QUEUES),
    task_routes={**{name: {"queue": dispatch.queue_for(name)} for name in dispatch.TASKS},
                 **{j.task: {"queue": dispatch.SWEEP_QUEUE} for j in JOBS}},
    beat_schedule={
        j.task: {"task": j.task, "schedule": j.every,
                 "options": {"queue": dispatch.SWEEP_QUEUE, "expires": sweep_expires(j.every)}}
        for j in JOBS
    },
    # Why: a pool process grew from 107 to 240 MB over the fault suite and never shrank; it is
    # replaced after this many tasks or once its resident memory passes this many KiB (checked
    # after each task; the task in hand finishes first). 0 turns a limit off.
    worker_max_tasks_per_child=_env_int("PBEM_WORKER_MAX_TASKS_PER_CHILD", 2000) or None,
    worker_max_memory_per_child=_env_int("PBEM_WORKER_MAX_MEMORY_PER_CHILD", 200_000) or None,
)
app.conf.include = ["workers.tasks"]


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**kwargs: Any) -> None:
    """What Django does around each web request: drop a connection that broke or outlived
    CONN_MAX_AGE (with CONN_HEALTH_CHECKS a dead one is noticed before it is used, unless it
    served the task before without error just now: pbem.dbhealth, issue 28).
    Not for a task applied eagerly: it runs inside its caller's transaction, as the fixup knows."""
    from pbem import dbhealth

    task = kwargs.get("task")
    if task is not None and getattr(task.request, "is_eager", False):
        return
    if "retval" in kwargs:  # postrun: whether the task ended well (a failure: checked next time)
        dbhealth.mark_sound(kwargs.get("state") == "SUCCESS")
    dbhealth.tidy_connections()


@worker_init.connect
def _load_the_rules(**kwargs: Any) -> None:
    """Every game's rules imported once in the worker's main process, before its pool forks.

    Why (issue 28): each pool process (replaced every ``worker_max_tasks_per_child`` tasks)
    imported a game's rules on its first move of that game, 0.2-0.4 s of CPU in the middle of a
    move; forked from a parent that has them, it finds them imported. Each game's ``warm_up`` fills
    here too what its first moves would compute and keep (Maracaibo: where its places' ships go,
    0.5 s of CPU a pool process, paid by its first pictures before the pipe session of issue 28).

    The same for what every pool process's first mail paid (issue 28): the tasks' service modules
    and what they import (the mail's painter and Pillow), the mail's template compiled into Django's
    cached loader, each language's catalogue; about 0.4 s of CPU in each new pool process's first
    task. Then ``gc.freeze()`` (as Python's documentation advises before a fork): the objects made so
    far are left out of every later collection, so a pool process's full collections no longer walk
    (and write to, unsharing their pages) some 120,000 objects it inherited."""
    import gc

    from django.conf import settings
    from django.template.loader import get_template
    from django.utils import translation

    import engine

    for name in engine.registry.names():
        engine.get(name).warm_up()
    for task in dispatch.TASKS:
        dispatch.service_for(task)
    get_template("mail/game_update.html")
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            translation.gettext("Your options:")
        engine.i18n.translate("Round", code)  # the engine's catalogue of that language
    gc.collect()
    gc.freeze()
