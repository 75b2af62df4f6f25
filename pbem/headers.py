"""Security headers Django does not set by itself: a Content-Security-Policy on every page.

Why our own middleware and not a package: one header with one policy; Django 5.2 has no
built-in CSP (6.0 does) and the pages need nothing beyond their own origin. The ReDoc page
starts itself with an inline script, so it alone is allowed inline scripts.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

POLICY = ("default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
          "script-src 'self'; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; "
          "form-action 'self'; frame-ancestors 'none'")
#: Pages that need inline scripts: ReDoc's start-up script (drf-spectacular's template) and the
#: personal game page's self-update poll (templates/web/seat.html), which works without it too.
INLINE_SCRIPT_PATHS = ("/api/v1/redoc/",)
INLINE_SCRIPT_PREFIXES = ("/p/",)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            policy = POLICY
            if request.path in INLINE_SCRIPT_PATHS or request.path.startswith(INLINE_SCRIPT_PREFIXES):
                policy = policy.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'")
            response["Content-Security-Policy"] = policy
        return response
