"""Text and SVG renderings of a Caravelas II view (never of the state: only what the viewer may know)."""

from __future__ import annotations

import math
from itertools import pairwise
from typing import Any

from engine import svg

from . import board as B

#: the four fleets of the box: yellow, red, green, blue (seat order)
FLEET_COLOURS = (("yellow", "#d9a400"), ("red", "#c0392b"), ("green", "#2e8b57"), ("blue", "#2f6fd0"))
CUBE_FILL = {"red": "#c0392b", "black": "#222222", "yellow": "#f1c40f", "brown": "#8b5a2b",
             "white": "#ffffff", "pink": "#f39ac7", "blue": "#2f6fd0", "green": "#27ae60"}
STEP_TEXT = {"move": "sailing", "sink": "choosing a caravela to sink", "keep": "choosing discovery cards to keep",
             "cards": "keeping or returning movement cards"}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


# ---- text ------------------------------------------------------------------------------------------

def render_text(view: dict[str, Any]) -> str:
    players = view["players"]
    n = len(players)
    seat = view["seat"]
    lines = [f"Caravelas II - turn {view['turns'] + 1}, first player {players[view['first']]}, "
             f"game ends at {view['options']['target']} points"]
    if view["over"]:
        out = view["outcome"]
        lines.append("GAME OVER (" + ("a player reached the target" if out["reason"] == "points"
                                      else "the Jeronimos Monastery is full") + ").")
        ranking = []
        for place, group in enumerate(out["ranking"], 1):
            ranking.append(f"{place}. " + " = ".join(f"{players[s]} {view['final'][s]}" for s in group))
        lines.append("Final ranking: " + "; ".join(ranking))
        lines.append("(final = points + 2 per cube still aboard - 2 per unfulfilled discovery card; "
                     "ties: most discoveries, then most green discoveries)")
    else:
        if view["ending"]:
            lines.append("The end is triggered: the game ends when this round is complete.")
        lines.append(f"It is {players[view['turn']]}'s turn ({STEP_TEXT.get(view['step'], view['step'])}).")
        if view["used"]:
            lines.append("Movement cards played this turn: " + ", ".join(map(str, view["used"])))
    lines.append("")
    lines.append("Fleets:")
    for s in range(n):
        f = view["fleets"][s]
        colour = FLEET_COLOURS[s][0]
        cargo = ", ".join(f"{c} ({B.CUBES[c]['points']})" for c in f["cargo"]) or "empty"
        sunk = ", ".join(map(str, f["sunk"])) or "none"
        found = ", ".join(B.name(c) for c in f["found"]) or "none"
        mark = " <- you" if s == seat else ""
        lines.append(f"  {players[s]} ({colour}){mark}: {f['score']} points, at {B.name(f['at'])}")
        lines.append(f"      cargo: {cargo}; sunk caravelas: {sunk}")
        lines.append(f"      discovered: {found}; holds {_plural(f['hand'], 'movement card')} and "
                     f"{_plural(f['disc'], 'discovery card')}")
    lines.append("")
    cubes = ", ".join(f"{c} {view['cubes'][c]} at {B.name(B.CUBES[c]['place'])}" for c in B.COLOURS)
    lines.append(f"Cubes left: {cubes}")
    lines.append(f"Jeronimos Monastery: {view['monastery']} of {view['greens']} green cubes delivered")
    lines.append(f"Movement deck: {view['mdeck']} cards, discard pile {view['mdisc']}. "
                 f"Discovery pile: {view['dpile']} cards.")
    me = view.get("me")
    if me is not None:
        at = view["fleets"][seat]["at"]
        dist = B.DIST[at]
        lines.append("")
        lines.append("Your movement cards: " + (", ".join(map(str, me["hand"])) or "none"))
        if me["disc"]:
            lines.append("Your discovery cards:")
            for c in me["disc"]:
                d = B.DISCOVERIES[c]
                lines.append(f"  {B.name(c)} ({d['colour']}, {_plural(d['points'], 'point')}), "
                             f"{_plural(dist.get(c, 0), 'step')} from your fleet at best")
        else:
            lines.append("Your discovery cards: none")
        if me.get("drawn"):
            lines.append("You drew: " + ", ".join(f"{B.name(c)} ({B.DISCOVERIES[c]['points']})"
                                                   for c in me["drawn"]))
        if me["bottom"]:
            lines.append("Cards you returned, still at the bottom of the discovery pile: "
                         + ", ".join(f"{B.name(c)} (card {pos + 1} of {view['dpile']} from the top)"
                                     for c, pos in me["bottom"]))
    return "\n".join(lines)


