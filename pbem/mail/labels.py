"""A mail picture's plain labels drawn by Pillow (FreeType) over resvg's drawing of the rest.

Why (issue 28): resvg lays out every ``<text>`` on its own, 110-350 µs each (a chunk's shaping
and font set-up, then its glyphs), so a Maretta board's 45-52 labels were 17 of its 25 ms of
resvg; the board without them renders in 8. FreeType draws the same labels, from the same font
file, in about 1 ms. A label is lifted out of the SVG only when nothing drawn after it in the
picture may cover it (every later element's box, stroke included, is known and clear of the
label's), and only when it says nothing Pillow would draw differently: a top-level ``<text>``
with a position, a size, an anchor, a weight, a colour and plain words in the font the renderer
uses (``PNG_FONT``). Any other label, and every label of a picture with a stylesheet, stays in
the SVG for resvg: the picture is the same drawing either way, its glyphs placed by FreeType's
hinting rather than resvg's outlines (crisper at 11-14 px).
"""

from __future__ import annotations

import functools
import html
import math
import re
from dataclasses import dataclass
from typing import Any

#: The font files of the one family the mail pictures' labels use (``sending.PNG_FONT``),
#: found by Pillow in the system's font folders.
FONT_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
#: The font-family values that resolve to that family for resvg (its default and sans-serif).
_FAMILIES = {"sans-serif", "DejaVu Sans", "'DejaVu Sans'"}
#: The attributes a liftable label may carry (anything else: resvg draws it).
_PLAIN = {"x", "y", "font-size", "text-anchor", "font-family", "font-weight", "fill", "class"}
#: SVG's text-anchor as Pillow's anchor (on the baseline).
ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
_NAMED = {"black": "#000000", "white": "#ffffff"}
#: Signs past Latin that DejaVu Sans has and the pictures use: dashes, quotes, ellipsis, bullets,
#: times, arrows, euro.
_SIGNS = set("\u2013\u2014\u2018\u2019\u201c\u201d\u2026\u2022\u00b7\u00d7\u2190\u2191\u2192\u2193\u20ac")

_TAG = re.compile(r"<(/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>"
                  r"|<!--.*?-->|<\?.*?\?>|<!\[CDATA\[.*?\]\]>", re.S)
