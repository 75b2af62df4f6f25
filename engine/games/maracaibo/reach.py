"""What a mail's map must show (issue 21): every place the reader's ship can sail to, read from
their view alone, and the parts of the map that hold them at a mail's scale.

Why from the view: a mail's picture is drawn from the view it shows (``Rules.render_mail_svg``),
never from the state. The view says all that sailing reads (where the ship is, the round, the
legacy places in play, the explorer's space), so these are the places ``sailing.sail_targets``
offers; a test compares them over real games.
"""

from __future__ import annotations

from engine.core import View

from . import content as C


def _open(view: View, loc: str, explorer: int) -> bool:
    info = C.LOC[loc]
    if "legacy" in info and info["legacy"] not in list(view.get("legacy") or ()):
        return False  # a legacy place not in play
    return explorer >= int(info.get("explorer", 0))


def sail_reach(view: View) -> list[str]:
    """The places the reader's ship may sail to now, nearest first ([] for a spectator): up to 7
    steps, a legacy city's entry cost, the homeward spaces not skipped, space 22 in the last round
    only (the same walk as ``sailing._sail_targets``)."""
    return [loc for loc, _spent in sail_reach_spent(view)]


def sail_reach_spent(view: View) -> list[tuple[str, int]]:
    """:func:`sail_reach` with the movement each place costs."""
    seat = view.get("seat")
    if seat is None:
        return []
    p = view["p"][seat]
    explorer = int(p.get("explorer", 0))
    last = int(view["round"]) >= int(view["rounds"])
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    levels: dict[int, list[str]] = {0: [str(p["at"])]}
    for steps in range(8):
        for loc in levels.get(steps, ()):
            if steps:
                if loc in seen:
                    continue
                seen.add(loc)
                out.append((loc, steps))
                if C.LOC[loc]["kind"] == "home":
                    continue
            for n in C.LOC[loc]["next"]:
                if (n == "22" and not last) or ("legacy" in C.LOC[n] and not _open(view, n, explorer)):
                    continue
                cost = steps + int(C.LOC[n].get("enter", 1))
                if cost <= 7 and n not in levels.setdefault(cost, []):
                    levels[cost].append(n)
    return out


#: The whole sea drawn a mail's width wide: each place a sail target is a ringed number this
#: many px (a mail's least text), the others a dot; the names are in the mail's options.
NUMBER_PX = 12


def overview(view: View, targets: list[str], pos: dict[str, tuple[int, int]], *, width: float, top: float,
             sea: tuple[float, float, float]) -> tuple[list[str], float]:
    """The whole sea at a mail's width below ``top``: the route, every place a dot, the places the
    reader's ship can sail to ringed with their number, the ship's place framed; and its height.
    ``sea``: the map's width and the top and bottom of its sea, in map units.

    Why a second, smaller picture: the reach of a ship (up to 7 steps) is often wider than the
    part of the map a phone shows at a readable scale; this one shows all of it, numbers only."""
    full_w, sea_top, sea_bottom = sea
    k = width / full_w
    height = (sea_bottom - sea_top) * k

    def at(loc: str) -> tuple[float, float]:
        x, y = pos[loc]
        return round(x * k, 1), round(top + (y - sea_top) * k, 1)

    out = [f'<rect x="0" y="{top}" width="{width}" height="{round(height, 1)}" fill="#d7eefa"/>']
    live = [loc for loc in C.LOC_ORDER if loc in pos and ("legacy" not in C.LOC[loc]
                                                          or C.LOC[loc]["legacy"] in list(view.get("legacy") or ()))]
    for loc in live:
        x1, y1 = at(loc)
        for n in C.LOC[loc]["next"]:
            if n in live:
                x2, y2 = at(n)
                out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#6b8fa8" stroke-width="1.5"/>')
    seat = view.get("seat")
    here = str(view["p"][seat]["at"]) if seat is not None else ""
    for loc in live:
        x, y = at(loc)
        if loc in targets:
            out.append(f'<circle class="reach" data-place="{loc}" cx="{x}" cy="{y}" r="11" fill="#fff3bf" '
                       'stroke="#c2410c" stroke-width="2"/>')
            out.append(f'<text x="{x}" y="{round(y + NUMBER_PX * 0.36, 1)}" font-size="{NUMBER_PX}" '
                       f'text-anchor="middle" font-weight="bold" fill="#111">{loc}</text>')
        elif loc == here:
            out.append(f'<rect class="mine" x="{x - 8}" y="{y - 8}" width="16" height="16" fill="#ffffff" '
                       'stroke="#111" stroke-width="2"/>')
        else:
            out.append(f'<circle cx="{x}" cy="{y}" r="3" fill="#6b8fa8"/>')
    return out, height


#: Room around a place inside a part of the map, in map units: its name is drawn under it
#: (about 34 units either side for the longest), its flag and ships above it.
SIDE, ABOVE, BELOW = 36, 30, 32


def parts(points: list[tuple[float, float]], box: tuple[int, int], full: tuple[float, float, float],
          ) -> list[tuple[float, float, float, float]]:
    """Boxes (x, y, w, h) of the map, each ``box[0]`` wide (the mail's scale), together holding
    every point with room for its name: the first holds the first point (the reader's ship), the
    others follow west to east. ``box[1]``: the least height of a part; ``full``: the map's
    width, and the top and bottom of its sea."""
    w, least = box
    width, top, bottom = full
    first = points[0]
    order = sorted(points, key=lambda pt: pt[0])
    groups: list[list[tuple[float, float]]] = []
    for pt in order:
        if groups and pt[0] - groups[-1][0][0] <= w - 2 * SIDE:
            groups[-1].append(pt)
        else:
            groups.append([pt])
    groups.sort(key=lambda g: first not in g)  # the ship's part first, the rest west to east
    out = []
    for g in groups:
        xs, ys = [pt[0] for pt in g], [pt[1] for pt in g]
        x0 = min(max((min(xs) + max(xs)) / 2 - w / 2, 0.0), width - w)
        lo, hi = min(ys) - ABOVE, max(ys) + BELOW
        h = min(max(hi - lo, float(least)), bottom - top)
        y0 = min(max((lo + hi) / 2 - h / 2, top), bottom - h)
        out.append((x0, y0, float(w), h))
    return out
