"""What a third-party front end, built from docs/api.md and the OpenAPI schema alone, tripped on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource

from pbem.games import services
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


def _openapi() -> dict:
    return token_client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _validator(openapi: dict, component: str) -> OAS30Validator:
    registry = Registry().with_resource("urn:openapi", Resource.opaque(openapi))
    return OAS30Validator({"$ref": f"urn:openapi#/components/schemas/{component}"}, registry=registry)


def test_every_read_with_an_etag_documents_if_none_match_and_its_304(alice, bob):
    """The reads answered a 304 the schema never named, to an If-None-Match it did not list: a client
    generated from the schema took the documented cache answer for an error."""
    openapi = _openapi()
    game = start_game("caravelas", alice, [bob])
    client = token_client(alice)
    tagged = set()
    for path, operations in openapi["paths"].items():
        get = operations.get("get")
        if get is None or "{campaign_id}" in path or "{request_id}" in path or path.endswith("/stream/"):
            continue
        url = path.replace("{game_id}", str(game.pk)).replace("{name}", "caravelas")
        first = client.get(url)
        documented = {p["name"] for p in get.get("parameters", [])} >= {"If-None-Match"} and "304" in get["responses"]
        if first.status_code == 200 and first.has_header("ETag"):
            tagged.add(get["operationId"])
            assert documented, get["operationId"]
            assert "ETag" in get["responses"]["200"]["headers"], get["operationId"]
            again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
            assert again.status_code == 304 and not again.content, url
        else:
            assert not documented, get["operationId"]
    assert {"games_view", "games_options", "games_board_svg", "rules_catalogue", "games_log"} <= tagged


def test_the_doors_own_answers_are_in_the_schema(alice, bob):
    """413 (too large), 415 (not JSON) and 406 (an Accept no renderer gives) are answers docs/api.md
    names; the schema listed none of them."""
    openapi = _openapi()
    game = start_game("caravelas", alice, [bob])
    client = token_client(alice)
    moves = f"/api/v1/games/{game.pk}/moves/"
    big = client.post("/api/v1/games/", '{"rules": "caravelas", "title": "' + "a" * 70_000 + '"}',
                      content_type="application/json")
    form = client.post(moves, "commands=1s1", content_type="application/x-www-form-urlencoded")
    png = client.get(f"/api/v1/games/{game.pk}/view/", HTTP_ACCEPT="image/png")
    for (path, method), answer, status in (
            (("/api/v1/games/", "post"), big, 413), (("/api/v1/games/{game_id}/moves/", "post"), form, 415),
            (("/api/v1/games/{game_id}/view/", "get"), png, 406)):
        assert answer.status_code == status and answer.json()["code"], answer.content
        documented = openapi["paths"][path][method]["responses"]
        assert str(status) in documented, (path, method, status)
    board = openapi["paths"]["/api/v1/games/{game_id}/board.svg"]["get"]["responses"]
    assert "406" not in board  # one format, whatever Accept says (pbem.api.negotiation)
    assert client.get(f"/api/v1/games/{game.pk}/board.svg", HTTP_ACCEPT="image/png").status_code == 200


def test_option_details_shared_by_two_games_match_the_schema(alice, bob):
    """Caravelas and Maracaibo both have a ``deliver`` option kind (and the games share ``move``, ``keep``,
    ``other``...): under a oneOf, ``{"kind": "deliver"}`` matched two components and every options answer
    that held one was outside the schema."""
    openapi = _openapi()
    game = start_game("caravelas", alice, [bob])
    body = token_client(alice).get(f"/api/v1/games/{game.pk}/options/").json()
    body["options"].append({"code": "deliver", "label": "deliver", "move": {"act": "deliver"},
                            "details": {"kind": "deliver"}})  # as Lisboa offers it (seen in a played game)
    errors = [e.message for e in _validator(openapi, "OptionsOut").iter_errors(body)]
    assert not errors, errors[:3]


def test_options_refuse_a_resigned_player_as_the_moves_do_and_in_the_readers_language(fake_game, alice, bob, carol):
    """After a resignation ``/moves/`` said "you resigned from game #N" and ``/options/`` "you do not play
    in game #N" (not true: Bob played), in English whatever Accept-Language asked."""
    game = start_game(fake_game, alice, [bob])
    client = token_client(bob)
    assert client.post(f"/api/v1/games/{game.pk}/resign/").status_code == 200
    for path in ("options/", "moves/"):
        method = client.get if path == "options/" else client.post
        body = {"commands": [{"code": "c1"}]} if path == "moves/" else None
        r = method(f"/api/v1/games/{game.pk}/{path}", body, format="json")
        assert r.status_code == 403 and r.json()["message"] == f"you resigned from game #{game.pk}", (path, r.json())
    pt = client.get(f"/api/v1/games/{game.pk}/options/", HTTP_ACCEPT_LANGUAGE="pt")
    assert pt.status_code == 403 and pt.json()["message"] == f"desistiu do jogo #{game.pk}"
    stranger = token_client(carol).get(f"/api/v1/games/{game.pk}/options/", HTTP_ACCEPT_LANGUAGE="pt")
    assert stranger.status_code == 403 and stranger.json()["message"] == f"não joga no jogo #{game.pk}"
    waiting = services.do_create_game(alice, fake_game, invite=[bob.email])
    early = token_client(alice).get(f"/api/v1/games/{waiting.pk}/options/", HTTP_ACCEPT_LANGUAGE="pt")
    assert early.status_code == 409 and early.json()["message"] == f"o jogo #{waiting.pk} ainda não começou"


