"""Maracaibo's board picture for the page (``svg``, 640 px wide), made from a view only (so nothing
hidden can leak): the map (render_map.py), the explorer track with the Uprising's ruin, the influence
tracks, the players' VP, doubloons and income, a campaign's story band (render_story.py), the reader's
ship board, and the display with the reader's cards in play. It says SUBSTITUTE CONTENT: the cards,
map and tiles are this project's, not the published game's.

The board in words is render_text.py; what both share is render_base.py (its docstring lists the
renderer's modules in the order they are read).
"""

from __future__ import annotations

import textwrap
from html import escape
from typing import Any

from engine import svg as kit
from engine.core import View

from . import content as C
from . import homeports, render_story
from . import uprising_content as C_U
from .places import MAP_H
from .render_base import JEAN_COLOUR, NATION_COLOUR, _colour, _t, _text, nations_score, say
from .render_map import _svg_map

#: a quest's "Q" as text (4.5:1 on the tracks' light fills; the gold of the quest boxes is a stroke)
_INK_Q = "#6b5000"


def svg(view: View) -> str:
    w = 640
    body: list[str] = []
    body.append(_t(6, 13, f"Maracaibo - round {view['round']} of {view['rounds']} - SUBSTITUTE CONTENT "
                          "(not the published game's map or cards)", 10, weight="bold"))
    body += _svg_map(view)
    y = MAP_H + 8
    parts, y = _svg_explorer(view, y)
    body += parts
    parts, y = _svg_influence(view, y)
    body += parts
    parts, y = _svg_players(view, y)
    body += parts
    parts, y = render_story.svg_band(view, y, _colour)  # a campaign's story (render_story.py)
    body += parts
    seat = view.get("seat")
    if seat is not None:
        parts, y = _svg_ship(view, seat, y)
        body += parts
    parts, y = _svg_display(view, y)
    body += parts
    h = y + 6
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
            f'font-family="sans-serif"><title>{escape(say("Maracaibo (substitute content)"))}</title>'
            f'<rect width="{w}" height="{h}" fill="#ffffff"/>'
            + "".join(body) + "</svg>")


def _svg_explorer(view: View, y: int) -> tuple[list[str], int]:
    out = [_t(6, y + 8, "Explorer track", 9, weight="bold")]
    n = C.END_SPACE + 1
    cw = (640 - 100) / n
    x0 = 94
    for s in range(n):
        x = x0 + s * cw
        fill = {"red": "#ffc9c9", "blue": "#a5d8ff", "green": "#b2f2bb"}.get(C.BARRIERS.get(s, ""), "#f1f3f5")
        if s == C.END_SPACE:
            fill = "#ffe066"
        out.append(f'<rect x="{x:.1f}" y="{y}" width="{cw - 1:.1f}" height="14" fill="{fill}" stroke="#adb5bd" '
                   'stroke-width="0.5"/>')
        out.append(_t(x + cw / 2, y + 10, str(s), 6.5, "middle", "#343a40"))
        if str(s) in view["tquests"]:
            out.append(_t(x + cw / 2, y + 22, "Q", 7, "middle", _INK_Q, "bold"))
    pawns = [(p["explorer"], _colour(view, i)) for i, p in enumerate(view["p"])]
    if view.get("jean"):
        pawns.append((view["jean"]["explorer"], JEAN_COLOUR))
    if view.get("jacques"):
        pawns.append((view["jacques"]["explorer"], JEAN_COLOUR))
    for k, (s, colour) in enumerate(pawns):
        x = x0 + s * cw + 3 + 3 * k
        out.append(f'<circle cx="{x:.1f}" cy="{y - 3}" r="2.8" fill="{colour}" stroke="#222" stroke-width="0.4"/>')
    for i, p in enumerate(view["p"]):  # the Uprising's Roatán: the home port's figure, a ring of the colour
        if "explorer2" in p:
            x = x0 + int(p["explorer2"]) * cw + cw - 4 - 3 * i
            out.append(f'<circle cx="{x:.1f}" cy="{y - 3}" r="2.6" fill="#fff" stroke="{_colour(view, i)}" '
                       'stroke-width="1.4"/>')
    board = view.get("legacy_board") or {}
    if "L32" not in board:
        return out, y + 28
    return _svg_ruin(view, board, x0, cw, y, out)


