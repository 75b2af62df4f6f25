"""What ``/healthz`` reports: the database, the broker, and how old the oldest waiting work is.

A load balancer or monitor polls it: 200 when everything answers and nothing waits too long,
503 otherwise, with one line per check so an operator sees which part is unwell
(docs/operations.md says what to do about each). It shows no address, token or mail text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Min
from django.utils import timezone

from pbem.games.models import InboundMessage, OutboundMessage

#: Seconds an unsent outbox row may wait before the service counts as unwell (a relay outage).
MAX_OUTBOX_AGE = 600.0
#: Seconds a stored, unjudged mail may wait (workers or broker down; the sweeper runs every 10 s).
MAX_INBOUND_AGE = 120.0


@dataclass(frozen=True)
class Check:
    name: str
    ok: bool
    detail: str
    age_seconds: float | None = None


def _database() -> Check:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # noqa: BLE001 - an unreachable database is the answer, not an error
        return Check("database", False, f"unreachable: {type(exc).__name__}")
    return Check("database", True, connection.vendor)


def _broker() -> Check:
    if settings.PBEM_TASKS_IN_PROCESS:
        return Check("broker", True, "none: tasks run in process")
    from kombu import Connection

    try:
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
    except Exception as exc:  # noqa: BLE001
        return Check("broker", False, f"unreachable: {type(exc).__name__}")
    return Check("broker", True, "answers")


def _age(name: str, oldest: datetime | None, limit: float, now: datetime) -> Check:
    if oldest is None:
        return Check(name, True, "nothing waiting", 0.0)
    age = max((now - oldest).total_seconds(), 0.0)
    ok = age <= limit
    return Check(name, ok, f"oldest waits {age:.0f} s (limit {limit:.0f} s)", round(age, 1))


def health_report(now: datetime | None = None) -> dict[str, Any]:
    """Every check, and ``ok`` when all pass. The waiting-work checks need the database."""
    now = now or timezone.now()
    checks = [_database(), _broker()]
    if checks[0].ok:
        try:
            unsent = OutboundMessage.objects.filter(status__in=[OutboundMessage.Status.PENDING,
                                                                OutboundMessage.Status.SENDING])
            unjudged = InboundMessage.objects.filter(status=InboundMessage.Status.RECEIVED)
            checks.append(_age("outbox", unsent.aggregate(m=Min("created_at"))["m"], MAX_OUTBOX_AGE, now))
            checks.append(_age("inbound", unjudged.aggregate(m=Min("received_at"))["m"], MAX_INBOUND_AGE, now))
        except Exception as exc:  # noqa: BLE001
            checks.append(Check("queues", False, f"unreadable: {type(exc).__name__}"))
    return {"ok": all(c.ok for c in checks), "checks": [asdict(c) for c in checks]}
