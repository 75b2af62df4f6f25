"""Undo through the API, and the staff-only moderation endpoints (pause, resume, replace, audit)."""

from __future__ import annotations

from pbem.games import moderation, services
from pbem.games.models import AuditEntry, Game, Move
from tests.factories import seat_of, start_game, token_client

GAMES = "/api/v1/games/"


def _bid(game: Game, player) -> None:
    """A move through the service (the API's move door is tested in test_play.py)."""
    game.refresh_from_db()
    card = game.state["hands"][seat_of(game, player)][0]
    services.do_submit_moves(game.pk, player, [services.Command(code=f"c{card}")], source="api")


def test_it_takes_back_the_players_own_move_through_the_api(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    before = game.state
    client = token_client(alice)
    _bid(game, alice)
    r = client.post(f"{GAMES}{game.pk}/undo/")
    assert r.status_code == 200, r.json()
    game.refresh_from_db()
    assert game.state == before and r.json()["version"] == game.version and r["ETag"] == game.etag
    log = token_client(alice).get(f"{GAMES}{game.pk}/log/").json()
    assert log["results"] == []  # the move taken back is not in the published log
    assert Move.objects.filter(game=game).count() == 1
    assert AuditEntry.objects.get(game=game, action="undo").details["via"] == "api"


def test_it_answers_409_when_the_move_cannot_be_taken_back(fake_game, alice, bob, dave):
    game = start_game(fake_game, alice, [bob])
    _bid(game, alice)
    r = token_client(bob).post(f"{GAMES}{game.pk}/undo/")
    assert r.status_code == 409 and "only your own last move" in r.json()["message"]
    assert token_client(dave).post(f"{GAMES}{game.pk}/undo/").status_code == 403
    assert token_client().post(f"{GAMES}{game.pk}/undo/").status_code == 401
    _bid(game, bob)  # the last bid of the round reveals them all
    r = token_client(bob).post(f"{GAMES}{game.pk}/undo/")
    assert r.status_code == 409 and "revealed information" in r.json()["message"]


def test_moderation_endpoints_are_for_staff_only(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    client = token_client(alice)
    for path, body in (("pause/", {"reason": "x"}), ("resume/", {"reason": "x"}),
                       ("replace/", {"seat": 0, "email": "nina@example.org", "reason": "x"})):
        r = client.post(f"{GAMES}{game.pk}/{path}", body, format="json")
        assert r.status_code == 403, path
        assert r.json()["code"] == "forbidden"
    assert client.get(f"{GAMES}{game.pk}/audit/").status_code == 403
    assert token_client().get(f"{GAMES}{game.pk}/audit/").status_code in (401, 403)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert not AuditEntry.objects.filter(game=game, action__in=["pause", "resume", "replace"]).exists()


def test_a_moderator_pauses_resumes_replaces_and_reads_the_audit_log(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    staff = token_client(moderator)
    r = staff.post(f"{GAMES}{game.pk}/pause/", {"reason": "dispute"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "paused"
    assert staff.post(f"{GAMES}{game.pk}/pause/", {"reason": "again"}, format="json").status_code == 409
    assert staff.post(f"{GAMES}{game.pk}/pause/", {}, format="json").status_code == 400
    r = staff.post(f"{GAMES}{game.pk}/resume/", {"reason": "settled"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "running"
    bob_seat = seat_of(game, bob)
    r = staff.post(f"{GAMES}{game.pk}/replace/", {"seat": bob_seat, "email": "nina@example.org",
                                                  "reason": "Bob is away"}, format="json")
    assert r.status_code == 200
    assert [s["name"] for s in r.json()["seats"] if s["index"] == bob_seat] == ["nina"]
    assert staff.post(f"{GAMES}{game.pk}/replace/", {"seat": 9, "email": "x@example.org", "reason": "?"},
                      format="json").status_code == 404
    audit = staff.get(f"{GAMES}{game.pk}/audit/")
    assert audit.status_code == 200
    entries = audit.json()["results"]
    assert [e["action"] for e in entries[:3]] == ["replace", "resume", "pause"]
    assert entries[0]["details"] == {"seat": bob_seat, "old": bob.email, "new": "nina@example.org",
                                     "reason": "Bob is away", "old_name": "Bob"}  # (the log names Bob's moves so)
    assert entries[0]["actor"] == moderator.email
    assert staff.get(f"{GAMES}999999/audit/").status_code == 404
    moderation.do_pause_game(game.pk, None, "by hand")  # a staff account without a player profile works too


def test_a_staff_account_without_a_player_profile_can_moderate(fake_game, alice, bob):
    from django.contrib.auth import get_user_model
    from rest_framework.test import APIClient

    game = start_game(fake_game, alice, [bob])
    admin = get_user_model().objects.create_user(username="root", email="root@example.org", is_staff=True)
    client = APIClient()
    client.force_authenticate(admin)
    r = client.post(f"{GAMES}{game.pk}/pause/", {"reason": "maintenance"}, format="json")
    assert r.status_code == 200
    entry = AuditEntry.objects.get(game=game, action="pause")
    # the account gets a player profile on its first act, so the audit names it
    assert entry.actor is not None and entry.actor.email == "root@example.org"
    assert entry.details == {"reason": "maintenance"}
