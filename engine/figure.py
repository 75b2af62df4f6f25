"""A drawing as a list of primitives (circle, rect, line, polyline, polygon, text, and a window of
other primitives), written as SVG and read back.

Why (issue 28): a mail's board picture was the SVG drawn by resvg, its PNG decoded and put on a
palette by Pillow (22 ms of Maretta's, a third of a move's worker CPU). A drawing made of these
primitives alone is painted by Pillow straight onto its own few colours (``pbem.mail.painter``),
and the page shows the SVG written from the same list, so the two cannot drift apart: the mail's
painter reads its primitives back from the very SVG (:func:`read`), and a drawing with anything
else in it (a curve, a group, a transform) reads as None and goes to resvg as before.
Maracaibo's mail picture is read as it is written (its renderer's SVG strings, unchanged): a closed
path of straight segments is a :class:`Polygon`, a dashed line a :class:`Line` with its ``dash``,
and its map's part, a nested drawing with its own viewBox, a :class:`Window` (issue 28: resvg drew
it in some 50 ms a render). Caravelas' mail picture is read as written too (issue 28: resvg drew
it in some 70-100 ms): its routes, polylines of float corners, the wind routes dashed; its arrowheads,
``<polygon>`` elements; its places' crosses, paths of open single segments (each a :class:`Line`); the targets'
rings and the fleets beyond the part shown, dashed circles and rects; its labels' halos (a stroke
under the fill) and the winds' italic names. The engine draws no pixels: Pillow is not one of its dependencies
(docs/architecture.md).
"""

from __future__ import annotations

import functools
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
    dash: tuple[float, ...] | None = None  # the stroke's dasharray, from (cx + r, cy) clockwise


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
    stroke_width: float | None = None  # None: SVG's 1 when there is a stroke
    dash: tuple[float, ...] | None = None  # the stroke's dasharray, from (x + rx, y) clockwise
    # (fill "none": its outline alone)


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
    dash: tuple[float, ...] | None = None  # stroke-dasharray: on, off, ...


@dataclass(frozen=True)
class Polyline:
    points: tuple[tuple[float, float], ...]
    stroke: str
    stroke_width: float
    linejoin: str | None = None  # None: miter
    linecap: str | None = None
    cls: str | None = None
    dash: tuple[float, ...] | None = None  # stroke-dasharray, running on across its corners


@dataclass(frozen=True)
class Polygon:
    """A closed shape of straight edges (an SVG path of M, L, H, V and Z, absolute or relative)."""

    points: tuple[tuple[float, float], ...]
    fill: str
    stroke: str | None = None
    stroke_width: float | None = None
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
    italic: bool = False
    #: a halo: the glyphs' outline stroked this colour this wide (round joins) under their fill
    #: (``paint-order="stroke"``), so that a label reads over the lines it crosses (Caravelas' map)
    halo: str | None = None
    halo_width: float | None = None


@dataclass(frozen=True)
class Window:
    """A nested drawing: the part ``view`` (x, y, w, h, its own units) of ``items`` drawn into the
    box (x, y, width, height) of the drawing around it, scaled to fill it, clipped at its edges
    (``engine.svg.window``: a mail's part of a map at its own scale)."""

    x: float
    y: float
    width: float
    height: float
    view: tuple[float, float, float, float]
    items: tuple[Item, ...]


Item = Circle | Rect | Line | Polyline | Polygon | Text | Window
#: Every primitive kind; the SVG writer and the mail's painter each handle every one of them.
KINDS: tuple[type, ...] = (Circle, Rect, Line, Polyline, Polygon, Text, Window)


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


def _dasharray(dash: tuple[float, ...] | None) -> str | None:
    return " ".join(f"{d:g}" for d in dash) if dash else None


def _circle(c: Circle) -> str:
    return svg.el("circle", class_=c.cls, cx=c.cx, cy=c.cy, r=c.r, fill=c.fill, stroke=c.stroke,
                  stroke_width=c.stroke_width, stroke_dasharray=_dasharray(c.dash))


