"""Playing from the personal pages alone, in headless Chromium, as three people would.

Each person opens the link in their own first mail, in their own browser context (no
shared cookies), and from then on only clicks what the page shows them.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from pbem.games.models import Game, Move
from tests.browser.clicks import click, confirm_if_asked
from tests.browser.mail_view import as_shown
from tests.mail.conftest import Persona, start_game, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def people() -> list[Persona]:
    return [Persona("ana@example.org", "Ana"), Persona("bruno@example.net", "Bruno"),
            Persona("carla@example.com", "Carla")]


def link_of(person: Persona, site: str) -> str:
    pattern = re.compile(rf"{re.escape(site)}/p/[^/\s]+/")
    found = next((m for m in (pattern.search(text_of(x)) for x in person.inbox()) if m), None)
    assert found, f"{person.name}'s first game mail carries a personal link"
    return found.group(0)


def open_page(page: Any, url: str) -> None:
    """Go to ``url``; why the retry: the page updates itself, and its own reload (after another
    player's move) may cut our navigation short."""
    from playwright.sync_api import Error

    for attempt in range(3):
        try:
            page.goto(url)
            return
        except Error:
            if attempt == 2:
                raise


def act(page: Any, url: str, rnd: random.Random, confirmed: list[str] | None = None) -> bool:
    """Open the page; if it offers options, press one (and confirm it, noting its words in
    ``confirmed``). True if a move went in."""
    open_page(page, url)
    buttons = page.locator("#options button")
    n = buttons.count()
    if n == 0:
        page.goto("about:blank")
        return False
    click(page, buttons.nth(rnd.randrange(n)))
    confirm_if_asked(page, confirmed)
    page.goto("about:blank")  # why: a page left open reloads itself when others move, racing our next visit
    return True


#: The smallest text a board may show, in CSS px (pbem.games.pages.READABLE_PX).
READABLE = 11.5

#: For every board picture on screen: its drawn width, the CSS px of its smallest text (font size
#: times the picture's scale), and whether its pan box holds it whole (else it is panned).
MEASURE_BOARD = """() => [...document.querySelectorAll('.board svg')].filter(s => s.getClientRects().length)
  .map(s => {
    const scale = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
    const sizes = [...s.querySelectorAll('text')].map(t => parseFloat(getComputedStyle(t).fontSize) * scale);
    const pan = s.closest('.pan');
    return {width: s.getBoundingClientRect().width, smallest: Math.min(...sizes),
            whole: pan.scrollWidth <= pan.clientWidth + 1, pan_width: pan.getBoundingClientRect().width};
  })"""


def readable_board(page: Any, width: int) -> list[dict[str, Any]]:
    """The board's every text is READABLE px or more at this width; nothing is wider than the
    screen but the board's own pan boxes, which the reader can scroll to their far edge."""
    assert page.evaluate("document.documentElement.scrollWidth") <= width, "nothing wider than the screen"
    parts = page.evaluate(MEASURE_BOARD)
    assert parts, "a board is on screen"
    for part in parts:
        assert part["smallest"] >= READABLE, f"text of {part['smallest']:.1f} px at {width} px: {parts}"
        assert part["pan_width"] <= width
    pans = page.locator(".board .pan")
    for k in range(pans.count()):
        if pans.nth(k).is_visible():  # reachable: scrolled to its far edge, the box shows it
            far = pans.nth(k).evaluate("p => { const was = p.scrollLeft; p.scrollLeft = p.scrollWidth; "
                                       "const far = p.scrollLeft + p.clientWidth; p.scrollLeft = was; return far }")
            assert far >= pans.nth(k).evaluate("p => p.scrollWidth") - 1
    return list(parts)


def fits_the_phone(page: Any) -> None:
    """Nothing wider than the screen; the board is on it, whole, its text readable."""
    parts = readable_board(page, PHONE["width"])
    assert [p["whole"] for p in parts] == [True], "Maretta's phone board is whole on the phone"
    box = page.locator("#board svg:visible").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5
    assert box["height"] > 100, "the board is drawn big enough to see"


def test_it_plays_a_whole_game_of_maretta_from_the_personal_pages(new_page: Any, site: str, shots: Path) -> None:
    folk = people()
    game = start_game("maretta", folk, options={"side": "A"})
    urls = [link_of(p, site) for p in folk]
    pages = [new_page(PHONE if i == 0 else DESKTOP) for i in range(3)]
    rnd = random.Random(5)

    # The page updates itself: Bruno watches while Ana plays, and never reloads.
    pages[1].goto(urls[1])
    assert "Ana has chosen" not in pages[1].content()
    assert act(pages[0], urls[0], rnd)
    pages[1].wait_for_selector("text=Ana has chosen", timeout=15_000)

    # A running game on a phone: headline, board and options all there, nothing too wide.
    pages[0].goto(urls[0])
    turn_shot = False
    moves = 1
    confirmed: list[str] = []
    while Game.objects.get(pk=game.pk).status != Game.Status.FINISHED:
        acted = False
        for i in range(3):
            if i == 0 and not turn_shot:
                open_page(pages[0], urls[0])
                if pages[0].locator("#options button").count():
                    fits_the_phone(pages[0])
                    assert pages[0].locator("#options button").first.is_visible()
                    pages[0].screenshot(path=str(shots / "page-running-390.png"), full_page=True)
                    turn_shot = True
            if act(pages[i], urls[i], rnd, confirmed):
                acted = True
                moves += 1
        assert acted, "nobody's page offers a move, but the game is not over"
        assert moves < 400, "the game does not end"
    assert turn_shot
    assert confirmed and all(c.startswith("Yes, ") for c in confirmed), "moves that end a turn are confirmed"

    # Finished: the winner on top, the results, the seed; on a phone too.
    game.refresh_from_db()
    assert game.outcome is not None
    open_page(pages[0], urls[0])
    headline = pages[0].locator("#headline h1")
    assert headline.inner_text().startswith("Winner")
    assert headline.bounding_box()["y"] < 150
    assert pages[0].locator("table.results tr:not(.parts-line)").count() == 4
    table = pages[0].locator(".scroll:has(#results)").evaluate("t => [t.scrollWidth, t.clientWidth]")
    assert table[0] <= table[1], f"the finished table fits the phone, unscrolled: {table}"
    assert pages[0].locator("table.results tr.parts-line").first.is_visible(), "the breakdown under each player"
    assert game.seed in pages[0].content()
    history = pages[0].locator("ol.history > li")
    assert history.count() == Move.objects.filter(game=game, undone_at__isnull=True).count(), "the whole history"
    said = " ".join(history.all_inner_texts())
    assert all(name in said for name in ("You", "Bruno", "Carla")) and re.search(r"\d\d:\d\d UTC", said)
    fits_the_phone(pages[0])
    pages[0].screenshot(path=str(shots / "page-finished-390.png"), full_page=True)
    open_page(pages[1], urls[1])
    pages[1].screenshot(path=str(shots / "page-finished-1280.png"), full_page=True)
    assert {m.source for m in Move.objects.filter(game=game)} == {"web"}


def test_it_renders_the_mail_and_the_pages_at_both_widths(new_page: Any, site: str, shots: Path) -> None:
    folk = people()
    start_game("maretta", folk, options={"side": "A"})
    mail_html = as_shown(folk[0].latest())  # its picture in place, as a mail program shows it
    url = link_of(folk[0], site)
    for name, viewport in (("1280", DESKTOP), ("390", PHONE)):
        page = new_page(viewport)
        page.set_content(mail_html)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(shots / f"mail-turn-{name}.png"), full_page=True)
        page.goto(url)
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        page.screenshot(path=str(shots / f"page-turn-{name}.png"), full_page=True)
        page.goto(url + "games/")
        page.screenshot(path=str(shots / f"dashboard-{name}.png"), full_page=True)
        page.goto(site + "/")
        assert "by email" in page.content()
        page.screenshot(path=str(shots / f"home-{name}.png"), full_page=True)


