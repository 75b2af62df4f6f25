"""Limits that must not be a griefing tool, and doors that must not turn away what they may serve:
invitation caps per inviter (joiners of open seats are not invitations sent), a moderate-only token
reading public data, a staff account without a player, moderation bodies the schema allows."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from pbem.games import services
from pbem.games.models import AuditEntry, Game
from tests.factories import make_player, start_game, token_client

GAMES = "/api/v1/games/"


def _create(player, rules: str, invite: list[str], open_seats: int = 0):
    return token_client(player).post(GAMES, {"rules": rules, "invite": invite, "open_seats": open_seats},
                                     format="json")


def test_it_does_not_count_players_who_joined_open_seats_as_invitations(fake_game, alice):
    for g in range(9):  # 9 games, 3 open seats each, all taken by players who found them in the lobby
        r = _create(alice, fake_game, [], open_seats=3)
        assert r.status_code == 201, r.json()
        for i in range(3):
            services.do_join_game(r.json()["id"], make_player(f"joiner{g}.{i}@example.org", f"Joiner {'ABCDEFGHI'[g]}"))
    r = _create(alice, fake_game, [f"friend{i}@example.org" for i in range(3)])
    assert r.status_code == 201, r.json()
    for _ in range(5):  # 15 + 3 = 18 invitations
        assert _create(alice, fake_game, [f"f{_}.{i}@example.org" for i in range(3)]).status_code == 201
    r = _create(alice, fake_game, [f"last{i}@example.org" for i in range(3)])
    assert r.status_code == 429 and "have invited 18" in r.json()["message"]


def test_it_lets_strangers_not_block_a_friends_invitation(fake_game, alice, bob, carol, dave):
    target = make_player("target@example.org", "Target")
    start_game(fake_game, dave, [target])  # dave has played with the target
    strangers = [make_player(f"griefer{i}@example.org", f"Griefer {'ABCDEFGHIJKL'[i]}") for i in range(12)]
    codes = [_create(p, fake_game, [target.email]).status_code for p in strangers]
    assert codes[:3] == [201] * 3 and codes[-1] == 429  # strangers together are capped...
    assert _create(dave, fake_game, [target.email]).status_code == 201  # ...a co-player is not

    # one inviter cannot flood one address either
    other = "someone.new@example.org"
    assert [_create(alice, fake_game, [other]).status_code for _ in range(4)] == [201, 201, 201, 429]
    assert _create(bob, fake_game, [other]).status_code == 201  # alice's invitations do not block bob's


def test_it_lets_a_moderate_only_token_read_what_anonymous_clients_read(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    made = token_client(moderator).post("/api/v1/auth/tokens/", {"name": "mod", "scopes": ["moderate"]},
                                        format="json")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {made.json()['token']}")
    for path in (GAMES, f"{GAMES}{game.pk}/", f"{GAMES}{game.pk}/view/", f"{GAMES}{game.pk}/log/", "/api/v1/rules/"):
        r = client.get(path)
        assert r.status_code == 200, (path, r.json())
        assert r.json() == token_client().get(path).json(), path  # the public answer, nothing more
    assert client.get("/api/v1/me/").status_code == 403  # the account's own data needs read
    assert client.get(f"{GAMES}{game.pk}/audit/").status_code == 200
    assert client.post(f"{GAMES}{game.pk}/pause/", {"reason": "checking"}, format="json").status_code == 200


def test_it_answers_a_staff_account_without_a_player_with_403_not_401(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    admin = get_user_model().objects.create_user(username="root", email="root@example.org", is_staff=True)
    client = APIClient()
    client.force_authenticate(admin)
    for method, path, body in (("get", "/api/v1/me/", None), ("get", f"{GAMES}?mine=1", None),
                               ("post", GAMES, {"rules": fake_game}), ("post", f"{GAMES}{game.pk}/resign/", None),
                               ("post", "/api/v1/me/vacation/", {"until": None}),
                               ("get", "/api/v1/me/games/", None)):
        r = getattr(client, method)(path, body, format="json")
        assert r.status_code == 403, (path, r.status_code)
        assert "no player profile" in r.json()["message"]
    assert client.get(f"{GAMES}{game.pk}/view/").status_code == 200  # the spectator's view
    assert client.get(f"{GAMES}{game.pk}/audit/").status_code == 200


def test_it_answers_moderation_bodies_the_schema_allows_as_the_schema_says(fake_game, alice, bob, moderator):
    game = start_game(fake_game, alice, [bob])
    client = token_client(moderator)
    schema = client.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    commands = schema["components"]["schemas"]["MoveForSeatInRequest"]["properties"]["commands"]
    r = client.post(f"{GAMES}{game.pk}/move-for-seat/", {"seat": 0, "commands": [], "reason": "stuck"}, format="json")
    if commands.get("minItems", 0) >= 1:  # the schema refuses it: a clean 400
        assert r.status_code == 400 and r.json()["code"] == "invalid", r.json()
    else:
        assert r.status_code == 200, r.json()
    for reason in ("late\x07 again", "tab\tand\nnewline", "bell\x1b[31mred", "nul\x00"):
        r = client.post(f"{GAMES}{game.pk}/extend-deadline/", {"hours": 1, "reason": reason}, format="json")
        field = schema["components"]["schemas"]["ExtendDeadlineInRequest"]["properties"]["reason"]
        if "pattern" in field or r.status_code == 400:
            assert r.status_code == 400 and r.json()["code"] == "invalid", (reason, r.json())
            assert "pattern" in field, f"refused {reason!r} but the schema allows it"
        else:
            assert r.status_code == 200, (reason, r.json())
            entry = AuditEntry.objects.filter(game=game, action="extend").first()
            assert entry is not None and entry.details["reason"].isprintable()
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
