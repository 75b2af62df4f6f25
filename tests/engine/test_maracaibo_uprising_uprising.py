"""Maracaibo: The Uprising: the Uprising module of scenario 78 (docs/rules/maracaibo-uprising.md,
"Uprising"; the rulebook's worked examples W1 and W2)."""

from __future__ import annotations

from typing import Any

import pytest

from engine import i18n
from engine.games.maracaibo import RULES, uprising
from engine.games.maracaibo.effects import player
from engine.stack import frame
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _codes(state: State, seat: int = 0) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def _play(state: State, code: str) -> list[Any]:
    return RULES.apply(state, 0, {"code": code})


def _against(nation: str, value: int, markers: dict[str, str], mode: str = "78") -> State:
    state = _started(mode=mode)
    state["markers"] = dict(markers)
    _on(state, frame("against", 0, nation=nation, value=value, used=[], token="T3"))
    return state


def test_it_plays_w1_alex_liberating_cartagena() -> None:
    state = _against("france", 6, {"14": "france", "4": "france", "13": "spain"})
    p = player(state, 0)
    p["doubloons"], p["victory_points"], p["combat_points"] = 5, 10, 0
    figures, tokens = p["figures"], p["tokens"]
    assert {"lc14", "lc4"} <= set(_codes(state)) and not any(c.startswith(("ci", "ca", "cd")) for c in _codes(state))
    _play(state, "lc14")
    # 3 occupied cities at the start
    assert "14" not in state["markers"] and (p["doubloons"], p["victory_points"]) == (8, 13)
    assert state["stack"][-1]["kind"] == "resist"
    _play(state, "r3")
    assert p["resist"] == [None, None, "france", None] and p["figures"] == figures + 1
    assert sum(p["influence"].values()) == 0  # no flag bonus, no influence
    # value 0 left and nothing to pay with but figures (no French village): the combat ends by itself
    assert not state["stack"] and p["tokens"] == tokens + 1


def test_it_plays_w2_beth_liberating_location_2() -> None:
    for around, vp in (({"1": "spain", "3": "france"}, 6), ({"1": "spain"}, 3), ({}, 0)):
        state = _against("england", 4, {"2": "england", **around})
        p = player(state, 0)
        p["victory_points"] = 0
        _play(state, "lv2")
        assert "2" not in state["markers"] and p["victory_points"] == vp
        _play(state, "r1")  # space 1: a disc off her ship board
        assert state["stack"][-1]["kind"] == "disc"


def test_it_offers_liberate_city_and_village_each_once_per_combat() -> None:
    state = _against("spain", 12, {"13": "spain", "10": "spain", "6": "spain", "8": "spain"})
    assert [c for c in _codes(state) if c[:2] in ("lc", "lv")] == ["lc10", "lc13", "lv6", "lv8"]
    _play(state, "lv6")
    _play(state, "r0")
    assert [c for c in _codes(state) if c[:2] in ("lc", "lv")] == ["lc10", "lc13"]
    _play(state, "lc10")
    _play(state, "r0")
    assert [c for c in _codes(state) if c[:2] in ("lc", "lv")] == []


def test_it_offers_no_card_home_port_or_ship_upgrade_combat_action_against_a_nation() -> None:
    # "Quando você luta contra uma nação, você não pode usar as ações de combate do jogo base
    # (Influência/Anexo/Tomar), ou outras ações de combate que você ganhou ... por meio de cartas de
    # projeto ou melhorias do navio": Fortune Teller's (cc205), Kingstown's (ch5, England's port) and the
    # ship area U6's (cv, cw) are all offered fighting for England, none against it.
    state = _against("england", 12, {"2": "england", "14": "england", "3": "france"})
    p = player(state, 0)
    p["port"], p["discs"] = "HP5", {**p["discs"], "UH": 0}
    p["areas"] = [*p["areas"], "UH", "U6"]
    p["display"] = [*p["display"], 205]
    state["revision"] += 1
    combat = [c for c in _codes(state) if not c.startswith(("p", "k"))]  # (free actions: plan, career)
    assert combat == ["lc14", "lv2", "cend"]
    _on(state, frame("combat", 0, nation="england", value=12, used=[], token="T3"))
    assert {"cc205", "ch5", "cv1", "cw3", "ci1", "ca1"} <= set(_codes(state))  # fighting for England