@pytest.mark.parametrize(("rules", "options"), [("maretta", {"side": "A"}), ("maretta", {"side": "B"}),
                                                ("caravelas", {}), ("maracaibo", {}),
                                                ("maracaibo", {"campaign": True, "mode": "campaign"})],
                         ids=["maretta-A", "maretta-B", "caravelas", "maracaibo", "maracaibo-campaign"])
def test_it_shows_every_games_board_readable_at_both_widths(rules: str, options: dict[str, Any], new_page: Any,
                                                            site: str, shots: Path) -> None:
    folk = people()
    game = start_game(rules, folk, options=options)
    url = link_of(folk[0], site)
    name = rules + ("-" + str(options["side"]) if "side" in options else "") + ("-campaign" if options.get("campaign")
                                                                                else "")
    for width, viewport in ((390, PHONE), (1280, DESKTOP)):
        page = new_page(viewport)
        page.goto(url)
        if rules != "maretta" and width == 390:  # the map is panned: it opens at my own fleet or ship
            box = page.locator("#board .pan:visible .mine").first.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, "my piece on screen"
        parts = readable_board(page, width)
        print(f"{name} at {width} px: " + "; ".join(  # the figures for docs and reports (pytest -s)
            f"picture {p['width']:.0f} px wide, smallest text {p['smallest']:.1f} px, "
            f"{'whole' if p['whole'] else 'panned'}" for p in parts))
        if rules == "maretta" and width == 390:
            assert [p["whole"] for p in parts] == [True], "Maretta's phone board is whole on the phone"
        assert "Legend" in page.locator("#board").inner_text() or rules != "caravelas"
        if options.get("campaign"):  # the story band (render_story.py), in the picture at both widths
            assert page.locator("#board svg:visible text", has_text="Story: game 1 of the campaign").count() >= 1
        page.locator("#board").screenshot(path=str(shots / f"board-{name}-{width}.png"))
        if page.locator("#board-fit").count():  # the whole board at a glance, small print
            page.locator("label[for=board-fit]").click()
            box = page.locator("#board svg:visible").first.bounding_box()
            assert box is not None and box["x"] + box["width"] <= width + 0.5
        page.goto(f"{site}/games/{game.pk}/")  # the game's public page, for a spectator
        readable_board(page, width)


