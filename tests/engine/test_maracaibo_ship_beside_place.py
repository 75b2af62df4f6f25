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
from engine.games.maracaibo import render
from engine.testing import player_names
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
    for loc, (x, y) in render.POS.items():
        st = copy.deepcopy(state)
        st["p"][0]["at"] = loc
        view = RULES.view(st, 0)
        if render._kind(view, loc) == "off":  # (a place not in this game)
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
