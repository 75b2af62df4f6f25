"""Every label of Maracaibo's pictures reads at WCAG's 4.5:1 (issue 21: "Spain x2" was 2.1:1, the
explorer numbers 3.3:1, the players' names in their seat colours 3.4:1)."""

from __future__ import annotations

import random
import re

import engine
from engine import svg as kit
from engine.games.maracaibo import render
from engine.testing import choose, player_names

RULES = engine.get("maracaibo")
TEXT = re.compile(r'<text[^>]*fill="(#[0-9a-fA-F]{3,6})"[^>]*>([^<]*)<')


def test_it_draws_every_label_at_4_5_to_1() -> None:
    state = RULES.setup(player_names(4), {}, 3)
    rnd = random.Random(3)
    for _ in range(200):
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, choose(RULES, state, seat, RULES.options(state, seat), rnd).move)
    view = RULES.view(state, 0)
    pictures = [RULES.render_svg(view), RULES.render_mail_svg(view), *RULES.render_phone_svg(view)]
    low = set()
    for doc in pictures:
        for m in TEXT.finditer(doc):
            fill, label = m.group(1), m.group(2)
            if fill.lower() in ("#ffffff", "#fff", "#111111"):  # black or white on a chip: kit.ink_on
                continue
            if kit.contrast(fill, "#ffffff") < 4.5:
                low.add((fill, label))
    assert not low, sorted(low)
    # the explorer track's numbers on its coloured spaces
    for fill in ("#ffc9c9", "#a5d8ff", "#b2f2bb", "#ffe066", "#f1f3f5"):
        assert kit.contrast("#343a40", fill) >= 4.5
    assert kit.contrast(render._INK_Q, "#f1f3f5") >= 4.5


def test_it_darkens_a_colour_just_enough_to_read() -> None:
    assert kit.readable("#111111") == "#111111"
    spain = kit.readable("#e0a800")
    assert kit.contrast(spain, "#ffffff") >= 4.5
    assert kit.contrast(spain, "#ffffff") < 5.5  # just enough: still the nation's gold, not black
