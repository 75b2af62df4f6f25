"""Tiny helpers for the SVG boards; no dependency, escaped text, stable output."""

from __future__ import annotations

import functools
import re
from xml.sax.saxutils import escape, quoteattr

#: colours for seats 0..5, readable on white and in print
SEAT_COLOURS = ("#7b3fa0", "#e0609a", "#e0b000", "#2f7fd0", "#3a9a4a", "#d0602a")


#: What ``quoteattr`` would change; a value without any of it is only wrapped in double quotes.
_NEEDS_QUOTING = re.compile(r"[&<>\"\n\r\t]")


@functools.lru_cache(maxsize=256)
def _attr_name(key: str) -> str:
    return key.rstrip("_").replace("_", "-")


def _quoted(v: object) -> str:
    # Why the fast paths: a board has thousands of attributes, nearly all numbers or plain
    # words, and quoteattr's replacements were most of a mail's render time. The output is
    # byte for byte what quoteattr gives.
    if type(v) is int or type(v) is float:
        return f'"{v}"'
    s = str(v)
    return quoteattr(s) if _NEEDS_QUOTING.search(s) else f'"{s}"'


def attrs(**kw: object) -> str:
    return " ".join(f"{_attr_name(k)}={_quoted(v)}" for k, v in kw.items() if v is not None)


def el(tag: str, body: str = "", **kw: object) -> str:
    a = attrs(**kw)
    return f"<{tag} {a}>{body}</{tag}>" if body else f"<{tag} {a}/>"


def text(x: float, y: float, s: str, size: int = 12, anchor: str = "middle", **kw: object) -> str:
    return el("text", escape(s), x=round(x, 1), y=round(y, 1), font_size=size, text_anchor=anchor,
              font_family="sans-serif", **kw)


def document(width: int, height: int, body: list[str], title: str = "", desc: str = "",
             focus: tuple[float, float] | None = None) -> str:
    """A drawing; ``desc``: its description (a mail picture's legend, which the mail prints as
    text under it: words weigh less as text than drawn, see engine.core.Rules.render_mail_svg);
    ``focus``: see :func:`focus_attr`."""
    head = (f"<title>{escape(title)}</title>" if title else "") + (f"<desc>{escape(desc)}</desc>" if desc else "")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}"{focus_attr(focus)}>{head}<rect width="100%" height="100%" fill="#fbf7ee"/>'
            + "".join(body) + "</svg>")


