"""Solo Maracaibo against Jean, the automa: every rule of hers (docs/rules/maracaibo.md, Jean)."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from engine.core import Event, State
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import jean as J
from engine.games.maracaibo import rules as R
from engine.games.maracaibo.board import loc_kind, multiplier
from engine.games.maracaibo.exploring import explore_targets
from engine.games.maracaibo.scoring import final_scores
from engine.rng import Rng, seed_to_state
from engine.stack import frame
from engine.testing import check_conformance, run_game


def solo(seed: Any = 1, **options: Any) -> State:
    return RULES.setup(["Ana"], options, seed)


def started(seed: Any = 1, **options: Any) -> State:
    """Past the setup choice (plan the first dealt card, keep the next four)."""
    state = solo(seed, **options)
    while state["stack"][-1]["kind"] == "setup":
        RULES.apply(state, 0, RULES.options(state, 0)[0].move)
    return state


def turn(state: State, card: str, at: str | None = None) -> tuple[bool, list[Event]]:
    """Jean plays one turn with ``card`` on top of her pile (from ``at``)."""
    j = state["jean"]
    j["pile"].append(card)
    if at is not None:
        j["at"] = at
    ev: list[Event] = []
    ended = J.play_turn(state, Rng(state), ev)
    return ended, ev


def texts(ev: list[Event]) -> str:
    return " | ".join(e.text for e in ev)


# ---- the solo game and her deck --------------------------------------------------------------------

def test_it_takes_one_player_and_seats_jean_inside_the_engine_as_in_a_two_player_setup() -> None:
    assert RULES.min_players == 1
    state = solo()
    assert state["players"] == ["Ana"] and RULES.pending(state) == [0]
    assert state["jean"]["at"] == "H" and state["jean"]["influence"] == dict.fromkeys(C.NATIONS, 0)
    # the 2-player table: tiles for two, 6/7/8 pre-annexed, Maracaibo covered (a village)
    assert all(2 in C.CITY_TILE[t]["players"] for t in state["tiles"].values())
    assert {k: state["markers"][k] for k in ("6", "7", "8")} == C.MAP["two_player_annexed"]
    assert loc_kind(state, "10") == "village"
    assert state["seats"][0]["doubloons"] == 8 and len(state["seats"]) == 1
    view = RULES.view(state, 0)
    assert view["jean"]["name"] == "Jean" and "Jean" in RULES.render_text(view)


def test_it_has_jeans_17_cards_as_data() -> None:
    assert len(J.CARDS) == 17
    assert Counter(c["level"] for c in J.CARDS.values()) == {"A": 5, "B": 7, "C": 5}
    b7u, c5u = J.CARDS["B7U"], J.CARDS["C5U"]
    assert (b7u["move"], b7u["route"], b7u["display"]) == (1, "lower", 1)
    assert (c5u["move"], c5u["route"], c5u["display"]) == (1, "upper", 2)
    assert [J.action_text(a) for a in J.actions(J.CARDS["B1"], 1)] == ["4 VP", "explore 2"]
    assert [J.action_text(a) for a in J.actions(J.CARDS["B1"], 3)] == ["4 VP", "explore 4"]


@pytest.mark.parametrize(("level", "make_up"), [(1, (5, 0, 0)), (2, (5, 0, 1)), (3, (5, 1, 1)), (4, (5, 2, 1)),
                                                (5, (5, 3, 1))])
def test_it_builds_her_deck_by_difficulty(level: int, make_up: tuple[int, int, int]) -> None:
    for seed in range(5):
        j = solo(seed, difficulty=level)["jean"]
        levels = Counter(J.CARDS[c]["level"] for c in j["pile"])
        assert (levels["A"], levels["B"], levels["C"]) == make_up
        assert sorted(j["pile"] + j["box"]) == sorted(J.CARDS)


def test_it_leaves_the_uprising_cards_out_when_asked() -> None:
    for seed in range(10):
        j = solo(seed, difficulty=5, jean_uprising=False)["jean"]
        assert not {"B7U", "C5U"} & set(j["pile"] + j["box"])


def test_it_reshuffles_her_discards_when_her_pile_is_empty() -> None:
    state = started(difficulty=1)
    j = state["jean"]
    j["discard"], j["pile"] = list(j["pile"]), []
    ev: list[Event] = []
    J.draw(state, Rng(state), ev)
    assert ev[0].kind == "jean_reshuffle" and len(j["pile"]) == 4 and len(j["discard"]) == 1


# ---- her movement ----------------------------------------------------------------------------------

def test_it_counts_only_cities_and_locations_with_a_quest() -> None:
    state = started()
    state["quests"] = {"6": "Q1"}
    state["jean"]["at"] = "H"
    assert J.destination(state, 1, "upper") == "4"  # villages 1-3 without quests are not counted
    assert J.destination(state, 2, "upper") == "5"
    state["jean"]["at"] = "5"
    assert J.destination(state, 1, "upper") == "6"  # a village with a quest counts
    state["quests"] = {}
    assert J.destination(state, 1, "upper") == "11"  # 6-9 not counted; 10 is a village in solo


def test_it_takes_the_cards_route_at_each_branch() -> None:
    state = started()
    state["quests"] = {"9": "Q1", "10": "Q2"}
    state["jean"]["at"] = "8"
    assert J.destination(state, 1, "upper") == "9"
    assert J.destination(state, 1, "lower") == "10"
    state["quests"] = {"16": "Q3"}
    state["jean"]["at"] = "14"
    assert J.destination(state, 1, "lower") == "16"
    assert J.destination(state, 1, "upper") == "19"  # 15 has no quest: on to the next city


def test_it_never_skips_a_hand_symbol_space() -> None:
    state = started()
    state["jean"]["at"] = "19"
    assert J.destination(state, 2, "upper") == "20"
    state["jean"]["at"] = "20"
    assert J.destination(state, 2, "upper") == "21a" and J.destination(state, 2, "lower") == "21b"
    state["jean"]["at"] = "21a"
    assert J.destination(state, 2, "upper") == "21a"  # 22 only in the last round
    state["round"] = state["rounds"]
    assert J.destination(state, 2, "upper") == "22"


# ---- her turn --------------------------------------------------------------------------------------

def test_it_ends_her_turn_on_a_quest_she_stops_at() -> None:
    state = started()
    state["quests"] = {"6": "Q1"}
    turn(state, "A4", at="5")  # 2 stops: the quest at 6 counts as the first, 11 is the second
    assert state["jean"]["at"] == "11" and state["quests"] == {"6": "Q1"}
    state["quests"] = {"12": "Q5"}
    vp, inf, discs = state["jean"]["victory_points"], dict(state["jean"]["influence"]), state["jean"]["discs"]
    ended, ev = turn(state, "A2", at="11")
    assert state["jean"]["at"] == "12" and state["jean"]["quests"] == 1 and "12" not in state["quests"]
    assert (state["jean"]["influence"] == inf and state["jean"]["victory_points"] == vp
            and state["jean"]["discs"] == discs)
    assert "takes quest Q5" in texts(ev) and not ended


def test_it_puts_a_disc_on_a_free_market_space_then_resolves_the_card() -> None:
    state = started()
    state["quests"] = {}
    _, ev = turn(state, "A2", at="H")
    assert state["jean"]["at"] == "4" and state["market"]["4"] == ["jean"] and state["jean"]["discs"] == 1
    assert state["jean"]["influence"]["france"] == 1
    assert [e.kind for e in ev] == ["jean_card", "jean_sail", "jean_disc", "jean_influence"]


def test_it_removes_the_cards_display_card_when_the_market_is_full() -> None:
    state = started()
    state["quests"] = {}
    state["market"]["4"] = [0, 0, 0]
    shown = list(state["display"])
    turn(state, "A1", at="H")  # display card 3
    assert state["display"] == shown[:2] + shown[3:] and state["jean"]["cards"] == [shown[2]]
    assert state["jean"]["discs"] == 0
    state["display"] = shown[:1]
    state["jean"]["at"] = "H"
    turn(state, "A3", at="H")  # display card 4, only one left: she takes the last
    assert state["display"] == [] and state["jean"]["cards"] == [shown[2], shown[0]]


def test_it_takes_a_quest_from_the_pile_and_shows_the_new_top() -> None:
    state = started()
    state["quests"] = {}
    top, nxt = state["quest_pile"][:2]
    _, ev = turn(state, "B2", at="H")
    assert state["jean"]["quests"] == 1 and state["quest_pile"][0] == nxt
    quest = next(e for e in ev if e.kind == "jean_quest")
    assert quest.reveals and top in quest.text


def test_it_removes_a_disc_from_her_board_and_scores_by_the_track() -> None:
    state = started()
    state["quests"] = {}
    state["market"]["4"] = [0, 0, 0]
    state["market"]["5"] = [0, 0, 0]
    turn(state, "B3", at="H")
    assert state["jean"]["discs"] == 1
    expected = {0: 0, 1: 0, 2: 1, 5: 4, 6: 6, 10: 14, 22: 38, 30: 38}
    for discs, vp in expected.items():
        assert J.round_vp({"discs": discs, "cards": []}) == vp
    assert J.round_vp({"discs": 6, "cards": [1, 2, 3]}) == 9


def test_it_gives_the_vp_of_the_round_and_makes_the_player_pay_combat_points() -> None:
    state = started()
    state["quests"] = {}
    state["seats"][0]["combat_points"] = 3
    turn(state, "C5U", at="H")  # round 1: 5 VP, the player pays 2
    assert state["jean"]["victory_points"] == 5 and state["seats"][0]["combat_points"] == 1
    state["round"] = 3
    _, ev = turn(state, "B7U", at="H")  # round 3: 5 VP, pay 4: 1 paid, 3 missing at 3 VP
    assert state["seats"][0]["combat_points"] == 0 and state["jean"]["victory_points"] == 5 + 5 + 9
    assert "3 missing" in texts(ev)


# ---- her explorer ----------------------------------------------------------------------------------

def test_it_moves_her_explorer_to_a_quest_within_reach_and_takes_it() -> None:
    state = started()
    state["track_quests"] = {"4": "Q9", "11": "Q10", "17": "Q11"}
    ev: list[Event] = []
    J.explore(state, 4, ev)  # the quest at 4 is reached with 4: she stops there
    assert state["jean"]["explorer"] == 4 and state["jean"]["quests"] == 1 and "4" not in state["track_quests"]
    J.explore(state, 2, ev)  # no quest within 2: on by the shortest way
    assert state["jean"]["explorer"] == 6


def test_it_takes_the_shortest_way_skips_occupied_spaces_and_scores_nothing() -> None:
    state = started()
    state["track_quests"] = {}
    state["jean"]["explorer"] = 6
    state["seats"][0]["explorer"] = 7
    vp = state["jean"]["victory_points"]
    ev: list[Event] = []
    J.explore(state, 2, ev)  # 7 is held (skipped, not counted), then 10 by the shortcut, then 11
    assert (state["jean"]["explorer"] == 11 and state["jean"]["victory_points"] == vp
            and state["jean"]["influence"]["france"] == 0)
    J.explore(state, 3, ev)  # crossing the blue barrier at 13 first
    assert state["first"]["blue"] and "blue barrier first" in texts(ev)
    state["jean"]["explorer"] = 22
    J.explore(state, 3, ev)
    assert state["jean"]["explorer"] == C.END_SPACE and state["ended"] == 1 and state["jean"]["victory_points"] == vp


def test_it_makes_the_players_explorer_skip_jeans() -> None:
    state = started()
    state["jean"]["explorer"] = 1
    assert explore_targets(state, 0, 1) == [2]


def test_it_counts_how_far_her_explorer_is_ahead() -> None:
    state = started()
    state["jean"]["explorer"], state["seats"][0]["explorer"] = 10, 9  # different branches: 9 is one from 10
    assert J.explorer_ahead(state) == 1
    state["jean"]["explorer"], state["seats"][0]["explorer"] = 2, 14
    assert J.explorer_ahead(state) == -10  # 2 to 14 by the shortcut 7-10


# ---- her combat ------------------------------------------------------------------------------------

def test_it_fights_for_the_highest_modified_value_with_noble_ranks() -> None:
    state = started()
    token = "T1"  # england 5, france 2, spain 3
    assert J.choose_nation(state, token) == "england"
    state["seats"][0]["influence"]["england"] = 6  # the player's rank 2 with England: 5 - 2 = 3
    state["jean"]["influence"]["spain"] = 3  # hers with Spain: 3 + 1 = 4
    assert J.combat_values(state, token) == {"france": 2, "england": 3, "spain": 4}
    assert J.choose_nation(state, token) == "spain"


def test_it_applies_the_tokens_modifier_and_breaks_ties_by_printed_value_then_france_spain_england() -> None:
    state = started()
    state["markers"] = {"1": "england", "2": "england"}  # England has the most markers
    assert J.combat_values(state, "T7")["england"] == 2 - 2  # "most": -2
    state["markers"] = {"1": "england", "2": "spain"}
    assert J.combat_values(state, "T9")["france"] == 3 + 3  # "fewest": +3
    state["markers"] = {}
    state["seats"][0]["influence"]["england"] = 6  # T1: england 5 - 2 = 3 ties spain 3: the higher printed value
    assert J.choose_nation(state, "T1") == "england"
    assert J.choose_nation(state, None) == "france"  # no token: all 3, France first
    state["seats"][0]["influence"]["france"] = 3
    assert J.choose_nation(state, None) == "spain"


def test_it_annexes_the_lowest_empty_city_then_village_then_removes_a_marker() -> None:
    state = started()
    state["quests"] = {}
    state["piles"] = [["T1"], []]  # England 8
    _, ev = turn(state, "A3", at="H")
    assert state["markers"]["4"] == "england" and state["jean"]["influence"]["england"] == 2
    assert state["jean"]["tokens"] == ["T1"] and state["seats"][0]["victory_points"] == 0  # no flag bonus, no reward
    assert any(e.kind == "jean_token" and e.reveals for e in ev)
    for loc in C.FLAGS:
        if loc_kind(state, loc) == "city":
            state["markers"].setdefault(loc, "spain")
    assert J.annex_target(state) == "1"
    state["markers"] = dict.fromkeys(C.FLAGS, "spain")
    supply = sum(state["supply"]["france"])
    ev = []
    J.combat(state, 2, False, ev)  # piles empty: value 3 each, France
    assert sum(state["supply"]["france"]) == supply - 1 and "removes a France marker" in texts(ev)


def test_it_annexes_an_extra_village_with_c4() -> None:
    state = started()
    state["quests"] = {}
    state["piles"] = [["T1"], []]
    turn(state, "C4", at="H")
    assert state["markers"]["4"] == "england" and state["markers"]["1"] == "england"
    assert state["jean"]["influence"]["england"] == 3 and state["jean"]["victory_points"] == 2


# ---- turn order, scoring, the outcome ---------------------------------------------------------------

def play_bot(state: State, until: Any) -> None:
    import random

    rnd = random.Random(3)
    while RULES.pending(state) and not until(state):
        opts = RULES.options(state, 0)
        RULES.apply(state, 0, RULES.bot_choice(state, 0, opts, rnd).move)


def test_it_plays_jean_after_every_turn_of_the_player_without_asking_anyone() -> None:
    state = started()
    assert state["stack"][-1]["kind"] == "sail"
    RULES.apply(state, 0, RULES.parse("sail 1", state, 0))
    RULES.apply(state, 0, RULES.parse("pass", state, 0))
    events = RULES.apply(state, 0, RULES.parse("done", state, 0))
    kinds = [e.kind for e in events]
    assert "jean_turn" in kinds and "jean_card" in kinds and kinds[-1] == "turn"
    assert state["jean"]["at"] != "H" and RULES.pending(state) == [0] and state["stack"][-1]["kind"] == "sail"
    assert all(e.reveals for e in events[kinds.index("jean_card"):])


def test_it_ends_the_round_when_jean_reaches_21_and_the_player_begins_the_next() -> None:
    state = started()
    state["jean"]["at"], state["jean"]["pile"] = "20", ["A1"]
    state["seats"][0]["at"] = "1"
    state["stack"] = [frame("jean", 0)]  # what the player's "next" pushes
    ev = R.stack(state).settle(Rng(state))
    assert "Jean ended round 1" in texts(ev)
    assert state["stack"][-1]["kind"] == "score" and state["stack"][-2]["data"].get("jean")
    cards, discs = len(state["jean"]["cards"]), state["jean"]["discs"]
    RULES.apply(state, 0, {"code": "vp2"})
    assert state["round"] == 2 and state["jean"]["at"] == "H"
    assert state["jean"]["victory_points_by_source"].get("income",
                                                         0) == J.round_vp({"cards": [0] * cards, "discs": discs})
    assert state["stack"][-1]["kind"] == "sail" and state["turn"] == 0
    assert state["jean"]["card"] == "A1"  # Jean did not play again before the player


def test_it_lets_jean_begin_the_round_after_the_player_ended_it() -> None:
    state = started()
    state["seats"][0]["at"] = "20"
    play_bot(state, lambda s: s["round"] == 2)
    assert state["round"] == 2
    assert state["jean"]["at"] != "H" and state["jean"]["discard"]  # she played the first turn of round 2
    assert state["stack"][-1]["kind"] == "sail"


def test_it_scores_her_final_bonuses_against_the_player() -> None:
    state = started()
    j, p = state["jean"], state["seats"][0]
    j.update(quests=5, discs=12, explorer=10, cards=[1, 2])
    j["influence"] = {"france": 6, "england": 3, "spain": 0}
    p.update(quests=1, explorer=9)
    p["areas"] = ["U1", "U2"]
    p["influence"] = {"france": 6, "england": 0, "spain": 4}
    mult = multiplier(state)
    s = J.final_bonuses(state, mult)
    assert s["income"] == 2 + 18
    assert s["quests"] == 25 + 30  # 4 more than the player's
    assert s["upgrades"] == 30  # 12 discs are 6 upgrades, 4 more than the player's 2
    assert s["explorer"] == 10
    assert s["nations"] == 3 + 3 + 2 * mult["france"] + 1 * mult["england"]


def test_it_gives_the_quest_and_upgrade_bonuses_by_their_thresholds() -> None:
    table = J.FINAL["ahead"]
    assert [J._bonus(m, table) for m in (-1, 0, 1, 2, 3, 4, 9)] == [0, 0, 10, 10, 20, 30, 30]
    table = J.FINAL["explorer_ahead"]
    assert [J._bonus(m, table) for m in (0, 1, 7, 8, 10, 11)] == [0, 10, 10, 20, 20, 30]


def test_it_counts_jeans_influence_for_the_players_most_influence() -> None:
    state = started()
    state["seats"][0]["influence"] = {"france": 5, "england": 2, "spain": 0}
    state["jean"]["influence"] = {"france": 6, "england": 2, "spain": 0}
    nations = final_scores(state)[0]["nations"]
    assert nations == 3 + 1 * multiplier(state)["france"]  # England shared at 2; France is Jean's


def test_it_gives_jean_the_win_on_a_tie_and_names_nobody_winner_then() -> None:
    state = started()
    state["over"] = True
    state["seats"][0]["victory_points"], state["jean"]["victory_points"] = 90, 90
    out = RULES.outcome(state)
    assert out is not None and out.winners == () and out.ranking == ((0,),)
    assert out.as_dict()["automa"] == {"Jean": 90.0} and out.reason == "final scoring: Jean wins the tie"
    state["seats"][0]["victory_points"] = 91
    out = RULES.outcome(state)
    assert out is not None and out.winners == (0,) and out.reason == "final scoring: Ana beats Jean"


def test_it_hides_her_pile_and_resamples_it() -> None:
    state = started(difficulty=5)
    view = RULES.view(state, 0)
    assert view["jean"]["pile"] == 9 and "box" not in view["jean"]
    changed = 0
    for i in range(10):
        other = RULES.resample_hidden(copy.deepcopy(state), 0, Rng({"rng": seed_to_state(f"r{i}")}))
        assert RULES.view(other, 0) == view
        levels = Counter(J.CARDS[c]["level"] for c in other["jean"]["pile"])
        assert levels == Counter(J.CARDS[c]["level"] for c in state["jean"]["pile"])
        changed += other["jean"]["pile"] != state["jean"]["pile"]
    assert changed


# ---- conformance and whole games ----------------------------------------------------------------------

@pytest.mark.parametrize("level", [1, 3, 5])
def test_it_passes_the_conformance_checker_for_one_solo_round(level: int) -> None:
    report = check_conformance(RULES, 1, {"rounds": 1, "difficulty": level}, seeds=[f"solo-{level}"])
    assert report.finished == 1 and report.resamples_that_changed > 0


@pytest.mark.slow
def test_it_passes_the_conformance_checker_for_a_whole_solo_game() -> None:
    report = check_conformance(RULES, 1, {"difficulty": 4}, seeds=["solo-whole"])
    assert report.finished == 1


@pytest.mark.parametrize("level", [1, 2, 3, 4, 5])
def test_it_finishes_whole_solo_games_with_the_bot(level: int) -> None:
    report = run_game(RULES, 1, {"difficulty": level, "scenario": "76"}, f"solo-sim-{level}", checks=False)
    assert report.finished == 1


# ---- the legacy tiles of scenarios 76 and 77 ----------------------------------------------------------

def test_it_sails_her_to_a_legacy_city_only_once_her_explorer_has_reached_its_space() -> None:
    state = started(scenario="76")  # L1, L4, L5, L6
    state["quests"] = {}
    state["jean"]["at"] = "8"
    assert J.destination(state, 1, "upper") == "11"  # explorer at 0: 9a (L4, space 6) is closed
    state["jean"]["explorer"] = 6
    assert J.destination(state, 1, "upper") == "9a" and J.destination(state, 1, "lower") == "11"
    shown = list(state["display"])
    turn(state, "A1", at="8")  # 9a has no market: she removes display card 3
    assert state["jean"]["at"] == "9a" and state["jean"]["cards"] == [shown[2]]
    state["jean"]["at"] = "16"
    assert J.destination(state, 1, "upper") == "17"  # L7 is not in scenario 76; 17 is a city (L1)


def test_it_lets_her_annex_a_legacy_city_only_once_her_explorer_has_reached_its_space() -> None:
    state = started(scenario="76")
    for loc in ("4", "5"):
        state["markers"][loc] = "spain"
    assert J.annex_target(state) == "11"
    state["jean"]["explorer"] = 6
    assert J.annex_target(state) == "9a"


def test_it_ignores_the_stop_and_combat_legacy_tiles_and_counts_the_garrison() -> None:
    state = started(scenario="77")
    assert state["markers"].get("12") == "spain"  # L9's garrison is an ownership marker like any other
    state["quests"] = {}
    d, cp = state["seats"][0]["doubloons"], state["seats"][0]["combat_points"]
    turn(state, "A2", at="17")  # from 17: 18 (L8, Belize) is a village she does not count; on to 19
    assert state["jean"]["at"] == "19" and (state["seats"][0]["doubloons"], state["seats"][0]["combat_points"]) == (d,
                                                                                                                    cp)
