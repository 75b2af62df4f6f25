"""``Authorization: Token <token>`` (or ``Bearer <token>``) against the hashed tokens of pbem.tokens,
and the scope each request needs: ``read`` for reads, ``play`` for writes (it includes ``read``),
``moderate`` for the moderators' endpoints. A session (the browsable API, the web pages) carries every scope."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from pbem.tokens import services as tokens
from pbem.tokens.models import ApiToken

KEYWORDS = ("token", "bearer")


class ApiTokenAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        parts = get_authorization_header(request).split()
        if not parts or parts[0].lower().decode("latin-1") not in KEYWORDS:
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed("send: Authorization: Token <token> (one token, no spaces)")
        try:
            # Why the player too: every endpoint asks for it (permissions, views); one query, not two.
            row = tokens.access_token(parts[1].decode("latin-1"), related=("user__player",))
        except tokens.TokenError as exc:
            raise exceptions.AuthenticationFailed(exc.message) from None
        return row.user, row

    def authenticate_header(self, request: Request) -> str:
        return "Token"


def foreign_scheme(request: Any) -> str | None:
    """The scheme of an ``Authorization`` header this API does not take (``Basic``...), or None.
    Why not refused at once: a proxy guarding a staging site with Basic passes its header on, and
    reads are open to everyone; only an answer that needs a player says why it has none."""
    parts = get_authorization_header(request).split()
    if not parts:
        return None
    scheme = parts[0].decode("latin-1")
    return None if scheme.lower() in KEYWORDS else scheme[:20]


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """How the OpenAPI schema describes ApiTokenAuthentication (drf-spectacular finds it by target)."""

    target_class = "pbem.api.auth.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, Any]:
        return {"type": "apiKey", "in": "header", "name": "Authorization",
                "description": "`Token <token>` or `Bearer <token>`; scopes read, play, moderate "
                               "(see /api/v1/auth/tokens/)"}


def required_scope(request: Request, staff_only: bool) -> str:
    if staff_only:
        return "moderate"
    return "read" if request.method in ("GET", "HEAD", "OPTIONS") else "play"


def _granted(token: ApiToken) -> set[str]:
    return set(token.scopes) | ({"read"} if "play" in token.scopes else set())  # play includes read


def has_scope(request: Request, needed: str) -> bool:
    """Whether the request's credentials carry ``needed`` (a session or no token carries every scope)."""
    token = request.auth
    return not isinstance(token, ApiToken) or needed in _granted(token)


def read_as_anonymous(request: Request) -> None:
    """Go on as an anonymous client, remembering the token (check_scope still names it)."""
    token = request.auth
    request.user = AnonymousUser()
    request.auth = None
    request._scoped_token = token  # type: ignore[attr-defined]


def check_scope(request: Request, needed: str) -> None:
    """403 when the request came with a token whose scopes lack ``needed``."""
    token = request.auth if isinstance(request.auth, ApiToken) else getattr(request, "_scoped_token", None)
    if not isinstance(token, ApiToken):
        return
    if needed not in _granted(token):
        raise exceptions.PermissionDenied(
            f"this token's scopes ({', '.join(token.scopes)}) do not include {needed!r}; "
            "make a token with it at /api/v1/auth/tokens/")
