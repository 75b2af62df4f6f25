"""Ships are drawn where they are: each place's row of ships is nearer that place than any other place
or name, and inside the map (issue 21: Havana's ships were drawn beside 21b)."""

from __future__ import annotations

import re

import pytest

import engine
from engine.games.maracaibo import places, render_map
from engine.testing import player_names

RULES = engine.get("maracaibo")


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_it_draws_each_row_of_ships_at_its_own_place(n: int) -> None:
    for loc, (x, y) in places.POS.items():
        dx, dy = render_map.ship_offset(loc, n)
        cx, cy = x + dx + 4 * n, y + dy - 2
        own = ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5
        for other, (ox, oy) in places.POS.items():
            if other != loc:
                for ly in (oy, oy + 21):  # the place and its name under it
                    assert ((cx - ox) ** 2 + (cy - ly) ** 2) ** 0.5 > own, (loc, other, n)
        assert x + dx - 3 >= 0 and x + dx + 8 * n + 3 <= 640 and y + dy - 8 >= 18, (loc, n)



def every_spot(loc: str, n: int) -> list[tuple[int, int]]:
    """The spots as the rule says, by brute force: every spot tried against every place's boxes and
    every place's and name's centre (places._ship_spots before issue 28's pipe session sifted them)."""
    x, y = places.POS[loc]
    mine = places._place_boxes(loc)
    others = [b for o in places.POS if o != loc for b in places._place_boxes(o)]
    centres = [(ox, oy + k) for o, (ox, oy) in places.POS.items() if o != loc for k in (0, 21)]
    found = []
    for dy in range(-44, 46, 2):
        for dx in range(-70, 42, 2):
            row = places._row_box(x + dx, y + dy, n)
            if row[0] < 1 or row[2] > places.MAP_W - 1 or row[1] < 19 or row[3] > places.MAP_H - 1:
                continue
            if any(places._overlap(row, b) for b in mine + others):
                continue
            cx, cy = x + dx + 4 * max(n, 1), y + dy - 2
            own = ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5
            margin = min(((cx - ox) ** 2 + (cy - oy) ** 2) ** 0.5 for ox, oy in centres) - own
            if margin > 0:
                found.append((0 if margin > 6 else 1, places._gap(row, mine[0]) + 0.01 * own, dx, dy))
    return [(dx, dy) for _clear, _score, dx, dy in sorted(found)]


@pytest.mark.parametrize("n", [0, 1, 3])
def test_the_spots_sifted_for_speed_are_every_spot_the_rule_gives_in_its_order(n: int) -> None:
    """Issue 28 (pipe session): the search looks only at the boxes and centres that can matter; it must
    find what trying every one finds, at every place."""
    for loc in places.POS:
        places._SPOTS.pop((loc, max(n, 1)), None)
        assert places._ship_spots(loc, n) == every_spot(loc, n), (loc, n)


def test_warming_up_the_rules_keeps_every_places_spots_for_every_count_of_ships_a_game_may_have() -> None:
    """A worker warms each game's rules up before it forks its pool (workers/celery.py), so that no
    move's picture searches where a place's ships go: every place, 1 to 4 ships (0 drawn as 1)."""
    places._SPOTS.clear()
    RULES.warm_up()
    assert set(places._SPOTS) == {(loc, n) for loc in places.POS for n in range(1, RULES.max_players + 1)}
    kept = dict(places._SPOTS)
    for loc in places.POS:
        assert places._ship_spots(loc, 0) is kept[(loc, 1)]
    assert kept == places._SPOTS  # nothing searched again
    assert kept[("7", 2)] == every_spot("7", 2)

def test_it_draws_the_ships_in_havana_beside_havana() -> None:
    state = RULES.setup(player_names(3), {}, 1)
    svg = RULES.render_svg(RULES.view(state, None))
    hx, hy = places.POS["H"]
    boats = [(float(a), float(b)) for a, b in re.findall(r'<path d="M([\d.]+) ([\d.]+) l7 0', svg)]
    assert len(boats) == 3
    bx, by = places.POS["21b"]
    for sx, sy in boats:
        assert (sx - hx) ** 2 + (sy - hy) ** 2 < (sx - bx) ** 2 + (sy - by) ** 2
