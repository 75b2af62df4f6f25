"""Text and SVG renderings of a Caravelas II view (never of the state: only what the viewer may know)."""

from __future__ import annotations

import functools
import math
from itertools import pairwise
from typing import Any
from xml.sax.saxutils import escape

from engine import svg
from engine.i18n import N_, _, ngettext

from . import board as B

#: the four fleets of the box: yellow, red, green, blue (seat order)
FLEET_COLOURS = (("yellow", "#d9a400"), ("red", "#c0392b"), ("green", "#23744a"), ("blue", "#2f6fd0"))
CUBE_FILL = {"red": "#c0392b", "black": "#222222", "yellow": "#f1c40f", "brown": "#8b5a2b",
             "white": "#ffffff", "pink": "#f39ac7", "blue": "#2f6fd0", "green": "#27ae60"}
STEP_TEXT = {"move": N_("sailing"), "sink": N_("choosing a caravela to sink"),
             "keep": N_("choosing discovery cards to keep"), "cards": N_("keeping or returning movement cards")}
#: the fleets' colours, as the pictures and the text name them
FLEET_WORDS = (N_("yellow"), N_("red"), N_("green"), N_("blue"))


def _plural(n: int, one: str, other: str) -> str:
    return ngettext(one, other, n).format(n=n)


# (the plural forms of _plural's words, for the catalogue)
_PLURALS = (ngettext("{n} movement card", "{n} movement cards", 1), ngettext("{n} discovery card",
            "{n} discovery cards", 1), ngettext("{n} point", "{n} points", 1), ngettext("{n} step", "{n} steps", 1))


def _cube(colour: str) -> str:
    """A cube's colour in the reader's language."""
    return _(colour)


# ---- text ------------------------------------------------------------------------------------------

def render_text(view: dict[str, Any]) -> str:
    players = view["players"]
    n = len(players)
    seat = view["seat"]
    lines = [_("Caravelas II - turn {turn}, first player {player}, game ends at {target} points").format(
        turn=view["turns"] + 1, player=players[view["first"]], target=view["options"]["target"])]
    if view["over"]:
        out = view["outcome"]
        lines.append(_("GAME OVER (a player reached the target).") if out["reason"] == "points"
                     else _("GAME OVER (the Jeronimos Monastery is full)."))
        ranking = []
        for place, group in enumerate(out["ranking"], 1):
            ranking.append(f"{place}. " + " = ".join(f"{players[s]} {view['final'][s]}" for s in group))
        lines.append(_("Final ranking: {ranking}").format(ranking="; ".join(ranking)))
        lines.append(_("(final = points + 2 per cube still aboard - 2 per unfulfilled discovery card; "
                       "ties: most discoveries, then most green discoveries)"))
    else:
        if view["ending"]:
            lines.append(_("The end is triggered: the game ends when this round is complete."))
        step = STEP_TEXT.get(view["step"])
        said_step = _(step) if step else view["step"]
        # The reader's own turn in the second person, as the story says "Your turn"
        lines.append(_("It is your turn ({step}).").format(step=said_step) if view["turn"] == seat
                     else _("It is {player}'s turn ({step}).").format(player=players[view["turn"]], step=said_step))
        if view["used"]:
            lines.append(_("Movement cards played this turn: {cards}").format(cards=", ".join(map(str, view["used"]))))
    lines.append("")
    lines.append(_("Fleets:"))
    for s in range(n):
        f = view["fleets"][s]
        colour = _(FLEET_COLOURS[s][0])
        cargo = ", ".join(f"{_cube(c)} ({B.CUBES[c]['points']})" for c in f["cargo"]) or _("empty")
        sunk = ", ".join(map(str, f["sunk"])) or _("none")
        found = ", ".join(B.name(c) for c in f["found"])
        mark = " " + _("<- you") if s == seat else ""
        lines.append("  " + _("{player} ({colour}){mark}: {score} points, at {place}").format(
            player=players[s], colour=colour, mark=mark, score=f["score"], place=B.name(f["at"])))
        lines.append("      " + _("cargo: {cargo}; sunk caravelas: {sunk}").format(cargo=cargo, sunk=sunk))
        # Why a line of its own when nothing is discovered: Portuguese says "none" by the noun's
        # gender ("descobertos: nenhum", masculine places; "caravelas afundadas: nenhuma")
        discovered = (_("discovered: {found}; holds {hand} and {disc}") if found
                      else _("discovered: none; holds {hand} and {disc}"))
        lines.append("      " + discovered.format(
            found=found, hand=_plural(f["hand"], "{n} movement card", "{n} movement cards"),
            disc=_plural(f["disc"], "{n} discovery card", "{n} discovery cards")))
    lines.append("")
    cubes = ", ".join(_("{colour} {n} at {place}").format(colour=_cube(c), n=view["cubes"][c],
                                                          place=B.name(B.CUBES[c]["place"])) for c in B.COLOURS)
    lines.append(_("Cubes left: {cubes}").format(cubes=cubes))
    lines.append(_("Jeronimos Monastery: {n} of {of} green cubes delivered").format(n=view["monastery"],
                                                                                  of=view["greens"]))
    lines.append(_("Movement deck: {deck} cards, discard pile {discard}. Discovery pile: {pile} cards.").format(
        deck=view["mdeck"], discard=view["mdisc"], pile=view["dpile"]))
    me = view.get("me")
    if me is not None:
        at = view["fleets"][seat]["at"]
        dist = B.DIST[at]
        lines.append("")
        lines.append(_("Your movement cards: {cards}").format(cards=", ".join(map(str, me["hand"])) or _("none")))
        if me["disc"]:
            lines.append(_("Your discovery cards:"))
            for c in me["disc"]:
                d = B.DISCOVERIES[c]
                lines.append("  " + _("{place} ({colour}, {points}), {steps} from your fleet at best").format(
                    place=B.name(c), colour=_(d["colour"]), points=_plural(d["points"], "{n} point", "{n} points"),
                    steps=_plural(dist.get(c, 0), "{n} step", "{n} steps")))
        else:
            lines.append(_("Your discovery cards: none"))
        if me.get("drawn"):
            lines.append(_("You drew: {cards}").format(cards=", ".join(
                f"{B.name(c)} ({B.DISCOVERIES[c]['points']})" for c in me["drawn"])))
        if me["bottom"]:
            lines.append(_("Cards you returned, still at the bottom of the discovery pile: {cards}").format(
                cards=", ".join(_("{place} (card {pos} of {pile} from the top)").format(
                    place=B.name(c), pos=pos + 1, pile=view["dpile"]) for c, pos in me["bottom"])))
    return "\n".join(lines)