def test_it_plays_says_lists_my_games_waiting_first_and_stops_a_link_without_javascript(
        new_page: Any, site: str) -> None:
    folk = people()
    first = start_game("maretta", folk, options={"side": "A"})
    second = start_game("maretta", folk, options={"side": "A"})
    url_first, url_second = link_of_game(folk[0], site, first.pk), link_of_game(folk[0], site, second.pk)
    page = new_page(PHONE, javascript=False)

    # A move by plain forms: the option, then the confirm step (the play ends my part of the phase).
    page.goto(url_second)
    assert "Your turn" in page.locator("#headline").inner_text()
    assert "Your hand:" in page.locator("#view").inner_text()
    page.locator("#options button").first.click()
    assert page.locator("#confirm").is_visible(), "a move that ends my turn asks to be confirmed"
    page.locator("#confirm button").click()
    assert "Your move was taken" in page.content()
    assert page.locator("#options button").count() == 0
    history = page.locator("ol.history li").first.inner_text()
    assert re.match(r"You \w{3} \d{1,2} \w{3} \d\d:\d\d UTC · web", history), history

    # A message to the others: on my page at once, on theirs too.
    page.locator("#say").fill("Good luck, all")
    page.locator("form[action$='/say/'] button").click()
    assert "Good luck, all" in page.locator("#messages + ul").inner_text()
    other = new_page(DESKTOP, javascript=False)
    other.goto(link_of_game(folk[1], site, second.pk))
    assert "Ana" in other.locator("#messages + ul").inner_text() and "Good luck, all" in other.content()

    # My games: the one waiting for me first, though it is the older one.
    page.goto(url_second + "games/")
    rows = page.locator("table tr")
    assert rows.nth(1).inner_text().startswith(f"#{first.pk}") and "your turn" in rows.nth(1).inner_text()
    assert rows.nth(2).inner_text().startswith(f"#{second.pk}") and "waiting for" in rows.nth(2).inner_text()

    # The link is revocable: once stopped, it opens nothing.
    page.goto(url_first)
    page.locator("form[action$='/revoke/'] button").click()
    page.get_by_text("This link no longer works").wait_for()  # the answer page, once it has loaded
    assert page.goto(url_first).status == 404

    # The home page, the API's index and the favicon.
    assert page.goto(site + "/").status == 200 and "by email" in page.content()
    index = page.goto(site + "/api/v1/")
    assert index.status == 200 and "/api/v1/games/" in index.text()
    icon = page.goto(site + "/favicon.ico")
    assert icon.status == 200 and icon.headers["content-type"].startswith("image/svg+xml")


