"""The picture a mail carries (``Rules.render_mail_svg``, issue 10), checked on the SVG geometry
of real game states of every game: drawn for a phone (358 px wide, no text under 11 px where it
is shown), its labels apart and at WCAG AA contrast, the reader's pieces in the part shown, and a
legend for a part of a map."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any

import pytest

import engine
from engine import svg
from tests.engine import svg_checks
from tests.engine.test_board_readability import caravelas_states, maracaibo_states
from tests.engine.test_maretta_hidden import random_states

NS = "{http://www.w3.org/2000/svg}"


def _parts(doc: str) -> tuple[str, list[tuple[str, tuple[float, float, float, float]]]]:
    """The picture without its nested parts, and each nested part (a window on a map) as a
    drawing of its own with the box it shows."""
    root = ET.fromstring(doc)
    parts = []
    for el in list(root):
        if el.tag == f"{NS}svg":
            x, y, w, h = (float(v) for v in (el.get("viewBox") or "").split())
            el.attrib.pop("x", None)
            el.attrib.pop("y", None)
            parts.append((ET.tostring(el, encoding="unicode"), (x, y, w, h)))
            root.remove(el)
    return ET.tostring(root, encoding="unicode"), parts


def _inside(box: svg_checks.Box, view: tuple[float, float, float, float]) -> bool:
    x, y, w, h = view
    return box.overlaps(svg_checks.Box(x, y, x + w, y + h), slack=0)


def check(doc: str, what: str, seat: int | None) -> None:
    assert svg.drawn_width(doc) == svg.MAIL_WIDTH, f"{what}: drawn for a phone's 358 px"
    sizes = svg_checks.shown_text_sizes(doc)
    assert sizes and min(s for _t, s in sizes) >= svg.MAIL_TEXT, f"{what}: {sorted(sizes, key=lambda t: t[1])[:3]}"
    outer, parts = _parts(doc)
    for drawing in [outer] + [p for p, _box in parts]:
        found = svg_checks.labels(drawing)
        shown = [lab for lab in found if not parts or drawing == outer
                 or _inside(lab.box, next(b for p, b in parts if p == drawing))]
        assert not svg_checks.overlapping(shown), f"{what}: labels overlap: {svg_checks.overlapping(shown)[:4]}"
        assert not svg_checks.unreadable(shown), f"{what}: below WCAG AA: {svg_checks.unreadable(shown)[:4]}"
    if parts:  # a part of a map: the reader's piece is in it, and the mail prints its legend
        assert svg.description(doc).startswith("Framed"), f"{what}: the legend of the part shown"
        if seat is not None:
            part, (_x, y, w, _h) = parts[0]
            mine = [e for e in ET.fromstring(part).iter() if "mine" in (e.get("class") or "").split()]
            assert mine, f"{what}: my piece is marked"
            # the picture says where my piece is (a mail with little room keeps those rows)
            nested = next(e for e in ET.fromstring(doc) if e.tag == f"{NS}svg")
            said = [float(v) for v in (ET.fromstring(doc).get("data-focus") or "").split()]
            caption, row = said[:2]
            sea = [e for e in ET.fromstring(doc).iter(f"{NS}text") if "".join(e.itertext()).startswith("The whole sea")]
            if sea:  # (QA, #20) the part a shortened picture keeps ends above the whole sea's caption
                assert len(said) == 3 and said[2] <= float(sea[0].get("y") or 0) - 12, f"{what}: {said}"
            assert caption == float(nested.get("y") or 0), f"{what}: the caption ends where the map begins"
            e = mine[0]
            at = float(e.get("y") or (e.get("d") or "M0 0").split()[1]) + float(e.get("height") or 0) / 2
            shown = caption + (at - y) * float(nested.get("width") or 0) / w
            assert abs(shown - row) <= 20, f"{what}: my piece at {shown:.0f} px, said {row}"


def _maracaibo_mine_inside(doc: str) -> bool:
    _outer, ((part, (x, y, w, h)),) = _parts(doc)
    for e in ET.fromstring(part).iter():
        if "mine" in (e.get("class") or "").split() and e.get("d"):
            words = (e.get("d") or "").split()  # "M<x> <y> l7 0 ..."
            sx, sy = float(words[0][1:]), float(words[1])
            return x <= sx <= x + w and y <= sy <= y + h
    return False


@pytest.mark.parametrize(("side", "n"), [("A", 3), ("A", 5), ("B", 4)])
def test_maretta_mail_picture_is_its_phone_board(side: str, n: int) -> None:
    rules = engine.get("maretta")
    for st in random_states(side, n, 3, every=9):
        for seat in (None, 0):
            doc = rules.render_mail_svg(rules.view(st, seat))
            check(doc, f"maretta {side} {n}p seat {seat}", seat)


@pytest.mark.parametrize("n", [2, 4])
def test_caravelas_mail_picture_is_the_sea_near_my_fleet(n: int) -> None:
    rules = engine.get("caravelas")
    for st in caravelas_states(n, n + 10):
        for seat in (None, 0, n - 1):
            view: dict[str, Any] = rules.view(st, seat)
            doc = rules.render_mail_svg(view)
            check(doc, f"caravelas {n}p seat {seat}", seat)


@pytest.mark.parametrize("n", [1, 2, 4])
def test_maracaibo_mail_picture_is_the_map_near_my_ship(n: int) -> None:
    rules = engine.get("maracaibo")
    for st in maracaibo_states(n, n + 10):
        for seat in (None, 0, n - 1):
            doc = rules.render_mail_svg(rules.view(st, seat))
            check(doc, f"maracaibo {n}p seat {seat}", seat)
            if seat is not None:
                assert _maracaibo_mine_inside(doc), "my ship is in the part shown"
