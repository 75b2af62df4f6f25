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

When the relay's EHLO advertises PIPELINING (RFC 2920, as every real relay does), a mail goes in
two round trips instead of smtplib's four: MAIL FROM, every RCPT TO and DATA in one write, their
replies read, then the message (see :class:`PipeliningMixin`). Without it, smtplib's own sendmail.
"""

from __future__ import annotations

import contextlib
import os
import smtplib
import threading
import time
from typing import Any, NoReturn

from django.conf import settings
from django.core.mail.backends.smtp import EmailBackend

#: Seconds a connection is kept after its last mail (``PBEM_SMTP_KEEP_SECONDS``; 0: never kept).
KEEP_SECONDS = 30.0

#: What a relay that closed a kept connection gives its next command: nothing of the mail was taken.
_CLOSED = (smtplib.SMTPServerDisconnected, ConnectionResetError, BrokenPipeError)

_kept = threading.local()


class PipeliningMixin:
    """smtplib's ``sendmail`` in two round trips when the relay advertises PIPELINING (RFC 2920).

    Same commands, options, dot-stuffing (smtplib's own helpers) and exceptions as
    ``smtplib.SMTP.sendmail``; only the waits between MAIL, RCPT and DATA are gone.
    """

    _batch: list[bytes] | None = None

    def send(self, s: Any) -> None:
        if self._batch is not None:  # collecting a pipelined group: written at once by _flush
            self._batch.append(s.encode(self.command_encoding) if isinstance(s, str) else s)  # type: ignore[attr-defined]
            return
        super().send(s)  # type: ignore[misc]

    def sendmail(self, from_addr: str, to_addrs: Any, msg: Any, mail_options: Any = (),
                 rcpt_options: Any = ()) -> dict[str, tuple[int, bytes]]:
        smtp: Any = self
        smtp.ehlo_or_helo_if_needed()
        if not smtp.has_extn("pipelining"):
            return super().sendmail(from_addr, to_addrs, msg, mail_options, rcpt_options)  # type: ignore[misc]
        if isinstance(msg, str):
            msg = smtplib._fix_eols(msg).encode("ascii")  # type: ignore[attr-defined]
        if isinstance(to_addrs, str):
            to_addrs = [to_addrs]
        options = ([f"size={len(msg)}"] if smtp.has_extn("size") else []) + list(mail_options)
        if any(o.lower() == "smtputf8" for o in options):  # as smtplib's mail() checks it
            if not smtp.has_extn("smtputf8"):
                raise smtplib.SMTPNotSupportedError("SMTPUTF8 not supported by server")
            smtp.command_encoding = "utf-8"
        rcpt_tail = " " + " ".join(rcpt_options) if rcpt_options else ""
        self._batch = []
        try:
            mail_tail = " " + " ".join(options) if options else ""
            smtp.putcmd("mail", f"FROM:{smtplib.quoteaddr(from_addr)}{mail_tail}")
            for each in to_addrs:
                smtp.putcmd("rcpt", f"TO:{smtplib.quoteaddr(each)}{rcpt_tail}")
            smtp.putcmd("data")
            batch = b"".join(self._batch)
        finally:
            self._batch = None
        smtp.send(batch)  # one write: MAIL, every RCPT and DATA
        replies = self._replies(len(to_addrs) + 2)
        data_reply = replies[-1] if len(replies) == len(to_addrs) + 2 else (421, b"")
        failure = self._refusal(from_addr, to_addrs, replies)
        if failure is None:
            quoted = smtplib._quote_periods(msg)  # type: ignore[attr-defined]
            if quoted[-2:] != smtplib.bCRLF:
                quoted += smtplib.bCRLF
            smtp.send(quoted + b"." + smtplib.bCRLF)
            code, resp = smtp.getreply()
            if code != 250:
                self._fail(smtplib.SMTPDataError(code, resp), code)
            return {each: reply for each, reply in zip(to_addrs, replies[1:-1]) if reply[0] not in (250, 251)}
        if data_reply[0] == 354:
            # DATA was taken though the envelope was refused: an empty message ends it (RFC 2920).
            smtp.send(b"." + smtplib.bCRLF)
            smtp.getreply()
        self._fail(failure, replies[-1][0])

    def _replies(self, count: int) -> list[tuple[int, bytes]]:
        """Up to ``count`` replies, one a pipelined command; fewer when one is 421 (the relay closes)."""
        replies: list[tuple[int, bytes]] = []
        while len(replies) < count and (not replies or replies[-1][0] != 421):
            replies.append(self.getreply())  # type: ignore[attr-defined]
        return replies

    @staticmethod
    def _refusal(from_addr: str, to_addrs: list[str],
                 replies: list[tuple[int, bytes]]) -> smtplib.SMTPException | None:
        """What smtplib's sendmail raises for these replies (MAIL, every RCPT, DATA), or None."""
        if replies[0][0] != 250:
            return smtplib.SMTPSenderRefused(replies[0][0], replies[0][1], from_addr)
        refused = {each: reply for each, reply in zip(to_addrs, replies[1:]) if reply[0] not in (250, 251)}
        if len(refused) == len(to_addrs) or (replies[-1][0] == 421 and len(replies) <= len(to_addrs) + 1):
            return smtplib.SMTPRecipientsRefused(refused)
        if replies[-1][0] != 354:
            return smtplib.SMTPDataError(*replies[-1])
        return None

    def _fail(self, failure: smtplib.SMTPException, code: int) -> NoReturn:
        """Raises ``failure`` as smtplib does: after RSET (the connection stays usable), or closed on 421."""
        smtp: Any = self
        if code == 421:
            smtp.close()
        else:
            smtp._rset()
        raise failure


class _PipeliningSMTP(PipeliningMixin, smtplib.SMTP):
    pass


class _PipeliningSMTP_SSL(PipeliningMixin, smtplib.SMTP_SSL):
    pass


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

    @property
    def connection_class(self) -> type[smtplib.SMTP]:
        return _PipeliningSMTP_SSL if self.use_ssl else _PipeliningSMTP

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
