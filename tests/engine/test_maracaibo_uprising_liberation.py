"""Maracaibo: The Uprising: the Liberation of the Caribbean module and scenario 79's markers
(docs/rules/maracaibo-uprising.md, "Liberation of the Caribbean", "Scenario 79")."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine import i18n
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo.effects import gain, player
from engine.games.maracaibo.scoring import final_scores
from engine.rng import Rng
from engine.stack import frame
from engine.testing import player_names, run_game
from tests.engine.maracaibo_scenarios import _on, _started

GRAVEDIGGER = next(c["id"] for c in C.CARD.values() if c["name"] == "Gravedigger")

State = dict[str, Any]


def _codes(state: State, seat: int = 0) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def _play(state: State, code: str) -> list[Any]:
    return RULES.apply(state, 0, {"code": code})


def _lib(codes: list[str]) -> list[str]:
    return [c for c in codes if c[:2] in ("lc", "lv", "xc", "xv")]


def _liberating(nation: str, value: int, markers: dict[str, str], token: str | None = "T3") -> State:
    state = _started(mode="79")
    state["markers"] = dict(markers)
    _on(state, frame("liberation", 0, nation=nation, value=value, used=[], token=token))
    return state


def _fighting(token: str) -> State:
    state = _started(mode="79")
    return _on(state, frame("fight", 0, token=token, ask=True))[0]


def test_it_fights_only_against_a_nation_without_the_most_and_fewest_modifiers() -> None:
    state = _fighting("T2")  # T2: "most"; England 2, France 4, Spain 5; France pays 2 doubloons
    state["markers"] = {"1": "spain", "2": "spain", "3": "france"}  # Spain has the most markers
    labels = {o.code: o.label for o in RULES.options(state, 0) if not o.code.startswith(("p", "k"))}
    assert sorted(labels) == ["ae", "af", "as"]
    assert labels["as"] == "fight against spain (value 5; the combat token: 1 doubloon)"  # no -2 for the most markers
    assert labels["ae"] == "fight against england (value 2; the combat token: 2 VP now)"


def test_it_gives_2_vp_for_the_tokens_influence() -> None:
    state = _fighting("T3")  # France: 1 influence
    p = player(state, 0)
    vp = p["victory_points"]
    _play(state, "af")
    assert p["victory_points"] == vp + 2 and sum(p["influence"].values()) == 0
    assert state["stack"][-1]["kind"] == "liberation" and state["stack"][-1]["data"]["value"] == 6


def test_it_liberates_a_city_for_5_with_its_flags_bonus() -> None:
    # 4 Puerto Plata's flag: 3 VP; 5 Santo Domingo's: 4 doubloons
    state = _liberating("france", 5, {"4": "france", "5": "france", "14": "spain"})
    p = player(state, 0)
    p["victory_points"], p["doubloons"] = 10, 0
    assert _lib(_codes(state)) == ["lc4", "lc5"]  # the fought nation's cities only; a village at 3: none here
    _play(state, "lc5")
    assert "5" not in state["markers"] and p["doubloons"] == 4 and p["victory_points"] == 10  # no VP per occupied city
    assert state["stack"][-1]["kind"] == "resist"
    _play(state, "r4")  # space 4: 3 doubloons
    assert p["resist"] == [None, None, None, "france"] and p["doubloons"] == 7
    assert p["liberated"] == 1  # the career metric of Fighting Spirit


def test_it_liberates_a_village_for_3_without_vp_for_the_neighbours() -> None:
    state = _liberating("england", 3, {"2": "england", "1": "spain", "3": "france"})
    p = player(state, 0)
    p["victory_points"] = 0
    assert _lib(_codes(state)) == ["lv2"]
    _play(state, "lv2")
    assert "2" not in state["markers"] and p["victory_points"] == 0  # the Uprising's 3 VP per neighbour is not here
    _play(state, "r0")
    assert sum(p["influence"].values()) == 0


def test_it_allows_each_liberation_once_per_turn_not_once_per_combat() -> None:
    state = _liberating("spain", 20, {"10": "spain", "13": "spain", "8": "spain", "9": "spain"})
    _play(state, "lc10")
    _play(state, "r0")
    assert _lib(_codes(state)) == ["lv8", "lv9"]
    _play(state, "lv8")
    _play(state, "r0")
    assert _lib(_codes(state)) == []
    _on(state, frame("liberation", 0, nation="spain", value=20, used=[], token=None))  # a second combat
    assert _lib(_codes(state)) == []
    state["turns"] += 1  # the next turn: both again
    state["revision"] += 1
    assert _lib(_codes(state)) == ["lc13", "lv9"]


def test_it_adds_one_more_liberation_a_turn_with_the_combat_tiles_upgrade() -> None:
    # value 11 = 5 + 3 + 3: two cities and a village in one combat
    state = _liberating("spain", 11, {"10": "spain", "13": "spain", "8": "spain", "9": "spain"})
    p = player(state, 0)
    p["combat_points"], p["figures"] = 0, 0
    assert not any(c.startswith("x") for c in _codes(state))  # not before the upgrade
    p["areas"] = [*p["areas"], "U6"]
    state["revision"] += 1
    labels = {o.code: o.label for o in RULES.options(state, 0)}
    assert labels["xc13"] == "liberate city 13 Port Royal with the ship upgrade (value 3, the flag's 3 VP now)"
    assert labels["xv8"] == "liberate village 8 Martinique with the ship upgrade (value 2)"
    for code in ("lc10", "xc13", "lv8"):
        _play(state, code)
        _play(state, "r0")
    assert not any(k in state["markers"] for k in ("10", "13", "8")) and state["markers"]["9"] == "spain"
    assert state["stack"] == []  # value 0, nothing left to pay with: the combat ended
    state2 = _liberating("spain", 20, {"10": "spain", "13": "spain", "8": "spain", "9": "spain"})
    p2 = player(state2, 0)
    p2["areas"] = [*p2["areas"], "U6"]
    _play(state2, "xv9")
    _play(state2, "r0")
    assert not any(c.startswith("x") for c in _codes(state2))  # the upgrade's one a turn, city or village
    assert {"lc10", "lc13", "lv8"} <= set(_codes(state2))


def test_it_pays_the_missing_value_with_combat_points_and_figures() -> None:
    state = _liberating("france", 2, {"4": "france"})
    p = player(state, 0)
    p["combat_points"], p["figures"], p["figures_owned"] = 1, 2, 2
    _play(state, "lc4")  # 3 missing: 1 combat point and 2 figures, the only mix
    assert (p["combat_points"], p["figures"]) == (0, 0)
    state = _liberating("france", 0, {"4": "france"})
    player(state, 0)["combat_points"], player(state, 0)["figures"] = 4, 0
    assert _lib(_codes(state)) == []  # 4 < 5: not affordable


def test_it_keeps_the_cards_combat_actions_against_a_nation_their_influence_as_vp() -> None:
    state = _liberating("france", 6, {"4": "france"})
    p = player(state, 0)
    p["display"], p["combat_points"], p["figures"] = [7], 0, 0  # Bold Merchant: combat action, value 3: 4 VP
    state["revision"] += 1
    labels = {o.code: o.label for o in RULES.options(state, 0)}
    assert labels["cc7"] == "Bold Merchant: 4 VP now (value 3)"
    vp = p["victory_points"]
    _play(state, "cc7")
    assert p["victory_points"] == vp + 4 and "cc7" not in _codes(state) and "lc4" not in _codes(state)  # value 3 left


def test_it_turns_every_influence_gained_into_2_vp() -> None:
    state = _started(mode="79")
    p = player(state, 0)
    vp = p["victory_points"]
    ev: list[Any] = []
    frames = gain(state, 0, {"inf": 2}, Rng(state), ev, "cards")  # a nation of one's choice: none asked
    assert frames == [] and p["victory_points"] == vp + 4 and sum(p["influence"].values()) == 0
    _on(state, frame("nation", 0, n=3, ask=True))  # the red barrier's 3 influence: no nation to choose
    assert [c for c in _codes(state) if not c.startswith(("p", "k"))] == ["nv"]
    _play(state, "nv")
    assert p["victory_points"] == vp + 4 + 6 and sum(p["influence"].values()) == 0
    _on(state, frame("u11", 0))
    assert "rank" not in _codes(state)  # a move to the next noble rank is ignored


def test_it_deals_each_player_one_of_the_four_liberation_careers() -> None:
    state = RULES.setup(player_names(4), {"mode": "79"}, "careers")
    assert sorted(c["id"] for p in state["seats"] for c in p["careers"]) == ["K1", "K2", "K5", "K9"]
    assert all(len(p["careers"]) == 1 for p in state["seats"])
    other = RULES.setup(player_names(4), {"mode": "78"}, "careers")
    assert all(len(p["careers"]) == 2 for p in other["seats"])


def test_it_scores_no_nations_at_the_end_of_scenario_79() -> None:
    for mode, scored in (("79", False), ("78", True)):
        state = _started(mode=mode)
        player(state, 0)["influence"] = {"france": 6, "england": 0, "spain": 0}
        assert (final_scores(state)[0]["nations"] > 0) is scored


def test_it_sets_scenario_79s_markers_by_nation_and_sets_the_rest_aside() -> None:
    for n in (2, 3, 4):
        state = RULES.setup(player_names(n), {"mode": "79"}, f"markers-{n}")
        want = {**{str(i): "france" for i in range(2, 8)}, **{str(i): "spain" for i in range(8, 14)},
                **{str(i): "england" for i in range(14, 20)}}
        assert state["markers"] == want  # no 2-player pre-annexed villages (A24), nothing on 9a or 16a
        assert {k: sum(v) for k, v in state["supply"].items()} == dict.fromkeys(want.values(), 7)


def test_it_brings_a_set_aside_marker_back_to_each_block_before_rounds_2_to_4() -> None:
    state = _started(mode="79")
    for loc in ("3", "6", "9", "14"):
        del state["markers"][loc]
    state["stack"] = [frame("scoring", 0, mode="interim")]
    state["revision"] += 1
    _play(state, "go")
    assert state["round"] == 2
    assert (state["markers"]["3"], state["markers"]["9"], state["markers"]["14"]) == ("france", "spain", "england")
    assert "6" not in state["markers"]  # one a nation a round, the lowest-numbered empty location
    assert {k: sum(v) for k, v in state["supply"].items()} == dict.fromkeys(("france", "spain", "england"), 6)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_it_plays_whole_games_of_scenario_79_by_the_bot(n: int) -> None:
    report = run_game(RULES, n, {"mode": "79"}, f"lib-{n}", checks=False)
    assert report.finished == 1


def test_it_never_offers_a_village_action_placing_a_marker() -> None:
    for mode, offered in (("78", True), ("79", False)):
        state = _started(mode=mode, at="1")
        state["markers"].pop("1", None)  # an empty village
        p = player(state, 0)
        p["areas"] = [*p["areas"], "U10"]  # its village action: a marker of any nation in an empty village
        _on(state, frame("village", 0, left=1, used=[]))
        assert ("vU10" in _codes(state)) is offered


def test_it_words_the_combat_tiles_upgrade_by_its_u_side() -> None:
    for mode, words in (("79", "one more liberation"), ("78", "a village, empty 2 / displace 5")):
        state = _started(mode=mode)
        _on(state, frame("disc", 0, n=1, ask=True))
        labels = {o.code: o.label for o in RULES.options(state, 0)}
        assert words in labels["u6"]


def test_it_pays_the_gravedigger_on_a_combat_liberation_in_a_seeded_game_of_79() -> None:
    """A real game (golden/maracaibo_79_gravedigger.json, written by make_maracaibo_79_gravedigger.py: 4
    players, seed 6, the bot): Bruno, the Gravedigger in his display, liberates Santo Domingo in a combat."""
    doc = json.loads((Path(__file__).parent / "golden" / "maracaibo_79_gravedigger.json").read_text())
    # (played before Genova was left out with Liberation: its 15 ports, as Rules.replay_options says of it)
    state = RULES.setup(doc["players"], {**doc["options"], "port_pool": "all"}, doc["seed"])
    at = int(doc["liberation"])
    for seat, code in doc["moves"][:at]:
        RULES.apply(state, seat, {"code": code})
    seat, code = doc["moves"][at]
    p = state["seats"][seat]
    assert code == "lc5" and state["stack"][-1]["kind"] == "liberation"
    assert GRAVEDIGGER in p["display"] and state["markers"]["5"] == "france"
    vp, cards = p["victory_points"], p["victory_points_by_source"].get("cards", 0)
    events = []
    for seat, code in doc["moves"][at:]:
        events += RULES.apply(state, seat, {"code": code})
    assert "5" not in state["markers"] and "france" in p["resist"]  # liberated, to the resistance tile
    removed = [e for e in events if e.kind == "marker_removed"]
    assert len(removed) == 1 and removed[0].data["loc"] == "5"
    # the Gravedigger's 2 VP, and no other VP
    assert p["victory_points"] == vp + 2 and p["victory_points_by_source"]["cards"] == cards + 2
    assert not any(f["kind"] in ("liberation", "removed") for f in state["stack"])



def test_a_fight_option_says_that_its_second_item_is_the_combat_tokens() -> None:
    """QA (#20): "(value 2, -2 doubloons)" did not say what the doubloons were: the combat token's."""
    state = _fighting("T2")  # France pays 2 doubloons
    state["seats"][0]["doubloons"] = 5
    labels = {o.code: o.label for o in RULES.options(state, 0)}
    assert labels["af"] == "fight against france (value 4; the combat token: -2 doubloons)"
    assert RULES.parse("fight against france", state, 0)["code"] == "af"
    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)), i18n.language("pt"):
        said = {o.code: o.label for o in RULES.options(copy.deepcopy(state), 0)}
    assert said["af"] == "lutar contra França (valor 4; a ficha de combate: -2 dobrões)" and not missed, missed
