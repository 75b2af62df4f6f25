"""``/healthz``: the database, the broker and the age of the oldest waiting mail, as a monitor sees them."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from pbem.games.models import InboundMessage, OutboundMessage
from pbem.mail.smtp import free_port

pytestmark = pytest.mark.django_db(transaction=True)


def checks(answer: Any) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in answer.json()["checks"]}


def test_it_answers_200_when_everything_answers_and_nothing_waits(settings: Any, redis_url: str) -> None:
    settings.PBEM_TASKS_IN_PROCESS = False
    settings.CELERY_BROKER_URL = redis_url
    answer = Client().get("/healthz")
    assert answer.status_code == 200, answer.content
    assert all(c["ok"] for c in checks(answer).values())
    assert set(checks(answer)) == {"database", "broker", "outbox", "inbound"}


def test_it_answers_503_naming_the_broker_when_it_is_down(settings: Any) -> None:
    settings.PBEM_TASKS_IN_PROCESS = False
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"
    answer = Client().get("/healthz")
    assert answer.status_code == 503
    assert not checks(answer)["broker"]["ok"]
    assert checks(answer)["database"]["ok"]


def test_it_answers_503_when_mail_waits_too_long(settings: Any) -> None:
    settings.PBEM_TASKS_IN_PROCESS = True
    assert Client().get("/healthz").status_code == 200
    row = OutboundMessage.objects.create(to_email="ana@example.org", subject="s", body_text="b", headers={})
    assert Client().get("/healthz").status_code == 200  # young: being sent
    OutboundMessage.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(hours=1))
    answer = Client().get("/healthz")
    assert answer.status_code == 503
    assert not checks(answer)["outbox"]["ok"] and checks(answer)["outbox"]["age_seconds"] >= 3600
    OutboundMessage.objects.filter(pk=row.pk).update(status=OutboundMessage.Status.SENT)
    mail = InboundMessage.objects.create(message_id="<h@x>", raw=b"x", mail_from="a@b.c", rcpt_to="pbem@x")
    InboundMessage.objects.filter(pk=mail.pk).update(received_at=timezone.now() - timedelta(minutes=10))
    answer = Client().get("/healthz")
    assert answer.status_code == 503
    assert checks(answer)["outbox"]["ok"] and not checks(answer)["inbound"]["ok"]
    assert b"a@b.c" not in answer.content
