"""The OpenAPI schema documents each game's view (a component per game, from Rules.view_schema),
and the view endpoint's answers match it: every seat's and the spectator's."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource

import engine
from tests.factories import start_game, token_client


@pytest.fixture(scope="module")
def openapi() -> dict:
    return SchemaGenerator().get_schema(request=None, public=True)


def _validator(openapi: dict, component: str) -> OAS30Validator:
    registry = Registry().with_resource("urn:openapi", Resource.opaque(openapi))
    return OAS30Validator({"$ref": f"urn:openapi#/components/schemas/{component}"}, registry=registry)


def test_it_documents_a_view_component_per_game_told_apart_by_its_game(openapi):
    schemas = openapi["components"]["schemas"]
    view = schemas["GameViewOut"]["properties"]["view"]
    assert view["discriminator"]["propertyName"] == "game"
    assert set(view["discriminator"]["mapping"]) == set(engine.names())
    for name in engine.names():
        component = schemas[f"{name.capitalize()}View"]
        assert component["additionalProperties"] is False
        assert set(component["required"]) == set(engine.get(name).view_schema()["required"])


@pytest.mark.parametrize(("rules", "options"), [("maretta", {"side": "B"}), ("caravelas", None)])
def test_it_answers_views_that_match_the_documented_schema(openapi, client, alice, bob, carol, rules, options):
    game = start_game(rules, alice, [bob, carol], options=options)
    validator = _validator(openapi, "GameViewOut")
    answers = [token_client(p).get(f"/api/v1/games/{game.pk}/view/") for p in (alice, bob, carol)]
    answers.append(client.get(f"/api/v1/games/{game.pk}/view/"))
    for r in answers:
        assert r.status_code == 200, r.content
        errors = [e.message for e in validator.iter_errors(r.json())]
        assert not errors, errors[:3]
    assert {r.json()["seat"] for r in answers} == {0, 1, 2, None}
    broken = answers[0].json()
    del broken["view"]["players"]
    assert list(validator.iter_errors(broken))
