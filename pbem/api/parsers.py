"""The API's one request parser: JSON, bounded in size and depth, strict UTF-8.

Why our own: DRF's JSONParser reads the whole stream whatever its size and lets
Python's decoder recurse until it raises ``RecursionError`` (a 500), so a 5000-deep
``[[[[...`` or a 10 MB body must be refused here, before anything is decoded.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework import exceptions, status
from rest_framework.parsers import BaseParser

#: Deeper than any body the API describes (a structured move nests a few levels).
MAX_DEPTH = 32


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is too large"
    default_code = "too_large"


def max_body_bytes() -> int:
    return int(getattr(settings, "PBEM_API_MAX_BODY", 64 * 1024))


def _too_deep(value: Any) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return False


class BoundedJSONParser(BaseParser):
    media_type = "application/json"

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        limit = max_body_bytes()
        request = (parser_context or {}).get("request")
        declared = request.META.get("CONTENT_LENGTH") if request is not None else None
        if declared and str(declared).isdigit() and int(declared) > limit:
            raise PayloadTooLarge(f"the request body is larger than {limit} bytes")
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise PayloadTooLarge(f"the request body is larger than {limit} bytes")
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise exceptions.ParseError(f"the body is not UTF-8 (byte {exc.start})") from None
        try:
            data = json.loads(text, parse_constant=_no_constant)
        except RecursionError:
            raise exceptions.ParseError(f"the JSON is nested too deep (at most {MAX_DEPTH} levels)") from None
        except ValueError as exc:
            raise exceptions.ParseError(f"JSON parse error: {exc}") from None
        if _too_deep(data):
            raise exceptions.ParseError(f"the JSON is nested too deep (at most {MAX_DEPTH} levels)")
        return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