_ATTR = re.compile(r"([\w:-]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_HEX = re.compile(r"#(?:[0-9a-fA-F]{3}){1,2}")
#: Elements that draw nothing themselves (their text, if any, is not shown).
_SILENT = {"title", "desc", "metadata"}
#: Containers whose children are drawn where they say, when the container moves nothing.
_PLAIN_GROUPS = {"g", "a"}
_EVERYWHERE = (-math.inf, -math.inf, math.inf, math.inf)
#: Elements whose children are not drawn where they stand (used elsewhere, or not at all).
_HIDING = {"defs", "symbol", "clipPath", "mask", "marker", "pattern", "linearGradient", "radialGradient",
           "filter", "style", "script"}
#: A group's attributes that move or change what its children draw.
_MOVING = {"transform", "filter", "style", "mask", "clip-path", "opacity"}


@dataclass(frozen=True)
class Label:
    x: float
    y: float
    size: float
    anchor: str
    bold: bool
    fill: str
    text: str


@dataclass(frozen=True)
class Lifted:
    """The SVG without its lifted labels, and those labels in pixels (drawn in order)."""

    svg: str
    labels: tuple[Label, ...]
    smooth: bool


@functools.lru_cache(maxsize=64)
def font(bold: bool, size: float) -> Any:
    from PIL import ImageFont

    return ImageFont.truetype(FONT_FILES[bold], size)


@functools.lru_cache(maxsize=4096)
def _width(bold: bool, size: float, text: str) -> float:
    """A label's advance in pixels (the same words recur from one picture to the next)."""
    return float(font(bold, size).getlength(text))


def _attrs(raw: str) -> dict[str, str]:
    return {m.group(1): m.group(2) if m.group(2) is not None else m.group(3) for m in _ATTR.finditer(raw)}


def _number(value: str | None, default: float | None = None) -> float | None:
    if value is None:
        return default
    m = _NUMBER.fullmatch(value.strip().removesuffix("px"))
    return float(m.group(0)) if m else None


def _label(attrs: dict[str, str], body: str, k: float) -> Label | None:
    """The label of a ``<text>`` Pillow draws as resvg would, in pixels; None for any other."""
    if set(attrs) - _PLAIN or "<" in body:
        return None
    x, y, size = _number(attrs.get("x"), 0.0), _number(attrs.get("y"), 0.0), _number(attrs.get("font-size"))
    anchor = ANCHORS.get(attrs.get("text-anchor", "start"))
    weight = attrs.get("font-weight", "normal")
    fill = _NAMED.get(attrs.get("fill", "black"), attrs.get("fill", ""))
    if (x is None or y is None or size is None or size <= 0 or anchor is None
            or attrs.get("font-family", "sans-serif") not in _FAMILIES
            or weight not in ("normal", "400", "bold", "700") or not _HEX.fullmatch(fill)):
        return None
    text = " ".join(html.unescape(body).split())  # xml:space="default": runs of white space are one
    # Why so narrow: DejaVu Sans has every Latin letter and these signs; outside them resvg would
    # fall back to another font where Pillow would draw a missing glyph's box
    if not drawable(text):
        return None
    return Label(x * k, y * k, size * k, anchor, weight in ("bold", "700"), fill, text)


def drawable(text: str) -> bool:
    """Whether the font files draw every sign of ``text`` (Latin letters and :data:`_SIGNS`)."""
    return not any(ord(ch) >= 0x250 and ch not in _SIGNS for ch in text)


def _box(label: Label) -> tuple[float, float, float, float]:
    """Where a label's ink may be, in pixels (a margin for hinting and smoothing)."""
    width = _width(label.bold, label.size, label.text)
    x0 = label.x - {"ls": 0.0, "ms": width / 2, "rs": width}[label.anchor]
    return x0 - 2, label.y - 1.05 * label.size - 2, x0 + width + 2, label.y + 0.35 * label.size + 2


def _shape_box(name: str, attrs: dict[str, str], k: float) -> tuple[float, float, float, float]:
    """The box, in pixels, that an element draws within (stroke included), or everywhere when
    it is not known (a transform, a filter, a path with relative steps, an element not read here)."""
    if set(attrs) & {"transform", "filter", "marker-start", "marker-mid", "marker-end", "style", "mask", "clip-path"}:
        return _EVERYWHERE
    stroke = 0.0 if attrs.get("stroke", "none") == "none" else (_number(attrs.get("stroke-width"), 1.0) or 0.0)
    xs: list[float] = []
    ys: list[float] = []
    try:
        if name == "circle" or name == "ellipse":
            cx, cy = float(attrs.get("cx", 0)), float(attrs.get("cy", 0))
            rx = float(attrs.get("r", attrs.get("rx", 0)))
            ry = float(attrs.get("r", attrs.get("ry", rx)))
            xs, ys = [cx - rx, cx + rx], [cy - ry, cy + ry]
        elif name == "rect":
            x, y = float(attrs.get("x", 0)), float(attrs.get("y", 0))
            xs, ys = [x, x + float(attrs["width"])], [y, y + float(attrs["height"])]
        elif name == "line":
            xs = [float(attrs.get("x1", 0)), float(attrs.get("x2", 0))]
            ys = [float(attrs.get("y1", 0)), float(attrs.get("y2", 0))]
        elif name in ("polyline", "polygon") or (name == "path" and not re.search(r"[a-y]", attrs.get("d", "")) and
                                                 not re.search(r"[AHVQTSC]", attrs.get("d", ""))):
            # a path of absolute moves and lines only: its points are pairs
            nums = [float(n) for n in _NUMBER.findall(attrs.get("points", attrs.get("d", "")))]
            xs, ys = nums[0::2], nums[1::2]
        else:
            return _EVERYWHERE
    except (KeyError, ValueError):
        return _EVERYWHERE
    if not xs or not ys:
        return _EVERYWHERE
    pad = stroke + 2  # half the stroke, and its mitres, and a pixel of smoothing each side
    return (min(xs) - pad) * k, (min(ys) - pad) * k, (max(xs) + pad) * k, (max(ys) + pad) * k


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def lift(svg: str, width: int | None) -> Lifted | None:
    """The picture with the labels Pillow can draw over it taken out, or None when there is none
    to lift (the picture goes to resvg whole): none it can draw, or no font file for them (a
    server without DejaVu: resvg draws what it can, as before)."""
    try:
        font(False, 12.0)
        font(True, 12.0)
    except OSError:
        return None
    head = svg[: svg.find(">") + 1]
    root = _TAG.match(svg.lstrip())
    if width is None or "<style" in svg or root is None or root.group(2) != "svg" or "<text" not in svg:
        return None
    rattrs = _attrs(root.group(3))
    view = [float(n) for n in _NUMBER.findall(rattrs.get("viewBox", ""))]
    own_width = _number(rattrs.get("width"))
    if own_width is None or own_width <= 0 or (view and (len(view) != 4 or view[0] != 0 or view[1] != 0)):
        return None
    if set(rattrs) & {"transform", "style", "preserveAspectRatio"}:
        return None
    k = width / (view[2] if view else own_width)
    # the drawing's elements in order: (start, end, label or None, box)
    items: list[tuple[int, int, Label | None, tuple[float, float, float, float]]] = []
    stack: list[tuple[bool, bool]] = []  # open elements below the root: (hides, moves its children)
    pos = len(svg) - len(svg.lstrip()) + root.end()
    while (m := _TAG.search(svg, pos)) is not None:
        pos = m.end()
        closing, name, raw, empty = m.group(1), m.group(2), m.group(3) or "", m.group(4)
        if name is None:  # a comment
            continue
        if closing:
            if stack:
                stack.pop()
            continue
        attrs = _attrs(raw)
        hidden = any(h for h, _m in stack)
        if name == "text" and not empty:
            end = svg.find("</text>", m.end())
            if end < 0:
                return None
            pos = end + len("</text>")  # its <tspan>s, if any, are part of it
            if not hidden:
                label = None if stack else _label(attrs, svg[m.end():end], k)
                items.append((m.start(), pos, label, _EVERYWHERE if label is None else _box(label)))
            continue
        hides = name in _HIDING
        moves = name == "svg" or (name in _PLAIN_GROUPS and bool(set(attrs) & _MOVING))
        if not hidden and not hides and name not in _SILENT:
            if name in _PLAIN_GROUPS and not moves:
                box = (math.inf, math.inf, -math.inf, -math.inf)  # a plain group draws only its children
            elif moves or any(mv for _h, mv in stack):
                box = _EVERYWHERE
            else:
                box = _shape_box(name, attrs, k)
            items.append((m.start(), m.end(), None, box))
        if not empty:
            stack.append((hides, moves))
    # a label is lifted when no element drawn after it, other than a lifted label, may cover it
    lifted: set[int] = set()
    later: list[tuple[float, float, float, float]] = []
    for i in range(len(items) - 1, -1, -1):
        _start, _end, label, box = items[i]
        if label is not None and label.text and not any(_overlap(box, b) for b in later):
            lifted.add(i)
        else:
            later.append(box)
    if not lifted:
        return None
    parts, labels, at = [], [], 0
    for i in sorted(lifted):
        start, end, label, _ = items[i]
        parts.append(svg[at:start])
        at = end
        assert label is not None
        labels.append(label)
    parts.append(svg[at:])
    smooth = re.search(r'\stext-rendering="(?!optimizeSpeed")', head) is not None
    return Lifted("".join(parts), tuple(labels), smooth)


def draw(image: Any, lifted: Lifted) -> None:
    """Draws the lifted labels on ``image`` (RGB, the rest of the picture), in order."""
    from PIL import ImageDraw

    pen = ImageDraw.Draw(image)
    pen.fontmode = "L" if lifted.smooth else "1"
    for label in lifted.labels:
        pen.text((label.x, label.y), label.text, fill=label.fill, font=font(label.bold, label.size),
                 anchor=label.anchor)
