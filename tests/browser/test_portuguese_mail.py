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