def _svg_ruin(view: View, board: dict[str, Any], x0: float, cw: float, y: int,
              out: list[str]) -> tuple[list[str], int]:
    """The Uprising's ruin (L31, after its explorer space) and its track (L32) with the figures on it."""
    after = int(C_U.LEGACY["L31"]["after_space"])
    rx = x0 + (after + 1) * cw - 1
    out.append(f'<rect x="{rx - 2:.1f}" y="{y - 2}" width="4" height="18" fill="#868e96"><title>the ruin (L31): '
               f'passing it puts a figure on the ruin track</title></rect>')
    yy = y + 32
    out.append(_t(6, yy + 10, "Ruin track", 8, weight="bold"))
    spaces = C_U.LEGACY["L32"]["spaces"]
    labels = ["start", *(C.gain_text(sp["gain"]) if "gain" in sp else "pay " + "/".join(sp["pay"]["objects"])
                         for sp in spaces), "end " + "/".join(map(str, C_U.LEGACY["L32"]["end_vp"])) + " VP"]
    w = (640 - 100) / len(labels)
    for k, text in enumerate(labels):
        out.append(f'<rect x="{x0 + k * w:.1f}" y="{yy}" width="{w - 1:.1f}" height="14" fill="#e9ecef" '
                   'stroke="#adb5bd" stroke-width="0.5"/>')
        out.append(_t(x0 + k * w + w / 2, yy + 10, f"{k} {text}" if 0 < k < len(labels) - 1 else text, 6.5,
                      "middle", "#343a40"))
    for j, (seat, at) in enumerate(sorted(board["L32"].items())):
        x = x0 + int(at) * w + 5 + 5 * j
        out.append(f'<circle cx="{x:.1f}" cy="{yy - 3}" r="2.8" fill="{_colour(view, int(seat))}" stroke="#222" '
                   'stroke-width="0.4"/>')
    return out, yy + 24


def _svg_influence(view: View, y: int) -> tuple[list[str], int]:
    # scenario 79 scores no nation at the end: no multiplier is shown (QA of #20: "France x2" misled, as in the mail)
    scores = nations_score(view)
    out = [_t(6, y + 8, "Influence" if scores else "Influence (no nation scores at the end of this scenario)", 9,
              weight="bold")]
    if not scores:  # the long title on a line of its own: beside the tracks it ran over their numbers and France
        y += 16
    cw = (640 - 100) / (C.INFLUENCE_MAX + 1)
    x0 = 94
    for r, nation in enumerate(C.NATIONS):
        yy = y + 4 + r * 15
        name = f"{nation.title()} x{view['multiplier'][nation]}" if scores else nation.title()
        out.append(_t(x0 - 4, yy + 10, name, 8, "end",
                      kit.readable(NATION_COLOUR[nation]), "bold"))
        for v in range(C.INFLUENCE_MAX + 1):
            x = x0 + v * cw
            fill = "#ffe8cc" if v in C.RANK_AT else "#f8f9fa"
            out.append(f'<rect x="{x:.1f}" y="{yy}" width="{cw - 1:.1f}" height="12" fill="{fill}" stroke="#ced4da" '
                       'stroke-width="0.5"/>')
            if r == 0:
                out.append(_t(x + cw / 2, y + 1, str(v), 6, "middle", "#5c636a"))
        marks = [(p["inf"][nation], _colour(view, i)) for i, p in enumerate(view["p"])]
        if view.get("jean"):
            marks.append((view["jean"]["inf"][nation], JEAN_COLOUR))
        for k, (v, colour) in enumerate(marks):
            x = x0 + min(v, C.INFLUENCE_MAX) * cw + 3 + 4 * (k % 4)
            out.append(f'<circle cx="{x:.1f}" cy="{yy + 6}" r="2.6" fill="{colour}" stroke="#222" stroke-width="0.4"/>')
    return out, y + 4 + 3 * 15 + 4


