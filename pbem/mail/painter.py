"""A mail picture made of :mod:`engine.figure`'s primitives, painted by Pillow straight onto a palette.

Why (issue 28): resvg drew Maretta's board as an RGBA PNG (its canvas and that PNG about 5 ms
whatever was drawn), which Pillow decoded, put on a palette and wrote again (4-5 ms), a render
about 22 ms in all. Painted here, each shape in its own palette entry of a canvas that holds
palette indices, the picture is written once, with no colour to choose and no quantizing.

What it draws as resvg did for a mail (``shape_rendering="optimize_speed"``): shapes with hard
edges (a board of a score of colours, one byte a pixel, which keeps a picture within a mail's
room), and text smoothed when the picture asks (``engine.svg.SMOOTH_TEXT``): a glyph's edge
pixels get one of two tones between its ink and what lies under it (a third and two thirds of
the ink), each tone an entry of the palette. A stroke lies across the shape's outline, as in SVG.
Labels are drawn by the same FreeType fonts as before (:mod:`pbem.mail.labels`).
"""

from __future__ import annotations

import copy
import functools
import io
import itertools
import math
from collections.abc import Sequence
from typing import Any, NamedTuple

from PIL import Image, ImageChops

from engine import figure
from engine.figure import Circle, Figure, Line, Polygon, Polyline, Rect, Text, Window
from pbem.mail import labels

