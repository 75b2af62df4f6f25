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
from celery.signals import task_postrun, task_prerun

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")

app = Celery("pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")

from pbem.games.periodic import JOBS  # noqa: E402 - the app must exist before tasks import it

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
    beat_schedule={
        j.task: {"task": j.task, "schedule": j.every, "options": {"expires": max(j.every - 5.0, 1.0)}}
        for j in JOBS
    },
)
app.conf.include = ["workers.tasks"]


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(**kwargs: Any) -> None:
    """What Django does around each web request: drop a connection that broke or outlived
    CONN_MAX_AGE (with CONN_HEALTH_CHECKS a dead one is noticed before it is used).
    Not for a task applied eagerly: it runs inside its caller's transaction, as the fixup knows."""
    from django.db import close_old_connections

    task = kwargs.get("task")
    if task is not None and getattr(task.request, "is_eager", False):
        return

    close_old_connections()
