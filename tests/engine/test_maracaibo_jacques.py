"""Jacques, the Uprising's automa, solo (option automa=jacques): every rule of his
(docs/rules/maracaibo-cooperative.md, Jacques), the rulebook's last-round example among them."""

from __future__ import annotations

import copy
from collections import Counter
from typing import Any

import pytest

from engine.core import Event, State
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import jacques as JQ
from engine.rng import Rng, seed_to_state
from engine.testing import check_conformance, run_game


def solo(seed: Any = 1, **options: Any) -> State:
    return RULES.setup(["Ana"], {"automa": "jacques", **options}, seed)


def started(seed: Any = 1, **options: Any) -> State:
    """Past the setup choice (plan the first dealt card, keep the next four)."""
    state = solo(seed, **options)
    while state["stack"][-1]["kind"] == "setup":
        RULES.apply(state, 0, RULES.options(state, 0)[0].move)
    return state


def play_turn(state: State) -> list[Event]:
    """The seat's whole turn by the game's default moves (the shortest sail, no main action):
    the events up to the next turn, the round's end or the game's end."""
    seat = RULES.pending(state)[0]
    out: list[Event] = []
    for _ in range(60):
        opt = RULES.default_move(state, seat)
        assert opt is not None
        events = RULES.apply(state, seat, opt.move)
        out += events
        if state["over"] or any(e.kind in ("turn", "round_end") for e in events):
            return out
    raise AssertionError("the turn did not end")


def kinds(ev: list[Event]) -> list[str]:
    return [e.kind for e in ev]


def with_pile(state: State, top_first: list[str]) -> None:
    """His pile set to these cards, the first on top (the rest of his cards out of the game)."""
    j = state["jacques"]
    j["pile"] = list(reversed(top_first))
    j["box"] = sorted(set(JQ.CARDS) - set(top_first))


# ---- his cards and his pile ----------------------------------------------------------------------------

def test_it_has_jacques_12_cards_as_data_with_seven_areas_each() -> None:
    assert Counter(c["level"] for c in JQ.CARDS.values()) == {"A": 7, "B": 5}
    assert {JQ.card_vp(c) for c in JQ.CARDS if c.startswith("A")} == {5}
    assert {JQ.card_vp(c) for c in JQ.CARDS if c.startswith("B")} == {10}
    for card in JQ.CARDS.values():
        assert len(card["areas"]) == 7 and card["areas"][-1]["do"] == "end_round"
        for a in card["areas"]:
            if a["do"] == "disc":  # a market city of the map; city 17 of the published map is substituted
                assert "market" in C.LOC[a["city"]] and C.LOC[a["city"]]["kind"] == "city"
                assert a.get("substitute", False) == (a.get("published_city") == "17")
    assert [a["do"] for a in JQ.CARDS["A1"]["areas"]] == ["disc", "quest", "disc", "disc", "disc", "quest",
                                                          "end_round"]
    assert "SUBSTITUTE" in JQ.DATA["label"]


@pytest.mark.parametrize(("level", "a", "b"), [(1, 7, 0), (2, 5, 2), (3, 3, 4), (4, 2, 5)])
def test_it_builds_his_pile_of_seven_by_difficulty(level: int, a: int, b: int) -> None:
    piles = set()
    for seed in range(6):
        j = solo(seed, jacques_level=level)["jacques"]
        levels = Counter(c[0] for c in j["pile"])
        assert len(j["pile"]) == 7 and (levels["A"], levels["B"]) == (a, b)
        assert sorted(j["pile"] + j["box"]) == sorted(JQ.CARDS)
        piles.add(tuple(j["pile"]))
    assert len(piles) > 1  # shuffled: the seed decides


def test_it_sits_as_an_automa_with_no_seat_and_is_refused_past_difficulty_4() -> None:
    state = solo()
    assert state["players"] == ["Ana"] and "jean" not in state and RULES.pending(state) == [0]
    view = RULES.view(state, 0)
    assert view["jacques"]["pile"] == 7 and "box" not in view["jacques"] and "pile" not in str(view["jacques"]["src"])
    assert "Jacques (the automa, Medium)" in RULES.render_text(view)
    with pytest.raises(ValueError, match="jacques_level"):
        solo(jacques_level=5)
    with pytest.raises(ValueError, match="automa"):
        solo(automa="pierre")


