"""Maracaibo: The Uprising, the project cards' extensions of the effect language, part 1
(docs/rules/maracaibo-uprising.md, "Effect language: needed extensions"): requirement fields
(``cost_goods``, ``nation_worker``, ``token_worker``), ``income_when``, ``fight_for_pays``,
``token_choice``, ``village_variety``, ``wild_card``, ``empty_village_d``, a card's combat action
``by_object`` and the cards with the liberation symbol. Each test applies the expansion's own card
rows (data/uprising/cards.json) to a real mode-78 or 79 game set up and started by the engine, by
the options a player is offered."""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.stack import frame
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _id(name: str) -> int:
    return int(next(c["id"] for c in U.CARDS if c["name"] == name))


def _labels(state: State, seat: int = 0) -> dict[str, str]:
    return {o.code: o.label for o in RULES.options(state, seat)}


def _play(state: State, code: str, seat: int = 0) -> list[Any]:
    return RULES.apply(state, seat, {"code": code})


def _village(mode: str = "78", at: str = "6", hand: tuple[int, ...] = (1, 7, 8, 24), d: int = 20) -> State:
    """Ana in a village (San Juan, 6) after sailing 4: the first of her village actions."""
    state = _started(mode=mode, at=at, hand=hand, d=d)
    _on(state, frame("main", 0, spent=4))
    return state


# ---- by_object: a card's combat action -----------------------------------------------------------

def test_it_offers_the_fortune_tellers_combat_action_and_pays_by_the_revealed_object() -> None:
    teller = _id("Fortune Teller")
    state = _started(mode="78")
    p = state["p"][0]
    p["display"] = [teller]
    _on(state, frame("combat", 0, nation="spain", value=5, used=[], token="T1"))
    label = _labels(state)[f"cc{teller}"]
    assert label.startswith("Fortune Teller: reveal the top project card") and "herbs: 4 VP" in label
    top = state["deck"][-1]
    before = (p["d"], p["vp"], p["cp"])
    ev = _play(state, f"cc{teller}")
    assert state["discard"][-1] == top and any(e.kind == "reveal" and e.reveals for e in ev)
    got = U.CARD[teller]["effects"][0]["by_object"][C.CARD[top]["object"]]
    if "explore" in got:
        assert state["stack"][-1]["kind"] == "explore"
    else:
        assert (p["d"], p["vp"], p["cp"]) == (before[0] + got.get("d", 0), before[1] + got.get("vp", 0),
                                              min(C.COMBAT_MAX, before[2] + got.get("cp", 0)))
    combat = next(f for f in reversed(state["stack"]) if f["kind"] == "combat")
    assert combat["data"]["value"] == 2 and f"c{teller}" in combat["data"]["used"]  # value 3 paid, once


def test_it_reveals_for_the_fortune_teller_against_a_nation_in_the_liberation() -> None:
    teller = _id("Fortune Teller")
    state = _started(mode="79")
    p = state["p"][0]
    p["display"] = [teller]
    _on(state, frame("liberation", 0, nation="spain", value=4, used=[], token="T1"))
    assert "reveal the top project card" in _labels(state)[f"cc{teller}"]
    top = state["deck"][-1]
    _play(state, f"cc{teller}")
    assert state["discard"][-1] == top


# ---- the liberation symbol: a card's immediate liberation -----------------------------------------

def test_it_deals_the_cards_with_the_liberation_symbol_and_liberates_when_bought() -> None:
    camp, maroon = _id("Rebel Camp"), _id("Maroon Leader")
    assert {camp, maroon} <= {int(c["id"]) for c in U.PLAYABLE_CARDS}
    assert C.effect_text(U.CARD[camp]["effects"][0]) == ("now: remove a marker from a village of your choice (to "
                                                          "your resistance tile if you can, else out of the game), "
                                                          "and 2 VP")
    state = _village(hand=(camp, 1, 7))
    p = state["p"][0]
    state["markers"] = {"2": "england", "3": "france", "14": "spain"}  # 14 Cartagena is a city
    vp = p["vp"]
    _play(state, f"b{camp}")
    assert state["stack"][-1]["kind"] == "libvillage" and sorted(_labels(state)) [:2] == ["l2", "l3"]
    assert "l14" not in _labels(state)
    _play(state, "l2")
    assert "2" not in state["markers"] and p["vp"] == vp + 2
    assert state["stack"][-1]["kind"] == "resist"
    _play(state, "r1")
    assert p["resist"][0] == "england" and p.get("liberated", 0) == 1  # Fighting Spirit counts it


def test_it_pays_the_gravedigger_for_a_cards_liberation() -> None:
    maroon, digger = _id("Maroon Leader"), _id("Gravedigger")
    state = _village(hand=(maroon, 1, 7))
    p = state["p"][0]
    p["display"] = [digger]
    state["markers"] = {"3": "france"}
    vp = p["vp"]
    _play(state, f"b{maroon}")  # (one village holds a marker: liberated without a question)
    assert "3" not in state["markers"]
    while state["stack"][-1]["kind"] in ("removed", "resist"):
        _play(state, "r0" if state["stack"][-1]["kind"] == "resist" else RULES.options(state, 0)[0].code)
    assert p["vp"] == vp + 2  # the Gravedigger's 2 VP (the marker left the game: no space's reward)
