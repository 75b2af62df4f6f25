"""Maracaibo's mail picture holds every label whole: no place name cut at the edge of the part of
the map it shows (#21, as Caravelas' in tests/engine/test_caravelas_picture_bounds.py); a name
whose place is in the part is moved in along the edge, one whose place is beyond it is left out
(the mail's text names every place in reach)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

import engine
from engine.games.maracaibo import content as C
from tests.engine.test_board_readability import maracaibo_states
from tests.engine.test_caravelas_picture_bounds import NS, outside
from tests.engine.test_mail_picture_reach import _sail_states


def _names(doc: str) -> set[str]:
    nested = next(e for e in ET.fromstring(doc) if e.tag == f"{NS}svg")
    return {"".join(t.itertext()) for t in nested.iter(f"{NS}text")}


@pytest.mark.parametrize(("players", "seed"), [(1, 11), (2, 12), (3, 13), (4, 14)])
def test_it_cuts_no_place_name_at_the_edges_of_the_mail_picture(players: int, seed: int) -> None:
    rules = engine.get("maracaibo")
    pictures = 0
    for st in maracaibo_states(players, seed, every=15):
        for seat in (None, *range(players)):
            doc = rules.render_mail_svg(rules.view(st, seat))
            assert outside(doc) == [], f"{players}p seed {seed} seat {seat}"
            pictures += 1
    for st, seat, _opts in _sail_states(players, seed, want=6):
        doc = rules.render_mail_svg(rules.view(st, seat))
        assert outside(doc) == [], f"{players}p seed {seed} seat {seat} at {st['seats'][seat]['at']}"
        # the place the ship is at keeps its name (moved in when the edge cut it)
        at = st["seats"][seat]["at"]
        assert str(C.LOC[at]["name"]).split(": ", 1)[-1] in _names(doc)
        pictures += 1
    assert pictures >= 10
