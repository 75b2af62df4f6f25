"""The other doors: admin actions, the game web page, the player and runall commands, throttling."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from pbem.api.views import GameMovesApi
from pbem.games import services
from pbem.games.management.commands.runall import PeriodicLoop, split_addr
from pbem.games.models import AuditEntry, Game, InboundMessage, OutboundMessage
from pbem.games.periodic import Job
from pbem.tokens.services import access_token
from tests.factories import start_game, token_client

# ---- admin ---------------------------------------------------------------------------------------


def test_admin_pause_and_resume_actions_call_the_services(fake_game, alice, bob, moderator, client):
    game = start_game(fake_game, alice, [bob])
    client.force_login(moderator.user)
    url = "/admin/games/game/"
    r = client.post(url, {"action": "pause_games", "_selected_action": [game.pk], "reason": "server move"},
                    follow=True)
    assert r.status_code == 200 and b"1 game paused." in r.content
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    entry = AuditEntry.objects.get(game=game, action="pause")
    assert entry.actor == moderator and entry.details["reason"] == "server move"
    r = client.post(url, {"action": "pause_games", "_selected_action": [game.pk], "reason": "again"}, follow=True)
    assert b"is not running" in r.content  # the service's refusal, shown as a warning
    client.post(url, {"action": "resume_games", "_selected_action": [game.pk], "reason": "done"}, follow=True)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING



def test_it_lets_a_moderator_replace_an_absent_player_in_the_admin(fake_game, alice, bob, moderator, client):
    game = start_game(fake_game, alice, [bob])
    bob_seat = game.seats.get(player=bob)
    old_token = bob_seat.token
    url = f"/admin/games/game/{game.pk}/replace/"
    client.force_login(alice.user)
    assert client.get(url).status_code == 302  # not staff: sent to the admin login
    client.force_login(moderator.user)
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert url in page
    r = client.post(url, {"seat": bob_seat.index, "email": "not-an-address", "reason": "away"})
    assert r.status_code == 200 and b"valid email" in r.content
    bob_seat.refresh_from_db()
    assert bob_seat.player == bob  # a bad form changes nothing
    r = client.post(url, {"seat": bob_seat.index, "email": "dora@example.org", "reason": "Bob is away for a month"},
                    follow=True)
    assert r.status_code == 200 and b"now belongs to dora@example.org" in r.content
    bob_seat.refresh_from_db()
    assert bob_seat.player is not None and bob_seat.player.email == "dora@example.org"
    assert bob_seat.token != old_token  # Bob's reply address stops working
    entry = AuditEntry.objects.get(game=game, action="replace")
    assert entry.actor == moderator and entry.details["reason"] == "Bob is away for a month"
    r = client.post(url, {"seat": bob_seat.index, "email": "alice@example.org", "reason": "twice"})
    assert b"plays in game" in r.content  # the service's refusal, shown on the form

def test_admin_pages_never_show_tokens_or_raw_mail_in_lists(fake_game, alice, bob, moderator, client):
    game = start_game(fake_game, alice, [bob])
    seat = game.seats.get(player=bob)
    InboundMessage.objects.create(message_id="<m1@example.org>", raw=f"To: seat-{seat.token}@x\n\nc1".encode(),
                                  mail_from=bob.email, rcpt_to=f"seat-{seat.token}@pbem.localhost", game=game)
    client.force_login(moderator.user)
    pages = ["/admin/games/game/", f"/admin/games/game/{game.pk}/change/", "/admin/games/seat/",
             f"/admin/games/seat/{seat.pk}/change/", "/admin/games/inboundmessage/",
             "/admin/games/outboundmessage/", f"/admin/games/outboundmessage/{OutboundMessage.objects.first().pk}/"
             "change/", "/admin/games/move/", "/admin/games/auditentry/", "/admin/games/player/"]
    for page in pages:
        r = client.get(page)
        assert r.status_code == 200, page
        assert seat.token.encode() not in r.content, page
    detail = client.get(f"/admin/games/inboundmessage/{InboundMessage.objects.get().pk}/change/")
    assert detail.status_code == 200 and b"seat-(token hidden)@" in detail.content
    assert seat.token.encode() not in detail.content
    assert game.seed.encode() not in client.get(f"/admin/games/game/{game.pk}/change/").content
    assert client.get("/admin/authtoken/tokenproxy/").status_code == 404  # API tokens are not listed either
    # Nothing is edited behind the services' back.
    assert client.get("/admin/games/game/add/").status_code == 403


# ---- the web page -----------------------------------------------------------------------------------


def test_the_game_page_shows_the_public_view_and_the_players_own(fake_game, alice, bob, client):
    game = start_game(fake_game, alice, [bob])
    hand = " ".join(str(c) for c in game.state["hands"][game.seats.get(player=alice).index])
    r = client.get(f"/games/{game.pk}/")
    assert r.status_code == 200 and b"<svg" in r.content and b"The table" in r.content
    assert b"Your hand" not in r.content and hand.encode() not in r.content
    client.force_login(alice.user)
    r = client.get(f"/games/{game.pk}/")
    assert b"Your view" in r.content and f"Your hand: {hand}".encode() in r.content
    assert b"Your options" in r.content
    assert client.get("/games/").status_code == 200
    assert client.get("/games/424242/").status_code == 404
    assert client.get("/").status_code == 200  # the home page, which links the games


def test_a_maretta_game_page_renders_for_players_and_spectators(alice, bob, carol, client):
    game = start_game("maretta", alice, [bob, carol], options={"side": "B"})
    assert client.get(f"/games/{game.pk}/").status_code == 200
    client.force_login(carol.user)
    r = client.get(f"/games/{game.pk}/")
    # two boards (the player's own and the table's), each drawn wide and for a phone
    assert r.status_code == 200 and b"Your view" in r.content and r.content.count(b"<svg") == 4


def test_an_open_game_page_says_it_waits(fake_game, alice, bob, client):
    game = services.do_create_game(alice, fake_game, invite=[bob.email])
    r = client.get(f"/games/{game.pk}/")
    assert r.status_code == 200 and b"starts when every seat is filled" in r.content


# ---- commands --------------------------------------------------------------------------------------------


def test_player_create_prints_a_working_token(db, fake_game):
    out, err = StringIO(), StringIO()
    call_command("player", "create", "Zoe@Example.org", "--name", "Zoë", stdout=out, stderr=err)
    token = out.getvalue().strip()
    assert access_token(token).user.player.display_name == "Zoë"
    assert "zoe@example.org" in err.getvalue()
    client = token_client()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert client.get("/api/v1/me/").json()["display_name"] == "Zoë"
    again = StringIO()
    call_command("player", "token", "zoe@example.org", stdout=again, stderr=StringIO())
    assert again.getvalue().strip() == token
    rotated = StringIO()
    call_command("player", "token", "zoe@example.org", "--rotate", stdout=rotated, stderr=StringIO())
    assert rotated.getvalue().strip() != token
    with pytest.raises(CommandError, match="exists already"):
        call_command("player", "create", "zoe@example.org", stdout=StringIO(), stderr=StringIO())
    with pytest.raises(CommandError, match="no player"):
        call_command("player", "token", "nobody@example.org", stdout=StringIO(), stderr=StringIO())


def test_player_create_with_a_password_allows_the_token_endpoint(db):
    out = StringIO()
    call_command("player", "create", "yan@example.org", "--password", "long enough pw", stdout=out, stderr=StringIO())
    r = token_client().post("/api/v1/auth/token/", {"email": "yan@example.org", "password": "long enough pw"},
                            format="json")
    assert r.status_code == 200 and r.json()["token"] == out.getvalue().strip()


def test_the_periodic_loop_runs_each_job_and_survives_failures(db, caplog):
    calls: list[str] = []

    def boom(now: object) -> None:
        calls.append("boom")
        raise RuntimeError("broken")

    import sys
    import types

    module = types.ModuleType("tests_periodic_fake")
    module.ok = lambda now: calls.append("ok")  # type: ignore[attr-defined]
    module.boom = boom  # type: ignore[attr-defined]
    sys.modules["tests_periodic_fake"] = module
    try:
        loop = PeriodicLoop((Job("ok", "tests_periodic_fake:ok", 60), Job("boom", "tests_periodic_fake:boom", 60),
                             Job("gone", "tests_periodic_fake:missing", 60)), tick=0.01)
        for j in loop.jobs:
            loop.run_once(j)
            loop.run_once(j)
        assert calls == ["ok", "ok", "boom", "boom"]
        assert loop.runs == {"ok": 2, "boom": 2, "gone": 1}  # an unavailable job is tried once, then skipped
        assert "periodic job boom failed" in caplog.text and "gone is unavailable" in caplog.text
    finally:
        del sys.modules["tests_periodic_fake"]


@pytest.mark.parametrize(("addr", "expected"), [("127.0.0.1:8000", ("127.0.0.1", 8000)),
                                                ("[::1]:2525", ("::1", 2525)), (":9000", ("127.0.0.1", 9000))])
def test_listen_addresses(addr, expected):
    assert split_addr(addr, "X") == expected


def test_a_bad_listen_address_is_refused():
    with pytest.raises(CommandError, match="HOST:PORT"):
        split_addr("localhost", "PBEM_HTTP_ADDR")


# ---- throttling -----------------------------------------------------------------------------------------


def test_moves_are_throttled_per_user(fake_game, alice, bob, monkeypatch):
    game = start_game(fake_game, alice, [bob])
    monkeypatch.setattr(GameMovesApi.throttle_classes[1], "THROTTLE_RATES", {"moves": "2/min", "user": "100/min"})
    client = token_client(alice)
    codes = [client.post(f"/api/v1/games/{game.pk}/moves/", {"commands": [{"code": "c99"}]}, format="json")
             for _ in range(3)]
    assert [r.status_code for r in codes] == [202, 202, 429]
    assert codes[2].json()["code"] == "throttled" and int(codes[2]["Retry-After"]) > 0
    assert token_client(bob).post(f"/api/v1/games/{game.pk}/moves/", {"commands": [{"code": "c99"}]},
                                  format="json").status_code == 202


def test_it_sets_the_password_of_a_player_who_came_by_mail(db, monkeypatch):
    """`player password EMAIL` (issue 29): a mail player gets a password, then a token for it."""
    services.do_get_or_create_player("mailonly@example.org")
    monkeypatch.setattr("sys.stdin", StringIO("a long enough pw\n"))  # not a terminal: read from stdin
    err = StringIO()
    call_command("player", "password", "mailonly@example.org", stdout=StringIO(), stderr=err)
    assert "password set" in err.getvalue()
    r = token_client().post("/api/v1/auth/token/", {"email": "mailonly@example.org", "password": "a long enough pw"},
                            format="json")
    assert r.status_code == 200 and r.json()["token"].startswith("pbem_")
    monkeypatch.setattr("sys.stdin", StringIO("short\n"))
    with pytest.raises(CommandError, match="at least 8 characters"):
        call_command("player", "password", "mailonly@example.org", stdout=StringIO(), stderr=StringIO())
    with pytest.raises(CommandError, match="no player"):
        call_command("player", "password", "nobody@example.org", stdout=StringIO(), stderr=StringIO())
