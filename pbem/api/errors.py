"""Every API error is ``{"code": ..., "message": ...}`` with the right status, never an HTML page.

Service errors carry their own status and code; DRF's own exceptions (bad JSON,
validation, authentication, throttling) are reshaped; anything unexpected is
logged and answered as a JSON 500 so a client never has to parse HTML.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions, status
from rest_framework.response import Response

from engine import EngineError, IllegalMove
from pbem.api.auth import foreign_scheme
from pbem.api.parsers import PayloadTooLarge
from pbem.games.services import MoveRejected, ServiceError
from pbem.tokens.lockout import LockedOut
from pbem.tokens.services import TokenError
from pbem.webhooks.services import WebhookError

log = logging.getLogger(__name__)


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):  # items of a list field
                out.extend(_flatten(value, f"{prefix}[{key}]"))
                continue
            name = key if key != "non_field_errors" else ""
            out.extend(_flatten(value, f"{prefix}.{name}" if prefix and name else (name or prefix)))
        return out
    if isinstance(detail, list):
        out = []
        for i, value in enumerate(detail):
            sub = f"{prefix}[{i}]" if isinstance(value, (dict, list)) else prefix
            out.extend(_flatten(value, sub))
        return out
    return [f"{prefix}: {detail}" if prefix else str(detail)]


_CODES = {
    exceptions.ParseError: "malformed_request",
    exceptions.AuthenticationFailed: "authentication_failed",
    exceptions.NotAuthenticated: "not_authenticated",
    exceptions.PermissionDenied: "forbidden",
    exceptions.NotFound: "not_found",
    exceptions.MethodNotAllowed: "method_not_allowed",
    exceptions.NotAcceptable: "not_acceptable",
    exceptions.UnsupportedMediaType: "unsupported_media_type",
    exceptions.Throttled: "throttled",
    PayloadTooLarge: "too_large",
}


def error_body(code: str, message: str, **extra: Any) -> dict[str, Any]:
    return {"code": code, "message": message, **extra}


def _semantic(http_status: int) -> int:
    """400 is the door's (the request does not match the OpenAPI schema); a request that does
    but that the rules or the service refuse (a name with digits, 2 players for a 3-5 player
    game, a vacation in the past) is a 422, so a client can tell a bug from a refusal."""
    return status.HTTP_422_UNPROCESSABLE_ENTITY if http_status == status.HTTP_400_BAD_REQUEST else http_status


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    headers: dict[str, str] = {}
    if isinstance(exc, MoveRejected):
        return Response(exc.as_dict(), status=exc.status)
    if isinstance(exc, ServiceError):
        retry = getattr(exc, "retry_after", None)
        return Response(error_body(exc.code, exc.message), status=_semantic(exc.status),
                        headers={"Retry-After": str(retry)} if retry is not None else None)
    if isinstance(exc, LockedOut):
        return Response(error_body("throttled", exc.message), status=status.HTTP_429_TOO_MANY_REQUESTS,
                        headers={"Retry-After": str(exc.retry_after)})
    if isinstance(exc, (TokenError, WebhookError)):
        return Response(error_body(exc.code, exc.message), status=exc.status)
    if isinstance(exc, IllegalMove):
        return Response(exc.as_dict() | {"message": exc.message}, status=422)
    if isinstance(exc, EngineError):
        return Response(error_body("invalid", str(exc)), status=422)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "not found")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied()
    if isinstance(exc, exceptions.ValidationError):
        messages = _flatten(exc.detail)
        return Response(error_body("invalid", "; ".join(messages), detail=exc.detail), status=400)
    if isinstance(exc, exceptions.NotAuthenticated) and exc.detail == exceptions.NotAuthenticated.default_detail:
        scheme = foreign_scheme(context.get("request"))
        if scheme:  # "credentials were not provided" when they were, in a scheme this API does not take
            header = getattr(exc, "auth_header", None)
            exc = exceptions.NotAuthenticated(
                f"Authorization: {scheme} is not taken here: send Authorization: Token <token> (or Bearer "
                "<token>); POST /api/v1/auth/token/ with email and password gives the token")
            exc.auth_header = header  # type: ignore[attr-defined]  # as DRF set it on the first
    if isinstance(exc, exceptions.APIException):
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        wait = getattr(exc, "wait", None)
        if isinstance(exc, exceptions.Throttled) and wait is not None:
            headers["Retry-After"] = str(int(wait))
        code = next((c for cls, c in _CODES.items() if isinstance(exc, cls)), str(exc.default_code))
        detail = exc.detail if isinstance(exc.detail, str) else "; ".join(_flatten(exc.detail))
        return Response(error_body(code, str(detail)), status=exc.status_code, headers=headers)
    view = context.get("view")
    log.exception("unexpected error in %s", type(view).__name__ if view else "API")
    return Response(error_body("internal_error", "the server failed to answer this request; it has been logged"),
                    status=status.HTTP_500_INTERNAL_SERVER_ERROR)


def json_404(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    return JsonResponse(error_body("not_found", f"nothing at {request.path}"), status=404)


def json_500(request: HttpRequest) -> JsonResponse:
    return JsonResponse(error_body("internal_error", "the server failed to answer this request"), status=500)
