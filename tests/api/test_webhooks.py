"""Webhooks with a real HTTP receiver on this machine: an account's events POSTed, signed with
the webhook's secret, redacted for the account's seat, retried with backoff until answered."""

from __future__ import annotations

import hashlib
import hmac
import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.utils import timezone

from pbem.games import periodic, services
from pbem.webhooks import services as webhooks
from pbem.webhooks.models import WebhookDelivery
from tests.factories import seat_of, start_game, token_client


class Receiver:
    """A local HTTP server that records what it is sent and answers the statuses it is told."""

    def __init__(self) -> None:
        self.got: list[dict[str, Any]] = []
        self.answers: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.got.append({"headers": dict(self.headers), "body": body})
                self.send_response(receiver.answers.pop(0) if receiver.answers else 200)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        if self.thread.is_alive():
            self.server.shutdown()
            self.server.server_close()
            self.thread.join()


@pytest.fixture
def receiver(settings) -> Iterator[Receiver]:
    settings.PBEM_WEBHOOK_ALLOW_PRIVATE = True
    settings.PBEM_API_STREAM_SETTLE = 0
    r = Receiver()
    yield r
    r.close()


def _bid(game, player) -> int:
    game.refresh_from_db()
    card = min(game.state["hands"][seat_of(game, player)])
    services.do_submit_moves(game.pk, player, [services.Command(code=f"c{card}")], source="api")
    return card


def test_it_posts_signed_events_redacted_for_the_account(fake_game, alice, bob, receiver):
    game = start_game(fake_game, alice, [bob])
    r = token_client(bob).post("/api/v1/me/webhooks/", {"url": receiver.url}, format="json")
    assert r.status_code == 201, r.content
    secret = r.json()["secret"]
    card = _bid(game, alice)

    result = periodic.run_job(periodic.job("pbem.deliver_webhooks"), timezone.now())
    assert result["sent"] >= 1 and receiver.got
    moves = []
    for hit in receiver.got:
        expected = "sha256=" + hmac.new(secret.encode(), hit["body"], hashlib.sha256).hexdigest()
        assert hit["headers"]["X-Pbem-Signature"] == expected
        event = json.loads(hit["body"])
        assert hit["headers"]["X-Pbem-Event"] == event["type"]
        if event["type"] == "move":
            moves.append(event)
    assert len(moves) == 1 and moves[0]["game"] == game.pk and moves[0]["move"] is None
    assert moves[0]["your_turn"] is True
    assert f"bid {card}" not in json.dumps(moves) and "choose_own" not in json.dumps(moves)
    assert token_client(bob).get("/api/v1/me/webhooks/").json()[0]["pending"] == 0


def test_it_retries_with_backoff_until_the_receiver_answers(fake_game, alice, bob, receiver):
    game = start_game(fake_game, alice, [bob])
    token_client(bob).post("/api/v1/me/webhooks/", {"url": receiver.url}, format="json")
    _bid(game, alice)
    receiver.answers = [500, 503]
    now = timezone.now()
    webhooks.do_deliver_webhooks(now)
    move = WebhookDelivery.objects.get(event_type="move")
    assert move.status == "pending" and move.attempts == 1 and move.last_status in (500, 503)
    assert move.next_attempt_at >= now + timedelta(seconds=10)
    hits = len(receiver.got)
    webhooks.do_deliver_webhooks(now + timedelta(seconds=1))  # not due yet: nothing is sent
    assert len(receiver.got) == hits

    later = now
    for _ in range(3):
        later += timedelta(hours=2)
        webhooks.do_deliver_webhooks(later)
    move.refresh_from_db()
    assert move.status == "sent" and move.sent_at is not None and move.last_status == 200
    bodies = [json.loads(h["body"]) for h in receiver.got if json.loads(h["body"])["type"] == "move"]
    assert len({b["id"] for b in bodies}) == 1 and len(bodies) >= 2  # the same event, tried again


def test_it_gives_up_after_eight_attempts_and_a_dead_receiver_is_not_a_crash(fake_game, alice, bob, receiver):
    game = start_game(fake_game, alice, [bob])
    token_client(bob).post("/api/v1/me/webhooks/", {"url": receiver.url}, format="json")
    receiver.close()  # nobody listens any more
    _bid(game, alice)
    when = timezone.now()
    for _ in range(webhooks.MAX_ATTEMPTS + 1):
        webhooks.do_deliver_webhooks(when)
        when += timedelta(hours=2)
    move = WebhookDelivery.objects.get(event_type="move")
    assert move.status == "failed" and move.attempts == webhooks.MAX_ATTEMPTS and move.last_status is None
    assert token_client(bob).get("/api/v1/me/webhooks/").json()[0]["failed"] >= 1


def test_it_refuses_private_addresses_unless_allowed_and_deletes(settings, alice):
    settings.PBEM_WEBHOOK_ALLOW_PRIVATE = False
    client = token_client(alice)
    for url in ("http://127.0.0.1:9/x", "http://localhost/x", "http://10.1.2.3/x", "ftp://example.org/"):
        r = client.post("/api/v1/me/webhooks/", {"url": url}, format="json")
        assert r.status_code in (400, 422), (url, r.content)
    r = client.post("/api/v1/me/webhooks/", {"url": "https://hooks.example.org/pbem"}, format="json")
    assert r.status_code == 201
    hook = r.json()["id"]
    assert client.delete(f"/api/v1/me/webhooks/{hook}/").status_code == 204
    assert client.get("/api/v1/me/webhooks/").json() == []
