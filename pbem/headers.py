"""Security headers Django does not set by itself: a Content-Security-Policy on every page.

Why our own middleware and not a package: one header with one policy; Django 5.2 has no
built-in CSP (6.0 does) and the pages need nothing beyond their own origin. The ReDoc page
starts itself with an inline script, so it alone is allowed inline scripts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse

POLICY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
          "script-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
          "form-action 'self'; frame-ancestors 'none'")
#: Pages that need inline scripts: ReDoc's start-up script (drf-spectacular's template) and the
#: personal game page's self-update poll (templates/web/seat.html), which works without it too.
INLINE_SCRIPT_PATHS = ("/api/v1/redoc/",)
INLINE_SCRIPT_PREFIXES = ("/p/",)


class ContentSecurityPolicyMiddleware:
    """Sync and async (why: under ASGI a sync-only middleware would run every request below it,
    the waiting streams included, through a thread)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        if iscoroutinefunction(get_response):
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if iscoroutinefunction(self):
            return self._acall(request)
        return self._add(request, self.get_response(request))

    async def _acall(self, request: HttpRequest) -> HttpResponse:
        get_response: Callable[[HttpRequest], Awaitable[HttpResponse]] = self.get_response
        return self._add(request, await get_response(request))

    @staticmethod
    def _add(request: HttpRequest, response: HttpResponse) -> HttpResponse:
        if "Content-Security-Policy" not in response:
            policy = POLICY
            if request.path in INLINE_SCRIPT_PATHS or request.path.startswith(INLINE_SCRIPT_PREFIXES):
                policy = policy.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
            response["Content-Security-Policy"] = policy
        return response