def _rect(r: Rect) -> str:
    return svg.el("rect", class_=r.cls, x=r.x, y=r.y, width=r.width, height=r.height, rx=r.rx, fill=r.fill,
                  stroke=r.stroke, stroke_width=r.stroke_width, stroke_dasharray=_dasharray(r.dash))


def _line(ln: Line) -> str:
    return svg.el("line", class_=ln.cls, x1=ln.x1, y1=ln.y1, x2=ln.x2, y2=ln.y2, stroke=ln.stroke,
                  stroke_width=ln.stroke_width, stroke_linecap=ln.linecap, stroke_dasharray=_dasharray(ln.dash))


def _polygon(p: Polygon) -> str:
    d = "M" + " L".join(f"{x:g} {y:g}" for x, y in p.points) + " Z"
    return svg.el("path", class_=p.cls, d=d, fill=p.fill, stroke=p.stroke, stroke_width=p.stroke_width)


def _window(w: Window) -> str:
    return (f'<svg x="{w.x:g}" y="{w.y:g}" width="{w.width:g}" height="{w.height:g}" '
            f'viewBox="{" ".join(f"{v:g}" for v in w.view)}" font-family="sans-serif">'
            + "".join(map(to_svg, w.items)) + "</svg>")


def _polyline(p: Polyline) -> str:
    return svg.el("polyline", class_=p.cls, points=" ".join(f"{x},{y}" for x, y in p.points), fill="none",
                  stroke=p.stroke, stroke_width=p.stroke_width, stroke_linejoin=p.linejoin,
                  stroke_linecap=p.linecap, stroke_dasharray=_dasharray(p.dash))


def _text(t: Text) -> str:
    halo: dict[str, object] = ({"stroke": t.halo, "stroke_width": t.halo_width, "paint_order": "stroke",
                                "stroke_linejoin": "round"} if t.halo else {})
    return svg.text(t.x, t.y, t.text, size=t.size, anchor=t.anchor, fill=t.fill,  # type: ignore[arg-type]
                    font_weight="bold" if t.bold else None, font_style="italic" if t.italic else None, **halo)


#: The SVG writer of each kind.
WRITERS = {Circle: _circle, Rect: _rect, Line: _line, Polyline: _polyline, Polygon: _polygon, Text: _text,
           Window: _window}


def to_svg(item: Item) -> str:
    writer: Callable[[Item], str] = WRITERS[type(item)]  # type: ignore[assignment]
    return writer(item)


def document(width: int, height: int, items: list[Item], title: str = "", desc: str = "") -> str:
    return svg.document(width, height, [to_svg(i) for i in items], title=title, desc=desc)


# ---- reading back -------------------------------------------------------------------------------

_ROOT = re.compile(r'<svg xmlns="http://www\.w3\.org/2000/svg" width="(\d+)" height="(\d+)" viewBox="0 0 \1 \2"'
                   r'((?: [\w-]+="[^"<>]*")*)>(?:<title>[^<]*</title>)?(?:<desc>[^<]*</desc>)?'
                   r'<rect width="(?:100%|\1)" height="(?:100%|\2)" fill="(#[0-9a-f]{6})"/>')
_ITEM = re.compile(r'<(circle|rect|line|polyline|polygon|path) ((?:[\w-]+="[^"<>&]*" ?)*)/>'
                   r'|<text ([^>]*)>([^<]*)</text>|<svg ((?:[\w-]+="[^"<>&]*" ?)*)>|(</svg>)')
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')
_COLOUR = re.compile(r"#[0-9a-f]{6}|#[0-9a-f]{3}")
_ROOT_ATTRS = {"data-focus", "text-rendering", "font-family"}
_SHARED = {"class", "data-place"}
_ALLOWED = {
    "circle": {"cx", "cy", "r", "fill", "stroke", "stroke-width", "stroke-dasharray"},
    "rect": {"x", "y", "width", "height", "rx", "fill", "stroke", "stroke-width", "stroke-dasharray"},
    "line": {"x1", "y1", "x2", "y2", "stroke", "stroke-width", "stroke-linecap", "stroke-dasharray"},
    "polyline": {"points", "fill", "stroke", "stroke-width", "stroke-linejoin", "stroke-linecap",
                 "stroke-dasharray"},
    "polygon": {"points", "fill", "stroke", "stroke-width"},
    "path": {"d", "fill", "stroke", "stroke-width"},
    "text": {"x", "y", "font-size", "text-anchor", "font-family", "fill", "font-weight", "font-style", "stroke",
             "stroke-width", "paint-order", "stroke-linejoin"},
    "svg": {"x", "y", "width", "height", "viewBox", "font-family"},
}
_PATH = re.compile(r"([A-Za-z])([^A-Za-z]*)")
_NUMBER = re.compile(r"-?(?:\d+\.?\d*|\.\d+)")


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
    if len(value) == 4 and value[0] == "#":  # #rgb, as the painter reads #rrggbb
        return "#" + "".join(c + c for c in value[1:])
    return value


