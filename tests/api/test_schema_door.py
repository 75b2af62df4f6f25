"""The door answers as the OpenAPI schema says (what schemathesis checks in CI, .ci/schemathesis):
400 for anything outside the schema, 422 for a request inside it that the game or the service
refuses, 415 for a body in another media type, never a silent default."""

from __future__ import annotations

import pytest

from tests.factories import seat_of, start_game, token_client

GAMES = "/api/v1/games/"


@pytest.mark.parametrize("query", ["status=", "mine=", "limit=abc", "limit=0", "offset=-1", "offset=null",
                                   "offset=10000000000000", "offset=0"])
def test_it_answers_400_to_a_list_query_outside_the_schema(alice, query):
    r = token_client(alice).get(f"{GAMES}?{query}")
    assert r.status_code == 400, r.content
    assert query.split("=")[0] in r.json()["message"]


@pytest.mark.parametrize("query", ["page_size=0", "page_size=null", "page_size=1.5"])
def test_it_answers_400_to_a_bad_log_page_size(fake_game, alice, bob, query):
    game = start_game(fake_game, alice, [bob])
    r = token_client(alice).get(f"{GAMES}{game.pk}/log/?{query}")
    assert r.status_code == 400 and "page_size" in r.json()["message"], r.content


def test_it_cuts_a_page_size_past_the_maximum_rather_than_refusing_it(alice):
    r = token_client(alice).get(f"{GAMES}?limit=100000")
    assert r.status_code == 200, r.content


def test_it_answers_422_to_a_schema_valid_request_the_service_refuses(fake_game, alice):
    client = token_client(alice)
    r = client.patch("/api/v1/me/", {"display_name": "R2D2"}, format="json")
    assert r.status_code == 422 and "digits" in r.json()["message"], r.content
    r = client.post("/api/v1/me/vacation/", {"until": "2000-01-01T00:00:00Z"}, format="json")
    assert r.status_code == 422 and "future" in r.json()["message"], r.content


def test_it_answers_422_when_only_one_of_email_and_password_comes(client):
    r = client.post("/api/v1/auth/token/", {"email": "alice@example.org"}, content_type="application/json")
    assert r.status_code == 422 and "both email and password" in r.json()["message"], r.content


def test_it_refuses_a_command_with_a_key_besides_its_kind(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    r = token_client(alice).post(f"{GAMES}{game.pk}/moves/", {"commands": [{"code": "c1", "x": 5}]},
                                 format="json")
    assert r.status_code == 400 and "unknown key 'x'" in r.json()["message"], r.content


def test_it_answers_415_not_500_to_plain_text_with_an_idempotency_key(alice):
    r = token_client(alice).generic("POST", GAMES, b'{"rules": "maretta"}', content_type="text/plain",
                                    headers={"Idempotency-Key": "k-1"})
    assert r.status_code == 415, r.content


def test_it_never_issues_a_token_for_a_body_it_could_not_parse_under_an_idempotency_key(alice):
    client = token_client(alice)
    r = client.generic("POST", "/api/v1/auth/token/", b'-`_\xd2\xad"\x7fZk', content_type="application/json",
                       headers={"Idempotency-Key": "k-2"})
    assert r.status_code == 400, r.content
    again = client.generic("POST", "/api/v1/auth/token/", b'-`_\xd2\xad"\x7fZk', content_type="application/json",
                           headers={"Idempotency-Key": "k-2"})
    assert again.status_code == 400 and "token" not in again.json(), again.content


@pytest.mark.parametrize("key", [" ", "a\x7f", "é", "x" * 256])
def test_it_refuses_an_idempotency_key_outside_its_pattern(fake_game, alice, bob, key):
    game = start_game(fake_game, alice, [bob])
    code = f"c{game.state['hands'][seat_of(game, alice)][0]}"
    r = token_client(alice).post(f"{GAMES}{game.pk}/moves/", {"commands": [{"code": code}]}, format="json",
                                 headers={"Idempotency-Key": key})
    assert r.status_code == 400 and "Idempotency-Key" in r.json()["message"], r.content


def test_it_answers_412_to_a_malformed_if_match(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    code = f"c{game.state['hands'][seat_of(game, alice)][0]}"
    r = token_client(alice).post(f"{GAMES}{game.pk}/moves/", {"commands": [{"code": code}]}, format="json",
                                 headers={"If-Match": "0"})
    assert r.status_code == 412 and r.json()["code"] == "stale", r.content
