"""API tokens: several per account, named, scoped (read / play / moderate), expiring, listed,
revocable, stored hashed; DRF's old plain-text keys moved over by migration and still working."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from importlib import import_module

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from pbem.games.models import Game
from pbem.tokens.models import ApiToken
from tests.factories import seat_of, start_game, token_client

TOKENS = "/api/v1/auth/tokens/"
GAMES = "/api/v1/games/"


def _client(token: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _make(player, name: str, scopes: list[str], **extra) -> str:
    r = token_client(player).post(TOKENS, {"name": name, "scopes": scopes, **extra}, format="json")
    assert r.status_code == 201, r.content
    return r.json()["token"]


def _bid(game: Game, player) -> dict:
    return {"commands": [{"code": f"c{min(game.state['hands'][seat_of(game, player)])}"}]}


def test_it_makes_lists_and_revokes_named_tokens_and_keeps_only_their_hash(alice):
    one = _make(alice, "phone", ["read"])
    two = _make(alice, "bot", ["read", "play"], expires_in_days=30)
    listed = token_client(alice).get(TOKENS).json()
    assert [t["name"] for t in listed] == ["bot", "phone", "account token"]
    assert all("token" not in t for t in listed) and listed[0]["scopes"] == ["read", "play"]
    assert listed[0]["expires_at"] is not None and two.startswith(listed[0]["prefix"])
    with connection.cursor() as cur:
        cur.execute("SELECT * FROM tokens_apitoken")
        stored = repr(cur.fetchall())
    assert one not in stored and two not in stored
    assert hashlib.sha256(one.encode()).hexdigest() in stored

    assert _client(one).get("/api/v1/me/").status_code == 200
    r = token_client(alice).delete(f"{TOKENS}{listed[1]['id']}/")
    assert r.status_code == 204
    assert _client(one).get("/api/v1/me/").status_code == 401
    assert token_client(alice).delete(f"{TOKENS}{listed[1]['id']}/").status_code == 404
    assert [t["name"] for t in token_client(alice).get(TOKENS).json()] == ["bot", "account token"]


def test_a_read_token_reads_but_cannot_play_or_widen_itself(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    read = _client(_make(alice, "watcher", ["read"]))
    assert read.get(f"{GAMES}{game.pk}/view/").json()["seat"] == seat_of(game, alice)
    assert read.get(f"{GAMES}{game.pk}/options/").status_code == 200
    r = read.post(f"{GAMES}{game.pk}/moves/", _bid(game, alice), format="json")
    assert r.status_code == 403 and "'play'" in r.json()["message"], r.content
    assert read.post(TOKENS, {"name": "more", "scopes": ["play"]}, format="json").status_code == 403
    assert read.post("/api/v1/auth/token/", {}, format="json").status_code == 403
    assert read.patch("/api/v1/me/", {"display_name": "Ally"}, format="json").status_code == 403


def test_a_play_token_plays_and_reads_but_cannot_fetch_the_account_token(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    play = _client(_make(alice, "client", ["play"]))
    r = play.post(f"{GAMES}{game.pk}/moves/?wait=3", _bid(game, alice), format="json")
    assert r.status_code in (200, 202), r.content
    assert play.get("/api/v1/me/games/").status_code == 200
    assert play.post("/api/v1/auth/token/", {}, format="json").status_code == 403
    assert play.post(TOKENS, {"name": "mod", "scopes": ["moderate"]}, format="json").status_code == 403


def test_only_a_moderate_token_moderates(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    play = _client(_make(moderator, "desk", ["read", "play"]))
    r = play.post(f"{GAMES}{game.pk}/pause/", {"reason": "checking"}, format="json")
    assert r.status_code == 403 and "'moderate'" in r.json()["message"], r.content
    mod = _client(_make(moderator, "moderation", ["moderate"]))
    assert mod.post(f"{GAMES}{game.pk}/pause/", {"reason": "checking"}, format="json").status_code == 200
    assert mod.get(f"{GAMES}{game.pk}/audit/").status_code == 200
    r = token_client(alice).post(TOKENS, {"name": "x", "scopes": ["moderate"]}, format="json")
    assert r.status_code == 403 and "staff" in r.json()["message"]


def test_an_expired_token_is_refused(alice):
    token = _make(alice, "short", ["read"], expires_in_days=1)
    ApiToken.objects.filter(name="short").update(expires_at=timezone.now() - timedelta(seconds=1))
    r = _client(token).get("/api/v1/me/")
    assert r.status_code == 401 and "expired" in r.json()["message"]


def test_names_are_unique_among_live_tokens_and_scopes_are_checked(alice):
    _make(alice, "ci", ["read"])
    assert token_client(alice).post(TOKENS, {"name": "ci"}, format="json").status_code == 409
    assert token_client(alice).post(TOKENS, {"name": "x", "scopes": ["admin"]}, format="json").status_code == 400
    assert token_client(alice).post(TOKENS, {"name": "x", "scopes": []}, format="json").status_code == 400


def test_the_account_token_is_shown_again_until_rotated(alice):
    client = token_client(alice)
    first = client.post("/api/v1/auth/token/", {}, format="json").json()["token"]
    assert client.post("/api/v1/auth/token/", {}, format="json").json()["token"] == first
    rotated = _client(first).post("/api/v1/auth/token/", {"rotate": True}, format="json").json()["token"]
    assert rotated != first
    assert _client(first).get("/api/v1/me/").status_code == 401
    assert _client(rotated).get("/api/v1/me/").status_code == 200


@pytest.mark.django_db
def test_the_migration_moves_drf_keys_as_hashes_and_they_keep_working(alice):
    ApiToken.objects.all().delete()
    legacy = Token.objects.create(user=alice.user)
    key = legacy.key
    module = import_module("pbem.tokens.migrations.0002_move_drf_tokens")
    module.move_tokens(apps, None)
    assert not Token.objects.exists()
    row = ApiToken.objects.get(user=alice.user)
    assert row.digest == hashlib.sha256(key.encode()).hexdigest() and row.name == "token before scopes"
    assert _client(key).get("/api/v1/me/").json()["email"] == alice.email