# ---- SVG -------------------------------------------------------------------------------------------

SEA = "#dcecf5"
INK = "#3b2a14"
WIND = "#1b4f9c"
#: the sea-circle numbers: 4.5:1 on the sea (WCAG AA)
SPACE_INK = "#3f5a68"
PLACE_SIZE, SPACE_SIZE, ROUTE_SIZE = 13, 10, 12
#: the strip under the map: the legend and the players' boards
STRIP = 200
#: around each circle, room kept free of labels for the fleets drawn on it
RESERVE = 17
CUBE = 8


def _xy(nid: str) -> tuple[float, float]:
    node = B.NODES[nid]
    return float(node["x"]), float(node["y"])


def _radius(kind: str) -> int:
    return 14 if kind in ("lisbon", "calecute", "cape") else 11 if kind == "place" else 6


def _polyline(ids: list[str], stroke: str, width: int, dash: str | None = None, cls: str | None = None) -> str:
    pts = " ".join(f"{x:g},{y:g}" for x, y in map(_xy, ids))
    return svg.el("polyline", class_=cls, points=pts, fill="none", stroke=stroke, stroke_width=width,
                  stroke_dasharray=dash, stroke_linejoin="round")


def _arrowhead(a: str, b: str, colour: str) -> str:
    (x1, y1), (x2, y2) = _xy(a), _xy(b)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    ang = math.atan2(y2 - y1, x2 - x1)
    size = 8
    pts = []
    for da, r in ((0, size), (2.5, size), (-2.5, size)):
        pts.append(f"{mx + r * math.cos(ang + da):.1f},{my + r * math.sin(ang + da):.1f}")
    return svg.el("polygon", points=" ".join(pts), fill=colour)


Box = tuple[float, float, float, float]