def _choice(value: str | None, allowed: tuple[str | None, ...]) -> str | None:
    if value not in allowed:
        raise _Unknown(value)
    return value


def _subpaths(d: str) -> list[tuple[tuple[tuple[float, float], ...], bool]]:
    """The subpaths of a path of straight segments (M, L, H, V, Z; relative or absolute): each its
    corners and whether it is closed; _Unknown for anything else (a curve, an arc)."""
    out: list[tuple[tuple[tuple[float, float], ...], bool]] = []
    points: list[tuple[float, float]] = []
    x = y = 0.0
    if not d.strip().startswith(("M", "m")):
        raise _Unknown("a path")
    for op, args in _PATH.findall(d.strip()):
        nums = [float(v) for v in _NUMBER.findall(args)]
        if op not in "MmLlHhVvZz" or _NUMBER.sub("", args).strip(" ,"):
            raise _Unknown("a path")
        if op in "Zz":
            if nums or len(points) < 3:
                raise _Unknown("a path")
            out.append((tuple(points), True))
            x, y = points[0]  # (SVG: the next subpath starts where this one did)
            points = []
            continue
        if op in "Mm" and points:
            out.append((tuple(points), False))
            points = []
        if (op not in "Mm" and not points) or not nums:
            raise _Unknown("a path")
        rel = op.islower() and bool(out or points)
        if op in "MmLl":
            if len(nums) % 2:
                raise _Unknown("a path")
            for k in range(0, len(nums), 2):
                x, y = (x + nums[k], y + nums[k + 1]) if rel or (op == "m" and k) else (nums[k], nums[k + 1])
                points.append((x, y))
                rel = op.islower()
        else:
            for v in nums:
                if op in "Hh":
                    x = x + v if op == "h" else v
                else:
                    y = y + v if op == "v" else v
                points.append((x, y))
    if points:
        out.append((tuple(points), False))

    def whole(v: float) -> float:
        return int(v) if v.is_integer() else v

    return [(tuple((whole(px), whole(py)) for px, py in pts), closed) for pts, closed in out]


def _path(a: dict[str, str]) -> list[Item]:
    """A path as primitives: one closed shape a :class:`Polygon`; open single segments with no fill
    (Caravelas' crosses: ``M x-4,y H x+4 M x,y-5 V y+5``, which enclose nothing to fill) each a
    :class:`Line` with a butt cap; _Unknown for any other (a curve, several shapes, an open
    shape that SVG would fill)."""
    parts = _subpaths(a["d"])
    if len(parts) == 1 and parts[0][1]:
        return [Polygon(parts[0][0], _colour(a.get("fill")), _colour(a["stroke"]) if "stroke" in a else None,
                        _opt(a, "stroke-width"), a.get("class"))]
    if a.get("fill", "none") != "none" or not all(not closed and len(pts) == 2 for pts, closed in parts):
        raise _Unknown("a path")
    stroke, width = _colour(a.get("stroke")), _opt(a, "stroke-width")
    return [Line(p[0][0], p[0][1], p[1][0], p[1][1], stroke, 1 if width is None else width, None, a.get("class"))
            for p, _c in parts]


