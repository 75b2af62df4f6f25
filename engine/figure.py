"""A drawing as a list of primitives (circle, rect, line, polyline, text), written as SVG and read back.

Why (issue 28): a mail's board picture was the SVG drawn by resvg, its PNG decoded and put on a
palette by Pillow (22 ms of Maretta's, a third of a move's worker CPU). A drawing made of these
primitives alone is painted by Pillow straight onto its own few colours (``pbem.mail.painter``),
and the page shows the SVG written from the same list, so the two cannot drift apart: the mail's
painter reads its primitives back from the very SVG (:func:`read`), and a drawing with anything
else in it (a path, a group, a transform, a nested drawing: Caravelas' and Maracaibo's maps) reads
as None and goes to resvg as before. The engine draws no pixels: Pillow is not one of its
dependencies (docs/architecture.md).
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass

from engine import svg


@dataclass(frozen=True)
class Circle:
    cx: float
    cy: float
    r: float
    fill: str  # "#rrggbb" or "none"
    stroke: str | None = None
    stroke_width: float | None = None  # None: SVG's 1 when there is a stroke
    cls: str | None = None


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    width: float
    height: float
    fill: str
    stroke: str | None = None
    rx: float | None = None
    cls: str | None = None


@dataclass(frozen=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str
    stroke_width: float
    linecap: str | None = None  # None: butt
    cls: str | None = None


@dataclass(frozen=True)
class Polyline:
    points: tuple[tuple[int, int], ...]
    stroke: str
    stroke_width: float
    linejoin: str | None = None  # None: miter
    linecap: str | None = None
    cls: str | None = None


@dataclass(frozen=True)
class Text:
    """A label; ``x`` and ``y`` are written rounded to a tenth (build it with :func:`text`)."""

    x: float
    y: float
    text: str
    size: float
    fill: str
    anchor: str = "middle"  # start, middle, end
    bold: bool = False


Item = Circle | Rect | Line | Polyline | Text
#: Every primitive kind; the SVG writer and the mail's painter each handle every one of them.
KINDS: tuple[type, ...] = (Circle, Rect, Line, Polyline, Text)


@dataclass(frozen=True)
class Figure:
    """A drawing read back from its SVG: its size, its background, its items in drawing order."""

    width: int
    height: int
    background: str
    items: tuple[Item, ...]
    smooth_text: bool


def text(x: float, y: float, s: str, size: float, fill: str, anchor: str = "middle", bold: bool = False) -> Text:
    return Text(round(x, 1), round(y, 1), s, size, fill, anchor, bold)


def _circle(c: Circle) -> str:
    return svg.el("circle", class_=c.cls, cx=c.cx, cy=c.cy, r=c.r, fill=c.fill, stroke=c.stroke,
                  stroke_width=c.stroke_width)


def _rect(r: Rect) -> str:
    return svg.el("rect", class_=r.cls, x=r.x, y=r.y, width=r.width, height=r.height, rx=r.rx, fill=r.fill,
                  stroke=r.stroke)


def _line(ln: Line) -> str:
    return svg.el("line", class_=ln.cls, x1=ln.x1, y1=ln.y1, x2=ln.x2, y2=ln.y2, stroke=ln.stroke,
                  stroke_width=ln.stroke_width, stroke_linecap=ln.linecap)


def _polyline(p: Polyline) -> str:
    return svg.el("polyline", class_=p.cls, points=" ".join(f"{x},{y}" for x, y in p.points), fill="none",
                  stroke=p.stroke, stroke_width=p.stroke_width, stroke_linejoin=p.linejoin,
                  stroke_linecap=p.linecap)


def _text(t: Text) -> str:
    return svg.text(t.x, t.y, t.text, size=t.size, anchor=t.anchor, fill=t.fill,  # type: ignore[arg-type]
                    font_weight="bold" if t.bold else None)


#: The SVG writer of each kind.
WRITERS = {Circle: _circle, Rect: _rect, Line: _line, Polyline: _polyline, Text: _text}


def to_svg(item: Item) -> str:
    writer: Callable[[Item], str] = WRITERS[type(item)]  # type: ignore[assignment]
    return writer(item)


def document(width: int, height: int, items: list[Item], title: str = "", desc: str = "") -> str:
    return svg.document(width, height, [to_svg(i) for i in items], title=title, desc=desc)


# ---- reading back -------------------------------------------------------------------------------

_ROOT = re.compile(r'<svg xmlns="http://www\.w3\.org/2000/svg" width="(\d+)" height="(\d+)" viewBox="0 0 \1 \2"'
                   r'((?: [\w-]+="[^"<>]*")*)>(?:<title>[^<]*</title>)?(?:<desc>[^<]*</desc>)?'
                   r'<rect width="100%" height="100%" fill="(#[0-9a-f]{6})"/>')
_ITEM = re.compile(r'<(circle|rect|line|polyline) ((?:[\w-]+="[^"<>&]*" ?)*)/>|<text ([^>]*)>([^<]*)</text>')
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')
_COLOUR = re.compile(r"#[0-9a-f]{6}")
_ROOT_ATTRS = {"data-focus", "text-rendering"}
_ALLOWED = {
    "circle": {"class", "cx", "cy", "r", "fill", "stroke", "stroke-width"},
    "rect": {"class", "x", "y", "width", "height", "rx", "fill", "stroke"},
    "line": {"class", "x1", "y1", "x2", "y2", "stroke", "stroke-width", "stroke-linecap"},
    "polyline": {"class", "points", "fill", "stroke", "stroke-width", "stroke-linejoin", "stroke-linecap"},
    "text": {"x", "y", "font-size", "text-anchor", "font-family", "fill", "font-weight"},
}


class _Unknown(ValueError):
    """Something in the drawing that is not one of the primitives as :func:`to_svg` writes them."""


def _num(a: dict[str, str], key: str) -> float:
    v = float(a[key])
    return int(v) if v.is_integer() and "." not in a[key] else v


def _opt(a: dict[str, str], key: str) -> float | None:
    return _num(a, key) if key in a else None


def _colour(value: str | None, none_ok: bool = False) -> str:
    if value is None or not (_COLOUR.fullmatch(value) or (none_ok and value == "none")):
        raise _Unknown(value)
    return value


def _choice(value: str | None, allowed: tuple[str | None, ...]) -> str | None:
    if value not in allowed:
        raise _Unknown(value)
    return value


def _item(tag: str, a: dict[str, str], body: str) -> Item:
    if set(a) - _ALLOWED[tag]:
        raise _Unknown(tag)
    if tag == "circle":
        return Circle(_num(a, "cx"), _num(a, "cy"), _num(a, "r"), _colour(a.get("fill"), True),
                      _colour(a["stroke"]) if "stroke" in a else None, _opt(a, "stroke-width"), a.get("class"))
    if tag == "rect":
        return Rect(_num(a, "x"), _num(a, "y"), _num(a, "width"), _num(a, "height"), _colour(a.get("fill")),
                    _colour(a["stroke"]) if "stroke" in a else None, _opt(a, "rx"), a.get("class"))
    if tag == "line":
        return Line(_num(a, "x1"), _num(a, "y1"), _num(a, "x2"), _num(a, "y2"), _colour(a.get("stroke")),
                    _num(a, "stroke-width"), _choice(a.get("stroke-linecap"), (None, "round")), a.get("class"))
    if tag == "polyline":
        if a.get("fill") != "none":
            raise _Unknown("a filled polyline")
        pairs = [p.split(",") for p in a["points"].split(" ")]
        points = tuple((int(x), int(y)) for x, y in pairs)
        return Polyline(points, _colour(a.get("stroke")), _num(a, "stroke-width"),
                        _choice(a.get("stroke-linejoin"), (None, "round")),
                        _choice(a.get("stroke-linecap"), (None, "round")), a.get("class"))
    if a.get("font-family") != "sans-serif" or "<" in body:
        raise _Unknown("a text in another font")
    return Text(_num(a, "x"), _num(a, "y"), html.unescape(body), _num(a, "font-size"), _colour(a.get("fill")),
                str(_choice(a.get("text-anchor"), ("start", "middle", "end"))),
                _choice(a.get("font-weight"), (None, "bold")) == "bold")


def read(doc: str) -> Figure | None:
    """The primitives of a drawing written by :func:`document` (and :func:`engine.svg.smooth_text`),
    in order; None for any drawing with anything else in it, which is then drawn as an SVG."""
    root = _ROOT.match(doc)
    if root is None or not doc.endswith("</svg>"):
        return None
    extra = dict(_ATTR.findall(root.group(3)))
    if set(extra) - _ROOT_ATTRS:
        return None
    items: list[Item] = []
    pos, end = root.end(), len(doc) - len("</svg>")
    try:
        while pos < end:
            m = _ITEM.match(doc, pos)
            if m is None:
                return None
            if m.group(1):
                items.append(_item(m.group(1), dict(_ATTR.findall(m.group(2))), ""))
            else:
                items.append(_item("text", dict(_ATTR.findall(m.group(3))), m.group(4)))
            pos = m.end()
    except (_Unknown, ValueError, KeyError):
        return None
    smooth = extra.get("text-rendering", "optimizeSpeed") != "optimizeSpeed"
    return Figure(int(root.group(1)), int(root.group(2)), root.group(4), tuple(items), smooth)
