"""``Idempotency-Key`` on every POST: the same key answers the first result and never applies twice.

As Stripe and the IETF httpapi draft do it: the key is the client's, scoped to the
authenticated account (or the client address when anonymous) and to the path; the first
answer (status, body, Location/ETag/Retry-After) is kept for a day in the cache (Redis in
a deployment, so every web process sees it). The same key with another body is a 422;
the same key while the first request is still running is a 409.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from django.core.cache import cache
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

HEADER = "Idempotency-Key"
KEPT_SECONDS = 24 * 3600
IN_FLIGHT_SECONDS = 60
KEPT_HEADERS = ("Location", "ETag", "Retry-After")
#: Printable ASCII, 1 to 255 characters, no space at either end (HTTP strips those); also in the schema.
KEY_PATTERN = r"^[!-~]([ -~]{0,253}[!-~])?$"
_KEY = re.compile(KEY_PATTERN)


def _fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, default=str, ensure_ascii=True)
    return hashlib.sha256(f"{request.get_full_path()}\n{body}".encode()).hexdigest()


def cache_key(request: Request) -> str | None:
    """Where this POST's answer is kept, or None when it carries no key (or an unusable one)."""
    key = request.headers.get(HEADER)
    if request.method != "POST" or key is None:
        return None
    user = request.user
    who = f"u{user.pk}" if user and user.is_authenticated else f"ip{request.META.get('REMOTE_ADDR', '')}"
    digest = hashlib.sha256(f"{who}\n{request.path}\n{key}".encode("utf-8", "surrogatepass")).hexdigest()
    return f"pbem:idem:{digest}"


def error(code: str, message: str, http_status: int) -> Response:
    return Response({"code": code, "message": message}, status=http_status)


def begin(request: Request, key: str) -> Response | None:
    """None: go on and run the request. Else the answer to give instead (the first one, or an error)."""
    raw = request.headers.get(HEADER, "")
    if not _KEY.match(raw):
        return error("invalid", "Idempotency-Key must be 1 to 255 printable ASCII characters",
                     status.HTTP_400_BAD_REQUEST)
    fingerprint = _fingerprint(request)
    if cache.add(key, {"state": "running", "fingerprint": fingerprint}, IN_FLIGHT_SECONDS):
        return None
    kept: dict[str, Any] | None = cache.get(key)
    if kept is None:  # expired between add and get: treat as new
        cache.set(key, {"state": "running", "fingerprint": fingerprint}, IN_FLIGHT_SECONDS)
        return None
    if kept["fingerprint"] != fingerprint:
        return error("idempotency_key_reused", "this Idempotency-Key was used for a different request; "
                     "use a new key for a new request", status.HTTP_422_UNPROCESSABLE_ENTITY)
    if kept["state"] == "running":
        return error("conflict", "a request with this Idempotency-Key is still being processed; retry shortly",
                     status.HTTP_409_CONFLICT)
    response = Response(kept["data"], status=kept["status"], headers=kept["headers"])
    response["Idempotency-Replayed"] = "true"
    return response


def finish(key: str, request: Request, response: Any) -> None:
    """Keep a decided answer; forget a failed one so the client may retry with the same key."""
    if response.status_code >= 500 or response.status_code == status.HTTP_429_TOO_MANY_REQUESTS:
        cache.delete(key)
        return
    headers = {h: response[h] for h in KEPT_HEADERS if h in response}
    cache.set(key, {"state": "done", "fingerprint": _fingerprint(request), "status": response.status_code,
                    "data": getattr(response, "data", None), "headers": headers}, KEPT_SECONDS)
