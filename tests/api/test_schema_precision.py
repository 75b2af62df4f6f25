"""The OpenAPI schema says what a front end needs to know, precisely (issue 11, "schema precision"):
the installed games as an enum, one of three command kinds, a batch's bounds, 429 and the
rate-limit headers on every operation, Idempotency-Key on every POST, JSON errors of the SVG
endpoint, and examples. schemathesis checks answers against the schema; this checks that the
schema keeps saying these things."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator

import engine
from pbem.api.serializers import MAX_COMMANDS


@pytest.fixture(scope="module")
def openapi() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def _operations(openapi: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(url, method, op) for url, path in openapi["paths"].items() for method, op in path.items()
            if isinstance(op, dict) and "responses" in op]


def test_it_names_the_installed_games_as_an_enum(openapi):
    schemas = openapi["components"]["schemas"]
    assert schemas["GameCreateInRequest"]["properties"]["rules"]["enum"] == engine.names()
    rules = next(p for p in openapi["paths"]["/api/v1/games/"]["get"]["parameters"] if p["name"] == "rules")
    assert rules["schema"]["enum"] == engine.names()


def test_a_command_is_one_of_three_kinds_and_a_batch_is_bounded(openapi):
    schemas = openapi["components"]["schemas"]
    kinds = schemas["CommandInRequest"]["oneOf"]
    assert [k["required"] for k in kinds] == [["code"], ["text"], ["move"]]
    assert all(k["additionalProperties"] is False for k in kinds)
    commands = schemas["MovesInRequest"]["properties"]["commands"]
    assert (commands["minItems"], commands["maxItems"]) == (1, MAX_COMMANDS)
    assert schemas["MovesInRequest"]["example"]["commands"] and schemas["GameCreateInRequest"]["example"]["rules"]


def test_every_operation_documents_429_and_the_rate_limit_headers(openapi):
    operations = _operations(openapi)
    assert len(operations) >= 40
    for url, method, op in operations:
        assert "Retry-After" in op["responses"]["429"]["headers"], (method, url)
        for code, answer in op["responses"].items():
            assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= set(answer["headers"]), \
                (method, url, code)


def test_every_post_takes_an_idempotency_key(openapi):
    posts = [(url, op) for url, method, op in _operations(openapi) if method == "post"]
    assert posts
    for url, op in posts:
        assert any(p["name"] == "Idempotency-Key" and p["in"] == "header" for p in op["parameters"]), url


def test_the_svg_endpoint_documents_its_errors_as_json(openapi):
    responses = openapi["paths"]["/api/v1/games/{game_id}/board.svg"]["get"]["responses"]
    assert "image/svg+xml" in responses["200"]["content"]
    for code in ("404", "409"):
        assert list(responses[code]["content"]) == ["application/json"], code
