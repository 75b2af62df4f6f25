"""A finished game's results table (pbem.games.pages.results), on a cooperative Maracaibo game played
to its end by the engine's bot: the phone's line under each row says only the parts that hold a value.

QA (a finished 193 game's page at 390 px): Jacques, who has no breakdown, read "nations - · income - ·
cards - · prestige - · jacques - · legacy - · search - · scoring -", and each player's line ended in
"legacy - · scoring -"."""

from __future__ import annotations

import random

import engine
from engine.games.maracaibo.bot import choose
from engine.record import outcome_record
from pbem.games.pages import results


def test_the_phone_line_under_each_row_leaves_out_the_parts_without_a_value() -> None:
    rules = engine.get("maracaibo")
    state = rules.setup(["Ana", "Bruno"], {"mode": "193", "rounds": 1, "jacques_level": 1}, "results")
    rnd = random.Random(3)
    while rules.outcome(state) is None:
        seat = rules.pending(state)[0]
        rules.apply(state, seat, choose(state, seat, rules.options(state, seat), rnd).move)
    outcome = outcome_record(rules, state)  # what the service stores (pbem.games.services._finish_if_over)
    assert outcome is not None and outcome["team"]
    rows, heads = results(outcome, ["Ana", "Bruno"])
    for r in rows:  # as the personal page does (pbem.games.pages.seat_page)
        r.heads = heads
    jacques = next(r for r in rows if "Jacques" in r.name)
    assert jacques.parts and set(jacques.parts) == {"-"}  # the table's columns stay whole on a desktop
    assert jacques.named_parts == []  # and the phone's line under his row says nothing
    for r in rows:
        assert all(v != "-" for _h, v in r.named_parts)
        if "Jacques" not in r.name:
            assert r.named_parts and len(r.named_parts) <= len(heads)
