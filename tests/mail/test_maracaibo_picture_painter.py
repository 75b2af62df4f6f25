"""Maracaibo's mail picture painted by Pillow (issue 28): its renderer's SVG, unchanged, reads as
:mod:`engine.figure`'s primitives (its map's part a Window, its boats Polygons, the home ports'
routes dashed Lines), and the painter draws it close to what resvg drew, with every label, the same
bytes for the same position, and no seat's hidden cards in it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine import figure
from engine.figure import Line, Polygon, Text, Window
from pbem.mail import painter, sending
from tests.mail.painted import palette_image as _image
from tests.sampling import played_states

#: (players, options): the base game, the Uprising's two modules, a cooperative scenario, solo
GAMES = [(3, {}), (2, {"mode": "78"}), (3, {"mode": "79"}), (2, {"mode": "74"}), (1, {})]


def _states(players: int, options: dict[str, Any], seed: int, n: int = 3, every: int = 25) -> list[dict[str, Any]]:
    return played_states("maracaibo", ["Ana", "Bruno", "Carla"][:players], options, f"painted-{seed}", seed,
                         every=every, limit=n)


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_every_maracaibo_picture_is_painted_close_to_resvg_with_its_labels(players: int,
                                                                           options: dict[str, Any]) -> None:
    rules = engine.get("maracaibo")
    for k, st in enumerate(_states(players, options, seed=players + len(options))):
        seat = k % players
        doc = rules.render_mail_svg(rules.view(st, seat))
        fig = figure.read(doc)
        assert fig is not None, "Maracaibo's mail picture reads as primitives"
        windows = [i for i in fig.items if isinstance(i, Window)]
        assert windows and any(isinstance(i, Polygon) for i in windows[0].items), "the map's part, its boats"
        png = sending._render_png.__wrapped__(doc)
        assert png == painter.paint(fig, 358), "painted, not drawn by resvg"
        painted = _image(png)
        drawn = _image(sending._palette(sending.resvg_truecolour(doc), doc))
        assert painted.size == drawn.size == (358, fig.height)
        a, b = painted.convert("L").tobytes(), drawn.convert("L").tobytes()
        far = sum(1 for x, y in zip(a, b, strict=True) if abs(x - y) > 40) / len(a)
        assert far < 0.04, f"{far:.4f} of pixels far from resvg's"
        # not blank: the sea covers much of it
        assert sum(n for n, c in painted.getcolors(256) or [] if c != (255, 255, 255)) > 0.4 * len(a)
        # every label outside the map's part shows: its ink inside its box
        for t in fig.items:
            if isinstance(t, Text) and t.text.strip():
                width = len(t.text) * t.size * 0.7
                x0 = t.x - {"start": 0, "middle": width / 2, "end": width}[t.anchor]
                box = (max(0, int(x0) - 1), int(t.y - t.size), min(painted.width, int(x0 + width) + 2), int(t.y + 4))
                assert painter._rgb(t.fill) in {c for _n, c in painted.crop(box).getcolors(1024) or []}, t.text
        # a name inside the map's part shows where resvg drew it (the part's scale and offset)
        w = windows[0]
        scale = w.width / w.view[2]
        names = [t for t in w.items if isinstance(t, Text) and t.text.strip() and t.fill == "#33475b"
                 and w.view[0] + 20 < t.x < w.view[0] + w.view[2] - 20 and w.view[1] + 10 < t.y < w.view[1] + w.view[3]]
        assert names
        for t in names:
            x, y = w.x + (t.x - w.view[0]) * scale, w.y + (t.y - w.view[1]) * scale
            box = (int(x - 8), int(y - t.size * scale), int(x + 8), int(y + 2))
            assert (0x33, 0x47, 0x5B) in {c for _n, c in painted.crop(box).getcolors(1024) or []}, t.text
            assert (0x33, 0x47, 0x5B) in {c for _n, c in drawn.crop(box).getcolors(1024) or []}, t.text


def test_the_same_position_gives_the_same_bytes_and_no_other_seats_cards() -> None:
    rules = engine.get("maracaibo")
    st = _states(3, {}, seed=7, n=2)[1]
    for seat in range(3):
        doc = rules.render_mail_svg(rules.view(st, seat))
        first = sending._render_png.__wrapped__(doc)
        painter.forget()  # nothing kept from the render before
        assert sending._render_png.__wrapped__(doc) == first, "same position, same bytes"
        # the other seats' hands and the deck dealt otherwise: the reader's picture does not change
        other = json.loads(json.dumps(st))
        pool = [c for i, p in enumerate(other["seats"]) if i != seat for c in p["hand"]] + other["deck"]
        random.Random(seat).shuffle(pool)
        for i, p in enumerate(other["seats"]):
            if i != seat:
                p["hand"], pool = pool[:len(p["hand"])], pool[len(p["hand"]):]
        other["deck"] = pool
        assert other != st
        assert sending._render_png.__wrapped__(rules.render_mail_svg(rules.view(other, seat))) == first


def test_a_dashed_line_and_a_boat_are_painted_where_their_svg_draws_them() -> None:
    items: list[figure.Item] = [Line(2, 10, 58, 10, "#6b8fa8", 2, dash=(4, 3)),
                                Polygon(((10, 30), (40, 30), (34, 46), (16, 46)), "#d9480f", "#222222", 1)]
    fig = figure.read(figure.document(60, 60, items))
    assert fig is not None and fig.items == tuple(items)
    image = _image(painter.paint(fig, 60))
    line = [image.getpixel((x, 10)) for x in range(2, 58)]
    assert line[0] == line[3] == (0x6B, 0x8F, 0xA8) and line[5] == (0xFB, 0xF7, 0xEE), "on 4, off 3"
    assert image.getpixel((25, 38)) == (0xD9, 0x48, 0x0F) and image.getpixel((25, 30)) == (0x22, 0x22, 0x22)
    assert image.getpixel((10, 44)) == (0xFB, 0xF7, 0xEE), "outside the slanted edge"
