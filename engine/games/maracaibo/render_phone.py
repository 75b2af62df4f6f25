"""Maracaibo's phone and mail pictures (split from render.py, which draws the whole board): the
mail's small map around the reader's ship, and the phone's column of pictures, both from a view only.
"""

from __future__ import annotations

import textwrap
from html import escape

from engine import svg as kit
from engine.core import View

from . import content as C
from . import coop, reach, render_story
from .places import MAP_H, POS
from .render import area_words, ship_areas
from .render_base import JEAN_COLOUR, NATION_COLOUR, _colour, _name, _stops, _t, _text, nations_score, say
from .render_map import _svg_map, ship_offset

#: What a 390 px phone has for the board inside the page's margins.
NARROW = 358
_PAD = 8
_SIZE = 12


#: A mail's map: its smallest text in map units (so map units per px: MAIL_TEXT / this), and the
#: part of the map it shows, in map units.
MAIL_LEAST = 7.5
MAIL_SCALE = kit.MAIL_TEXT / MAIL_LEAST
MAIL_BOX = (int(kit.MAIL_WIDTH / MAIL_SCALE), 190)
MAIL_LEGEND = ("Framed boat: your ship; boats: ships; circle: village; square: city, its market "
               "below; flag: owner (F, E, S); yellow tag: quest; dots: assistants.")
#: The legend's words for a legacy stop tile's tag, in a game that has one.
MAIL_LEGEND_STOPS = " Purple tag (+1 CP, -2 d): what ending a sail there gives or costs (a legacy stop tile)."


def mail_svg(view: View) -> str:
    """The small picture a mail carries (issue 10): the map around the reader's ship, 358 px
    wide and no text under 11 px, with a caption, and its legend as its ``<desc>`` (the mail prints
    it as text); the whole board is on the page.

    Why a part: the whole map's labels are 7.5 map units; at a phone's 358 px the whole 640-unit
    map would show them at 4 px. Drawn so that they are 11 px, a phone's width holds 244 units
    of the map, the few places around the ship, which is what a reader decides on."""
    seat = view.get("seat")
    at = view["p"][seat]["at"] if seat is not None else "H"
    cx, cy = POS.get(at, (320, 176))
    # the ships' row at that place is drawn where ship_offset puts it (the same count as _svg_map)
    n = sum(1 for p in view["p"] if p["at"] == at) + (1 if view.get("jean") and view["jean"]["at"] == at else 0)
    row = cy + ship_offset(at, n, view, MAIL_LEAST)[1] + 2 if at in POS else cy - 28
    # Why an overview too: every place the ship can reach is in the picture (issue 21); when the
    # part around the ship (at the scale that keeps its names 11 px) misses some, the whole sea
    # follows it, small, with the places in reach ringed and numbered.
    targets = reach.sail_reach(view)
    # the part leans towards where the ship can sail, the ship kept well inside it
    mx = (cx + sum(POS[t][0] for t in targets if t in POS)) / (1 + sum(1 for t in targets if t in POS))
    mx = min(max(mx, cx - MAIL_BOX[0] / 2 + reach.SIDE), cx + MAIL_BOX[0] / 2 - reach.SIDE)
    x0, y0, w, h = kit.around(mx, row, *MAIL_BOX, 640, MAP_H - 18)  # below the map's title line
    box = (x0, y0 + 18, w, h)
    missed = [t for t in targets if t in POS and not (box[0] + reach.SIDE <= POS[t][0] <= box[0] + box[2] - reach.SIDE
                                                       and box[1] <= POS[t][1] <= box[1] + box[3] - reach.BELOW)]
    the_map = (f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{MAP_H}" font-family="sans-serif">'
               + "".join(_svg_map(view, least=MAIL_LEAST, legend=False, rings=targets, box=box)) + "</svg>")
    name = str(C.LOC[at]["name"]).split(": ", 1)[-1] if at in C.LOC else at
    room = kit.MAIL_WIDTH - 2 * _PAD
    out: list[str] = []
    y = 2.0
    head = (f"Near your ship (framed), at {name} ({at})" + ("; ringed: where it can sail" if targets else "")
            if seat is not None else "The map around Havana")
    for line in _wrap_px(say(head), 12, room, bold=True):
        y += 16
        out.append(_text(_PAD, y, line, 12, "start", "#111", "bold"))
    part, height = kit.window(the_map, box, kit.MAIL_WIDTH, top=y + 6)
    out.append(part)
    focus = (y + 6, y + 6 + (row - box[1]) * kit.MAIL_WIDTH / box[2])  # the caption, the ships' row
    y += 6 + height
    end = y if missed else None  # (the map's part ends here; the whole sea's caption and overview follow)
    if missed:
        y += 2
        for line in _wrap_px(say("The whole sea: ringed, where your ship can sail"), 12, room, bold=True):
            y += 16
            out.append(_text(_PAD, y, line, 12, "start", "#111", "bold"))
        drawn, tall = reach.overview(view, targets, POS, width=kit.MAIL_WIDTH, top=y + 6,
                                     sea=(640.0, 18.0, float(MAP_H)))
        out += drawn
        y += 6 + tall
    h = int(y)
    # the legend is the picture's description: the mail prints it as text under the picture
    legend = say(MAIL_LEGEND) + (" " + say(MAIL_LEGEND_STOPS.strip()) if _stops(view) else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{kit.MAIL_WIDTH}" height="{h}" '
            f'viewBox="0 0 {kit.MAIL_WIDTH} {h}"{kit.focus_attr(focus, end)} font-family="sans-serif">'
            f'<title>{escape(say("Maracaibo (substitute content): the map near your ship"))}</title>'
            f'<desc>{escape(legend)}</desc>'
            f'<rect width="{kit.MAIL_WIDTH}" height="{h}" fill="#ffffff"/>' + "".join(out) + "</svg>")


