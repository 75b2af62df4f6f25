"""Every place an option names is a ringed link on the personal page's map (issue #21), for Caravelas
too: a place of one option picks it, a place of several (which caravela, which card) lists them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from pbem.games.models import Game, Move
from tests.browser.clicks import click, confirm_if_asked
from tests.browser.test_personal_pages import DESKTOP, PHONE, link_of, people
from tests.factories import play_first_options
from tests.mail.conftest import start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_it_links_the_places_of_caravelas_moves_on_the_map_at_both_widths(new_page: Any, site: str,
                                                                          shots: Path) -> None:
    folk = people()
    game = start_game("caravelas", folk)
    rules = engine.get("caravelas")
    for _ in range(40):  # until Ana (seat 0) has moves to make
        game.refresh_from_db()
        assert game.state is not None
        mine = rules.options(game.state, 0) if 0 in rules.pending(game.state) else []
        places: dict[str, list[str]] = {}
        for o in mine:
            place = rules.option_details(game.state, 0, o).get("place")
            if place:
                places.setdefault(place, []).append(o.code)
        if places:
            break
        play_first_options(game.pk, until_finished=False, limit=1)
    assert places, "Ana gets to move a caravela"
    url = link_of(folk[0], site)
    for viewport, board in ((DESKTOP, "#board .wide-board"), (PHONE, "#board .phone-board")):
        page = new_page(viewport)
        page.goto(url)
        links = page.locator(f"{board} a.target")
        assert sorted(links.evaluate_all("ts => ts.map(t => t.dataset.place)")) == sorted(places), \
            "exactly the places a move goes to are links"
        titles = links.evaluate_all("ts => ts.map(t => t.querySelector('title').textContent)")
        assert all(titles), "each link says what a click there does"
    page.locator("#board").screenshot(path=str(shots / "page-caravelas-links-390.png"))
    page = new_page(DESKTOP)
    page.goto(url)
    many = next((p for p, codes in places.items() if len(codes) > 1), None)
    if many is not None:  # a place reached by several moves: the page lists exactly those
        click(page, page.locator(f"#board .wide-board a.target[data-place='{many}']"))
        listed = page.locator("#options button").evaluate_all("bs => bs.map(b => b.dataset.code)")
        assert sorted(listed) == sorted(places[many]) and page.locator("#at-place").is_visible()
        click(page, page.locator("#at-place a"))
        assert page.locator("#options button").count() == len(mine)
    one = next(p for p, codes in places.items() if len(codes) == 1)
    click(page, page.locator(f"#board .wide-board a.target[data-place='{one}']"))
    chosen = page.locator("#chosen button")
    assert chosen.get_attribute("data-code") == places[one][0], "the place's one move, picked"
    page.locator("#board").screenshot(path=str(shots / "page-caravelas-links-1280.png"))
    click(page, chosen)
    confirm_if_asked(page)
    last = Move.objects.filter(game=game, seat=0).order_by("-number").first()
    assert last is not None and last.move.get("to") == one and last.source == "web"
    assert Game.objects.get(pk=game.pk).version > game.version
