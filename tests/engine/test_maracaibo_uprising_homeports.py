"""Maracaibo: The Uprising: the game mode, the new ship boards and the Home Ports module
(docs/rules/maracaibo-uprising.md, "Components and setup changes", "Home Ports")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.errors import SetupError
from engine.games.maracaibo import RULES, homeports
from engine.games.maracaibo.effects import compass
from engine.games.maracaibo.sailing import sail_targets
from engine.stack import frame
from engine.testing import check_conformance, player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _codes(state: State, seat: int = 0) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def _play(state: State, seat: int, code: str) -> list[Any]:
    return RULES.apply(state, seat, {"code": code})


def _with_port(port: str, mode: str = "78", **unlocked: Any) -> State:
    """Ana (seat 0) after the setup, her home port ``port`` kept (its area unlocked unless told)."""
    state = _started(mode=mode)
    p = state["seats"][0]
    p["port"] = port
    p["discs"] = {**p["discs"], "UH": 0}
    if unlocked.get("unlocked", True):
        p["areas"] = [*p["areas"], "UH"]
    state["revision"] += 1
    return state


def test_it_leaves_the_base_game_as_it_was() -> None:
    state = RULES.setup(player_names(3), {}, "base")
    assert state["options"]["mode"] == "base"
    assert "ports_box" not in state and all("board" not in p and "port" not in p for p in state["seats"])
    assert [o.code[0] for o in RULES.options(state, 0)] == ["p"] * 8  # plan a card, no home port


def test_it_refuses_an_expansion_mode_solo() -> None:
    with pytest.raises(SetupError, match="2 to 4 players"):
        RULES.setup(player_names(1), {"mode": "78"}, 1)


def test_it_gives_the_new_ship_board_in_every_expansion_mode() -> None:
    for mode in ("basic", "78", "79"):
        state = RULES.setup(player_names(2), {"mode": mode}, 1)
        p = state["seats"][0]
        assert p["board"] == "uprising" and p["discs"]["UR"] == 2 and "UH" not in p["discs"]
    basic = RULES.setup(player_names(2), {"mode": "basic"}, 1)
    assert "ports" not in basic["seats"][0]["setup"]  # the home port face down: none dealt
    assert _codes(basic)[0].startswith("p")


def test_it_deals_three_home_ports_and_hides_the_kept_one_until_all_have_chosen() -> None:
    state = RULES.setup(player_names(3), {"mode": "78"}, "ports")
    dealt = [list(p["setup"]["ports"]) for p in state["seats"]]
    assert all(len(d) == 3 for d in dealt) and len({x for d in dealt for x in d}) == 9
    assert len(state["ports_box"]) == 6
    assert _codes(state) == [f"h{x}" for x in dealt[0]]  # the port first, then the cards
    events = _play(state, 0, f"h{dealt[0][1]}")
    assert [e.to for e in events] == [(0,)]
    assert RULES.view(state, 0)["me"]["port"] == dealt[0][1]
    for seat in (1, 2, None):
        view = RULES.view(state, seat)
        # (whole ids: "HP1" is not in another seat's "HP11")
        assert not re.search(rf"\b({dealt[0][1]}|{dealt[0][0]})\b", str(view))
    assert _codes(state)[0].startswith("p")
    while state["stack"] and state["stack"][-1]["kind"] == "setup":
        seat = RULES.pending(state)[0]
        _play(state, seat, _codes(state, seat)[0])
    assert state["seats"][0]["port"] == dealt[0][1]
    assert all(p["port"] and p["discs"]["UH"] == 2 for p in state["seats"])
    assert state["ports_kept"] == {} and len(state["ports_box"]) == 12
    assert RULES.view(state, 1)["p"][0]["port"] == dealt[0][1]  # public now


def test_it_unlocks_the_home_port_like_an_upgrade_and_offers_its_bonus_once() -> None:
    state = _with_port("HP8", unlocked=False)  # Grand Turk: pay 5 doubloons for 5 VP
    p = state["seats"][0]
    p["discs"] = {**p["discs"], "UH": 1}
    p["doubloons"], p["victory_points"] = 7, 0
    _on(state, frame("disc", 0, n=1))
    assert "uH" in _codes(state)
    _play(state, 0, "uH")
    assert "UH" in p["areas"] and state["stack"][-1]["kind"] == "portbonus"
    assert _codes(state) == ["yes", "no"]
    _play(state, 0, "yes")
    assert (p["doubloons"], p["victory_points"]) == (2, 5)


def test_it_loses_the_home_port_bonus_when_declined_or_unaffordable() -> None:
    state = _with_port("HP8")
    p = state["seats"][0]
    p["doubloons"], p["victory_points"] = 4, 0
    _on(state, frame("portbonus", 0, ask=True))
    assert _codes(state) == ["no"]  # 5 doubloons needed
    _play(state, 0, "no")
    assert (p["doubloons"], p["victory_points"]) == (4, 0) and not state["stack"]


def test_it_gives_vp_for_a_home_ports_influence_with_liberation() -> None:
    state = _with_port("HP2", mode="79")  # Bremen: 3 doubloons for 1 influence, 2 VP with Liberation
    p = state["seats"][0]
    p["doubloons"], p["victory_points"] = 5, 0
    _on(state, frame("portbonus", 0, ask=True))
    _play(state, 0, "yes")
    assert (p["doubloons"], p["victory_points"], sum(p["influence"].values())) == (2, 2, 0)


def test_it_pays_the_resistance_slot_and_the_compass_upgrade_of_the_new_board() -> None:
    state = _started(mode="basic")
    p = state["seats"][0]
    p["doubloons"] = 0
    p["discs"] = {**p["discs"], "UR": 1, "U4": 1}
    _on(state, frame("disc", 0, n=2))
    assert {"uR", "u4"} <= set(_codes(state))
    _play(state, 0, "uR")
    assert p["doubloons"] == 5  # the resistance tile's front: take 5 doubloons
    _play(state, 0, "u4")
    assert p["doubloons"] == 8  # the indicated upgrade: 3 doubloons and a compass
    assert compass(p) == 2


def test_it_pays_grand_turk_for_ending_at_an_english_marker_only() -> None:
    state = _with_port("HP8")
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    here, there = [loc for loc, _ in sail_targets(state, 0)][:2]
    state["markers"] = {here: "england", there: "france"}
    p = state["seats"][0]
    d = p["doubloons"]
    _play(state, 0, f"s{here}")
    assert p["doubloons"] == d + 2
    state = _with_port("HP8")
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    state["markers"] = {here: "england", there: "france"}
    d = state["seats"][0]["doubloons"]
    _play(state, 0, f"s{there}")
    assert state["seats"][0]["doubloons"] == d


def test_it_offers_bremens_village_action_while_the_tobacco_lasts() -> None:
    state = _with_port("HP2")
    p = state["seats"][0]
    p["hand"] = [8, 24, 36]  # three tobacco cards
    _on(state, frame("village", 0, left=3, used=[]))
    d = p["doubloons"]
    _play(state, 0, "vH")
    _play(state, 0, "y8-24")  # which two of the three: the player's choice (frame trade)
    assert p["doubloons"] == d + 5 and p["hand"] == [36]
    assert "vH" not in _codes(state)  # one tobacco left


def test_it_gives_genova_influence_with_the_nation_holding_the_fewest_locations() -> None:
    state = _with_port("HP4")
    state["markers"] = {"2": "france", "3": "france", "6": "spain", "8": "spain", "9": "england"}
    ev: list[Any] = []
    assert homeports.income(state, 0, ev) == []
    assert state["seats"][0]["influence"]["england"] == 2
    state["markers"]["12"] = "england"
    frames = homeports.income(state, 0, ev)
    assert frames[0]["kind"] == "nation" and frames[0]["data"]["among"] == ["france", "england", "spain"]


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("mode", ["basic", "78", "79"])
def test_it_passes_the_conformance_checker_in_every_expansion_mode(n: int, mode: str) -> None:
    report = check_conformance(RULES, n, {"mode": mode, "rounds": 1}, seeds=[f"up-{n}-{mode}"])
    assert report.finished == 1 and report.resamples_that_changed > 0


def test_it_reads_a_game_saved_before_the_mode_option_as_a_base_game() -> None:
    from engine.games.maracaibo.upgrade import UPGRADES, current

    state = RULES.setup(player_names(2), {}, "old")
    state["format"] = 1
    del state["options"]["mode"]  # as every format-1 engine wrote it
    assert current(state) and state["options"]["mode"] == "base" and len(UPGRADES) == state["format"]
    assert list(state["options"]) == [s.name for s in RULES.option_specs]


def test_it_offers_kingstowns_combat_action_only_fighting_for_england_once_unlocked() -> None:
    state = _with_port("HP5")  # Kingstown: value 2 for 4 doubloons and 1 influence with England
    p = state["seats"][0]
    _on(state, frame("combat", 0, nation="england", value=5, used=[], token="T1"))
    assert "ch5" in _codes(state)
    d, inf = p["doubloons"], p["influence"]["england"]
    _play(state, 0, "ch5")
    assert (p["doubloons"], p["influence"]["england"]) == (d + 4, inf + 1)
    assert "ch5" not in _codes(state)  # once per combat
    _on(state, frame("combat", 0, nation="france", value=5, used=[], token="T1"))
    assert "ch5" not in _codes(state)  # another nation
    locked = _with_port("HP5", unlocked=False)
    _on(locked, frame("combat", 0, nation="england", value=5, used=[], token="T1"))
    assert "ch5" not in _codes(locked)


def test_it_gives_nassau_one_more_village_action_as_the_main_action_only() -> None:
    state = _with_port("HP11")  # Nassau
    state["seats"][0]["at"] = "2"
    _on(state, frame("main", 0, spent=1))  # one village action for 1 movement, two with Nassau
    assert any("(1 of 2 village actions)" in o.label for o in RULES.options(state, 0))
    _play(state, 0, "vd")
    top = state["stack"][-1]
    assert top["kind"] == "village" and top["data"]["left"] == 1
    locked = _with_port("HP11", unlocked=False)
    locked["seats"][0]["at"] = "2"
    _on(locked, frame("main", 0, spent=1))
    assert any("(1 of 1 village action)" in o.label for o in RULES.options(locked, 0))


def test_it_gives_nassau_nothing_more_for_the_village_actions_of_a_city_action_or_the_explorers_end() -> None:
    # "Este efeito não é desencadeado por ações da vila obtidas a partir de quaisquer outras ações
    # (... como parte de uma ação na cidade, de assistentes ou do último espaço na trilha do explorador)"
    state = _with_port("HP11")  # Nassau, unlocked
    p = state["seats"][0]
    p["at"], p["explorer"] = "2", 22
    _on(state, frame("main", 0, spent=1), frame("explore", 0, n=1))
    _play(state, 0, "e23")  # the track's end: its one village action
    assert [(f["kind"], f["data"].get("left")) for f in state["stack"]] == [("main", None), ("village", 1)]
    _play(state, 0, "vd")
    assert [f["kind"] for f in state["stack"]] == ["main"]  # none more: the main action's are still to come
    city = _with_port("HP11")
    city["seats"][0]["at"] = "10"  # Maracaibo's city action: a village action per compass
    _on(city, frame("main", 0, spent=1))
    _play(city, 0, "city")
    top = city["stack"][-1]
    assert top["kind"] == "village" and top["data"]["left"] == compass(city["seats"][0]) == 1
