"""Maracaibo's map, drawn from a view only: the route, each place with its owner's flag, its market's
discs, its quest and legacy tags, the ships (where each place's row is seen at its place:
``ship_offset``), the assistants, the Uprising's new legacy tiles, and its legend. The page draws the
whole map in the board's picture (render.py, where the places the reader's options name are links);
a mail draws a part of it around the reader's ship, bigger (render_phone.py).
"""

from __future__ import annotations

from collections.abc import Collection
from html import escape
from typing import Any

from engine import svg as kit
from engine.core import View

from . import content as C
from . import reach
from . import uprising_content as C_U
from .places import (
    MAP_H,
    MAP_W,
    POS,
    Box,
    _all_places,
    _overlap,
    _row_box,
    _ship_spots,
)
from .render_base import (
    JEAN_COLOUR,
    NATION_COLOUR,
    _colour,
    _kind,
    _name,
    _stop_gives,
    _stop_tag,
    _stops,
    _text,
    say,
)


def _decorations(view: View, loc: str, least: float) -> list[Box]:
    """What a place shows around it in ``view``: its owner's flag, its quest tag, its legacy stop tag,
    its market's discs, its assistants (as :func:`_svg_map` draws them)."""
    x, y = POS[loc]
    size = max(7.5, least)
    out: list[Box] = []
    if view["markers"].get(loc):
        out.append((x + 7, y - 19, x + 19, y - 9))
    if loc in view["quests"]:
        tw = max(14.0, kit.text_width(str(view["quests"][loc]), size) + 3)
        out.append((x - 16 - tw / 2, y - 15 - size, x - 14 + tw / 2, y - 10))
    stops = _stops(view)
    if loc in stops:
        tw = kit.text_width(_stop_tag(stops[loc]), size, True) + 3
        out.append((x - 14 - tw, y, x - 12, y + size + 5))
    if C.LOC[loc].get("market") and _kind(view, loc) == "city":
        out.append((x - 14, y + 23, x + 16, y + 30))
    if any(a["loc"] == loc for p in view["p"] for a in p.get("assist", ())):
        out.append((x + 13, y - 13, x + 32, y + 11))
    for t in view.get("uprising_legacy") or ():  # an Uprising tile's tag: right of its place, or left of it
        row = C_U.LEGACY.get(t["id"], {})
        if t["id"] in NEW_TAGS and str(row.get("loc")) == loc:
            dx, dy = _TAG_AT.get(loc, (14, -4))
            tw = kit.text_width(NEW_TAGS[t["id"]], size, True) + 3
            out += [(x + dx - 1, y + dy - 1, x + dx + tw + 1, y + dy + size + 9),
                    (x - 14 - tw, y + dy - 1, x - 12, y + dy + size + 9)]
    return out


def ship_offset(loc: str, n: int, view: View | None = None, least: float = 0) -> tuple[int, int]:
    """Where ``loc``'s row of ``n`` ships is drawn (its first ship's corner, from the place), so that it is
    seen at that place: the free spot nearest the place's drawing, beside its flag, quest and tags in
    ``view``. Why: Havana's ships were drawn above it, beside 21b (issue 21); then a fixed few spots put
    them 20 to 40 units off (QA of #20: Port Royal's framed ship half way to Providencia, Matanzas' row
    at Nassau's height)."""
    spots = _ship_spots(loc, n)
    if not spots:
        return (-14, -30)
    taken = _decorations(view, loc, least) if view is not None else []
    x, y = POS[loc]
    for dx, dy in spots:
        row = _row_box(x + dx, y + dy, n)
        if not any(_overlap(row, b) for b in taken):
            return dx, dy
    return spots[0]


