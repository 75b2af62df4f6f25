"""One lockout for every door that takes a password: per account and per client address.

Every password check of the site goes through Django's ``authenticate()`` and so through
:class:`LockoutBackend` (``AUTHENTICATION_BACKENDS``): ``POST /api/v1/auth/token/``, the
browsable API's log-in page, the admin's log-in page, and any door added later. The backend
counts an attempt **before** it checks the password, with an atomic increment in the cache
(Redis in production), so parallel requests cannot all slip past a "fewer than N failures?"
test before the first failure is written: at most ``PBEM_LOGIN_FAILURES`` passwords of one
account (``PBEM_LOGIN_ADDRESS_FAILURES`` from one address) are ever checked in a window.
A correct password gives its own attempt back; a refused attempt is given back too (it
checked nothing).

When locked, the backend raises :class:`LockedOut`; the API's exception handler and
:class:`LockoutMiddleware` (the HTML doors) answer it with 429 and ``Retry-After``: the
seconds left in the window that the first counted failure opened. The right password is
refused as well while the lock holds, otherwise the lock would tell a guesser when they
found it.
"""

from __future__ import annotations

import contextlib
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse

#: Failed passwords allowed per account, and per client address, in one window (seconds).
DEFAULT_ACCOUNT_FAILURES = 10
DEFAULT_ADDRESS_FAILURES = 30
DEFAULT_WINDOW = 15 * 60


class LockedOut(Exception):
    """Too many failed passwords for this account or from this address; ``retry_after`` in seconds."""

    def __init__(self, retry_after: int) -> None:
        super().__init__("too many failed log-ins; try again later")
        self.message = "too many failed log-ins for this account or from this address; try again later"
        self.retry_after = max(1, int(retry_after))


def _limits() -> tuple[int, int, int]:
    return (int(getattr(settings, "PBEM_LOGIN_FAILURES", DEFAULT_ACCOUNT_FAILURES)),
            int(getattr(settings, "PBEM_LOGIN_ADDRESS_FAILURES", DEFAULT_ADDRESS_FAILURES)),
            int(getattr(settings, "PBEM_LOGIN_WINDOW", DEFAULT_WINDOW)))


def client_address(request: HttpRequest | None) -> str:
    """REMOTE_ADDR, or behind ``PBEM_PROXY_COUNT`` proxies the address the outermost one saw
    (X-Forwarded-For read from the right, as DRF's throttles read it with NUM_PROXIES: what a
    client writes itself at the left is never trusted)."""
    if request is None:
        return "unknown"
    proxies = int(getattr(settings, "PBEM_PROXY_COUNT", 0) or 0)
    forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if a.strip()]
    if proxies > 0 and forwarded:
        return forwarded[-min(proxies, len(forwarded))]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def _keys(request: HttpRequest | None, username: str) -> list[tuple[str, int]]:
    account, address, _ = _limits()
    who = (username or "").strip().lower()[:200]
    return [(f"pbem:login-fail:user:{who}", account), (f"pbem:login-fail:ip:{client_address(request)}", address)]


def _incr(key: str, delta: int, window: int) -> int:
    cache.add(key, 0, window)
    cache.add(f"{key}:since", time.time(), window)
    try:
        return int(cache.incr(key, delta))
    except ValueError:  # expired between add and incr: a new window
        cache.set(key, max(delta, 0), window)
        cache.set(f"{key}:since", time.time(), window)
        return max(delta, 0)


def _retry_after(key: str, window: int) -> int:
    since = cache.get(f"{key}:since")
    return window if since is None else int(window - (time.time() - float(since))) + 1


def do_reserve_attempt(request: HttpRequest | None, username: str) -> list[str]:
    """Count one password attempt against the account and the address, atomically; LockedOut
    (the attempt given back) when either is over its limit. Returns the keys counted."""
    _, _, window = _limits()
    counted: list[str] = []
    refused: list[str] = []
    for key, limit in _keys(request, username):
        counted.append(key)
        if _incr(key, 1, window) > limit:
            refused.append(key)
    if refused:
        do_release_attempt(counted)
        raise LockedOut(max(_retry_after(key, window) for key in refused))
    return counted


def do_release_attempt(keys: list[str]) -> None:
    """Give an attempt back (the password was right, or nothing was checked)."""
    for key in keys:
        with contextlib.suppress(ValueError):  # the window ended meanwhile
            cache.decr(key)


class LockoutBackend(ModelBackend):
    """Django's model backend behind the lockout (see the module's docstring)."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> Any:
        if username is None:
            username = kwargs.get(self._username_field(), "")
        if password is None:
            return None
        keys = do_reserve_attempt(request, str(username or ""))
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is not None:
            do_release_attempt(keys)
        return user

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return str(get_user_model().USERNAME_FIELD)


def locked_out_response(exc: LockedOut) -> HttpResponse:
    response = JsonResponse({"code": "throttled", "message": exc.message}, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


class LockoutMiddleware:
    """The HTML doors (the browsable API's and the admin's log-in pages): LockedOut -> 429."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return locked_out_response(exception) if isinstance(exception, LockedOut) else None
