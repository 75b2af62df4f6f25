"""Maracaibo: The Uprising, the two new city tiles (engine/games/maracaibo/citytiles.py;
docs/rules/maracaibo-uprising.md): dealt among the base game's in 78 and 79, their city actions read
from their data rows and played through the engine's own options."""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES, citytiles
from engine.games.maracaibo import uprising_content as U
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _codes(state: State) -> list[str]:
    return [o.code for o in RULES.options(state, 0)]


def _play(state: State, code: str) -> list[Any]:
    return RULES.apply(state, 0, {"code": code})


def _with_tile(tid: str, **kw: Any) -> State:
    state = _started(mode="78", **kw)
    state["tiles"]["13"] = tid  # 13 Port Royal: a city-tile location
    return state


def test_it_deals_the_two_new_city_tiles_among_the_base_games_in_78_and_79_only() -> None:
    dealt: set[str] = set()
    for i in range(40):
        for mode in ("78", "79"):
            state = RULES.setup(player_names(3), {"mode": mode}, f"tiles-{i}")
            assert len(state["tiles"]) == 4 and len(set(state["tiles"].values())) == 4
            dealt |= set(state["tiles"].values())
        base = RULES.setup(player_names(3), {"mode": "basic"}, f"tiles-{i}")
        assert not set(base["tiles"].values()) & set(citytiles.TILE)
    assert set(citytiles.TILE) <= dealt  # each is dealt in some games
    assert {str(t["id"]) for t in U.CITY_TILES} == {"C16", "C17"}


def test_it_gives_2_combat_points_and_one_of_two_cities_actions_with_a_delivery_there_for_c16() -> None:
    state = _with_tile("C16", at="13", hand=(3, 8, 1, 7))  # corn, tobacco, cotton, corn
    p = state["seats"][0]
    p["combat_points"] = 0
    _on(state, frame("main", 0, spent=2))
    assert "city" in _codes(state)
    _play(state, "city")
    assert p["combat_points"] == 2
    codes = _codes(state)
    # Maracaibo (10) takes tobacco and corn, Campeche (19) sugar, tobacco and corn
    assert {"d10-tobacco", "d10-corn", "c10", "d19-tobacco", "d19-corn", "c19"} <= set(codes)
    d = p["doubloons"]
    _play(state, "d19-tobacco")  # the one tobacco card pays; then the disc, then Campeche's city action
    assert state["market"]["19"] == [0] and p["doubloons"] == d + 4 and 8 not in p["hand"]
    while state["stack"][-1]["kind"] == "disc":
        _play(state, _codes(state)[0])
    assert state["stack"][-1]["kind"] == "yesno"  # Campeche: pay 2 combat points for 1 influence, 6 d
    assert state["stack"][-1]["data"]["what"] == "pay_cp"


def test_it_offers_c16_without_delivery_at_a_full_market() -> None:
    state = _with_tile("C16", at="13")
    state["market"]["10"] = [1, 2]  # full (two rewards)
    _on(state, frame("citytile", 0, tile="C16", ask=True))
    codes = [c for c in _codes(state) if c[0] in "cd" and c[1:2].isdigit()]
    assert "c10" in codes and not any(c.startswith("d10") for c in codes)


def test_it_gives_one_of_two_rewards_then_may_fulfil_the_top_quest_for_c17() -> None:
    state = _with_tile("C17", at="13", hand=(3, 8, 1, 7))
    p = state["seats"][0]
    state["quest_pile"] = ["UQ1", *(q for q in state["quest_pile"] if q != "UQ1")]  # UQ1: a tobacco
    top = "UQ1"
    _on(state, frame("main", 0, spent=2))
    _play(state, "city")
    assert state["stack"][-1]["kind"] == "oneof" and _codes(state)[:2] == ["g1", "g2"]
    d = p["doubloons"]
    _play(state, "g2")
    assert p["doubloons"] == d + 3
    assert state["stack"][-1]["kind"] == "cityquest" and _codes(state)[:2] == ["quest", "no"]
    quests = p["quests"]
    _play(state, "quest")  # Silent Priest (tobacco) pays it
    assert p["quests"] == quests + 1 and state["quest_pile"][:1] != [top] and 8 not in p["hand"]


def test_it_skips_c17s_quest_when_the_top_quest_cannot_be_paid() -> None:
    state = _with_tile("C17", at="13", hand=())
    state["seats"][0]["hand"] = []
    _on(state, frame("cityquest", 0, ask=True))
    assert [c for c in _codes(state) if c in ("quest", "no")] == []


def test_it_words_the_new_city_tiles() -> None:
    state = _with_tile("C16")
    from engine.games.maracaibo.board import city_action_text

    assert city_action_text(state, "13") == ("2 combat points, then the city action of 10 Maracaibo or 19 "
                                             "Campeche (and a delivery there first, if its market is not full)")
    state["tiles"]["13"] = "C17"
    assert city_action_text(state, "13") == ("2 combat points or 3 doubloons, then you may fulfil the face-up "
                                             "top quest of the pile")
