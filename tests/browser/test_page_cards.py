"""Maracaibo's personal page draws cards as cards (issue #21): each buy, plan or keep option shows
the card's name, cost, good, object and effect in words, and my hand and planning area are near
the top of the page on a phone; on a desktop the page uses its width, the map uncut."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engine.games.maracaibo import content as C
from tests.browser.clicks import click, confirm_if_asked
from tests.browser.test_personal_pages import DESKTOP, PHONE, link_of, people
from tests.mail.conftest import start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_it_draws_maracaibos_cards_and_my_hand_near_the_top_at_both_widths(new_page: Any, site: str,
                                                                            shots: Path) -> None:
    folk = people()
    start_game("maracaibo", folk)
    url = link_of(folk[0], site)
    for width, viewport in ((1280, DESKTOP), (390, PHONE)):
        page = new_page(viewport)
        page.goto(url)
        cards = page.locator("#options form.card-option")
        assert cards.count() >= 2, "the setup's plan options are drawn as cards"
        first = cards.first
        cid = int(first.locator(".card").get_attribute("data-card"))
        card = C.CARD[cid]
        text = first.inner_text()
        assert card["name"] in text and f"Cost {card['cost']} d" in text
        assert card["good"] in text and card["object"] in text
        effect = "; ".join(C.effect_text(e) for e in card["effects"]) or "no effect"
        assert effect in text, (effect, text)
        assert first.locator(".card-effect").is_visible()
        assert first.locator("button").inner_text().startswith(f"Plan {card['name']}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "nothing wider than the screen"
        if width == 1280:  # the 1,227 px map is not cut by a narrow column
            pan = page.locator("#board .wide-board .pan").first
            seen = pan.evaluate("p => ({shown: p.getBoundingClientRect().width,"
                                " whole: p.scrollWidth <= p.clientWidth + 1,"
                                " svg: p.querySelector('svg').getBoundingClientRect().width})")
            assert seen["whole"] and seen["shown"] >= 1200 and seen["svg"] >= 1200, seen
            print(f"desktop: map shown {seen['shown']:.0f} px wide, whole")
            page.screenshot(path=str(shots / "page-maracaibo-cards-1280.png"), full_page=True)
            continue
        # Plan one from the phone, keep four: they are my planning area and my hand, near the top.
        for _ in range(5):
            click(page, page.locator("#options form.card-option button").first)
            confirm_if_asked(page)
        page.goto(url)
        planned = page.locator("#planned .card")
        assert planned.count() == 1 and card["name"] in planned.first.inner_text()
        hand = page.locator("#hand")
        top = hand.bounding_box()
        assert top is not None and top["y"] < PHONE["height"], f"my hand starts at {top} px on a phone"
        assert page.locator("#hand .card").count() == 4 and page.locator("#hand .card").first.is_visible()
        print(f"phone: hand at y={top['y']:.0f} px, {page.locator('#hand .card').count()} cards")
        page.screenshot(path=str(shots / "page-maracaibo-cards-390.png"), full_page=True)


def test_it_sails_by_a_click_on_a_highlighted_place_of_the_map(new_page: Any, site: str, shots: Path) -> None:
    import engine
    from pbem.games.models import Game
    from tests.factories import play_first_options

    folk = people()
    game = start_game("maracaibo", folk)
    url = link_of(folk[0], site)
    for _ in range(60):  # the setup and the others' turns, by the service, until Ana may sail
        game.refresh_from_db()
        rules = engine.get("maracaibo")
        assert game.state is not None
        mine = rules.options(game.state, 0) if 0 in rules.pending(game.state) else []
        sails = [o.code for o in mine if rules.option_details(game.state, 0, o).get("kind") == "sail"]
        if sails:
            break
        play_first_options(game.pk, until_finished=False, limit=1)
    assert sails, "Ana gets to sail"
    page = new_page(DESKTOP)
    page.goto(url)
    targets = page.locator("#board .wide-board a.target")
    places = sorted(targets.evaluate_all("ts => ts.map(t => t.dataset.place)"))
    assert places == sorted(c[1:] for c in sails), "exactly the reachable places are links"
    page.locator("#board").screenshot(path=str(shots / "page-maracaibo-sail-targets-1280.png"))
    phone = new_page(PHONE)
    phone.goto(url)
    assert sorted(phone.locator("#board .phone-board a.target").evaluate_all(
        "ts => ts.map(t => t.dataset.place)")) == places, "the phone's map too"
    phone.goto(url + "?play=s99")  # not an option of mine: nothing picked
    assert phone.locator("#chosen").count() == 0 and phone.locator("#options button").count() == len(mine)
    phone.goto(f"{site}/games/{game.pk}/")  # a spectator's map links nowhere
    assert phone.locator("a.target").count() == 0
    target = targets.last
    place = target.get_attribute("data-place")
    click(page, target)
    chosen = page.locator("#chosen")
    assert chosen.is_visible() and place in chosen.inner_text()
    assert chosen.locator("button").get_attribute("data-code") == f"s{place}", "the same move as the button"
    click(page, chosen.locator("button"))
    confirm_if_asked(page)
    game = Game.objects.get(pk=game.pk)
    assert game.state is not None and game.state["seats"][0]["at"] == place, "Ana's ship went where she clicked"
