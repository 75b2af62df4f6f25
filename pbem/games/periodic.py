"""The periodic jobs, in one table shared by Celery beat and the embedded loop.

``workers/celery.py`` turns this table into the static beat schedule; the
``runall`` command's loop thread calls the same services on the same periods
when there is no broker. Each job is a service taking ``now`` and safe to run
twice (the services claim their work with conditional updates or row locks).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Job:
    task: str  #: Celery task name (workers/tasks.py defines it)
    service: str  #: "module:function" taking ``now``
    every: float  #: seconds between runs


JOBS: tuple[Job, ...] = (
    # Reminders, then the no-move policy, for games whose deadline passed.
    Job("pbem.sweep_deadlines", "pbem.games.moderation:do_sweep_deadlines", 300.0),
    # Outbox rows claimed by a worker that died go back to pending and are sent.
    # Why every 5 s: a stuck row is resent within a minute of its worker's death (40 s claim + 5 s), pending
    # mail leaves soon after a relay outage; a sweep that finds nothing costs one indexed query.
    Job("pbem.requeue_stuck_outbound", "pbem.mail.sending:do_requeue_stuck", 5.0),
    # Mails stored but never judged (their task was lost in a crash) are queued again.
    # Why every 5 s: inbound work lost with a worker or a wiped broker is judged within 30 s
    # (10 s old, then the next sweep), with room for a loaded machine; a sweep during a burst
    # does not hand on again mail whose task still waits in the queue (dispatch.queued_args).
    Job("pbem.requeue_inbound", "pbem.mail.services:do_requeue_inbound", 5.0),
    # API move requests made while the broker was away (or whose worker died) are handed on.
    Job("pbem.requeue_move_requests", "pbem.games.services:do_requeue_move_requests", 10.0),
    # Daily digests: the service decides who is due (one mail a day per game at most).
    Job("pbem.send_digests", "pbem.mail.services:do_send_digests", 3600.0),
    # Bodies of mails sent (and raw mails judged) longer ago than the retention are dropped.
    Job("pbem.prune_mail_bodies", "pbem.mail.retention:do_prune_mail_bodies", 3600.0),
    # Webhooks: new account events become signed deliveries; due ones are POSTed (retried with backoff).
    Job("pbem.deliver_webhooks", "pbem.webhooks.services:do_deliver_webhooks", 10.0),
    # Finished campaign games whose campaign did not take them (the task was lost): the next game.
    Job("pbem.sweep_campaigns", "pbem.games.campaigns:do_sweep_campaigns", 60.0),
)


def job(task: str) -> Job:
    for j in JOBS:
        if j.task == task:
            return j
    raise KeyError(task)


def service_of(j: Job) -> Callable[..., Any]:
    module, func = j.service.split(":")
    return getattr(importlib.import_module(module), func)


def run_job(j: Job, now: datetime) -> Any:
    """Run one job's service now (the beat task body and the embedded loop both call this)."""
    return service_of(j)(now)
