"""schemathesis hooks for .ci/schemathesis (SCHEMATHESIS_HOOKS): a check of conditional requests.

Every GET answered 200 with an ETag is asked again with that tag in If-None-Match: the answer must
be a 304 with no body (and no Content-Length but 0) and the same tag (or a 200 with a new tag when the
resource changed in between); with another tag, a 200.
A 304 that carried a body once broke uvicorn's keep-alive connection (issue 25).
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis


def _header(headers: Any, name: str) -> str | None:
    for key, value in dict(headers or {}).items():
        if key.lower() == name.lower():
            return value[0] if isinstance(value, list) else str(value)
    return None


def _tally(line: str) -> None:
    """One line a response in ST_TALLY (when set): .ci/schemathesis then proves what was reached."""
    path = os.environ.get("ST_TALLY")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")


@schemathesis.check
def conditional_requests(ctx: Any, response: Any, case: Any) -> bool | None:
    _tally(f"{case.method.upper()} {case.operation.path} {response.status_code}")
    if case.method.upper() != "GET" or response.status_code != 200:
        return None
    tag = _header(response.headers, "ETag")
    if not tag:
        return None
    sent = dict(case.headers or {})
    again = case.call(headers={**sent, "If-None-Match": tag})
    if again.status_code == 429:
        return None  # throttled: nothing to say about the tag
    if again.status_code == 200 and _header(again.headers, "ETag") != tag:
        return None  # the resource changed in between (a worker decided a move): a new tag, rightly
    if again.status_code != 304:
        raise AssertionError(f"If-None-Match with the ETag just given ({tag}) answered {again.status_code}, not 304")
    if again.content:
        raise AssertionError(f"a 304 carried a body of {len(again.content)} bytes")
    if _header(again.headers, "Content-Length") not in (None, "0"):
        raise AssertionError(f"a 304 said Content-Length: {_header(again.headers, 'Content-Length')}")
    if _header(again.headers, "ETag") != tag:
        raise AssertionError(f"a 304 gave the tag {_header(again.headers, 'ETag')}, not {tag}")
    _tally(f"CONDITIONAL {case.operation.path} 304")
    other = case.call(headers={**sent, "If-None-Match": '"not-this-one"'})
    if other.status_code not in (200, 429):
        raise AssertionError(f"If-None-Match with another tag answered {other.status_code}, not 200")
    return None
