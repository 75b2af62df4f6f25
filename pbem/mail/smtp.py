"""The SMTP ingress: an aiosmtpd handler that is a thin door onto two services.

``handle_RCPT`` asks :func:`pbem.mail.services.check_recipient` and refuses
unknown recipients with 550 (a seat token that no longer exists is unknown);
``handle_DATA`` calls :func:`pbem.mail.services.do_receive_mail` in a database
thread and answers 250 only after the raw mail is committed, 451 when anything
went wrong (so the sending MTA keeps the mail and retries), 552 when it is too
big. Seat tokens never reach a log: aiosmtpd's own logger is quietened and
redacted.

The services run in :class:`DbLanes`: a few threads, each with its own database connection, a
call going to the one with the fewest calls in hand (``PBEM_SMTP_DB_THREADS``, 4; one on SQLite).
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import socket
import threading
import traceback
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from aiosmtpd.controller import Controller
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP, Envelope, Session
from django.conf import settings
from django.db import connections

from pbem import dbhealth
from pbem.mail import parsing

log = logging.getLogger(__name__)

#: Recipients accepted in one SMTP transaction.
MAX_RECIPIENTS = 20
#: Per-session command limits (aiosmtpd answers 421 and hangs up beyond them).
COMMAND_LIMITS = {"RCPT": 100, "MAIL": 50, "DATA": 50, "NOOP": 20, "VRFY": 5, "*": 200}


class _RedactTokens(logging.Filter):
    """aiosmtpd logs every RCPT address at INFO; a seat address holds a secret."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # noqa: BLE001
            return True
        redacted = parsing.redact(text)
        if redacted != text:
            record.msg, record.args = redacted, ()
        return True


_aiosmtpd_log = logging.getLogger("mail.log")
_aiosmtpd_log.addFilter(_RedactTokens())
if _aiosmtpd_log.level == logging.NOTSET:
    _aiosmtpd_log.setLevel(logging.WARNING)


def _in_db_thread(func: Any, *args: Any) -> Any:
    """Run a service the way Django runs a request: drop a broken or expired connection around it
    (its health check only when it did not serve a call just before: :mod:`pbem.dbhealth`)."""
    dbhealth.tidy_connections()
    ok = False
    try:
        result = func(*args)
        ok = True
        return result
    finally:
        dbhealth.mark_sound(ok)
        dbhealth.tidy_connections()


def _check_recipient(address: str) -> bool:
    from pbem.mail.services import check_recipient

    return bool(_in_db_thread(check_recipient, address))


def _receive(raw: bytes, mail_from: str, rcpt_tos: list[str]) -> int:
    from pbem.mail.services import do_receive_mail

    return int(_in_db_thread(do_receive_mail, raw, mail_from, rcpt_tos).pk)


class DbLanes:
    """Threads the ingress runs its services in, each with its own database connection (Django's
    connections are per thread), a call going to the lane with the fewest calls in hand.

    Why not asgiref's one thread (``thread_sensitive=True``, as before issue 28's pipe session): every
    RCPT check and every mail's INSERT of every session queued in it, so a check waited behind
    another mail's INSERT and its commit's wait for the disk (2 ms median, 10 at the 90th percentile
    on the pipeline bench) and the INSERTs of mails arriving together committed one after the other.
    Here they overlap. What each mail is promised does not change: its row is committed in its own
    lane before its 250, a duplicate Message-ID is stored once however the INSERTs race (ON CONFLICT
    in PostgreSQL), and a session's commands still run one after the other (aiosmtpd awaits each).
    SQLite takes one writer at a time: one lane there, as before.
    """

    def __init__(self, size: int | None = None) -> None:
        self._size = size
        self._lock = threading.Lock()
        self._lanes: list[ThreadPoolExecutor] = []
        self._busy: list[int] = []

    def size(self) -> int:
        if self._size is None:
            sqlite = connections["default"].vendor == "sqlite"
            self._size = 1 if sqlite else max(1, settings.PBEM_SMTP_DB_THREADS)
        return self._size

    def _take(self) -> int:
        with self._lock:
            if not self._lanes:
                n = self.size()
                self._lanes = [ThreadPoolExecutor(1, thread_name_prefix=f"pbem-smtp-db{i}") for i in range(n)]
                self._busy = [0] * n
            lane = min(range(len(self._busy)), key=self._busy.__getitem__)
            self._busy[lane] += 1
            return lane

    async def run(self, func: Callable[..., Any], *args: Any) -> Any:
        """``func(*args)`` in the least busy lane's thread, in a copy of the caller's context.

        Why not asgiref's ``sync_to_async`` (as until issue 28's ingress session): its bookkeeping for
        thread-sensitive calls and nested event loops, which a lane never needs, cost more CPU than the
        executor's own hop, twice a mail (RCPT and DATA)."""
        lane = self._take()
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._lanes[lane], contextvars.copy_context().run, func, *args)
        finally:
            with self._lock:
                if lane < len(self._busy):
                    self._busy[lane] -= 1

    def close(self, timeout: float = 10.0) -> None:
        """Each lane's database connections closed in its own thread, then the threads ended (a
        later call starts new ones)."""
        with self._lock:
            lanes, self._lanes, self._busy = self._lanes, [], []
        for lane in lanes:
            try:
                lane.submit(connections.close_all).result(timeout=timeout)
            except Exception as exc:  # noqa: BLE001 - stopping must go on
                log.warning("closing an SMTP lane's database connection failed: %s", type(exc).__name__)
            lane.shutdown(wait=False)