def test_it_hides_his_pile_and_resamples_it() -> None:
    state = started(jacques_level=3)
    view = RULES.view(state, 0)
    changed = 0
    for i in range(10):
        other = RULES.resample_hidden(copy.deepcopy(state), 0, Rng({"rng": seed_to_state(f"r{i}")}))
        assert RULES.view(other, 0) == view
        assert Counter(c[0] for c in other["jacques"]["pile"]) == Counter(c[0] for c in state["jacques"]["pile"])
        changed += other["jacques"]["pile"] != state["jacques"]["pile"]
    assert changed


# ---- when he plays: once every player has played, the n-th card its n-th area --------------------------

def test_it_reveals_a_card_after_each_turn_of_the_solo_player_resolving_its_nth_area() -> None:
    state = started(7)
    with_pile(state, ["A1", "A7", "A3", "A5", "A2", "A4", "A6"])
    areas = []
    for n in range(1, 4):
        ev = play_turn(state)
        cards = [e for e in ev if e.kind == "jacques_card"]
        assert len(cards) == 1 and cards[0].reveals
        areas.append((cards[0].data["card"], cards[0].data["area"]))
        assert state["jacques"]["revealed"][-1] == cards[0].data["card"] and len(state["jacques"]["revealed"]) == n
    assert areas == [("A1", 1), ("A7", 2), ("A3", 3)]
    # A1's area 1 is a disc to Santo Domingo (5), A7's area 2 a disc to Santo Domingo, A3's area 3 Cumana (11)
    assert state["market"]["5"].count("jacques") == 2 and state["market"]["11"].count("jacques") == 1


def test_it_puts_no_disc_on_a_full_market() -> None:
    state = started()
    full = len(C.LOC["5"]["market"]["rewards"])
    state["market"]["5"] = [0] * full
    ev: list[Event] = []
    JQ.disc(state, "5", ev)
    assert state["market"]["5"] == [0] * full and state["jacques"]["discs"] == 0 and "full" in ev[0].text
    state["market"]["5"] = [0]
    JQ.disc(state, "5", ev)
    assert state["market"]["5"] == [0, "jacques"] and state["jacques"]["discs"] == 1


def test_it_takes_the_quest_at_the_lowest_numbered_location_else_the_piles_top() -> None:
    state = started()
    state["quests"] = {"12": "Q1", "6": "Q2", "9a": "Q3"}
    ev: list[Event] = []
    JQ.quest(state, 2, 19, ev)
    assert "6" not in state["quests"] and state["jacques"]["quests"] == 1 and not ev[-1].reveals
    JQ.quest(state, 2, 7, ev)  # none at 2-7: the pile's top, and the next top is revealed
    top = state["quest_pile"][0]
    assert state["jacques"]["quests"] == 2 and ev[-1].reveals and "from the pile" in ev[-1].text
    assert set(state["quests"]) == {"12", "9a"} and top != ev[-1].data["quest"]
    JQ.quest(state, 8, 19, ev)  # 9a counts as 9: before 12
    assert set(state["quests"]) == {"12"}


def test_it_explores_to_a_reachable_quest_else_the_shortest_way_ignoring_the_tracks_effects() -> None:
    state = started()
    j = state["jacques"]
    state["track_quests"] = {}
    first = dict(state["first"])
    ev: list[Event] = []
    JQ.explore(state, 2, ev)
    assert j["explorer"] == 2 and state["first"] == first and state["ended"] == 0 and j["quests"] == 0
    # a quest within reach: he stops there (fewer spaces than allowed) and takes it
    target = next(s for s in range(3, C.END_SPACE) if JQ.TO_END[s] == JQ.TO_END[2] - 1)
    state["track_quests"] = {str(target): "Q9"}
    JQ.explore(state, 2, ev)
    assert j["explorer"] == target and j["quests"] == 1 and state["track_quests"] == {}
    # a player's explorer on the way is skipped and not counted
    state["seats"][0]["explorer"] = min(C.SPACES[target]["next"], key=lambda x: (JQ.TO_END[x], x))
    JQ.explore(state, 1, ev)
    assert j["explorer"] != state["seats"][0]["explorer"] and JQ.TO_END[j["explorer"]] == JQ.TO_END[target] - 2


