"""The board's drawings (the page's wide board and its phone column) show each nation's scoring multiplier
only where nations score at the end: not in scenario 79 (QA of #20, as the mail's words in cabfe46)."""

from __future__ import annotations

import re

import pytest

import engine
from engine import i18n
from engine.games.maracaibo import render_phone
from engine.testing import player_names

RULES = engine.get("maracaibo")
MULTIPLIER = re.compile(r">(France|England|Spain|França|Inglaterra|Espanha) x\d+")


@pytest.mark.parametrize(("mode", "shown"), [("79", False), ("78", True), ("base", True)])
def test_it_draws_a_multiplier_only_where_nations_score(mode: str, shown: bool) -> None:
    state = RULES.setup(player_names(2), {"mode": mode} if mode != "base" else {}, 3)
    view = RULES.view(state, 0)
    for doc in (RULES.render_svg(view), "".join(render_phone.phone_svgs(view))):
        assert bool(MULTIPLIER.search(doc)) is shown, mode
    if not shown:
        assert "no nation scores at the end of this scenario" in RULES.render_svg(view)
        missed: list[str] = []
        with i18n.language("pt"), i18n.on_miss(lambda m, c: missed.append(m)):
            doc = RULES.render_svg(view)
        assert "nenhuma nação pontua no fim deste cenário" in doc and not MULTIPLIER.search(doc)
        assert missed == []