#: The most colours a picture keeps (``sending.PNG_COLOURS``): the drawing's own, exact, then the
#: tones of its labels' edges as long as there is room, and after that the nearest colour kept.
MAX_COLOURS = 32
#: (palette index + TONE_STEP * tone) fits a byte (see :meth:`_Canvas.text`).
TONE_STEP = 64
#: A glyph pixel's coverage (0-255) as a tone: 0 nothing, 1 a third of the ink, 2 two thirds, 3 the ink.
_TONE_OF = [min(3, (c * 3 + 127) // 255) * TONE_STEP for c in range(256)]
_HARD = [3 * TONE_STEP if c >= 128 else 0 for c in range(256)]
#: The least coverage of each tone (where ``_TONE_OF`` steps up).
_LEAST = {1: 43, 2: 128, 3: 213}


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


class _Canvas:
    mode = "L"  # palette indices, made a palette image when written

    def __init__(self, fig: Figure, width: int) -> None:
        from PIL import Image, ImageDraw

        self.k = width / fig.width
        self.ox = self.oy = 0.0  # where the drawing's (0, 0) lies, in px (a window's own)
        self.colours: list[tuple[int, int, int]] = []
        self.index: dict[tuple[int, int, int], int] = {}
        self.named: dict[str, int] = {}
        self.image = Image.new(self.mode, (width, max(1, round(fig.height * self.k))), self.ink(fig.background))
        self.pen = ImageDraw.Draw(self.image)
        self.smooth = fig.smooth_text
        #: (ink, ground) -> the palette entries of a glyph's three tones in that ink over that ground
        self.tones: dict[tuple[int, int], tuple[int, int, int]] = {}

    def ink(self, colour: str | tuple[int, int, int]) -> int:
        at = self.named.get(colour) if isinstance(colour, str) else None
        if at is not None:
            return at
        rgb = _rgb(colour) if isinstance(colour, str) else colour
        at = self.index.get(rgb)
        if at is None:
            if len(self.colours) >= MAX_COLOURS:
                raise OverflowError("more colours than a mail picture's palette keeps")
            at = self.index[rgb] = len(self.colours)
            self.colours.append(rgb)
        if isinstance(colour, str):
            self.named[colour] = at
        return at

    @staticmethod
    def _box(cx: float, cy: float, r: float) -> tuple[int, int, int, int]:
        """The pixels whose centres lie inside the circle, as SVG's hard-edged rendering fills them."""
        return (math.floor(cx - r - 0.5) + 1, math.floor(cy - r - 0.5) + 1,
                math.ceil(cx + r - 0.5) - 1, math.ceil(cy + r - 0.5) - 1)

    def disc(self, cx: float, cy: float, r: float, colour: int) -> None:
        if r > 0:
            self.pen.ellipse(self._box(cx, cy, r), fill=colour)

    def circle(self, c: Circle) -> None:
        k = self.k
        cx, cy, r = c.cx * k + self.ox, c.cy * k + self.oy, c.r * k
        if c.stroke and c.dash:
            if c.fill != "none":
                self.disc(cx, cy, r, self.ink(c.fill))
            self._dashed_ring(cx, cy, r, (1.0 if c.stroke_width is None else c.stroke_width) * k / 2,
                              tuple(d * k for d in c.dash), self.ink(c.stroke))
            return
        if not c.stroke:
            if c.fill != "none":
                self.disc(cx, cy, r, self.ink(c.fill))
            return
        half = (1.0 if c.stroke_width is None else c.stroke_width) * k / 2
        outer, inner = self._box(cx, cy, r + half), self._box(cx, cy, r - half)
        width = max(1, inner[0] - outer[0])  # SVG's stroke straddles the outline
        self.pen.ellipse(outer, fill=None if c.fill == "none" else self.ink(c.fill), outline=self.ink(c.stroke),
                         width=width)

    def _dashed_ring(self, cx: float, cy: float, r: float, half: float, dash: tuple[float, ...], ink: Any) -> None:
        """A circle's dashed stroke (px): its ring as the solid stroke fills it, kept where a dash
        lies, each dash a wedge from (cx + r, cy) on clockwise, as SVG lays a circle's dashes."""
        from PIL import Image, ImageDraw

        outer, inner = self._box(cx, cy, r + half), self._box(cx, cy, r - half)
        size = (outer[2] - outer[0] + 1, outer[3] - outer[1] + 1)
        if size[0] <= 0 or size[1] <= 0 or r <= 0:
            return
        ring = Image.new("L", size, 0)
        pen = ImageDraw.Draw(ring)
        pen.ellipse((0, 0, size[0] - 1, size[1] - 1), fill=255)
        if inner[2] >= inner[0] and inner[3] >= inner[1]:
            pen.ellipse((inner[0] - outer[0], inner[1] - outer[1], inner[2] - outer[0], inner[3] - outer[1]), fill=0)
        wedges = Image.new("L", size, 0)
        wpen = ImageDraw.Draw(wedges)
        ccx, ccy, big = cx - 0.5 - outer[0], cy - 0.5 - outer[1], r + half + 2
        pattern = dash * (2 if len(dash) % 2 else 1)
        around, at, n = 2 * math.pi * r, 0.0, 0
        while at < around:
            stop = min(around, at + pattern[n % len(pattern)])
            if stop > at:
                wpen.pieslice((ccx - big, ccy - big, ccx + big, ccy + big), math.degrees(at / r),
                              math.degrees(stop / r), fill=255)
            at = stop + pattern[(n + 1) % len(pattern)]
            n += 2
        self.image.paste(ink, outer[:2], ImageChops.multiply(ring, wedges))

    def _outline(self, r: Rect) -> list[tuple[float, float]]:
        """A rectangle's outline (px) as SVG runs it: from (x + rx, y) clockwise, each rounded
        corner a few straight steps, back to its start."""
        k = self.k
        x0, y0 = r.x * k + self.ox, r.y * k + self.oy
        x1, y1 = x0 + r.width * k, y0 + r.height * k
        rad = min((r.rx or 0) * k, r.width * k / 2, r.height * k / 2)
        if rad <= 0:
            return [(x0, y0), (x1, y0), (x1, y1), (x0, y1), (x0, y0)]
        out: list[tuple[float, float]] = []
        for (cx, cy), turn in (((x1 - rad, y0 + rad), -90), ((x1 - rad, y1 - rad), 0), ((x0 + rad, y1 - rad), 90),
                               ((x0 + rad, y0 + rad), 180)):
            for step in range(7):
                a = math.radians(turn + 15 * step)
                out.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
        return [(x0 + rad, y0), *out, (x0 + rad, y0)]

    def _dashed(self, points: list[tuple[float, float]], dash: tuple[float, ...], colour: str, width: float,
                join: str | None, cap: str | None) -> None:
        """A stroke along ``points`` (px) in dashes (``dash`` in px), each stroked as a line of its own."""
        for piece in _runs(points, dash):
            self._stroke(piece, colour, width, join, cap)

    def rect(self, r: Rect) -> None:
        if r.fill == "none" or r.dash:
            self._outlined_rect(r)
            return
        if r.stroke and r.stroke_width is not None:
            self._stroked_rect(r)
            return
        k = self.k
        # hard-edged, SVG fills the pixels whose centres are inside; a stroke of 1 straddling the
        # outline adds the row and the column past the far edges
        grow = 0 if r.stroke else 1
        x, y = r.x * k + self.ox, r.y * k + self.oy
        box = (round(x), round(y), round(x + r.width * k) - grow, round(y + r.height * k) - grow)
        fill = self.ink(r.fill)
        stroke = self.ink(r.stroke) if r.stroke else None
        if r.rx:
            # its shape drawn once (Pillow's rounded_rectangle is dear), then pasted in its colours
            fill_mask, stroke_mask = _rounded(box[2] - box[0] + 1, box[3] - box[1] + 1, round(r.rx * k),
                                              max(1, round(k)) if r.stroke else 0)
            self.image.paste(fill, box[:2], fill_mask)
            if stroke is not None:
                self.image.paste(stroke, box[:2], stroke_mask)
        else:
            self.pen.rectangle(box, fill=fill, outline=stroke, width=max(1, round(k)))

    @staticmethod
    def _inside(x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        """The pixels whose centres lie inside the box (hard-edged SVG), as Pillow's inclusive box."""
        return math.floor(x0 - 0.5) + 1, math.floor(y0 - 0.5) + 1, math.ceil(x1 - 0.5) - 1, math.ceil(y1 - 0.5) - 1

    def _outlined_rect(self, r: Rect) -> None:
        """A rectangle with no fill, or a dashed stroke: its fill inside its outline, then its
        stroke along the outline, dash by dash."""
        if r.fill != "none":
            self._stroked_rect(Rect(r.x, r.y, r.width, r.height, r.fill, None, r.rx, r.cls, 0))
        if not r.stroke:
            return
        from PIL import Image, ImageDraw

        k = self.k
        half = (1.0 if r.stroke_width is None else r.stroke_width) * k / 2
        x0, y0 = r.x * k + self.ox, r.y * k + self.oy
        x1, y1 = x0 + r.width * k, y0 + r.height * k
        radius = min((r.rx or 0) * k, r.width * k / 2, r.height * k / 2)
        # the stroke's ring as a solid stroke fills it (see _stroked_rect) ...
        outer = self._inside(x0 - half, y0 - half, x1 + half, y1 + half)
        size = (outer[2] - outer[0] + 1, outer[3] - outer[1] + 1)
        if size[0] <= 0 or size[1] <= 0:
            return
        ring = Image.new("L", size, 0)
        rad = round(radius + half) if radius else 0
        ring.paste(255, (0, 0, size[0], size[1]), _rounded(size[0], size[1], rad, 0)[0] if rad else None)
        inner = self._inside(x0 + half, y0 + half, x1 - half, y1 - half)
        if inner[2] >= inner[0] and inner[3] >= inner[1]:
            rad = round(max(0.0, radius - half)) if radius else 0
            box = (inner[0] - outer[0], inner[1] - outer[1], inner[2] - outer[0] + 1, inner[3] - outer[1] + 1)
            ring.paste(0, box, _rounded(box[2] - box[0], box[3] - box[1], rad, 0)[0] if rad else None)
        if r.dash:  # ... kept where a dash lies: a band a little wider than the stroke along each
            keep = Image.new("L", size, 0)
            pen = ImageDraw.Draw(keep)
            wide = half + 1.5
            shift = (outer[0] + 0.5, outer[1] + 0.5)  # Pillow's (0, 0) is a pixel's centre
            for run in _runs(self._outline(r), tuple(d * k for d in r.dash)):
                piece = [(x - shift[0], y - shift[1]) for x, y in run]
                last = len(piece) - 2
                for n, ((ax, ay), (bx, by)) in enumerate(itertools.pairwise(piece)):
                    length = math.hypot(bx - ax, by - ay)
                    if length:
                        ux, uy = (bx - ax) / length, (by - ay) / length
                        # run on a little past a corner of the outline (its rounded corner's steps of
                        # 15 degrees), not past the dash's own ends
                        back, ahead = (0.8 if n > 0 else 0.0), (0.8 if n < last else 0.0)
                        ax, ay, bx, by = ax - ux * back, ay - uy * back, bx + ux * ahead, by + uy * ahead
                        nx, ny = -uy * wide, ux * wide
                        pen.polygon([(ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)],
                                    fill=255)
            ring = ImageChops.multiply(ring, keep)
        self.image.paste(self.ink(r.stroke), outer[:2], ring)

    def _stroked_rect(self, r: Rect) -> None:
        """A rectangle whose stroke has its own width: the stroke's outer edge filled in its colour,
        then the inside of its inner edge in the fill's (SVG's stroke straddles the outline)."""
        k = self.k
        half = (r.stroke_width or 0) * k / 2
        x0, y0 = r.x * k + self.ox, r.y * k + self.oy
        x1, y1 = x0 + r.width * k, y0 + r.height * k
        radius = (r.rx or 0) * k
        for colour, grow in ((r.stroke, half), (r.fill, -half)):
            if not colour or colour == "none":
                continue
            box = self._inside(x0 - grow, y0 - grow, x1 + grow, y1 + grow)
            if box[2] < box[0] or box[3] < box[1]:
                continue
            ink = self.ink(colour)
            rad = round(max(0.0, radius + grow)) if radius else 0
            if rad:
                mask, _ = _rounded(box[2] - box[0] + 1, box[3] - box[1] + 1, rad, 0)
                self.image.paste(ink, box[:2], mask)
            else:
                self.pen.rectangle(box, fill=ink)

    def polygon(self, p: Polygon) -> None:
        k = self.k
        points = [(x * k + self.ox, y * k + self.oy) for x, y in p.points]
        # Pillow fills the pixels whose centres lie inside, shifted by half a pixel: its (0, 0) is a
        # pixel's centre where SVG's is a pixel's corner
        self.pen.polygon([(x - 0.5, y - 0.5) for x, y in points], fill=self.ink(p.fill))
        if p.stroke:
            self._stroke([*points, points[0], points[1]], p.stroke,
                         1.0 if p.stroke_width is None else p.stroke_width, None, None)

    def window(self, w: Window) -> None:
        """The window's items painted on its own part of the canvas at its own scale, clipped there."""
        k = self.k
        box = (round(w.x * k + self.ox), round(w.y * k + self.oy), round((w.x + w.width) * k + self.ox),
               round((w.y + w.height) * k + self.oy))
        if box[2] <= box[0] or box[3] <= box[1]:
            return
        inner = copy.copy(self)
        inner.image = self.image.crop(box)
        inner.pen = _draw(inner.image)
        inner.k = k * w.width / w.view[2]
        inner.ox = w.x * k + self.ox - box[0] - w.view[0] * inner.k
        inner.oy = w.y * k + self.oy - box[1] - w.view[1] * inner.k
        for item in _shown(w):
            getattr(inner, PAINTERS[type(item)])(item)
        self.image.paste(inner.image, box[:2])

    def _stroke(self, points: list[tuple[float, float]], colour: str, width: float, join: str | None,
                cap: str | None) -> None:
        """A stroke along ``points`` as SVG draws it hard-edged: each segment a band ``width`` wide
        centred on it (Pillow's own wide line falls half a pixel off, one way or the other by the
        segment's direction), round joins and caps as discs, a miter join of square turns as the
        bands run on by half the width."""
        ink, half = self.ink(colour), width * self.k / 2
        last = len(points) - 2
        for n, ((x1, y1), (x2, y2)) in enumerate(itertools.pairwise(points)):
            length = math.hypot(x2 - x1, y2 - y1)
            if length == 0:
                continue
            ux, uy = (x2 - x1) / length, (y2 - y1) / length
            back = half if (n > 0 and join != "round") else 0.0
            ahead = half if (n < last and join != "round") else 0.0
            x1, y1, x2, y2 = x1 - ux * back, y1 - uy * back, x2 + ux * ahead, y2 + uy * ahead
            if x1 == x2 or y1 == y2:  # square to the pixels: the pixels whose centres are inside
                lo_x, hi_x = min(x1, x2) - (half if x1 == x2 else 0), max(x1, x2) + (half if x1 == x2 else 0)
                lo_y, hi_y = min(y1, y2) - (half if y1 == y2 else 0), max(y1, y2) + (half if y1 == y2 else 0)
                x0, y0, x1, y1 = self._inside(lo_x, lo_y, hi_x, hi_y)
                # a stroke thinner than a pixel that covers no pixel's centre: the pixels it runs
                # through (resvg draws such a hairline one pixel wide)
                if x1 < x0:
                    x0 = x1 = math.floor((lo_x + hi_x) / 2)
                if y1 < y0:
                    y0 = y1 = math.floor((lo_y + hi_y) / 2)
                self.pen.rectangle((x0, y0, x1, y1), fill=ink)
            else:
                nx, ny = -uy * half, ux * half
                self.pen.polygon([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny), (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)],
                                 fill=ink)
        if join == "round":
            for x, y in points[1:-1]:
                self.disc(x, y, half, ink)
        if cap == "round":
            for x, y in (points[0], points[-1]):
                self.disc(x, y, half, ink)

    def line(self, ln: Line) -> None:
        k, ox, oy = self.k, self.ox, self.oy
        if not ln.dash:
            self._stroke([(ln.x1 * k + ox, ln.y1 * k + oy), (ln.x2 * k + ox, ln.y2 * k + oy)], ln.stroke,
                         ln.stroke_width, None, ln.linecap)
            return
        # dashed: each dash a line of its own, from the line's start (SVG's dash offset 0)
        length = math.hypot(ln.x2 - ln.x1, ln.y2 - ln.y1)
        if length == 0:
            return
        ux, uy = (ln.x2 - ln.x1) / length, (ln.y2 - ln.y1) / length
        dash = ln.dash * (2 if len(ln.dash) % 2 else 1)
        at, n = 0.0, 0
        while at < length:
            on = dash[n % len(dash)]
            stop = min(length, at + on)
            if stop > at:
                self._stroke([((ln.x1 + ux * at) * k + ox, (ln.y1 + uy * at) * k + oy),
                              ((ln.x1 + ux * stop) * k + ox, (ln.y1 + uy * stop) * k + oy)], ln.stroke,
                             ln.stroke_width, None, ln.linecap)
            at = stop + dash[(n + 1) % len(dash)]
            n += 2

    def polyline(self, p: Polyline) -> None:
        k = self.k
        if not p.points:
            return
        points = [(x * k + self.ox, y * k + self.oy) for x, y in p.points]
        if p.dash:
            self._dashed(points, tuple(d * k for d in p.dash), p.stroke, p.stroke_width, p.linejoin, p.linecap)
        else:
            self._stroke(points, p.stroke, p.stroke_width, p.linejoin, p.linecap)

    def _tones(self, ink: int, ground: int) -> tuple[int, int, int]:
        """The palette entries of a glyph's tones 1-3 in ``ink`` over ``ground``: a third of the
        ink and two thirds (each a blend of both, an entry of its own while the palette has room,
        then the nearest kept), and the ink. Found once a picture for each ink and ground."""
        tones = self.tones.get((ink, ground))
        if tones is None:
            (r, g, b), (ur, ug, ub) = self.colours[ink], self.colours[ground]
            one, two = (self._entry((round(ur + (r - ur) * a), round(ug + (g - ug) * a), round(ub + (b - ub) * a)))
                        for a in (1 / 3, 2 / 3))
            tones = self.tones[(ink, ground)] = (one, two, ink)
        return tones

    def _entry(self, rgb: tuple[int, int, int]) -> int:
        """The palette entry of ``rgb``, added while there is room, else the nearest kept."""
        try:
            return self.ink(rgb)
        except OverflowError:
            r, g, b = rgb
            distances = [(c - r) ** 2 + (d - g) ** 2 + (e - b) ** 2 for c, d, e in self.colours]
            return distances.index(min(distances))

    def text(self, t: Text) -> None:
        k = self.k
        x, y = t.x * k + self.ox, t.y * k + self.oy
        ix, iy = math.floor(x), math.floor(y)
        outlines = t.halo is not None
        if t.halo:  # the halo first, under the glyphs (paint-order="stroke")
            self._label(ix, iy, (t.text, t.size * k, t.bold, t.anchor, x - ix, y - iy, self.smooth, t.italic,
                                 (t.halo_width or 1.0) * k / 2, outlines), t.halo)
        self._label(ix, iy, (t.text, t.size * k, t.bold, t.anchor, x - ix, y - iy, self.smooth, t.italic, 0.0,
                             outlines), t.fill)

    def _label(self, ix: int, iy: int, key: _GlyphsKey, colour: str) -> None:
        """A label's glyphs (:func:`_glyphs` of ``key``, drawn from the pixel (ix, iy)) painted in ``colour``."""
        glyphs = _glyphs(*key)
        if glyphs.mask is None:
            return
        x0, y0 = ix + glyphs.dx, iy + glyphs.dy
        box = (x0, y0, x0 + glyphs.toned.width, y0 + glyphs.toned.height)
        ink = self.ink(colour)
        ground = self.image.crop(box)
        low, high = ground.getextrema()
        if low == high and x0 >= 0 and y0 >= 0 and box[2] <= self.image.width and box[3] <= self.image.height:
            # one colour under the label (nearly always): the glyphs inked in its tones once
            # (kept), pasted through the mask of every inked pixel
            self.image.paste(_inked(key, *self._tones(ink, int(low))), box, glyphs.mask)  # type: ignore[arg-type]
            return
        # each pixel its ground's index + TONE_STEP * its tone, then each such value's entry
        both = ImageChops.add(ground, glyphs.toned)
        values: list[Any] = [v for _n, v in both.getcolors(256) or []]  # an "L" image: each an int
        table = list(range(256))
        for g in sorted({v % TONE_STEP for v in values if v >= TONE_STEP}):  # the grounds under inked pixels
            table[g + TONE_STEP], table[g + 2 * TONE_STEP], table[g + 3 * TONE_STEP] = self._tones(ink, g)
        self.image.paste(both.point(_Lut(table)), box)

    def png(self) -> bytes:
        image = self.image
        image.putpalette([channel for rgb in self.colours for channel in rgb])  # "L" becomes "P", indices kept
        out = io.BytesIO()
        image.save(out, "PNG", compress_level=6)
        return out.getvalue()


class _FullColour(_Canvas):
    """The same drawing in full colour, its text smoothed with every tone FreeType gives (what a
    reader would see with no palette: the measure of the palette's tones in the tests)."""

    mode = "RGB"

    def ink(self, colour: str | tuple[int, int, int]) -> tuple[int, int, int]:  # type: ignore[override]
        return _rgb(colour) if isinstance(colour, str) else colour

    def text(self, t: Text) -> None:
        k = self.k
        x, y = t.x * k + self.ox, t.y * k + self.oy
        if t.halo:  # drawn from its outlines, as the palette's canvas draws it: each coverage its mask
            ix, iy = math.floor(x), math.floor(y)
            for colour, stroke in ((t.halo, (t.halo_width or 1.0) * k / 2), (t.fill, 0.0)):
                glyphs = _glyphs(t.text, t.size * k, t.bold, t.anchor, x - ix, y - iy, self.smooth, t.italic,
                                 stroke, True)
                self.image.paste(self.ink(colour), (ix + glyphs.dx, iy + glyphs.dy), glyphs.cover)
            return
        self.pen.fontmode = "L" if self.smooth else "1"
        self.pen.text((x, y), t.text, fill=self.ink(t.fill), font=_face(t.bold, t.italic, t.size * k),
                      anchor=labels.ANCHORS[t.anchor])


#: The oblique faces of the labels' family (an italic label: Caravelas' winds), as resvg finds them.
OBLIQUE_FILES = {False: "DejaVuSans-Oblique.ttf", True: "DejaVuSans-BoldOblique.ttf"}


@functools.lru_cache(maxsize=64)
def _face(bold: bool, italic: bool, size: float) -> Any:
    """The label's face; an italic one upright where the system lacks the oblique face (resvg
    then draws it upright too: it picks the family's nearest face)."""
    if italic:
        from PIL import ImageFont

        try:
            return ImageFont.truetype(OBLIQUE_FILES[bold], size)
        except OSError:
            pass
    return labels.font(bold, size)


#: How much larger a label drawn from its outlines is drawn before it is averaged down (FreeType's
#: hinting, which snaps a glyph's edges to the pixels, matters little at 4 times the size).
OUTLINE_SCALE = 4


class Glyphs(NamedTuple):
    """A label drawn within its pixel (:func:`_glyphs`)."""

    dx: int  # where its tile starts from that pixel
    dy: int
    cover: Any  # the glyphs' coverage (0-255), an "L" image
    toned: Any  # each pixel's tone times TONE_STEP (``_TONE_OF`` of its coverage, or ``_HARD``)
    mask: Any  # a "1" image of the pixels of any tone; None when it has none (nothing to draw)


@functools.lru_cache(maxsize=4096)
def _glyphs(words: str, size: float, bold: bool, anchor: str, fx: float, fy: float, smooth: bool,
            italic: bool = False, stroke: float = 0.0, outlines: bool = False) -> Glyphs:
    """A label drawn at (fx, fy) within its pixel: the tile of its glyphs' coverage, its tones and
    the mask of its inked pixels (:class:`Glyphs`); with ``stroke``, the coverage of its glyphs'
    outline stroked that far out (px, round joins: a halo). Kept: the same labels come back from
    one position to the next (the spaces' numbers, the names), and a new one costs its layout.

    ``outlines``: drawn as resvg draws a label, from its glyphs' outlines as they are, rather
    than hinted by FreeType (crisper, but its edges a pixel off resvg's here and there): drawn
    :data:`OUTLINE_SCALE` times larger and averaged down. Why for a haloed label alone (Caravelas'
    map, issue 28): hinted, its bold names of 14 px put 2-4 % of a picture's pixels far from
    what resvg drew (1-1.5 % so); Maretta's and Maracaibo's labels, which have no halo, keep
    the hinted glyphs they were measured with."""
    from PIL import ImageDraw

    scale = OUTLINE_SCALE if outlines else 1
    face = _face(bold, italic, size * scale)
    pillow_anchor = labels.ANCHORS[anchor]
    left, top, right, bottom = (v / scale for v in _bbox(bold, italic, size * scale, words, pillow_anchor,
                                                         stroke * scale))
    dx, dy = math.floor(fx + left) - 1, math.floor(fy + top) - 1
    width, height = math.ceil(fx + right) + 1 - dx, math.ceil(fy + bottom) + 1 - dy
    cover = Image.new("L", (max(1, width) * scale, max(1, height) * scale), 0)
    pen = ImageDraw.Draw(cover)
    pen.fontmode = "L" if smooth or outlines else "1"
    pen.text(((fx - dx) * scale, (fy - dy) * scale), words, fill=255, font=face, anchor=pillow_anchor,
             stroke_width=stroke * scale, stroke_fill=255)
    if outlines:
        cover = cover.reduce(scale)
    least = _LEAST[1] if smooth else 128  # the least coverage inked
    # (cover + cover) / 2 + 128 - least, clipped, is 128 or more where cover >= least ("1": >= 128)
    mask = ImageChops.add(cover, cover, scale=2.0, offset=128 - least).convert("1", dither=Image.Dither.NONE)
    return Glyphs(dx, dy, cover, cover.point(_Lut(_TONE_OF if smooth else _HARD)),
                  mask if mask.getbbox() is not None else None)


@functools.lru_cache(maxsize=4096)
def _bbox(bold: bool, italic: bool, size: float, words: str, anchor: str, stroke: float) -> tuple[float, ...]:
    """Where a label's ink lies around its anchor (px; Pillow's anchor). Kept apart from
    :func:`_glyphs` (issue 28): it is the same from whatever fraction of a pixel the label starts,
    and a label met at a new fraction (Caravelas' names as the map's part moves with the reader's
    ship) would cost its layout twice."""
    return tuple(_face(bold, italic, size).getbbox(words, anchor=anchor, stroke_width=stroke))


#: What :func:`_glyphs` draws a label from: its text, size (px), bold, anchor, where it starts
#: within its pixel (x, y), smoothed, italic, its halo's stroke (px), drawn from its outlines.
_GlyphsKey = tuple[str, float, bool, str, float, float, bool, bool, float, bool]


@functools.lru_cache(maxsize=4096)
def _inked(key: _GlyphsKey, tone1: int, tone2: int, tone3: int) -> Any:
    """A label's glyphs (:func:`_glyphs` of ``key``) as palette indices, each pixel its tone's
    entry (``tone1``-``tone3``): pasted through the mask of its inked pixels, the same pixels as
    each tone pasted through the mask of its own pixels. Why kept (issue 28): one paste of a kept
    tile instead of three; a board's labels come back over the same ground and ink from one
    position to the next."""
    table = [0] * 256
    table[TONE_STEP], table[2 * TONE_STEP], table[3 * TONE_STEP] = tone1, tone2, tone3
    return _glyphs(*key).toned.point(_Lut(table))


class _Lut(Image.ImagePointHandler):
    """A lookup table of whole numbers for ``Image.point``, applied as it stands. Why (issue 28):
    given a list, Pillow rounds each of its 256 entries in Python on every call (about 40 of a
    small label's 45 µs here; a Caravelas picture made some 20 such calls)."""

    def __init__(self, table: list[int]) -> None:
        self.table = table

    def point(self, im: Image.Image) -> Image.Image:
        return im._new(im.im.point(self.table, None))


def _runs(points: list[tuple[float, float]], dash: tuple[float, ...]) -> list[list[tuple[float, float]]]:
    """The dashes of a stroke along ``points`` (SVG's dasharray ``dash``, in the points' units: on,
    off, ..., from the start, running on across the corners), each the points it runs through."""
    pattern = dash * (2 if len(dash) % 2 else 1)
    runs: list[list[tuple[float, float]]] = []
    run, n, left, on = [points[0]], 0, pattern[0], True
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        length = math.hypot(x2 - x1, y2 - y1)
        at = 0.0
        while length - at > left:
            at += left
            here = (x1 + (x2 - x1) * at / length, y1 + (y2 - y1) * at / length)
            if on:
                runs.append([*run, here])
            run, on, n = [here], not on, n + 1
            left = pattern[n % len(pattern)]
        left -= length - at
        if on:
            run.append((x2, y2))
    if on and len(run) > 1:
        runs.append(run)
    return runs


@functools.lru_cache(maxsize=256)
def _rounded(width: int, height: int, radius: int, stroke: int) -> tuple[Any, Any]:
    """A rounded rectangle's masks (0 or 255): its inside, and its outline ``stroke`` px wide."""
    from PIL import Image, ImageDraw

    shape = Image.new("L", (width, height), 0)
    ImageDraw.Draw(shape).rounded_rectangle((0, 0, width - 1, height - 1), radius=radius, fill=1,
                                            outline=2 if stroke else None, width=max(1, stroke))
    return (shape.point(_Lut([255 if v == 1 else 0 for v in range(256)])),
            shape.point(_Lut([255 if v == 2 else 0 for v in range(256)])))


#: The painter of each primitive kind (as engine.figure.WRITERS writes each).
PAINTERS = {Circle: "circle", Rect: "rect", Line: "line", Polyline: "polyline", Polygon: "polygon", Text: "text",
            Window: "window"}


def _draw(image: Any) -> Any:
    from PIL import ImageDraw

    return ImageDraw.Draw(image)


def _texts(items: tuple[figure.Item, ...]) -> list[Text]:
    """The labels of the items, a window's within it."""
    out: list[Text] = []
    for item in items:
        if isinstance(item, Window):
            out += _texts(item.items)
        elif isinstance(item, Text):
            out.append(item)
    return out


def _colours(items: Sequence[figure.Item]) -> list[str]:
    """The colours the items name, in drawing order, a window's within it."""
    out: list[str] = []
    for item in items:
        if isinstance(item, Window):
            out += _colours(item.items)
            continue
        for colour in (getattr(item, "fill", None), getattr(item, "stroke", None), getattr(item, "halo", None)):
            if colour is not None and colour != "none":
                out.append(colour)
    return out


@functools.lru_cache(maxsize=figure.ELEMENTS_KEPT)
def _reach(item: figure.Item) -> tuple[float, float, float, float]:
    """A box (its drawing's units) that holds everything the item paints, generously: strokes
    (miter joins), a label's glyphs by a wide estimate of its width, its halo. Kept (issue 28):
    a map's items come back from one picture to the next (:func:`engine.figure.read` keeps them),
    each tested against every picture's view, and hashing one costs a third of finding its box."""
    if isinstance(item, Window):
        return item.x, item.y, item.x + item.width, item.y + item.height
    if isinstance(item, Text):
        wide = len(item.text) * item.size * 0.8 + 2 * (item.halo_width or 0) + 2
        x0 = item.x - {"start": 0.0, "middle": wide / 2, "end": wide}.get(item.anchor, wide)
        pad = (item.halo_width or 0) + 2
        return x0 - pad, item.y - item.size * 1.2 - pad, x0 + wide + pad, item.y + item.size * 0.5 + pad
    pad = 2 * (getattr(item, "stroke_width", None) or 1) + 2
    if isinstance(item, Circle):
        return item.cx - item.r - pad, item.cy - item.r - pad, item.cx + item.r + pad, item.cy + item.r + pad
    if isinstance(item, Rect):
        return item.x - pad, item.y - pad, item.x + item.width + pad, item.y + item.height + pad
    if isinstance(item, Line):
        return (min(item.x1, item.x2) - pad, min(item.y1, item.y2) - pad, max(item.x1, item.x2) + pad,
                max(item.y1, item.y2) + pad)
    xs, ys = [x for x, _y in item.points], [y for _x, y in item.points]
    return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad


def _shown(w: Window) -> list[figure.Item]:
    """The window's items that paint anything inside its view (a mail's part of a whole map: the
    rest is clipped away, so not painted; the same pixels, some 380 items of Caravelas' map fewer
    to paint)."""
    vx, vy, vw, vh = w.view
    out = []
    for item in w.items:
        x0, y0, x1, y1 = _reach(item)
        if x0 < vx + vw and x1 > vx and y0 < vy + vh and y1 > vy:
            out.append(item)
    return out


def paint(fig: Figure, width: int) -> bytes:
    """``fig`` as a palette PNG ``width`` px wide. Raises OverflowError for a picture of more
    colours than :data:`MAX_COLOURS` (the caller draws it otherwise)."""
    canvas = _Canvas(fig, width)
    for colour in dict.fromkeys(_colours(fig.items)):  # the drawing's own colours first: they are kept exact
        canvas.ink(colour)
    for item in fig.items:
        getattr(canvas, PAINTERS[type(item)])(item)
    return canvas.png()


def truecolour(fig: Figure, width: int) -> Any:
    """``fig`` in full colour (a Pillow RGB image), its text smoothed as it asks, with no palette."""
    canvas = _FullColour(fig, width)
    for item in fig.items:
        getattr(canvas, PAINTERS[type(item)])(item)
    return canvas.image


#: What the painter keeps from one picture to the next, each bounded (a worker paints for days);
#: not the fonts (_face: a fresh worker has them as soon as it painted once).
KEPT = (_glyphs, _bbox, _inked, _rounded, _reach)


def forget() -> None:
    """Forgets the labels, shapes and drawn elements kept from earlier pictures (for measuring)."""
    for kept in KEPT:
        kept.cache_clear()
    figure.forget()


def drawable(fig: figure.Figure) -> bool:
    """Whether the font has every sign of the drawing's labels (DejaVu Sans has no Chinese)."""
    return all(labels.drawable(i.text) for i in _texts(fig.items))


def painted(svg: str, width: int | None) -> bytes | None:
    """The PNG of a drawing made of :mod:`engine.figure`'s primitives alone, or None for any other
    drawing, or one with no font for its labels, or a label in a script the font lacks (a player
    named in Chinese: resvg falls back to another font where Pillow would draw empty boxes): that
    one goes to resvg."""
    if width is None:
        return None
    fig = figure.read(svg)
    if fig is None or not drawable(fig):
        return None
    try:
        labels.font(False, 12.0)
        labels.font(True, 12.0)
        return paint(fig, width)
    except (OSError, OverflowError):
        return None
