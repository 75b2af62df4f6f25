"""What a third-party front end, built from docs/api.md and the OpenAPI schema alone, tripped on."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from pbem.games.models import OutboundMessage
from tests.factories import start_game, token_client

ME = "/api/v1/me/"


def test_a_vacation_set_through_me_is_judged_and_told_as_through_me_vacation(fake_game, alice, bob):
    """``PATCH /me/ {"vacation_until": ...}`` stored any date, the past included (docs/api.md: a
    vacation in the past is a 422), and told nobody; it is the same vacation as ``POST /me/vacation/``."""
    game = start_game(fake_game, alice, [bob])
    client = token_client(bob)
    past = client.patch(ME, {"vacation_until": "2001-01-01T00:00:00Z"}, format="json")
    assert past.status_code == 422 and "future" in past.json()["message"]
    far = client.patch(ME, {"vacation_until": (timezone.now() + timedelta(days=800)).isoformat(),
                            "mail_mode": "every"}, format="json")
    assert far.status_code == 422 and "year" in far.json()["message"]
    bob.refresh_from_db()
    assert bob.vacation_until is None and bob.mail_mode != "every"  # a refused request changes nothing
    until = timezone.now() + timedelta(days=4)
    ok = client.patch(ME, {"vacation_until": until.isoformat()}, format="json")
    assert ok.status_code == 200 and ok.json()["vacation_until"] is not None
    assert OutboundMessage.objects.filter(to_email=alice.email, game=game,
                                          body_text__contains="Bob is on vacation").exists()
    back = client.patch(ME, {"vacation_until": None}, format="json")
    assert back.status_code == 200 and back.json()["vacation_until"] is None


def test_a_number_where_the_schema_says_string_is_the_clients_bug(fake_game, alice, bob):
    """DRF took ``{"rules": 5}`` as the game '5' (a 422: no game called '5') and ``{"code": 7}`` as
    the option '7' (a move request, rejected); the schema says string, so both are a 400 naming the field."""
    client = token_client(alice)
    for body, field in (({"rules": 5}, "rules"), ({"rules": fake_game, "title": 12, "open_seats": 1}, "title")):
        r = client.post("/api/v1/games/", body, format="json")
        assert r.status_code == 400 and r.json()["message"].startswith(f"{field}: "), r.json()
    game = start_game(fake_game, alice, [bob])
    for command in ({"code": 7}, {"text": 3.5}, {"code": True}):
        r = client.post(f"/api/v1/games/{game.pk}/moves/", {"commands": [command]}, format="json")
        assert r.status_code == 400 and r.json()["message"].startswith("commands[0]."), r.json()
    assert client.patch(ME, {"display_name": 42}, format="json").status_code == 400
    assert client.post("/api/v1/auth/tokens/", {"name": 1}, format="json").status_code == 400
    assert client.post("/api/v1/auth/token/", {"email": alice.email, "password": 12345678},
                       format="json").status_code == 400