def phone_svgs(view: View) -> list[str]:
    """For a phone: the map (the page pans it, its labels stay readable), then everything else
    drawn narrow (358 px wide, one thing a line, text 12 px or more), which fits the screen."""
    title = [_t(6, 13, "The map (substitute content)", 10, weight="bold")]
    the_map = (f'<svg xmlns="http://www.w3.org/2000/svg" width="640" height="{MAP_H}" viewBox="0 0 640 {MAP_H}" '
               f'font-family="sans-serif"><title>{escape(say("Maracaibo (substitute content): the map"))}</title>'
               f'<rect width="640" height="{MAP_H}" fill="#ffffff"/>' + "".join(title + _svg_map(view)) + "</svg>")
    body, h = _narrow(view)
    rest = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{NARROW}" height="{h}" viewBox="0 0 {NARROW} {h}" '
            f'font-family="sans-serif">'
            f'<title>{escape(say("Maracaibo (substitute content): tracks, players, cards"))}</title>'
            f'<rect width="{NARROW}" height="{h}" fill="#ffffff"/>' + "".join(body) + "</svg>")
    return [the_map, rest]


def _wrap_px(text: str, size: float, room: float, bold: bool = False) -> list[str]:
    """Lines no wider than ``room`` px (a generous 0.62 em a glyph, 0.68 bold)."""
    per = max(8, int(room / (size * (0.68 if bold else 0.62))))
    return textwrap.wrap(text, per, break_on_hyphens=False) or [""]


