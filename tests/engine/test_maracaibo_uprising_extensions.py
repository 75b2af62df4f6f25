"""Maracaibo: The Uprising, the effect language's card-borne extensions (docs/rules/maracaibo-uprising.md,
"Effect language: needed extensions"): each reads the expansion's own data rows (data/uprising/),
applied to a real mode-78 game set up and started by the engine."""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES, extensions
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.board import hand_limit
from engine.rng import Rng
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _row(name: str, ext: str) -> dict[str, Any]:
    """The effect of extension ``ext`` on the expansion's card ``name`` (its data row)."""
    card = next(c for c in U.CARDS if c["name"] == name)
    return next(e for e in card["effects"] if e.get("ext") == ext)


def _now(state: State, e: dict[str, Any]) -> list[Any]:
    """The immediate effect ``e`` for Ana, its frames put on the stack as a card's would be."""
    ev: list[Any] = []
    frames = extensions.now(state, 0, e, Rng({"rng": "00000000000000e1"}), ev)
    _on(state, *reversed(frames)) if frames else None
    return ev


def _codes(state: State) -> list[str]:
    return [o.code for o in RULES.options(state, 0)]


def _play(state: State, code: str) -> list[Any]:
    return RULES.apply(state, 0, {"code": code})


def test_it_counts_combat_points_and_figures_in_the_supply_for_per_more() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    p["combat_points"], p["figures"], p["victory_points"] = 5, 3, 0
    _now(state, _row("Drill Sergeant", "per_more"))
    assert p["victory_points"] == 5  # 1 VP per combat point
    _now(state, _row("Crew Mess", "per_more"))
    assert p["victory_points"] == 8  # 1 VP per figure in the supply


def test_it_offers_one_of_three_rewards_for_one_of() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    _now(state, _row("Generous Patron", "one_of"))
    labels = {o.code: o.label for o in RULES.options(state, 0)}
    assert (labels["g1"], labels["g2"], labels["g3"]) == ("take 5 doubloons", "take 3 VP now",
                                                           "take 1 doubloon, 2 combat points")
    vp = p["victory_points"]
    _play(state, "g2")
    assert p["victory_points"] == vp + 3 and not state["stack"]


def test_it_pays_any_number_of_the_good_for_trade_any() -> None:
    state = _started(mode="78", hand=(1, 8, 24, 36))  # three tobacco
    p = state["seats"][0]
    _now(state, _row("Tobacco Factor", "trade_any"))
    assert _codes(state)[:4] == ["n3", "n2", "n1", "n0"]
    d = p["doubloons"]
    _play(state, "n2")
    assert p["doubloons"] == d + 4 and sorted(p["hand"]) == [1, 36]  # the two cheapest tobacco paid
    none = _started(mode="78", hand=(1, 7))
    assert extensions.now(none, 0, _row("Tobacco Factor", "trade_any"), Rng({"rng": "00000000000000e2"}), []) == []


def test_it_liberates_a_village_of_the_players_choice_to_the_resistance_tile() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    state["markers"] = {"2": "england", "3": "france", "4": "spain"}  # 4 Puerto Plata is a city
    _now(state, _row("Rebel Camp", "liberate"))
    assert _codes(state)[:2] == ["l2", "l3"]  # villages only
    vp = p["victory_points"]
    _play(state, "l3")
    assert "3" not in state["markers"] and p["victory_points"] == vp + 2
    assert state["stack"][-1]["kind"] == "resist"  # the marker to the tile, if a space may take it
    _play(state, "r1")
    assert p["resist"][0] == "france"


def test_it_reveals_the_top_card_and_pays_by_its_object_for_by_object() -> None:
    from engine.games.maracaibo import content as C

    state = _started(mode="78")
    p = state["seats"][0]
    top = state["deck"][-1]
    table = _row("Fortune Teller", "by_object")["by_object"]
    before = (p["doubloons"], p["victory_points"], p["combat_points"])
    ev: list[Any] = []
    extensions.by_object(state, 0, table, Rng({"rng": "00000000000000e2"}), ev)
    assert state["discard"][-1] == top and ev[0].reveals
    got = table[C.CARD[top]["object"]]
    assert (p["doubloons"], p["victory_points"], p["combat_points"]) == (before[0] + got.get("d", 0), before[1]
                                                                         + got.get("vp", 0),
                                          before[2] + got.get("cp", 0))


def test_it_gives_the_assistant_action_of_the_round_for_by_round() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    e = _row("Harbour Agent", "by_round")
    d = p["doubloons"]
    frames = extensions.by_round(state, 0, e, Rng({"rng": "00000000000000e2"}), [])
    assert p["doubloons"] == d + 7 and frames == []  # round I: 7 doubloons
    state["round"] = 3
    vp = p["victory_points"]
    frames = extensions.by_round(state, 0, e, Rng({"rng": "00000000000000e2"}), [])
    assert p["victory_points"] == vp + 2 and frames[0]["kind"] == "village" and frames[0]["data"]["left"] == 1


def test_it_scores_own_monument_per_noble_rank_and_raises_the_hand_limit_for_hand_plus() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    p["influence"] = {"france": 6, "england": 3, "spain": 1}  # ranks 2 + 1 + 0
    monument = next(x for x in U.PROMOS if x["id"] == "OM")["effects"][0]
    assert extensions.end_per_rank(state, 0, monument, []) == 6
    limit = hand_limit(p)
    extensions.hand_plus(state, 0, next(x for x in U.PROMOS if x["id"] == "FD")["reward"]["hand"], [])
    assert hand_limit(p) == limit + 1


def test_it_words_the_played_card_extensions_as_the_base_game_words_its_effects() -> None:
    from engine.games.maracaibo import content as C

    assert C.effect_text(_row("Drill Sergeant", "per_more")) == "now: 1 VP per combat point"
    assert C.effect_text(_row("Crew Mess", "per_more")) == "now: 1 VP per figure in your supply"
    assert C.effect_text(_row("Generous Patron", "one_of")) == ("now, one of: 5 doubloons; or 3 VP; "
                                                                 "or 1 doubloon, 2 combat points")
    assert C.effect_text(_row("Tobacco Factor", "trade_any")) == "now: pay any number of tobacco, each for 2 doubloons"
    assert C.effect_text(_row("Gravedigger", "marker_removed")) == ("each marker you remove from a location "
                                                                    "(displace, liberate): 2 VP")
