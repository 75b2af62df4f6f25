"""What the painter keeps from one picture to the next (issue 28: a drawing's elements read once,
a label's glyphs inked in its tones once): a picture painted with all of it kept from the positions
before is the picture painted from nothing, byte for byte, over positions of real seeded games of
every game; and what is kept stays bounded however many labels a worker meets."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from engine import figure
from engine.figure import Figure, Text
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
