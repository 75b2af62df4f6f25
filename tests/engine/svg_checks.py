"""Readability checks computed from a board's SVG geometry (issue 10): labels big enough,
never overlapping, and every text readable on what it is drawn over (WCAG AA contrast).

The geometry is the SVG's own: a text's box is estimated from its font size, anchor and
length (a sans-serif glyph is at most about 0.62 em wide, bold 0.68); what a text sits on
is the topmost circle or rectangle drawn before it that holds the text's centre, else the
document's background.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

NS = "{http://www.w3.org/2000/svg}"


def _hex(colour: str) -> tuple[float, float, float]:
    c = colour.strip().lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    named = {"fff": "ffffff", "white": "ffffff", "black": "000000"}
    c = named.get(colour.strip().lower(), c)
    if not re.fullmatch(r"[0-9a-fA-F]{6}", c):
        raise ValueError(f"not a colour this check knows: {colour!r}")
    return tuple(int(c[i:i + 2], 16) / 255 for i in (0, 2, 4))  # type: ignore[return-value]


def luminance(colour: str) -> float:
    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in _hex(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@dataclass(frozen=True)
class Box:
    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, slack: float = 0.5) -> bool:
        return (self.x0 + slack < other.x1 and other.x0 + slack < self.x1
                and self.y0 + slack < other.y1 and other.y0 + slack < self.y1)


@dataclass(frozen=True)
class Label:
    text: str
    size: float
    bold: bool
    fill: str
    box: Box
    on: str  # the colour it is drawn over


def _f(el: ET.Element, name: str, default: float = 0.0) -> float:
    v = el.get(name)
    return float(v) if v not in (None, "") else default


def _shape(el: ET.Element) -> tuple[str, Box, tuple[float, float, float] | None] | None:
    tag = el.tag.removeprefix(NS)
    fill = el.get("fill")
    if not fill or fill == "none" or fill.startswith("url"):
        return None
    if tag == "circle":
        cx, cy, r = _f(el, "cx"), _f(el, "cy"), _f(el, "r")
        return fill, Box(cx - r, cy - r, cx + r, cy + r), (cx, cy, r)
    if tag == "rect":
        w, h = el.get("width", "0"), el.get("height", "0")
        if w.endswith("%"):
            return fill, Box(-1e9, -1e9, 1e9, 1e9), None
        x, y = _f(el, "x"), _f(el, "y")
        return fill, Box(x, y, x + float(w), y + float(h)), None
    return None


def labels(svg: str) -> list[Label]:
    """Every text of the picture with its estimated box and the colour under it."""
    root = ET.fromstring(svg)
    shapes: list[tuple[str, Box, tuple[float, float, float] | None]] = []
    out = []
    for el in root.iter():
        tag = el.tag.removeprefix(NS)
        shape = _shape(el)
        if shape is not None:
            shapes.append(shape)
            continue
        if tag != "text" or not (el.text or "").strip():
            continue
        size = _f(el, "font-size", 12)
        bold = el.get("font-weight") == "bold"
        text = el.text or ""
        width = len(text) * size * (0.68 if bold else 0.62)
        x, y = _f(el, "x"), _f(el, "y")
        anchor = el.get("text-anchor", "start")
        x0 = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
        box = Box(x0, y - 0.75 * size, x0 + width, y + 0.22 * size)
        cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        on = "#ffffff"
        for fill, b, circle in reversed(shapes):
            if circle is not None:
                inside = (cx - circle[0]) ** 2 + (cy - circle[1]) ** 2 <= circle[2] ** 2
            else:
                inside = b.x0 <= cx <= b.x1 and b.y0 <= cy <= b.y1
            if inside:
                on = fill
                break
        out.append(Label(text, size, bold, el.get("fill", "#000000"), box, on))
    return out


def overlapping(found: list[Label]) -> list[tuple[str, str]]:
    pairs = []
    for i, a in enumerate(found):
        for b in found[i + 1:]:
            if a.box.overlaps(b.box):
                pairs.append((a.text, b.text))
    return pairs


def unreadable(found: list[Label]) -> list[tuple[str, str, str, float]]:
    """Texts below WCAG AA: 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold)."""
    bad = []
    for lab in found:
        large = lab.size >= 24 or (lab.bold and lab.size >= 18.66)
        ratio = contrast(lab.fill, lab.on)
        if ratio < (3.0 if large else 4.5):
            bad.append((lab.text, lab.fill, lab.on, round(ratio, 2)))
    return bad


def shown_text_sizes(svg: str) -> list[tuple[str, float]]:
    """Every text a picture shows, with its size in the picture's px: a text inside a nested
    ``<svg>`` (a part of a map drawn at another scale, engine.svg.window) counts at that scale,
    and only when its box reaches into the part shown."""
    out: list[tuple[str, float]] = []

    def walk(el: ET.Element, scale: float, view: Box | None) -> None:
        for child in el:
            tag = child.tag.removeprefix(NS)
            if tag == "svg":
                x, y, w, h = (float(v) for v in (child.get("viewBox") or "0 0 1 1").split())
                walk(child, scale * float(child.get("width") or w) / w, Box(x, y, x + w, y + h))
            elif tag == "text" and (child.text or "").strip():
                size = _f(child, "font-size", 12)
                text = child.text or ""
                width = len(text) * size * (0.68 if child.get("font-weight") == "bold" else 0.62)
                x, y = _f(child, "x"), _f(child, "y")
                anchor = child.get("text-anchor", "start")
                x0 = x - width / 2 if anchor == "middle" else x - width if anchor == "end" else x
                box = Box(x0, y - 0.75 * size, x0 + width, y + 0.22 * size)
                if view is None or box.overlaps(view, slack=0):
                    out.append((text, size * scale))
            else:
                walk(child, scale, view)

    root = ET.fromstring(svg)
    vb = root.get("viewBox")
    scale = float(root.get("width") or 1) / float(vb.split()[2]) if vb else 1.0
    walk(root, scale, None)
    return out
