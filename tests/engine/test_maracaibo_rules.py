"""Maracaibo rules, section by section of the rulebook guide, with its worked examples."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core import State
from engine.errors import IllegalMove
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import rules as R
from engine.games.maracaibo.board import loc_kind, multiplier, start_turn, take_marker
from engine.games.maracaibo.cards import do_buy
from engine.games.maracaibo.careers import _is_free, do_career
from engine.games.maracaibo.combat import fight_value
from engine.games.maracaibo.effects import add_income_d, add_income_vp, gain_influence, take_synergy
from engine.games.maracaibo.exploring import do_explore, explore_targets
from engine.games.maracaibo.quests import can_pay_quest, do_quest, quest_payments
from engine.games.maracaibo.sailing import sail_targets, village_count
from engine.games.maracaibo.scoring import final_scores
from engine.games.maracaibo.ship import disc_areas
from engine.rng import Rng
from engine.stack import frame
from engine.testing import player_names


def setup(n: int = 3, seed: Any = 1, **options: Any) -> State:
    return RULES.setup(player_names(n), options, seed)


def started(n: int = 3, seed: Any = 1, **options: Any) -> State:
    """Past the setup choice: every seat plans its first card and keeps the next four."""
    state = setup(n, seed, **options)
    while state["stack"][-1]["kind"] == "setup":
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.options(state, seat)[0].move)
    return state


def codes(state: State, seat: int) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def play(state: State, seat: int, *lines: str) -> None:
    for line in lines:
        RULES.apply(state, seat, RULES.parse(line, state, seat))


# ---- setup ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("n", [2, 3, 4])
def test_it_sets_up_money_cards_display_and_buildings_as_the_rulebook_says(n: int) -> None:
    state = setup(n)
    assert [p["doubloons"] for p in state["seats"]] == [8, 9, 10, 11][:n]
    assert all(len(p["setup"]["dealt"]) == 8 for p in state["seats"])
    assert len(state["deck"]) == len(C.A_CARDS) - 8 * n + 40 - 4  # 4 of them in the display
    assert len(state["display"]) == 4
    assert [b["up"] for b in state["prestige"]] == [True, False, False, False]
    assert all(sum(p["discs"].values()) == 24 for p in state["seats"])
    assert all((p["combat_points"], p["income_doubloons"], p["income_victory_points"], p["figures"], p["at"])
               == (1, 8, 0, 2, "H") for p in state["seats"])
    assert len(state["track_quests"]) == 3 and [len(x) for x in state["piles"]] == [13, 12]
    tiles = [C.CITY_TILE[t] for t in state["tiles"].values()]
    assert sorted(state["tiles"]) == ["13", "14", "4", "5"]
    assert sum(t["helm"] for t in tiles) == 2 and all(n in t["players"] for t in tiles)


def test_it_places_card_75_round_one_quests_at_6_and_12_plus_16_with_three_or_four() -> None:
    assert sorted(setup(2)["quests"]) == ["12", "6"]
    assert sorted(setup(3)["quests"]) == ["12", "16", "6"]
    assert sorted(setup(4)["quests"]) == ["12", "16", "6"]


def test_it_preannexes_san_juan_st_kitts_and_martinique_with_two_players() -> None:
    state = setup(2)
    assert state["markers"] == {"6": "spain", "7": "england", "8": "france"}
    assert all(state["supply"][n][0] == 0 for n in C.NATIONS)  # the left-most marker is taken first
    assert setup(3)["markers"] == {}


def test_it_lets_each_player_plan_one_and_keep_four_of_eight_at_once() -> None:
    state = setup(2)
    assert RULES.pending(state) == [0, 1]
    state = started(2)
    assert all(len(p["hand"]) == 4 and len(p["plan"]) == 1 for p in state["seats"])
    assert len(state["deck"]) == len(C.A_CARDS) - 16 + 40 - 4 + 6
    assert R.stack(state).top()["kind"] == "sail" and RULES.pending(state) == [0]


def test_it_gives_the_medium_and_hard_scenarios_cards_90_to_99() -> None:
    for scen, wanted in (("75", False), ("76", True), ("77", True)):
        state = setup(3, scenario=scen)
        pool = set(state["deck"]) | set(state["box"]) | set(state["display"])
        assert (set(C.NUMBERED) <= pool) is wanted


# ---- sailing and village actions ----------------------------------------------------------------------

def test_it_sails_one_to_seven_and_stops_at_homeward_bound_spaces() -> None:
    state = started()
    targets = dict(sail_targets(state, 0))
    assert max(targets.values()) == 7 and min(targets.values()) == 1
    state["seats"][0]["at"] = "17"
    assert dict(sail_targets(state, 0)) == {"18": 1, "19": 2, "20": 3}  # 20 cannot be skipped
    state["seats"][0]["at"] = "20"
    assert dict(sail_targets(state, 0)) == {"21a": 1, "21b": 1}  # the round ends at 21 in rounds I-III


def test_it_goes_on_to_22_in_the_last_round() -> None:
    state = started(rounds=1)
    state["seats"][0]["at"] = "21a"
    assert dict(sail_targets(state, 0)) == {"22": 1}


@pytest.mark.parametrize(("spent", "actions", "upgraded"), [(1, 1, 1), (2, 1, 2), (3, 1, 2), (4, 2, 2), (5, 2, 3),
                                                              (6, 2, 3), (7, 3, 3)])
def test_it_gives_village_actions_by_movement_spent(spent: int, actions: int, upgraded: int) -> None:
    p: dict[str, Any] = {"areas": []}
    assert village_count(p, spent) == actions
    p["areas"] = ["U1"]
    assert village_count(p, spent) == upgraded


def test_it_takes_two_village_actions_after_four_moves() -> None:
    state = started()
    play(state, 0, "sail 4")
    assert state["seats"][0]["at"] == "4"
    state = started()
    # Nassau (2) is a village two spaces away; Martinique (8) ... choose San Juan, 6 spaces: two actions
    play(state, 0, "sail to 6")
    assert R.stack(state).top()["kind"] == "main"
    d = state["seats"][0]["doubloons"]
    play(state, 0, "vd")
    assert R.stack(state).top()["data"]["left"] == 1
    play(state, 0, "vd")
    assert state["seats"][0]["doubloons"] == d + 2 and R.stack(state).top()["kind"] == "free"


# ---- income --------------------------------------------------------------------------------------

def test_it_pays_alexs_income_of_12_doubloons_and_3_vp_at_interim_scoring() -> None:
    state = started(2)
    p = state["seats"][0]
    p["income_doubloons"], p["income_victory_points"] = 12, 3
    d, vp = p["doubloons"], p["victory_points"]
    state["stack"] = [frame("scoring", 0, mode="interim")]
    R.stack(state).settle(Rng(state))
    assert (p["doubloons"], p["victory_points"]) == (d + 12, vp + 3)


def test_it_turns_doubloon_income_past_34_into_vp_income() -> None:
    state = started(2)
    p = state["seats"][0]
    p["income_doubloons"] = 33
    add_income_d(state, p, 3, [], 0)
    assert (p["income_doubloons"], p["income_victory_points"]) == (34, 2)


def test_it_scores_20_vp_per_remaining_scoring_when_vp_income_reaches_20() -> None:
    state = started(2)  # round I of IV: interim I, II, III and final remain
    p = state["seats"][0]
    p["income_victory_points"] = 19
    add_income_vp(state, p, 2, [], 0)
    assert (p["victory_points"], p["income_victory_points"]) == (80, 1)


# ---- combat ----------------------------------------------------------------------------------------

def test_it_applies_the_most_and_fewest_marker_modifiers_but_not_on_ties() -> None:
    state = started(3)
    p = state["seats"][0]
    most = next(t for t in C.TOKEN.values() if t["mod"] == "most")
    fewest = next(t for t in C.TOKEN.values() if t["mod"] == "fewest")
    assert fight_value(state, most["id"], "spain", p) == most["value"]["spain"]  # all tied at 0
    state["markers"] = {"1": "spain", "2": "spain", "3": "england"}
    assert fight_value(state, most["id"], "spain", p) == most["value"]["spain"] - 2
    assert fight_value(state, fewest["id"], "france", p) == fewest["value"]["france"] + 3
    assert fight_value(state, None, "france", p) == 3  # both piles empty


def test_it_runs_a_combat_with_each_action_once_and_paid_combat_points() -> None:
    state = started(3)
    p = state["seats"][0]
    p["combat_points"] = 3
    state["stack"] = [frame("combat", 0, nation="france", value=5, used=[], token="T1")]
    assert {"ci1", "ci2", "ca1", "cend"} <= set(codes(state, 0))
    assert "cd1" not in codes(state, 0)
    play(state, 0, "annex 1")  # value 5 - 4 = 1
    assert state["markers"]["1"] == "france" and p["influence"]["france"] == 1
    assert not any(c.startswith("ca") for c in codes(state, 0))  # annex is used
    play(state, 0, "influence 2")  # costs 5: 1 left, 4 to pay with 3 combat points and 2 figures
    assert state["stack"][-1]["kind"] == "short"  # 3 points and a figure, or 2 points and 2 figures
    play(state, 0, "pay 3 combat points and 1 figure")
    assert p["influence"]["france"] == 3 and p["combat_points"] == 0 and p["figures"] == 1
    assert R.stack(state).top() is None  # only "end" was left: it ended by itself
    assert p["tokens"] == 1


def test_it_lets_the_player_mix_combat_points_and_figures_for_the_value_missing() -> None:
    state = started(3)
    p = state["seats"][0]
    p["combat_points"], p["figures"] = 3, 2
    state["stack"] = [frame("combat", 0, nation="france", value=2, used=[], token="T1")]
    play(state, 0, "annex 1")  # value 2, cost 4: 2 missing
    assert set(codes(state, 0)) == {"cp2", "cp1", "cp0"}  # the rulebook: combat points or figures, any mix
    play(state, 0, "pay 2 figures")
    assert (p["combat_points"], p["figures"], p["figures_owned"]) == (3, 0, 0) and state["markers"]["1"] == "france"
    assert state["stack"][-1]["kind"] == "combat"
    p["combat_points"], p["figures"] = 1, 2
    state["stack"] = [frame("combat", 0, nation="france", value=0, used=["annex"], token="T1")]
    play(state, 0, "influence 1")  # 2 missing, 1 point: 1 point and 1 figure, or 2 figures
    assert set(codes(state, 0)) == {"cp1", "cp0"}
    p["combat_points"], p["figures"] = 4, 0
    state["stack"] = [frame("combat", 0, nation="spain", value=0, used=[], token="T1")]
    play(state, 0, "influence 1")  # no figure: the points pay, nothing asked
    assert p["combat_points"] == 2 and all(f["kind"] != "short" for f in state["stack"])


def test_it_displaces_another_nations_marker_for_6_and_removes_it_from_the_game() -> None:
    state = started(3)
    state["markers"]["2"] = "spain"
    state["stack"] = [frame("combat", 0, nation="england", value=6, used=[], token=None)]
    assert "cd2" in codes(state, 0)
    play(state, 0, "displace 2")
    assert state["markers"]["2"] == "england"
    assert sum(state["supply"]["spain"]) == 13 and sum(state["supply"]["england"]) == 12


# ---- influence and nations ------------------------------------------------------------------------

def test_it_scores_2_vp_for_each_space_past_the_end_of_an_influence_track() -> None:
    state = started(2)
    p = state["seats"][0]
    p["influence"]["spain"] = C.INFLUENCE_MAX - 1
    gain_influence(state, 0, "spain", 3, [])
    assert p["influence"]["spain"] == C.INFLUENCE_MAX and p["victory_points"] == 4


def test_it_computes_multipliers_from_emptied_spaces_and_majority_bonus_with_ties() -> None:
    state = started(3)
    for loc, nation in {"1": "spain", "2": "spain", "3": "england", "6": "england", "7": "france"}.items():
        take_marker(state, nation)
        state["markers"][loc] = nation
    # spain and england tie for first (2 each): both +2, france third: nothing
    assert multiplier(state) == {"spain": 1 + 2, "england": 1 + 2, "france": 1}
    take_marker(state, "spain")
    state["markers"]["9"] = "spain"
    assert multiplier(state) == {"spain": 2 + 2, "england": 1 + 1, "france": 1}


def test_it_scores_most_influence_and_noble_ranks_at_the_end() -> None:
    state = started(2)
    state["seats"][0]["influence"] = {"france": 6, "england": 0, "spain": 0}
    state["seats"][1]["influence"] = {"france": 6, "england": 3, "spain": 0}
    s = final_scores(state)
    mult = multiplier(state)
    assert s[0]["nations"] == 3 + 2 * mult["france"]
    assert s[1]["nations"] == 3 + 3 + 2 * mult["france"] + 1 * mult["england"]


# ---- explorer --------------------------------------------------------------------------------------

def test_it_skips_occupied_explorer_spaces_without_counting_them() -> None:
    state = started(3)
    state["seats"][1]["explorer"] = 1
    assert explore_targets(state, 0, 1) == [2]


def test_it_rewards_the_barriers_and_the_end_of_the_track() -> None:
    state = started(3)
    rng = Rng(state)
    frames = do_explore(state, 0, 7, rng, [])
    assert frames[0]["kind"] == "nation" and frames[0]["data"]["n"] == 3  # red: 3 influence
    vp = state["seats"][0]["victory_points"]
    state["seats"][0]["explorer"] = 12
    do_explore(state, 0, 13, rng, [])
    state["seats"][1]["explorer"] = 12
    do_explore(state, 1, 14, rng, [])
    assert state["seats"][0]["victory_points"] - vp == 4 and state["seats"][1]["victory_points"] >= 2  # first 4, then 2
    ends = []
    for seat in (0, 1, 2):
        state["seats"][seat]["explorer"] = C.END_SPACE - 1
        before = state["seats"][seat]["victory_points"]
        frames = do_explore(state, seat, C.END_SPACE, rng, [])
        ends.append(state["seats"][seat]["victory_points"] - before)
        assert any(f["kind"] == "village" for f in frames)
    assert ends == [10, 8, 6]
    assert explore_targets(state, 0, 3) == []  # further movement is lost


# ---- cards, synergy, quests, careers -----------------------------------------------------------------

def test_it_activates_synergy_gated_income_retroactively() -> None:
    state = started(2)
    gated = next(c for c in C.CARD.values() if any(e["t"] == "income" and e.get("needs") for e in c["effects"])
                 and not c.get("synergy") and not c.get("assist") and not c.get("figure"))
    symbol = next(e["needs"] for e in gated["effects"] if e["t"] == "income")
    p = state["seats"][0]
    p["hand"].append(gated["id"])
    p["doubloons"] = 50
    do_buy(state, 0, gated["id"], Rng(state), [])
    assert p["income_doubloons"] == 8
    take_synergy(state, 0, symbol, [])
    assert p["income_doubloons"] == 8 + next(e["d"] for e in gated["effects"] if e["t"] == "income")


def test_it_multiplies_a_quest_reward_by_the_compasses() -> None:
    state = started(2)
    p = state["seats"][0]
    q = next(q for q in C.QUEST.values() if set(q["cost"]) == {"d"} and "vp" in q["per"])
    p["doubloons"] = 20
    vp = p["victory_points"]
    do_quest(state, 0, q["id"], Rng(state), [])
    assert p["victory_points"] - vp == q["per"]["vp"] + q["fixed"].get("vp", 0)
    compass_card = next(c["id"] for c in C.CARD.values() if any(e.get("k") == "compass" for e in c["effects"]))
    p["display"].append(compass_card)
    vp = p["victory_points"]
    do_quest(state, 0, q["id"], Rng(state), [])
    assert p["victory_points"] - vp == 2 * q["per"]["vp"] + q["fixed"].get("vp", 0)


def test_it_pays_career_tasks_upper_or_lower_and_the_admiral_bonus() -> None:
    state = started(2)
    p = state["seats"][0]
    for key in ("quests", "tokens", "explorer"):
        p[key] = 20
    p["areas"] = [u["id"] for u in C.UPGRADES]
    p["display"] = list(C.CARD)[:10]
    p["influence"] = dict.fromkeys(C.NATIONS, 5)
    p["assist"] = [{"loc": "2", "card": 1, "since": 0}] * 2
    p["synergy"] = list(C.SYNERGIES)
    d, vp = p["doubloons"], p["victory_points"]
    do_career(state, 0, "k1u", [])
    assert p["doubloons"] == d + C.CAREER[p["careers"][0]["id"]]["tasks"][0]["d"] and p["victory_points"] == vp
    do_career(state, 0, "k2l", [])
    do_career(state, 0, "k3l", [])
    tasks = C.CAREER[p["careers"][0]["id"]]["tasks"]
    assert p["victory_points"] == vp + tasks[1]["vp"] + tasks[2]["vp"] + 2  # the Admiral's 2 VP


def test_it_keeps_ship_area_order_conditions() -> None:
    p: dict[str, Any] = {"discs": {u["id"]: 2 for u in C.UPGRADES}, "areas": []}
    assert "U5" not in disc_areas(p) and "U10" not in disc_areas(p) and "U12" not in disc_areas(p)
    p["areas"] = ["U3", "U1", "U2", "U4"]
    areas = disc_areas(p)
    assert "U5" in areas and "U10" in areas and "U12" not in areas


# ---- rounds and scoring ---------------------------------------------------------------------------------

def test_it_ends_the_round_at_21_then_scores_and_returns_every_ship_to_havana() -> None:
    state = started(3)
    state["seats"][1]["at"] = "20"
    state["seats"][2]["at"] = "11"
    state["turn"] = 1
    state["stack"] = []
    start_turn(state, 1, [])
    play(state, 1, "sail to 21a")
    assert state["trigger"] == 1
    while R.stack(state).top()["kind"] != "score":
        seat = RULES.pending(state)[0]
        play(state, seat, RULES.options(state, seat)[-1].code)
    assert RULES.pending(state) == [1]  # the player who ended the round chooses first
    for seat in (1, 2, 0):
        assert RULES.pending(state) == [seat]
        play(state, seat, "vp2")
    assert state["round"] == 2 and all(p["at"] == "H" for p in state["seats"])
    assert RULES.pending(state) == [2]  # the next player after the one who ended the round
    assert [b["up"] for b in state["prestige"]] == [True, True, False, False]
    assert sorted(state["quests"]) >= ["17", "3", "9"][:0] and "9" in state["quests"]


def test_it_refuses_without_changing_the_state() -> None:
    state = started(2)
    before = copy.deepcopy(state)
    with pytest.raises(IllegalMove):
        RULES.apply(state, 0, {"code": "buy everything"})
    assert state == before


# ---- the city actions of the guide ---------------------------------------------------------------------

def _at_city_with(action: str) -> State:
    state = started(3)
    p = state["seats"][0]
    if action == "combat":
        p["at"] = "11"
    else:
        p["at"] = "4"
        state["tiles"]["4"] = next(t["id"] for t in C.TILES["city_tiles"] if t["action"] == action)
    state["stack"] = [frame("main", 0, spent=3)]
    return state


@pytest.mark.parametrize(("action", "cp", "d", "next_kinds"), [
    ("inf_village", 0, 0, ["nation", "village"]),
    ("cp_disc", 1, 0, ["disc"]),
    ("cp3", 3, 0, []),
    ("d2_village", 0, 2, ["village"]),
    ("cp_inf", 1, 0, ["nation"]),
    ("compass", 0, 0, ["village"]),
    ("combat", 0, 0, ["pile"]),
])
def test_it_performs_each_city_action(action: str, cp: int, d: int, next_kinds: list[str]) -> None:
    state = _at_city_with(action)
    p = state["seats"][0]
    before = (p["combat_points"], p["doubloons"])
    RULES.apply(state, 0, {"code": "city"})
    assert (p["combat_points"] - before[0], p["doubloons"] - before[1]) == (cp, d)
    kinds = [f["kind"] for f in reversed(state["stack"])][:len(next_kinds)]
    assert kinds == next_kinds


def test_it_pays_2_combat_points_for_influence_and_6_doubloons() -> None:
    state = _at_city_with("pay_cp")
    p = state["seats"][0]
    p["combat_points"] = 3
    d = p["doubloons"]
    play(state, 0, "city", "yes", "ns")
    assert (p["combat_points"], p["doubloons"] - d, p["influence"]["spain"]) == (1, 6, 1)


def test_it_scores_combat_tokens_and_may_trade_the_hand_for_4_doubloons() -> None:
    state = _at_city_with("tokens_discard")
    p = state["seats"][0]
    p["tokens"] = 3
    vp, d = p["victory_points"], p["doubloons"]
    play(state, 0, "city", "yes")
    assert (p["victory_points"] - vp, p["doubloons"] - d, p["hand"]) == (3, 4, [])


def test_it_pays_4_doubloons_or_2_vp_per_assistant() -> None:
    state = _at_city_with("assistants")
    p = state["seats"][0]
    p["assist"] = [{"loc": "2", "card": 1, "since": 0}, {"loc": "5", "card": 2, "since": 0}]
    d = p["doubloons"]
    play(state, 0, "city", "yes")
    assert p["doubloons"] - d == 8


def test_it_gives_one_village_action_per_compass_in_maracaibo_style_cities() -> None:
    state = _at_city_with("compass")
    p = state["seats"][0]
    p["display"].append(next(c["id"] for c in C.CARD.values() if any(e.get("k") == "compass" for e in c["effects"])))
    RULES.apply(state, 0, {"code": "city"})
    assert state["stack"][-1]["data"]["left"] == 2


# ---- payment choices, free actions inside sub-decisions, default moves ----------------------------------

def _cards(kind: str, value: str, n: int) -> list[int]:
    return sorted((c for c in C.CARD.values() if c[kind] == value), key=lambda c: (c["cost"], c["id"]))[:n]


def _at_quest(state: State, qid: str, hand: list[int]) -> dict[str, Any]:
    p: dict[str, Any] = state["seats"][0]
    p["hand"] = hand
    p["at"] = "6"
    state["quests"]["6"] = qid
    state["stack"] = [frame("main", 0, spent=3)]
    return p


def test_it_lets_the_player_choose_which_cards_pay_a_quest() -> None:
    state = started(3)
    cheap, dear = (c["id"] for c in _cards("good", "tobacco", 2))
    p = _at_quest(state, "Q1", [cheap, dear])  # Q1: one tobacco
    play(state, 0, "quest")
    assert state["stack"][-1]["kind"] == "pay"
    assert [c for c in codes(state, 0) if c.startswith("y")] == [f"y{cheap}", f"y{dear}"]  # the cheapest first
    play(state, 0, f"y{dear}")
    assert p["hand"] == [cheap] and dear in state["discard"] and p["quests"] == 1


def test_it_pays_a_quest_without_asking_when_only_one_set_of_cards_fits() -> None:
    state = started(3)
    (only,) = (c["id"] for c in _cards("good", "tobacco", 1))
    p = _at_quest(state, "Q1", [only])
    play(state, 0, "quest")
    assert p["hand"] == [] and p["quests"] == 1 and state["stack"][-1]["kind"] != "pay"


def test_it_finds_the_payment_a_cheapest_first_choice_would_miss() -> None:
    # Q20 wants tobacco and a book: a tobacco-and-book card must pay the book when the other card has no book
    state = started(3)
    both = next(c["id"] for c in C.CARD.values() if c["good"] == "tobacco" and c["object"] == "book")
    other = next(c["id"] for c in C.CARD.values() if c["good"] == "tobacco" and c["object"] != "book")
    p = _at_quest(state, "Q20", [both, other])
    assert can_pay_quest(p, "Q20")
    assert quest_payments(p, C.QUEST["Q20"]["cost"]) == [sorted([both, other])]


def test_it_lets_the_player_choose_which_card_makes_a_delivery() -> None:
    state = _at_city_with("cp3")
    p = state["seats"][0]
    goods = C.LOC["4"]["market"]["goods"]
    cheap, dear = (c["id"] for c in _cards("good", goods[0], 2))
    p["hand"] = [cheap, dear]
    play(state, 0, f"d{goods[0]}")
    assert state["stack"][-1]["kind"] == "pay" and RULES.pending(state) == [0]
    play(state, 0, f"y{dear}")
    assert p["hand"] == [cheap] and state["market"]["4"] == [0] and state["stack"][-1]["kind"] == "disc"


def test_it_offers_free_actions_inside_a_combat_and_comes_back_to_it() -> None:
    state = started(3)
    p = state["seats"][0]
    p["combat_points"] = 3
    state["stack"] = [frame("combat", 0, nation="france", value=5, used=[], token="T1")]
    card = p["hand"][0]
    assert f"p{card}" in codes(state, 0)
    play(state, 0, f"p{card}")
    assert card in p["plan"] and state["stack"][-1]["kind"] == "combat"
    assert state["stack"][-1]["data"]["value"] == 5


def test_it_does_not_stop_a_forced_sub_decision_for_free_actions() -> None:
    state = started(3)
    state["stack"] = [frame("combat", 0, nation="france", value=0, used=["inf", "annex"], token=None)]
    assert codes(state, 0) == ["cend"]


def test_it_declares_a_safe_default_move_for_every_decision() -> None:
    import random

    from engine.testing import choose

    rnd = random.Random(3)
    kinds: set[str] = set()
    state = setup(3, "defaults", rounds=1)
    while pending := RULES.pending(state):
        seat = pending[0]
        opts = RULES.options(state, seat)
        default = RULES.default_move(state, seat)
        kind = state["stack"][-1]["kind"]
        kinds.add(kind)
        assert default in opts
        if kind != "setup":
            assert not _is_free(default.code)
        expected = {"main": "pass", "free": "end", "score": "vp2", "combat": "cend", "village": "done"}.get(kind)
        if expected:
            assert default.code == expected
        if kind == "sail":
            assert default.label.startswith("sail 1 ")
        RULES.apply(state, seat, choose(RULES, state, seat, opts, rnd).move)
    assert {"setup", "sail", "main", "free", "score"} <= kinds


def test_it_finishes_a_game_played_by_default_moves_only() -> None:
    state = setup(2, "absent", rounds=1)
    for _ in range(5000):
        pending = RULES.pending(state)
        if not pending:
            break
        default = RULES.default_move(state, pending[0])
        assert default is not None
        RULES.apply(state, pending[0], default.move)
    assert RULES.outcome(state) is not None


# ---- legacy tiles of scenarios 76 and 77 (substitute content) -------------------------------------------

def test_it_places_the_legacy_tiles_of_scenarios_76_and_77() -> None:
    assert setup(3, scenario="75")["legacy"] == []
    assert setup(3, scenario="76")["legacy"] == ["L1", "L4", "L5", "L6"]
    state = setup(3, scenario="77")
    assert state["legacy"] == ["L1", "L4", "L5", "L6", "L7", "L8", "L9"]
    assert state["markers"] == {"12": "spain"} and state["supply"]["spain"][0] == 0  # L9
    assert RULES.view(state, 0)["legacy"] == state["legacy"]
    assert loc_kind(setup(3, scenario="75"), "9a") == "off" and loc_kind(state, "9a") == "city"


def test_it_makes_puerto_cabezas_a_city_whose_action_fulfils_the_top_quest() -> None:
    state = started(3, scenario="76")
    assert loc_kind(state, "17") == "city" and loc_kind(started(3), "17") == "village"
    p = state["seats"][0]
    state["quest_pile"][0:0] = ["Q13"]  # pay 3 doubloons
    nxt = state["quest_pile"][1]
    p["at"], p["doubloons"] = "17", 5
    state["quests"].pop("17", None)
    state["stack"] = [frame("main", 0, spent=3)]
    assert "city" in codes(state, 0)
    events = RULES.apply(state, 0, {"code": "city"})
    assert p["quests"] == 1 and p["doubloons"] == 2 and state["quest_pile"][0] == nxt
    assert any(e.reveals for e in events)  # the next quest of the pile is turned face up
    p["doubloons"] = 0
    state["quest_pile"][0:0] = ["Q13"]
    state["stack"] = [frame("main", 0, spent=3)]
    assert "city" not in codes(state, 0)  # an unpayable top quest: no city action


def test_it_opens_the_legacy_city_9a_once_the_explorer_has_reached_space_6() -> None:
    state = started(3, scenario="76")
    p = state["seats"][0]
    p["at"] = "8"
    assert "9a" not in dict(sail_targets(state, 0))
    p["explorer"] = 6
    targets = dict(sail_targets(state, 0))
    assert targets["9"] == 1 and targets["9a"] == 3 and targets["11"] == 2  # in: 2 movement, out: 1
    p["at"] = "9a"
    assert dict(sail_targets(state, 0))["11"] == 1
    assert "9a" not in dict(sail_targets(started(3, scenario="75"), 0))
    d, vp = p["doubloons"], p["victory_points"]
    state["stack"] = [frame("main", 0, spent=3)]
    RULES.apply(state, 0, {"code": "city"})
    assert (p["doubloons"] - d, p["victory_points"] - vp) == (4, 2)


def test_it_annexes_a_legacy_city_only_when_it_is_open_to_the_fighter() -> None:
    state = started(3, scenario="76")
    p = state["seats"][0]
    state["stack"] = [frame("combat", 0, nation="france", value=4, used=[], token=None)]
    assert "ca9a" not in codes(state, 0) and "ca16a" not in codes(state, 0)
    p["explorer"] = 6
    assert "ca9a" in codes(state, 0) and "ca16a" not in codes(state, 0)  # 16a is scenario 77's (L7)


def test_it_rewards_stopping_at_tortuga_and_charges_for_belize() -> None:
    state = started(3, scenario="77")
    p = state["seats"][0]
    cp = p["combat_points"]
    play(state, 0, "sail to 3")
    assert p["combat_points"] == cp + 1  # L5
    state = started(3, scenario="77")
    p = state["seats"][0]
    p["at"], p["doubloons"] = "17", 5
    state["stack"] = [frame("sail", 0, ask=True), frame("main", 0, spent=0)][::-1]
    play(state, 0, "sail to 18")
    assert p["doubloons"] == 3  # L8
    state = started(3, scenario="75")
    cp = state["seats"][0]["combat_points"]
    play(state, 0, "sail to 3")
    assert state["seats"][0]["combat_points"] == cp


def test_it_adds_the_treasure_fleet_combat_actions_each_once() -> None:
    state = started(3, scenario="76")
    p = state["seats"][0]
    p["combat_points"] = 0
    state["stack"] = [frame("combat", 0, nation="spain", value=5, used=["inf", "annex"], token=None)]
    assert {"cxL6a", "cxL6b"} <= set(codes(state, 0))
    d = p["doubloons"]
    play(state, 0, "cxL6a")
    assert p["doubloons"] == d + 4 and "cxL6a" not in codes(state, 0)
    state = started(3, scenario="75")
    state["stack"] = [frame("combat", 0, nation="spain", value=5, used=[], token=None)]
    assert not any(c.startswith("cx") for c in codes(state, 0))


def test_it_scores_21_for_every_arrival_in_the_last_round_and_ends_at_the_first_ship_on_22() -> None:
    state = started(3, rounds=1)
    state["seats"][1]["at"] = "20"
    state["stack"] = []
    start_turn(state, 1, [])
    vp = state["seats"][1]["victory_points"]
    play(state, 1, "sail to 21a", "pass", "end")
    # no interim scoring in the last round
    assert state["seats"][1]["victory_points"] == vp + 3 and state["trigger"] is None
    assert RULES.pending(state) == [2]
    state["seats"][2]["at"] = "21b"  # arrived there earlier
    play(state, 2, "sail to 22", "pass", "end")
    assert state["trigger"] == 2
    order = []
    while not state["over"]:
        seat = RULES.pending(state)[0]
        assert state["stack"][-1]["kind"] == "score"  # nobody sails again: straight to final scoring
        order.append(seat)
        play(state, seat, "vp2")
    assert order == [2, 0, 1]  # from the player who ended the game, clockwise
    assert RULES.outcome(state) is not None


def test_its_bot_chooses_in_every_upgrade_choice() -> None:
    import random

    state = started(3)
    state["seats"][0]["influence"]["spain"] = 4
    state["stack"] = [frame("u11", 0)]
    opts = RULES.options(state, 0)
    assert {"explore", "money", "rank"} <= {o.code for o in opts}
    assert RULES.bot_choice(state, 0, opts, random.Random(1)) in opts


def test_its_bot_chooses_which_three_goods_u9_discards() -> None:
    import random

    from tests.engine.maracaibo_scenarios import SCENARIOS

    state, seat = SCENARIOS["three"]()
    opts = RULES.options(state, seat)
    assert {o.code for o in opts} == {"gtobacco", "gcorn"}
    assert RULES.bot_choice(state, seat, opts, random.Random(1)) in opts


def test_its_bot_pays_the_combat_value_missing_with_combat_points_first() -> None:
    import random

    from tests.engine.maracaibo_scenarios import SCENARIOS

    state, seat = SCENARIOS["short"]()
    opts = RULES.options(state, seat)
    assert RULES.bot_choice(state, seat, opts, random.Random(1)).code == "cp2"
