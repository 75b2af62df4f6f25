"""The personal page as a game client (issue #21), in headless Chromium at 1280 and 390 px: a move
updates the page in place (htmx) with the page still working without JavaScript; a whole Maracaibo
turn planned by clicks on the map and the cards and sent at once, as one batch like one mail; undo;
the history marked new since the last visit; the map panned by keyboard; axe-core finds no
violation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import engine
from pbem.games.models import Game, Move
from tests.browser.clicks import click, confirm_if_asked, settle
from tests.browser.test_personal_pages import DESKTOP, PHONE, link_of, people
from tests.factories import play_first_options
from tests.mail.conftest import start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _until_ana_sails(game: Game) -> Game:
    """The setup and the others' turns, played by the service, until Ana (seat 0) may sail."""
    rules = engine.get("maracaibo")
    for _ in range(80):
        game.refresh_from_db()
        assert game.state is not None
        if 0 in rules.pending(game.state) and any(
                rules.option_details(game.state, 0, o).get("kind") == "sail" for o in rules.options(game.state, 0)):
            return game
        play_first_options(game.pk, until_finished=False, limit=1)
    raise AssertionError("Ana never got to sail")


def _plan_a_turn(page: Any, shots: Path, name: str) -> list[str]:
    """Plan a whole turn by clicks: a ringed place on the map first, then options until the plan is
    complete (or six steps); the plan's steps as listed. Nothing is sent yet."""
    click(page, page.locator("#plan-turn"))
    assert page.locator("#plan").is_visible() and page.locator("#plan-steps li[data-code]").count() == 0
    board = "#board .wide-board" if page.viewport_size["width"] > 640 else "#board .phone-board"
    targets = page.locator(f"{board} a.target")
    assert targets.count() >= 1, "the sail targets are links while planning"
    place = targets.last.get_attribute("data-place")
    click(page, targets.last)
    steps = page.locator("#plan-steps li[data-code]")
    assert steps.count() == 1 and steps.first.get_attribute("data-code") == f"s{place}"
    for n in range(2, 7):
        if page.locator("#plan-closed").count() or page.locator("#options button").count() == 0:
            break
        buttons = page.locator("#options button")
        # the cards first (a buy or a plan is a click on a card's button), else the last listed option
        card = page.locator("#options form.card-option button")
        click(page, card.first if card.count() else buttons.last)
        assert steps.count() == n, "each click adds one step to the plan"
    width = page.viewport_size["width"]
    page.screenshot(path=str(shots / f"page-maracaibo-plan-{name}.png"), full_page=True,
                    clip={"x": 0, "y": 0, "width": width, "height": 1500 if width > 640 else 2200})
    return [steps.nth(i).get_attribute("data-code") for i in range(steps.count())]


def _sent_as_one_batch(game: Game, version: int, codes: list[str]) -> None:
    game.refresh_from_db()
    rows = list(Move.objects.filter(game=game, version=version + 1).order_by("number"))
    assert game.version == version + 1, "the whole turn went in as one batch (one new version)"
    mine = [r for r in rows if r.seat == 0]
    assert len(mine) == len(codes) and {r.source for r in mine} == {"web"}, (codes, [r.move for r in mine])


def test_it_plays_a_whole_maracaibo_turn_planned_by_clicks_and_sent_at_once(new_page: Any, site: str,
                                                                             shots: Path) -> None:
    folk = people()
    game = _until_ana_sails(start_game("maracaibo", folk))
    url = link_of(folk[0], site)
    # With JavaScript, at 1280 px: every click updates the page in place.
    page = new_page(DESKTOP)
    page.goto(url)
    page.evaluate("window.__loaded_once = true")
    codes = _plan_a_turn(page, shots, "1280")
    assert page.evaluate("window.__loaded_once") is True, "planning updated the page in place, no reload"
    assert page.url.startswith(url + "?plan="), "the plan is in the address (reload and back keep it)"
    version = Game.objects.get(pk=game.pk).version
    click(page, page.locator("#send-turn"))
    assert "Your turn was sent" in page.locator("#notice").inner_text()
    assert page.evaluate("window.__loaded_once") is True
    page.screenshot(path=str(shots / "page-maracaibo-turn-sent-1280.png"))
    _sent_as_one_batch(game, version, codes)
    # Without JavaScript, at 390 px: the same by plain links and forms, at Ana's next turn.
    game = _until_ana_sails(game)
    phone = new_page(PHONE, javascript=False)
    phone.goto(url)
    codes = _plan_a_turn(phone, shots, "390")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "nothing wider than the phone"
    version = Game.objects.get(pk=game.pk).version
    click(phone, phone.locator("#send-turn"))
    assert "Your turn was sent" in phone.locator("#notice").inner_text()
    _sent_as_one_batch(game, version, codes)


