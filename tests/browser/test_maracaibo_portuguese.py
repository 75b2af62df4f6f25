"""A Portuguese player's Maracaibo mail and game page as shown (issue 27), at 1280 and 390 px,
beside an English player of the same game: the game's own texts (option labels, the board in words,
the pictures' legends) are Portuguese for her, with no catalogue miss; the screenshots go to
docs/screenshots (``make screenshots``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine import i18n
from pbem.games import services as game_services
from tests.browser.mail_view import as_shown
from tests.browser.test_personal_pages import DESKTOP, PHONE, link_of, open_page, people
from tests.mail.conftest import start_game, text_of
from tests.mail.test_language_by_mail import english_left

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_it_shows_a_maracaibo_mail_and_page_in_portuguese_beside_an_english_player(new_page: Any, site: str,
                                                                                  shots: Path) -> None:
    folk = people()[:2]
    player = game_services.do_get_or_create_player(folk[0].email)
    game_services.do_update_preferences(player, language="pt")
    missed: list[tuple[str, str]] = []
    with i18n.on_miss(lambda m, c: missed.append((m, c))):
        start_game("maracaibo", folk)
        mine, theirs = folk[0].latest(), folk[1].latest()
        html = as_shown(mine)
    assert [m for m, c in missed if c == "pt"] == []
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = new_page(viewport)
        page.set_content(html)
        shown = page.inner_text("body")
        for portuguese in ("As suas opções", "planejar ", "JOGADORES", "EDIFÍCIOS DE PRESTÍGIO"):
            assert portuguese in shown, portuguese
        assert english_left(shown) == [], shown[:1500]
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(shots / f"mail-maracaibo-pt-{name}.png"), full_page=True)
    assert "plan " in text_of(theirs) and "planejar " not in text_of(theirs)
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = new_page(viewport)
        with i18n.on_miss(lambda m, c: missed.append((m, c))):
            open_page(page, link_of(folk[0], site))
        assert page.get_attribute("html", "lang") == "pt"
        shown = page.inner_text("body")
        assert "planejar " in shown and english_left(shown) == [], shown[:1500]
        page.screenshot(path=str(shots / f"page-maracaibo-pt-{name}.png"), full_page=True)
    assert [m for m, c in missed if c == "pt"] == []
