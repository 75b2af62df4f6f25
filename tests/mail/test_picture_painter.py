"""Maretta's mail picture painted by Pillow from the drawing's primitives (pbem.mail.painter, issue 28),
straight onto a palette: every primitive kind painted, the board's own colours exact, every label
shown, the same bytes for the same position, the public board only, and close to the drawing resvg
made of the same SVG before (what players got)."""

from __future__ import annotations

import io

import pytest
from PIL import Image

import engine
from engine import figure
from engine.figure import Circle, Line, Polyline, Rect
from pbem.mail import painter, sending
from tests.engine.test_maretta_hidden import random_states, resample

BACK = "#fbf7ee"


def _image(png: bytes) -> Image.Image:
    with Image.open(io.BytesIO(png)) as im:
        assert im.mode == "P"
        return im.convert("RGB")


def _rgb(colour: str) -> tuple[int, int, int]:
    return painter._rgb(colour)


@pytest.mark.parametrize(("item", "at"), [
    (Circle(30, 30, 20, "#cfe6f5", "#445566", 1.5), {(30, 30): "#cfe6f5", (30, 10): "#445566", (30, 8): BACK,
                                                      (51, 30): BACK}),
    (Circle(30, 30, 17, "none", "#7b3fa0", 2.5), {(30, 13): "#7b3fa0", (47, 30): "#7b3fa0", (30, 30): BACK,
                                                   (30, 10): BACK}),
    (Rect(10, 10, 24, 17, "#f0d9a8", "#5a3a1a", 3), {(20, 18): "#f0d9a8", (20, 10): "#5a3a1a", (20, 27): "#5a3a1a",
                                                     (35, 18): BACK, (20, 28): BACK}),
    (Rect(10, 10, 8, 48, "#c0405a"), {(10, 10): "#c0405a", (17, 57): "#c0405a", (18, 30): BACK, (9, 30): BACK}),
    (Line(10, 30, 40, 30, "#2f7fd0", 5, "round"), {(9, 30): "#2f7fd0", (41, 30): "#2f7fd0", (25, 28): "#2f7fd0",
                                                   (25, 24): BACK, (45, 30): BACK}),
    (Polyline(((10, 10), (50, 10), (50, 50)), "#8a9999", 6, "round"),
     {(30, 7): "#8a9999", (30, 12): "#8a9999", (52, 30): "#8a9999", (50, 10): "#8a9999", (30, 6): BACK,
      (30, 13): BACK, (53, 30): BACK}),
    (figure.text(30, 30, "W", 14, "#1f1f1f", bold=True), {(5, 5): BACK, (50, 50): BACK}),
])
def test_every_primitive_kind_is_painted_where_its_svg_draws_it(item: figure.Item,
                                                                at: dict[tuple[int, int], str]) -> None:
    """A painter that drops a kind, or draws it elsewhere, fails here; and every kind is covered."""
    assert set(painter.PAINTERS) == set(figure.KINDS) == set(figure.WRITERS)
    fig = figure.read(engine.svg.smooth_text(figure.document(60, 60, [item])))
    assert fig is not None and fig.items == (item,)
    image = _image(painter.paint(fig, 60))
    for p, colour in at.items():
        assert image.getpixel(p) == _rgb(colour), f"{type(item).__name__} at {p}"
    if isinstance(item, figure.Text):  # its glyph's ink, and the tones of its edges
        colours = {c for _n, c in image.getcolors(256) or []}
        assert _rgb(item.fill) in colours and len(colours) > 3


PARAMS = [("A", 3, 4), ("B", 4, 6), ("A", 5, 8)]


