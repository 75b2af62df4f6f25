"""An SMTP backend that keeps its connection to the relay from one mail to the next (issue 28).

Django's SMTP backend opens a connection for every ``send()`` (a TCP connect, the greeting, EHLO,
STARTTLS and AUTH where the relay asks, then QUIT), so a worker that sends a move's mail paid a
whole SMTP session a mail, where a relay takes a prebuilt mail over a kept connection in a few
round trips. This backend (``EMAIL_BACKEND`` when ``EMAIL_HOST`` is set) keeps the connection of
each thread of each process open after a send and gives it to the next one:

* only while it was used within :data:`KEEP_SECONDS` (``PBEM_SMTP_KEEP_SECONDS``), well under
  the idle time relays allow (RFC 5321 asks servers to wait 5 minutes); an older one is closed
  with QUIT and a new one is opened;
* only in the process and thread that opened it (a forked worker never shares its parent's
  socket), and only for the same relay settings (host, port, user, TLS);
* a kept connection the relay closed meanwhile (it says so, or the socket is reset) is dropped
  and the mail is sent once more at once over a new connection. A relay closes an idle
  connection before the mail's first command, so nothing was taken; were it closed after it
  took the mail and before it answered, the mail would go twice with one Message-ID, as the
  outbox sweeper's resend of a row left pending does with a new connection too;
* any other failure drops the connection and raises, as Django's backend does (the outbox keeps
  the row pending and the sweeper sends it again).
"""

from __future__ import annotations

import contextlib
import os
import smtplib
import threading
import time
from typing import Any

from django.conf import settings
from django.core.mail.backends.smtp import EmailBackend

#: Seconds a connection is kept after its last mail (``PBEM_SMTP_KEEP_SECONDS``; 0: never kept).
KEEP_SECONDS = 30.0

#: What a relay that closed a kept connection gives its next command: nothing of the mail was taken.
_CLOSED = (smtplib.SMTPServerDisconnected, ConnectionResetError, BrokenPipeError)

_kept = threading.local()


def _keep_seconds() -> float:
    return float(getattr(settings, "PBEM_SMTP_KEEP_SECONDS", KEEP_SECONDS))


def _quit(connection: Any) -> None:
    with contextlib.suppress(Exception):  # it may be gone already; closing is all that is left
        connection.quit()
    with contextlib.suppress(Exception):
        connection.close()


def drop_kept() -> None:
    """Closes this thread's kept connection, if any (the next mail opens a new one)."""
    kept = getattr(_kept, "connection", None)
    _kept.connection = None
    if kept is not None and getattr(_kept, "pid", None) == os.getpid():
        _quit(kept)


class KeptSMTPBackend(EmailBackend):
    """Django's SMTP backend, its connection kept for the next send of the same thread."""

    def _relay(self) -> tuple[Any, ...]:
        return (self.host, self.port, self.username, self.use_tls, self.use_ssl, self.timeout)

    def open(self) -> bool | None:
        if self.connection is not None:
            return False
        kept = getattr(_kept, "connection", None)
        if kept is not None:
            _kept.connection = None
            fresh = time.monotonic() - _kept.used < _keep_seconds()
            if _kept.pid == os.getpid() and _kept.relay == self._relay() and fresh:
                self.connection = kept
                self._reused = True
                # True: send_messages calls close() when done, which keeps it again.
                return True
            if _kept.pid == os.getpid():
                _quit(kept)
        self._reused = False
        return super().open()

    def close(self) -> None:
        """Keeps the connection for this thread's next send instead of ending the session."""
        if self.connection is None:
            return
        if _keep_seconds() <= 0:
            super().close()
            return
        drop_kept()  # another backend's connection kept meanwhile in this thread: one is enough
        _kept.connection, _kept.pid, _kept.relay = self.connection, os.getpid(), self._relay()
        _kept.used = time.monotonic()
        self.connection = None

    def _send(self, email_message: Any) -> bool:
        try:
            return bool(super()._send(email_message))  # type: ignore[misc]  # Django has it; its stubs do not
        except _CLOSED:
            if not getattr(self, "_reused", False):
                self._drop()
                raise
            # The relay closed the kept connection while it was idle: once more over a new one.
            self._drop()
            self._reused = False
            if not super().open():
                raise
            try:
                return bool(super()._send(email_message))  # type: ignore[misc]  # Django has it; its stubs do not
            except Exception:
                self._drop()
                raise
        except Exception:
            self._drop()
            raise

    def _drop(self) -> None:
        """Ends this backend's connection after a failure: it is not kept (its state is unknown)."""
        if self.connection is not None:
            _quit(self.connection)
            self.connection = None
