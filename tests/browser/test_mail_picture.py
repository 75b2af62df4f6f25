"""A turn mail's picture as a person sees it: the HTML part in headless Chromium at 390 and
1280 px, its inline picture (``cid:board``) shown as a mail program shows it, from the mail's
own PNG part. For every game: the picture is whole on the screen, and its smallest text is
readable (issue 10: "the board in the mail scales to the mail's width, a phone shows it whole";
the mail stays under 30 KB)."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

import engine
from engine import svg
from pbem.games.models import Game, OutboundMessage
from pbem.mail import sending
from tests.browser.mail_view import as_shown
from tests.engine import svg_checks
from tests.mail.conftest import Persona, html_of, start_game
from tests.mail.volume import wire_size

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
#: The smallest text a mail picture may show, in CSS px, where the mail is read.
READABLE = svg.MAIL_TEXT



def folk(n: int) -> list[Persona]:
    return [Persona("ana@example.org", "Ana"), Persona("bruno@example.net", "Bruno"),
            Persona("carla@example.com", "Carla"), Persona("dora@example.org", "Dora")][:n]


MEASURE = """() => { const img = document.querySelector('img');
  const r = img.getBoundingClientRect();
  return {complete: img.complete, natural: img.naturalWidth, left: r.left, right: r.right, width: r.width,
          page: document.documentElement.scrollWidth}; }"""


def turn_mail(game: Game, people: list[Persona]) -> tuple[Persona, EmailMessage]:
    """The newest mail of the first player the game waits on: a turn mail, with its options."""
    rules = engine.get(game.rules)
    assert game.state is not None
    person = people[rules.pending(game.state)[0]]
    return person, person.latest()


@pytest.mark.parametrize(("rules", "options", "n"), [("maretta", {"side": "A"}, 3), ("maretta", {"side": "B"}, 3),
                                                     ("caravelas", {}, 2), ("maracaibo", {}, 2),
                                                     ("maracaibo", {}, 4), ("maracaibo", {}, 1)],
                         ids=["maretta-A", "maretta-B", "caravelas", "maracaibo-2", "maracaibo-4", "maracaibo-solo"])
def test_every_games_turn_mail_shows_its_picture_whole_and_readable_at_both_widths(
        rules: str, options: dict[str, Any], n: int, new_page: Any, site: str, shots: Path) -> None:
    cache.clear()
    people = folk(n)
    game = start_game(rules, people, options=options)
    person, mail = turn_mail(game, people)
    assert "Your options" in html_of(mail), "a turn mail"
    assert wire_size(mail) <= sending.MAIL_MAX_BYTES
    row = OutboundMessage.objects.filter(game=game, to_email=person.email, content__picture=True).latest("pk")
    picture = sending.bodies(row).svg
    smallest = min(size for _text, size in svg_checks.shown_text_sizes(picture))  # in the picture's px
    name = f"{rules}-{options['side']}" if "side" in options else f"{rules}-{n}p" if rules == "maracaibo" else rules
    html = as_shown(mail)
    for width, viewport in ((390, PHONE), (1280, DESKTOP)):
        page = new_page(viewport)
        page.set_content(html)
        shown = page.evaluate(MEASURE)
        assert shown["complete"] and shown["natural"] == svg.drawn_width(picture), "the PNG is drawn, 1 px a unit"
        assert shown["page"] <= width, "nothing wider than the screen"
        assert shown["left"] >= 0 and shown["right"] <= width + 0.5, "the picture is whole on the screen"
        assert shown["width"] <= shown["natural"] + 0.5, "never blown up past its own size"
        text_px = smallest * shown["width"] / shown["natural"]
        print(f"{name} mail at {width} px: picture {shown['width']:.0f} of {shown['natural']} px, "
              f"smallest text {text_px:.1f} px, mail {wire_size(mail)} bytes")  # figures for the docs (-s)
        assert text_px >= READABLE - 0.05, f"{name} at {width} px: its smallest text is {text_px:.1f} px"
        legend = svg.description(picture)  # the picture's legend, printed under it as text
        assert legend in page.inner_text("body") or not legend
        # the mail from its top down to its picture and the lines under it, as the reader scrolls to it
        bottom = page.evaluate("() => document.querySelector('img').getBoundingClientRect().bottom + window.scrollY")
        page.screenshot(path=str(shots / f"mail-picture-{name}-{width}.png"), full_page=True,
                        clip={"x": 0, "y": 0, "width": width, "height": bottom + 70})
