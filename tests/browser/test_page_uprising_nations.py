"""Scenario 79 scores no nation at the end, so the page's influence tracks show no scoring multiplier
(QA of #20: the page said "France x2" at 79's tracks; the mail's words were fixed in cabfe46); scenario 78
keeps them. As a person sees the board in headless Chromium at 1280 and 390 px."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache

from tests.browser.test_page_uprising import BOARD, WIDTHS
from tests.browser.test_personal_pages import link_of, people
from tests.mail.conftest import start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MULTIPLIER = re.compile(r"\b(France|England|Spain) x\d+")


@pytest.mark.parametrize("mode", ["79", "78"])
def test_the_influence_tracks_show_a_multiplier_only_where_nations_score(mode: str, new_page: Any,
                                                                        site: str) -> None:
    cache.clear()
    folk = people()[:2]
    start_game("maracaibo", folk, options={"mode": mode}, mail_mode="every")
    url = link_of(folk[0], site)
    for width, viewport in WIDTHS:
        page = new_page(viewport)
        page.goto(url)
        board = page.locator(BOARD[width]).inner_text()
        assert "Influence" in board, f"the influence tracks at {width} px"
        found = MULTIPLIER.findall(board)
        if mode == "79":
            assert found == [], f"79's tracks at {width} px show a multiplier"
            assert "no nation scores at the end" in board or width == 390, board[:400]
        else:
            assert sorted(set(found)) == ["England", "France", "Spain"], f"78's tracks at {width} px"