def _svg_players(view: View, y: int) -> tuple[list[str], int]:
    out = [_t(6, y + 9, "Players: VP, doubloons, income (d / VP a scoring), combat points, figures", 9,
              weight="bold")]
    y += 14
    vmax = max([p["vp"] for p in view["p"]] + [view["jean"]["vp"] if view.get("jean") else 0]
               + [view["jacques"]["vp"] if view.get("jacques") else 0] + [40])
    rows = [(str(view["players"][i]), p["vp"], p, _colour(view, i)) for i, p in enumerate(view["p"])]
    if view.get("jean"):
        rows.append((str(view["jean"]["name"]), view["jean"]["vp"], None, JEAN_COLOUR))
    if view.get("jacques"):
        rows.append((str(view["jacques"]["name"]), view["jacques"]["vp"], None, JEAN_COLOUR))
    for name, vp, p, colour in rows:
        you = " (you)" if p is not None and view["p"].index(p) == view.get("seat") else ""
        said = name + (f" ({say('you')})" if you else "")  # (a player's name is no word to say again)
        out.append(_text(6, y + 9, said, 8.5, "start", kit.readable(colour), "bold"))
        bar = 180 * vp / vmax
        out.append(f'<rect x="94" y="{y + 2}" width="{max(bar, 1):.1f}" height="8" fill="{colour}"/>')
        out.append(_t(98 + bar, y + 9, f"{vp} VP", 8))
        if p is not None:
            inc = 120 * (p["inc_d"] - C.INCOME_D_MIN) / (C.INCOME_D_MAX - C.INCOME_D_MIN)
            out.append(f'<rect x="330" y="{y + 2}" width="120" height="8" fill="#f1f3f5" stroke="#ced4da" '
                       'stroke-width="0.5"/>')
            out.append(f'<rect x="330" y="{y + 2}" width="{max(inc, 1):.1f}" height="8" fill="#ffd43b"/>')
            out.append(_t(454, y + 9, f"{p['d']} d; income {p['inc_d']} d / {p['inc_vp']} VP; "
                                      f"{p['cp']} cp, {p['fig']} fig", 7.5))
        y += 13
    return out, y + 4


def ship_areas(p: dict[str, Any]) -> list[tuple[str, str]]:
    """A player's ship areas in the board's order, each with its words as that board says them: the
    base game's twelve; on the Uprising's new board (``board`` in the player) its own words (the
    indicated upgrade's compass, the combat action tile's side in Liberation: ``homeports.area_text``,
    as the options say them) and its resistance tile and home port slots (QA: the picture showed the base
    game's U4 and U6 to a 79 player, and neither slot)."""
    if "board" not in p:
        return [(str(u["id"]), str(u["text"])) for u in C.UPGRADES]
    hp = homeports
    extra = [a for a in (hp.RESISTANCE_AREA, hp.PORT_AREA) if a in p["discs"] or a in p["areas"]]
    return [(uid, hp.area_text(p, uid)) for uid in [*(str(u["id"]) for u in C.UPGRADES), *extra]]


def area_words(uid: str, text: str) -> str:
    """A ship area's words for a picture, in the reader's language: the base game's shortened (no note in
    brackets, "village:"), the Uprising's board's own whole (their catalogue entries are whole: cut, a
    Portuguese reader got half English, and the U side of the combat action tile lost its village)."""
    base = C.UPGRADE.get(uid)
    if base is not None and str(base["text"]) == text:
        return say(text.split(" (")[0].replace("village action: ", "village: "))
    return say(text)


