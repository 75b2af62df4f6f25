"""Tiny helpers for the SVG boards; no dependency, escaped text, stable output."""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

#: colours for seats 0..5, readable on white and in print
SEAT_COLOURS = ("#7b3fa0", "#e0609a", "#e0b000", "#2f7fd0", "#3a9a4a", "#d0602a")


def attrs(**kw: object) -> str:
    return " ".join(f"{k.rstrip('_').replace('_', '-')}={quoteattr(str(v))}" for k, v in kw.items() if v is not None)


def el(tag: str, body: str = "", **kw: object) -> str:
    a = attrs(**kw)
    return f"<{tag} {a}>{body}</{tag}>" if body else f"<{tag} {a}/>"


def text(x: float, y: float, s: str, size: int = 12, anchor: str = "middle", **kw: object) -> str:
    return el("text", escape(s), x=round(x, 1), y=round(y, 1), font_size=size, text_anchor=anchor,
              font_family="sans-serif", **kw)


def document(width: int, height: int, body: list[str], title: str = "") -> str:
    head = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}">{head}<rect width="100%" height="100%" fill="#fbf7ee"/>'
            + "".join(body) + "</svg>")
