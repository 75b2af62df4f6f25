"""A Portuguese player's turn mail as a mail program shows it, at both widths (issue 27): its fixed
texts are Portuguese, beside an English player's of the same game; the screenshots go to
docs/screenshots (``make screenshots``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pbem.games import services as game_services
from tests.browser.mail_view import as_shown
from tests.browser.test_personal_pages import DESKTOP, PHONE, people
from tests.mail.conftest import start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_shows_a_portuguese_players_mail_in_portuguese_at_both_widths(new_page: Any, site: str,
                                                                          shots: Path) -> None:
    folk = people()
    player = game_services.do_get_or_create_player(folk[0].email)
    game_services.do_update_preferences(player, language="pt")
    start_game("maretta", folk, options={"side": "A"})
    mine, theirs = folk[0].latest(), folk[1].latest()
    assert "Comandos da conta" in text_of(mine) and "Account commands" in text_of(theirs)
    html = as_shown(mine)
    assert '<html lang="pt">' in html
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = new_page(viewport)
        page.set_content(html)
        shown = page.inner_text("body")
        assert "Desde a sua última mensagem" in shown or "As suas opções" in shown
        assert "Your options" not in shown and "Account commands" not in shown
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(shots / f"mail-turn-pt-{name}.png"), full_page=True)


def test_it_shows_a_caravelas_mail_and_page_in_portuguese_beside_an_english_player(new_page: Any, site: str,
                                                                                  shots: Path) -> None:
    from tests.browser.test_personal_pages import link_of, open_page
    from tests.mail.test_language_by_mail import english_left
    from tests.mail.test_portuguese_games_by_mail import engine_english_left

    folk = people()[:2]
    player = game_services.do_get_or_create_player(folk[0].email)
    game_services.do_update_preferences(player, language="pt")
    start_game("caravelas", folk)
    mine, theirs = folk[0].latest(), folk[1].latest()
    html = as_shown(mine)
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = new_page(viewport)
        page.set_content(html)
        shown = page.inner_text("body")
        assert "Frotas:" in shown and "Com moldura: a sua frota" in shown
        assert english_left(shown) == [] and engine_english_left(shown) == [], shown[:1500]
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(shots / f"mail-caravelas-pt-{name}.png"), full_page=True)
    assert "Fleets:" in text_of(theirs) and "Frotas:" not in text_of(theirs)
    # her page speaks Portuguese too (the page is hers: her language, whatever the browser's)
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = new_page(viewport)
        open_page(page, link_of(folk[0], site))
        assert page.get_attribute("html", "lang") == "pt"
        shown = page.inner_text("body")
        for portuguese in ("Tabuleiro", "A sua vista", "Jogadores", "Histórico", "Frotas:", "Escrever aos moderadores"):
            assert portuguese in shown, portuguese
        assert english_left(shown) == [] and engine_english_left(shown) == [], shown[:1500]
        if "É a sua vez" in shown:
            assert "As suas opções" in shown and "terminar o turno" in shown
        page.screenshot(path=str(shots / f"page-caravelas-pt-{name}.png"), full_page=True)
    page = new_page(DESKTOP)
    open_page(page, link_of(folk[1], site))
    assert page.get_attribute("html", "lang") == "en"
    shown = page.inner_text("body")
    assert "Your view" in shown and "Fleets:" in shown and "Frotas:" not in shown