def test_it_refuses_a_plan_step_that_no_longer_stands_and_sends_nothing(new_page: Any, site: str) -> None:
    folk = people()
    game = _until_ana_sails(start_game("maracaibo", folk))
    url = link_of(folk[0], site)
    page = new_page(DESKTOP)
    page.goto(url + "?plan=s1&plan=nonsense")  # a plan in the address that the game cannot play
    error = page.locator("#plan-error")
    assert error.is_visible() and "cannot be played there" in error.inner_text()
    assert page.locator("#plan-steps li[data-code]").count() <= 1
    assert Game.objects.get(pk=game.pk).version == game.version, "planning sends nothing"


def test_it_updates_in_place_keeps_a_typed_message_takes_a_move_back_and_marks_news(new_page: Any, site: str,
                                                                                   shots: Path) -> None:
    folk = people()
    game = _until_ana_sails(start_game("maracaibo", folk))
    url = link_of(folk[0], site)
    page = new_page(DESKTOP)
    page.goto(url)
    page.evaluate("window.__loaded_once = true")
    page.locator("#say").fill("half a mess")
    before = page.locator("ol.history > li").count()
    sail = page.locator("#options button[data-code^='s']").first
    code = sail.get_attribute("data-code")
    sail.scroll_into_view_if_needed()
    start = page.evaluate("window.scrollY")  # scroll_into_view may have scrolled already
    page.mouse.wheel(0, 200)
    page.wait_for_function("y => window.scrollY !== y", arg=start)
    # The wheel scrolls asynchronously (slower on a loaded machine): read where it settles.
    scrolled = page.evaluate("""async () => {
        let last = window.scrollY, same = 0;
        for (let i = 0; i < 300 && same < 10; i++) {
            await new Promise(r => requestAnimationFrame(r));
            if (window.scrollY === last) { same++; } else { same = 0; last = window.scrollY; }
        }
        return last;
    }""")
    click(page, sail)
    confirm_if_asked(page)
    assert page.evaluate("window.__loaded_once") is True, "the move updated the page in place"
    assert page.evaluate("window.scrollY") == scrolled, "the page stays where the reader scrolled it"
    assert page.evaluate("document.activeElement.id") == "notice", "the keyboard's focus on what happened"
    assert page.locator("#say").input_value() == "half a mess", "a half-typed message stays"
    assert "Your move was taken" in page.locator("#notice").inner_text()
    assert page.locator("ol.history > li").count() == before + 1, "the history updated in place too"
    game.refresh_from_db()
    assert game.state is not None and game.state["seats"][0]["at"] == code[1:]
    # Undo on the page: the sail showed nothing and drew nothing, so it can be taken back.
    click(page, page.locator("#undo button"))
    assert "taken back" in page.locator("#undone").inner_text()
    game.refresh_from_db()
    assert game.state is not None and game.state["seats"][0]["at"] != code[1:]
    assert Move.objects.get(game=game, undone_at__isnull=False).seat == 0
    # What is new since my last visit: the others' moves after it, marked and counted; never mine.
    # The mark is the seat's, kept by the server (issue 21), not a browser's: a visit on the
    # desktop, then the others play, then a visit from the phone (another browser, no cookie of
    # the first) shows their moves new; back on the desktop they are no longer new.
    page.goto(url)  # the visit: its newest move is the mark
    mark = Move.objects.filter(game=game).order_by("-number").first()
    assert mark is not None
    rules = engine.get("maracaibo")
    for _ in range(200):  # Ana's turn, then the others', by the service, until Ana is to move again
        play_first_options(game.pk, until_finished=False, limit=1)
        game.refresh_from_db()
        assert game.state is not None and game.status == Game.Status.RUNNING
        if 0 in rules.pending(game.state) and Move.objects.filter(game=game, seat__gt=0,
                                                                  number__gt=mark.number).exists():
            break
    since = Move.objects.filter(game=game, undone_at__isnull=True, seat__gt=0, number__gt=mark.number).count()
    phone = new_page(PHONE)
    phone.goto(url)
    settle(phone)
    marked = phone.locator("ol.history > li.new")
    assert marked.count() == since > 0, "the phone shows what is new since the visit on the desktop"
    assert f"({since} new since your last visit)" in phone.locator("#history h2").inner_text()
    assert "You" not in marked.locator("strong").all_inner_texts()
    phone.locator("#history").screenshot(path=str(shots / "page-history-new-390.png"))
    page.reload()
    settle(page)
    assert page.locator("ol.history > li.new").count() == 0, "seen on the phone, no longer new on the desktop"
    # a move of the others while the desktop page is open: new at its next visit, and only once
    newest = Move.objects.filter(game=game).order_by("-number").values_list("number", flat=True).first()
    for _ in range(200):
        play_first_options(game.pk, until_finished=False, limit=1)
        game.refresh_from_db()
        assert game.state is not None
        if Move.objects.filter(game=game, undone_at__isnull=True, seat__gt=0, number__gt=newest).exists():
            break
    page.reload()
    settle(page)
    assert page.locator("ol.history > li.new").count() > 0
    page.locator("#history").screenshot(path=str(shots / "page-history-new-1280.png"))
    page.reload()
    assert page.locator("ol.history > li.new").count() == 0, "seen once, no longer new"