def test_it_counts_the_occupied_cities_and_neighbours_in_the_form_for_their_number() -> None:
    # (the options said "(1 occupied cities)" and "(1 occupied neighbours)", "(1 vizinhos ocupados)")
    for around, cities, neighbours, cidades, vizinhos in (
            ({}, "1 occupied city", "1 occupied neighbour", "1 cidade ocupada", "1 vizinho ocupado"),
            ({"3": "spain", "13": "spain"}, "2 occupied cities", "2 occupied neighbours", "2 cidades ocupadas",
             "2 vizinhos ocupados")):
        state = _against("england", 12, {"14": "england", "2": "england", "1": "spain", **around})
        labels = {o.code: o.label for o in RULES.options(state, 0)}
        assert labels["lc14"].endswith(f"({cities})") and labels["lv2"].endswith(f"({neighbours})")
        with i18n.language("pt"):
            said = {o.code: o.label for o in RULES.options(state, 0)}
        assert said["lc14"].endswith(f"({cidades})") and said["lv2"].endswith(f"({vizinhos})"), said


def test_it_words_liberate_city_by_l40s_row_as_it_pays(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the option said "3 doubloons" and 1 VP a city whatever the row held; the row is what is paid)
    monkeypatch.setitem(uprising.CITY["gain"], "d", 4)
    monkeypatch.setitem(uprising.CITY["per_occupied"], "vp", 2)
    state = _against("england", 12, {"14": "england", "13": "spain"})
    p = player(state, 0)
    label = {o.code: o.label for o in RULES.options(state, 0)}["lc14"]
    assert label == "liberate city 14 Cartagena (value 6): 4 doubloons and 4 VP now (2 occupied cities)"
    d, vp = p["doubloons"], p["victory_points"]
    _play(state, "lc14")
    assert (p["doubloons"] - d, p["victory_points"] - vp) == (4, 4)


def test_it_raises_the_value_with_combat_points_and_figures_as_usual() -> None:
    state = _against("spain", 2, {"13": "spain"})
    p = player(state, 0)
    p["combat_points"], p["figures"] = 4, 0
    _play(state, "lc13")
    assert p["combat_points"] == 0  # 6 - 2 = 4 combat points paid


def _fighting(token: str = "T3") -> State:
    state = _started(mode="78")
    state["markers"]["14"] = "france"  # (a French city: the combat against France stays open)
    return _on(state, frame("fight", 0, token=token, ask=True))[0]


def test_it_offers_to_fight_for_or_against_each_nation_after_the_token() -> None:
    state = _fighting()
    labels = {o.code: o.label for o in RULES.options(state, 0)}
    assert {"ff", "fs", "fe", "af", "as", "ae"} <= set(labels)
    assert labels["af"] == "fight against france (value 6; the combat token: 2 VP now)"  # T3: France 1 inf. as 2 VP


def test_it_gives_2_vp_for_the_tokens_influence_against_a_nation() -> None:
    state = _fighting()
    p = player(state, 0)
    vp = p["victory_points"]
    _play(state, "af")
    assert p["victory_points"] == vp + 2 and sum(p["influence"].values()) == 0
    assert state["stack"][-1]["kind"] == "against"


def test_it_ignores_the_most_and_fewest_modifiers_against_a_nation() -> None:
    state = _fighting("T2")  # T2: the "most" modifier, England 2 / France 4 / Spain 5
    state["markers"] = {"1": "spain", "2": "spain", "3": "france"}
    labels = {o.code: o.label for o in RULES.options(state, 0)}
    assert "value 3" in labels["fs"] and "value 5" in labels["as"]


def test_it_never_fights_for_and_against_the_same_nation_in_one_turn() -> None:
    state = _fighting()
    _play(state, "ff")  # for France
    _on(state, frame("fight", 0, token="T1", ask=True))
    codes = _codes(state)
    assert "af" not in codes and {"ff", "as", "ae"} <= set(codes)
    state["turns"] += 1  # another turn: free again
    state["revision"] += 1
    assert "af" in _codes(state)


def test_it_leaves_the_base_fight_alone_outside_scenario_78() -> None:
    for mode in ("base", "basic"):  # (79: always against, test_maracaibo_uprising_liberation.py)
        state = _started(mode=mode)
        _on(state, frame("fight", 0, token="T3", ask=True))
        assert not any(c.startswith("a") for c in _codes(state))
