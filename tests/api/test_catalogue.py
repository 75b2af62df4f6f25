"""Content a front end can draw: each game's catalogue (cards, places, routes, tiles), cacheable and
versioned with the content, and every option's details in its terms, typed in the OpenAPI document."""

from __future__ import annotations

import random

from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource

from pbem.games import selectors, services
from pbem.games.models import Game
from tests.factories import player_at, start_game, token_client

CATALOGUE = "/api/v1/rules/maracaibo/catalogue/"


def _openapi() -> dict:
    return token_client().get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()


def _errors(openapi: dict, component: str, value) -> list[str]:
    registry = Registry().with_resource("urn:openapi", Resource.opaque(openapi))
    validator = OAS30Validator({"$ref": f"urn:openapi#/components/schemas/{component}"}, registry=registry)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]


def test_it_serves_maracaibos_catalogue_versioned_and_cacheable(db):
    client = token_client()
    r = client.get(CATALOGUE)
    assert r.status_code == 200
    body = r.json()
    assert body["game"] == "maracaibo" and len(body["version"]) == 16
    assert r["ETag"].startswith(f'"catalogue-{body["version"]}') and "public" in r["Cache-Control"]
    card = next(c for c in body["cards"] if c["name"] == "Red Gunner")
    assert card["cost"]["d"] == 2 and card["good"] == "cotton" and card["object"] == "spyglass"
    assert card["effects"] == [{"t": "income", "d": 1, "text": "+1 doubloon income"}]
    assert "Red Gunner" in card["text"]
    places = {p["id"]: p for p in body["places"]}
    assert places["H"]["name"] == "Havana" and {"from": "H", "to": "1"} in body["routes"]
    assert all(r["from"] in places and r["to"] in places for r in body["routes"])
    assert {"quests", "combat", "city_tiles", "prestige", "careers", "upgrades", "legacy"} <= set(body["tiles"])
    assert body["tiles"]["quests"][0]["text"]["cost"]
    # the Uprising's content (issue 20): its cards among the cards, its other tiles under "uprising"
    assert any(c.get("expansion") == "uprising" and c["text"] for c in body["cards"])
    assert {"city_tiles", "legacy", "quests", "career"} <= set(body["uprising"])
    again = client.get(CATALOGUE, HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304 and again.content == b""

    for name in ("maretta", "caravelas"):  # every game has one
        other = client.get(f"/api/v1/rules/{name}/catalogue/")
        assert other.status_code == 200 and other.json()["game"] == name and other.json()["version"]
    missing = client.get("/api/v1/rules/nosuchgame/catalogue/")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


def test_it_gives_every_option_what_it_does_in_the_catalogues_terms(alice, bob):
    game = start_game("maracaibo", alice, [bob], {"rounds": 1})
    catalogue = token_client().get(CATALOGUE).json()
    cards = {c["id"]: c for c in catalogue["cards"]}
    places = {p["id"]: p for p in catalogue["places"]}
    openapi = _openapi()
    kinds_seen: set[str] = set()
    rnd = random.Random(7)
    for _ in range(120):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            break
        seat = selectors.waiting_for(game)[0]
        player = player_at(game, seat)
        r = token_client(player).get(f"/api/v1/games/{game.pk}/options/")
        assert r.status_code == 200
        body = r.json()
        assert not _errors(openapi, "OptionsOut", body)
        for option in body["options"]:
            details = option["details"]
            assert not _errors(openapi, "MaracaiboOptionDetails", details), (option, details)
            kinds_seen.add(details["kind"])
            assert details["kind"] != "other", option
            if "card" in details:
                assert cards[details["card"]]["name"] in option["label"], option
            if "place" in details:
                assert places[details["place"]]["name"] in option["label"], option
            if details["kind"] in ("buy", "draw_display"):
                assert details["cost"]["d"] >= 0 and f"({details['cost']['d']} d" in option["label"], option
        code = rnd.choice(body["options"])["code"]
        services.do_submit_moves(game.pk, player, [services.Command(code=code)], source="api")
    assert {"sail", "buy", "plan", "keep"} <= kinds_seen, kinds_seen


def test_it_names_each_games_view_schema_and_option_kinds_in_the_openapi_document(db):
    openapi = _openapi()
    schemas = openapi["components"]["schemas"]
    assert {"MaracaiboView", "MarettaView", "CaravelasView"} <= set(schemas)
    details = schemas["MaracaiboOptionDetails"]
    assert "sail" in details["properties"]["kind"]["enum"] and "sail" in details["x-pbem-option-kinds"]
    assert {"$ref": "#/components/schemas/MaracaiboOptionDetails"} in schemas["OptionOut"]["properties"]["details"][
        "anyOf"]
    assert "/api/v1/rules/{name}/catalogue/" in openapi["paths"]


def test_it_gives_maretta_and_caravelas_options_their_details(alice, bob, carol):
    openapi = _openapi()
    for rules, options in (("maretta", {"side": "B"}), ("caravelas", {})):
        game = start_game(rules, alice, [bob, carol], options)
        catalogue = token_client().get(f"/api/v1/rules/{rules}/catalogue/").json()
        seat = selectors.waiting_for(game)[0]
        body = token_client(player_at(game, seat)).get(f"/api/v1/games/{game.pk}/options/").json()
        assert body["options"]
        for option in body["options"]:
            details = option["details"]
            assert not _errors(openapi, f"{rules.capitalize()}OptionDetails", details), (option, details)
            assert details["kind"] != "other", option
            if "card" in details and rules == "maretta":
                assert details["card"] in {c["id"] for c in catalogue["cards"]}
            if "place" in details:
                assert details["place"] in {p["id"] for p in catalogue["places"]}
