"""What the painter keeps from one picture to the next (issue 28: a drawing's elements read once,
a label's glyphs inked in its tones once): a picture painted with all of it kept from the positions
before is the picture painted from nothing, byte for byte, over positions of real seeded games of
every game; and what is kept stays bounded however many labels a worker meets. And the painter's
short cuts for labels (a label over one colour pasted as a kept tile, the tones found once a picture,
Pillow's lookups applied without its rounding) give the bytes of every label painted plainly."""

from __future__ import annotations

from typing import Any

import pytest
from PIL import ImageChops

import engine
from engine import figure
from engine.figure import Figure, Rect, Text, Window
from pbem.mail import painter, sending
from tests.sampling import played_states

#: (game, players, options): each game's mail picture, Maracaibo's base game and an Uprising mode.
GAMES = [("maretta", 3, {}), ("maretta", 4, {"side": "B"}), ("maracaibo", 3, {}), ("maracaibo", 2, {"mode": "78"}),
         ("caravelas", 3, {})]


def _pictures(game: str, players: int, options: dict[str, Any]) -> list[str]:
    """The mail pictures of a seeded game's positions a few moves apart, each seat's in turn (so
    that most of a picture's elements and labels were met in the ones before)."""
    rules = engine.get(game)
    states = played_states(game, ["Ana", "Bruno", "Carla", "Duarte"][:players], options, f"kept-{game}", 28,
                           every=3, limit=10)
    return [rules.render_mail_svg(rules.view(st, k % players)) for k, st in enumerate(states)]


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_a_picture_painted_with_what_was_kept_is_the_one_painted_from_nothing(game: str, players: int,
                                                                              options: dict[str, Any]) -> None:
    docs = _pictures(game, players, options)
    assert len(set(docs)) >= 5, "positions that differ"
    painter.forget()
    kept = [sending._render_png.__wrapped__(doc) for doc in docs]  # in order, each with what the ones before left
    assert painter._inked.cache_info().hits > 0 and figure._element.cache_info().hits > 0, "something was reused"
    for doc, png in zip(docs, kept, strict=True):
        painter.forget()
        assert sending._render_png.__wrapped__(doc) == png
        assert png.startswith(sending.PNG_MAGIC) and painter.painted(doc, sending._png_width(doc)) == png, "painted"


def test_what_the_painter_keeps_stays_bounded() -> None:
    painter.forget()
    bounds = [kept.cache_info().maxsize for kept in (*painter.KEPT, figure._element)]
    assert all(bound is not None for bound in bounds), "every kept thing has a bound"
    # more distinct labels than any bound (a worker meets new names and numbers for days)
    many = max(bound for bound in bounds if bound is not None) + 200
    rows = 40
    items = tuple(Text(4 + 60 * (k // rows % 6), 14 + 14 * (k % rows), f"n{k}", 11, "#111111", "start")
                  for k in range(many))
    for start in range(0, many, rows * 6):
        painter.paint(Figure(358, 14 * rows + 20, "#fbf7ee", items[start:start + rows * 6], True), 358)
    sizes = {kept.__name__: (kept.cache_info().currsize, kept.cache_info().maxsize) for kept in painter.KEPT}
    assert sizes["_glyphs"][0] == sizes["_glyphs"][1] and sizes["_inked"][0] == sizes["_inked"][1], "filled"
    assert all(size <= bound for size, bound in sizes.values())
    # and the elements read: as many distinct ones as that, in drawings read one after the other
    for start in range(0, many, 500):
        assert figure.read(figure.document(358, 600, list(items[start:start + 500]))) is not None
    info = figure._element.cache_info()
    assert info.maxsize is not None and info.currsize == info.maxsize


class _Plain(painter._Canvas):
    """Every label painted the plain way, with nothing kept or skipped: each pixel of its box its
    ground's palette index plus TONE_STEP times its glyph's tone, then each such value mapped by
    Pillow's own ``point`` to the ground (no tone), the ink (a whole one) or the blend of both (a
    third, two thirds: an entry of its own while the palette has room, else the nearest kept)."""

    def _label(self, ix: int, iy: int, key: painter._GlyphsKey, colour: str) -> None:
        step = painter.TONE_STEP
        dx, dy, cover = painter._glyphs.__wrapped__(*key)[:3]  # drawn afresh
        box = (ix + dx, iy + dy, ix + dx + cover.width, iy + dy + cover.height)
        both = ImageChops.add(self.image.crop(box), cover.point(painter._TONE_OF if self.smooth else painter._HARD))
        ink, table = self.ink(colour), list(range(256))
        for ground in sorted({v % step for _n, v in both.getcolors(256) or [] if v >= step}):
            under, rgb = self.colours[ground], self.colours[ink]
            for tone in (1, 2):
                blend = tuple(round(u + (c - u) * tone / 3) for u, c in zip(under, rgb, strict=True))
                try:
                    table[ground + tone * step] = self.ink(blend)  # type: ignore[arg-type]
                except OverflowError:
                    table[ground + tone * step] = min(range(len(self.colours)), key=lambda i, b=blend: sum(
                        (c - d) ** 2 for c, d in zip(self.colours[i], b, strict=True)))
            table[ground + 3 * step] = ink
        self.image.paste(both.point(table), box)


def _plainly(fig: Figure, width: int) -> bytes:
    canvas = _Plain(fig, width)
    for colour in painter._colours(fig.items):
        canvas.ink(colour)
    for item in fig.items:
        getattr(canvas, painter.PAINTERS[type(item)])(item)
    return canvas.png()


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_a_picture_is_the_one_painted_plainly(game: str, players: int, options: dict[str, Any]) -> None:
    painter.forget()
    for doc in _pictures(game, players, options):  # each with what the ones before left kept
        fig, width = figure.read(doc), sending._png_width(doc)
        assert fig is not None and width is not None
        assert painter.paint(fig, width) == _plainly(fig, width)


#: Grounds of many colours: stripes, a label across them, one running off the picture's edges,
#: over a ground of the colour its palette kept nearest (once the palette is full).
STRIPES = tuple(Rect(6 * i, 0, 6, 40, f"#{40 + 6 * i:02x}{200 - 5 * i:02x}{90 + 3 * i:02x}") for i in range(26))


@pytest.mark.parametrize("smooth", [True, False])
def test_labels_over_grounds_of_many_colours_and_a_full_palette_are_the_ones_painted_plainly(smooth: bool) -> None:
    painter.forget()
    labels = (Text(40, 24, "Maracaibo 12", 13, "#101010", "middle", True),
              Text(-4, 10, "edge", 11, "#7a1f1f", "start"), Text(150, 38, "Lisboa", 14, "#ffffff", "end", True,
                                                                   halo="#202060", halo_width=3),
              Text(80, 30, "Guiné", 12, "#0a0a0a", "middle", False, True))
    for items in ((*STRIPES, *labels), (Window(0, 0, 156, 40, (10, 0, 78, 20), (*STRIPES, *labels)),)):
        fig = Figure(156, 40, "#fbf7ee", items, smooth)
        first = painter.paint(fig, 156 * 2)
        assert first == _plainly(fig, 156 * 2)
        assert painter.paint(fig, 156 * 2) == first, "with what was kept"