def _points(value: str) -> tuple[tuple[float, float], ...]:
    nums = [float(v) for v in value.replace(",", " ").split()]
    if len(nums) % 2 or not nums:
        raise _Unknown("points")
    return tuple((int(x) if x.is_integer() else x, int(y) if y.is_integer() else y)
                 for x, y in zip(nums[::2], nums[1::2], strict=True))


def _dash(value: str | None) -> tuple[float, ...] | None:
    if value is None:
        return None
    dash = tuple(float(v) for v in value.replace(",", " ").split())
    if not dash or any(v < 0 for v in dash) or sum(dash) <= 0:
        raise _Unknown(value)
    return dash


def _item(tag: str, a: dict[str, str], body: str, sans: bool, viewport: tuple[float, float]) -> list[Item]:
    if set(a) - _ALLOWED[tag] - _SHARED:
        raise _Unknown(tag)
    if tag == "circle":
        return [Circle(_num(a, "cx"), _num(a, "cy"), _num(a, "r"), _colour(a.get("fill"), True),
                       _colour(a["stroke"]) if "stroke" in a else None, _opt(a, "stroke-width"), a.get("class"),
                       _dash(a.get("stroke-dasharray")))]
    if tag == "rect":
        if a.get("width") == a.get("height") == "100%" and "x" not in a and "y" not in a:
            # a background as a nested drawing's renderer wrote it: its viewport, from its (0, 0)
            a = {**a, "x": "0", "y": "0", "width": f"{viewport[0]:g}", "height": f"{viewport[1]:g}"}
        return [Rect(_num(a, "x"), _num(a, "y"), _num(a, "width"), _num(a, "height"), _colour(a.get("fill"), True),
                     _colour(a["stroke"]) if "stroke" in a else None, _opt(a, "rx"), a.get("class"),
                     _opt(a, "stroke-width"), _dash(a.get("stroke-dasharray")))]
    if tag == "line":
        return [Line(_num(a, "x1"), _num(a, "y1"), _num(a, "x2"), _num(a, "y2"), _colour(a.get("stroke")),
                     _num(a, "stroke-width"), _choice(a.get("stroke-linecap"), (None, "round")), a.get("class"),
                     _dash(a.get("stroke-dasharray")))]
    if tag == "polyline":
        if a.get("fill") != "none":
            raise _Unknown("a filled polyline")
        return [Polyline(_points(a["points"]), _colour(a.get("stroke")), _num(a, "stroke-width"),
                         _choice(a.get("stroke-linejoin"), (None, "round")),
                         _choice(a.get("stroke-linecap"), (None, "round")), a.get("class"),
                         _dash(a.get("stroke-dasharray")))]
    if tag == "polygon":
        points = _points(a["points"])
        if len(points) < 3:
            raise _Unknown("a polygon")
        return [Polygon(points, _colour(a.get("fill")), _colour(a["stroke"]) if "stroke" in a else None,
                        _opt(a, "stroke-width"), a.get("class"))]
    if tag == "path":
        return _path(a)
    if a.get("font-family", "sans-serif" if sans else None) != "sans-serif" or "<" in body:
        raise _Unknown("a text in another font")
    halo = _colour(a["stroke"]) if "stroke" in a else None
    if halo is not None and (a.get("paint-order") != "stroke" or a.get("stroke-linejoin") != "round"):
        raise _Unknown("a text stroked over its fill, or with sharp joins")
    if halo is None and {"stroke-width", "paint-order", "stroke-linejoin"} & set(a):
        raise _Unknown("a text's stroke")
    return [Text(_num(a, "x"), _num(a, "y"), html.unescape(body), _num(a, "font-size"), _colour(a.get("fill")),
                 str(_choice(a.get("text-anchor", "start"), ("start", "middle", "end"))),
                 _choice(a.get("font-weight"), (None, "normal", "bold")) == "bold",
                 _choice(a.get("font-style"), (None, "normal", "italic")) == "italic",
                 halo, (_num(a, "stroke-width") if "stroke-width" in a else 1) if halo else None)]


#: How many elements :func:`_element` keeps (a Maretta picture has about 100, Caravelas' some 400).
ELEMENTS_KEPT = 4096