def _hit(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _cube_box(nid: str) -> Box:
    x, y = _xy(nid)
    r = _radius(B.NODES[nid]["kind"])
    rows = (B.CUBES_PER_COLOUR + 2) // 3
    return (x + r + 2, y - 9, x + r + 4 + 3 * (CUBE + 2), y - 9 + rows * (CUBE + 2) + 1)


def _static_obstacles() -> list[Box]:
    boxes: list[Box] = []
    for node in B.MAP["nodes"]:
        x, y = float(node["x"]), float(node["y"])
        room = max(RESERVE, _radius(node["kind"]) + 3)
        boxes.append((x - room, y - room, x + room, y + room))
    boxes += [_cube_box(nid) for nid in B.CUBE_AT]
    mon = B.MAP["monastery"]
    boxes.append((mon["x"] - 12, mon["y"] - 30, mon["x"] + 32 + 24 * 6, mon["y"] + 18))
    return boxes


def _candidates(x: float, y: float, w: float, h: float, d: float, prefer: str) -> list[tuple[float, float, str]]:
    """Where a label of w x h may go around (x, y) at distance d: (left x, baseline y, anchor)."""
    spots = {
        "below": (x - w / 2, y + d + h * 0.8), "above": (x - w / 2, y - d - h * 0.25),
        "right": (x + d, y + h * 0.35), "left": (x - d - w, y + h * 0.35),
        "below-right": (x + d * 0.6, y + d * 0.6 + h * 0.8), "below-left": (x - d * 0.6 - w, y + d * 0.6 + h * 0.8),
        "above-right": (x + d * 0.6, y - d * 0.6 - h * 0.25), "above-left": (x - d * 0.6 - w, y - d * 0.6 - h * 0.25),
    }
    order = [prefer] + [k for k in spots if k != prefer]
    out = []
    for grow in (0, 8, 16, 26, 38, 52):
        for k in order:
            sx, sy = spots[k]
            dx = {"right": grow, "left": -grow}.get(k.split("-")[-1], 0)
            dy = grow if k.startswith("below") else -grow if k.startswith("above") else 0
            out.append((sx + dx, sy + dy, k))
            if k in ("above", "below"):  # slid sideways, still over or under its circle
                out += [(sx + dx + w / 3, sy + dy, k), (sx + dx - w / 3, sy + dy, k)]
            if k in ("left", "right"):  # a little higher or lower, still beside it
                out += [(sx + dx, sy + dy - h * 0.7, k), (sx + dx, sy + dy + h * 0.7, k)]
    return out


@functools.lru_cache(maxsize=1)
def label_layout() -> tuple[tuple[str, float, float, int, str, str, str], ...]:
    """Every fixed label of the map, placed once so that none overlaps another, a circle
    (with the room for the fleets on it), a cube row or the monastery:
    (text, left x, baseline y, size, colour, weight, style)."""
    width, height = B.MAP["width"], B.MAP["height"]
    taken = _static_obstacles()
    placed: list[tuple[str, float, float, int, str, str, str]] = []

    def put(text: str, x: float, y: float, size: int, colour: str, d: float, prefer: str,
            weight: str = "normal", style: str = "normal", own: Box | None = None) -> None:
        w = svg.text_width(text, size, weight == "bold")
        h = float(size)
        others = [b for b in taken if b != own]
        best = None
        for lx, base, _k in _candidates(x, y, w, h, d, prefer):
            box = (lx - 1, base - 0.78 * h - 1, lx + w + 1, base + 0.25 * h + 1)
            if box[0] < 2 or box[2] > width - 2 or box[1] < 2 or box[3] > height - 2:
                continue
            if not any(_hit(box, b) for b in others):
                best = (lx, base, box)
                break
        if best is None:  # crowded everywhere: the spot that covers the fewest things (the test would say so)
            def cost(c: tuple[float, float, str]) -> int:
                box = (c[0], c[1] - 0.78 * h, c[0] + w, c[1] + 0.25 * h)
                return sum(_hit(box, b) for b in others)
            lx, base, _k = min(_candidates(x, y, w, h, d, prefer), key=cost)
            best = (lx, base, (lx, base - 0.78 * h, lx + w, base + 0.25 * h))
        taken.append(best[2])
        placed.append((text, round(best[0], 1), round(best[1], 1), size, colour, weight, style))

    for node in B.MAP["nodes"]:
        if node["kind"] in ("white", "blue"):
            continue
        nid = node["id"]
        label = node["name"] + (f" ({B.DISCOVERIES[nid]['points']})" if nid in B.DISCOVERIES else "")
        x, y = float(node["x"]), float(node["y"])
        room = max(RESERVE, _radius(node["kind"]) + 3)
        own = (x - room, y - room, x + room, y + room)
        put(label, x, y, PLACE_SIZE, INK, room + 2, node.get("label") or "above", "bold", own=own)
    for route in B.MAP["arrows"]:
        path = route["path"]
        k = len(path) // 2
        (x1, y1), (x2, y2) = _xy(path[k - 1]), _xy(path[k])
        put(route["name"], (x1 + x2) / 2, (y1 + y2) / 2, ROUTE_SIZE, WIND, 10, "above", style="italic")
    for node in B.MAP["nodes"]:
        if node["kind"] not in ("white", "blue"):
            continue
        x, y = float(node["x"]), float(node["y"])
        own = (x - RESERVE, y - RESERVE, x + RESERVE, y + RESERVE)
        put(node["id"], x, y, SPACE_SIZE, SPACE_INK if node["kind"] == "white" else WIND, 17, "below", own=own)
    return tuple(placed)


def _fleet_chip(x: float, y: float, s: int, letter: str, mine: bool, cls: str = "fleet",
               small: bool = False, big: bool = False) -> list[str]:
    col = FLEET_COLOURS[s][1]
    w, h = (12, 16) if small else (16, 20) if big else (14, 18)
    out = []
    if mine:
        m = 2 if small else 3
        out.append(svg.el("rect", class_="mine", x=round(x - w / 2 - m, 1), y=round(y - h / 2 - m, 1), width=w + 2 * m,
                          height=h + 2 * m, rx=7, fill="#ffffff", stroke="#111111", stroke_width=2))
    out.append(svg.el("rect", class_=f"{cls} seat{s}", x=round(x - w / 2, 1), y=round(y - h / 2, 1), width=w,
                      height=h, rx=5, fill=col, stroke="#111111", stroke_width=2 if "away" in cls else 1,
                      stroke_dasharray="3 2" if "away" in cls else None))
    out.append(svg.text(x, y + 4, letter, size=12 if big else 11 if not small else 10, fill=svg.ink_on(col),
                        font_weight="bold"))
    return out


def render_svg(view: dict[str, Any]) -> str:
    """The map with the strip under it (legend, cubes, the players' boards), for a wide screen."""
    width, map_h = B.MAP["width"], B.MAP["height"]
    body = _map(view) + _strip(view, map_h)
    title = f"Caravelas II - {', '.join(view['players'])}"
    return svg.document(width, map_h + STRIP, body, title=title)


def render_phone_svg(view: dict[str, Any]) -> list[str]:
    """For a phone: the map alone (the page pans it: its labels stay readable), then the strip
    drawn narrow (358 px, one thing a line, text 12 px or more), which fits the screen."""
    players = ", ".join(view["players"])
    body, height = _narrow_strip(view)
    return [svg.document(B.MAP["width"], B.MAP["height"], _map(view),
                         title=_("Caravelas II - {players}: the map").format(players=players)),
            svg.document(NARROW, height, body, title=_("Caravelas II - {players}: legend and players").format(
                players=players))]


def render_map_svg(view: dict[str, Any], box: Box | None = None) -> str:
    """The map alone, at its own size (the part near a fleet is what a mail shows). With ``box``
    (x, y, w, h: the part a picture shows), every label and every fleet is drawn wholly inside it:
    a label cut by its edge is moved in, and a fleet beyond it is drawn at the edge, dashed."""
    return svg.document(B.MAP["width"], B.MAP["height"], _map(view, box))


def _inside(x0: float, x1: float, lo: float, hi: float) -> float:
    """How far to move [x0, x1] so that it lies within [lo, hi] (0 when it does)."""
    return lo - x0 if x0 < lo else hi - x1 if x1 > hi else 0.0


def _map(view: dict[str, Any], box: Box | None = None) -> list[str]:
    width, map_h = B.MAP["width"], B.MAP["height"]
    players = view["players"]
    seat = view["seat"]
    body: list[str] = [svg.el("rect", x=0, y=0, width=width, height=map_h, fill=SEA)]
    # lines, then the arrow routes over them: a wide sea-coloured band under each route
    # shows that it passes over a line it crosses (no junction there)
    for line in B.MAP["lines"]:
        body.append(_polyline(line, "#ffffff", 4, None, "route"))
        body.append(_polyline(line, "#6f8a99", 1))
    for route in B.MAP["arrows"]:
        body.append(_polyline(route["path"], SEA, 9))
    for route in B.MAP["arrows"]:
        path = route["path"]
        body.append(_polyline(path, "#2f6fd0", 3, "8 4", "arrows"))
        for a, b in pairwise(path):
            body.append(_arrowhead(a, b, WIND))
    # circles
    targets = set(view.get("me", {}).get("disc", [])) if seat is not None else set()
    links = view.get("links") or {}  # place -> address, given by a host page (where its moves go)
    titles = view.get("link_titles") or {}
    overlays: list[str] = []  # the links, over every circle
    for node in B.MAP["nodes"]:
        x, y, kind, nid = node["x"], node["y"], node["kind"], node["id"]
        r = _radius(kind)
        link = links.get(nid) if isinstance(links, dict) else None
        if link:  # a place a move can go to: ringed under it, and a link over it (a clear disc the size
            # of the ring, so that a click anywhere on it counts)
            body.append(svg.el("circle", cx=x, cy=y, r=r + 8, fill="#fff3bf", stroke="#e8590c", stroke_width=3))
            said = titles.get(nid) or _("Sail to {place}").format(place=node.get("name", nid))
            title = svg.el("title", escape(str(said)))
            overlays.append(svg.el("a", title + svg.el("circle", cx=x, cy=y, r=r + 8, fill="#ffffff", fill_opacity=0),
                                   href=str(link), class_="target", data_place=nid))
        if kind == "white":
            body.append(svg.el("circle", cx=x, cy=y, r=r, fill="#ffffff", stroke="#6f8a99"))
            continue
        if kind == "blue":
            body.append(svg.el("circle", cx=x, cy=y, r=r, fill="#6aa7e8", stroke=WIND))
            continue
        fill = {"lisbon": "#fff3c4", "calecute": "#fff3c4", "cape": "#f2c6c0"}.get(kind, "#f5e6c8")
        if nid in targets:
            body.append(svg.el("circle", class_="target", cx=x, cy=y, r=r + 5, fill="none",
                               stroke=FLEET_COLOURS[seat][1], stroke_width=3, stroke_dasharray="4 3"))
        body.append(svg.el("circle", cx=x, cy=y, r=r, fill=fill, stroke="#6b4c2a", stroke_width=2))
        body.append(svg.el("path", d=f"M{x - 4},{y}H{x + 4}M{x},{y - 5}V{y + 5}", stroke="#6b4c2a",
                           stroke_width=2))
        colour = B.CUBE_AT.get(nid)
        if colour:
            left = view["cubes"][colour]
            x0, y0 = _cube_box(nid)[:2]
            for i in range(left):
                body.append(svg.el("rect", class_=f"cube {colour}", x=x0 + 1 + (i % 3) * (CUBE + 2),
                                   y=y0 + 1 + (i // 3) * (CUBE + 2), width=CUBE, height=CUBE,
                                   fill=CUBE_FILL[colour], stroke="#333333"))
            if not left:
                body.append(svg.el("rect", x=x0 + 1, y=y0 + 1, width=CUBE, height=CUBE, fill="none",
                                   stroke="#333333", stroke_dasharray="2 2"))
    # fleets, on their circle (up to four share one: a two by two block)
    chips: list[str] = []
    away: list[Box] = []  # in a part of the map: where each fleet is drawn (no label goes under one)
    by_place: dict[str, list[int]] = {}
    for s, f in enumerate(view["fleets"]):
        by_place.setdefault(f["at"], []).append(s)
    spots: list[tuple[float, float, int, int, bool]] = []  # x, y, seat, fleets on its circle, beyond the part
    for nid, seats in by_place.items():
        x, y = _xy(nid)
        # the viewer's own fleet last, so that its frame is never under another chip
        for i, s in sorted(enumerate(seats), key=lambda t: t[1] == seat):
            fx, fy = (x, y) if len(seats) == 1 else (x + (-7 if i % 2 == 0 else 7), y + (-9 if i < 2 else 9))
            spots.append((fx, fy, s, len(seats), False))
    if box is not None:  # a fleet beyond the part shown: at its edge, towards where it is, dashed
        lo_x, hi_x, lo_y, hi_y = box[0] + 2, box[0] + box[2] - 2, box[1] + 2, box[1] + box[3] - 2
        kept: list[Box] = []
        moved, near = [], []
        for fx, fy, s, k, _a in spots:
            dx, dy = _inside(fx - 13, fx + 13, lo_x, hi_x), _inside(fy - 15, fy + 15, lo_y, hi_y)
            if abs(dx) > 12 or abs(dy) > 14:
                moved.append((fx + dx, fy + dy, s, k, True))
            else:  # on its circle, nudged in when the edge cuts it
                near.append((fx + dx, fy + dy, s, k, False))
                kept.append((fx + dx - 13, fy + dy - 15, fx + dx + 13, fy + dy + 15))
        for j, (fx, fy, s, k, a) in enumerate(moved):
            on_side = fx - 13 <= lo_x + 0.5 or fx + 13 >= hi_x - 0.5  # slide along the edge it is on
            step = (0.0, 32.0) if on_side else (28.0, 0.0)
            for _try in range(40):
                here = (fx - 13, fy - 15, fx + 13, fy + 15)
                if not any(_hit(here, b) for b in kept + away):
                    break
                fx, fy = fx + step[0], fy + step[1]
                if fx + 13 > hi_x or fy + 15 > hi_y:  # round the far end: back the other way
                    step = (-abs(step[0]), -abs(step[1]))
                    fx, fy = min(fx, hi_x - 13), min(fy, hi_y - 15)
            away.append((fx - 13, fy - 15, fx + 13, fy + 15))
            moved[j] = (fx, fy, s, k, a)
        spots = near + moved
        spots.sort(key=lambda sp: sp[2] == seat)
        away += kept
    for fx, fy, s, k, a in spots:
        chips += _fleet_chip(fx, fy, s, players[s][:1].upper(), s == seat, cls="fleet away" if a else "fleet",
                             small=k > 1)
    halo = {"stroke": SEA, "stroke_width": 3, "paint_order": "stroke", "stroke_linejoin": "round"}
    labels = list(label_layout())
    if box is not None:  # a part of the map: a label beyond it left out; one its edge cuts moved in,
        # whole, where it covers no other label and no fleet (or left out: the mail's text has it)
        edge = (box[0] + 2, box[1] + 2, box[0] + box[2] - 2, box[1] + box[3] - 2)

        def area(t: tuple[str, float, float, int, str, str, str]) -> Box:
            return (t[1], t[2] - t[3], t[1] + svg.text_width(t[0], t[3], t[5] == "bold"), t[2] + 0.25 * t[3])

        whole = [t for t in labels if _inside(*area(t)[::2], edge[0], edge[2]) == 0
                 and _inside(*area(t)[1::2], edge[1], edge[3]) == 0]
        taken = [area(t) for t in whole] + away
        for t in labels:
            a = area(t)
            if t in whole or not _hit(a, (box[0], box[1], box[0] + box[2], box[1] + box[3])):
                continue
            dx, dy = _inside(a[0], a[2], edge[0], edge[2]), _inside(a[1], a[3], edge[1], edge[3])
            shifted = (a[0] + dx, a[1] + dy, a[2] + dx, a[3] + dy)
            if not any(_hit(shifted, o) for o in taken):
                taken.append(shifted)
                whole.append((t[0], t[1] + dx, t[2] + dy, *t[3:]))
        labels = [t for t in whole if not any(_hit(area(t), c) for c in away)]
    for text, x, y, size, colour, weight, style in labels:
        body.append(svg.text(x, y, text, size=size, anchor="start", fill=colour,
                             font_weight=None if weight == "normal" else weight,
                             font_style=None if style == "normal" else style, **halo))
    # the monastery
    mon = B.MAP["monastery"]
    mx, my = mon["x"], mon["y"]
    body.append(svg.el("rect", x=mx - 10, y=my - 28, width=30 + 24 * view["greens"], height=44, rx=6,
                       fill="#f7f1e3", stroke="#6b4c2a"))
    mon_text = _("{name}: {n} of {of}").format(name=mon["name"], n=view["monastery"], of=view["greens"])
    if box is None or (box[0] <= mx and mx + svg.text_width(mon_text, 11) <= box[0] + box[2]
                       and box[1] <= my - 24 and my - 10 <= box[1] + box[3]):  # never cut (the mail's text has it)
        body.append(svg.text(mx, my - 13, mon_text, size=11, anchor="start", fill=INK))
    for i in range(view["greens"]):
        filled = i < view["monastery"]
        body.append(svg.el("circle", class_="monastery" + (" full" if filled else ""), cx=mx + 8 + 24 * i,
                           cy=my + 4, r=7,
                           fill=CUBE_FILL["green"] if filled else "#ffffff", stroke="#1e7a43", stroke_width=2))
    body += chips
    return body + overlays  # the links last: over the labels and the fleets, so a click on them counts


def _cube_key(colour: str) -> str:
    c = B.CUBES[colour]
    return _("{colour}: {points} pts, caravela {n}").format(colour=_cube(colour), points=c["points"], n=c["caravela"])


def _who(name: str, you: bool, turn: bool) -> str:
    """A player's name in the strip, with "(you)" and "- to play" where they apply."""
    if you and turn:
        return _("{name} (you) - to play").format(name=name)
    if you:
        return _("{name} (you)").format(name=name)
    return _("{name} - to play").format(name=name) if turn else name


def _strip(view: dict[str, Any], top: int) -> list[str]:
    """Under the map: what each symbol means, and each player's board (caravelas and cargo)."""
    players, seat = view["players"], view["seat"]
    ink = INK
    out = [svg.el("rect", x=0, y=top, width=B.MAP["width"], height=STRIP, fill="#fffdf6")]
    x, y = 14, top + 22
    out.append(svg.text(x, y, _("Legend"), size=13, anchor="start", font_weight="bold", fill=ink))
    y += 22
    out.append(svg.el("circle", cx=x + 8, cy=y - 4, r=9, fill="#f5e6c8", stroke="#6b4c2a", stroke_width=2))
    out.append(svg.text(x + 24, y, _("place (points of its discovery card)"), size=12, anchor="start", fill=ink))
    out.append(svg.el("circle", cx=x + 8, cy=y + 18, r=6, fill="#ffffff", stroke="#6f8a99"))
    out.append(svg.text(x + 24, y + 22, _("sea circle (its code, as in moves: 3s16)"), size=12, anchor="start",
                        fill=ink))
    out.append(svg.el("circle", cx=x + 8, cy=y + 40, r=6, fill="#6aa7e8", stroke=WIND))
    out.append(svg.el("polygon", points=f"{x + 16},{y + 36} {x + 22},{y + 40} {x + 16},{y + 44}", fill=WIND))
    out.append(svg.text(x + 24, y + 44, _("wind route: blue circles skipped with the arrows"), size=12,
                        anchor="start", fill=ink))
    out.append(svg.el("circle", cx=x + 8, cy=y + 62, r=8, fill="none", stroke="#555555", stroke_width=3,
                      stroke_dasharray="4 3"))
    out.append(svg.text(x + 24, y + 66, _("your discovery cards' places") if seat is not None
                        else _("(players see their own discovery targets ringed)"), size=12, anchor="start",
                        fill=ink))
    out += _fleet_chip(x + 8, y + 86, 0 if seat is None else seat, "A" if seat is None else players[seat][:1].upper(),
                       seat is not None, cls="key")
    out.append(svg.text(x + 24, y + 90, _("your fleet (white frame); others: their initial") if seat is not None
                        else _("a fleet: its player's initial"), size=12, anchor="start", fill=ink))
    # cubes: colour, points, which caravela carries it, where it is
    cx0 = 490
    out.append(svg.text(cx0, top + 22, _("Cubes: points, the caravela that carries them"),
                        size=13, anchor="start", font_weight="bold", fill=ink))
    for i, colour in enumerate(B.COLOURS):
        cx = cx0 + (i // 4) * 200
        cy = top + 44 + (i % 4) * 22
        out.append(svg.el("rect", class_="key", x=cx, y=cy - 10, width=11, height=11, fill=CUBE_FILL[colour],
                          stroke="#333333"))
        out.append(svg.text(cx + 16, cy, _cube_key(colour), size=12,
                            anchor="start", fill=ink))
    out.append(svg.text(cx0, top + 44 + 4 * 22, _("At the end: +2 per cube aboard,"),
                        size=12, anchor="start", fill=ink))
    out.append(svg.text(cx0, top + 44 + 5 * 22, _("-2 per unfulfilled discovery card"),
                        size=12, anchor="start", fill=ink))
    # the players' boards
    px = 910
    out.append(svg.text(px, top + 22, _("Players (game ends at {target} points)").format(
        target=view["options"]["target"]), size=13,
                        anchor="start", font_weight="bold", fill=ink))
    for s, name in enumerate(players):
        f = view["fleets"][s]
        yy = top + 44 + 38 * s
        turn = not view["over"] and view["turn"] == s
        col = FLEET_COLOURS[s][1]
        out.append(svg.el("rect", x=px, y=yy - 11, width=12, height=12, fill=col, stroke="#111111"))
        who = _who(name, s == seat, turn)
        out.append(svg.text(px + 18, yy, _("{who}: {score} pts, {found} found, {hand} mov, {disc} disc").format(
                            who=who, score=f["score"], found=len(f["found"]), hand=f["hand"], disc=f["disc"]),
                            size=12, anchor="start", fill=ink,
                            font_weight="bold" if turn else None))
        for n in B.CARAVELAS:
            bx = px + 18 + (n - 1) * 130
            sunk = n in f["sunk"]
            out.append(svg.text(bx, yy + 17, _("caravela {n}").format(n=n), size=11, anchor="start", fill=ink))
            if sunk:
                out.append(svg.text(bx + 96, yy + 17, _("sunk"), size=11, anchor="start", fill="#a61b1b",
                                    font_weight="bold"))
            for j, colour in enumerate(B.CARAVELA_SPOTS[n]):
                loaded = colour in f["cargo"]
                out.append(svg.el("rect", class_="spot" + (" loaded" if loaded else ""), x=bx + 60 + j * 16,
                                  y=yy + 7, width=12, height=12,
                                  fill=CUBE_FILL[colour] if loaded else "#ffffff", stroke=CUBE_FILL[colour]
                                  if colour != "white" else "#777777", stroke_width=2))
    return out


#: The narrow strip's width: what a 390 px phone has inside the page's margins.
NARROW = 358


def _narrow_strip(view: dict[str, Any]) -> tuple[list[str], int]:
    """The strip for a phone, one thing a line: the legend, the cubes, each player's board."""
    players, seat = view["players"], view["seat"]
    ink, size, x = INK, 12, 14
    out: list[str] = []
    y = 24

    def say(text: str, at: float, bold: bool = False, colour: str = ink) -> None:
        nonlocal y
        for k, line in enumerate(svg.wrap(text, size, NARROW - at - 6, bold)):
            if k:
                y += size + 4
            out.append(svg.text(at, y, line, size=size, anchor="start", fill=colour,
                                font_weight="bold" if bold else None))

    def head(text: str) -> None:
        nonlocal y
        out.append(svg.text(x, y, text, size=13, anchor="start", font_weight="bold", fill=ink))
        y += 24

    head(_("Legend"))
    out.append(svg.el("circle", cx=x + 8, cy=y - 4, r=9, fill="#f5e6c8", stroke="#6b4c2a", stroke_width=2))
    say(_("place (points of its discovery card)"), x + 24)
    y += 22
    out.append(svg.el("circle", cx=x + 8, cy=y - 4, r=6, fill="#ffffff", stroke="#6f8a99"))
    say(_("sea circle (its code, as in moves: 3s16)"), x + 24)
    y += 22
    out.append(svg.el("circle", cx=x + 4, cy=y - 4, r=6, fill="#6aa7e8", stroke=WIND))
    out.append(svg.el("polygon", points=f"{x + 12},{y - 8} {x + 18},{y - 4} {x + 12},{y}", fill=WIND))
    say(_("wind route: blue circles skipped with the arrows"), x + 24)
    y += 22
    out.append(svg.el("circle", cx=x + 8, cy=y - 4, r=8, fill="none", stroke="#555555", stroke_width=3,
                      stroke_dasharray="4 3"))
    say(_("your discovery cards' places") if seat is not None else _("(players see their own targets ringed)"), x + 24)
    y += 24
    out += _fleet_chip(x + 8, y - 4, 0 if seat is None else seat, "A" if seat is None else players[seat][:1].upper(),
                       seat is not None, cls="key", big=True)
    say(_("your fleet (white frame); others: their initial") if seat is not None
        else _("a fleet: its player's initial"), x + 24)
    y += 32
    head(_("Cubes: points and caravela"))
    for colour in B.COLOURS:
        out.append(svg.el("rect", class_="key", x=x, y=y - 10, width=11, height=11, fill=CUBE_FILL[colour],
                          stroke="#333333"))
        say(_cube_key(colour), x + 18)
        y += 20
    say(_("At the end: +2 per cube aboard, -2 per unfulfilled discovery card"), x)
    y += 32
    head(_("Players (game ends at {target} points)").format(target=view["options"]["target"]))
    for s, name in enumerate(players):
        f = view["fleets"][s]
        turn = not view["over"] and view["turn"] == s
        out.append(svg.el("rect", x=x, y=y - 11, width=12, height=12, fill=FLEET_COLOURS[s][1], stroke="#111111"))
        who = _who(name, s == seat, turn)
        say(_("{who}: {score} pts").format(who=who, score=f["score"]), x + 18, bold=turn)
        y += 18
        say(_("{found} found, {hand} movement and {disc} discovery cards").format(
            found=len(f["found"]), hand=f["hand"], disc=f["disc"]), x + 18)
        y += 22
        out.append(svg.text(x + 18, y, _("caravelas"), size=size, anchor="start", fill=ink))
        for n in B.CARAVELAS:
            bx = x + 18 + 70 + (n - 1) * 60
            if n in f["sunk"]:
                out.append(svg.text(bx, y, _("{n} sunk").format(n=n), size=size, anchor="start", fill="#a61b1b",
                                    font_weight="bold"))
                continue
            out.append(svg.text(bx, y, str(n), size=size, anchor="start", fill=ink, font_weight="bold"))
            for j, colour in enumerate(B.CARAVELA_SPOTS[n]):
                loaded = colour in f["cargo"]
                out.append(svg.el("rect", class_="spot" + (" loaded" if loaded else ""), x=bx + 12 + j * 16,
                                  y=y - 11, width=12, height=12, fill=CUBE_FILL[colour] if loaded else "#ffffff",
                                  stroke=CUBE_FILL[colour] if colour != "white" else "#777777", stroke_width=2))
        y += 30
    return [svg.el("rect", x=0, y=0, width=NARROW, height=y, fill="#fffdf6"), *out], y
