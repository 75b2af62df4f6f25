"""Webhooks: the account stream's events (pbem.api.streams), POSTed to a server, signed, retried.

Two steps, run by the periodic job ``pbem.deliver_webhooks`` (every 10 s, Celery beat or the
embedded loop):

1. **collect**: each active webhook reads its account's events after its cursor (redacted for
   the account's seats, exactly as the account stream is) and writes one delivery row per
   event, moving its cursor in the same transaction (an outbox: nothing is lost if the
   process dies between the two);
2. **send**: each due delivery is claimed (a conditional update) and POSTed with
   ``X-Pbem-Signature: sha256=<HMAC-SHA256 of the body with the webhook's secret>``,
   ``X-Pbem-Event`` and ``X-Pbem-Delivery``. A 2xx answer ends it; anything else (a timeout,
   a refused connection, a 500) tries again after 10 s, 30 s, 1, 5, 15, 30 then 60 minutes;
   after 8 attempts the delivery is marked failed.

The receiver checks the signature over the raw body, and uses ``id`` (a stream cursor) to
drop a delivery it has seen (a delivery may come twice if a worker dies after sending).
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from pbem.api.streams import AccountSource, Cursor, latest_cursor
from pbem.games.models import Player
from pbem.webhooks.models import Webhook, WebhookDelivery

log = logging.getLogger(__name__)

MAX_WEBHOOKS = 5
MAX_ATTEMPTS = 8
BACKOFF_SECONDS = (10, 30, 60, 300, 900, 1800, 3600)
TIMEOUT_SECONDS = 5.0
CLAIM_SECONDS = 60
BATCH = 100


class WebhookError(Exception):
    def __init__(self, message: str, status: int = 422, code: str = "invalid") -> None:
        super().__init__(message)
        self.message, self.status, self.code = message, status, code


def sign(secret: str, body: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def check_url(url: str) -> str:
    """An http(s) URL of a public host; loopback and private addresses only with
    ``PBEM_WEBHOOK_ALLOW_PRIVATE`` (tests, a receiver on the same machine)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise WebhookError("url: an http:// or https:// address")
    if not getattr(settings, "PBEM_WEBHOOK_ALLOW_PRIVATE", False):
        host = parts.hostname
        try:
            private = not ipaddress.ip_address(host).is_global
        except ValueError:
            private = host == "localhost" or host.endswith((".localhost", ".local", ".internal"))
        if private:
            raise WebhookError("url: the host must be a public address")
    return url


def do_create_webhook(player: Player, url: str) -> Webhook:
    check_url(url)
    if Webhook.objects.filter(player=player, active=True).count() >= MAX_WEBHOOKS:
        raise WebhookError(f"at most {MAX_WEBHOOKS} webhooks an account; delete one first", 409, "conflict")
    return Webhook.objects.create(player=player, url=url, secret=secrets.token_hex(32),
                                  cursor=str(latest_cursor()))


def webhooks_of(player: Player) -> list[Webhook]:
    return list(Webhook.objects.filter(player=player, active=True).order_by("-pk"))


def do_delete_webhook(player: Player, webhook_id: int) -> None:
    if not Webhook.objects.filter(player=player, pk=webhook_id, active=True).update(active=False):
        raise WebhookError(f"you have no webhook #{webhook_id}", 404, "not_found")


def do_collect(now: datetime) -> int:
    """Write the deliveries of every active webhook's new events; how many."""
    made = 0
    for hook_id in Webhook.objects.filter(active=True).values_list("pk", flat=True):
        with transaction.atomic():
            hook = Webhook.objects.select_for_update(skip_locked=True).select_related("player").filter(
                pk=hook_id, active=True).first()
            if hook is None:
                continue  # another worker has it now
            source = AccountSource(hook.player)
            cursor = Cursor.parse(hook.cursor)
            for _ in range(10):  # a long backlog: a few batches a run
                events, after = source.fetch(cursor, hook.player)
                WebhookDelivery.objects.bulk_create([
                    WebhookDelivery(webhook=hook, event_id=e.id, event_type=e.type, next_attempt_at=now,
                                    body=json.dumps({"id": e.id, "type": e.type, **e.data}, ensure_ascii=False,
                                                    default=str))
                    for e in events])
                made += len(events)
                if after == cursor:
                    break
                cursor = after
            if str(cursor) != hook.cursor:
                hook.cursor = str(cursor)
                hook.save(update_fields=["cursor"])
    return made


def _post(hook: Webhook, delivery: WebhookDelivery) -> tuple[int | None, str]:
    body = delivery.body.encode("utf-8")
    request = urllib.request.Request(hook.url, data=body, method="POST", headers={
        "Content-Type": "application/json", "User-Agent": "pbem-webhooks/1",
        "X-Pbem-Event": delivery.event_type, "X-Pbem-Delivery": str(delivery.pk),
        "X-Pbem-Signature": sign(hook.secret, body)})
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
            return answer.status, ""
    except urllib.error.HTTPError as exc:
        return exc.code, f"HTTP {exc.code}"
    except (OSError, ValueError) as exc:
        return None, f"{type(exc).__name__}: {exc}"


def do_send_due(now: datetime) -> int:
    """POST every due delivery once; how many were answered with a 2xx."""
    sent = 0
    due = WebhookDelivery.objects.filter(status=WebhookDelivery.Status.PENDING, next_attempt_at__lte=now,
                                         webhook__active=True).order_by("pk").values_list("pk", flat=True)
    for pk in list(due[:BATCH]):
        lease = now + timedelta(seconds=CLAIM_SECONDS)
        claimed = WebhookDelivery.objects.filter(pk=pk, status=WebhookDelivery.Status.PENDING,
                                                 next_attempt_at__lte=now).update(next_attempt_at=lease)
        if not claimed:
            continue  # another worker took it
        delivery = WebhookDelivery.objects.select_related("webhook").get(pk=pk)
        if not check_url_quietly(delivery.webhook.url):
            code, error = None, "the webhook's address is not allowed"
        else:
            code, error = _post(delivery.webhook, delivery)
        delivery.attempts += 1
        delivery.last_status = code
        if code is not None and 200 <= code < 300:
            delivery.status, delivery.sent_at, delivery.last_error = WebhookDelivery.Status.SENT, timezone.now(), ""
            sent += 1
        else:
            delivery.last_error = error[:1000]
            if delivery.attempts >= MAX_ATTEMPTS:
                delivery.status = WebhookDelivery.Status.FAILED
            else:
                wait = BACKOFF_SECONDS[min(delivery.attempts - 1, len(BACKOFF_SECONDS) - 1)]
                delivery.next_attempt_at = now + timedelta(seconds=wait)
        delivery.save(update_fields=["attempts", "last_status", "status", "sent_at", "last_error",
                                     "next_attempt_at"])
    return sent


def check_url_quietly(url: str) -> bool:
    try:
        check_url(url)
    except WebhookError:
        return False
    return True


def do_deliver_webhooks(now: datetime) -> dict[str, int]:
    """The periodic job: collect new events, then send what is due."""
    return {"collected": do_collect(now), "sent": do_send_due(now)}