@functools.lru_cache(maxsize=ELEMENTS_KEPT)
def _element(source: str, inherited: bool, viewport: tuple[float, float]) -> tuple[Item, ...]:
    """The primitives of one element's source (a shape, or a text with its body), as :func:`_item`
    reads them. Kept (issue 28): a mail picture is read once a position, and most of its elements
    (a board's spaces, their numbers and names, a map's coasts) come back unchanged from one
    position to the next; reading them was about a fifth of a Maretta picture's CPU. The primitives
    are frozen, so the same ones serve every drawing that has the element."""
    m = _ITEM.fullmatch(source)
    if m is None:  # (the caller matched it; a text's body cannot hold a "<")
        raise _Unknown(source)
    if m.group(1):
        return tuple(_item(m.group(1), dict(_ATTR.findall(m.group(2))), "", inherited, viewport))
    return tuple(_item("text", dict(_ATTR.findall(m.group(3))), m.group(4), inherited, viewport))


def forget() -> None:
    """Forgets the elements kept from drawings read before (for measuring, and the tests)."""
    _element.cache_clear()


def _window_open(a: dict[str, str]) -> tuple[float, float, float, float, tuple[float, float, float, float]]:
    if set(a) - _ALLOWED["svg"] or a.get("font-family", "sans-serif") != "sans-serif":
        raise _Unknown("a nested drawing")
    view = tuple(float(v) for v in a["viewBox"].split())
    if len(view) != 4 or view[2] <= 0 or view[3] <= 0:
        raise _Unknown("a viewBox")
    # (a viewBox of another shape than its box would be fitted inside it, centred: not read)
    if abs(view[2] / view[3] - _num(a, "width") / _num(a, "height")) > 0.01 * view[2] / view[3]:
        raise _Unknown("a viewBox of another shape")
    return (_num(a, "x"), _num(a, "y"), _num(a, "width"), _num(a, "height"),
            (view[0], view[1], view[2], view[3]))


def read(doc: str) -> Figure | None:
    """The primitives of a drawing written by :func:`document` (and :func:`engine.svg.smooth_text`),
    or of one written in the same few forms by hand (Maracaibo's), in order; None for any drawing
    with anything else in it, which is then drawn as an SVG."""
    root = _ROOT.match(doc)
    if root is None or not doc.endswith("</svg>"):
        return None
    extra = dict(_ATTR.findall(root.group(3)))
    if set(extra) - _ROOT_ATTRS or extra.get("font-family", "sans-serif") != "sans-serif":
        return None
    sans = extra.get("font-family") == "sans-serif"
    # each open drawing: its window's box (None for the root), its items so far, whether its texts
    # inherit sans-serif, and its viewport (its own units)
    stack: list[tuple[tuple[float, float, float, float, tuple[float, float, float, float]] | None,
                      list[Item], bool, tuple[float, float]]] = [(None, [], sans, (int(root.group(1)),
                                                                                    int(root.group(2))))]
    pos, end = root.end(), len(doc) - len("</svg>")
    try:
        while pos < end:
            m = _ITEM.match(doc, pos)
            if m is None:
                return None
            items, inherited, viewport = stack[-1][1], stack[-1][2], stack[-1][3]
            if m.group(1) or m.group(3) is not None:
                items += _element(m.group(0), inherited, viewport)
            elif m.group(5) is not None:
                a = dict(_ATTR.findall(m.group(5)))
                opened = _window_open(a)
                stack.append((opened, [], inherited or a.get("font-family") == "sans-serif",
                              (opened[4][2], opened[4][3])))
            else:
                box, inner, _s, _v = stack.pop()
                if box is None:
                    return None
                stack[-1][1].append(Window(*box[:4], box[4], tuple(inner)))
            pos = m.end()
    except (_Unknown, ValueError, KeyError, IndexError):
        return None
    if len(stack) != 1:
        return None
    smooth = extra.get("text-rendering", "optimizeSpeed") != "optimizeSpeed"
    return Figure(int(root.group(1)), int(root.group(2)), root.group(4), tuple(stack[0][1]), smooth)
