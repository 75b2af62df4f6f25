"""Playing through the REST API: views, options, moves (202/wait/If-Match), move requests, the log."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from pbem.games import moderation, services
from pbem.games.models import Game, Move, MoveRequest
from tests.factories import seat_of, start_game, token_client

GAMES = "/api/v1/games/"


def _hand(game: Game, seat: int) -> list[int]:
    game.refresh_from_db()
    return list(game.state["hands"][seat])


def _post_moves(client, game: Game, commands, query: str = "", **headers):
    return client.post(f"{GAMES}{game.pk}/moves/{query}", {"commands": commands}, format="json", headers=headers)


# ---- views and options -------------------------------------------------------------------------


def test_a_player_sees_their_own_view_and_everyone_else_the_spectators(fake_game, alice, bob, dave):
    game = start_game(fake_game, alice, [bob])
    a = seat_of(game, alice)
    mine = token_client(alice).get(f"{GAMES}{game.pk}/view/")
    assert mine.status_code == 200 and mine["ETag"].startswith(game.etag[:-1] + "-")
    body = mine.json()
    assert body["seat"] == a and body["view"]["hand"] == _hand(game, a)
    assert "Your hand: " in body["text"]
    for client in (token_client(dave), token_client()):
        spectator = client.get(f"{GAMES}{game.pk}/view/").json()
        assert spectator["seat"] is None and "hand" not in spectator["view"]
        assert "Your hand" not in spectator["text"]


def test_the_view_renders_as_svg_and_text(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    client = token_client(alice)
    svg = client.get(f"{GAMES}{game.pk}/view/?format=svg")
    assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
    assert svg.content.startswith(b"<svg") and b"hand " in svg.content
    txt = client.get(f"{GAMES}{game.pk}/view/", HTTP_ACCEPT="text/plain")
    assert txt["Content-Type"].startswith("text/plain") and txt.content.decode().startswith("Round 1 of 3")
    board = token_client().get(f"{GAMES}{game.pk}/board.svg")
    assert board.status_code == 200 and board.content.startswith(b"<svg") and b"hand " not in board.content


def test_the_format_parameter_wins_over_the_accept_header(fake_game, alice, bob):
    """A client that sends ``Accept: application/json`` on every call (found by QA) still gets
    what ``?format=`` names, and ``board.svg`` is the picture whatever it accepts (it was a 406)."""
    game = start_game(fake_game, alice, [bob])
    client = token_client(alice)
    json_accept = {"HTTP_ACCEPT": "application/json"}
    svg = client.get(f"{GAMES}{game.pk}/view/?format=svg", **json_accept)
    assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")
    assert svg.content.startswith(b"<svg")
    txt = client.get(f"{GAMES}{game.pk}/view/?format=txt", **json_accept)
    assert txt.status_code == 200 and txt["Content-Type"].startswith("text/plain")
    assert txt.content.decode().startswith("Round 1 of 3")
    body = client.get(f"{GAMES}{game.pk}/view/?format=json", HTTP_ACCEPT="text/plain")
    assert body["Content-Type"] == "application/json" and body.json()["seat"] == seat_of(game, alice)
    board = client.get(f"{GAMES}{game.pk}/board.svg", **json_accept)
    assert board.status_code == 200 and board.content.startswith(b"<svg")
    pdf = client.get(f"{GAMES}{game.pk}/view/?format=pdf", **json_accept)  # it was a bare 404 "not found"
    assert pdf.status_code == 400 and pdf.json()["message"] == "format: 'pdf' is not a format of this resource: " \
        "json, svg, txt"
    assert client.get(f"{GAMES}{game.pk}/view/", **json_accept)["Content-Type"] == "application/json"


def test_a_game_that_has_not_started_has_no_view_yet(fake_game, alice, bob):
    game = services.do_create_game(alice, fake_game, invite=[bob.email])
    for path in ("view/", "view/?format=svg", "board.svg", "options/"):
        r = token_client(alice).get(f"{GAMES}{game.pk}/{path}")
        assert r.status_code == 409, path
        assert r["Content-Type"] == "application/json" and "has not started" in r.json()["message"]


def test_options_are_the_players_own(fake_game, alice, bob, dave):
    game = start_game(fake_game, alice, [bob])
    r = token_client(alice).get(f"{GAMES}{game.pk}/options/")
    assert r.status_code == 200
    body = r.json()
    assert body["your_turn"] is True and body["etag"] == game.etag
    assert [o["code"] for o in body["options"]] == [f"c{c}" for c in _hand(game, seat_of(game, alice))]
    assert body["options"][0]["move"] == {"code": body["options"][0]["code"]}
    assert token_client(dave).get(f"{GAMES}{game.pk}/options/").status_code == 403
    assert token_client().get(f"{GAMES}{game.pk}/options/").status_code == 401


# ---- moves -------------------------------------------------------------------------------------------


def test_a_move_is_accepted_through_a_move_request(fake_game, alice, bob, transactional_db):
    game = start_game(fake_game, alice, [bob])
    code = f"c{_hand(game, seat_of(game, alice))[0]}"
    client = token_client(alice)
    r = _post_moves(client, game, [{"code": code}])
    assert r.status_code == 202
    location = r["Location"]
    assert location == r.json()["url"] and "/api/v1/move-requests/" in location
    decided = client.get(location)
    assert decided.status_code == 200
    assert decided.json()["status"] == "accepted" and decided.json()["result_version"] == 2
    assert decided.json()["commands"] == [{"code": code}]
    # Only the poster sees their move requests.
    assert token_client(bob).get(location).status_code == 404


def test_waiting_for_the_decision_answers_200_or_422(fake_game, alice, bob, transactional_db):
    game = start_game(fake_game, alice, [bob])
    hand = _hand(game, seat_of(game, bob))
    r = _post_moves(token_client(bob), game, [{"text": f"bid {hand[0]}"}], "?wait=5")
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "accepted" and r["ETag"] == f'"{game.pk}-2"'
    r = _post_moves(token_client(bob), game, [{"move": {"code": f"c{hand[1]}"}}], "?wait=5")
    assert r.status_code == 422
    body = r.json()
    assert body["status"] == "rejected" and body["code"] == "not_your_turn"
    assert "it is not your turn" in body["message"] and body["reason"]["line"] == 1
    assert MoveRequest.objects.get(pk=body["id"]).status == MoveRequest.Status.REJECTED


def test_a_batch_is_all_or_nothing_through_the_api(fake_game, alice, bob, transactional_db):
    game = start_game(fake_game, alice, [bob])
    hand = _hand(game, seat_of(game, alice))
    r = _post_moves(token_client(alice), game, [{"code": f"c{hand[0]}"}, {"code": f"c{hand[1]}"}], "?wait=3")
    assert r.status_code == 422 and r.json()["reason"]["line"] == 2
    assert not Move.objects.filter(game=game).exists()
    game.refresh_from_db()
    assert game.version == 1


def test_if_match_guards_against_stale_moves(fake_game, alice, bob, transactional_db):
    game = start_game(fake_game, alice, [bob])
    etag = token_client(alice).get(f"{GAMES}{game.pk}/").json()["etag"]
    bid_b = f"c{_hand(game, seat_of(game, bob))[0]}"
    assert _post_moves(token_client(bob), game, [{"code": bid_b}], "?wait=3").status_code == 200
    bid_a = f"c{_hand(game, seat_of(game, alice))[0]}"
    r = _post_moves(token_client(alice), game, [{"code": bid_a}], "?wait=3", **{"If-Match": etag})
    assert r.status_code == 412 and r.json()["code"] == "stale"
    assert not MoveRequest.objects.filter(player=alice).exists()
    game.refresh_from_db()
    r = _post_moves(token_client(alice), game, [{"code": bid_a}], "?wait=3", **{"If-Match": game.etag})
    assert r.status_code == 200 and r.json()["result_version"] == 3
    r = _post_moves(token_client(bob), game, [{"code": f"c{_hand(game, 1 - seat_of(game, alice))[0]}"}],
                    "?wait=3", **{"If-Match": "*"})
    assert r.status_code == 200


@pytest.mark.parametrize(("body", "message"), [
    ({}, "commands: This field is required."),
    ({"commands": []}, "commands: This list may not be empty."),
    ({"commands": "c1"}, "commands: Expected a list of items"),
    ({"commands": [{}]}, "each command needs exactly one of code, text or move"),
    ({"commands": [{"code": "c1", "text": "bid 1"}]}, "exactly one of code, text or move"),
    ({"commands": [{"code": 5}]}, "commands[0].code: Not a valid string."),
    ({"commands": [{"move": "c1"}]}, "commands[0].move: Expected a dictionary"),
    ({"commands": [{"move": {"code": "c\u0000"}}]}, "move.code contains a NUL character"),
    ({"commands": [{"text": "x" * 501}]}, "no more than 500 characters"),
    ({"commands": [{"code": "c1"}] * 33}, "no more than 32 elements"),
])
def test_malformed_move_bodies_are_a_400(fake_game, alice, bob, body, message):
    game = start_game(fake_game, alice, [bob])
    r = token_client(alice).post(f"{GAMES}{game.pk}/moves/", body, format="json")
    assert r.status_code == 400, r.json()
    assert r.json()["code"] == "invalid" and message in r.json()["message"]
    assert not MoveRequest.objects.exists()


@pytest.mark.parametrize("wait", ["soon", "-1", "11", "nan"])
def test_a_bad_wait_is_a_400(fake_game, alice, bob, wait):
    game = start_game(fake_game, alice, [bob])
    r = _post_moves(token_client(alice), game, [{"code": "c1"}], f"?wait={wait}")
    assert r.status_code == 400 and r.json()["message"].startswith("wait:")


def test_only_seated_players_may_post_moves(fake_game, alice, bob, dave):
    game = start_game(fake_game, alice, [bob])
    assert _post_moves(token_client(), game, [{"code": "c1"}]).status_code == 401
    r = _post_moves(token_client(dave), game, [{"code": "c1"}])
    assert r.status_code == 403 and r.json() == {"code": "forbidden", "message": f"you do not play in game #{game.pk}"}
    r = token_client(alice).post(f"{GAMES}424242/moves/", {"commands": [{"code": "c1"}]}, format="json")
    assert r.status_code == 404


# ---- the log ---------------------------------------------------------------------------------------------


def test_the_log_is_redacted_per_seat_and_cursor_paginated(fake_game, alice, bob, dave, transactional_db):
    game = start_game(fake_game, alice, [bob], options={"rounds": 3})
    a, b = seat_of(game, alice), seat_of(game, bob)
    for _ in range(2):
        services.do_submit_moves(game.pk, alice, [services.Command(code=f"c{_hand(game, a)[0]}")], source="api")
        services.do_submit_moves(game.pk, bob, [services.Command(code=f"c{_hand(game, b)[0]}")], source="mail")
    url = f"{GAMES}{game.pk}/log/"
    first = token_client(alice).get(url, {"page_size": 3})
    assert first.status_code == 200 and first["ETag"].startswith(Game.objects.get(pk=game.pk).etag[:-1] + "-")
    page = first.json()
    assert [e["number"] for e in page["results"]] == [1, 2, 3] and page["previous"] is None
    rest = token_client(alice).get(page["next"]).json()
    assert [e["number"] for e in rest["results"]] == [4] and rest["next"] is None
    entries = page["results"] + rest["results"]
    own = [e for e in entries if e["seat"] == a]
    other = [e for e in entries if e["seat"] == b]
    assert all(e["move"] is not None for e in own) and all(e["move"] is None for e in other)
    assert {ev["kind"] for e in own for ev in e["events"]} >= {"choose", "choose_own"}
    assert all(ev["kind"] != "choose_own" for e in other for ev in e["events"])
    assert other[0]["source"] == "mail" and other[0]["player"] == "Bob"
    for client in (token_client(dave), token_client()):
        spectator = client.get(url).json()["results"]
        assert all(e["move"] is None for e in spectator)
        assert all(ev["kind"] != "choose_own" for e in spectator for ev in e["events"])
        assert any(ev["kind"] == "reveal" for e in spectator for ev in e["events"])
    assert token_client().get(url, {"cursor": "garbage"}).status_code == 422  # never given: refused


# ---- rules, me, tokens ------------------------------------------------------------------------------------


def test_the_log_names_who_held_the_seat_when_each_move_was_made(fake_game, alice, bob, dave,
                                                                 transactional_db):
    """Found by QA (#22): after a moderator's replacement the log named the newcomer for the moves
    the player replaced had made."""
    game = start_game(fake_game, alice, [bob], options={"rounds": 3})
    a, b = seat_of(game, alice), seat_of(game, bob)
    services.do_submit_moves(game.pk, alice, [services.Command(code=f"c{_hand(game, a)[0]}")], source="api")
    services.do_submit_moves(game.pk, bob, [services.Command(code=f"c{_hand(game, b)[0]}")], source="mail")
    moderation.do_replace_player(game.pk, None, b, dave, "bob is away")
    services.do_submit_moves(game.pk, alice, [services.Command(code=f"c{_hand(game, a)[0]}")], source="api")
    services.do_submit_moves(game.pk, dave, [services.Command(code=f"c{_hand(game, b)[0]}")], source="api")
    entries = token_client(alice).get(f"{GAMES}{game.pk}/log/").json()["results"]
    assert [(e["seat"], e["player"]) for e in entries] == [(a, "Alice"), (b, "Bob"), (a, "Alice"), (b, "Dave")]


def test_the_rules_catalogue_lists_option_schemas_and_notation(fake_game, db):
    r = token_client().get("/api/v1/rules/")
    assert r.status_code == 200
    by_name = {g["name"]: g for g in r.json()}
    assert {"maretta", "blindbids"} <= set(by_name)
    bids = by_name["blindbids"]
    assert (bids["min_players"], bids["max_players"]) == (2, 4)
    assert bids["options"][0] == {"name": "rounds", "type": "int", "default": 3, "help": "how many rounds are played",
                                  "min": 1, "max": 5}
    assert bids["options"][1]["choices"] == ["short", "long"]
    assert "code" in bids["notation_help"]
    maretta = token_client().get("/api/v1/rules/Maretta/").json()
    assert maretta["title"] == "Maretta" and any(o["name"] == "side" for o in maretta["options"])
    assert token_client().get("/api/v1/rules/chess/").status_code == 404


def test_me_shows_and_updates_preferences(alice):
    client = token_client(alice)
    me = client.get("/api/v1/me/").json()
    assert me["email"] == "alice@example.org" and me["mail_mode"] == "turn"
    r = client.patch("/api/v1/me/", {"mail_mode": "digest", "display_name": "Alice B."}, format="json")
    assert r.status_code == 200 and r.json()["mail_mode"] == "digest" and r.json()["display_name"] == "Alice B."
    back = (timezone.now() + timedelta(days=30)).replace(microsecond=0)
    r = client.patch("/api/v1/me/", {"vacation_until": back.isoformat()}, format="json")
    assert r.json()["vacation_until"] == back.isoformat().replace("+00:00", "Z") and r.json()["mail_mode"] == "digest"
    r = client.patch("/api/v1/me/", {"mail_mode": "never"}, format="json")
    assert r.status_code == 400 and "mail_mode" in r.json()["message"]
    r = client.patch("/api/v1/me/", {"display_name": "   "}, format="json")
    assert r.status_code == 400
    assert token_client().get("/api/v1/me/").status_code == 401


def test_tokens_for_email_and_password_or_for_the_logged_in_player(alice):
    services.do_set_password(alice, "correct horse battery")
    anon = token_client()
    r = anon.post("/api/v1/auth/token/", {"email": "ALICE@example.org", "password": "correct horse battery"},
                  format="json")
    assert r.status_code == 200
    token = r.json()["token"]
    assert token == services.do_issue_api_token(alice)
    r = anon.post("/api/v1/auth/token/", {"email": "alice@example.org", "password": "wrong"}, format="json")
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"
    r = anon.post("/api/v1/auth/token/", {"email": "nobody@example.org", "password": "whatever1"}, format="json")
    assert r.status_code == 401
    assert anon.post("/api/v1/auth/token/", {}, format="json").status_code == 401
    assert anon.post("/api/v1/auth/token/", {"email": "alice@example.org"}, format="json").status_code == 422
    mine = token_client(alice).post("/api/v1/auth/token/", {"rotate": True}, format="json")
    assert mine.status_code == 200 and mine.json()["token"] != token
    stale = token_client()
    stale.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert stale.get("/api/v1/me/").status_code == 401


def test_the_schema_and_docs_are_served(db):
    r = token_client().get("/api/v1/schema/")
    assert r.status_code == 200 and b"/api/v1/games/{game_id}/moves/" in r.content
    assert token_client().get("/api/v1/docs/").status_code == 200