def _log_error(what: str, exc: BaseException) -> None:
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    log.error("%s: %s", what, parsing.redact(text))


class PbemHandler:
    """aiosmtpd handler: RCPT checks the recipient, DATA stores the mail, nothing else."""

    def __init__(self, max_size: int | None = None, max_recipients: int = MAX_RECIPIENTS,
                 lanes: DbLanes | None = None) -> None:
        self.max_size = max_size if max_size is not None else settings.PBEM_SMTP_MAX_SIZE
        self.max_recipients = max_recipients
        self.lanes = lanes or DbLanes()

    async def handle_RCPT(self, server: SMTP, session: Session, envelope: Envelope, address: str,
                          rcpt_options: list[str]) -> str:
        if len(envelope.rcpt_tos) >= self.max_recipients:
            return "452 4.5.3 Too many recipients"
        try:
            known = await self.lanes.run(_check_recipient, address)
        except Exception as exc:  # noqa: BLE001 - the sender must retry, not bounce
            _log_error("recipient check failed", exc)
            return "451 4.3.0 Temporary failure, try again later"
        if not known:
            # Why no address in the answer: it may hold a (stale) seat token.
            return "550 5.1.1 No such mailbox here"
        envelope.rcpt_tos.append(address)
        return "250 2.1.5 Recipient OK"

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        raw = envelope.original_content if envelope.original_content is not None else envelope.content
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if raw is None or not envelope.rcpt_tos:
            return "554 5.5.1 No valid recipients"
        if len(raw) > self.max_size:
            return "552 5.3.4 Message too big for this server"
        try:
            row_id = await self.lanes.run(_receive, bytes(raw), envelope.mail_from or "", list(envelope.rcpt_tos))
        except Exception as exc:  # noqa: BLE001 - 451: the sending MTA keeps the mail and retries
            _log_error("storing an inbound mail failed", exc)
            return "451 4.3.0 Requested action aborted: local error in processing"
        return f"250 2.0.0 Message accepted as {row_id}"

    async def handle_exception(self, error: Exception) -> str:
        """aiosmtpd's default answers a 500 quoting the exception; ours is a temporary failure, logged."""
        _log_error("SMTP session error", error)
        return "451 4.3.0 Temporary failure, try again later"


def parse_addr(addr: str) -> tuple[str, int]:
    host, _, port = addr.rpartition(":")
    return (host.strip("[]") or "127.0.0.1"), int(port)


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


#: Longest line taken in DATA. Why above RFC 5321's 1,000: aiosmtpd answered longer lines
#: (long encoded-word headers, unwrapped HTML) with "500 Line too long", a refusal the sender
#: cannot cure by retrying and never meant; the mail size limit still bounds the memory.
MAX_LINE_LENGTH = 1024 * 1024


class PbemSMTP(SMTP):
    line_length_limit = MAX_LINE_LENGTH


class PbemLMTP(LMTP):
    """LMTP (RFC 2033) for an MTA in front (Postfix's ``lmtp:`` transport): LHLO instead of EHLO,
    and after DATA one answer per recipient (:class:`LmtpHandler`)."""

    line_length_limit = MAX_LINE_LENGTH


class LmtpHandler(PbemHandler):
    """The same doors as SMTP. Why one answer repeated: the mail is stored once for all its
    recipients (one row, judged for each addressed seat), so it is taken or refused for all."""

    async def handle_DATA(self, server: SMTP, session: Session, envelope: Envelope) -> str:
        status = await super().handle_DATA(server, session, envelope)
        return "\r\n".join([status] * max(len(envelope.rcpt_tos), 1))


class PbemController(Controller):
    """aiosmtpd's threaded controller; on stop it also closes the database connections its handler's
    lanes used."""

    def __init__(self, *args: Any, lmtp: bool = False, **kwargs: Any) -> None:
        self.lmtp = lmtp
        super().__init__(*args, **kwargs)

    def factory(self) -> SMTP:
        if self.lmtp:
            return PbemLMTP(self.handler, **self.SMTP_kwargs)
        return PbemSMTP(self.handler, **self.SMTP_kwargs)

    def stop(self, no_assert: bool = False) -> None:
        super().stop(no_assert=no_assert)
        lanes = getattr(self.handler, "lanes", None)
        if isinstance(lanes, DbLanes):
            lanes.close()


def make_controller(host: str, port: int, handler: PbemHandler | None = None, *, lmtp: bool = False) -> Controller:
    """The threaded aiosmtpd server the ``smtpd`` command and the tests start (``lmtp``: an LMTP one)."""
    handler = handler or (LmtpHandler() if lmtp else PbemHandler())
    return PbemController(
        handler, lmtp=lmtp, hostname=host, port=port,
        server_hostname=settings.PBEM_MAIL_DOMAIN,
        ident="pbem ESMTP",
        data_size_limit=handler.max_size,
        command_call_limit=COMMAND_LIMITS,
        decode_data=False,
    )
