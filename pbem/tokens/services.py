"""Issuing, checking, listing and revoking API tokens.

Only a token's SHA-256 is stored (tokens are 256-bit random strings, so a plain hash is
enough, as GitHub does it). Two kinds:

* the **account token** (``/api/v1/auth/token/``, ``manage.py player token``): every scope, no
  expiry, one per account. It is derived from a random salt kept in its row and the
  server's ``SECRET_KEY`` (an HMAC), so it can be shown again without being stored;
  ``rotate`` makes a new salt, which ends the old token;
* **named tokens** (``/api/v1/auth/tokens/``): as many as wanted, each with its scopes and
  an optional expiry, shown once when created, listed by name and prefix, revocable.

Tokens of DRF's old ``authtoken`` table were moved here by migration 0001 (their hash,
as a named token "token before scopes" with every scope), so they keep working.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from pbem.tokens.models import ApiToken

SCOPES = ("read", "play", "moderate")
PREFIX = "pbem_"
MAX_LIVE_TOKENS = 50
#: How often a token's ``last_used_at`` is written (a write per request would be a write per read).
LAST_USED_EVERY = timedelta(minutes=1)


class TokenError(Exception):
    """A token request that cannot be honoured; ``status`` is the HTTP answer."""

    def __init__(self, message: str, status: int = 422, code: str = "invalid") -> None:
        super().__init__(message)
        self.message, self.status, self.code = message, status, code


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _account_token(salt: str) -> str:
    mac = hmac.new(settings.SECRET_KEY.encode(), f"pbem-account-token:{salt}".encode(), hashlib.sha256).digest()
    return PREFIX + base64.urlsafe_b64encode(mac).decode().rstrip("=")


def check_scopes(scopes: Any) -> list[str]:
    if not isinstance(scopes, (list, tuple)) or not scopes:
        raise TokenError("scopes: give one or more of read, play, moderate")
    unknown = sorted({str(s) for s in scopes} - set(SCOPES))
    if unknown:
        raise TokenError(f"scopes: unknown scope {unknown[0]!r}; the scopes are read, play, moderate")
    return [s for s in SCOPES if s in scopes]


@transaction.atomic
def do_issue_account_token(user: Any, *, rotate: bool = False) -> str:
    """The account's token (every scope, no expiry), made on first use; ``rotate`` replaces it."""
    live = ApiToken.objects.select_for_update().filter(user=user, kind=ApiToken.Kind.ACCOUNT, revoked_at=None)
    row = live.first()
    if row is not None and not rotate:
        return _account_token(row.salt)
    if row is not None:
        live.update(revoked_at=timezone.now())
    salt = secrets.token_hex(16)
    token = _account_token(salt)
    ApiToken.objects.create(user=user, kind=ApiToken.Kind.ACCOUNT, name="account token", prefix=token[:12],
                            digest=digest(token), salt=salt, scopes=list(SCOPES))
    return token


def do_create_token(user: Any, name: str, scopes: Any, *, expires_in_days: int | None = None,
                    within: list[str] | None = None) -> tuple[ApiToken, str]:
    """A new named token and its text (shown this once). ``within``: the scopes of the token
    asking, which the new one may not exceed (a read token cannot make a play token)."""
    name = " ".join(str(name).split())
    if not name or len(name) > 60:
        raise TokenError("name: 1 to 60 characters")
    wanted = check_scopes(scopes)
    if within is not None and not set(wanted) <= set(within):
        extra = sorted(set(wanted) - set(within))
        raise TokenError(f"this token cannot make a token with more scopes than its own ({', '.join(extra)})",
                         status=403, code="forbidden")
    if "moderate" in wanted and not user.is_staff:
        raise TokenError("only moderators (staff accounts) may hold the moderate scope", status=403,
                         code="forbidden")
    if ApiToken.objects.filter(user=user, revoked_at=None).count() >= MAX_LIVE_TOKENS:
        raise TokenError(f"at most {MAX_LIVE_TOKENS} live tokens an account; revoke some first", status=409,
                         code="conflict")
    if ApiToken.objects.filter(user=user, revoked_at=None, name=name).exists():
        raise TokenError(f"you have a token named {name!r} already", status=409, code="conflict")
    token = PREFIX + secrets.token_urlsafe(32)
    expires = timezone.now() + timedelta(days=expires_in_days) if expires_in_days else None
    row = ApiToken.objects.create(user=user, kind=ApiToken.Kind.NAMED, name=name, prefix=token[:12],
                                  digest=digest(token), scopes=wanted, expires_at=expires)
    return row, token


def access_token(token: str, related: tuple[str, ...] = ()) -> ApiToken:
    """The live token row ``token`` names; TokenError(401) when unknown, revoked or expired.

    ``related``: more relations of the user to load in the same query (the API asks for
    ``"user__player"``, which every request then reads: one query fewer per request).
    """
    # Why not .first(): the digest is unique, and its ORDER BY cost more to compile than to run.
    row = next(iter(ApiToken.objects.select_related("user", *related).filter(digest=digest(token))[:1]), None)
    if row is None or row.revoked_at is not None:
        raise TokenError("invalid token", status=401, code="authentication_failed")
    now = timezone.now()
    if row.expires_at is not None and row.expires_at <= now:
        raise TokenError(f"this token expired at {row.expires_at.isoformat()}", status=401,
                         code="authentication_failed")
    if not row.user.is_active:
        raise TokenError("this account is disabled", status=401, code="authentication_failed")
    if row.last_used_at is None or now - row.last_used_at >= LAST_USED_EVERY:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
        row.last_used_at = now
    return row


def tokens_of(user: Any) -> list[ApiToken]:
    """The account's live tokens, newest first (expired ones included, until revoked)."""
    return list(ApiToken.objects.filter(user=user, revoked_at=None).order_by("-created_at", "-pk"))


def do_revoke_token(user: Any, token_id: int) -> None:
    done = ApiToken.objects.filter(user=user, pk=token_id, revoked_at=None).update(revoked_at=timezone.now())
    if not done:
        raise TokenError(f"you have no live token #{token_id}", status=404, code="not_found")