def _svg_map(view: View, least: float = 0, legend: bool = True, rings: Collection[str] = (),
             box: tuple[float, float, float, float] | None = None) -> list[str]:
    """The map's drawing; ``least``: no text smaller (a mail draws it bigger, see :func:`mail_svg`),
    which also frames the reader's ship; ``legend``: with its legend in the corner; ``rings``:
    places ringed (a mail's sail targets), as the page rings the ones it links; ``box`` (x, y, w,
    h): the part of the map a picture shows, where every text is drawn whole (issue 21: names
    were cut at its edges): a place's name that its edge cuts is moved in along it when the place
    is in the part, any other text not wholly in it is left out (the mail's text says it)."""
    inner = None if box is None else (box[0] + 1, box[1] + 1, box[0] + box[2] - 1, box[1] + box[3] - 1)
    rows: list[Box] = []  # the ships' rows (set below, before any name is drawn)

    def _t(x: float, y: float, s: str, size: float = 9, anchor: str = "start", fill: str = "#111",
           weight: str = "normal", slide: bool = False, above: float | None = None, said: bool = False) -> str:
        size = max(size, least)
        s = s if said else say(s)  # (said: in the reader's words already, as the Uprising's legend's lines)
        if inner is not None:
            w = kit.text_width(s, size, weight == "bold")
            left = x - w / 2 if anchor == "middle" else x - w if anchor == "end" else x
            top, bottom = y - 0.78 * size, y + 0.25 * size  # as tests/engine/svg_checks measures
            dx = (inner[0] - left if left < inner[0] else inner[2] - left - w if left + w > inner[2] else 0.0)
            if top < inner[1] or bottom > inner[3] or (dx and not (slide and inner[0] <= x <= inner[2])):
                return ""
            # Why: a name slid in along the part's edge leaves the spot its place's ships' rows were kept
            # clear of (play-test of #20: around Havana, "Key West" slid onto Havana's row); it goes over
            # its place instead (``above``: its baseline there) where that is clear, else it is left out
            if dx and any(_overlap((left + dx, top, left + dx + w, bottom), r) for r in rows):
                if above is None:
                    return ""
                top, bottom = above - 0.78 * size, above + 0.25 * size
                spot = (left + dx, top, left + dx + w, bottom)
                if top < inner[1] or any(_overlap(spot, b) for b in rows + _all_places()):
                    return ""
                y = above
            x += dx
        return _text(x, y, s, size, anchor, fill, weight)

    out = [f'<rect x="0" y="18" width="640" height="{MAP_H - 18}" fill="#d7eefa"/>']
    live = [loc for loc in C.LOC_ORDER if _kind(view, loc) != "off"]
    for loc in live:  # the route first, under the places
        x1, y1 = POS.get(loc, (0, 0))
        for nx in C.LOC[loc]["next"]:
            if nx not in live:
                continue
            x2, y2 = POS.get(nx, (0, 0))
            dash = ' stroke-dasharray="4 3"' if C.LOC[loc]["kind"] == "home" or C.LOC[nx]["kind"] == "home" else ""
            out.append(f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#6b8fa8" stroke-width="2"{dash}/>')
    ships: dict[str, list[str]] = {}
    mine: tuple[str, int] | None = None  # the reader's ship: its place and its place in the row there
    for i, p in enumerate(view["p"]):
        if i == view.get("seat"):
            mine = (p["at"], len(ships.get(p["at"], [])))
        ships.setdefault(p["at"], []).append(_colour(view, i))
    if view.get("jean"):
        ships.setdefault(view["jean"]["at"], []).append(JEAN_COLOUR)
    if inner is not None:
        for loc, row in ships.items():
            if loc in POS:
                rx, ry = ship_offset(loc, len(row), view, least)
                rows.append(_row_box(POS[loc][0] + rx, POS[loc][1] + ry, len(row)))
    stops = _stops(view)
    links = view.get("links") or {}  # place -> address, given by a host page (the places its options name)
    titles = view.get("link_titles") or {}  # place -> what a click there does
    # a place in the reader's reach: what ending a sail there gives, in its link's title (issue 21)
    seat = view.get("seat")
    spent_at = dict(reach.sail_reach_spent(view)) if links else {}
    for loc in live:
        x, y = POS.get(loc, (0, 0))
        kind = _kind(view, loc)
        owner = view["markers"].get(loc)
        link = links.get(loc) if isinstance(links, dict) else None
        # only where the click sails there (a combat's annex link names a place too)
        sails = link and str(titles.get(loc) or "sail").lower().startswith("sail")
        told = _gives_title(view, seat, loc, spent_at, stops) if sails else ""
        if link:  # a reachable place: a link, ringed
            out.append(f'<a href="{escape(str(link), quote=True)}" class="target" data-place="{escape(loc)}">'
                       f'<title>{escape(str(titles.get(loc) or "Sail to " + _name(loc)) + told)}</title>'
                       f'<circle cx="{x}" cy="{y}" r="17" fill="#fff3bf" stroke="#e8590c" stroke-width="3"/>')
        # a place the reader's ship can reach (a mail's rings): its outline drawn thick and orange
        edge = ('stroke="#c2410c" stroke-width="3"' if loc in rings and not link else "")
        if kind == "city":
            out.append(f'<rect x="{x - 13}" y="{y - 11}" width="26" height="22" rx="4" fill="#f3d9b1" '
                       + (edge or 'stroke="#8a5a2b" stroke-width="1.5"') + "/>")
        elif kind == "village":
            out.append(f'<circle cx="{x}" cy="{y}" r="11" fill="#c9e8b8" '
                       + (edge or 'stroke="#4f7a3a" stroke-width="1.5"') + "/>")
        else:
            out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="#e9ecef" '
                       + (edge or 'stroke="#868e96" stroke-width="1.5"') + "/>")
        out.append(_t(x, y + 3.5, loc, 9, "middle", weight="bold"))
        label = str(C.LOC[loc]["name"]).split(": ", 1)[-1]
        out.append(_t(x, y + 21, label, 7.5 if len(label) < 14 else 7, "middle", "#33475b", slide=True, above=y - 15))
        if link:
            out.append("</a>")
        if owner:
            out.append(f'<rect x="{x + 8}" y="{y - 18}" width="10" height="8" fill="{NATION_COLOUR[owner]}" '
                       f'stroke="#222" stroke-width="0.5"/>')
            out.append(_t(x + 13, y - 11.5, owner[0].upper(), 6, "middle", kit.ink_on(NATION_COLOUR[owner]), "bold"))
        m = C.LOC[loc].get("market")
        if m and kind == "city":
            taken = view["market"].get(loc, [])
            for k in range(len(m["rewards"])):
                fill = _colour(view, taken[k]) if k < len(taken) and isinstance(taken[k], int) else "#fff"
                out.append(f'<rect x="{x - 13 + 7 * k}" y="{y + 24}" width="6" height="5" fill="{fill}" '
                           f'stroke="#8a5a2b" stroke-width="0.6"/>')
        if loc in view["quests"]:  # the tag as wide and tall as its words (QA #20: a mail's bigger "UQ23"
            qid = str(view["quests"][loc])  # spilled out of its 14-unit tag, up under the framed ship)
            size = max(6, least)
            tw = max(14.0, kit.text_width(qid, size, False) + 3)
            top = y - 11 - (size + 3)
            out.append(f'<rect class="quest" x="{x - 15 - tw / 2:.1f}" y="{top:.1f}" width="{tw:.1f}" '
                       f'height="{size + 3:.1f}" rx="2" fill="#ffd43b" stroke="#a07c00" stroke-width="0.6"/>')
            out.append(_t(x - 15, top + size + 1, qid, 6, "middle"))
        if loc in stops:  # a legacy stop tile: what ending a sail here gives or costs, left of the place
            tag = _stop_tag(stops[loc])
            size = max(6.5, least)
            tw = kit.text_width(tag, size, True) + 3
            out.append(f'<rect class="stop" x="{x - 13 - tw:.1f}" y="{y + 1}" width="{tw:.1f}" '
                       f'height="{size + 3:.1f}" rx="2" fill="#fff" stroke="#5f3dc4" stroke-width="0.8"/>')
            out.append(_t(x - 13 - tw / 2, y + size + 2, tag, size, "middle", "#5f3dc4", "bold"))
        dx, dy = ship_offset(loc, len(ships.get(loc, [])), view, least)
        for k, colour in enumerate(ships.get(loc, [])):
            sx, sy = x + dx + 8 * k, y + dy
            cls = ' class="mine"' if mine == (loc, k) else ""
            if cls and least:  # a picture has no page style to mark it: a frame
                out.append(f'<rect x="{sx - 2.5}" y="{sy - 7}" width="12" height="13" rx="2" fill="#ffffff" '
                           'stroke="#111" stroke-width="1.2"/>')
            out.append(f'<path{cls} d="M{sx} {sy} l7 0 l-1.5 4 l-4 0 z" fill="{colour}" stroke="#222" '
                       'stroke-width="0.4"/>'
                       f'<line x1="{sx + 3.5}" y1="{sy}" x2="{sx + 3.5}" y2="{sy - 5}" stroke="#222" '
                       'stroke-width="0.6"/>')
    for i, p in enumerate(view["p"]):
        for k, a in enumerate(p.get("assist", ())):
            x, y = POS.get(a["loc"], (0, 0))
            out.append(f'<circle cx="{x + 16 + 4 * k}" cy="{y + 8 - 6 * i}" r="2.6" fill="{_colour(view, i)}" '
                       'stroke="#222" stroke-width="0.4"/>')
    # a tag is drawn inside the part a picture shows (QA of #20: L37's right of 13 was cut at a mail's edge)
    out += _svg_new_legacy(view, _t, least, None if box is None else (box[0], box[1], box[0] + box[2], box[1] + box[3]))
    if not legend:
        return out
    # the legend
    new = bool(view.get("uprising_legacy"))
    if new:
        return out + _uprising_legend(_t, bool(stops), least)
    lx, ly = 384, 222 - (9 if stops else 0)  # a line more: the legend starts higher
    out.append(_t(lx, ly, "circle: village; square: city,", 6.5))
    out.append(_t(lx, ly + 9, "its market discs below; flag: owner", 6.5))
    out.append(_t(lx, ly + 18, "(F, E, S); Q: quest; boats: ships;", 6.5))
    out.append(_t(lx, ly + 27, "dots: assistants" + ("; +1 CP, -2 d: a stop's" if stops else ""), 6.5))
    if stops:
        out.append(_t(lx, ly + 36, "legacy tile (ending a sail there)", 6.5))
    return out