PAN_KEYS = """async (sel) => {
  const pans = [...document.querySelectorAll(sel)].filter(p => p.getClientRects().length);
  return pans.map(p => ({focusable: p.tabIndex >= 0, role: p.getAttribute('role'), label: p.getAttribute('aria-label'),
                         wider: p.scrollWidth > p.clientWidth + 1}));
}"""


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_it_pans_the_map_by_keyboard_and_passes_axe(viewport: dict[str, int], new_page: Any, site: str) -> None:
    from axe_playwright_python.sync_playwright import Axe

    folk = people()
    _until_ana_sails(start_game("maracaibo", folk))
    url = link_of(folk[0], site)
    page = new_page(viewport)
    page.goto(url)
    # Keyboard: Tab reaches the board's pan box (a labelled region); the arrow keys pan it.
    pans = page.evaluate(PAN_KEYS, "#board .pan")
    wide = [p for p in pans if p["wider"]]
    assert all(p["focusable"] and p["role"] == "region" and p["label"] for p in wide), pans
    if viewport is PHONE:
        assert wide, "Maracaibo's map pans on a phone"
        for _ in range(80):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.classList.contains('pan')"):
                break
        assert page.evaluate("document.activeElement.classList.contains('pan')"), "Tab reaches the map"
        start = page.evaluate("document.activeElement.scrollLeft")
        page.evaluate("document.activeElement.scrollLeft = 0")
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        moved = page.evaluate("document.activeElement.scrollLeft")
        assert moved > 0, f"the arrow keys pan the map (from {start})"
        page.keyboard.press("End")
        end = page.evaluate("[document.activeElement.scrollLeft, document.activeElement.scrollWidth"
                            " - document.activeElement.clientWidth]")
        assert end[0] >= end[1] - 1 > moved, end
    # axe-core (the copy that axe-playwright-python ships, its default rules: WCAG 2.x A and AA and
    # best practices): no violation of any impact (the moderate landmark ones included).
    for address in (url, url + "?plan="):
        page.goto(address)
        results = Axe().run(page)
        bad = [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in results.response["violations"]]
        assert not bad, bad
