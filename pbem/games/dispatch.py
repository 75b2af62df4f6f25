"""Hand work to the task queue after the transaction commits.

Services call :func:`enqueue` with a task name and primary keys only. With a
broker configured the task goes to Celery by name (so ``pbem`` never imports
``workers``); without one (the embedded default) the same service function
runs in this process right after commit.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

#: task name -> "module:function" of the service it runs. workers/tasks.py
#: defines a Celery task of each name that calls exactly this function.
TASKS: dict[str, str] = {
    "pbem.process_inbound": "pbem.mail.services:do_process_inbound",
    "pbem.process_move_request": "pbem.games.services:do_process_move_request",
    "pbem.send_outbound": "pbem.mail.sending:do_send_outbound",
}

_client: Any = None


def service_for(name: str) -> Callable[..., Any]:
    module, func = TASKS[name].split(":")
    service: Callable[..., Any] = getattr(importlib.import_module(module), func)
    return service


def _celery_client() -> Any:
    global _client
    if _client is None:
        from celery import Celery

        # Why a bare client: the web process only sends by name; the worker app
        # with the task bodies lives in workers/ which pbem must not import.
        _client = Celery("pbem-client", broker=settings.CELERY_BROKER_URL)
        _client.conf.task_serializer = "json"
    return _client


def _run_now(name: str, args: tuple[Any, ...]) -> None:
    try:
        service_for(name)(*args)
    except Exception:
        log.exception("in-process task %s failed", name)


def enqueue(name: str, *args: Any) -> None:
    if name not in TASKS:
        raise KeyError(f"unknown task {name}")
    if settings.PBEM_TASKS_IN_PROCESS:
        transaction.on_commit(lambda: _run_now(name, args))
    else:
        transaction.on_commit(lambda: _celery_client().send_task(name, args=list(args)))
