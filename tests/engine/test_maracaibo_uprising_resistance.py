"""Maracaibo: The Uprising: the Resistance Tiles module (docs/rules/maracaibo-uprising.md, "Resistance Tiles")."""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES, resistance
from engine.games.maracaibo.effects import player
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _codes(state: State, seat: int = 0) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def _play(state: State, code: str) -> list[Any]:
    return RULES.apply(state, 0, {"code": code})


def _liberating(nation: str, tile: list[str | None], mode: str = "78") -> State:
    """Ana liberates location 2 (Nassau, a village) from ``nation``, her tile as ``tile``."""
    state = _started(mode=mode, at="2")
    state["markers"]["2"] = nation
    player(state, 0)["resist"] = list(tile)
    ev: list[Any] = []
    frames = resistance.liberate(state, 0, "2", ev)
    _on(state, *frames)
    return state


def test_it_turns_the_resistance_tile_only_in_the_modes_with_the_module() -> None:
    for mode, tile in (("basic", False), ("78", True), ("79", True)):
        state = RULES.setup(player_names(2), {"mode": mode}, 1)
        assert ("resist" in state["seats"][0]) is tile
        if tile:
            assert state["seats"][0]["resist"] == [None] * 4


def test_it_places_a_marker_only_where_no_neighbour_holds_the_same_nation() -> None:
    state = _liberating("france", ["france", None, None, None])
    assert "2" not in state["markers"]
    assert _codes(state)[:3] == ["r3", "r4", "r0"]  # not 2: its neighbour 1 holds France
    state = _liberating("spain", ["france", None, None, None])
    assert _codes(state)[:4] == ["r2", "r3", "r4", "r0"]


def test_it_removes_the_marker_without_reward_when_no_space_may_take_it() -> None:
    state = _liberating("france", ["france", None, "france", None])
    p = player(state, 0)
    assert not state["stack"] and "2" not in state["markers"]
    assert p["resist"] == ["france", None, "france", None]


def test_it_gives_the_spaces_reward_and_empties_a_full_tile_for_3_doubloons_and_1_vp_per_token() -> None:
    state = _liberating("spain", ["france", "spain", "england", None])
    p = player(state, 0)
    p["tokens"], p["doubloons"], p["victory_points"] = 3, 0, 0
    _play(state, "r4")  # space 4: 3 doubloons (substitute)
    assert p["resist"] == [None] * 4
    assert (p["doubloons"], p["victory_points"]) == (3 + 3, 3)


def test_it_lets_the_player_leave_the_marker_out_of_the_game() -> None:
    state = _liberating("spain", [None] * 4)
    p = player(state, 0)
    d = p["doubloons"]
    _play(state, "r0")
    assert p["resist"] == [None] * 4 and p["doubloons"] == d


def test_it_places_markers_before_the_tiles_village_action_is_unlocked() -> None:
    state = _liberating("england", [None] * 4)
    assert "UR" not in player(state, 0)["areas"]
    _play(state, "r3")  # space 3: a figure
    assert player(state, 0)["resist"] == [None, None, "england", None]


def test_it_unlocks_the_tile_for_4_doubloons_in_the_modes_with_the_module() -> None:
    state = _started(mode="78")
    p = player(state, 0)
    p["doubloons"] = 0
    p["discs"] = {**p["discs"], "UR": 1}
    _on(state, frame("disc", 0, n=1))
    _play(state, "uR")
    assert p["doubloons"] == 4 and "UR" in p["areas"]


def _at_village_with_tile(loc: str, cp: int, fig: int) -> State:
    state = _started(mode="78", at=loc)
    p = player(state, 0)
    p["areas"] = [*p["areas"], "UR"]
    p["discs"] = {**p["discs"], "UR": 0}
    p["combat_points"], p["figures"] = cp, fig
    state["markers"][loc] = "england"
    _on(state, frame("village", 0, left=2, used=[]))
    return state


def test_it_liberates_the_village_here_for_3_combat_value_with_the_reward_twice() -> None:
    state = _at_village_with_tile("2", cp=3, fig=0)
    p = player(state, 0)
    assert "vR" in _codes(state)
    _play(state, "vR")
    assert p["combat_points"] == 0 and "2" not in state["markers"]
    assert state["stack"][-1]["kind"] == "resist"
    _play(state, "r2")  # space 2: 2 combat points, twice
    assert p["combat_points"] == 4 and p["resist"] == [None, "england", None, None]
    assert "vR" not in _codes(state)  # once per turn, as every special village action


def test_it_asks_how_the_combat_value_is_paid_when_there_is_a_choice() -> None:
    state = _at_village_with_tile("2", cp=2, fig=2)
    _play(state, "vR")
    assert state["stack"][-1]["kind"] == "short"
    assert _codes(state) == ["cp2", "cp1"]
    _play(state, "cp1")
    p = player(state, 0)
    assert (p["combat_points"], p["figures"]) == (1, 0)


def test_it_never_liberates_a_city_or_without_the_combat_value() -> None:
    assert "vR" not in _codes(_at_village_with_tile("4", cp=3, fig=0))  # Puerto Plata is a city
    assert "vR" not in _codes(_at_village_with_tile("2", cp=1, fig=1))


def test_it_never_puts_a_displaced_marker_on_the_tile() -> None:
    state = _started(mode="78")
    state["markers"]["12"] = "france"
    _on(state, frame("combat", 0, nation="spain", value=8, used=[], token="T1"))
    _play(state, "cd12")  # the base game's displace ("Tomar"): the French marker leaves the game
    assert state["markers"]["12"] == "spain"
    assert player(state, 0)["resist"] == [None] * 4
    assert all(f["kind"] != "resist" for f in state["stack"])
