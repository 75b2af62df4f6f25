"""Celery tasks: thin doors, one service call each, primary keys only.

Every name in ``pbem.games.dispatch.TASKS`` has a task here that calls exactly
the mapped service; the web process sends them by name after commit. All the
services are idempotent (a second delivery of the same key finds the work
claimed or decided and does nothing), which is what makes ``acks_late`` and
redelivery after a lost worker safe.
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError
from django.utils import timezone

from pbem.games import dispatch, periodic
from workers.celery import app

#: Database hiccups (a dropped connection, a deadlock victim) are worth another try;
#: rule errors never are: the services answer those themselves and do not raise.
TRANSIENT = (OperationalError, InterfaceError)


@app.task(name="pbem.process_inbound", autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60,
          max_retries=3)
def process_inbound(inbound_id: int) -> Any:
    return dispatch.service_for("pbem.process_inbound")(inbound_id)


@app.task(name="pbem.process_move_request", autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60,
          max_retries=3)
def process_move_request(request_id: int) -> Any:
    return dispatch.service_for("pbem.process_move_request")(request_id)


@app.task(name="pbem.send_outbound", autoretry_for=(Exception,), retry_backoff=True, retry_backoff_max=600,
          retry_jitter=True, max_retries=6)
def send_outbound(outbound_id: int) -> Any:
    """Sends one outbox row. A failure puts the row back to pending and raises, so Celery retries
    with exponential backoff; after the last retry the outbox sweeper picks the row up again."""
    return dispatch.service_for("pbem.send_outbound")(outbound_id)


def _periodic(task_name: str) -> Any:
    return periodic.run_job(periodic.job(task_name), timezone.now())


@app.task(name="pbem.sweep_deadlines")
def sweep_deadlines() -> Any:
    return _periodic("pbem.sweep_deadlines")


@app.task(name="pbem.requeue_stuck_outbound")
def requeue_stuck_outbound() -> Any:
    return _periodic("pbem.requeue_stuck_outbound")


@app.task(name="pbem.requeue_inbound")
def requeue_inbound() -> Any:
    return _periodic("pbem.requeue_inbound")


@app.task(name="pbem.send_digests")
def send_digests() -> Any:
    return _periodic("pbem.send_digests")