class _Column:
    """A narrow column of text lines and boxes, top to bottom."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.y = 0.0

    def say(self, text: str, x: float = _PAD, size: float = _SIZE, fill: str = "#111", bold: bool = False,
            room: float | None = None, gap: float = 4, said: bool = False) -> None:
        for line in _wrap_px(text if said else say(text), size, room if room is not None else NARROW - x - _PAD, bold):
            self.y += size + gap  # (said before it is cut in lines)
            self.out.append(_text(x, self.y, line, size, "start", fill, "bold" if bold else "normal"))

    def head(self, text: str) -> None:
        self.y += 10
        self.say(text, size=13, bold=True)
        self.y += 4


def _narrow(view: View) -> tuple[list[str], int]:
    col = _Column()
    col.say(f"Maracaibo - round {view['round']} of {view['rounds']}", size=14, bold=True)
    col.say("SUBSTITUTE CONTENT: not the published game's map or cards")
    # the explorer track: two rows of 12 spaces, the explorers as dots above their space
    col.head("Explorer track")
    pawns = [(p["explorer"], _colour(view, i)) for i, p in enumerate(view["p"])]
    if view.get("jean"):
        pawns.append((view["jean"]["explorer"], JEAN_COLOUR))
    if view.get("jacques"):
        pawns.append((view["jacques"]["explorer"], JEAN_COLOUR))
    per_row = 12
    cw = (NARROW - 2 * _PAD) / per_row
    for row in range((C.END_SPACE + per_row) // per_row):
        top = col.y + 12
        for s in range(row * per_row, min((row + 1) * per_row, C.END_SPACE + 1)):
            x = _PAD + (s - row * per_row) * cw
            fill = {"red": "#ffc9c9", "blue": "#a5d8ff", "green": "#b2f2bb"}.get(C.BARRIERS.get(s, ""), "#f1f3f5")
            if s == C.END_SPACE:
                fill = "#ffe066"
            col.out.append(f'<rect x="{x:.1f}" y="{top:.0f}" width="{cw - 1:.1f}" height="20" fill="{fill}" '
                           'stroke="#adb5bd" stroke-width="0.5"/>')
            col.out.append(_t(x + cw / 2, top + 15, str(s), _SIZE, "middle", "#343a40"))
            if str(s) in view["tquests"]:
                col.out.append(_t(x + cw / 2, top + 35, "Q", _SIZE, "middle", "#7a5c00", "bold"))
            here = [c for p, c in pawns if p == s]
            for k, colour in enumerate(here):
                col.out.append(f'<circle cx="{x + 4 + 5 * k:.1f}" cy="{top - 5:.0f}" r="3.5" fill="{colour}" '
                               'stroke="#222" stroke-width="0.5"/>')
        col.y = top + 38
    spots = ", ".join(f"{c} at {s}" for s, c in sorted(C.BARRIERS.items()))
    col.say(f"Barriers: {spots}. Q: a quest on that space.")
    names = [str(n) for n in view["players"]]
    where = [f"{names[i]} {p['explorer']}" for i, p in enumerate(view["p"])]
    if view.get("jean"):
        where.append(f"{view['jean']['name']} {view['jean']['explorer']}")
    col.say("Explorers: " + ", ".join(where))
    # influence, as numbers: a track of 16 would not be readable this narrow
    col.head("Influence (rank at 3, 6, 9, 12, 15)")
    scores = nations_score(view)
    for nation in C.NATIONS:
        marks = [f"{names[i]} {p['inf'][nation]}" for i, p in enumerate(view["p"])]
        if view.get("jean"):
            marks.append(f"{view['jean']['name']} {view['jean']['inf'][nation]}")
        name = f"{nation.title()} x{view['multiplier'][nation]}" if scores else nation.title()  # (79: none scores)
        col.say(f"{name}: " + ", ".join(marks),
                fill=kit.readable(NATION_COLOUR[nation]), bold=False)
    # the players
    col.head("Players")
    for i, p in enumerate(view["p"]):
        you = " (you)" if view.get("seat") == i else ""
        col.y += 4
        col.out.append(f'<rect x="{_PAD}" y="{col.y + 5:.0f}" width="10" height="10" fill="{_colour(view, i)}"/>')
        col.say(f"{names[i]}{you}: {p['vp']} VP, {C.counted(p['d'], 'doubloon')}", x=_PAD + 16, bold=True)
        col.say(f"income {p['inc_d']} d and {p['inc_vp']} VP a scoring; {_n(p['cp'], 'combat point')}, "
                f"{_n(p['fig'], 'figure')}; at {_name(p['at'])}", x=_PAD + 16)
    if view.get("jean"):
        jean = view["jean"]
        col.y += 4
        col.out.append(f'<rect x="{_PAD}" y="{col.y + 5:.0f}" width="10" height="10" fill="{JEAN_COLOUR}"/>')
        col.say(f"{jean['name']} (automa): {jean['vp']} VP; at {_name(jean['at'])}", x=_PAD + 16, bold=True)
    if view.get("jacques"):
        jq = view["jacques"]
        col.y += 4
        col.out.append(f'<rect x="{_PAD}" y="{col.y + 5:.0f}" width="10" height="10" fill="{JEAN_COLOUR}"/>')
        col.say(f"{jq['name']} (automa): {jq['vp']} VP; explorer {jq['explorer']}; quests {jq['quests']}",
                x=_PAD + 16, bold=True)
        goal = coop.goal_lines(view)
        if goal:  # a cooperative scenario: what the table must reach, where it stands now
            col.head("The table's goal (checked at the end)")
            for line in goal:
                col.say(line)
    if view.get("story"):  # a campaign's story (render_story.py)
        col.head(render_story.title(view["story"]))
        col.say(render_story.tiles_line(view))
        for line, _ in render_story.items(view):
            col.say(line)
    seat = view.get("seat")
    if seat is not None:
        p = view["p"][seat]
        col.head("Ship board (dots: discs; green: done)")
        w = NARROW - 2 * _PAD
        for uid, text in ship_areas(p):  # (the Uprising's board: its words and slots)
            done = uid in p["areas"]
            words = area_words(uid, text)
            lines = _wrap_px(words, _SIZE, w - 80)  # (said before it is cut in lines)
            top = col.y + 3
            col.out.append(f'<rect x="{_PAD}" y="{top:.0f}" width="{w}" height="{8 + 16 * len(lines)}" rx="3" '
                           f'fill="{"#b2f2bb" if done else "#f8f9fa"}" stroke="#868e96" stroke-width="0.6"/>')
            col.out.append(_t(_PAD + 4, top + 17, uid, _SIZE, weight="bold"))
            for d in range(p["discs"].get(uid, 0)):
                col.out.append(f'<circle cx="{_PAD + 40 + 9 * d:.0f}" cy="{top + 13:.0f}" r="3.5" fill="#495057"/>')
            for k2, line in enumerate(lines):
                col.out.append(_text(_PAD + 74, top + 17 + 16 * k2, line, _SIZE, "start", "#111", "normal"))
            col.y = top + 8 + 16 * len(lines) + 1
    col.head("Display (draw for 1 doubloon)")
    for i, cid in enumerate(view["display"][:4]):
        _narrow_card(col, cid, f"{i + 1}. ")
    if seat is not None:
        p = view["p"][seat]
        mine = [(c, "") for c in p["display"]] + [(c, "planned: ") for c in p["plan"]]
        col.head("Your cards in play" + ("" if mine else ": none"))
        for cid, head in mine:
            _narrow_card(col, cid, head)
    return col.out, int(col.y + 12)


def _n(k: int, word: str) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def _narrow_card(col: _Column, cid: int, head: str) -> None:
    c = C.CARD[cid]
    effects = say("; ".join(C.effect_text(e) for e in c["effects"]) or "no effect")
    lines = _wrap_px(effects, _SIZE, NARROW - 2 * _PAD - 12)[:3]  # (said before it is cut in lines)
    top = col.y + 4
    col.out.append(f'<rect x="{_PAD}" y="{top:.0f}" width="{NARROW - 2 * _PAD}" height="{40 + 16 * len(lines)}" '
                   'rx="3" fill="#fff9db" stroke="#a07c00" stroke-width="0.6"/>')
    col.y = top
    said = f"{head if head[:1].isdigit() or not head else say(head.rstrip(': ')) + ': '}{say(str(c['name']))}"
    col.say(said, x=_PAD + 6, bold=True, room=NARROW - 2 * _PAD - 12, said=True)
    col.say(f"{c['good']} / {c['object']} - {c['cost']} d - {c['vp']} VP", x=_PAD + 6, room=NARROW - 2 * _PAD - 12)
    for line in lines:
        col.y += 16
        col.out.append(_text(_PAD + 6, col.y, line, _SIZE, "start", "#111", "normal"))
    col.y = top + 40 + 16 * len(lines) + 2
