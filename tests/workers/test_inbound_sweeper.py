"""The inbound sweeper against a real Redis broker: lost work is handed on, a burst's queue is not doubled."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from typing import Any

import pytest
import redis
from django.core.cache import cache
from django.utils import timezone

from pbem.games import dispatch
from pbem.games.models import InboundMessage, Player
from pbem.mail import services as mail_services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


@pytest.fixture
def broker(redis_url: str, settings: Any) -> Iterator[redis.Redis]:
    """The Celery broker is this test's own Redis database; tasks go there, no worker takes them."""
    settings.CELERY_BROKER_URL = redis_url
    settings.PBEM_TASKS_IN_PROCESS = False
    dispatch._client = None  # the bare client is made for the broker URL of its first use
    yield redis.Redis.from_url(redis_url)
    dispatch._client = None


def _receive(alice: Player, n: int) -> list[int]:
    ids = []
    for i in range(n):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = alice.email, "pbem@pbem.localhost", "help"
        msg["Message-ID"] = f"<sweep-{i}@example.org>"
        msg.set_content("help")
        ids.append(mail_services.do_receive_mail(msg.as_bytes(), alice.email, ["pbem@pbem.localhost"]).pk)
    return ids


def test_it_leaves_queued_mail_alone_and_hands_on_what_a_dead_worker_or_a_wiped_broker_lost(
        broker: redis.Redis, alice: Player) -> None:
    ids = _receive(alice, 5)
    assert broker.llen("celery") == 5, "each stored mail's task is in the queue"
    later = timezone.now() + timedelta(seconds=60)
    cache.clear()  # the marks of the tasks handed on have expired: the burst outlasted them
    assert mail_services.do_requeue_inbound(later) == 0
    assert broker.llen("celery") == 5, "mail whose task still waits in the queue is not handed on again"

    broker.rpop("celery")  # a worker took the oldest task and died with it (it is not in the queue)
    assert mail_services.do_requeue_inbound(later) == 1, "its mail is handed on, the others are not"
    assert broker.llen("celery") == 5

    broker.flushdb()  # the broker is wiped: the queue and its tasks are gone
    cache.clear()  # and the marks have expired (or went with it: one Redis for both)
    assert mail_services.do_requeue_inbound(later) == 5
    assert broker.llen("celery") == 5
    assert set(InboundMessage.objects.filter(status="received").values_list("pk", flat=True)) == set(ids)
