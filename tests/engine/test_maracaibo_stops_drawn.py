"""What a stop costs or gives is on the map and in the text (issue 21): in scenario 77 the legacy
stop tiles (L5: ending a sail at Tortuga gives a combat point; L8: at Belize it takes 2 doubloons)
are tagged on the page's map and in a mail's picture ("+1 CP", "-2 d", with the legend's words),
and the text's list of places says them; the base game's places say what annexing gives, their
market and their city action. Over a real game played by the engine."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import engine
from engine.games.maracaibo import content as C
from engine.games.maracaibo.places import POS
from tests.engine import svg_checks
from tests.engine.test_mail_picture_reach import _sail_states

RULES = engine.get("maracaibo")
NS = "{http://www.w3.org/2000/svg}"


def _tags(doc: str) -> list[str]:
    """The stop tags drawn: the text right after each ``rect.stop``."""
    root = ET.fromstring(doc)
    out, after = [], False
    for el in root.iter():
        if el.tag == f"{NS}rect" and "stop" in (el.get("class") or "").split():
            after = True
        elif after and el.tag == f"{NS}text":
            out.append("".join(el.itertext()))
            after = False
    return out


def _place_line(text: str, loc: str) -> str:
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"  {loc} "))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].startswith("    "))
    return " ".join(line.strip() for line in lines[start:end])


def test_it_tags_the_legacy_stops_on_the_map_and_says_them_in_the_text() -> None:
    st = RULES.setup(["Ana", "Bruno"], {"scenario": 77}, "stops-drawn")
    stops = {C.LEGACY[t]["loc"]: C.LEGACY[t] for t in st["legacy"] if C.LEGACY[t]["kind"] == "stop"}
    assert set(stops) == {"3", "18"}
    view = RULES.view(st, 0)
    page = RULES.render_svg(view)
    assert sorted(_tags(page)) == ["+1 CP", "-2 d"]
    assert not svg_checks.unreadable(svg_checks.labels(page)), svg_checks.unreadable(svg_checks.labels(page))
    assert "legacy tile (ending a sail there)" in page, "the legend says what the tags are"
    text = RULES.render_text(view)
    assert "stop: ending your sailing at Tortuga (3): 1 combat point (legacy tile L5)" in _place_line(text, "3")
    assert "stop: ending your sailing at Belize (18) costs 2 doubloons (or all you have) (legacy tile L8)" \
        in _place_line(text, "18")
    # a base-game city says what annexing it gives, its market and its city action
    assert _place_line(text, "5").startswith("5 Santo Domingo: city; annex 4 doubloons; market corn/cotton")
    assert "action: " in _place_line(text, "5")
    # a mail's picture near Tortuga shows its tag, and its legend (the mail's text) says it
    shown = 0
    for st2, seat, opts in _sail_states(2, 5, {"scenario": 77}, want=30):
        if not any(o.code == "s3" for o in opts):
            continue
        doc = RULES.render_mail_svg(RULES.view(st2, seat))
        nested = next(e for e in ET.fromstring(doc) if e.tag == f"{NS}svg")
        x, y, w, h = (float(v) for v in (nested.get("viewBox") or "").split())
        px, py = POS["3"]  # Tortuga's place on the map
        if x <= px - 40 and px <= x + w and y <= py <= y + h:
            assert "+1 CP" in _tags(doc)
            assert "legacy stop tile" in doc
            shown += 1
    assert shown, "some ship could sail to Tortuga with Tortuga in its picture"


def test_it_draws_no_stop_tag_without_stop_tiles() -> None:
    st = RULES.setup(["Ana", "Bruno"], {}, "stops-none")
    view = RULES.view(st, 0)
    assert _tags(RULES.render_svg(view)) == [] and _tags(RULES.render_mail_svg(view)) == []
    assert "stop:" not in RULES.render_text(view)
    assert "legacy stop tile" not in RULES.render_mail_svg(view)


def test_the_mail_lists_where_the_ship_can_sail_with_what_each_stop_gives() -> None:
    from engine.games.maracaibo import sailing

    seen_stop = seen_village = seen_city = 0
    for players, seed, options in ((2, 5, {"scenario": 77}), (3, 6, None), (1, 7, None)):
        for st, seat, _opts in _sail_states(players, seed, options, want=8):
            text = RULES.render_mail_text(RULES.view(st, seat))
            head = "WHERE YOUR SHIP CAN SAIL (place (movement): what ending there gives)"
            assert head in text
            lines = text.split(head, 1)[1].strip("\n").split("\n\n", 1)[0].splitlines()
            listed = [line.strip() for line in lines if not line.startswith("    ")]
            offered = sailing.sail_targets(st, seat)
            assert [line.split(" ", 1)[0] for line in listed] == [loc for loc, _spent in offered]
            for line, (loc, spent) in zip(listed, offered, strict=True):
                assert f"({spent}):" in line, line
                if C.LOC[loc]["kind"] == "village" and "village action" in line:
                    n = sailing.village_count(st["seats"][seat], spent)
                    assert f": {n} village action" in line, line
                    seen_village += 1
                if "deliver" in line:
                    seen_city += 1
                if "stop:" in line:
                    assert loc in ("3", "18") and ("+1 CP" in line or "-2 d" in line)
                    seen_stop += 1
    assert seen_stop and seen_village and seen_city


def test_a_sail_link_on_the_page_map_says_what_ending_there_gives() -> None:
    from engine.games.maracaibo import sailing

    checked = 0
    for st, seat, opts in _sail_states(2, 5, {"scenario": 77}, want=6):
        offered = dict(sailing.sail_targets(st, seat))
        view = {**RULES.view(st, seat), "links": {loc: f"?play=s{loc}" for loc in offered},
                "link_titles": {o.code[1:]: o.label for o in opts if o.label.startswith("sail ")}}
        root = ET.fromstring(RULES.render_svg(view))
        for a in root.iter(f"{NS}a"):
            loc = a.get("data-place") or ""
            title = "".join(next(a.iter(f"{NS}title")).itertext())
            assert title.startswith("sail "), title
            assert "village action" in title or "city action" in title or "VP" in title or "explore" in title
            if "village action" in title:
                n = sailing.village_count(st["seats"][seat], offered[loc])
                assert f": {n} village action" in title, title
            if loc in ("3", "18"):
                assert "stop: " in title and ("+1 CP" in title or "-2 d" in title), title
            checked += 1
    assert checked >= 10
