"""Option labels say when their VP come (issue #21): "3 VP now", a card's "VP at the end".

Real games played by the engine (base game and the Uprising's modes): every option whose label
names VP says when they come, and every label, "now" and all, is read back as its own option;
the label as it was before (without "now") is still read as the option.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from engine.core import Option
from engine.errors import IllegalMove
from engine.games.maracaibo import RULES
from engine.games.maracaibo.vpwhen import vp_when
from tests.engine.bot_games import bot_steps

#: an "N VP" that does not say when (now, at the end) and is not an income or a lasting "+N VP"
_BARE = re.compile(r"(?<![+\d])\d+ VP\b(?! now| at the end| income)")


def _played(mode: dict[str, str], seed: str, moves: int) -> Iterator[tuple[dict[str, Any], int, list[Option]]]:
    state = RULES.setup(["Ana", "Bruno", "Carla"], mode, seed)
    for _step, seat, opts in bot_steps("maracaibo", state, seed, steps=moves):
        yield state, seat, opts


@pytest.mark.parametrize("mode", [{}, {"mode": "78"}, {"mode": "193"}])
def test_it_says_when_the_vp_of_every_option_come_and_reads_the_label_back(mode: dict[str, str]) -> None:
    with_vp = 0
    for state, seat, opts in _played(mode, f"vp-when-{mode}", 250):
        for o in opts:
            if "VP" not in o.label:
                continue
            with_vp += 1
            assert not _BARE.search(o.label), o.label
            assert RULES.read(o.label, state, seat).move == o.move, o.label
            before = o.label.replace(" VP now", " VP")  # what a player used to the old label types
            try:
                got = RULES.read(before, state, seat).move
            except IllegalMove:
                continue  # (refused whole is allowed; read as another option is not)
            assert got == o.move, (before, o.label)
    assert with_vp > 20


def test_it_adds_now_only_where_the_vp_are_scored_when_the_option_is_taken() -> None:
    assert vp_when("fight spain (value 4, 2 VP)") == "fight spain (value 4, 2 VP now)"
    assert vp_when("score 2 VP") == "score 2 VP now"
    assert vp_when("disc from ship area U3: 3 VP now; take display cards for free") == \
        "disc from ship area U3: 3 VP now; take display cards for free"
    card = "buy Pious Sailor [sugar/book] cost 3: village action 1 doubloon, 1 VP; 2 VP at the end"
    assert vp_when(card) == card  # a card's effects come when used; its own VP at the end
    assert vp_when("+1 VP income") == "+1 VP income"
    assert vp_when("+2 VP for each quest you fulfil") == "+2 VP for each quest you fulfil"
