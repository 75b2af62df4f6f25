"""``python manage.py smtpd [--listen HOST:PORT] [--lmtp HOST:PORT]``: the SMTP ingress (aiosmtpd).

``--lmtp`` (or ``PBEM_LMTP_ADDR``) serves LMTP beside it, for an MTA in front (Postfix's
``lmtp:`` transport); the same handler, one answer per recipient.

Serves :class:`pbem.mail.smtp.PbemHandler` on ``PBEM_SMTP_ADDR`` (default
127.0.0.1:2525) until interrupted. Mail for unknown recipients is refused at
RCPT; accepted mail is committed before the server answers 250.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from pbem.mail.smtp import make_controller, parse_addr


class Command(BaseCommand):
    help = "Serve SMTP for inbound mail (moves by reply, account commands) on PBEM_SMTP_ADDR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--listen", default=settings.PBEM_SMTP_ADDR,
                            help="HOST:PORT to listen on (default: PBEM_SMTP_ADDR, %(default)s)")
        parser.add_argument("--lmtp", default=settings.PBEM_LMTP_ADDR,
                            help="HOST:PORT to serve LMTP on as well (default: PBEM_LMTP_ADDR; empty: none)")

    def handle(self, *args: Any, **options: Any) -> None:
        host, port = parse_addr(options["listen"])
        controllers = [make_controller(host, port)]
        if options["lmtp"]:
            lmtp_host, lmtp_port = parse_addr(options["lmtp"])
            controllers.append(make_controller(lmtp_host, lmtp_port, lmtp=True))
        stop = threading.Event()

        def _stop(signum: int, frame: Any) -> None:
            stop.set()

        for sig in (signal.SIGINT, signal.SIGTERM):
            # Not the main thread (e.g. started by runall): the caller stops us.
            with contextlib.suppress(ValueError):
                signal.signal(sig, _stop)
        for controller in controllers:
            controller.start()
        self.stdout.write(f"pbem smtpd listening on {host}:{port} for @{settings.PBEM_MAIL_DOMAIN} "
                          f"(max {settings.PBEM_SMTP_MAX_SIZE} bytes a mail)")
        if options["lmtp"]:
            self.stdout.write(f"pbem lmtp listening on {options['lmtp']}")
        try:
            while not stop.wait(1.0):
                pass
        finally:
            for controller in controllers:
                controller.stop()
            self.stdout.write("pbem smtpd stopped")