@pytest.mark.parametrize(("side", "n", "seed"), PARAMS)
def test_a_maretta_picture_is_painted_with_the_boards_colours_and_every_label(side: str, n: int, seed: int) -> None:
    maretta = engine.get("maretta")
    for st in random_states(side, n, seed, every=12)[:4]:
        doc = maretta.render_mail_svg(maretta.view(st, None))
        fig = figure.read(doc)
        assert fig is not None
        png = sending._render_png.__wrapped__(doc)
        assert png == painter.paint(fig, 358), "painted, not drawn by resvg"
        image = _image(png)
        assert image.size == (358, fig.height)
        colours = {c for _n, c in image.getcolors(256) or []}
        assert len(colours) <= sending.PNG_COLOURS == painter.MAX_COLOURS
        # every colour the drawing names is in the picture, exactly
        named = {_rgb(c) for i in fig.items for c in (getattr(i, "fill", None), getattr(i, "stroke", None))
                 if c and c != "none"}
        assert named <= colours, "the board's own colours"
        # not blank: the spaces cover much of it
        assert sum(n for n, c in image.getcolors(256) or [] if c != _rgb(BACK)) > 0.15 * image.width * image.height
        # every label shows: its ink inside its box
        for t in fig.items:
            if isinstance(t, figure.Text) and t.text.strip():
                width = len(t.text) * t.size * 0.7
                x0 = t.x - {"start": 0, "middle": width / 2, "end": width}[t.anchor]
                box = (max(0, int(x0) - 1), int(t.y - t.size), min(image.width, int(x0 + width) + 2), int(t.y + 4))
                inks = {c for _n, c in image.crop(box).getcolors(1024) or []}
                assert _rgb(t.fill) in inks, f"{t.text!r} shows"


@pytest.mark.parametrize(("side", "n", "seed"), PARAMS[:2])
def test_the_same_position_gives_the_same_bytes_and_only_the_public_board(side: str, n: int, seed: int) -> None:
    maretta = engine.get("maretta")
    states = random_states(side, n, seed, every=10)[:3]
    for k, st in enumerate(states):
        doc = maretta.render_mail_svg(maretta.view(st, None))
        first = sending._render_png.__wrapped__(doc)
        painter.forget()  # nothing kept from the render before
        assert sending._render_png.__wrapped__(doc) == first, "same position, same bytes"
        other = resample(st, None, seed=k + 1)  # every hidden card and barrel dealt again
        for seat in range(n):
            for state in (st, other):
                assert sending._render_png.__wrapped__(maretta.render_mail_svg(maretta.view(state, seat))) == first


def test_a_painted_picture_stays_close_to_what_resvg_drew_of_the_same_svg() -> None:
    """Players got resvg's drawing before: the painted one differs at shapes' rims and glyph
    edges only (1-1.5 % of pixels in a seeded game, by eye the same picture)."""
    maretta = engine.get("maretta")
    for side, n, seed in PARAMS:
        st = random_states(side, n, seed, every=12)[1]
        doc = maretta.render_mail_svg(maretta.view(st, None))
        painted = _image(sending._render_png.__wrapped__(doc)).convert("L").tobytes()
        drawn = _image(sending._palette(sending.resvg_truecolour(doc), doc)).convert("L").tobytes()
        far = sum(1 for a, b in zip(painted, drawn, strict=True) if abs(a - b) > 40) / len(painted)
        assert far < 0.025, f"{side} {n}p: {far:.4f} of pixels far from resvg's"


def test_a_picture_of_more_colours_than_a_palette_keeps_goes_to_resvg() -> None:
    items: list[figure.Item] = [Rect(i, 0, 1, 10, f"#{i:02x}0000") for i in range(40)]
    doc = figure.document(40, 10, items)
    assert figure.read(doc) is not None
    assert painter.painted(doc, 40) is None
    sent = sending._render_png.__wrapped__(doc)
    assert sent.startswith(sending.PNG_MAGIC)
    assert sent == sending._palette(sending.resvg_truecolour(doc), doc)  # drawn by resvg instead


def test_a_board_naming_a_player_in_a_script_the_font_lacks_goes_to_resvg() -> None:
    """DejaVu Sans has no Chinese: Pillow would draw empty boxes where resvg falls back to a font
    that has the signs (as the label lifter leaves such a label to resvg)."""
    maretta = engine.get("maretta")
    latin = maretta.setup(["Ana", "Bruno", "Carla"], {"side": "A"}, "s")
    chinese = maretta.setup(["Ana", "李雷", "Carla"], {"side": "A"}, "s")
    assert painter.painted(maretta.render_mail_svg(maretta.view(latin, None)), 358) is not None
    doc = maretta.render_mail_svg(maretta.view(chinese, None))
    assert figure.read(doc) is not None and painter.painted(doc, 358) is None
    # drawn by resvg instead, the fallback included (it once went back to Pillow's boxes)
    assert sending._render_png.__wrapped__(doc) == sending._palette(sending.resvg_truecolour(doc), doc)