def test_it_is_skipped_by_the_players_explorer() -> None:
    from engine.games.maracaibo.exploring import explore_targets

    state = started()
    state["jacques"]["explorer"] = 1
    assert 1 not in explore_targets(state, 0, 1)
    state["jacques"]["explorer"] = 0
    assert 1 in explore_targets(state, 0, 1)


# ---- the end of a round and of the game -------------------------------------------------------------

def test_it_ends_a_round_after_each_player_has_played_once_more_and_scores_15() -> None:
    state = started(3, rounds=2)
    with_pile(state, ["A1", "A2", "A3", "A4", "A5", "B1", "B2"])  # A5's fifth area ends the round
    for _ in range(5):
        ev = play_turn(state)
    assert "jacques_wait" in kinds(ev) and state["jacques"]["ends_in"] == 1 and state["round"] == 1
    wait = ev[kinds(ev).index("jacques_wait")]
    assert wait.data == {"ends_in": 1} and "played once more" in wait.text, (wait.data, wait.text)
    ev = play_turn(state)  # the player's one more turn, then he ends the round
    assert "jacques_card" not in kinds(ev) and "jacques_end" in kinds(ev) and "round_end" in kinds(ev)
    assert state["jacques"]["victory_points_by_source"]["end round"] == 15
    while state["round"] == 1:
        RULES.apply(state, 0, RULES.default_move(state, 0).move)
    # at the round's end: 5 VP for each of the 5 cards revealed, under his pile in some order
    assert state["jacques"]["victory_points_by_source"]["cards"] == 25 and state["jacques"]["victory_points"] == 40
    assert sorted(state["jacques"]["pile"][:5]) == ["A1", "A2", "A3", "A4", "A5"]
    assert state["jacques"]["pile"][5:] == ["B2", "B1"] and state["jacques"]["revealed"] == []
    # the new round begins with the player, and no card before the player has played
    assert RULES.pending(state) == [0] and state["stack"][-1]["kind"] == "sail"


def test_it_plays_the_rulebooks_last_round_example() -> None:
    """"It is the last round. Jacques's fifth Automa card is drawn. Each player plays another turn.
    Jacques does not reveal an Automa card. Each player then plays a second time. If Jacques gets
    another turn (because no other player has ended the round), he scores 15 victory points and ends
    the game." (rounds=1: the first round is the last)"""
    state = started(11, rounds=1)
    with_pile(state, ["A1", "A2", "A3", "A4", "B1", "B3", "B4"])  # B1's fifth area ends the round
    for _ in range(5):
        ev = play_turn(state)
    assert ev[kinds(ev).index("jacques_card")].data == {"card": "B1", "area": 5}
    assert state["jacques"]["ends_in"] == 2
    # the event says so too (compiled, it said "once" and "ends_in": null: mypyc read a narrowed None)
    wait = ev[kinds(ev).index("jacques_wait")]
    assert wait.data == {"ends_in": 2} and "played twice more" in wait.text, (wait.data, wait.text)
    ev = play_turn(state)  # another turn: he reveals no card
    assert "jacques_card" not in kinds(ev) and "jacques_wait" in kinds(ev) and not state["over"]
    ev = play_turn(state)  # a second time: he scores 15 and ends the game
    assert "jacques_end" in kinds(ev) and "round_end" in kinds(ev)
    while not state["over"]:
        RULES.apply(state, 0, RULES.default_move(state, 0).move)
    j = state["jacques"]
    assert j["victory_points_by_source"] == {"end round": 15, "cards": 5 * 4 + 10}
    out = RULES.outcome(state)
    assert out is not None and out.automa == {"Jacques": float(j["victory_points"])}


