"""OpenAPI post-processing: what drf-spectacular cannot infer from the serializers.

* ``429`` on every operation (every view is throttled) with its ``Retry-After``;
* the ``RateLimit-*`` headers on every answer; ``Idempotency-Key`` on every POST;
* ``Accept-Language`` on every operation and ``Content-Language`` on every answer (issue 27);
* an ``enum`` of the installed games for ``rules``; ``oneOf`` for the three kinds of command,
  and ``minItems``/``maxItems`` for a batch;
* examples for the bodies a front end sends most;
* each installed game's view schema (``Rules.view_schema``, JSON Schema 2020-12) as a component
  ``<Game>View`` in OpenAPI 3.0's dialect, and the view endpoint's ``view`` as a ``oneOf`` of them
  told apart by the view's ``game``;
* each game's option details (``Rules.option_details_schema``) as ``<Game>OptionDetails`` with its option
  kinds, and an option's ``details`` as any of them;
* the conditional reads (``ETag``, ``If-None-Match``, ``304``) and the door's own answers a client meets
  without a bug of the game's: ``406`` (an ``Accept`` no renderer gives), ``413`` and ``415`` (a body).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

import engine
from pbem.api.idempotency import KEY_PATTERN
from pbem.api.pagination import GAME_CURSOR
from pbem.api.serializers import MAX_COMMANDS, STREAM_EVENTS, STREAM_LINES

#: Bounds of the paging parameters, as pbem.api.pagination enforces them.
_PAGING: dict[str, dict[str, Any]] = {
    "limit": {"type": "integer", "minimum": 1},
    "page_size": {"type": "integer", "minimum": 1},
    "cursor": {"type": "string", "pattern": f"^{GAME_CURSOR.pattern}$"},
}
#: The operations paged by pbem.api.pagination.GamePagination (keyset cursors of their own).
_GAME_LISTS = ("games_list", "me_games_list", "campaigns_list")

_RATE_HEADERS = {
    "RateLimit-Limit": {"schema": {"type": "integer"}, "description": "requests allowed in the current window"},
    "RateLimit-Remaining": {"schema": {"type": "integer"}, "description": "requests left in the current window"},
    "RateLimit-Reset": {"schema": {"type": "integer"}, "description": "seconds until the window resets"},
}

_IDEMPOTENCY = {
    "in": "header", "name": "Idempotency-Key", "required": False,
    "schema": {"type": "string", "minLength": 1, "maxLength": 255, "pattern": KEY_PATTERN},
    "description": "any unique string (a UUID): sending the same request again with the same key answers the "
                   "first result (with `Idempotency-Replayed: true`) and never applies it twice; kept for a day",
}

_ACCEPT_LANGUAGE = {
    "in": "header", "name": "Accept-Language", "required": False, "schema": {"type": "string"},
    "description": "the language of the answer's human messages (refusals, option labels, events): `en` or `pt` "
                   "(`pt-BR,pt;q=0.9` reads as `pt`). Without it, the language of the signed-in player's own "
                   "setting (`language` in /me/), else English; sent, it wins over the setting for this request.",
}
_CONTENT_LANGUAGE = {"schema": {"type": "string", "enum": [code for code, _name in settings.LANGUAGES]},
                     "description": "the language the answer's human messages are in"}

_COMMAND_KINDS = {
    "code": {"type": "string", "minLength": 1, "maxLength": 100, "pattern": r"\S",
             "description": "an option code from /options/"},
    "text": {"type": "string", "minLength": 1, "maxLength": 500, "pattern": r"\S",
             "description": "a line of the game's notation"},
    "move": {"type": "object", "additionalProperties": {},
             "description": "a structured move, as in an option's `move` (no NUL characters in its strings)"},
}


#: The reads answered with an ETag (pbem.api.views._conditional): ``If-None-Match`` makes them a bodiless 304.
CONDITIONAL_READS = frozenset({
    "auth_tokens_list", "games_list", "games_retrieve", "games_view", "games_board_svg", "games_options",
    "games_log", "me_games_list", "me_webhooks_list", "rules_list", "rules_retrieve", "rules_catalogue"})

_IF_NONE_MATCH = {
    "in": "header", "name": "If-None-Match", "required": False, "schema": {"type": "string"},
    "description": "the `ETag` of your last answer (a list, `W/` tags and `*` as RFC 9110 says): unchanged, the "
                   "answer is a `304` without a body",
}
_VALIDATORS = {
    "ETag": {"schema": {"type": "string"}, "description": "this very answer's tag (for a game: "
             "`\"<game id>-<version>-<digest>\"`, its `\"<game id>-<version>\"` part good as If-Match)"},
    "Cache-Control": {"schema": {"type": "string"}, "description": "`private, no-cache` for a signed-in client, "
                      "else `public, no-cache`"},
}


def _error(description: str) -> dict[str, Any]:
    return {"description": description,
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}}}


def _door_answers(operation: dict[str, Any], method: str, negotiated: bool) -> None:
    """What the door answers before the view runs, on every operation it can (docs/api.md, Errors):
    a client generated from the schema otherwise meets statuses the schema never named."""
    responses = operation["responses"]
    if negotiated:
        responses.setdefault("406", _error("no answer in a format the Accept header takes (`?format=` names one)"))
    if "requestBody" in operation:
        responses.setdefault("413", _error("the body is larger than the server takes (PBEM_API_MAX_BODY, 64 KB)"))
        responses.setdefault("415", _error("the body is not `application/json`"))
    if method == "get" and operation.get("operationId") in CONDITIONAL_READS:
        params = operation.setdefault("parameters", [])
        if not any(p.get("name") == "If-None-Match" for p in params):
            params.append(dict(_IF_NONE_MATCH))
        for code, answer in responses.items():
            if code == "200":
                answer.setdefault("headers", {}).update(_VALIDATORS)
        responses.setdefault("304", {"description": "not modified: the `If-None-Match` tag is this answer's; "
                                                    "no body", "headers": dict(_VALIDATORS)})


def _negotiated(generator: Any) -> dict[tuple[str, str], bool]:
    """(path, method) -> whether the view picks among several renderers (else it answers its one
    format whatever Accept says, pbem.api.negotiation)."""
    out: dict[tuple[str, str], bool] = {}
    for path, _regex, method, callback in getattr(generator, "endpoints", None) or []:
        renderers = getattr(getattr(callback, "cls", None), "renderer_classes", None) or [None, None]
        out[(path, method.lower())] = len(renderers) > 1
    return out


#: null, as OpenAPI 3.0.3 lets a schema say it: ``nullable`` counts only beside a ``type`` of its own.
_NULL = {"type": "object", "nullable": True, "enum": [None]}


def _nullable_composites(node: Any) -> None:
    """``{"allOf": [ref], "nullable": true}`` (drf-spectacular's nullable reference) refuses null under
    OpenAPI 3.0.3 (``nullable`` without a ``type`` adds nothing; a strict validator, as a generated
    client has, refused every accepted move request's ``"reason": null``): null becomes a member."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
            continue
        if not isinstance(item, dict):
            continue
        kind = next((k for k in ("allOf", "anyOf", "oneOf") if k in item), None)
        if kind and item.get("nullable") and "type" not in item and (kind != "allOf" or len(item[kind]) == 1):
            members = item.pop(kind)
            del item["nullable"]
            item["oneOf" if kind == "oneOf" else "anyOf"] = [*members, dict(_NULL)]
        stack.extend(item.values())


def _component(serializer: type[Any]) -> str:
    return serializer.__name__


#: One server-sent event of a stream (pbem.api.streams): its id is the cursor to resume from; its data
#: the JSON text of the payload whose component ``x-pbem-data`` names for each kind.
_SSE_EVENT = {
    "type": "object",
    "description": "one event: `data` is the JSON text of its payload, typed per `event` by the component "
                   "`x-pbem-data` names (StreamStateOut, StreamHelloOut, StreamMoveOut, StreamGameOut)",
    "properties": {
        "id": {"type": "string", "pattern": r"^[0-9]{1,18}\.[0-9]{1,18}$"},
        "event": {"type": "string", "enum": list(STREAM_EVENTS)},
        "data": {"type": "string"},
        "retry": {"type": "integer"},
    },
    "x-pbem-data": {kind: {"$ref": f"#/components/schemas/{_component(ser)}"} for kind, ser in STREAM_EVENTS.items()},
}


def _close_stream_components(schemas: dict[str, Any]) -> None:
    """Every stream payload has a fixed shape: no key beyond those documented."""
    for ser in (*STREAM_EVENTS.values(), *STREAM_LINES.values()):
        for name in (_component(ser), _component(ser).removesuffix("Out")):
            if name in schemas:
                schemas[name]["additionalProperties"] = False


def _installed_rules() -> list[str]:
    names = []
    for name in engine.names():
        try:
            engine.get(name)
        except ModuleNotFoundError:
            continue
        names.append(name)
    return names


def _openapi30(schema: Any) -> Any:
    """A JSON Schema 2020-12 (as the games declare their views) in OpenAPI 3.0's dialect:
    ``type: [t, "null"]`` becomes ``nullable``, several types an ``anyOf``, ``const`` an ``enum``."""
    if isinstance(schema, list):
        return [_openapi30(x) for x in schema]
    if not isinstance(schema, dict):
        return schema
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "$schema":
            continue
        if key == "const":
            out["enum"] = [value]
        elif key in ("properties", "patternProperties"):
            out[key] = {k: _openapi30(v) for k, v in value.items()}
        else:
            out[key] = _openapi30(value)
    types = out.get("type")
    if isinstance(types, list):
        rest = [t for t in types if t != "null"]
        if len(rest) < len(types):
            out["nullable"] = True
        if len(rest) == 1:
            out["type"] = rest[0]
        else:
            del out["type"]
            out["anyOf"] = [{"type": t} for t in rest]
    if None in out.get("enum", ()):
        out["nullable"] = True
    return out


def _view_components(schemas: dict[str, Any], names: list[str]) -> None:
    """One component per installed game's view; GameViewOut's ``view`` one of them."""
    refs: dict[str, str] = {}
    for name in names:
        declared = engine.get(name).view_schema()
        component = f"{name.capitalize()}View"
        schemas[component] = _openapi30({k: v for k, v in declared.items() if k != "title"})
        refs[name] = f"#/components/schemas/{component}"
    view = schemas.get("GameViewOut", {}).get("properties", {}).get("view")
    if view is None or not refs:
        return
    choice: dict[str, Any] = {
        "oneOf": [{"$ref": ref} for ref in refs.values()],
        "description": "the engine's view for this seat: exactly what it may know; its shape is the game's "
                       "(`game` names it)",
    }
    if all("game" in schemas[ref.rsplit("/", 1)[1]].get("required", ()) for ref in refs.values()):
        choice["discriminator"] = {"propertyName": "game", "mapping": refs}
    schemas["GameViewOut"]["properties"]["view"] = choice


def _option_details_components(schemas: dict[str, Any], names: list[str]) -> None:
    """One component per game that says what its options do (``Rules.option_details_schema``):
    ``<Game>OptionDetails``, its ``kind`` an enum of the game's option kinds (described in
    ``x-pbem-option-kinds``); OptionOut's ``details`` one of them, or null."""
    refs = []
    for name in names:
        rules = engine.get(name)
        declared = rules.option_details_schema()
        if declared is None:
            continue
        component = f"{name.capitalize()}OptionDetails"
        schemas[component] = _openapi30({k: v for k, v in declared.items() if k != "title"})
        kinds = (rules.catalogue() or {}).get("option_kinds")
        if kinds:
            schemas[component]["x-pbem-option-kinds"] = kinds
        refs.append(f"#/components/schemas/{component}")
    details = schemas.get("OptionOut", {}).get("properties", {}).get("details")
    if details is None or not refs:
        return
    # Why anyOf: the games share kinds (``move``, ``keep``, ``deliver``, ``other``...), so a detail such
    # as {"kind": "deliver"} matches two components and a oneOf refused the answers the server gives.
    schemas["OptionOut"]["properties"]["details"] = {
        "anyOf": [{"$ref": ref} for ref in refs], "nullable": True,
        "description": details.get("description", "") + " (the game's component names every kind; the "
                                                         "game's `rules` says which one applies)"}


def postprocess(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    negotiated = _negotiated(generator)
    for url, path in result.get("paths", {}).items():
        for method, operation in path.items():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            responses = operation["responses"]
            responses.setdefault("429", {
                "description": "too many requests; wait `Retry-After` seconds",
                "headers": {"Retry-After": {"schema": {"type": "integer"}}},
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
            })
            # Why also here: an operation that lists 429 itself (its own description) still says when to retry.
            responses["429"].setdefault("headers", {}).setdefault("Retry-After", {"schema": {"type": "integer"}})
            responses.setdefault("403", {
                "description": "not allowed: for this player, or outside the token's scopes (read, play, moderate)",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
            })
            for param in operation.get("parameters", []):
                if param.get("in") == "query" and param.get("name") in _PAGING:
                    if param["name"] == "cursor" and operation.get("operationId") not in _GAME_LISTS:
                        continue  # the move log's cursor is DRF's (base64)
                    param["schema"] = dict(_PAGING[param["name"]])
            if method != "get" or any(p.get("in") != "path" for p in operation.get("parameters", [])):
                # Why on each: 400 is the answer to anything outside this schema, 422 to a request
                # inside it that the game or the service refuses (see errors._semantic).
                responses.setdefault("400", {
                    "description": "the request does not match this schema (the message names the field)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                })
                responses.setdefault("422", {
                    "description": "the request matches the schema but the game or the service refuses it "
                                   "(the message says why)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                })
            if method == "post":
                params = operation.setdefault("parameters", [])
                if not any(p.get("name") == "Idempotency-Key" for p in params):
                    params.append(dict(_IDEMPOTENCY))
                responses.setdefault("400", {
                    "description": "the request is malformed or invalid (a bad Idempotency-Key, say)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                })
                responses.setdefault("422", {
                    "description": "the Idempotency-Key was used before for another request (or the batch was "
                                   "rejected, for moves)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorOut"}}},
                })
            # Why after the 400s: If-None-Match, a header, is no parameter a client can get wrong.
            _door_answers(operation, method, negotiated.get((url, method), True))
            params = operation.setdefault("parameters", [])
            if not any(p.get("name") == "Accept-Language" for p in params):
                params.append(dict(_ACCEPT_LANGUAGE))
            # Last, so that every answer added above tells the budget and its language too.
            for answer in responses.values():
                answer.setdefault("headers", {}).update(_RATE_HEADERS)
                answer["headers"]["Content-Language"] = dict(_CONTENT_LANGUAGE)
    moves = result.get("paths", {}).get("/api/v1/games/{game_id}/moves/", {}).get("post", {})
    rejected = moves.get("responses", {}).get("422", {}).get("content", {}).get("application/json")
    if rejected is not None:
        # Why anyOf: a batch judged and rejected answers its move request; a request refused before
        # it is judged (an Idempotency-Key reused, a game not running) the plain error.
        rejected["schema"] = {"anyOf": [{"$ref": "#/components/schemas/MoveRequestOut"},
                                        {"$ref": "#/components/schemas/ErrorOut"}]}
    for url, path in result.get("paths", {}).items():
        if url.endswith("/stream/"):
            content = path.get("get", {}).get("responses", {}).get("200", {}).get("content", {})
            if "text/event-stream" in content:
                content["text/event-stream"]["schema"] = _SSE_EVENT
    _close_stream_components(schemas)
    names = _installed_rules()
    _view_components(schemas, names)
    _option_details_components(schemas, names)
    catalogue = schemas.get("CatalogueOut")
    if catalogue is not None:
        catalogue["additionalProperties"] = {}
        catalogue["description"] = ("the game's content (`cards`, `places`, `routes`, `tiles`... as the game has "
                                    "them) and its `option_kinds` (see the game's OptionDetails component)")
    _nullable_composites(result)
    for param in result.get("paths", {}).get("/api/v1/games/", {}).get("get", {}).get("parameters", []):
        if param.get("name") == "rules":
            param["schema"] = {"type": "string", "enum": names}
    rules = schemas.get("GameCreateInRequest", {}).get("properties", {}).get("rules")
    if rules is not None:
        rules["enum"] = names
        schemas["GameCreateInRequest"]["example"] = {
            "rules": "maretta", "options": {"side": "A"}, "invite": ["bob@example.org"], "open_seats": 1,
            "title": "Friday game", "deadline_hours": 48}
    if "CommandInRequest" in schemas:
        schemas["CommandInRequest"] = {
            "oneOf": [{"type": "object", "title": kind, "properties": {kind: spec}, "required": [kind],
                       "additionalProperties": False}
                      for kind, spec in _COMMAND_KINDS.items()],
            "description": "exactly one of `code`, `text` or `move`",
        }
    commands = schemas.get("MovesInRequest", {}).get("properties", {}).get("commands")
    if commands is not None:
        commands |= {"minItems": 1, "maxItems": MAX_COMMANDS}
        schemas["MovesInRequest"]["example"] = {"commands": [{"code": "p2"}, {"text": "take barrel 3"}]}
    return result
