"""A resignation is told to the other players by mail and on their page (issue 21), in headless
Chromium at 1280 and 390 px: Bruno resigns from a running Maracaibo game; Ana's mail says so
in its subject and text, and her page names him as resigned in the players' list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.games import services as game_services
from pbem.games.models import Player
from tests.browser.clicks import settle
from tests.browser.test_personal_pages import DESKTOP, PHONE, link_of, people
from tests.mail.conftest import start_game, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_resignation_is_told_to_the_others_by_mail_and_on_their_page(new_page: Any, site: str,
                                                                       shots: Path) -> None:
    folk = people()
    ana, bruno, carla = folk
    game = start_game("maracaibo", folk)
    url = link_of(ana, site)
    page = new_page(DESKTOP)
    page.goto(url)
    assert "resigned" not in page.content()
    before = len(ana.inbox())
    game_services.do_resign(game.pk, Player.objects.get(email=bruno.email))
    told = [m for m in ana.inbox()[before:] if str(m["Subject"]).endswith(": Bruno resigned")]
    assert told and "Bruno resigned from game" in text_of(told[0])
    assert any(str(m["Subject"]).endswith(": Bruno resigned") for m in carla.inbox())
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        shown = page if name == "1280" else new_page(viewport)
        shown.goto(url)
        settle(shown)
        line = shown.locator("li", has_text="Bruno · resigned")
        assert line.count() == 1 and line.first.is_visible(), name
        assert "the game plays their seat's safe default moves" in line.first.inner_text()
        assert shown.locator("li", has_text="Ana (you)").count() == 1
        assert shown.evaluate("document.documentElement.scrollWidth") <= viewport["width"], "nothing wider"
        line.first.scroll_into_view_if_needed()
        shown.screenshot(path=str(shots / f"page-resigned-{name}.png"))
