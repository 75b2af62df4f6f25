"""The reader's ship board in the board picture (page and phone) on the Uprising's new board: each
area in its own words, as the options say them, and the resistance tile's and home port's slots.

QA found a 79 player's page showing the base game's U4 ("5 doubloons now": the new board's indicated
upgrade gives a compass and 3 doubloons) and U6 (in Liberation the combat action tile's U side), and
neither new slot: the picture contradicted the mail's options."""

from __future__ import annotations

import random
import re
from typing import Any

from engine import i18n
from engine.games.maracaibo import RULES
from engine.games.maracaibo.bot import choose
from engine.testing import player_names


def _started(mode: str) -> dict[str, Any]:
    state = RULES.setup(player_names(3), {"mode": mode}, f"ship-{mode}")
    rnd = random.Random(1)
    while any(p.get("choosing") for p in state["seats"]) or state["seats"][0].get("port", "") is None:
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, choose(state, seat, RULES.options(state, seat), rnd).move)
    return state


def _texts(svg: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", svg).split())


def test_the_picture_says_the_new_boards_areas_and_slots_as_the_options_do() -> None:
    state = _started("79")
    p = state["seats"][0]
    view = RULES.view(state, 0)
    port = str(view["p"][0]["port"])
    from engine.games.maracaibo import uprising_content as U

    name = str(U.PORT[port]["name"])
    for picture in (RULES.render_svg(view), *RULES.render_phone_svg(view)):
        words = _texts(picture)
        if "U12" not in words:
            continue  # (the phone's map)
        assert "a compass and 3 doubloons" in words and "5 doubloons now" not in words
        assert "combat action tile, U side" in words and "a village, empty 2" not in words
        assert "UR" in words and "resistance tile: 4 doubloons" in words
        assert "UH" in words and f"home port {name}" in words
    assert p["board"] == "uprising"
    with i18n.language("pt"):
        phone = _texts(RULES.render_phone_svg(view)[-1])
    assert "Porto de Origem" in phone and "peça de Resistência" in phone and "combat action tile" not in phone


def test_the_base_games_picture_keeps_its_twelve_areas() -> None:
    state = _started("base")
    view = RULES.view(state, 0)
    words = _texts(RULES.render_svg(view))
    assert "5 doubloons now" in words and "UR" not in words.split() and "UH" not in words.split()
