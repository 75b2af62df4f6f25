"""A drawing's primitives written as SVG and read back (engine.figure, issue 28): the mail's painter
draws the primitives it reads from the very SVG the page shows, so each kind must come back whole,
and a drawing with anything else in it must read as None (it goes to resvg)."""

from __future__ import annotations

import pytest

import engine
from engine import figure
from engine.figure import Circle, Line, Polygon, Polyline, Rect, Text, Window
from engine.games.caravelas.board import LISBON
from tests.engine.test_board_readability import caravelas_states, maracaibo_states
from tests.engine.test_maretta_hidden import random_states

ONE_OF_EACH: list[figure.Item] = [
    Circle(30, 40, 20, "#cfe6f5", "#445566", 1.5, "space"),
    Circle(30, 40, 14, "none", "#7b3fa0", 2.5, "trail-ring seat0"),
    Circle(90, 40, 10, "#e0b000", "#222222"),
    Rect(10, 70, 24, 17, "#f0d9a8", "#5a3a1a", 3, "barrel"),
    Rect(50, 70, 8, 48, "#c0405a", cls="reef"),
    Line(80, 90, 102, 90, "#2f7fd0", 5, "round", "key-trail"),
    Polyline(((10, 130), (60, 130), (60, 170)), "#8a9999", 6, "round"),
    Polyline(((12, 132), (62, 132)), "#3a9a4a", 5, "round", "round", "trail seat4"),
    figure.text(30, 45.5, "12", 13, "#111111"),
    figure.text(20, 150, "Tom & <Jerry> \"x\"", 12, "#1f1f1f", anchor="start", bold=True),
    figure.text(118.04, 20, "Sea", 11, "#ffffff", anchor="end"),
    Polygon(((10, 160), (17, 160), (15.5, 164), (11.5, 164)), "#d9480f", "#222222", 0.4, "mine"),
    # Caravelas' forms (issue 28): dashed rings, chips and routes, float corners, an outline alone,
    # a haloed italic label
    Circle(60, 40, 16, "none", "#23744a", 3, "target", (4, 3)),
    Rect(70, 70, 14, 18, "#c0392b", "#111111", 5, "fleet away seat1", 2, (3, 2)),
    Rect(90, 70, 8, 8, "none", "#333333", dash=(2, 2)),
    Polyline(((70.5, 100), (90, 112.25)), "#2f6fd0", 3, "round", cls="arrows", dash=(8, 4)),
    Text(40.5, 120, "Volta do Mar", 12, "#1b4f9c", "start", False, True, "#dcecf5", 3),
    Text(40.5, 140, "Lisboa (3)", 13, "#3b2a14", "start", True, False, "#dcecf5", 3),
    Window(0, 100, 60, 45, (40, 30, 80, 60), (
        Rect(0, 18, 640, 334, "#d7eefa"),
        Line(74, 170, 84, 118, "#6b8fa8", 2, dash=(4, 3)),
        Rect(50, 40, 26, 22, "#f3d9b1", "#8a5a2b", 4, stroke_width=1.5),
        figure.text(60, 50, "13", 9, "#111111", bold=True))),
]


def test_every_kind_has_a_writer_and_comes_back_from_its_svg() -> None:
    assert set(figure.WRITERS) == set(figure.KINDS)
    assert {type(i) for i in ONE_OF_EACH} == set(figure.KINDS), "the test draws every kind"
    doc = figure.document(120, 180, ONE_OF_EACH, title="t", desc="d")
    back = figure.read(doc)
    assert back is not None
    assert back.items == tuple(ONE_OF_EACH)
    assert (back.width, back.height, back.background, back.smooth_text) == (120, 180, "#fbf7ee", False)
    smooth = figure.read(engine.svg.smooth_text(doc))
    assert smooth is not None and smooth.smooth_text and smooth.items == back.items


