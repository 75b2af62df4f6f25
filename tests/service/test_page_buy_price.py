"""A page's buy button says the price its option pays, not the card's printed cost (play-test)."""

from __future__ import annotations

import random

from django.template.loader import render_to_string

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from pbem.games import pages
from tests.engine.test_maracaibo_rules import started


def test_a_buy_button_says_the_discounted_price_its_option_pays() -> None:
    # Play-test (78 by mail and on the page): the mail offered 'buy ... (4 d)', the page's button
    # said 'Buy ... (5 d)', the card's printed cost. A seeded 78 game (seed 1, the bot with
    # random.Random(1)) reaches such a buy at move 52: Red Gravedigger, printed 4 d, bought for 3.
    state, rnd = started(3, seed=1, mode="78"), random.Random(1)
    for _n in range(52):
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.bot_choice(state, seat, RULES.options(state, seat), rnd).move)
    seat = RULES.pending(state)[0]
    rows = {r.option.code: r for r in pages.option_rows(RULES, state, seat, RULES.options(state, seat))}
    row = rows["b25"]
    assert row.option.label.startswith("buy Red Gravedigger (3 d)") and C.CARD[25]["cost"] == 4
    assert row.kind == "buy" and row.price == "3 d"
    button = render_to_string("web/_option_button.html", {"row": row, "o": row.option})
    assert "Buy Red Gravedigger (3 d)</button>" in button and "4 d" not in button
    # a plan or keep button names no price
    plan = next(r for r in rows.values() if r.kind == "plan")
    assert plan.price == ""
    assert " d)" not in render_to_string("web/_option_button.html", {"row": plan, "o": plan.option})
