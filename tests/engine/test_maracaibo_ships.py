"""Ships are drawn where they are: each place's row of ships is nearer that place than any other place
or name, and inside the map (issue 21: Havana's ships were drawn beside 21b)."""

from __future__ import annotations

import re

import pytest

import engine
from engine.games.maracaibo import render
from engine.testing import player_names

RULES = engine.get("maracaibo")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_it_draws_each_row_of_ships_at_its_own_place(n: int) -> None:
    for loc, (x, y) in render.POS.items():
        dx, dy = render.ship_offset(loc, n)
        cx, cy = x + dx + 4 * n, y + dy - 2
        own = ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5
        for other, (ox, oy) in render.POS.items():
            if other != loc:
                for ly in (oy, oy + 21):  # the place and its name under it
                    assert ((cx - ox) ** 2 + (cy - ly) ** 2) ** 0.5 > own, (loc, other, n)
        assert x + dx - 3 >= 0 and x + dx + 8 * n + 3 <= 640 and y + dy - 8 >= 18, (loc, n)


def test_it_draws_the_ships_in_havana_beside_havana() -> None:
    state = RULES.setup(player_names(3), {}, 1)
    svg = RULES.render_svg(RULES.view(state, None))
    hx, hy = render.POS["H"]
    boats = [(float(a), float(b)) for a, b in re.findall(r'<path d="M([\d.]+) ([\d.]+) l7 0', svg)]
    assert len(boats) == 3
    bx, by = render.POS["21b"]
    for sx, sy in boats:
        assert (sx - hx) ** 2 + (sy - hy) ** 2 < (sx - bx) ** 2 + (sy - by) ** 2
