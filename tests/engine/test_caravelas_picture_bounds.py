"""Caravelas II's board pictures (the page's and the mail's) hold every label and every fleet
whole: nothing cut at an edge, no fleet off the picture (#21)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import engine
from engine import svg
from tests.engine.test_board_readability import caravelas_states

NS = "{http://www.w3.org/2000/svg}"


def _view_box(el: ET.Element) -> tuple[float, float, float, float]:
    if el.get("viewBox"):
        x, y, w, h = map(float, el.get("viewBox", "").split())
        return x, y, x + w, y + h
    return 0.0, 0.0, float(el.get("width", 0)), float(el.get("height", 0))


def _text_box(t: ET.Element) -> tuple[float, float, float, float]:
    size = float(t.get("font-size", 0))
    words = "".join(t.itertext())
    w = svg.text_width(words, size, t.get("font-weight") == "bold")
    x, y = float(t.get("x", 0)), float(t.get("y", 0))
    left = {"middle": x - w / 2, "end": x - w}.get(t.get("text-anchor", "start"), x)
    return left, y - 0.78 * size, left + w, y + 0.25 * size


def outside(doc: str) -> list[str]:
    """What of each (nested) drawing lies beyond its own view box: labels and fleets."""
    bad: list[str] = []

    def walk(el: ET.Element, view: tuple[float, float, float, float]) -> None:
        for child in el:
            if child.tag == NS + "svg":
                walk(child, _view_box(child))
                continue
            box = None
            if child.tag == NS + "text":
                box = _text_box(child)
            elif child.tag == NS + "rect" and "fleet" in (child.get("class") or "").split():
                x, y = float(child.get("x", 0)), float(child.get("y", 0))
                box = (x, y, x + float(child.get("width", 0)), y + float(child.get("height", 0)))
            if box and (box[0] < view[0] or box[1] < view[1] or box[2] > view[2] or box[3] > view[3]):
                bad.append(f"{child.tag[len(NS):]} {''.join(child.itertext())!r} {box} outside {view}")
            walk(child, view)

    root = ET.fromstring(doc)
    walk(root, _view_box(root))
    return bad


@pytest.mark.parametrize(("n", "seed"), [(2, 3), (3, 7), (4, 11)])
def test_it_keeps_every_label_and_fleet_inside_the_pictures(n: int, seed: int) -> None:
    rules = engine.get("caravelas")
    states = caravelas_states(n, seed, every=15)
    assert len(states) >= 4
    away = 0
    for st in states:
        for seat in (None, *range(n)):
            view = rules.view(st, seat)
            mail = rules.render_mail_svg(view)
            assert outside(mail) == [], f"mail {n}p seed {seed} seat {seat}"
            assert outside(rules.render_svg(view)) == [], f"page {n}p seed {seed} seat {seat}"
            # every fleet is drawn in the mail's picture (those beyond it at its edge, dashed)
            root = ET.fromstring(mail)
            fleets = [el for el in root.iter() if "fleet" in (el.get("class") or "").split()]
            assert sorted(el.get("class", "").split()[-1] for el in fleets) == [f"seat{s}" for s in range(n)]
            away += sum("away" in (el.get("class") or "") for el in fleets)
    assert away > 0  # the games do spread the fleets beyond one mail picture