def _svg_ship(view: View, seat: int, y: int) -> tuple[list[str], int]:
    """The ship board: twelve areas in a row, the Uprising's slots in a row of their own; each area's words
    whole (QA #20: two lines cut the U side of the combat action tile to "combat action tile, U side:"
    and a long home port mid-sentence), its row as tall as its longest words."""
    p = view["p"][seat]
    out = [_t(6, y + 9, "Your ship board (discs left; filled = upgrade done)", 9, weight="bold")]
    y += 13
    cw = 52
    areas = ship_areas(p)
    half = 6 * cw
    rows = ([(uid, text, 6 + k * cw, cw, 14) for k, (uid, text) in enumerate(areas[:12])],
            [(uid, text, 6 + k * half, half, 84) for k, (uid, text) in enumerate(areas[12:])])
    for n, row in enumerate(rows):
        if not row:
            continue
        if n:  # the Uprising's slots: a row of their own, half the board's width each
            y += 4
        lines = [textwrap.wrap(area_words(uid, text), chars) for uid, text, _x, _w, chars in row]
        height = 16 + 7 * max(2, *(len(ls) for ls in lines))
        for (uid, _words, x, w, _chars), words in zip(row, lines):
            fill = "#b2f2bb" if uid in p["areas"] else "#f8f9fa"
            out.append(f'<rect x="{x}" y="{y}" width="{w - 3}" height="{height}" rx="3" fill="{fill}" '
                       'stroke="#868e96" stroke-width="0.6"/>')
            out.append(_t(x + 3, y + 10, uid, 8, weight="bold"))
            for d in range(p["discs"].get(uid, 0)):
                out.append(f'<circle cx="{x + 30 + 8 * d}" cy="{y + 7}" r="3" fill="#495057"/>')
            for k2, line in enumerate(words):
                out.append(_text(x + 3, y + 20 + 7 * k2, line, 6, "start", "#111", "normal"))
        y += height
    return out, y + 6


def _card_box(x: float, y: int, cid: int, head: str) -> list[str]:
    c = C.CARD[cid]
    out = [f'<rect x="{x:.0f}" y="{y}" width="154" height="44" rx="3" fill="#fff9db" stroke="#a07c00" '
           'stroke-width="0.6"/>',
           _text(x + 4, y + 10, f"{head if head[:1].isdigit() or not head else say(head.rstrip(': ')) + ': '}"
                 f"{say(str(c['name']))}", 8, "start", "#111", "bold"),
           _t(x + 4, y + 20, f"{c['good']} / {c['object']} - {c['cost']} d - {c['vp']} VP", 7)]
    effects = say("; ".join(C.effect_text(e) for e in c["effects"]) or "no effect")
    for k, line in enumerate(textwrap.wrap(effects, 38)[:2]):  # (said before it is cut in lines)
        out.append(_text(x + 4, y + 30 + 9 * k, line, 6.5, "start", "#111", "normal"))
    return out


def _svg_display(view: View, y: int) -> tuple[list[str], int]:
    out = [_t(6, y + 9, "Display (draw for 1 doubloon)", 9, weight="bold")]
    y += 13
    for i, cid in enumerate(view["display"][:4]):
        out += _card_box(6 + 158 * i, y, cid, f"{i + 1}. ")
    y += 50
    seat = view.get("seat")
    if seat is not None:
        p = view["p"][seat]
        mine = [(c, "") for c in p["display"]] + [(c, "planned: ") for c in p["plan"]]
        out.append(_t(6, y + 9, "Your cards in play" + ("" if mine else ": none"), 9, weight="bold"))
        y += 13
        for k, (cid, head) in enumerate(mine):
            out += _card_box(6 + 158 * (k % 4), y + 48 * (k // 4), cid, head)
        if mine:
            y += 48 * ((len(mine) + 3) // 4)
    return out, y
