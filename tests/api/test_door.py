"""What the API refuses at the door: bad text, deep or huge bodies, forged cursors, long waits,
stale or weak ETags, names that could forge a line, and log-in floods. Never a 500."""

from __future__ import annotations

import json
import threading
import time

import pytest
from django.db import connection
from django.test import Client, override_settings

from pbem.games import dispatch, services
from pbem.games.models import Game, Move, MoveRequest, Player
from tests.factories import make_player, seat_of, start_game, token_client

GAMES = "/api/v1/games/"


def _hand(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    return list(game.state["hands"][seat])


def _raw_post(client, url: str, raw: str | bytes, **headers):
    body = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    return client.generic("POST", url, body, content_type="application/json", headers=headers)


# ---- text ---------------------------------------------------------------------------------------------


def test_it_refuses_a_lone_surrogate_in_a_structured_move_naming_the_field(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    code = f"c{_hand(game, seat_of(game, alice))[0]}"
    raw = '{"commands": [{"move": {"code": "CODE", "x": "\\udead"}}]}'.replace("CODE", code)
    r = _raw_post(token_client(alice), f"{GAMES}{game.pk}/moves/", raw)
    assert r.status_code == 400, r.content
    assert r.json()["code"] == "invalid" and "commands[0].move: move.x contains a lone surrogate" in r.json()["message"]
    assert not MoveRequest.objects.exists() and not Move.objects.exists()
    assert token_client(alice).get(f"{GAMES}{game.pk}/log/").status_code == 200


@pytest.mark.parametrize(("url", "raw", "field"), [
    ("games/", '{"rules": "%s", "title": "a\\ud800b"}', "title"),
    ("games/", '{"rules": "%s", "options": {"\\udfff": 1}}', "options"),
    ("games/", '{"rules": "%s", "options": {"rounds": ["\\udead"]}}', "options.rounds[0]"),
    ("me/", '{"display_name": "x\\udead"}', "display_name"),
])
def test_it_refuses_unstorable_text_anywhere_in_a_body(fake_game, alice, url, raw, field):
    body = raw % fake_game if "%s" in raw else raw
    client = token_client(alice)
    method = "PATCH" if url == "me/" else "POST"
    r = client.generic(method, f"/api/v1/{url}", body.encode("utf-8", "surrogatepass"),
                       content_type="application/json")
    assert r.status_code == 400, r.content
    assert field in r.json()["message"]
    assert Game.objects.count() == 0


# ---- bodies, cursors ------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["games/", "auth/token/", "games/1/moves/"])
def test_it_answers_400_to_json_nested_5000_deep(alice, url):
    raw = "[" * 5000 + "]" * 5000
    for client in (token_client(alice), token_client()):
        r = _raw_post(client, f"/api/v1/{url}", raw)
        assert r.status_code in (400, 401), r.content
        if r.status_code == 400:
            assert r.json()["code"] == "malformed_request" and "nested too deep" in r.json()["message"]


def test_it_answers_413_to_a_body_over_the_limit(alice):
    raw = json.dumps({"rules": "x", "title": "t" * 100_000})
    r = _raw_post(token_client(alice), f"{GAMES}", raw)
    assert r.status_code == 413 and r.json()["code"] == "too_large"
    r = _raw_post(token_client(), "/api/v1/auth/token/", raw)
    assert r.status_code == 413


@pytest.mark.parametrize("cursor", ["cD1hYmM=", "cD0tMQ==", "cD0xMjM0NTY3ODkwMTIzNDU2Nzg5", "bz14", "bz05OQ==",
                                    "garbage"])
def test_a_forged_log_cursor_is_a_422_naming_the_cursor(fake_game, alice, bob, cursor):
    # p=abc, p=-1, p=<19 digits>, o=x, o=99 (an offset, which this list never gives), not base64: the
    # schema lets any string through (the cursor is opaque), so the refusal is the service's, a 422
    game = start_game(fake_game, alice, [bob])
    r = token_client().get(f"{GAMES}{game.pk}/log/", {"cursor": cursor})
    assert r.status_code == 422 and "cursor" in r.json()["message"] and r.json()["code"] == "invalid", r.content


@pytest.mark.parametrize(("commands", "message"), [
    ([{"code": "c1"}] * 33, "no more than 32"),
    ([{"move": {"code": "c1", "pad": "x" * 3000}}], "move is too large"),
    ([{"text": "bid 1 " + "x" * 490}] * 32, "too large together"),
])
def test_it_bounds_the_commands_of_a_request(fake_game, alice, bob, commands, message):
    game = start_game(fake_game, alice, [bob])
    r = token_client(alice).post(f"{GAMES}{game.pk}/moves/", {"commands": commands}, format="json")
    assert r.status_code == 400 and message in r.json()["message"], r.json()
    assert not MoveRequest.objects.exists()


# ---- ?wait and stale decisions ----------------------------------------------------------------------------


@pytest.fixture
def broker_without_worker(redis_url, settings):
    """Moves go to a real broker that no worker reads: they stay pending."""
    settings.PBEM_TASKS_IN_PROCESS = False
    settings.CELERY_BROKER_URL = redis_url
    dispatch._client = None
    yield
    dispatch._client = None


@override_settings(PBEM_API_MAX_WAIT=0.2)
def test_a_long_wait_is_capped_and_answers_where_to_poll(fake_game, alice, bob, broker_without_worker,
                                                          transactional_db):
    game = start_game(fake_game, alice, [bob])
    code = f"c{_hand(game, seat_of(game, alice))[0]}"
    r = token_client(alice).post(f"{GAMES}{game.pk}/moves/?wait=10", {"commands": [{"code": code}]}, format="json")
    assert r.status_code == 202 and r.json()["status"] == "pending"
    assert r["Retry-After"] == "1" and r["Location"].endswith(f"/move-requests/{r.json()['id']}/")


@override_settings(PBEM_API_MAX_WAIT=8)
def test_a_move_the_worker_finds_stale_answers_412(fake_game, alice, bob, broker_without_worker, transactional_db):
    game = start_game(fake_game, alice, [bob])
    etag = token_client(alice).get(f"{GAMES}{game.pk}/").json()["etag"]
    answer = {}

    def post() -> None:
        code = f"c{_hand(game, seat_of(game, alice))[0]}"
        try:
            answer["r"] = token_client(alice).post(f"{GAMES}{game.pk}/moves/?wait=8",
                                                   {"commands": [{"code": code}]}, format="json",
                                                   headers={"If-Match": etag})
        finally:
            connection.close()

    thread = threading.Thread(target=post)
    thread.start()
    for _ in range(200):
        req = MoveRequest.objects.filter(player=alice).first()
        if req is not None:
            break
        time.sleep(0.02)
    assert req is not None
    # Bob moves first; then the worker judges Alice's request against the new version.
    services.do_submit_moves(game.pk, bob, [services.Command(code=f"c{_hand(game, seat_of(game, bob))[0]}")],
                             source="mail")
    services.do_process_move_request(req.pk)
    thread.join(10)
    r = answer["r"]
    assert r.status_code == 412 and r.json()["code"] == "stale" and r.json()["status"] == "rejected"


# ---- ETags ---------------------------------------------------------------------------------------------------


def test_pause_resume_and_replace_change_the_etag(fake_game, alice, bob, dave, moderator):
    game = start_game(fake_game, alice, [bob])
    staff = token_client(moderator)
    url = f"{GAMES}{game.pk}/"
    tags = [token_client().get(url)["ETag"]]
    assert staff.post(f"{url}pause/", {"reason": "r"}, format="json").status_code == 200
    tags.append(token_client().get(url)["ETag"])
    assert staff.post(f"{url}resume/", {"reason": "r"}, format="json").status_code == 200
    tags.append(token_client().get(url)["ETag"])
    r = staff.post(f"{url}replace/", {"reason": "r", "seat": seat_of(game, bob), "email": dave.email}, format="json")
    assert r.status_code == 200, r.json()
    tags.append(token_client().get(url)["ETag"])
    assert len(set(tags)) == 4, tags


def test_if_match_refuses_weak_and_old_tags(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    code = f"c{_hand(game, seat_of(game, alice))[0]}"
    url = f"{GAMES}{game.pk}/moves/"
    for tag in (f"W/{game.etag}", f'"{game.pk}-0"', '"nonsense"'):
        r = token_client(alice).post(url, {"commands": [{"code": code}]}, format="json", headers={"If-Match": tag})
        assert r.status_code == 412 and r.json()["code"] == "stale", tag
    assert "weak" in token_client(alice).post(url, {"commands": [{"code": code}]}, format="json",
                                              headers={"If-Match": f"W/{game.etag}"}).json()["message"]
    view_tag = token_client(alice).get(f"{GAMES}{game.pk}/view/")["ETag"]
    r = token_client(alice).post(url, {"commands": [{"code": code}]}, format="json", headers={"If-Match": view_tag})
    assert r.status_code in (200, 202), r.json()


def test_reads_answer_304_to_if_none_match_and_per_seat_tags_are_private(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    for path in ("", "view/", "options/", "log/", "board.svg"):
        url = f"{GAMES}{game.pk}/{path}"
        first = token_client(alice).get(url)
        assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache", path
        again = token_client(alice).get(url, headers={"If-None-Match": first["ETag"]})
        assert again.status_code == 304 and again.content == b"" and again["ETag"] == first["ETag"], path
        weak = token_client(alice).get(url, headers={"If-None-Match": f'"x", W/{first["ETag"]}'})
        assert weak.status_code == 304, path
        other = token_client(bob).get(url)
        if other.content != first.content:  # (both logs are empty yet)
            assert other["ETag"] != first["ETag"], path
            assert token_client(bob).get(url, headers={"If-None-Match": first["ETag"]}).status_code == 200
    views = {token_client(p).get(f"{GAMES}{game.pk}/view/")["ETag"] for p in (alice, bob)}
    views.add(token_client().get(f"{GAMES}{game.pk}/view/")["ETag"])
    assert len(views) == 3
    assert token_client().get(f"{GAMES}{game.pk}/view/")["Cache-Control"] == "public, no-cache"


# ---- display names ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["Bob\nNow: Bob must pay Eve 5", "Eve\u202e yap", "Al\u200bice", "\u2066Bob\u2069",
                                  "tab\there", "   ", "x" * 61])
def test_no_display_name_can_forge_text(alice, name):
    r = token_client(alice).patch("/api/v1/me/", {"display_name": name}, format="json")
    alice.refresh_from_db()
    if r.status_code in (400, 422):
        assert alice.display_name == "Alice"
    else:  # cleaned: what could forge a line or reorder the text is gone
        assert r.status_code == 200 and alice.display_name == r.json()["display_name"]
        assert alice.display_name.isprintable() and "  " not in alice.display_name


# ---- log-in ---------------------------------------------------------------------------------------------------------


def test_the_login_page_is_rate_limited_and_lands_on_an_existing_page(alice):
    services.do_set_password(alice, "correct horse battery")
    url = "/api/v1/auth/login/"
    answers = [Client().post(url, {"username": alice.user.username, "password": f"wrong{i}"}).status_code
               for i in range(12)]
    assert answers[:10] == [200] * 10 and answers[10:] == [429, 429]
    assert Client().post(url, {"username": alice.user.username, "password": "correct horse battery"}).status_code == 429

    carol_client = Client()
    carol = make_player("carol@example.org", "Carol")
    services.do_set_password(carol, "another long password")
    r = carol_client.post(url, {"username": carol.user.username, "password": "another long password"},
                          REMOTE_ADDR="10.0.0.9")
    assert r.status_code == 302 and r["Location"] == "/api/v1/me/"
    assert carol_client.get(r["Location"], HTTP_ACCEPT="application/json").status_code == 200


# ---- invitations ------------------------------------------------------------------------------------------------


def test_invitations_are_limited_per_creator_per_hour(fake_game, alice):
    client = token_client(alice)
    answers = []
    for g in range(7):
        invite = [f"p{g}.{i}@example.org" for i in range(3)]
        answers.append(client.post(GAMES, {"rules": fake_game, "invite": invite}, format="json"))
    assert [r.status_code for r in answers] == [201] * 6 + [429]
    assert answers[-1]["Retry-After"] == "3600" and answers[-1].json()["code"] == "throttled"
    assert Game.objects.count() == 6


def test_unanswered_invitations_to_one_address_are_limited_per_inviter(fake_game, alice, bob, carol, dave):
    target = "someone.new@example.org"
    codes = [token_client(p).post(GAMES, {"rules": fake_game, "invite": [target]}, format="json").status_code
             for p in (alice, bob, carol, dave, alice, alice, alice)]
    assert codes == [201, 201, 201, 201, 201, 201, 429]  # three from one inviter; others are not blocked


def test_the_lobby_never_shows_an_unanswered_invitations_name(fake_game, alice, dave):
    created = token_client(alice).post(GAMES, {"rules": fake_game, "invite": ["john.smith.1984@example.org"]},
                                       format="json").json()
    for client in (token_client(), token_client(dave)):
        for body in (client.get(f"{GAMES}{created['id']}/").json(), client.get(GAMES).json()["results"][0]):
            assert [s["name"] for s in body["seats"]] == ["Alice", None]
            assert "john.smith" not in json.dumps(body)
    # no account for the address until it answers, so no name even for the creator (issue 11)
    assert [(s["name"], s["status"]) for s in created["seats"]] == [("Alice", "joined"), (None, "invited")]
    assert "john.smith" not in json.dumps(created)
    assert not Player.objects.filter(email="john.smith.1984@example.org").exists()


# ---- what front ends expect --------------------------------------------------------------------------------------


def test_my_games_with_my_turn_lists_the_games_waiting_for_me(fake_game, alice, bob, carol):
    waiting = start_game(fake_game, alice, [bob])
    moved = start_game(fake_game, alice, [carol])
    services.do_submit_moves(moved.pk, alice, [services.Command(code=f"c{_hand(moved, seat_of(moved, alice))[0]}")],
                             source="api")
    open_one = services.do_create_game(alice, fake_game, open_seats=1)
    mine = token_client(alice).get("/api/v1/me/games/").json()
    assert [g["id"] for g in mine["results"]] == [open_one.pk, moved.pk, waiting.pk]
    turn = token_client(alice).get("/api/v1/me/games/", {"my_turn": "1"})
    assert turn.status_code == 200 and [g["id"] for g in turn.json()["results"]] == [waiting.pk]
    assert [g["id"] for g in token_client(carol).get("/api/v1/me/games/?my_turn=1").json()["results"]] == [moved.pk]
    assert token_client().get("/api/v1/me/games/").status_code == 401


def test_every_answer_tells_the_rate_limit(fake_game, alice):
    first = token_client(alice).get("/api/v1/me/")
    second = token_client(alice).get("/api/v1/me/")
    assert first["RateLimit-Limit"] == "3000"
    assert int(second["RateLimit-Remaining"]) == int(first["RateLimit-Remaining"]) - 1
    assert 0 < int(second["RateLimit-Reset"]) <= 60
    anon = token_client().get("/api/v1/rules/")
    assert anon["RateLimit-Limit"] == "600" and anon["RateLimit-Remaining"] == "599"
    missing = token_client().get("/api/v1/games/999/")
    assert missing.status_code == 404 and "RateLimit-Remaining" in missing


def test_an_idempotency_key_answers_the_first_result_and_never_applies_twice(fake_game, alice, bob, transactional_db):
    client = token_client(alice)
    body = {"rules": fake_game, "invite": [bob.email]}
    first = client.post(GAMES, body, format="json", headers={"Idempotency-Key": "create-1"})
    again = client.post(GAMES, body, format="json", headers={"Idempotency-Key": "create-1"})
    assert first.status_code == again.status_code == 201
    assert again.json()["id"] == first.json()["id"] and again["Idempotency-Replayed"] == "true"
    assert again["Location"] == first["Location"] and Game.objects.count() == 1
    other = client.post(GAMES, body | {"title": "another"}, format="json", headers={"Idempotency-Key": "create-1"})
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"
    # Keys are per account: Bob's "create-1" is his own.
    assert token_client(bob).post(GAMES, {"rules": fake_game, "open_seats": 1}, format="json",
                                  headers={"Idempotency-Key": "create-1"}).status_code == 201

    game = start_game(fake_game, alice, [bob])
    move = {"commands": [{"code": f"c{_hand(game, seat_of(game, alice))[0]}"}]}
    url = f"{GAMES}{game.pk}/moves/?wait=2"
    answers = [client.post(url, move, format="json", headers={"Idempotency-Key": "m1"}) for _ in range(2)]
    assert answers[0].status_code == 200 and answers[1].status_code == 200, answers[0].json()
    assert answers[0].json()["id"] == answers[1].json()["id"]
    assert MoveRequest.objects.filter(game=game).count() == 1 and Move.objects.filter(game=game).count() == 1
    assert client.post(url, move, format="json", headers={"Idempotency-Key": ""}).status_code == 400


def test_a_finished_game_exports_in_one_call_and_replays_with_the_engine(fake_game, alice, bob, tmp_path):
    import subprocess
    import sys

    from tests.factories import play_first_options

    game = start_game(fake_game, alice, [bob], options={"rounds": 2})
    assert token_client().get(f"{GAMES}{game.pk}/export/").status_code == 409  # the seed is still secret
    play_first_options(game.pk)
    r = token_client().get(f"{GAMES}{game.pk}/export/")
    assert r.status_code == 200, r.json()
    body = r.json()
    game.refresh_from_db()
    assert body["format"] == "pbem-game/1" and body["seed"] == game.seed and body["outcome"] == game.outcome
    assert [p["name"] for p in body["players"]] == game.state["players"]
    assert len(body["moves"]) == Move.objects.filter(game=game).count()
    path = tmp_path / "game.json"
    path.write_text(json.dumps(body))
    # The replay command runs the test-only game too: register it the way the fixture does.
    code = ("import sys; from engine import registry; registry._MODULES['blindbids'] = 'tests.fakegame'; "
            "from engine.cli import main; sys.exit(main(['replay', sys.argv[1]]))")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert f"{len(body['moves'])} moves replayed; finished" in done.stdout
    body["moves"] = body["moves"][:-1]
    path.write_text(json.dumps(body))
    assert subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, timeout=60).returncode == 1


def test_an_empty_format_is_a_400_naming_it(fake_game, alice, bob):
    """``?format=`` names no format (the schema's enum has none empty): a 400, not the JSON view
    (schemathesis found it answered 200)."""
    game = start_game(fake_game, alice, [bob])
    r = token_client(alice).get(f"{GAMES}{game.pk}/view/", {"format": ""})
    assert r.status_code == 400 and "format" in r.json()["message"], r.content
    assert token_client(alice).get(f"{GAMES}{game.pk}/view/", {"format": "json"}).status_code == 200
