"""Maracaibo: The Uprising, the legacy tiles that change the route (legacyboard.py; docs/rules/maracaibo-uprising.md,
"New legacy tiles"): L30 the new city, L33 the 21a outpost, L37 the 13-2 passage; by hand and in bot games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.bot import choose as bot
from engine.games.maracaibo.scoring import final_scores
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _sailing(mode: str, at: str, *tiles: str) -> State:
    """Scenario ``mode`` with only ``tiles`` of the new ones in play; Ana in ``at``, about to sail."""
    state = _started(mode=mode, at=at)
    state["legacy_new"] = list(tiles)
    state["legacy_unplayed"] = []
    state["legacy_board"] = {t: ({} if U.LEGACY[t]["kind"] == "place" else []) for t in tiles}
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    return state


def _labels(state: State, seat: int = 0) -> dict[str, str]:
    return {o.code: o.label for o in RULES.options(state, seat) if not o.code.startswith(("p", "k"))}


def test_it_takes_an_influence_marker_the_first_time_at_the_new_city_for_5_doubloons_a_rank() -> None:
    state = _sailing("78", "8", "L30")
    p = state["seats"][0]
    p["influence"] = {"france": 0, "england": 2, "spain": 7}
    p["doubloons"], p["combat_points"], p["figures"], p["assist"] = 0, 0, 3, [{"card": 24, "loc": "3", "since": 0},
                                                        {"card": 8, "loc": "5", "since": 0}]
    assert "give up one of your influence markers" in _labels(state)["s10a"]
    RULES.apply(state, 0, {"code": "s10a"})
    assert state["stack"][-1]["kind"] == "newcity" and set(_labels(state)) == {"gf", "ge", "gs"}
    RULES.apply(state, 0, {"code": "gs"})
    assert p["doubloons"] == 5 * C.rank(7) and state["legacy_board"]["L30"] == {"0": "spain"}
    # the city action is the main action there: 2 assistants and 3 figures, 5 doubloons and 5 combat points (W4)
    assert "city" in _labels(state)
    RULES.apply(state, 0, {"code": "city"})
    if state["stack"] and state["stack"][-1]["kind"] == "city":
        RULES.apply(state, 0, {"code": "go"})
    assert (p["doubloons"], p["combat_points"]) == (5 * C.rank(7) + 5, 5)
    # influence with Spain is lost from now on, and Spain scores nothing for Ana at the end
    state["stack"] = [frame("nation", 0, n=1)]
    assert set(_labels(state)) == {"nf", "ne"}
    spain_vp = final_scores(state)[0]["nations"]
    state["legacy_board"] = {"L30": {}}
    assert final_scores(state)[0]["nations"] > spain_vp


def test_it_lets_a_player_back_into_the_new_city_without_a_second_marker() -> None:
    state = _sailing("79", "8", "L30")
    state["legacy_board"]["L30"] = {"0": "france"}
    assert "influence markers" not in _labels(state)["s10a"]
    RULES.apply(state, 0, {"code": "s10a"})
    assert state["stack"][-1]["kind"] == "main" and "city" in _labels(state)


def test_it_puts_a_disc_on_the_21a_outpost_then_a_village_action_once_a_player() -> None:
    state = _sailing("79", "20", "L33")
    p = state["seats"][0]
    RULES.apply(state, 0, {"code": "s21a"})
    assert state["stack"][-1]["kind"] == "legacydisc" and set(_labels(state)) == {"yes", "no"}
    discs = sum(p["discs"].values())
    RULES.apply(state, 0, {"code": "yes"})
    assert state["legacy_board"]["L33"] == [0] and state["stack"][-1]["kind"] == "disc"
    RULES.apply(state, 0, RULES.options(state, 0)[0].move)
    assert sum(p["discs"].values()) == discs - 1
    assert state["stack"][-1]["kind"] == "village"  # then a village action
    again = _sailing("79", "20", "L33")
    again["legacy_board"]["L33"] = [0]  # Ana's space is taken: the discs stay across rounds
    RULES.apply(again, 0, {"code": "s21a"})
    assert again["stack"][-1]["kind"] == "main"


def test_it_offers_the_21a_outpost_only_before_the_last_round() -> None:
    state = _sailing("79", "20", "L33")
    state["round"] = state["rounds"]
    RULES.apply(state, 0, {"code": "s21a"})
    assert state["stack"][-1]["kind"] != "legacydisc"


def test_it_takes_the_13_to_2_passage_once_for_a_disc_with_the_movement_left() -> None:
    state = _sailing("79", "11", "L37")
    p = state["seats"][0]
    labels = _labels(state)
    # the rulebook's example: from 11 the ship may reach 6 (2 to 13, then 2, 3, 4, 5, 6)
    assert "x6" in labels and labels["x6"].startswith("sail 6 to 6 ") and "passage" in labels["x6"]
    assert "x2" in labels and not any(c.startswith("x") and c[1:] == "8" for c in labels)
    discs = sum(p["discs"].values())
    RULES.apply(state, 0, {"code": "x6"})
    assert p["at"] == "6" and state["legacy_board"]["L37"] == [0]
    while state["stack"][-1]["kind"] == "disc":
        RULES.apply(state, 0, RULES.options(state, 0)[0].move)
    assert sum(p["discs"].values()) == discs - 1
    assert state["stack"][-1]["kind"] == "main" and state["stack"][-1]["data"]["spent"] == 6
    again = _sailing("79", "11", "L37")
    again["legacy_board"]["L37"] = [0]  # once a player
    assert not any(c.startswith("x") for c in _labels(again))


def _bot_game(mode: str, n: int, seed: str) -> Counter[str]:
    state = RULES.setup(player_names(n), {"mode": mode}, seed)
    rnd = random.Random(f"{seed}-bot")
    used: Counter[str] = Counter()
    while pending := RULES.pending(state):
        seat = pending[0]
        kind = state["stack"][-1]["kind"] if state["stack"] else ""
        pick = bot(state, seat, RULES.options(state, seat), rnd)
        if kind in ("newcity", "legacydisc") or (kind == "sail" and pick.code.startswith("x")):
            used[kind if kind != "sail" else "passage"] += 1
        RULES.apply(state, seat, pick.move)
    return used


def test_the_bot_takes_the_outpost_and_the_passage_in_its_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(U.SCENARIOS["78"], "legacy", ["L1", "L30", "L40", "L33", "L37"])
    used: Counter[str] = Counter()
    for seed in range(4):
        used += _bot_game("78", 3, f"legacyboard-{seed}")
    assert used["legacydisc"] and used["passage"], used


def test_the_bot_gives_up_the_influence_marker_worth_least_at_the_new_city() -> None:
    state = _sailing("78", "8", "L30")
    p = state["seats"][0]
    p["influence"] = {"france": 9, "england": 0, "spain": 5}
    RULES.apply(state, 0, {"code": "s10a"})
    pick = bot(state, 0, [o for o in RULES.options(state, 0) if o.code.startswith("g")], random.Random(1))
    assert pick.code == "ge"  # no rank with England: nothing lost at the end, nothing paid either


def test_the_catalogue_lists_every_card_dealt_and_the_expansions_tiles() -> None:
    from engine.games.maracaibo.catalogue import catalogue

    cat = catalogue()
    cards = {c["id"]: c for c in cat["cards"]}
    assert set(cards) == set(C.CARD)  # the Uprising's cards too: a page can show any card dealt
    new = cards[int(U.CARDS[0]["id"])]
    assert new["expansion"] == "uprising" and new["text"] and new["effects"][0]["text"]
    up = cat["uprising"]
    legacy = {t["id"]: t for t in up["legacy"]}
    assert legacy["L30"]["loc"] == "10a" and legacy["L31"]["after_space"] == 11 and legacy["L37"]["loc"] == "13"
    assert len(up["quests"]) == 28 and len(up["city_tiles"]) == 2 and up["career"]["id"] == U.NEW_CAREER["id"]
    assert "10a" in {p["id"] for p in cat["places"]} and {"from": "10", "to": "10a"} in cat["routes"]


def test_the_board_picture_and_text_show_what_lies_on_the_new_legacy_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(U.SCENARIOS["78"], "legacy", ["L1", "L30", "L40", "L31", "L33", "L37"])
    state = RULES.setup(player_names(3), {"mode": "78"}, "picture")
    rnd = random.Random(3)
    while state["round"] < 3:  # a real game by the bot, two rounds in
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, bot(state, seat, RULES.options(state, seat), rnd).move)
    board = state["legacy_board"]
    state["legacy_board"] = {**board, "L30": {"1": "spain"}, "L32": {"0": 2}}
    state["seats"][2]["explorer2"] = 4  # Roatán's figure
    state["revision"] += 1
    view = RULES.view(state, 0)
    text = RULES.render_text(view)
    assert "On the new city's Dutch flag (L30): Bruno's Spain marker." in text
    assert "The ruin track (L32): Ana's figure on space 2." in text and "10a Willemstad: city" in text
    for tile in ("L33", "L37"):
        assert (f"({tile}): " in text) == bool(board[tile])
    svg = RULES.render_svg(view)
    assert ">Willemstad<" in svg and "toll: 1 marker" in svg and "disc + village" in svg and "disc: on to 2" in svg
    assert "Ruin track" in svg and "the ruin (L31)" in svg and 'stroke-width="1.4"' in svg  # Roatán's ring
    assert "green tag:" in svg  # (the legend's words wrapped to its room: test_maracaibo_uprising_legend.py)


def test_every_new_legacy_tiles_tag_lies_wholly_on_the_map() -> None:
    """QA: L36's tag at 8 Martinique ran past the map's right edge (x 604 to 660 of 640), cut to
    '-2 goods' on the page; a tag that would leave the map is drawn left of its place."""
    import xml.etree.ElementTree as ET

    from engine.games.maracaibo.places import MAP_W, POS
    from engine.games.maracaibo.render_map import NEW_TAGS

    state = _sailing("78", "8", *NEW_TAGS)
    svg = RULES.render_svg(RULES.view(state, 0))
    rects = [el for el in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect")
             if el.get("class") == "newtile"]
    assert len(rects) == len(NEW_TAGS)
    for el in rects:
        x, w = float(el.get("x") or 0), float(el.get("width") or 0)
        assert x >= 0 and x + w <= MAP_W, (x, w)
    assert "-2 goods +2 d" in svg
    martinique = POS[str(U.LEGACY["L36"]["loc"])]
    assert any(float(el.get("x") or 0) + float(el.get("width") or 0) < martinique[0] for el in rects)


def test_no_new_legacy_tiles_tag_covers_a_place_its_flag_or_its_name() -> None:
    """QA (a 79 game's page at 1280 px): L30's 'toll: 1 marker' under Willemstad hid Cumana's flag (who
    owns 11) and L34's 'reveal: reward' by San Juan covered St. Kitts' circle and flag. Every tag of
    the page's map keeps off every place, the owner's flag beside it and its name (less 3 px a side:
    the measured width of a text is a generous one)."""
    import xml.etree.ElementTree as ET

    from engine import svg as kit
    from engine.games.maracaibo.places import POS
    from engine.games.maracaibo.render_map import NEW_TAGS

    state = _sailing("78", "8", *NEW_TAGS)
    svg = RULES.render_svg(RULES.view(state, 0))
    tags = [el for el in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect") if el.get("class") == "newtile"]
    assert len(tags) == len(NEW_TAGS)
    keep_off = []
    for loc, (x, y) in POS.items():
        if loc not in C.LOC:
            continue
        label = str(C.LOC[loc]["name"]).split(": ", 1)[-1]
        w = kit.text_width(label, 7.5 if len(label) < 14 else 7) / 2 - 3
        r = {"city": 13, "village": 11}.get(str(C.LOC[loc]["kind"]), 9)  # half a city's box, a circle's radius
        keep_off += [(loc, "place", (x - r, y - r, x + r, y + r)), (loc, "flag", (x + 8, y - 18, x + 18, y - 10)),
                     (loc, "name", (x - w, y + 14, x + w, y + 22))]
    for el in tags:
        x, y, w, h = (float(el.get(k) or 0) for k in ("x", "y", "width", "height"))
        hits = [(loc, what) for loc, what, (a, b, c, d) in keep_off if x < c and a < x + w and y < d and b < y + h]
        assert not hits, (el.get("x"), el.get("y"), hits)
