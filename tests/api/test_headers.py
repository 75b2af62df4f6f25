"""Browser-facing headers: CSP everywhere, HSTS and secure cookies over HTTPS, CORS for configured origins."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

from django.test import Client, override_settings

ROOT = Path(__file__).resolve().parents[2]


def test_it_passes_the_deploy_check_with_production_settings(tmp_path):
    # Why DJANGO_ALLOW_ASYNC_UNSAFE is dropped: the browser tests set it in this process, and a
    # production deployment must not run with it (the deploy check says so).
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PBEM_", "DATABASE_URL", "REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"))}
    env |= {"DEBUG": "0", "PBEM_EMBEDDED": "0", "SECRET_KEY": secrets.token_urlsafe(50),
            "PBEM_PUBLIC_URL": "https://pbem.example.org", "ALLOWED_HOSTS": "pbem.example.org",
            "PBEM_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "pbem.settings"}
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_every_answer_has_a_content_security_policy(db):
    for url in ("/api/v1/rules/", "/api/v1/docs/", "/api/v1/nothing-here/"):
        r = Client().get(url)
        assert "script-src 'self'" in r["Content-Security-Policy"], url
        assert "'unsafe-inline'" not in r["Content-Security-Policy"].split("script-src")[1].split(";")[0], url
    assert r["X-Content-Type-Options"] == "nosniff"


@override_settings(CORS_ALLOWED_ORIGINS=["https://app.example.org"])
def test_a_configured_origin_gets_its_preflight_answered_without_authentication(db):
    r = Client().options("/api/v1/games/1/moves/", HTTP_ORIGIN="https://app.example.org",
                         HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
                         HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, if-match, idempotency-key")
    assert r.status_code == 200
    assert r["Access-Control-Allow-Origin"] == "https://app.example.org"
    allowed = r["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed and "if-match" in allowed and "idempotency-key" in allowed
    got = Client().get("/api/v1/rules/", HTTP_ORIGIN="https://app.example.org")
    assert got["Access-Control-Allow-Origin"] == "https://app.example.org" and "etag" in got[
        "Access-Control-Expose-Headers"].lower()
    stranger = Client().options("/api/v1/games/1/moves/", HTTP_ORIGIN="https://evil.example.com",
                                HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST")
    assert "Access-Control-Allow-Origin" not in stranger
