"""The pages a Portuguese reader opens besides their game page (issue 27), in headless Chromium at
1280 and 390 px: a whole turn being planned, their list of games, the home page, the games being
played, a campaign and a game's public page, every fixed text in Portuguese (none of the catalogue's English left), the
page no wider than the screen; an English reader of the same pages still reads English."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from pbem.games import campaigns
from pbem.games import services as game_services
from pbem.games.models import Game
from tests.browser.test_personal_pages import DESKTOP, PHONE, link_of, open_page, people
from tests.factories import play_first_options
from tests.mail.conftest import start_game
from tests.mail.test_language_by_mail import english_left
from tests.mail.test_portuguese_games_by_mail import engine_english_left

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _portuguese(page: Any, viewport: dict[str, int]) -> str:
    assert page.get_attribute("html", "lang") == "pt"
    shown: str = page.inner_text("body")
    assert english_left(shown) == [] and engine_english_left(shown) == [], shown[:1500]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    return shown


def _her_turn(game: Game) -> Game:
    rules = engine.get(game.rules)
    for _ in range(20):
        game.refresh_from_db()
        assert game.state is not None
        if 0 in rules.pending(game.state):
            return game
        play_first_options(game.pk, until_finished=False, limit=1)
    raise AssertionError("Ana never got her turn")


def test_it_shows_a_portuguese_player_her_planned_turn_and_her_games_in_portuguese(new_page: Any, site: str,
                                                                                   shots: Path) -> None:
    folk = people()[:2]
    ana = game_services.do_get_or_create_player(folk[0].email)
    game_services.do_update_preferences(ana, language="pt")
    _her_turn(start_game("caravelas", folk))
    link = link_of(folk[0], site)
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = new_page(viewport)
        open_page(page, link + "?plan=")
        shown = _portuguese(page, viewport)
        for said in ("O seu turno, planejado", "Ainda nada: escolha o primeiro passo abaixo", "Parar de planejar",
                     "Nada é enviado até clicar em", "Primeiro"):
            assert said in shown, said
        page.locator("#options button").first.click()
        page.wait_for_selector("#plan-steps li[data-code]")
        shown = _portuguese(page, viewport)
        assert "Tirar o último passo" in shown and "Enviar este turno (1 passo)" in shown
        assert "Depois" in shown or "O plano está completo" in shown
        page.screenshot(path=str(shots / f"page-plan-pt-{name}.png"), full_page=True)
        page = new_page(viewport)
        open_page(page, link + "games/")
        shown = _portuguese(page, viewport)
        for said in ("Os jogos de", "Jogo", "Estado", "Prazo", "é a sua vez", "Os jogos que esperam por você"):
            assert said in shown, said
        page.screenshot(path=str(shots / f"page-my-games-pt-{name}.png"), full_page=True)
    # Bruno reads English on the same pages of the same game
    page = new_page(DESKTOP)
    open_page(page, link_of(folk[1], site) + "games/")
    assert page.get_attribute("html", "lang") == "en"
    assert "Bruno's games" in page.inner_text("body") or "games" in page.inner_text("body")
    assert "waiting for" in page.inner_text("body") and "Os jogos de" not in page.inner_text("body")


def test_it_shows_the_pages_anyone_may_open_in_the_browsers_language(browser: Any, site: str, shots: Path) -> None:
    folk = people()[:2]
    ana = game_services.do_get_or_create_player(folk[0].email)
    campaign, _first = campaigns.do_create_campaign(ana, "caravelas", name="Verão", invite=[folk[1].email])
    game = start_game("caravelas", folk)
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        context = browser.new_context(viewport=viewport,
                                      extra_http_headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.5"})
        try:
            page = context.new_page()
            open_page(page, site + "/")
            shown = _portuguese(page, viewport)
            assert "Começar um jogo por correio" in shown and "Para programadores" in shown
            page.screenshot(path=str(shots / f"page-home-pt-{name}.png"), full_page=True)
            open_page(page, site + "/games/")
            shown = _portuguese(page, viewport)
            for said in ("Jogos", "Esperando jogadores", "Em andamento", "Terminados"):
                assert said in shown, said
            open_page(page, site + f"/campaigns/{campaign.pk}/")
            shown = _portuguese(page, viewport)
            for said in ("Campanha #", "Classificação", "Vitórias", "A história até agora", "organizada por",
                         "Classificação (vitórias, depois pontuação total)"):
                assert said in shown, said
            page.screenshot(path=str(shots / f"page-campaign-pt-{name}.png"), full_page=True)
            open_page(page, site + f"/games/{game.pk}/")  # a game's public page, its board in Portuguese too
            shown = _portuguese(page, viewport)
            for said in ("Jogadores", "A mesa", "Frotas:", "Prazos:", "Quando um jogador não joga", "jogando"):
                assert said in shown, said
            open_page(page, site + "/nowhere/")
            assert "Não há nada em" in _portuguese(page, viewport)
        finally:
            context.close()
    context = browser.new_context(viewport=DESKTOP)  # no Accept-Language of ours: English
    try:
        page = context.new_page()
        open_page(page, site + f"/campaigns/{campaign.pk}/")
        assert "Standings (wins, then total score)" in page.inner_text("body")
        open_page(page, site + "/")
        assert "Start a game by mail" in page.inner_text("body")
    finally:
        context.close()
