"""``python manage.py smtpd`` serves SMTP on the address it is given and stops on SIGTERM."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
from pathlib import Path

from pbem.mail.smtp import free_port

ROOT = Path(__file__).resolve().parents[2]


def test_it_serves_smtp_from_the_management_command(tmp_path: Path) -> None:
    port, lmtp_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL",)}
    env.update(DJANGO_SETTINGS_MODULE="pbem.settings", PBEM_VAR_DIR=str(tmp_path), PYTHONUNBUFFERED="1")
    log = tmp_path / "smtpd.log"
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "smtpd", "--listen", f"127.0.0.1:{port}",
                                 "--lmtp", f"127.0.0.1:{lmtp_port}"],
                                cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 30
            banner = ""
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    with smtplib.SMTP("127.0.0.1", port, timeout=5) as client:
                        code, text = client.ehlo()
                        assert code == 250
                        banner = text.decode()
                        assert client.noop()[0] == 250
                    break
                except ConnectionRefusedError:
                    time.sleep(0.2)
            assert proc.poll() is None, log.read_text()
            assert "SIZE" in banner, banner
            with smtplib.LMTP("127.0.0.1", lmtp_port, timeout=5) as lmtp:  # the LMTP listener beside it
                assert lmtp.docmd("EHLO", "postfix.example")[0] == 500 and lmtp.ehlo()[0] == 250  # LHLO
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=20)
    assert proc.returncode == 0, log.read_text()
    assert "pbem smtpd listening on 127.0.0.1" in log.read_text()
    assert "pbem smtpd stopped" in log.read_text()
    assert f"pbem lmtp listening on 127.0.0.1:{lmtp_port}" in log.read_text()