def link_of_game(person: Persona, site: str, game_id: int) -> str:
    """The personal link in ``person``'s newest mail about game ``game_id``."""
    pattern = re.compile(rf"{re.escape(site)}/p/[^/\s]+/")
    for mail in reversed(person.inbox()):
        if f"[pbem #{game_id}]" in str(mail["Subject"]):
            found = pattern.search(text_of(mail))
            if found:
                return found.group(0)
    raise AssertionError(f"{person.name} has a mail about game #{game_id} with a personal link")


def test_it_asks_to_pan_the_wide_board_only_on_a_screen_it_does_not_fit(new_page: Any, site: str) -> None:
    """QA: at 1280 px and wider Maracaibo's 1,227 px board fits and nothing pans, yet the page said
    "Scroll or drag the board sideways to see all of it"; the hint now shows only where it pans."""
    folk = people()
    start_game("maracaibo", folk, options={"mode": "79"})
    url = link_of(folk[0], site)
    for width, pans in ((1000, True), (1240, True), (1280, False), (1600, False)):
        page = new_page({"width": width, "height": 900})
        open_page(page, url)
        board = page.locator("#board .wide-board .pan").first
        wide = board.evaluate("e => e.scrollWidth > e.clientWidth + 1")
        hint = page.locator("#board .wide-board .pan-hint")
        assert wide == pans, (width, wide)
        assert hint.count() == 1 and hint.is_visible() == pans, (width, hint.is_visible())


def test_the_message_box_says_what_happens_to_a_message_in_a_cooperative_game(new_page: Any, site: str) -> None:
    """QA (#22): the box said "they see it in their next mail" in a cooperative game, where a message is
    mailed to the table at once (pbem.games.personal.do_say): the box says so, and it is so."""
    folk = people()[:2]
    coop = start_game("maracaibo", folk, options={"mode": "74"})
    page = new_page(DESKTOP, javascript=False)
    page.goto(link_of_game(folk[0], site, coop.pk))
    label = page.locator("label[for=say]").inner_text()
    assert "by mail at once" in label and "next mail" not in label, label
    before = len(folk[1].inbox())
    page.locator("#say").fill("I take the harbour of Havana")
    page.locator("form[action$='/say/'] button").click()
    assert "I take the harbour of Havana" in page.locator("#messages + ul").inner_text()
    told = folk[1].inbox()[before:]
    assert any("I take the harbour of Havana" in text_of(m) for m in told), "Bruno is mailed at once"
    competitive = start_game("maracaibo", folk, options={"mode": "79"})
    page.goto(link_of_game(folk[0], site, competitive.pk))
    assert "in their next mail" in page.locator("label[for=say]").inner_text()