@pytest.mark.django_db(transaction=True)  # ?wait= sees the worker's decision, committed
def test_null_where_the_schema_says_nullable_passes_a_strict_validator(fake_game, alice, bob):
    """``reason`` (null for every accepted move request) was ``{"allOf": [RejectionOut], "nullable": true}``:
    under OpenAPI 3.0.3 ``nullable`` without a ``type`` adds nothing, so a strict validator (a generated
    client's) refused every accepted move; the same for an option's ``details``."""
    openapi = _openapi()
    game = start_game(fake_game, alice, [bob])
    mover = next(p for p in (alice, bob) if token_client(p).get(f"/api/v1/games/{game.pk}/options/").json()["options"])
    client = token_client(mover)
    code = client.get(f"/api/v1/games/{game.pk}/options/").json()["options"][0]["code"]
    accepted = client.post(f"/api/v1/games/{game.pk}/moves/?wait=5", {"commands": [{"code": code}]}, format="json")
    assert accepted.status_code == 200 and accepted.json()["reason"] is None
    assert not [e.message for e in _validator(openapi, "MoveRequestOut").iter_errors(accepted.json())]
    option = {"code": "x", "label": "x", "move": {}, "details": None}  # a game without a catalogue
    assert not [e.message for e in _validator(openapi, "OptionOut").iter_errors(option)]
    refused = client.post(f"/api/v1/games/{game.pk}/moves/?wait=5", {"commands": [{"code": "zz"}]}, format="json")
    assert refused.status_code == 422 and refused.json()["reason"]["code"]
    assert not [e.message for e in _validator(openapi, "MoveRequestOut").iter_errors(refused.json())]
    bad = dict(refused.json(), reason={"code": 5})  # and the reason is still checked when it is there
    assert [e.message for e in _validator(openapi, "MoveRequestOut").iter_errors(bad)]


def test_a_401_names_an_authorization_scheme_the_api_does_not_take(alice):
    """``Authorization: Basic ...`` (email and password, as many APIs take them) was answered
    "Authentication credentials were not provided." A read stays open (a proxy's Basic passes)."""
    client = token_client()
    client.credentials(HTTP_AUTHORIZATION="Basic YWxpY2U6cGFzc3dvcmQ=")
    r = client.get(ME)
    assert r.status_code == 401 and r.json()["message"].startswith("Authorization: Basic is not taken here: send "
                                                                   "Authorization: Token <token>"), r.json()
    assert r["WWW-Authenticate"] == "Token"
    assert client.get("/api/v1/rules/").status_code == 200
    assert token_client().get(ME).json()["message"] == "Authentication credentials were not provided."


def test_a_move_before_the_start_says_the_game_has_not_started(fake_game, alice, bob, carol):
    """Alice, who created the game and sits in it, was told "you do not play in game #N" (403), for a
    move as for an extension."""
    game = services.do_create_game(alice, fake_game, invite=[bob.email])
    moves = f"/api/v1/games/{game.pk}/moves/"
    r = token_client(alice).post(moves, {"commands": [{"code": "c1"}]}, format="json")
    assert r.status_code == 409 and r.json() == {"code": "conflict", "message": f"game #{game.pk} has not started"}
    assert "409" in _openapi()["paths"]["/api/v1/games/{game_id}/moves/"]["post"]["responses"]
    extend = token_client(alice).post(f"/api/v1/games/{game.pk}/extend/")
    assert extend.status_code == 409 and extend.json()["message"] == f"game #{game.pk} has not started"
    stranger = token_client(carol).post(moves, {"commands": [{"code": "c1"}]}, format="json")
    assert stranger.status_code == 403 and "do not play" in stranger.json()["message"]
