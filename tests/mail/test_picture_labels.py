"""A mail picture's plain labels are drawn by Pillow over resvg's drawing of the rest (issue 28:
resvg laid out each label for 110-350 µs, two thirds of a Maretta board's render). The picture
must stay the same drawing: every pixel away from the lifted labels is resvg's own, each lifted
label is drawn where resvg drew it, in its colour, and a label something is drawn over, or one
Pillow would draw otherwise, stays in the SVG for resvg."""

from __future__ import annotations

import io

import pytest
import resvg_py
from PIL import Image

import engine
from pbem.mail import labels, sending
from tests.engine.test_maretta_hidden import random_states

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'


def _resvg(doc: str) -> Image.Image:
    data = resvg_py.svg_to_bytes(svg_string=doc, background="#ffffff", sans_serif_family=sending.PNG_FONT,
                                 font_family=sending.PNG_FONT, width=sending._png_width(doc),
                                 shape_rendering="optimize_speed", text_rendering="optimize_speed")
    with Image.open(io.BytesIO(bytes(data))) as im:
        return im.convert("RGB")


def _texts(lifted: labels.Lifted | None) -> list[str]:
    return [lab.text for lab in lifted.labels] if lifted else []


def test_a_label_something_is_drawn_over_stays_for_resvg_and_one_clear_of_it_is_lifted() -> None:
    doc = (HEAD + '<text x="20" y="30" font-size="12" font-family="sans-serif" fill="#111111">under</text>'
           '<text x="120" y="30" font-size="12" font-family="sans-serif" fill="#111111">clear</text>'
           '<circle cx="30" cy="26" r="6" fill="#cc0000"/></svg>')
    lifted = labels.lift(doc, 200)
    assert _texts(lifted) == ["clear"]
    assert lifted is not None and ">under</text>" in lifted.svg and "clear" not in lifted.svg
    # the circle is still drawn over the label resvg draws
    assert _resvg(lifted.svg).getpixel((30, 26)) == (204, 0, 0)


@pytest.mark.parametrize("text", [
    '<text x="10" y="30" font-size="12" transform="rotate(10)">turned</text>',
    '<text x="10" y="30" font-size="12"><tspan font-weight="bold">two</tspan> parts</text>',
    '<text x="10" y="30" font-size="12" font-family="serif">serif</text>',
    '<text x="10" y="30" font-size="12" letter-spacing="2">spaced</text>',
    '<text x="10" y="30" font-size="12" fill="url(#g)">painted</text>',
    '<text x="10 20 30" y="30" font-size="12">placed</text>',
    '<g transform="translate(5 5)"><text x="10" y="30" font-size="12">moved</text></g>',
    '<text x="10" y="30" font-size="12">\u4e2d\u6587</text>',
])
def test_a_label_pillow_would_draw_otherwise_stays_for_resvg(text: str) -> None:
    assert labels.lift(HEAD + text + "</svg>", 200) is None


def test_a_picture_with_a_stylesheet_goes_to_resvg_whole() -> None:
    doc = HEAD + '<style>text { font-size: 20px }</style><text x="10" y="30" font-size="12">styled</text></svg>'
    assert labels.lift(doc, 200) is None


def test_a_labels_words_are_read_as_resvg_reads_them() -> None:
    doc = HEAD + '<text x="10" y="30" font-size="12" fill="black">  Fish &amp;\n  chips  </text></svg>'
    lifted = labels.lift(doc, 200)
    assert lifted is not None and [(lab.text, lab.fill) for lab in lifted.labels] == [("Fish & chips", "#000000")]


def test_without_the_font_files_the_picture_goes_to_resvg_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(labels, "FONT_FILES", {False: "NoSuchFont.ttf", True: "NoSuchFont-Bold.ttf"})
    labels.font.cache_clear()
    try:
        doc = HEAD + '<text x="10" y="30" font-size="12">plain</text></svg>'
        assert labels.lift(doc, 200) is None
        assert sending._render_png.__wrapped__(doc).startswith(sending.PNG_MAGIC)  # still a picture
    finally:
        labels.font.cache_clear()


def _far_share(a: Image.Image, b: Image.Image, box: tuple[int, int, int, int]) -> float:
    pa, pb = a.crop(box).convert("L").tobytes(), b.crop(box).convert("L").tobytes()
    return sum(1 for x, y in zip(pa, pb, strict=True) if abs(x - y) > 51) / max(1, len(pa))


@pytest.mark.parametrize(("side", "n"), [("A", 3), ("B", 4)])
def test_a_maretta_board_is_resvgs_drawing_with_its_labels_drawn_where_resvg_draws_them(side: str, n: int) -> None:
    maretta = engine.get("maretta")
    doc = maretta.render_mail_svg(maretta.view(random_states(side, n, 3, every=9)[2], 0))
    lifted = labels.lift(doc, sending._png_width(doc))
    assert lifted is not None and len(lifted.labels) >= 0.8 * doc.count("<text"), "most labels are lifted"
    drawn, whole = sending.resvg_truecolour(doc), _resvg(doc)  # (Maretta's own pictures: pbem.mail.painter)
    bare = _resvg(lifted.svg)  # the picture without its lifted labels
    boxes = [tuple(int(v) for v in labels._box(lab)) for lab in lifted.labels]
    # away from the lifted labels, every pixel is resvg's own drawing of the whole picture
    outside = [(x, y) for x in range(drawn.width) for y in range(drawn.height)
               if not any(b[0] - 1 <= x <= b[2] + 1 and b[1] - 1 <= y <= b[3] + 1 for b in boxes)]
    pd, pw = drawn.load(), whole.load()
    assert sum(1 for p in outside if pd[p] != pw[p]) == 0
    for lab, box in zip(lifted.labels, boxes, strict=True):
        clipped = (max(box[0], 0), max(box[1], 0), min(box[2], drawn.width), min(box[3], drawn.height))
        # drawn: ink where there was none, where resvg draws its glyphs (a pixel's hinting aside)
        assert _far_share(drawn, bare, clipped) > 0.03, f"{lab.text!r} drawn"
        assert _far_share(drawn, whole, clipped) < 0.25, f"{lab.text!r} where resvg draws it"
