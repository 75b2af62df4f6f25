"""Django's ``close_old_connections`` for a long-lived thread that serves one short call after
another (the SMTP ingress, a worker's tasks), without a health check before every call.

Why (issue 28): ``CONN_HEALTH_CHECKS`` makes the first statement after each
``close_old_connections`` a ``SELECT 1`` round trip, so the ingress paid two a mail (RCPT and
DATA) and a worker one a task, on the path every move takes. Here a connection that served a
call without error within :data:`SOUND_FOR` seconds is taken as sound, as Django takes it
within a request; one that did not, or whose last call failed, is checked as before. What a
connection that dies in between costs: the one call that meets it fails with a database error
(the ingress answers 451 and the sender retries; a task retries), and Django's own rules then
close it (``errors_occurred``), so the next call opens a new one.
"""

from __future__ import annotations

import time
from typing import Any

from django.db import close_old_connections, connections

#: Seconds after a call that succeeded during which its connection is not checked again.
SOUND_FOR = 5.0


def tidy_connections() -> None:
    """``close_old_connections()`` (a connection too old or that saw an error is closed), then the
    health check skipped for a connection that served a call without error just before."""
    close_old_connections()
    now = time.monotonic()
    conn: Any  # Django's wrapper has health_check_done; its stubs do not
    for conn in connections.all(initialized_only=True):
        sound_at = getattr(conn, "pbem_sound_at", None)
        if conn.connection is not None and sound_at is not None and now - sound_at < SOUND_FOR \
                and not conn.errors_occurred:
            conn.health_check_done = True


def mark_sound(ok: bool) -> None:
    """After a call: its connections served it without error (``ok``), or they are checked next time."""
    now = time.monotonic()
    conn: Any
    for conn in connections.all(initialized_only=True):
        conn.pbem_sound_at = now if ok and not conn.errors_occurred else None
