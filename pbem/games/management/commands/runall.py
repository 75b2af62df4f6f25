"""``manage.py runall``: the whole service in one process (what ``make run`` starts).

* the web site and REST API under ASGI (uvicorn on a thread of its own, static files
  included) on ``PBEM_HTTP_ADDR``, as the distributed set-up serves it (gunicorn's uvicorn
  workers): the event streams and ``?wait=`` wait on the event loop;
* the SMTP ingress on ``PBEM_SMTP_ADDR`` (the same server as ``manage.py smtpd``);
* a small loop thread running the periodic jobs of ``pbem.games.periodic`` (the
  ones Celery beat runs when distributed): deadline sweep, outbox sweeper, digests.

Works on SQLite with no broker: tasks then run in process after each commit.
Ctrl-C (or SIGTERM) stops everything.
"""

from __future__ import annotations

import logging
import signal
import threading
import time
from typing import Any

from django.conf import settings
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import close_old_connections, connections
from django.utils import timezone

from pbem.games import periodic

log = logging.getLogger("pbem.runall")


def split_addr(addr: str, what: str) -> tuple[str, int]:
    host, sep, port = addr.rpartition(":")
    if not sep or not port.isdigit():
        raise CommandError(f"{what} must look like HOST:PORT, not {addr!r}")
    return host.strip("[]") or "127.0.0.1", int(port)


class PeriodicLoop(threading.Thread):
    """Runs each periodic job every ``job.every`` seconds until stopped; one failure never stops the loop."""

    def __init__(self, jobs: tuple[periodic.Job, ...] = periodic.JOBS, tick: float = 1.0) -> None:
        super().__init__(name="pbem-periodic", daemon=True)
        self.jobs = jobs
        self.tick = tick
        self.stopping = threading.Event()
        self.runs: dict[str, int] = {j.task: 0 for j in jobs}
        self._missing: set[str] = set()

    def run_once(self, j: periodic.Job) -> None:
        if j.task in self._missing:
            return
        close_old_connections()
        try:
            periodic.run_job(j, timezone.now())
        except (ImportError, AttributeError) as exc:
            # A job whose service is not part of this build (yet): say so once, then skip it.
            self._missing.add(j.task)
            log.warning("periodic job %s is unavailable (%s); skipping it", j.task, exc)
        except Exception:  # the loop must survive any one failing run
            log.exception("periodic job %s failed", j.task)
        finally:
            self.runs[j.task] += 1
            close_old_connections()

    def run(self) -> None:
        due = {j.task: 0.0 for j in self.jobs}
        while not self.stopping.is_set():
            now = time.monotonic()
            for j in self.jobs:
                if now >= due[j.task]:
                    self.run_once(j)
                    due[j.task] = time.monotonic() + j.every
            self.stopping.wait(self.tick)

    def stop(self) -> None:
        self.stopping.set()


class WebServer:
    """uvicorn serving the ASGI application on its own thread (it installs no signal handler there)."""

    def __init__(self, host: str, port: int) -> None:
        import uvicorn

        # Why: a connection kept by a request's thread would be left behind with it under ASGI
        # (pbem/asgi.py); the embedded default is SQLite, where this is the setting already.
        for alias in connections:
            connections.settings[alias]["CONN_MAX_AGE"] = 0
        config = uvicorn.Config(ASGIStaticFilesHandler(get_asgi_application()), host=host, port=port,
                                lifespan="off", log_level="info", timeout_graceful_shutdown=5)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="pbem-web", daemon=True)

    def start(self, timeout: float = 30.0) -> None:
        self.thread.start()
        ends = time.monotonic() + timeout
        while not self.server.started and self.thread.is_alive() and time.monotonic() < ends:
            time.sleep(0.05)
        if not self.server.started:
            raise CommandError("the web server did not start (is the address in use?)")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


def start_smtp(host: str, port: int) -> Any:
    """The SMTP ingress ``manage.py smtpd`` serves, started on its own thread; returns it (``.stop()``)."""
    from pbem.mail.smtp import make_controller

    controller = make_controller(host, port)
    controller.start()
    return controller


class Command(BaseCommand):
    help = "Run web, SMTP ingress and the periodic jobs in one process (the embedded default)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--http", default=settings.PBEM_HTTP_ADDR, help="web listen address HOST:PORT")
        parser.add_argument("--smtp", default=settings.PBEM_SMTP_ADDR, help="SMTP listen address HOST:PORT")
        parser.add_argument("--no-smtp", action="store_true", help="do not start the SMTP ingress")
        parser.add_argument("--no-periodic", action="store_true", help="do not run the periodic jobs")

    def handle(self, *args: Any, **opts: Any) -> None:
        http_host, http_port = split_addr(opts["http"], "PBEM_HTTP_ADDR")
        stopping = threading.Event()
        stoppers: list[Any] = []

        web = WebServer(http_host, http_port)
        web.start()
        stoppers.append(web.stop)
        self.stdout.write(f"web      http://{http_host}:{http_port}/  (API /api/v1/, docs /api/v1/docs/)")

        if not opts["no_smtp"]:
            smtp_host, smtp_port = split_addr(opts["smtp"], "PBEM_SMTP_ADDR")
            server = start_smtp(smtp_host, smtp_port)
            stoppers.append(server.stop)
            self.stdout.write(f"smtp     {smtp_host}:{smtp_port}  (mail for @{settings.PBEM_MAIL_DOMAIN})")

        if not opts["no_periodic"]:
            loop = PeriodicLoop()
            loop.start()
            stoppers.append(loop.stop)
            self.stdout.write("periodic " + ", ".join(f"{j.task} every {j.every:g}s" for j in loop.jobs))

        tasks = "in process" if settings.PBEM_TASKS_IN_PROCESS else f"Celery at {settings.CELERY_BROKER_URL}"
        mail = settings.EMAIL_HOST or f"Maildir {settings.PBEM_MAILDIR}"
        self.stdout.write(f"tasks    {tasks}; outbound mail: {mail}")
        self.stdout.write("Ctrl-C stops everything.")

        def on_term(signum: int, frame: Any) -> None:
            stopping.set()

        previous = signal.signal(signal.SIGTERM, on_term)
        try:
            while not stopping.is_set():
                stopping.wait(0.5)
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
            self.stdout.write("stopping...")
            for stop in reversed(stoppers):
                try:
                    stop()
                except Exception:  # stop the rest regardless
                    log.exception("error while stopping")
        self.stdout.write("stopped.")
