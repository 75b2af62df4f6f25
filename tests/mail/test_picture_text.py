"""A mail picture's text is drawn smoothed (issue 21: unsmoothed, 11-14 px glyphs lost strokes:
"Key Wesl", "rlnged", "this tum") and still fits a mail: at most PNG_COLOURS colours, at most
PNG_MAX_BYTES, its own colours exact. Checked on the PNG the sender makes from real game states
of every game, pixel by pixel, against the same picture rendered smoothed in full colour (what a
reader would see with no limit): no OCR here, so legibility is measured as closeness to that.
"""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from PIL import Image

import engine
from engine import svg
from pbem.mail import sending
from tests.engine import svg_checks
from tests.engine.test_board_readability import caravelas_states, maracaibo_states
from tests.engine.test_maretta_hidden import random_states

NS = "{http://www.w3.org/2000/svg}"


def _truecolour(doc: str) -> Image.Image:
    """The picture as the sender draws it with no palette, text as the picture asks (resvg, and
    Pillow for the labels it lifts: pbem.mail.labels)."""
    return sending.truecolour(doc)


def _grey(im: Image.Image) -> bytes:
    return im.convert("L").tobytes()


def _far(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels whose grey differs by more than a fifth of the range."""
    pa, pb = _grey(a), _grey(b)
    return sum(1 for x, y in zip(pa, pb, strict=True) if abs(x - y) > 51) / len(pa)


def _pixel_labels(doc: str) -> list[tuple[svg_checks.Label, tuple[int, int, int, int]]]:
    """Every label of the picture with its box in the PNG's pixels: a label of a nested part
    (a window on a map, engine.svg.window) is placed by that part's scale; only those inside it."""
    root = ET.fromstring(doc)
    out = []
    for el in list(root):
        if el.tag != f"{NS}svg":
            continue
        x, y, w, h = (float(v) for v in (el.get("viewBox") or "").split())
        top, width = float(el.get("y") or 0), float(el.get("width") or w)
        k = width / w
        root.remove(el)
        for lab in svg_checks.labels(ET.tostring(el, encoding="unicode")):
            b = lab.box
            if x <= b.x0 and b.x1 <= x + w and y <= b.y0 and b.y1 <= y + h:
                out.append((lab, (int((b.x0 - x) * k), int(top + (b.y0 - y) * k),
                                  int((b.x1 - x) * k) + 1, int(top + (b.y1 - y) * k) + 1)))
    for lab in svg_checks.labels(ET.tostring(root, encoding="unicode")):
        b = lab.box
        out.append((lab, (int(b.x0), int(b.y0), int(b.x1) + 1, int(b.y1) + 1)))
    return out


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _pictures() -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    maretta = engine.get("maretta")
    for side, n in (("A", 3), ("B", 3), ("A", 4), ("B", 4), ("A", 5)):
        st = random_states(side, n, 3, every=9)[2]
        out.append((f"maretta {side} {n}p", maretta.render_mail_svg(maretta.view(st, 0))))
    caravelas = engine.get("caravelas")
    for n in (2, 4):
        out.append((f"caravelas {n}p", caravelas.render_mail_svg(caravelas.view(caravelas_states(n, 12)[2], 0))))
    maracaibo = engine.get("maracaibo")
    for n in (1, 4):
        states: list[dict[str, Any]] = maracaibo_states(n, n + 10)
        out.append((f"maracaibo {n}p", maracaibo.render_mail_svg(maracaibo.view(states[2], 0))))
    return out


PICTURES = _pictures()
#: Pictures too heavy smoothed, that go with unsmoothed text: none. (Maretta's 4-player board
#: with its symbols drawn weighed 15 KB smoothed; its symbols' key is now words, see below.)
UNSMOOTHED: set[str] = set()


@pytest.mark.parametrize(("what", "doc"), PICTURES, ids=[w for w, _d in PICTURES])
def test_a_mail_pictures_text_is_smoothed_within_its_colours_and_bytes(what: str, doc: str) -> None:
    assert svg.SMOOTH_TEXT in doc[: doc.find(">")], f"{what}: the picture asks for smoothed text"
    png = sending.picture_png(doc)
    assert len(png) <= sending.PNG_MAX_BYTES, f"{what}: {len(png)} bytes"
    with Image.open(io.BytesIO(png)) as im:
        assert im.mode == "P" and im.width == svg.MAIL_WIDTH
        sent = im.convert("RGB")
    colours = sent.getcolors(256) or []
    assert len(colours) <= sending.PNG_COLOURS, f"{what}: {len(colours)} colours"
    smoothed = _truecolour(doc)
    jagged = _truecolour(doc.replace(" " + svg.SMOOTH_TEXT, "", 1))
    assert len(jagged.getcolors(256) or []) < len(smoothed.getcolors(1 << 16) or []), "the attribute smooths"
    if what in UNSMOOTHED:
        assert _far(sent, jagged) < 0.001, f"{what}: too heavy smoothed, it goes as drawn unsmoothed"
        assert len(sending._render_png.__wrapped__(doc)) > sending.PNG_MAX_BYTES
        return
    # the picture sent is the smoothed one, reduced: far closer to it than the unsmoothed drawing
    near, old = _far(sent, smoothed), _far(jagged, smoothed)
    assert near < 0.002 and near * 5 < old, f"{what}: {near:.4f} of pixels off (unsmoothed: {old:.4f})"
    # every label: smoothed (tones between ink and ground), and as dark on what it is drawn
    # over as the full-colour drawing makes it (the palette keeps the drawing's own colours)
    pixels, full = sent.load(), smoothed.load()
    checked = 0
    for lab, (x0, y0, x1, y1) in _pixel_labels(doc):
        if lab.fill in ("#fff", "#ffffff", "white") or x0 < 0 or x1 > sent.width or y1 > sent.height:
            continue
        box = [(x, y) for x in range(x0, x1) for y in range(max(y0, 0), y1)]
        seen = {pixels[p] for p in box}
        assert len(seen) >= 3, f"{what}: {lab.text!r} drawn in {len(seen)} colours: not smoothed"
        assert svg_checks.contrast(lab.fill, lab.on) >= 4.5, f"{what}: {lab.text!r} {lab.fill} on {lab.on}"
        best = max(svg_checks.contrast(_hex(pixels[p]), lab.on) for p in box)
        want = max(svg_checks.contrast(_hex(full[p]), lab.on) for p in box)
        assert best >= min(4.5, 0.8 * want), f"{what}: {lab.text!r} at {best:.2f}:1, drawn {want:.2f}:1"
        checked += 1
    assert checked >= 10, f"{what}: only {checked} labels checked"


@pytest.mark.parametrize(("side", "n"), [("A", 4), ("B", 4), ("A", 5), ("B", 5)])
def test_marettas_crowded_boards_go_smoothed_with_their_symbols_in_words(side: str, n: int) -> None:
    """Maretta's 4- and 5-player mail boards, every state of a real game, go with smoothed text
    (they went jagged: too heavy with the symbols' key drawn), and the key the picture no longer
    draws is in its words (the mail prints its ``<desc>`` under it): every barrel it shows named."""
    from engine.games.maretta.cards import BARREL_NAMES

    maretta = engine.get("maretta")
    for st in random_states(side, n, 2, every=4):
        view = maretta.view(st, 0)
        doc = maretta.render_mail_svg(view)
        png = sending.picture_png(doc)
        assert png == sending.svg_to_png(doc) or png == sending._harder(sending.svg_to_png(doc)), "smoothed"
        assert len(png) <= sending.PNG_MAX_BYTES
        key = svg.description(doc)
        assert ("coral reefs" if side == "A" else "crevasses") in key and "face-down barrels" in key
        for b in {b for bs in view["barrels"].values() for b in bs if b != "?"}:
            assert BARREL_NAMES[b] in key, f"{b} named in the picture's words"