def _uprising_legend(text: Any, stops: bool, least: float) -> list[str]:
    """The legend of a map with the Uprising's legacy tiles, its words said in the reader's language and
    wrapped to the room between Port Royal and the new city's tag, its last line above Maracaibo's flag.
    Why: drawn line by line as the English falls, the Portuguese lines ran over the tag "pedágio: 1
    marcador", the flag of 10 (a nation's in 79) and the number 10a (play-test of 79 in Portuguese)."""
    parts = ["circle: village; square: city,", "its market discs below; flag: owner",
             "(F, E, S); Q: quest; boats: ships;", "dots: assistants" + ("; +1 CP, -2 d: a stop's" if stops else "")]
    parts += ["legacy tile (ending a sail there)"] if stops else []
    parts += ["green tag: an Uprising legacy tile"]
    size = max(6.5, least)
    lines = kit.wrap(" ".join(say(part) for part in parts), size, _LEGEND_RIGHT - _LEGEND_X)
    top = max(_LEGEND_TOP, _LEGEND_BOTTOM - 9 * (len(lines) - 1))
    return [text(_LEGEND_X, top + 9 * k, line, size, said=True) for k, line in enumerate(lines)]


#: the Uprising's legend's room: right of 13 Port Royal, left of the tag of 10a (L30), below 5's market
#: discs, its last line's foot above the flag of 10 Maracaibo
_LEGEND_X, _LEGEND_RIGHT, _LEGEND_TOP, _LEGEND_BOTTOM = 384, 512, 172, 240


