"""The story campaign in the board's picture (render.py; issue 23): a band under the players with the
story tiles (who claimed each), the story cards in play and what they require, the disc tiles and
their discs, and the last card read with its vote. Made from the view's ``story`` part only (what
every seat sees: the pile's order and uncounted votes are not in it), so nothing hidden can leak.

SUBSTITUTE CONTENT: the stories are this project's own; the band says so.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable
from html import escape
from typing import Any

from engine import i18n
from engine.core import View

from . import content as C
from . import labels

Colour = Callable[[View, int], str]
_STORY_NAME = {"base": "the base game's story", "uprising": "the Uprising's story"}
_MODULE_NAME = {"resistance": "the Resistance Tiles", "uprising": "the Uprising (fighting against a nation, L40)"}


def say(s: str) -> str:
    """A line of the band in the reader's language (issue 27: data/campaign/story.pt.json's patterns;
    the phone's column says items() and tiles_line() through render_base.say, which reads the same data)."""
    return s if i18n.current() == i18n.DEFAULT else labels.label(s)


def _t(x: float, y: float, s: str, size: float, fill: str = "#111", bold: bool = False) -> str:
    return (f'<text x="{x:.0f}" y="{y:.0f}" font-size="{size}" fill="{fill}" '
            f'font-weight="{"bold" if bold else "normal"}">{escape(s)}</text>')


def _place(loc: str) -> str:
    return f"{C.LOC[loc]['name']} ({loc})" if loc in C.LOC else loc


def story_name(s: dict[str, Any]) -> str:
    """Which story a campaign's game plays ("the Uprising's story")."""
    return _STORY_NAME.get(s.get("book", "base"), "the story")


def title(s: dict[str, Any]) -> str:
    return f"Story: game {s['game']} of the campaign, {story_name(s)} (SUBSTITUTE story)"


def items(view: View) -> list[tuple[str, str | None]]:
    """The band's words, one thing a line, each with its disc tile (or None): the phone's column
    says them, the SVG draws them (and a disc tile's discs)."""
    s = view["story"]
    names = [str(n) for n in view["players"]]
    out: list[tuple[str, str | None]] = []
    for b in s["board"]:
        by = f"; fulfilled by {names[b['claimed_by']]}" if b["claimed_by"] is not None else ""
        out.append((f"Card {b['card']}, {b['title']}: {b['requires']}{by}.", None))
    for tid, t in s["discs"].items():
        who = ", ".join(names[i] for i in t["by"]) or "none yet"
        out.append((f"Disc tile {tid}, {t['name']} at {_place(t['loc'])}: {len(t['by'])} of "
                    f"{C.counted(t['size'], 'disc')} ({who}).", tid))
    if s["read"]:
        last = s["read"][-1]
        chose = f" The vote chose {last['choice']}." if "choice" in last else ""
        out.append((f"Last read: card {last['card']}, {last['title']}.{chose}", None))
        vote = next((x for x in reversed(s["read"][:-1]) if "choice" in x), None)
        if vote is not None:
            out.append((f"Last vote: card {vote['card']}, {vote['title']}: {vote['choice']}.", None))
    if s.get("modules"):
        out.append(("From the story this game plays with " + ", ".join(_MODULE_NAME.get(m, m) for m in s["modules"])
                    + ".", None))
    return out


def tiles_line(view: View) -> str:
    s = view["story"]
    names = [str(n) for n in view["players"]]
    tiles = ", ".join(f"{i + 1} {names[by] if by is not None else 'free'}" for i, by in enumerate(s["tiles"]))
    return f"Story tiles: {tiles}. Story pile: {C.counted(s['pile'], 'card')}" + (
        f"; waiting unread: {', '.join(map(str, s['unread']))}." if s["unread"] else ".")


def svg_band(view: View, y: int, colour: Colour) -> tuple[list[str], int]:
    """The band, 640 units wide, from ``y``; its height added to ``y``."""
    s = view.get("story")
    if not s:
        return [], y
    names = [str(n) for n in view["players"]]
    out = [_t(6, y + 9, say(title(s)), 9, bold=True)]
    y += 14
    # the four story tiles: a claimed one marked with the colour of whoever claimed it
    for i, by in enumerate(s["tiles"]):
        x = 6 + 84 * i
        out.append(f'<rect x="{x}" y="{y}" width="80" height="16" rx="3" fill="#f8f9fa" stroke="#868e96" '
                   'stroke-width="0.6"/>')
        if by is not None:
            out.append(f'<rect x="{x}" y="{y}" width="8" height="16" rx="2" fill="{colour(view, by)}"/>')
        word = f"{i + 1}: {names[by]}" if by is not None else say(f"{i + 1}: free")
        out.append(_t(x + 11, y + 11, word[:14], 7.5, bold=by is not None))
    out.append(_t(6 + 84 * len(s["tiles"]) + 4, y + 11, say(f"Story pile: {C.counted(s['pile'], 'card')}"
                  + (f"; unread: {', '.join(map(str, s['unread']))}" if s["unread"] else "")), 8))
    y += 22
    for line, tid in items(view):
        for k, part in enumerate(textwrap.wrap(say(line), 118)[:2]):  # (said whole, then cut)
            out.append(_t(12 if k else 6, y + 9, part, 7.5, bold=tid is None and line.startswith("Card ") and k == 0))
            y += 11
        t = s["discs"].get(tid) if tid is not None else None
        if t is not None:  # one slot a disc, filled with the colour of the disc's seat
            for k in range(int(t["size"])):
                fill = colour(view, t["by"][k]) if k < len(t["by"]) else "#ffffff"
                out.append(f'<circle cx="{16 + 12 * k}" cy="{y + 3}" r="4" fill="{fill}" stroke="#495057" '
                           'stroke-width="0.6"/>')
            y += 11
    return out, y + 4
