"""Every place a sail option can reach is in a Maracaibo mail's picture (issue 21): in the part of
the map around the ship, ringed, or, when that part misses some, in the whole sea drawn under it,
ringed and numbered; over real games played by the engine."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import engine
from engine.games.maracaibo import reach, sailing
from engine.games.maracaibo.places import POS
from tests.engine import svg_checks

NS = "{http://www.w3.org/2000/svg}"


def _sail_states(players: int, seed: int, options: dict[str, object] | None = None, want: int = 12):
    """States of a real game (random legal moves) where a seat is asked where to sail."""
    rules = engine.get("maracaibo")
    st = rules.setup(["Ana", "Bruno", "Carla", "Duarte"][:players], options or {}, f"reach-{seed}")
    rnd = random.Random(seed)
    found = 0
    for _ in range(3000):
        waiting = rules.pending(st)
        if not waiting or found >= want:
            break
        seat = waiting[0]
        opts = rules.options(st, seat)
        if any(o.label.startswith("sail ") for o in opts):
            found += 1
            yield st, seat, opts
        rules.apply(st, seat, rnd.choice(opts).move)


def _shown(doc: str) -> tuple[set[str], set[str]]:
    """The places ringed inside the part of the map (with room for their name), and those ringed
    in the whole sea under it."""
    root = ET.fromstring(doc)
    nested = next(e for e in root if e.tag == f"{NS}svg")
    x, y, w, h = (float(v) for v in (nested.get("viewBox") or "").split())
    ringed = {e.get("data-place") or "" for e in root.iter() if "reach" in (e.get("class") or "").split()}
    in_part = set()
    for loc, (px, py) in POS.items():
        if x + reach.SIDE <= px <= x + w - reach.SIDE and y <= py <= y + h - reach.BELOW:
            in_part.add(loc)
    return in_part, ringed


@pytest.mark.parametrize(("players", "seed"), [(1, 1), (2, 2), (3, 3), (4, 4)])
def test_it_shows_every_place_a_sail_option_reaches_in_the_mail_picture(players: int, seed: int) -> None:
    rules = engine.get("maracaibo")
    seen_overview = 0
    for st, seat, _opts in _sail_states(players, seed):
        view = rules.view(st, seat)
        offered = [loc for loc, _spent in sailing.sail_targets(st, seat)]
        # what the picture reads from the view is what the rules offer
        assert reach.sail_reach(view) == offered
        doc = rules.render_mail_svg(view)
        in_part, ringed = _shown(doc)
        missing = [loc for loc in offered if loc not in in_part and loc not in ringed]
        assert not missing, f"seat {seat} at {st['seats'][seat]['at']}: {missing} not in the picture"
        if ringed:
            seen_overview += 1
            assert ringed == set(offered), "the whole sea rings exactly the places in reach"
            found = svg_checks.labels(doc)
            assert {lab.text for lab in found} >= ringed, "each ringed place says its number"
            assert not svg_checks.unreadable(found), svg_checks.unreadable(found)[:3]
        # the map around the ship outlines the places in reach (thick orange), no other
        part = ET.tostring(next(e for e in ET.fromstring(doc) if e.tag == f"{NS}svg"), encoding="unicode")
        assert part.count('stroke="#c2410c" stroke-width="3"') == len([loc for loc in offered if loc in POS])
    assert seen_overview, "some ship's reach was wider than the part around it (Havana: 7 places east)"


def test_it_draws_no_reach_for_a_spectator() -> None:
    rules = engine.get("maracaibo")
    st = rules.setup(["Ana", "Bruno"], {}, "reach-spectator")
    doc = rules.render_mail_svg(rules.view(st, None))
    assert reach.sail_reach(rules.view(st, None)) == []
    assert 'class="reach"' not in doc and "whole sea" not in doc
