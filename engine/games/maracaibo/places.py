"""Where Maracaibo's places are drawn on its map, and where a place's row of ships goes beside it.

The geometry the map's renderer (:mod:`.render`) draws with, apart from it: the places' positions and
boxes, and the search for each place's ships' spots, kept a process (:func:`_ship_spots`), which a
worker fills before it forks its pool (:func:`fill_ship_spots`, ``Maracaibo.warm_up``).
"""

from __future__ import annotations

import functools

from . import content as C

#: where each place is drawn: a sketch of the Caribbean, Havana top left, the route clockwise
POS: dict[str, tuple[int, int]] = {
    "H": (150, 92), "1": (212, 84), "2": (262, 50), "3": (330, 100), "4": (392, 90), "5": (428, 134),
    "6": (492, 122), "7": (556, 132), "8": (590, 178), "9": (618, 226), "9a": (616, 290), "10": (470, 262),
    "10a": (560, 252), "11": (540, 300), "12": (420, 300), "13": (340, 190), "14": (350, 312), "15": (272, 334),
    "16": (250, 278), "16a": (300, 250), "17": (198, 254), "18": (136, 200), "19": (74, 170), "20": (84, 118),
    "21a": (40, 70), "21b": (120, 56), "22": (74, 34),
}
MAP_H = 352
MAP_W = 640  # the map's width (the picture's)

Box = tuple[float, float, float, float]  # (x0, y0, x1, y1)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _gap(a: Box, b: Box) -> float:
    """How far apart two boxes are (0 when they touch or overlap)."""
    dx = max(b[0] - a[2], a[0] - b[2], 0.0)
    dy = max(b[1] - a[3], a[1] - b[3], 0.0)
    return float((dx * dx + dy * dy) ** 0.5)


def _row_box(x: float, y: float, n: int) -> Box:
    """The box a row of ``n`` ships takes with its first ship's corner at (x, y) (the reader's frame too)."""
    return (x - 3, y - 8, x + 8 * max(n, 1) + 2, y + 7)


def _place_boxes(loc: str) -> list[Box]:
    """A place's drawing and its name under it (at a mail's size, the biggest)."""
    x, y = POS[loc]
    label = str(C.LOC[loc]["name"]).split(": ", 1)[-1] if loc in C.LOC else loc
    w = len(label) * 7.5 * 0.7  # (wider than kit.text_width's estimate: a mail's font drew "Key West" wider)
    return [(x - 14, y - 12, x + 14, y + 12), (x - w / 2 - 3, y + 14, x + w / 2 + 3, y + 24)]


@functools.cache
def _all_places() -> list[Box]:
    """Every place's drawing and name (:func:`_place_boxes`)."""
    return [b for loc in POS for b in _place_boxes(loc)]


_SPOTS: dict[tuple[str, int], list[tuple[int, int]]] = {}


def _ship_spots(loc: str, n: int) -> list[tuple[int, int]]:
    """Where ``loc``'s row of ``n`` ships may go, nearest the place's drawing first: inside the map, on no
    place or name, and nearer this place than any other place or name (cached: the map does not change).

    Why the other places and names are sifted first (issue 28, pipe session): each of some 2,500 spots was
    checked against every place's boxes and centres, 15-20 ms of a worker's CPU for each place and count of
    ships first drawn by a process (the cache is a process's); the spots reach at most a few dozen units
    from the place, so only the boxes that meet that reach can cover one, and only the centres that may be
    the nearest to a row's middle (:func:`_may_be_nearest`, a line of spots at a time) can decide its
    margin. The spots found are the same, in the same order."""
    key = (loc, max(n, 1))  # (no ship is drawn as the room of one)
    if key in _SPOTS:
        return _SPOTS[key]
    x, y = POS[loc]
    mine = _place_boxes(loc)
    # every row below lies within reach: (x0, y0, x1, y1) of the union of the rows tried
    reach = _row_box(x - 70, y - 44, n)[:2] + _row_box(x + 40, y + 44, n)[2:]
    others = [b for o in POS if o != loc for b in _place_boxes(o) if _overlap(reach, b)]
    centres = [(ox, oy + k) for o, (ox, oy) in POS.items() if o != loc for k in (0, 21)]
    found: list[tuple[int, float, int, int]] = []
    width = 4 * max(n, 1)  # half a row's length: its middle from its first ship's corner
    for dy in range(-44, 46, 2):
        # a line of rows at one height (_row_box): the map's edges and the boxes it meets in height first
        y0, y1 = y + dy - 8, y + dy + 7
        if y0 < 19 or y1 > MAP_H - 1:
            continue
        across = [(b[0], b[2]) for b in mine + others if y0 < b[3] and b[1] < y1]
        cy = y + dy - 2  # the rows' middle
        near = _may_be_nearest(centres, x - 70 + width, x + 40 + width, cy)
        for dx in range(-70, 42, 2):
            x0, x1 = x + dx - 3, x + dx + 2 * width + 2
            if x0 < 1 or x1 > MAP_W - 1 or any(x0 < bx1 and bx0 < x1 for bx0, bx1 in across):
                continue
            cx = x + dx + width
            own = ((cx - x) ** 2 + (cy - y) ** 2) ** 0.5
            # (the root of the least square: the least root, exactly, as roots keep their order)
            margin = min((cx - ox) ** 2 + (cy - oy) ** 2 for ox, oy in near) ** 0.5 - own
            if margin > 0:  # (clearly nearer first; at a crowded edge, nearer at all)
                found.append((0 if margin > 6 else 1, _gap((x0, y0, x1, y1), mine[0]) + 0.01 * own, dx, dy))
    found.sort()
    _SPOTS[key] = [(dx, dy) for _clear, _score, dx, dy in found]
    return _SPOTS[key]


def fill_ship_spots(most: int) -> None:
    """Every place's spots for rows of up to ``most`` ships, kept (:meth:`Maracaibo.warm_up`)."""
    for loc in POS:
        for n in range(1, most + 1):
            _ship_spots(loc, n)


def _may_be_nearest(centres: list[tuple[int, int]], x0: int, x1: int, y: int) -> list[tuple[int, int]]:
    """The centres that may be the nearest to some point of the segment from (x0, y) to (x1, y): every
    point has one within the least of the centres' farthest distances from the segment, so a centre
    nearer no point than that is never the nearest. (Whole numbers: the squares compare exactly.)"""
    bound = min((max(abs(cx - x0), abs(cx - x1)) ** 2 + (cy - y) ** 2 for cx, cy in centres), default=0)
    return [(cx, cy) for cx, cy in centres if max(x0 - cx, cx - x1, 0) ** 2 + (cy - y) ** 2 <= bound]