@pytest.mark.parametrize("extra", [
    '<path d="M0 0 L10 10 L0 10" stroke="#000000"/>',  # open, filled black by default
    '<path d="M0 0 L10 10" fill="#000000" stroke="#000000"/>',
    '<path d="M0 0 L10 10 M5 5 L5 9 L9 9" stroke="#000000"/>',
    '<polygon points="0,0 5,5" fill="#000000"/>',
    '<text x="1" y="1" font-size="12" font-family="sans-serif" fill="#000000" stroke="#ffffff">over its fill</text>',
    '<text x="1" y="1" font-size="12" font-family="sans-serif" fill="#000000" stroke="#ffffff" paint-order="stroke">'
    'sharp joins</text>',
    '<text x="1" y="1" font-size="12" font-family="sans-serif" fill="#000000" font-style="oblique">a</text>',
    '<circle cx="1" cy="1" r="1" fill="none" stroke="#000000" stroke-dasharray="0 0"/>',
    '<g><circle cx="1" cy="1" r="1" fill="#000000"/></g>',
    '<circle cx="1" cy="1" r="1" fill="#000000" opacity="0.5"/>',
    '<circle cx="1" cy="1" r="1" fill="url(#g)"/>',
    '<polyline points="0,0 5,5" fill="#000000" stroke="#000000" stroke-width="1"/>',
    '<line x1="0" y1="0" x2="5" y2="5" stroke="#000000" stroke-width="1" stroke-linecap="square"/>',
    '<text x="1" y="1" font-size="12" text-anchor="middle" font-family="serif" fill="#000000">a</text>',
    '<text x="1" y="1" font-size="12" text-anchor="middle" font-family="sans-serif" fill="#000000">'
    'a<tspan>b</tspan></text>',
    '<path d="M0 0 L10 10 L0 10" fill="#000000"/>',  # left open
    '<path d="M0 0 C10 10 5 5 0 10 Z" fill="#000000"/>',  # a curve
    '<path d="M0 0 L10 10 L0 10 Z M20 20 L30 30 L20 30 Z" fill="#000000"/>',  # two shapes
    '<line x1="0" y1="0" x2="5" y2="5" stroke="#000000" stroke-width="1" stroke-dasharray="none"/>',
    '<svg x="0" y="0" width="10" height="10" viewBox="0 0 20 10"><circle cx="1" cy="1" r="1" fill="#000000"/></svg>',
    '<svg x="0" y="0" width="10" height="10" viewBox="0 0 10 10" transform="scale(2)"></svg>',
    '<svg x="0" y="0" width="10" height="10" viewBox="0 0 10 10">',  # never closed
    '<text x="1" y="1" font-size="12" fill="#000000">no font named, none inherited</text>',
])
def test_a_drawing_with_anything_else_in_it_reads_as_none(extra: str) -> None:
    doc = figure.document(50, 50, ONE_OF_EACH[:2])
    assert figure.read(doc) is not None
    assert figure.read(doc.replace("</svg>", extra + "</svg>")) is None


def test_every_maretta_picture_is_made_of_primitives_and_the_other_games_mail_maps_read_as_written() -> None:
    maretta = engine.get("maretta")
    for side, n, seed in (("A", 3, 4), ("B", 4, 6)):
        for st in random_states(side, n, seed, every=9):
            for doc in (maretta.render_mail_svg(maretta.view(st, None)), maretta.render_svg(maretta.view(st, 0)),
                        maretta.render_phone_svg(maretta.view(st, 1))[0]):
                fig = figure.read(doc)
                assert fig is not None
                # written back, the primitives are the drawing's body, byte for byte
                assert "".join(map(figure.to_svg, fig.items)) + "</svg>" == doc[doc.index("/>") + 2:]
    caravelas, maracaibo = engine.get("caravelas"), engine.get("maracaibo")
    for st in caravelas_states(3, 1)[:3]:  # read as written (a Window; its routes, crosses, arrowheads)
        fig = figure.read(caravelas.render_mail_svg(caravelas.view(st, 0)))
        assert fig is not None and any(isinstance(i, Window) for i in fig.items)
        # its page's map and strip are not mail pictures: a link's translucent disc, for one
        assert figure.read(caravelas.render_svg(dict(caravelas.view(st, 0), links={LISBON: "/x"}))) is None
    st = maracaibo_states(2, 1)[0]
    fig = figure.read(maracaibo.render_mail_svg(maracaibo.view(st, 0)))  # read as written (a Window, boats)
    assert fig is not None and any(isinstance(i, Window) for i in fig.items)


def test_an_element_met_before_reads_as_the_drawing_around_it_says() -> None:
    """Elements are kept once read (issue 28): the same source in another nested drawing, or
    where no font is inherited, still reads as that drawing says."""
    figure.forget()
    back = '<rect width="100%" height="100%" fill="#ffffff"/>'
    label = '<text x="1" y="9" font-size="8" fill="#000000">A</text>'

    def nested(width: int, height: int) -> str:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200" '
                f'font-family="sans-serif"><rect width="200" height="200" fill="#fbf7ee"/>'
                f'<svg x="0" y="0" width="{width}" height="{height}" viewBox="0 0 {width} {height}">{back}{label}'
                f'</svg></svg>')

    for width, height in ((100, 50), (60, 30), (100, 50)):
        fig = figure.read(nested(width, height))
        assert fig is not None and isinstance(fig.items[0], Window)
        assert fig.items[0].items == (Rect(0, 0, width, height, "#ffffff"), Text(1, 9, "A", 8, "#000000", "start"))
    plain = nested(100, 50).replace(' font-family="sans-serif"', "", 1)
    assert figure.read(plain) is None, "a text with no font named, none inherited"
    assert figure.read(nested(100, 50)) is not None
