"""``make run`` works: migrate, then ``manage.py runall`` serves web and SMTP on the embedded default.

Runs the two commands ``make run`` runs, in a subprocess with a fresh var/ folder
and nothing configured (SQLite, no broker, Maildir), on free ports: the API
answers, a mail to the general address is taken and its answer is caught in
var/maildir; then SIGTERM stops everything.
"""

from __future__ import annotations

import os
import signal
import smtplib
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from email.message import EmailMessage
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def embedded_env(var: Path, http: int, smtp: int) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "EMAIL_HOST", "PBEM_MAILDIR")}
    env.update(PBEM_VAR_DIR=str(var), PBEM_HTTP_ADDR=f"127.0.0.1:{http}", PBEM_SMTP_ADDR=f"127.0.0.1:{smtp}",
               DJANGO_SETTINGS_MODULE="pbem.settings", PYTHONUNBUFFERED="1")
    return env


def http_status(url: str) -> int | None:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            status: int = response.status
            return status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return None


@pytest.mark.slow
def test_migrate_then_runall_serves_web_and_smtp(tmp_path: Path) -> None:
    var = tmp_path / "var"
    var.mkdir()  # what `make run` does first
    http, smtp = free_port(), free_port()
    env = embedded_env(var, http, smtp)
    manage = [sys.executable, str(ROOT / "manage.py")]
    migrate = subprocess.run([*manage, "migrate", "--noinput"], cwd=ROOT, env=env, capture_output=True, text=True,
                             timeout=300)
    assert migrate.returncode == 0, migrate.stdout + migrate.stderr
    assert (var / "pbem.sqlite3").exists()

    log = tmp_path / "runall.log"
    with log.open("w") as out:
        proc = subprocess.Popen([*manage, "runall"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            status = None
            while time.monotonic() < deadline and proc.poll() is None:
                status = http_status(f"http://127.0.0.1:{http}/api/v1/rules/")
                if status is not None:
                    break
                time.sleep(0.3)
            assert proc.poll() is None, f"runall exited with {proc.returncode}:\n{log.read_text()[-3000:]}"
            assert status == 200, f"GET /api/v1/rules/ answered {status}:\n{log.read_text()[-3000:]}"
            with smtplib.SMTP("127.0.0.1", smtp, timeout=10) as client:
                code, _ = client.noop()
                assert code == 250
                message = EmailMessage()
                message["From"], message["To"], message["Subject"] = "alice@example.com", "pbem@pbem.localhost", "hi"
                message.set_content("help")
                client.send_message(message)
            # The answer is caught in the Maildir under var/ (tasks run in process).
            new = var / "maildir" / "new"
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and not (new.is_dir() and any(new.iterdir())):
                time.sleep(0.3)
            assert new.is_dir() and any(new.iterdir()), f"no mail in {new}:\n{log.read_text()[-3000:]}"
            answer = next(new.iterdir()).read_text(errors="replace")
            assert "alice@example.com" in answer
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:  # pragma: no cover - a hang is a failure, but clean up
                    proc.kill()
                    proc.wait()
                    pytest.fail(f"runall did not stop on SIGTERM:\n{log.read_text()[-3000:]}")
    assert proc.returncode in (0, -signal.SIGTERM), f"runall stopped with {proc.returncode}"


def test_it_derives_the_links_in_mails_from_the_http_address() -> None:
    from pbem.settings import _public_url_from

    assert _public_url_from("127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert _public_url_from("127.0.0.1:8123") == "http://127.0.0.1:8123"
    assert _public_url_from("0.0.0.0:8080") == "http://127.0.0.1:8080"  # a wildcard is this machine
    assert _public_url_from("[::1]:8080") == "http://[::1]:8080"
