"""The Uprising's legacy tags are seen whole in a mail's picture (QA of #20: in scenario 78 the tag of L37
right of 13 Port Royal was cut at the right edge of the part of the map a mail shows, its words left out):
a tag whose place is in the part is drawn inside it, left of its place when right of it would cross the edge."""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

import engine
from engine.games.maracaibo import places
from engine.testing import player_names
from tests.engine.test_caravelas_picture_bounds import NS

RULES = engine.get("maracaibo")


def _cut_tags(doc: str) -> list[str]:
    """The legacy tags (rects of class newtile) that the picture's window cuts: partly in, partly out."""
    nested = next(e for e in ET.fromstring(doc) if e.tag == f"{NS}svg")
    vx, vy, vw, vh = (float(v) for v in nested.get("viewBox", "").split())
    cut = []
    for rect in nested.iter(f"{NS}rect"):
        if "newtile" not in (rect.get("class") or "").split():
            continue
        x, y = float(rect.get("x", 0)), float(rect.get("y", 0))
        x2, y2 = x + float(rect.get("width", 0)), y + float(rect.get("height", 0))
        inside = vx <= x and x2 <= vx + vw and vy <= y and y2 <= vy + vh
        apart = x2 <= vx or x >= vx + vw or y2 <= vy or y >= vy + vh
        if not inside and not apart:
            cut.append(f"{(x, y, x2, y2)} in {(vx, vy, vw, vh)}")
    return cut


def test_the_l37_tag_at_port_royal_is_seen_whole_from_every_place_of_the_map() -> None:
    state = RULES.setup(player_names(3), {"mode": "78"}, 9)  # (a deal with L37)
    assert "L37" in state["legacy_new"]
    shown = 0
    for loc in places.POS:
        st = copy.deepcopy(state)
        st["seats"][0]["at"] = loc
        doc = RULES.render_mail_svg(RULES.view(st, 0))
        assert _cut_tags(doc) == [], loc
        shown += "disc: on to 2" in doc
    assert shown >= 3, "the L37 tag is in the pictures around 13"
