"""Clicking on the personal page the way a person does, with or without JavaScript: a click either
loads a page (no JavaScript, or a plain link) or updates the page in place (htmx); both are waited for."""

from __future__ import annotations

from typing import Any

SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"


def settle(page: Any) -> None:
    page.wait_for_load_state()
    if page.evaluate("() => !!window.htmx"):
        page.wait_for_function(SETTLED)


def click(page: Any, target: Any) -> None:
    """Click ``target`` and wait for what it loads or swaps (the answer to its request)."""
    with page.expect_response(lambda r: "/p/" in r.url and not r.url.endswith("/version")):
        target.click()
    settle(page)


def confirm_if_asked(page: Any, said: list[str] | None = None) -> None:
    """Press the confirm step's button when the page asks (a move that ends the turn or reveals)."""
    if page.locator("#confirm").count():
        if said is not None:
            said.append(page.locator("#confirm button").inner_text())
        click(page, page.locator("#confirm button"))
