"""A turn mail's worked whole turn at a phone's width in headless Chromium (QA of #20: in scenario 79 the
line "sail to 8, Smugglers' beach: pay 2 tobacco for 2 doubloons", 60 characters of monospace, made the mail
505 px wide at 390 px: the example's <pre> kept its lines whole, unlike the board's text under it)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.mail import compose
from tests.browser.test_personal_pages import DESKTOP, PHONE

pytestmark = [pytest.mark.slow]

LINES = ["sail to 8, Smugglers' beach: pay 2 tobacco for 2 doubloons", "buy Pious Gunner, explore 1",
         "deliver cotton with Red Gunner (cotton, spyglass), disc UH: home port Roatán", "done"]


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP])
def test_the_worked_whole_turn_of_a_mail_wraps_within_a_phones_width(viewport: dict[str, int], new_page: Any) -> None:
    options = [{"code": "s8", "label": "sail 3 to 8 Martinique"}]
    html = compose.render_html_body({"options": options, "example_turn": LINES, "state_text": "THE CARIBBEAN",
                                     "headline": "It is your turn.", "game": {}})
    page = new_page(viewport)
    page.set_content(html)
    width = viewport["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "nothing wider than the screen"
    shown = " ".join(page.locator("pre").first.inner_text().split())
    assert shown == " ".join(" ".join(LINES).split()), "every line of the example whole, wrapped"
