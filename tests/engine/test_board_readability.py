"""The boards can be read (issue 10), checked on the SVG geometry of real game states:
labels at least 10 px and never overlapping, every text at WCAG AA contrast on what it is
drawn over, the viewer's own pieces marked, every symbol in the legend."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import engine
from engine import svg
from engine.games.caravelas import board as B
from engine.games.caravelas import render as CR
from engine.games.maretta.cards import BARREL_NAMES
from tests.engine import svg_checks
from tests.engine.test_maretta_hidden import random_states
from tests.sampling import played_states

MIN_SIZE = 10


def _classes(doc: str, name: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(doc).iter() if name in (e.get("class") or "").split()]


def _check_readable(doc: str, what: str) -> list[svg_checks.Label]:
    found = svg_checks.labels(doc)
    small = [(lab.text, lab.size) for lab in found if lab.size < MIN_SIZE]
    assert not small, f"{what}: labels smaller than {MIN_SIZE} px: {small[:5]}"
    assert not svg_checks.overlapping(found), f"{what}: labels overlap: {svg_checks.overlapping(found)[:5]}"
    assert not svg_checks.unreadable(found), f"{what}: below WCAG AA contrast: {svg_checks.unreadable(found)[:5]}"
    return found


def caravelas_states(n: int, seed: int, every: int = 25) -> list[dict[str, Any]]:
    return played_states("caravelas", ["Ana", "Bruno", "Carla", "Duarte"][:n], {}, f"readable-{seed}", seed,
                         every=every, limit=8)


def test_the_contrast_ratio_is_computed_as_wcag_defines_it() -> None:
    assert svg_checks.contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert svg_checks.contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert svg.contrast("#2f6fd0", "#ffffff") == pytest.approx(svg_checks.contrast("#2f6fd0", "#ffffff"))
    assert svg.ink_on("#e0b000") == "#111111" and svg.ink_on("#7b3fa0") == "#ffffff"


def test_the_checks_see_an_overlap_and_a_faint_label() -> None:
    doc = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100%" height="100%" '
           'fill="#ffffff"/><text x="10" y="20" font-size="12">Madeira</text>'
           '<text x="30" y="22" font-size="12" fill="#bbbbbb">Arguim</text></svg>')
    found = svg_checks.labels(doc)
    assert svg_checks.overlapping(found) == [("Madeira", "Arguim")]
    assert [u[0] for u in svg_checks.unreadable(found)] == ["Arguim"]


@pytest.mark.parametrize("n", [2, 4])
def test_caravelas_labels_are_big_apart_and_readable_and_my_fleet_is_marked(n: int) -> None:
    rules = engine.get("caravelas")
    for st in caravelas_states(n, n):
        for seat in (None, 0, n - 1):
            doc = rules.render_svg(rules.view(st, seat))
            found = _check_readable(doc, f"caravelas {n}p seat {seat}")
            chips = [svg_checks.Box(float(e.get("x") or 0), float(e.get("y") or 0),
                                    float(e.get("x") or 0) + float(e.get("width") or 0),
                                    float(e.get("y") or 0) + float(e.get("height") or 0))
                     for e in _classes(doc, "fleet") + _classes(doc, "mine")]
            for lab in found:
                cx, cy = (lab.box.x0 + lab.box.x1) / 2, (lab.box.y0 + lab.box.y1) / 2
                for chip in chips:
                    inside = chip.x0 <= cx <= chip.x1 and chip.y0 <= cy <= chip.y1  # the fleet's own letter
                    assert inside or not lab.box.overlaps(chip), f"a fleet covers the label {lab.text!r}"
            assert len(_classes(doc, "fleet")) == n
            assert len([e for e in _classes(doc, "mine") if "key" not in (e.get("class") or "")]) == (
                0 if seat is None else 2), "my fleet on the map and in the legend"


def test_caravelas_shows_cube_values_and_which_caravela_takes_each_colour() -> None:
    rules = engine.get("caravelas")
    doc = rules.render_svg(rules.view(caravelas_states(3, 1)[0], 0))
    words = [e.text or "" for e in ET.fromstring(doc).iter()]
    for colour, cube in B.CUBES.items():
        assert f"{colour}: {cube['points']} pts, caravela {cube['caravela']}" in words
    assert "your fleet (white frame); others: their initial" in words
    assert sum(w == "caravela 1" for w in words) == 3, "each player's board names its caravelas"


def test_caravelas_wind_routes_pass_over_the_lines_they_cross() -> None:
    """Where a wind route crosses a line without a junction, a sea-coloured band under the
    route interrupts the line, drawn after every line and before any route."""
    rules = engine.get("caravelas")
    doc = rules.render_svg(rules.view(caravelas_states(2, 2)[0], None))
    polys = [e for e in ET.fromstring(doc).iter() if e.tag.endswith("polyline")]
    bands = [i for i, e in enumerate(polys) if e.get("stroke") == CR.SEA]
    lines = [i for i, e in enumerate(polys) if "route" in (e.get("class") or "")]
    routes = [i for i, e in enumerate(polys) if "arrows" in (e.get("class") or "")]
    assert len(bands) == len(B.MAP["arrows"]) and max(lines) < min(bands) and max(bands) < min(routes)
    assert all(float(polys[i].get("stroke-width") or 0) > 3 * 2 for i in bands)


def test_caravelas_label_layout_is_computed_once() -> None:
    assert CR.label_layout() is CR.label_layout()
    names = [t[0] for t in CR.label_layout()]
    assert "Volta do Largo" in names and "Guiné (1)" in names and names.count("s16") == 1


@pytest.mark.parametrize(("side", "n"), [("A", 3), ("A", 5), ("B", 4)])
def test_maretta_labels_are_big_apart_and_readable_and_my_pawn_is_marked(side: str, n: int) -> None:
    rules = engine.get("maretta")
    for st in random_states(side, n, 7, every=6):
        for seat in (None, 0):
            view = rules.view(st, seat)
            doc = rules.render_svg(view)
            _check_readable(doc, f"maretta {side} {n}p seat {seat}")
            words = " ".join(e.text or "" for e in ET.fromstring(doc).iter())
            for bs in view["barrels"].values():
                for b in bs:
                    assert (BARREL_NAMES[b] if b != "?" else "face-down barrel") in words, "a barrel chip's legend"
            mine = _classes(doc, "mine")
            caught = side == "B" and seat is not None and view["out"][seat] is not None
            assert len(mine) == (0 if seat is None else 2 + (not caught)), "on the route, by my name, in the legend"
            if seat is not None:
                assert f"{view['players'][seat]} (you" in words


@pytest.mark.parametrize("side", ["A", "B"])
def test_maretta_tells_all_of_this_turns_movement_so_far(side: str) -> None:
    """"moved N this turn" by each player's name, on the board's legend and in the text, counts
    every space their pawn went this turn, as the game's events tell it: the raft's difference
    (side A) or the stacks (side B), the 2 spaces for placing a card (side A), a Fishing Spear's
    swap; not only the raft's difference (the view's ``movement``, which boarding counts)."""
    rules = engine.get("maretta")
    told = more_than_the_raft = spear = 0
    for seed in range(6):
        rnd = random.Random(seed)
        st = rules.setup(["Ana", "Bruno", "Carla"], {"side": side}, f"moved-{seed}")
        ahead, back, pos = [0, 0, 0], [0, 0, 0], list(st["pos"])  # as the events tell them
        while rules.pending(st):
            s = rnd.choice(rules.pending(st))
            for e in rules.apply(st, s, rnd.choice(rules.options(st, s)).move):
                if e.kind == "turn":
                    ahead, back = [0, 0, 0], [0, 0, 0]
                elif e.kind == "move":
                    ahead[e.data["seat"]] += e.data.get("steps", 0)
                    pos[e.data["seat"]] = e.data["to_space"]
                elif e.kind == "swap":
                    spear += 1
                    a, b = e.data["seat"], e.data["with_seat"]
                    ahead[a] += max(0, pos[b] - pos[a])
                    back[b] += max(0, pos[b] - pos[a])
                    pos[a], pos[b] = pos[b], pos[a]
            assert pos == st["pos"]
            if not rules.pending(st):
                break
            view = rules.view(st, None)
            doc, text = rules.render_svg(view), rules.render_text(view)
            words = " ".join(t.text or "" for t in ET.fromstring(doc).iter() if t.text)
            for p in range(3):
                caught = side == "B" and view["out"][p] is not None
                expect = [f"moved {ahead[p]} this turn"] if ahead[p] else []
                expect += [f"swapped back {back[p]}"] if back[p] else []
                line = next(x for x in text.split("\n") if x.startswith(view["players"][p]))
                if expect and not caught:
                    told += 1
                    more_than_the_raft += ahead[p] != view["movement"][p]
                    assert ", ".join(expect) in line, (line, expect)
                    assert f"{view['players'][p]} (" in words and ", ".join(expect) in words.replace("  ", " ")
                else:
                    assert "moved" not in line and "swapped back" not in line, line
    assert told
    if side == "A":  # side B moves by its stacks alone, but for a spear
        assert more_than_the_raft and spear, "the games had movement beyond the raft's difference, and a spear"


def test_maretta_space_numbers_sit_inside_their_spaces_so_no_connector_crosses_them() -> None:
    rules = engine.get("maretta")
    st = random_states("A", 3, 3, every=50)[0]
    doc = rules.render_svg(rules.view(st, None))
    root = ET.fromstring(doc)
    spaces = [(float(e.get("cx") or 0), float(e.get("cy") or 0)) for e in root.iter()
              if e.tag.endswith("circle") and e.get("class") == "space"]
    numbers = [e for e in root.iter() if e.tag.endswith("text") and (e.text or "").isdigit()
               and e.get("font-size") == "13"]
    assert len(numbers) >= st["end"] - 1
    for e in numbers:
        x, y = float(e.get("x") or 0), float(e.get("y") or 0) - 5
        assert any(abs(x - cx) < 1 and abs(y - cy) < 1 for cx, cy in spaces), e.text


#: What a 390 px phone has for the board inside the page's margins.
PHONE_WIDTH = 358
PHONE_MIN_SIZE = 12


@pytest.mark.parametrize(("side", "n"), [("A", 3), ("A", 5), ("B", 4)])
def test_maretta_phone_board_fits_a_phone_with_text_of_12_px_apart_and_readable(side: str, n: int) -> None:
    rules = engine.get("maretta")
    for st in random_states(side, n, 7, every=6):
        for seat in (None, 0):
            (doc,) = rules.render_phone_svg(rules.view(st, seat))
            width = float(ET.fromstring(doc).get("width") or 0)
            assert 300 < width <= PHONE_WIDTH, "shown at its own size or bigger on a phone"
            found = _check_readable(doc, f"maretta phone {side} {n}p seat {seat}")
            small = [(lab.text, lab.size) for lab in found if lab.size < PHONE_MIN_SIZE]
            assert not small, f"labels under {PHONE_MIN_SIZE} px on a phone: {small[:5]}"
            wide = [lab.text for lab in found if lab.box.x0 < 0 or lab.box.x1 > width]
            assert not wide, f"labels cut off at the sides: {wide[:5]}"


def _points(e: ET.Element) -> list[tuple[float, float]]:
    return [(float(a), float(b)) for a, b in (p.split(",") for p in (e.get("points") or "").split())]


def test_maretta_draws_each_pawns_trail_through_the_spaces_it_went_through_this_turn() -> None:
    rules = engine.get("maretta")
    drawn = 0
    for st in random_states("A", 3, 5, every=2):
        view = rules.view(st, None)
        for s, trail in enumerate(view["trail"]):
            assert trail[-1] == view["pos"][s], "a trail ends where the pawn is"
        for doc in (rules.render_svg(view), rules.render_phone_svg(view)[0]):
            root = ET.fromstring(doc)
            centres = [(float(e.get("cx") or 0), float(e.get("cy") or 0)) for e in _classes(doc, "space")]
            assert len(centres) == view["end"] + 1
            for s, trail in enumerate(view["trail"]):
                lines = [e for e in root.iter() if (e.get("class") or "") == f"trail seat{s}"]
                rings = [e for e in root.iter() if (e.get("class") or "") == f"trail-ring seat{s}"]
                if len(trail) < 2:
                    assert not lines and not rings, "no trail for a pawn that has not moved this turn"
                    continue
                (line,) = lines
                points = _points(line)
                assert len(points) == len(trail)
                for (x, y), i in zip(points, trail, strict=True):
                    cx, cy = centres[i]
                    assert abs(x - cx) <= 10 and abs(y - cy) <= 10, f"the trail passes through space {i}"
                ringed = sorted(centres.index((float(e.get("cx") or 0), float(e.get("cy") or 0))) for e in rings)
                assert ringed == sorted(trail[:-1]), "a ring in every space left behind this turn"
                assert "a pawn's trail this turn" in doc
                drawn += 1
    assert drawn > 5, "the game had trails to draw"


def test_maretta_trails_start_again_each_turn() -> None:
    rules = engine.get("maretta")
    for st in random_states("B", 3, 9, every=1):
        view = rules.view(st, None)
        if view["phase"] == 1:
            assert view["trail"] == [[p] for p in view["pos"]]


@pytest.mark.parametrize("n", [2, 4])
def test_caravelas_phone_board_is_the_map_then_a_strip_that_fits_a_phone(n: int) -> None:
    rules = engine.get("caravelas")
    for st in caravelas_states(n, n):
        for seat in (None, 0):
            view = rules.view(st, seat)
            the_map, strip = rules.render_phone_svg(view)
            assert svg.drawn_width(the_map) == B.MAP["width"], "the map whole (the page pans it)"
            _check_readable(the_map, f"caravelas map {n}p")
            assert svg.drawn_width(strip) <= PHONE_WIDTH
            found = _check_readable(strip, f"caravelas strip {n}p seat {seat}")
            assert min(lab.size for lab in found) >= PHONE_MIN_SIZE
            assert all(lab.box.x0 >= 0 and lab.box.x1 <= PHONE_WIDTH for lab in found), "nothing cut off"
            words = [lab.text for lab in found]
            assert sum(w.startswith(tuple(view["players"])) for w in words) >= n, "every player's board"
            assert any(w.startswith("red: 4 pts, caravela 1") for w in words)


def maracaibo_states(players: int, seed: int, every: int = 40) -> list[dict[str, Any]]:
    return played_states("maracaibo", ["Ana", "Bruno", "Carla", "Duarte"][:players], {}, f"readable-{seed}", seed,
                         every=every, limit=5)


@pytest.mark.parametrize("n", [1, 4])
def test_maracaibo_phone_board_is_the_map_then_the_rest_drawn_to_fit_a_phone(n: int) -> None:
    rules = engine.get("maracaibo")
    for st in maracaibo_states(n, n):
        for seat in (None, 0):
            view = rules.view(st, seat)
            the_map, rest = rules.render_phone_svg(view)
            assert "Havana" in the_map and svg.drawn_width(the_map) == 640, "the map whole (the page pans it)"
            assert svg.drawn_width(rest) <= PHONE_WIDTH
            found = _check_readable(rest, f"maracaibo {n}p seat {seat}")
            assert min(lab.size for lab in found) >= PHONE_MIN_SIZE
            assert all(lab.box.x0 >= 0 and lab.box.x1 <= PHONE_WIDTH for lab in found), "nothing cut off"
            words = " ".join(lab.text for lab in found)
            for name in view["players"]:
                assert f"{name}{' (you)' if view['players'][0] == name and seat == 0 else ''}:" in words
            assert ("Ship board" in words) == (seat is not None), "my ship board, only for me"