def test_it_scores_nothing_for_ending_when_the_player_ends_the_round_first() -> None:
    for seed in range(12):
        state = started(seed, rounds=1)
        rnd = __import__("random").Random(seed)
        while not state["over"]:
            opts = RULES.options(state, 0)
            RULES.apply(state, 0, RULES.bot_choice(state, 0, opts, rnd).move)
        if "end round" not in state["jacques"]["victory_points_by_source"]:
            assert state["trigger"] == 0  # the player's ship ended it
            return
    pytest.skip("the bot let Jacques end every round in these seeds")


def test_it_gives_and_takes_5_vp_for_explorer_and_quests_against_his_at_the_end() -> None:
    state = started()
    p, j = state["seats"][0], state["jacques"]
    ev: list[Event] = []
    p["victory_points"], p["quests"], j["quests"] = 50, 3, 1
    p["explorer"], j["explorer"] = 5, 2
    JQ.final(state, ev)
    assert p["victory_points"] == 60 and p["victory_points_by_source"]["jacques"] == 10
    p["quests"], p["explorer"], j["explorer"] = 0, 2, 5
    JQ.final(state, ev)
    assert p["victory_points"] == 50
    p["quests"], p["explorer"] = 1, 5  # level: nothing
    JQ.final(state, ev)
    assert p["victory_points"] == 50 and "level with Jacques" in ev[-1].text


def test_it_makes_the_player_win_only_with_more_vp_than_jacques() -> None:
    state = started()
    state["over"] = True
    state["seats"][0]["victory_points"], state["jacques"]["victory_points"] = 80, 80
    out = RULES.outcome(state)
    assert out is not None and not out.seats_won and out.winners == () and "tie" in out.reason
    state["seats"][0]["victory_points"] = 81
    out = RULES.outcome(state)
    assert out is not None and out.seats_won and out.winners == (0,)


# ---- conformance and whole games ----------------------------------------------------------------------

@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_it_passes_the_conformance_checker_for_one_solo_round(level: int) -> None:
    report = check_conformance(RULES, 1, {"rounds": 1, "automa": "jacques", "jacques_level": level},
                               seeds=[f"jq-{level}"])
    assert report.finished == 1 and report.resamples_that_changed > 0


@pytest.mark.parametrize("level", [1, 4])
def test_it_finishes_whole_solo_games_with_the_bot(level: int) -> None:
    report = run_game(RULES, 1, {"automa": "jacques", "jacques_level": level}, f"jq-sim-{level}", checks=False)
    assert report.finished == 1


def test_it_upgrades_an_older_state_to_format_4_playing_against_jean_as_before() -> None:
    from engine.games.maracaibo.upgrade import UPGRADES

    old = RULES.setup(["Ana"], {}, "fmt")
    old["options"] = {k: v for k, v in old["options"].items() if k not in ("automa", "jacques_level")}
    old["format"] = 3
    new = copy.deepcopy(old)
    UPGRADES[3](new)
    assert new["format"] == 4 and list(new["options"])[-2:] == ["automa", "jacques_level"]
    assert new["options"]["automa"] == "jean" and {k: v for k, v in new.items() if k != "options"} == {
        k: v for k, v in old.items() if k != "options"} | {"format": 4}
    assert RULES.setup(["Ana"], {}, "fmt")["options"] == new["options"]


def test_it_names_only_tests_that_exist_on_the_rules_page() -> None:
    import re
    from pathlib import Path

    page = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "maracaibo-cooperative.md").read_text("utf-8")
    named = set(re.findall(r"`(test_it_[a-z0-9_]+)`", page))
    from tests.engine import test_maracaibo_jacques_coop as coop_tests
    from tests.engine import test_maracaibo_jacques_search as search_tests

    here = {name for name in [*globals(), *vars(coop_tests), *vars(search_tests)] if name.startswith("test_it_")}
    assert named and named <= here, sorted(named - here)
