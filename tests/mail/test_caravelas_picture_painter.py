"""Caravelas II's mail picture painted by Pillow (issue 28): its renderer's SVG, unchanged, reads as
:mod:`engine.figure`'s primitives (the map's part a Window; its routes polylines, the winds dashed;
its arrowheads polygons; its places' crosses lines; the reader's targets dashed rings; a fleet beyond
the part a dashed chip; its labels haloed, the winds' names italic), and the painter draws it close
to what resvg drew, with every label, the same bytes for the same position, and no other seat's
cards in it."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import Image

import engine
from engine import figure
from engine.figure import Circle, Line, Polygon, Polyline, Rect, Text, Window
from engine.rng import Rng
from pbem.mail import painter, sending
from tests.mail.painted import flat_items as _flat
from tests.mail.painted import palette_image as _image
from tests.sampling import played_states

BACK = "#fbf7ee"
PLAYERS = ["Ana", "Bruno", "Carla", "Duarte"]


def _states(players: int, seed: int, n: int = 4, every: int = 23) -> list[dict[str, Any]]:
    return played_states("caravelas", PLAYERS[:players], {}, f"painted-{seed}", seed, every=every, limit=n)


def _far(a: Image.Image, b: Image.Image) -> float:
    la, lb = a.convert("L").tobytes(), b.convert("L").tobytes()
    return sum(1 for x, y in zip(la, lb, strict=True) if abs(x - y) > 40) / len(la)


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (3, 1), (4, 2)])
def test_every_caravelas_picture_is_painted_close_to_resvg_with_its_labels(players: int, seed: int) -> None:
    rules = engine.get("caravelas")
    for k, st in enumerate(_states(players, seed)):
        seat = k % players
        doc = rules.render_mail_svg(rules.view(st, seat))
        fig = figure.read(doc)
        assert fig is not None, "Caravelas' mail picture reads as primitives"
        (w,) = [i for i in fig.items if isinstance(i, Window)]
        kinds = {type(i) for i in _flat(fig.items)}
        assert {Circle, Rect, Line, Polyline, Polygon, Text} <= kinds, "the map's routes, crosses, arrowheads"
        assert any(isinstance(i, Polyline) and i.dash for i in w.items), "the wind routes, dashed"
        assert any(isinstance(i, Text) and i.halo for i in w.items), "the map's labels, haloed"
        png = sending._render_png.__wrapped__(doc)
        assert png == painter.paint(fig, 358), "painted, not drawn by resvg"
        painted = _image(png)
        drawn = _image(sending._palette(sending.resvg_truecolour(doc), doc))
        assert painted.size == drawn.size == (358, fig.height)
        far = _far(painted, drawn)
        assert far < 0.025, f"{players}p position {k}: {far:.4f} of pixels far from resvg's"
        colours = {c for _n, c in painted.getcolors(256) or []}
        assert len(colours) <= painter.MAX_COLOURS
        # the caption shows, in its ink
        caption = fig.items[0]
        assert isinstance(caption, Text)
        box = (int(caption.x), int(caption.y - caption.size), int(caption.x + 60), int(caption.y + 3))
        assert painter._rgb(caption.fill) in {c for _n, c in painted.crop(box).getcolors(1024) or []}
        # every label of the map's part shows where resvg drew it (the part's scale and offset)
        scale = w.width / w.view[2]
        # (the places' and the winds' names: the sea's codes, 10 units, have no pixel of whole ink in resvg's)
        names = [t for t in w.items if isinstance(t, Text) and t.halo and t.size >= 12
                 and w.view[0] < t.x < w.view[0] + w.view[2] - 30 and w.view[1] + 12 < t.y < w.view[1] + w.view[3]]
        assert names
        for t in names:
            x, y = w.x + (t.x - w.view[0]) * scale, w.y + (t.y - w.view[1]) * scale
            box = (int(x), int(y - t.size * scale), int(x + 24), int(y + 2))
            ink = painter._rgb(t.fill)
            assert ink in {c for _n, c in painted.crop(box).getcolors(1024) or []}, t.text
            assert ink in {c for _n, c in drawn.crop(box).getcolors(1024) or []}, t.text


def test_the_same_position_gives_the_same_bytes_and_no_other_seats_cards() -> None:
    rules = engine.get("caravelas")
    st = _states(3, seed=7, n=3)[2]
    for seat in range(3):
        doc = rules.render_mail_svg(rules.view(st, seat))
        first = sending._render_png.__wrapped__(doc)
        painter.forget()  # nothing kept from the render before
        assert sending._render_png.__wrapped__(doc) == first, "same position, same bytes"
        # the other seats' movement and discovery cards and the piles dealt otherwise: the reader's
        # picture does not change (their own targets are ringed; no one else's)
        dealt = [f["disc"] for s, f in enumerate(st["fleets"]) if s != seat]
        changed = 0
        for n in range(3):
            other = rules.resample_hidden(st, seat, Rng({"rng": format(n * 7919 + 1, "016x")}))
            changed += [f["disc"] for s, f in enumerate(other["fleets"]) if s != seat] != dealt
            assert sending._render_png.__wrapped__(rules.render_mail_svg(rules.view(other, seat))) == first
        assert changed, "the others' discovery cards dealt otherwise"


def _painted(items: list[figure.Item], size: int = 60) -> Image.Image:
    fig = figure.read(figure.document(size, size, items))
    assert fig is not None and fig.items == tuple(items)
    return _image(painter.paint(fig, size))


def test_a_dashed_ring_starts_at_three_o_clock_and_runs_clockwise() -> None:
    image = _painted([Circle(30, 30, 20, "none", "#2f6fd0", 3, dash=(10, 6))])
    blue = (0x2F, 0x6F, 0xD0)
    assert image.getpixel((50, 32)) == blue, "the first dash, from (cx + r, cy) downwards"
    assert image.getpixel((50, 27)) != blue, "the end of the last gap, above it"
    assert image.getpixel((30, 30)) == painter._rgb(BACK), "no fill"
    # clockwise: at 10 units of arc (about 29 degrees) the first gap, 6 units long
    assert image.getpixel((round(30 + 20 * 0.8), round(30 + 20 * 0.6))) != blue  # 37 degrees
    assert image.getpixel((round(30 + 20 * 0.6), round(30 + 20 * 0.8))) == blue  # 53 degrees, the second dash


def test_a_dashed_rect_and_a_dashed_route_run_their_dashes_on_across_corners() -> None:
    image = _painted([Rect(10, 10, 40, 20, "#f1c40f", "#111111", 5, stroke_width=2, dash=(6, 4)),
                      Polyline(((5, 50), (25, 50), (25, 58)), "#1b4f9c", 2, "round", dash=(16, 6))])
    black, yellow, blue = (0x11, 0x11, 0x11), (0xF1, 0xC4, 0x0F), (0x1B, 0x4F, 0x9C)
    assert image.getpixel((30, 20)) == yellow, "the fill inside"
    assert image.getpixel((17, 10)) == black and image.getpixel((23, 10)) != black, "from (x + rx, y): 6 on, 4 off"
    assert image.getpixel((26, 10)) == black, "the second dash"
    assert image.getpixel((10, 50)) == blue and image.getpixel((23, 50)) != blue, "16 on: it ends 4 before the corner"
    assert image.getpixel((25, 53)) == blue, "the next dash after the corner (6 off)"


def test_a_cross_an_arrowhead_and_a_haloed_italic_label_as_caravelas_writes_them() -> None:
    doc = figure.document(80, 60, [Line(0, 30, 80, 30, "#2f6fd0", 4)])
    doc = doc.replace("</svg>", '<path d="M10,10H18M14,5V15" stroke="#6b4c2a" stroke-width="2"/>'
                      '<polygon points="40.0,10.0 32.5,14.0 32.5,6.0" fill="#1b4f9c"/>'
                      '<text x="20" y="34.0" font-size="14" text-anchor="start" font-family="sans-serif" '
                      'fill="#3b2a14" font-weight="bold" font-style="italic" stroke="#dcecf5" stroke-width="3" '
                      'paint-order="stroke" stroke-linejoin="round">Volta</text></svg>')
    fig = figure.read(doc)
    assert fig is not None
    _line, h, v, arrow, label = fig.items
    assert (h, v) == (Line(10, 10, 18, 10, "#6b4c2a", 2), Line(14, 5, 14, 15, "#6b4c2a", 2))
    assert arrow == Polygon(((40.0, 10.0), (32.5, 14.0), (32.5, 6.0)), "#1b4f9c")
    assert isinstance(label, Text) and label.italic and label.bold and (label.halo, label.halo_width) == ("#dcecf5", 3)
    image = _image(painter.paint(fig, 80))
    brown, blue, sea = (0x6B, 0x4C, 0x2A), (0x2F, 0x6F, 0xD0), (0xDC, 0xEC, 0xF5)
    assert image.getpixel((11, 10)) == brown and image.getpixel((14, 6)) == brown and image.getpixel((9, 10)) != brown
    assert image.getpixel((36, 10)) == (0x1B, 0x4F, 0x9C)
    # the halo covers the line round the glyphs, under them; the line shows past the label
    row = [image.getpixel((x, 30)) for x in range(18, 70)]
    assert sea in row and (0x3B, 0x2A, 0x14) in {image.getpixel((x, y)) for x in range(20, 60) for y in range(22, 34)}
    assert image.getpixel((76, 30)) == blue
    upright = figure.read(doc.replace(' font-style="italic"', ""))
    assert upright is not None and _image(painter.paint(upright, 80)) != image, "italic drawn slanted"
