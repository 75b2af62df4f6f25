"""Headless Chromium (Debian's ``chromium``) driven by Playwright, against Django's live server.

Never ``playwright install``: the browser is the system's, at /usr/bin/chromium. Without it
these tests skip and say why; in CI (``CI`` or ``PBEM_REQUIRE_SERVICES`` set) a missing
browser is an error, because .ci/run installs it.

``PBEM_SCREENSHOTS=docs/screenshots`` (``make screenshots``) makes the tests write their
screenshots there; otherwise into the test's temporary folder.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("PBEM_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def _missing() -> str:
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install -e '.[dev]')"
    return ""


def _required() -> bool:
    return any(os.environ.get(v, "").strip().lower() in ("1", "true", "yes") for v in ("CI", "PBEM_REQUIRE_SERVICES"))


# Why module scope, not session: Playwright's sync API keeps an event loop running in this
# thread while the browser is open, and Django's test client cannot call an async view (the
# API's move and stream doors) from a thread with a running loop ("AsyncToSync in the same
# thread as an async event loop"). A session-long browser broke every later API test that the
# same xdist worker ran; closed after its module's tests, it leaves them a thread without a loop.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    why = _missing()
    if why:
        if _required():
            pytest.fail(f"browser tests must run in CI, but: {why}")
        pytest.skip(why)
    # Why: Playwright's sync API runs an event loop in this thread; Django's ORM refuses to
    # run in a thread with a running loop unless told that this test code is synchronous.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: docs/screenshots under ``make screenshots``, else a temporary folder."""
    target = os.environ.get("PBEM_SCREENSHOTS", "").strip()
    folder = Path(target) if target else tmp_path / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def site(live_server: Any, settings: Any) -> str:
    """The live server's address; mails link to it, tasks run in process, mail is kept in memory."""
    settings.PBEM_PUBLIC_URL = live_server.url
    settings.PBEM_TASKS_IN_PROCESS = True
    settings.PBEM_MAIL_DOMAIN = "pbem.localhost"
    settings.PBEM_FROM_EMAIL = "pbem@pbem.localhost"
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    return str(live_server.url)


@pytest.fixture
def new_page(browser: Any) -> Iterator[Any]:
    """``new_page(viewport, javascript=True)``: a page in a context of its own (no shared cookies),
    closed after the test."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int], javascript: bool = True) -> Any:
        context = browser.new_context(viewport=viewport, java_script_enabled=javascript)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()