def _luminance(colour: str) -> float:
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)

    def lin(v: float) -> float:
        return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(int(c[i:i + 2], 16) / 255) for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """The WCAG 2 contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def ink_on(fill: str) -> str:
    """Black or white, whichever reads better on ``fill`` (a letter on a pawn, a number on a chip)."""
    return "#ffffff" if contrast("#ffffff", fill) >= contrast("#111111", fill) else "#111111"


@functools.lru_cache(maxsize=256)
def readable(colour: str, on: str = "#ffffff", ratio: float = 4.5) -> str:
    """``colour`` darkened just enough to read as text on ``on`` (WCAG's 4.5:1 for normal text):
    a seat's or a nation's colour kept recognisable for its name or label."""
    c = colour.lstrip("#")
    if len(c) == 3:
        c = "".join(ch * 2 for ch in c)
    rgb = [int(c[i:i + 2], 16) for i in (0, 2, 4)]
    out = "#" + c.lower()
    for step in range(21):
        out = "#" + "".join(f"{round(v * (1 - step / 20)):02x}" for v in rgb)
        if contrast(out, on) >= ratio:
            break
    return out


def text_width(s: str, size: float, bold: bool = False) -> float:
    """A generous estimate of a sans-serif text's width, for laying labels out."""
    return len(s) * size * (0.68 if bold else 0.62)


def wrap(words: str, size: float, room: float, bold: bool = False) -> list[str]:
    """``words`` cut at spaces into lines no wider than ``room`` at ``size`` (by text_width)."""
    out: list[str] = []
    line = ""
    for word in words.split(" "):
        test = f"{line} {word}" if line else word
        if line and text_width(test, size, bold) > room:
            out.append(line)
            line = word
        else:
            line = test
    return [*out, line] if line else out


_SIZE = re.compile(r'<text\b[^>]*?\sfont-size="([0-9.]+)"')
_WIDTH = re.compile(r'<svg\b[^>]*?\swidth="([0-9.]+)"')


def smallest_text(doc: str) -> float:
    """The smallest font size of a drawing's texts, in its own units (0 when it has none)."""
    sizes = [float(m) for m in _SIZE.findall(doc)]
    return min(sizes) if sizes else 0.0


def drawn_width(doc: str) -> float:
    """The ``width`` of a drawing's root element (0 when it has none)."""
    m = _WIDTH.search(doc[:600])
    return float(m.group(1)) if m else 0.0


#: What a mail's inline picture is drawn for (issue 10): a phone's 390 CSS px less the mail's
#: margins, so that the mail shows it at its own size there, and at most that wide elsewhere.
MAIL_WIDTH = 358
#: The smallest text of a mail picture, in its own px (so in CSS px where it is shown whole).
MAIL_TEXT = 11

_ROOT_TAG = re.compile(r"<svg\b([^>]*)>")


#: The root attribute of a mail picture whose text is drawn smoothed (anti-aliased) when a mail
#: renders it to PNG (issue 21: glyphs of 11-14 px drawn unsmoothed lost strokes, "Key Wesl",
#: "this tum"); its shapes stay unsmoothed, which keeps a picture's colours few.
SMOOTH_TEXT = 'text-rendering="optimizeLegibility"'


def smooth_text(doc: str) -> str:
    """``doc`` with its text drawn smoothed (:data:`SMOOTH_TEXT` on its root element)."""
    m = _ROOT_TAG.search(doc)
    if m is None or "text-rendering=" in m.group(1):
        return doc
    return doc[: m.end() - 1] + " " + SMOOTH_TEXT + doc[m.end() - 1:]
_DESC = re.compile(r"<desc>(.*?)</desc>", re.S)


def description(doc: str) -> str:
    """The text of a drawing's ``<desc>`` ("" when it has none)."""
    from xml.sax.saxutils import unescape

    m = _DESC.search(doc[:4000])
    return unescape(m.group(1)) if m else ""
_ROOT_SIZE = re.compile(r'\s(?:xmlns|width|height|viewBox)="[^"]*"')
_TITLE = re.compile(r"<title>.*?</title>", re.S)


def focus_attr(focus: tuple[float, float] | None, end: float | None = None) -> str:
    """The root attribute of a mail picture that says which rows matter most: its caption's height
    and the row of the reader's pieces, in px. A mail with too little room for the whole picture
    keeps those (pbem.mail.sending); without it, the picture's top part. ``end``: the row where the
    focused part ends when something follows it (Maracaibo's overview of the whole sea, under its own
    caption): a shortened picture shows nothing past it, so no caption stays without what it announces."""
    if not focus:
        return ""
    return f' data-focus="{round(focus[0])} {round(focus[1])}' + (f" {round(end)}" if end is not None else "") + '"'



def window(doc: str, box: tuple[float, float, float, float], width: float, top: float = 0) -> tuple[str, float]:
    """The part ``box`` (x, y, w, h, in the drawing's own units) of the drawing ``doc``, as an
    element to put in another drawing at (0, ``top``), ``width`` px wide; and its height in px.

    Why a nested drawing: the part is drawn at its own scale (a map's labels grow with it), and
    what lies outside it is clipped, while captions and a legend around it keep their own sizes.
    """
    m = _ROOT_TAG.match(doc)
    if m is None:
        raise ValueError("not an SVG drawing")
    x, y, w, h = box
    height = round(h * width / w, 1)
    inner = _DESC.sub("", _TITLE.sub("", doc[m.end(): doc.rfind("</svg>")], count=1), count=1)
    keep = _ROOT_SIZE.sub("", m.group(1))
    return (f'<svg x="0" y="{top}" width="{width}" height="{height}" viewBox="{round(x, 1)} {round(y, 1)} '
            f'{round(w, 1)} {round(h, 1)}"{keep}>{inner}</svg>'), height


def around(cx: float, cy: float, w: float, h: float, full_w: float, full_h: float) -> tuple[float, float, float, float]:
    """A box ``w`` by ``h`` centred on (cx, cy) as far as it stays inside a ``full_w`` by ``full_h`` drawing."""
    w, h = min(w, full_w), min(h, full_h)
    return (min(max(cx - w / 2, 0.0), full_w - w), min(max(cy - h / 2, 0.0), full_h - h), w, h)