#: the Uprising's new legacy tiles on a place: what using them costs or gives, in a tag's few words
NEW_TAGS = {"L30": "toll: 1 marker", "L33": "disc + village", "L34": "reveal: reward", "L35": "-1 CP +2 VP",
            "L36": "-2 goods +2 d", "L37": "disc: on to 2"}


#: where a new tile's tag goes from its place, where right of it would cover a neighbour's name
_TAG_AT = {"21a": (-20, 26), "10a": (-44, -46), "6": (21, -22), "15": (12, -4)}
#: where a new tile's tag goes left of its place: right of 13 lies the legend, right of 15 the name Cartagena
_TAG_LEFT = {"13", "15"}


def _svg_new_legacy(view: View, text: Any, least: float,
                    part: tuple[float, float, float, float] | None = None) -> list[str]:
    """The Uprising's new legacy tiles on the map: a green tag right of their place (what using them costs
    or gives), the players' discs on L33 and L37, the nations' markers given up on L30 (player's outline);
    ``part`` (x0, y0, x1, y1): the part of the map a picture shows, whose edges cut no tag: one right of
    a place in it is drawn left of the place when it would cross the right edge, one still cut is left out
    (the mail's text says the tile)."""
    out: list[str] = []
    board = view.get("legacy_board") or {}
    for t in view.get("uprising_legacy") or ():
        row = C_U.LEGACY.get(t["id"], {})
        if t["id"] not in NEW_TAGS or "loc" not in row:
            continue
        x, y = POS.get(str(row["loc"]), (0, 0))
        dx, dy = _TAG_AT.get(str(row["loc"]), (14, -4))
        x, y = x + dx - 14, y + dy + 4  # (the tag's corner; what lies on the tile under it)
        tag, size = NEW_TAGS[t["id"]], max(6, least)
        tw = kit.text_width(say(tag), size, True) + 3  # measured as said: "pedágio: 1 marcador" is longer
        px = POS[str(row["loc"])][0]
        right = MAP_W - 2 if part is None or px > part[2] else min(MAP_W - 2, part[2] - 2)
        # past the map's right edge (L36 at 8), or the picture's, or into the legend (L37 at 13): left of its place
        if x + 14 + tw > right or str(row["loc"]) in _TAG_LEFT:
            x = round(px - 27 - tw)
        if part is not None:
            x0, y0, x1, y1 = x + 14, y - 4, x + 14 + tw, y - 4 + size + 3
            if not (part[0] <= x0 and x1 <= part[2] and part[1] <= y0 and y1 <= part[3]) and not (
                    x1 <= part[0] or x0 >= part[2] or y1 <= part[1] or y0 >= part[3]):
                continue
        out.append(f'<rect class="newtile" x="{x + 14}" y="{y - 4}" width="{tw:.1f}" height="{size + 3:.1f}" rx="2" '
                   'fill="#fff" stroke="#2b8a3e" stroke-width="0.8"/>')
        out.append(text(x + 14 + tw / 2, y + size - 3, tag, size, "middle", "#2b8a3e", "bold"))
        held = board.get(t["id"])
        if isinstance(held, list):  # discs (L33, L37), under the tag
            for k, seat in enumerate(held):
                out.append(f'<circle cx="{x + 18 + 6 * k}" cy="{y + size + 4}" r="2.6" fill="{_colour(view, seat)}" '
                           'stroke="#222" stroke-width="0.4"/>')
        elif isinstance(held, dict):  # the new city's Dutch flag: each marker given up
            for k, (seat, nation) in enumerate(sorted(held.items())):
                out.append(f'<rect x="{x + 15 + 8 * k}" y="{y + size + 1}" width="6" height="6" '
                           f'fill="{NATION_COLOUR[nation]}" stroke="{_colour(view, int(seat))}" stroke-width="1.2"/>')
    return out


def _gives_title(view: View, seat: Any, loc: str, spent_at: dict[str, int], stops: dict[str, dict[str, Any]]) -> str:
    """": 2 village actions" for a place the reader's ship reaches, else ""."""
    if seat is None or loc not in spent_at:
        return ""
    return ": " + _stop_gives(view, view["p"][seat], loc, spent_at[loc], stops)
