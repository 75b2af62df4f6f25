"""Maracaibo: direct tests of the rulebook's rules that only the conformance checker covered.

The rule-by-rule audit of ``docs/rules/maracaibo.md`` (its "Rules coverage" table): each test
here sets up the position a rule speaks of and checks the rulebook's result, so that a wrong
cost, cap or order fails here and not only as a lucky path of a simulated game. Cards are picked
by what they show (a figure, an assistant, a barrier), never by number, so that balance changes
to the data keep these tests meaningful.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.core import State
from engine.games.maracaibo import RULES, effects
from engine.games.maracaibo import content as C
from engine.games.maracaibo import rules as R
from engine.games.maracaibo.actions import do_village, special_village_actions
from engine.games.maracaibo.board import loc_kind, multiplier, take_marker
from engine.games.maracaibo.cards import _draw_options, card_cost
from engine.games.maracaibo.combat import _pile_options
from engine.games.maracaibo.effects import count_of
from engine.games.maracaibo.scoring import final_scores
from engine.games.maracaibo.ship import disc_areas, remove_disc
from engine.rng import Rng, seed_to_state
from engine.stack import Frame, frame
from tests.engine.test_maracaibo_rules import codes, play, started


def card(pred: Callable[[dict[str, Any]], bool]) -> int:
    return next(cid for cid in sorted(C.CARD) if pred(C.CARD[cid]))


def plain(c: dict[str, Any]) -> bool:
    """A card without a figure, an assistant, a requirement or an immediate effect."""
    return not (c.get("figure") or c.get("assist") or c.get("needs")) and all(e["t"] != "now" for e in c["effects"])


def hold(state: State, seat: int, *cards: int) -> None:
    """Give ``seat`` these cards in hand, taking them from wherever they are."""
    for cid in cards:
        for lst in (state["deck"], state["box"], state["discard"], state["display"],
                    *(p["hand"] for p in state["seats"]), *(p["plan"] for p in state["seats"])):
            while cid in lst:
                lst.remove(cid)
    state["seats"][seat]["hand"].extend(cards)


def rng() -> Rng:
    return Rng({"rng": seed_to_state("rulebook")})


def on(state: State, *frames: Frame) -> State:
    """``frames`` in asking order become the whole stack."""
    state["stack"] = list(reversed(frames))
    return state


def village(state: State, seat: int = 0, left: int = 1) -> State:
    return on(state, frame("village", seat, left=left, used=[]))


# ---- phase C: drawing ------------------------------------------------------------------------------

def test_it_draws_up_to_a_hand_limit_of_4_or_6_with_the_upgrade_and_not_past_it() -> None:
    for areas, limit in (([], C.HAND_LIMIT), (["U2"], C.HAND_LIMIT_UPGRADED)):
        assert (C.HAND_LIMIT, C.HAND_LIMIT_UPGRADED) == (4, 6)
        state = started(2)
        p = state["seats"][0]
        p["areas"], p["hand"] = areas, p["hand"][:1]
        on(state, frame("draw", 0), frame("free", 0, ask=True))
        while R.stack(state).top()["kind"] == "draw":
            play(state, 0, "pile")
        assert len(p["hand"]) == limit and R.stack(state).top()["kind"] == "free"
    state = started(2)  # a full hand does not draw at all
    on(state, frame("draw", 0), frame("free", 0, ask=True))
    assert _draw_options(state, R.stack(state).top()) == [] and len(state["seats"][0]["hand"]) == 4


def test_it_keeps_planned_cards_out_of_the_hand_limit_and_the_goods() -> None:
    state = started(2)
    p = state["seats"][0]
    p["plan"] = p["hand"][:3]
    p["hand"] = p["hand"][3:]
    on(state, frame("draw", 0), frame("free", 0, ask=True))
    while R.stack(state).top()["kind"] == "draw":
        play(state, 0, "pile")
    assert len(p["hand"]) == 4 and len(p["plan"]) == 3  # the planning area does not count
    on(state, frame("free", 0))
    assert not [c for c in codes(state, 0) if c.startswith("p")]  # all 3 spaces full: no more planning
    # a planned card is no good: at Cartagena's market the only sugar card is planned
    state = started(2)
    p = state["seats"][0]
    loc = next(loc for loc in C.LOC_ORDER if "market" in C.LOC[loc] and loc_kind(state, loc) == "city")
    good = C.LOC[loc]["market"]["goods"][0]
    cid = card(lambda c: c["good"] == good and plain(c))
    hold(state, 0, cid)
    p["hand"] = [c for c in p["hand"] if C.CARD[c]["good"] != good or c == cid]
    p["at"] = loc
    on(state, frame("main", 0, spent=1))
    assert f"d{good}" in codes(state, 0)
    p["hand"].remove(cid)
    p["plan"] = [cid]
    assert f"d{good}" not in codes(state, 0)


def test_it_charges_a_doubloon_for_each_display_card_unless_the_upgrade_is_done() -> None:
    state = started(2)
    p = state["seats"][0]
    p["hand"], p["doubloons"] = p["hand"][:2], 1
    on(state, frame("draw", 0), frame("free", 0, ask=True))
    first = state["display"][0]
    assert "(1 d)" in next(o.label for o in RULES.options(state, 0) if o.code == "x1")
    events = RULES.apply(state, 0, {"code": "x1"})
    # no doubloon left: the display is closed, so the last card came from the pile without asking
    assert p["doubloons"] == 0 and first in p["hand"] and len(state["display"]) == 3 and len(p["hand"]) == 4
    assert [e.kind for e in events if e.kind in ("take", "draw")] == ["take", "draw"]
    state = started(2)
    p = state["seats"][0]
    p["hand"], p["doubloons"], p["areas"] = p["hand"][:2], 0, ["U3"]  # "take cards from the display for free"
    on(state, frame("draw", 0), frame("free", 0, ask=True))
    assert {"x1", "x2", "x3", "x4"} <= set(codes(state, 0))
    play(state, 0, "x1")
    play(state, 0, "x1")
    assert p["doubloons"] == 0 and len(p["hand"]) == 4 and len(state["display"]) == 2


def test_it_shuffles_the_discards_into_a_new_pile_when_the_pile_runs_out() -> None:
    state = started(2)
    p = state["seats"][0]
    p["hand"] = p["hand"][:3]
    old = state["deck"][:3]
    state["discard"], state["deck"] = list(old), []
    on(state, frame("draw", 0), frame("free", 0, ask=True))
    events = RULES.apply(state, 0, {"code": "pile"})
    assert any(e.kind == "reshuffle" and e.reveals for e in events)
    assert p["hand"][-1] in old and sorted(state["deck"] + [p["hand"][-1]]) == sorted(old)
    assert state["discard"] == []


# ---- combat -----------------------------------------------------------------------------------------

def test_it_never_holds_more_than_8_combat_points() -> None:
    state = started(2)
    p = state["seats"][0]
    p["combat_points"] = 7
    effects.gain(state, 0, {"cp": 3}, rng(), [], "city")  # the city action "gain 3 combat points"
    assert C.COMBAT_MAX == 8 and p["combat_points"] == 8
    effects.gain(state, 0, {"cp": 1, "d": 2}, rng(), [], "city")
    assert p["combat_points"] == 8


def test_it_fights_at_value_3_for_every_nation_when_both_piles_are_empty() -> None:
    state = started(2)
    state["piles"] = [[], []]
    on(state, frame("pile", 0))
    assert codes(state, 0) == ["x"]
    play(state, 0, "x")
    labels = [o.label for o in RULES.options(state, 0) if o.code.startswith("f")]
    assert R.stack(state).top()["kind"] == "fight"
    assert sorted(labels) == ["fight england (value 3)", "fight france (value 3)", "fight spain (value 3)"]
    state = started(2)
    state["piles"][0] = []  # one pile left: the token comes from it
    on(state, frame("pile", 0))
    assert [o.code for o in _pile_options(state, R.stack(state).top())] == ["t2"]


def test_it_pays_or_takes_what_the_token_shows_for_the_fighting_nation() -> None:
    token = next(t for t in C.TOKEN.values() if any(r.get("d", 0) < 0 for r in t["reward"].values()))
    nation = next(n for n in C.NATIONS if token["reward"][n].get("d", 0) < 0)
    cost = -token["reward"][nation]["d"]
    state = started(2)
    p = state["seats"][0]
    p["doubloons"] = cost - 1
    on(state, frame("fight", 0, token=token["id"], ask=True))
    assert f"f{nation[0]}" not in codes(state, 0)  # cannot pay: cannot fight for that nation
    p["doubloons"] = cost + 1
    play(state, 0, f"f{nation[0]}")
    assert p["doubloons"] == 1 and R.stack(state).top()["data"]["nation"] == nation
    figure = next((t, n) for t in C.TOKEN.values() for n in C.NATIONS if t["reward"][n].get("fig"))
    state = started(2)
    p = state["seats"][0]
    on(state, frame("fight", 0, token=figure[0]["id"], ask=True))
    play(state, 0, f"f{figure[1][0]}")
    assert (p["figures"], p["figures_owned"]) == (3, 3)  # a figure from the general supply, usable at once


def test_it_refuses_a_combat_action_that_the_value_and_payments_cannot_cover() -> None:
    state = started(2)
    p = state["seats"][0]
    p["combat_points"], p["figures"] = 0, 0
    on(state, frame("combat", 0, nation="spain", value=3, used=[], token=None))
    got = codes(state, 0)
    assert "ci1" in got and "ci2" not in got and not [c for c in got if c.startswith(("ca", "cd"))]
    p["combat_points"] = 1  # one combat point raises the value to 4: annexing is possible, paying that point
    assert "ca1" in codes(state, 0)
    play(state, 0, "ca1")
    assert p["combat_points"] == 0 and state["markers"]["1"] == "spain"


def test_it_offers_a_bought_cards_combat_action_once_with_the_fighting_nation() -> None:
    cid = card(lambda c: any(e["t"] == "combat" and e["gain"].get("inf") for e in c["effects"]))
    effect = next(e for e in C.CARD[cid]["effects"] if e["t"] == "combat")
    state = started(2)
    p = state["seats"][0]
    p["display"] = [cid]
    on(state, frame("combat", 0, nation="england", value=effect["cost"] + 2, used=[], token=None))
    assert f"cc{cid}" in codes(state, 0)
    inf, d = p["influence"]["england"], p["doubloons"]
    play(state, 0, f"cc{cid}")
    assert p["influence"]["england"] == inf + effect["gain"]["inf"]  # with the fighting nation, not a choice
    assert p["doubloons"] == d + effect["gain"].get("d", 0)
    top = R.stack(state).top()
    assert top is not None and top["data"]["value"] == 2 and f"cc{cid}" not in codes(state, 0)


def test_it_annexes_a_village_for_2_or_displaces_for_5_with_the_ship_upgrade() -> None:
    state = started(3)
    p = state["seats"][0]
    p["areas"], p["combat_points"], p["figures"] = ["U6"], 0, 0
    state["markers"]["2"] = "spain"
    on(state, frame("combat", 0, nation="france", value=2, used=[], token=None))
    got = codes(state, 0)
    villages = {c[2:] for c in got if c.startswith("cv")}
    assert villages and villages <= set(C.VILLAGES) and "2" not in villages
    assert not [c for c in got if c.startswith("cv") and c[2:] not in C.VILLAGES]  # not a city
    assert "cw2" not in got and "ca1" not in got  # displacing costs 5, annexing with the flag 4
    vp, d = p["victory_points"], p["doubloons"]
    play(state, 0, "cv1")
    assert state["markers"]["1"] == "france" and p["influence"]["france"] == 1
    assert (p["victory_points"], p["doubloons"]) == (vp, d)  # the ship action gives no flag bonus
    state["markers"].pop("1")
    on(state, frame("combat", 0, nation="france", value=5, used=[], token=None))
    assert "cw2" in codes(state, 0)
    play(state, 0, "cw2")
    assert state["markers"]["2"] == "france" and sum(state["supply"]["spain"]) == 13  # spain's marker is gone


# ---- buying cards ----------------------------------------------------------------------------------

def test_it_lowers_a_cards_cost_by_its_discounts_but_never_below_0() -> None:
    discounts = [cid for cid in sorted(C.CARD) if any(e["t"] == "perm" and e.get("k") == "discount"
                                                      for e in C.CARD[cid]["effects"])]
    per = {cid: next(e["n"] for e in C.CARD[cid]["effects"] if e["t"] == "perm" and e.get("k") == "discount")
           for cid in discounts}
    cheap = card(lambda c: plain(c) and 0 < c["cost"] < sum(per.values()) and c["id"] not in per)
    state = started(2)
    p = state["seats"][0]
    hold(state, 0, cheap)
    p["display"] = discounts[:1]
    assert card_cost(p, cheap) == max(0, C.CARD[cheap]["cost"] - per[discounts[0]])
    p["display"] = discounts
    assert card_cost(p, cheap) == 0
    p["doubloons"] = 0
    village(state)
    assert f"b{cheap}" in codes(state, 0)
    play(state, 0, f"b{cheap}")
    assert p["doubloons"] == 0 and cheap in p["display"]


def test_it_takes_back_a_figure_for_a_card_that_shows_one() -> None:
    cid = card(lambda c: c.get("figure") and not c.get("assist") and not c.get("needs"))
    state = started(2)
    p = state["seats"][0]
    hold(state, 0, cid)
    p["doubloons"], p["figures"], p["figures_owned"] = 20, 0, 0
    village(state)
    assert f"b{cid}" not in codes(state, 0)  # no figure to return
    p["figures"], p["figures_owned"] = 2, 2
    play(state, 0, f"b{cid}")
    assert (p["figures"], p["figures_owned"]) == (1, 1)  # returned to the general supply
    assert p["doubloons"] == 20 - C.CARD[cid]["cost"]


def test_it_places_an_assistant_that_works_from_the_next_turn_at_its_location() -> None:
    cid = card(lambda c: c.get("assist") and not c.get("figure") and not c.get("needs"))
    loc = C.CARD[cid]["assist"]
    gain = next(e["gain"] for e in C.CARD[cid]["effects"] if e["t"] == "assistant")
    state = started(2)
    p = state["seats"][0]
    hold(state, 0, cid)
    p["doubloons"] = 20
    village(state)
    play(state, 0, f"b{cid}")
    assert (p["figures"], p["figures_owned"]) == (1, 2)  # the figure is on the board, still the player's
    assert p["assist"] == [{"loc": loc, "card": cid, "since": state["turns"]}]
    p["at"] = loc
    on(state, frame("main", 0, spent=1))
    assert f"a{cid}" not in codes(state, 0)  # not in the turn it was placed
    state["turns"] += 1
    assert f"a{cid}" in codes(state, 0)
    d, vp = p["doubloons"], p["victory_points"]
    play(state, 0, f"a{cid}")
    assert (p["doubloons"], p["victory_points"]) == (d + gain.get("d", 0), vp + gain.get("vp", 0))


def test_it_sells_a_card_with_a_barrier_requirement_only_once_the_explorer_has_crossed_it() -> None:
    cid = card(lambda c: bool((c.get("needs") or {}).get("barrier")))  # blue or green in the data now
    at = next(s for s, colour in C.BARRIERS.items() if colour == C.CARD[cid]["needs"]["barrier"])
    state = started(2)
    p = state["seats"][0]
    hold(state, 0, cid)
    p["doubloons"], p["explorer"] = 20, at - 1
    village(state)
    assert f"b{cid}" not in codes(state, 0)
    p["explorer"] = at
    assert f"b{cid}" in codes(state, 0)


# ---- prestige buildings --------------------------------------------------------------------------------

def test_it_invests_in_a_face_up_prestige_building_once_each_with_2_vp_to_the_first() -> None:
    state = started(3)
    up = state["prestige"][0]
    down = state["prestige"][1]
    b = C.PRESTIGE[up["id"]]
    for seat in (0, 1):
        state["seats"][seat]["doubloons"] = 20
    village(state, 0, left=2)
    assert f"i{up['id']}" in codes(state, 0) and f"i{down['id']}" not in codes(state, 0)  # face down: not yet
    p = state["seats"][0]
    vp = p["victory_points"]
    play(state, 0, f"i{up['id']}")
    assert (p["doubloons"], p["figures"], p["victory_points"] - vp) == (20 - b["cost"], 1, 2)
    assert b["synergy"] in p["synergy"] and up["investors"] == [0]
    assert f"i{up['id']}" not in codes(state, 0)  # never twice in the same building
    q = state["seats"][1]
    village(state, 1)
    vp = q["victory_points"]
    play(state, 1, f"i{up['id']}")
    assert q["victory_points"] == vp and up["investors"] == [0, 1]  # the 2 VP go to the first investor only
    q["doubloons"], q["figures"] = 20, 0
    up2 = state["prestige"][1]
    up2["up"] = True
    village(state, 1)
    assert f"i{up2['id']}" not in codes(state, 1)  # investing places a figure: none left
    s = final_scores(state)
    assert s[0]["prestige"] == b["vp"] * count_of(p, b["per"])  # worth VP at the end


# ---- places ---------------------------------------------------------------------------------------------

def test_it_offers_no_delivery_on_the_homeward_bound_spaces() -> None:
    state = started(2)
    p = state["seats"][0]
    p["hand"] = [card(lambda c, g=g: c["good"] == g and plain(c)) for g in C.GOODS]
    for loc in ("20", "21a", "22"):
        p["at"] = loc
        on(state, frame("main", 0, spent=1))
        assert not [c for c in codes(state, 0) if c.startswith("d") and c[1:] in C.GOODS], loc
    p["at"] = "20"
    assert {"hfight", "hexplore"} <= set(codes(state, 0))


def test_it_does_not_replace_a_quest_fulfilled_on_the_explorer_track() -> None:
    state = started(2)
    p = state["seats"][0]
    space, qid = next((int(s), q) for s, q in sorted(state["track_quests"].items()))
    cost = C.QUEST[qid]["cost"]
    p["doubloons"], p["combat_points"], p["figures"], p["figures_owned"] = 30, 8, 3, 3
    hold(state, 0, *[card(lambda c, g=g: c["good"] == g and plain(c)) for g in cost.get("goods", [])],
         *[card(lambda c, o=o: c["object"] == o and plain(c)) for o in cost.get("objects", [])])
    p["explorer"] = space - 1
    state["seats"][1]["explorer"] = 0
    on(state, frame("explore", 0, n=1), frame("free", 0, ask=True))
    play(state, 0, f"e{space}")
    while R.stack(state).top()["kind"] != "free":
        top = R.stack(state).top()["kind"]
        play(state, 0, "quest" if top == "tquest" else RULES.options(state, 0)[0].code)
    assert str(space) not in state["track_quests"] and p["quests"] == 1
    assert qid not in state["quest_pile"] and qid not in state["quests"].values()


def test_it_lets_the_ship_upgrades_village_actions_reach_villages_only_as_the_game_has_them() -> None:
    # scenario 76's legacy tile L1 makes 17 a city; with 2 players the Maracaibo tile makes 10 a village
    state = started(3, scenario="76")
    p = state["seats"][0]
    p["areas"] = ["U6"]
    on(state, frame("combat", 0, nation="france", value=5, used=[], token=None))
    assert loc_kind(state, "17") == "city" and "cv17" not in codes(state, 0)  # "a village (not a city!)"
    state = started(2)
    p = state["seats"][0]
    p["areas"] = ["U6"]
    on(state, frame("combat", 0, nation="france", value=5, used=[], token=None))
    assert loc_kind(state, "10") == "village" and "cv10" in codes(state, 0)
    # U10: a marker in the village the ship is in; 17 with L1 is a city
    state = started(3, scenario="76")
    p = state["seats"][0]
    p["areas"] = ["U10"]
    p["at"] = "17"
    assert "vU10" not in [o.code for o in special_village_actions(state, 0, [])]
    p["at"] = "16"
    assert "vU10" in [o.code for o in special_village_actions(state, 0, [])]


# ---- ship upgrades ---------------------------------------------------------------------------------------

def test_it_gives_each_ship_areas_immediate_bonus_when_its_second_disc_goes() -> None:
    # the rulebook's areas: 3 VP (and free display cards), 5 doubloons, 6 VP (after the 3 VP area), 10 VP
    # (after six other areas)
    for uid, key, amount, before in (("U3", "victory_points", 3, []), ("U4", "doubloons", 5, []),
                                     ("U5", "victory_points", 6, ["U3"]),
                                     ("U12", "victory_points", 10, ["U1", "U2", "U3", "U4", "U6", "U7"])):
        state = started(2)
        p = state["seats"][0]
        p["areas"] = list(before)
        assert uid in disc_areas(p)
        was = p[key]
        remove_disc(state, 0, uid, rng(), [])
        assert p[key] == was and uid not in p["areas"]  # one disc of two: nothing yet
        remove_disc(state, 0, uid, rng(), [])
        assert p[key] == was + amount and uid in p["areas"], uid


def test_it_runs_the_ship_areas_village_actions_as_the_rulebook_says() -> None:
    state = started(3)
    p = state["seats"][0]
    p["areas"] = ["U7", "U8", "U9"]
    p["at"] = "6"
    p["assist"] = [{"loc": "6", "card": 1, "since": 0}, {"loc": "6", "card": 2, "since": 0}]
    state["seats"][1]["assist"] = [{"loc": "6", "card": 3, "since": 0}]
    d = p["doubloons"]
    do_village(state, 0, "vU7", rng(), [])
    assert p["doubloons"] == d + 3 * 2 + 1  # 3 per own assistant here, 1 per other player's
    d, cp = p["doubloons"], p["combat_points"]
    do_village(state, 0, "vU8", rng(), [])
    assert (p["doubloons"], p["combat_points"]) == (d + 1, cp + 1)
    good = C.GOODS[0]
    same_good = [cid for cid in sorted(C.CARD) if C.CARD[cid]["good"] == good][:3]
    obj = C.CARD[same_good[0]]["object"]
    by_good = {C.CARD[cid]["good"]: cid for cid in sorted(C.CARD) if C.CARD[cid]["object"] == obj}
    assert len(by_good) >= 3
    p["hand"] = []
    hold(state, 0, *list(by_good.values())[:3])  # three identical objects, three different goods
    assert "vU9" not in [o.code for o in special_village_actions(state, 0, [])]  # objects are not goods
    p["hand"] = []
    hold(state, 0, *same_good)
    assert "vU9" in [o.code for o in special_village_actions(state, 0, [])]
    d, vp = p["doubloons"], p["victory_points"]
    R.stack(state).push_all(do_village(state, 0, "vU9", rng(), []))
    R.stack(state).settle(rng())  # one good qualifies: forced, nothing asked
    assert (p["doubloons"], p["victory_points"], p["hand"]) == (d + 2, vp + 2, [])
    assert set(same_good) <= set(state["discard"])


def test_it_lets_the_player_choose_which_three_identical_goods_u9_discards() -> None:
    state = started(3)
    p = state["seats"][0]
    p["areas"] = ["U8", "U9"]
    first, second = C.GOODS[0], C.GOODS[1]
    mine = {g: [cid for cid in sorted(C.CARD) if C.CARD[cid]["good"] == g][:3] for g in (first, second)}
    p["hand"] = []
    hold(state, 0, *mine[first], *mine[second])
    d, vp = p["doubloons"], p["victory_points"]
    R.stack(state).push_all(do_village(state, 0, "vU9", rng(), []))
    R.stack(state).settle(rng())
    assert state["stack"][-1]["kind"] == "three"  # two goods qualify: the player is asked
    assert {"g" + first, "g" + second} <= set(codes(state, 0))
    play(state, 0, f"discard three {second}")  # the second good in data order, not the first
    assert (p["doubloons"], p["victory_points"]) == (d + 2, vp + 2)
    assert sorted(p["hand"]) == sorted(mine[first])
    assert set(mine[second]) <= set(state["discard"])
    fourth = [cid for cid in sorted(C.CARD) if C.CARD[cid]["good"] == first][3]
    hold(state, 0, fourth)  # four of the good: which three is the player's choice too
    R.stack(state).push_all(do_village(state, 0, "vU9", rng(), []))
    R.stack(state).settle(rng())
    assert state["stack"][-1]["kind"] == "pay" and len(codes(state, 0)) == 4  # keep one of four
    play(state, 0, f"keep {C.CARD[mine[first][0]]['name']}")
    assert p["hand"] == [mine[first][0]] and fourth in state["discard"]


# ---- scoring ---------------------------------------------------------------------------------------------

def test_it_gives_the_majority_bonus_to_ties_as_the_rulebooks_examples_say() -> None:
    state = started(3)
    assert multiplier(state) == dict.fromkeys(C.NATIONS, 2)  # all three tied for first: 2 each
    for loc, nation in {"1": "spain", "2": "spain", "3": "england", "6": "france"}.items():
        take_marker(state, nation)
        state["markers"][loc] = nation
    empty = {n: sum(1 for left in state["supply"][n] if left == 0) for n in C.NATIONS}
    # one first, two tied second: "all tied nations receive the higher value"
    assert multiplier(state) == {"spain": empty["spain"] + 2, "england": empty["england"] + 1,
                                   "france": empty["france"] + 1}


def test_it_runs_interim_scoring_steps_2_to_5_income_markets_display_and_building() -> None:
    state = started(2)
    p, q = state["seats"]
    # the rulebook's Alex: 12 doubloons and 3 VP, nothing for the track's VP
    p["income_doubloons"], p["income_victory_points"] = 12, 3
    market = next(loc for loc in C.LOC_ORDER if "market" in C.LOC[loc])
    state["market"][market] = [0, 1]
    old = list(state["display"])
    d, vp = p["doubloons"], p["victory_points"]
    on(state, frame("scoring", 0, mode="interim"))
    RULES.apply(state, 0, {"code": "go"})
    assert (p["doubloons"] - d, p["victory_points"] - vp) == (12, 3) and q["doubloons"] > 0
    assert all(not discs for discs in state["market"].values())  # the delivered goods leave the game
    assert len(state["display"]) == 4 and not set(old) & set(state["display"]) and set(old) <= set(state["discard"])
    assert [b["up"] for b in state["prestige"]] == [True, True, False, False]
    assert state["round"] == 2 and {x["at"] for x in state["seats"]} == {"H"}


def test_it_scores_only_the_cards_in_the_display_at_the_end() -> None:
    state = started(2)
    p = state["seats"][0]
    worth = [cid for cid in sorted(C.CARD) if C.CARD[cid]["vp"] > 0][:3]
    p["display"], p["hand"], p["plan"] = [worth[0]], [worth[1]], [worth[2]]
    assert final_scores(state)[0]["cards"] == C.CARD[worth[0]]["vp"]  # hand and planning area: nothing
    p["income_doubloons"], p["income_victory_points"] = 20, 4
    assert final_scores(state)[0]["income"] == 4 + (20 - 8) // 2  # VP income, and VP for doubloon income
