"""The reader's ship is drawn beside its place, in the mail's picture and on the page (QA of #20: at 13
Port Royal the framed ship sat some 40 units left of the city, half way to Providencia; at Matanzas the
row sat at Nassau's height): the row touches, or nearly, the place's drawing, and covers none of the
tags drawn there (a quest, a legacy stop, an Uprising tile's tag)."""

from __future__ import annotations

import copy
import re
import xml.etree.ElementTree as ET

import pytest

import engine
from engine.games.maracaibo import places, render_base
from engine.testing import player_names
from tests.engine import svg_checks
from tests.engine.test_caravelas_picture_bounds import NS

RULES = engine.get("maracaibo")
MINE = re.compile(r'<path class="mine" d="M([\d.]+) ([\d.]+) l7 0')


def _tags(doc: str) -> list[tuple[float, float, float, float]]:
    out = []
    for rect in ET.fromstring(doc).iter(f"{NS}rect"):
        if {"quest", "stop", "newtile"} & set((rect.get("class") or "").split()):
            x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
            out.append((x, y, x + float(rect.get("width", 0)), y + float(rect.get("height", 0))))
    return out


@pytest.mark.parametrize(("mode", "seed"), [("78", 9), ("79", 4), ("base", 2)])
def test_the_readers_ship_is_drawn_beside_its_place(mode: str, seed: int) -> None:
    state = RULES.setup(player_names(3), {"mode": mode} if mode != "base" else {}, seed)
    for loc, (x, y) in places.POS.items():
        st = copy.deepcopy(state)
        st["seats"][0]["at"] = loc
        view = RULES.view(st, 0)
        if render_base._kind(view, loc) == "off":  # (a place not in this game)
            continue
        for doc in (RULES.render_mail_svg(view), RULES.render_svg(view)):
            found = MINE.search(doc)
            assert found, loc
            sx, sy = float(found.group(1)), float(found.group(2))
            frame = (sx - 2.5, sy - 7, sx + 9.5, sy + 6)  # the reader's frame (the mail's), the ship in it
            gap_x = max(x - 14 - frame[2], frame[0] - (x + 14), 0)
            gap_y = max(y - 12 - frame[3], frame[1] - (y + 12), 0)
            assert (gap_x ** 2 + gap_y ** 2) ** 0.5 <= 6, f"{mode}: the ship at {loc} is drawn off its place"
            for tag in _tags(doc):
                assert not (frame[0] < tag[2] and tag[0] < frame[2] and frame[1] < tag[3] and tag[1] < frame[3]), (
                    f"{mode}: the ship at {loc} covers a tag {tag}")


SHIP = re.compile(r'<path(?: class="mine")? d="M([\d.]+) ([\d.]+) l7 0')


def _inner_map(doc: str) -> str:
    """The part of the map a mail's picture shows (its nested ``<svg>``, in map units)."""
    start = doc.index("<svg", 1)
    return doc[start:doc.index("</svg>", start) + 6]


@pytest.mark.parametrize(("mode", "n"), [("base", 1), ("base", 2), ("base", 4), ("78", 3), ("79", 4)])
def test_a_name_slid_into_the_mails_part_around_havana_sits_clear_of_the_ships_row(mode: str, n: int) -> None:
    """Play-test of #20: in the mail's part of the map around Havana (every ship there, the first mail of
    a game), "Key West", cut by the part's left edge, was slid in along it onto Havana's ships' row."""
    state = RULES.setup(player_names(n), {"mode": mode} if mode != "base" else {}, 5)
    view = RULES.view(state, 0)
    assert all(p["at"] == "H" for p in view["p"]), "every ship at Havana"
    part = _inner_map(RULES.render_mail_svg(view))
    ships = [svg_checks.Box(float(x) - 2.5, float(y) - 7, float(x) + 9.5, float(y) + 6)  # a ship (and a frame)
             for x, y in SHIP.findall(part)]
    assert len(ships) == n + (1 if view.get("jean") else 0)
    names = [lab for lab in svg_checks.labels(part) if lab.fill == "#33475b"]  # the places' names
    assert "Havana" in [lab.text for lab in names]
    for lab in names:
        assert not any(lab.box.overlaps(ship) for ship in ships), f"{mode}, {n} players: {lab.text!r} on a ship"