# ---- SVG -------------------------------------------------------------------------------------------

def _xy(nid: str) -> tuple[float, float]:
    node = B.NODES[nid]
    return float(node["x"]), float(node["y"])


def _polyline(ids: list[str], stroke: str, width: int, dash: str | None = None, cls: str | None = None) -> str:
    pts = " ".join(f"{x:g},{y:g}" for x, y in map(_xy, ids))
    return svg.el("polyline", class_=cls, points=pts, fill="none", stroke=stroke, stroke_width=width,
                  stroke_dasharray=dash)


def _arrowhead(a: str, b: str, colour: str) -> str:
    (x1, y1), (x2, y2) = _xy(a), _xy(b)
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    ang = math.atan2(y2 - y1, x2 - x1)
    size = 7
    pts = []
    for da, r in ((0, size), (2.5, size), (-2.5, size)):
        pts.append(f"{mx + r * math.cos(ang + da):.1f},{my + r * math.sin(ang + da):.1f}")
    return svg.el("polygon", points=" ".join(pts), fill=colour)


def render_svg(view: dict[str, Any]) -> str:
    width, height = B.MAP["width"], B.MAP["height"]
    players = view["players"]
    seat = view["seat"]
    body: list[str] = [svg.el("rect", x=0, y=0, width=width, height=height, fill="#dcecf5")]
    # lines and arrow routes
    for line in B.MAP["lines"]:
        body.append(_polyline(line, "#ffffff", 4, None, "route"))
        body.append(_polyline(line, "#7d98a8", 1))
    for route in B.MAP["arrows"]:
        path = route["path"]
        body.append(_polyline(path, "#2f6fd0", 3, "8 4", "arrows"))
        for a, b in pairwise(path):
            body.append(_arrowhead(a, b, "#1b4f9c"))
        x, y = _xy(path[len(path) // 2])
        body.append(svg.text(x, y - 12, route["name"], size=11, fill="#1b4f9c", font_style="italic"))
    # circles
    targets = set(view.get("me", {}).get("disc", [])) if seat is not None else set()
    for node in B.MAP["nodes"]:
        x, y, kind, nid = node["x"], node["y"], node["kind"], node["id"]
        if kind == "white":
            body.append(svg.el("circle", cx=x, cy=y, r=6, fill="#ffffff", stroke="#7d98a8"))
            body.append(svg.text(x, y + 16, nid, size=8, fill="#55707f"))
            continue
        if kind == "blue":
            body.append(svg.el("circle", cx=x, cy=y, r=6, fill="#6aa7e8", stroke="#1b4f9c"))
            body.append(svg.text(x, y + 16, nid, size=8, fill="#1b4f9c"))
            continue
        r = 14 if kind in ("lisbon", "calecute", "cape") else 11
        fill = {"lisbon": "#fff3c4", "calecute": "#fff3c4", "cape": "#f2c6c0"}.get(kind, "#f5e6c8")
        if nid in targets:
            body.append(svg.el("circle", class_="target", cx=x, cy=y, r=r + 7, fill="none",
                               stroke=FLEET_COLOURS[seat][1], stroke_width=3, stroke_dasharray="4 3"))
        body.append(svg.el("circle", cx=x, cy=y, r=r, fill=fill, stroke="#6b4c2a", stroke_width=2))
        body.append(svg.el("path", d=f"M{x - 4},{y}H{x + 4}M{x},{y - 5}V{y + 5}", stroke="#6b4c2a",
                           stroke_width=2))
        label = node["name"] + (f" ({B.DISCOVERIES[nid]['points']})" if nid in B.DISCOVERIES else "")
        where = node.get("label", "above")
        colour = B.CUBE_AT.get(nid)
        if where == "below":
            body.append(svg.text(x, y + r + 14, label, size=11, fill="#3b2a14", font_weight="bold"))
        elif where == "left":
            body.append(svg.text(x - r - 4, y + 4, label, size=11, anchor="end", fill="#3b2a14", font_weight="bold"))
        elif where == "right":
            dx = r + 4 + (30 if colour else 0)
            body.append(svg.text(x + dx, y + 4, label, size=11, anchor="start", fill="#3b2a14", font_weight="bold"))
        else:
            body.append(svg.text(x, y - r - 5, label, size=11, fill="#3b2a14", font_weight="bold"))
        if colour:
            left = view["cubes"][colour]
            for i in range(left):
                body.append(svg.el("rect", class_=f"cube {colour}", x=x + r + 3 + (i % 3) * 9, y=y - 8 + (i // 3) * 9,
                                   width=7, height=7, fill=CUBE_FILL[colour], stroke="#333"))
            if not left:
                body.append(svg.text(x + r + 12, y + 4, "0", size=9, fill="#333"))
    # the monastery
    mon = B.MAP["monastery"]
    mx, my = mon["x"], mon["y"]
    body.append(svg.el("rect", x=mx - 10, y=my - 28, width=30 + 24 * view["greens"], height=44, rx=6,
                       fill="#f7f1e3", stroke="#6b4c2a"))
    body.append(svg.text(mx, my - 14, mon["name"], size=11, anchor="start", fill="#3b2a14"))
    for i in range(view["greens"]):
        filled = i < view["monastery"]
        body.append(svg.el("circle", class_="monastery" + (" full" if filled else ""), cx=mx + 8 + 24 * i,
                           cy=my + 2, r=8,
                           fill=CUBE_FILL["green"] if filled else "#ffffff", stroke="#27ae60", stroke_width=2))
    # fleets, fanned out around their circle
    by_place: dict[str, list[int]] = {}
    for s, f in enumerate(view["fleets"]):
        by_place.setdefault(f["at"], []).append(s)
    for nid, seats in by_place.items():
        x, y = _xy(nid)
        for i, s in enumerate(seats):
            ang = -math.pi / 2 + 2 * math.pi * i / max(len(seats), 1) + math.pi / 4
            fx, fy = (x + 15 * math.cos(ang), y + 15 * math.sin(ang)) if len(seats) > 1 else (x + 12, y + 12)
            col = FLEET_COLOURS[s][1]
            body.append(svg.el("rect", class_=f"fleet seat{s}", x=round(fx - 7, 1), y=round(fy - 9, 1), width=14,
                               height=18, rx=6,
                               fill=col, stroke="#111", stroke_width=2 if s == seat else 1))
            body.append(svg.text(fx, fy + 4, players[s][:1].upper(), size=10, fill="#fff", font_weight="bold"))
    # score panel
    px, py = 1130, 700
    body.append(svg.el("rect", x=px - 10, y=py - 20, width=320, height=24 + 34 * len(players), rx=6,
                       fill="#fffdf6", stroke="#6b4c2a"))
    body.append(svg.text(px, py - 4, f"Caravelas II - target {view['options']['target']}", size=12,
                         anchor="start", font_weight="bold"))
    for s, name in enumerate(players):
        f = view["fleets"][s]
        yy = py + 18 + 34 * s
        turn = not view["over"] and view["turn"] == s
        body.append(svg.el("rect", x=px, y=yy - 10, width=12, height=12, fill=FLEET_COLOURS[s][1]))
        body.append(svg.text(px + 18, yy, f"{name}{' (to play)' if turn else ''}: {f['score']} pts, "
                             f"{len(f['found'])} found", size=11, anchor="start",
                             font_weight="bold" if turn else "normal"))
        # the player board: 4 caravelas x 2 spots
        for c in B.CARAVELAS:
            for j, colour in enumerate(B.CARAVELA_SPOTS[c]):
                cx = px + 18 + (c - 1) * 40 + j * 14
                loaded = colour in f["cargo"]
                body.append(svg.el("rect", x=cx, y=yy + 5, width=11, height=11,
                                   fill=CUBE_FILL[colour] if loaded else "#eeeeee",
                                   stroke=CUBE_FILL[colour] if not loaded else "#333"))
            if c in f["sunk"]:
                body.append(svg.el("circle", cx=px + 18 + (c - 1) * 40 + 12, cy=yy + 10, r=6, fill="#111"))
        body.append(svg.text(px + 190, yy + 15, f"{f['hand']} mov, {f['disc']} disc", size=10, anchor="start"))
    title = f"Caravelas II - {', '.join(players)}"
    return svg.document(width, height, body, title=title)
