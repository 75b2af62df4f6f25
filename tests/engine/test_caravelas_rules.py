"""Caravelas II: one test per rule of the rulebook, and its figures 1 to 5, on states built directly.

The helpers at the top (``game``, ``put``, ``rig_die``, ``play``) are imported by the
other ``test_caravelas_*`` files too.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from engine.core import Event
from engine.errors import IllegalMove, NotYourTurn, SetupError
from engine.games.caravelas import RULES
from engine.games.caravelas import board as B
from engine.rng import Rng, seed_to_state

State = dict[str, Any]


# ---- helpers -------------------------------------------------------------------------------------

def game(n: int = 2, seed: str = "rules", **options: Any) -> State:
    """A new game with seat 0 to play its first turn."""
    state = RULES.setup(["Ana", "Bruno", "Carla", "Duarte"][:n], options, seed)
    state["first"] = 0
    state["turn"] = 0
    state["v"] += 1
    return state


def put(state: State, seat: int, *, at: str | None = None, hand: list[int] | None = None,
        disc: list[str] | None = None, cargo: list[str] | None = None, sunk: list[int] | None = None,
        score: int | None = None, found: list[str] | None = None) -> State:
    """Arrange one fleet, keeping every card and cube accounted for."""
    f = state["fleets"][seat]
    if at is not None:
        f["at"] = at
        f["drew"] = False
    if hand is not None:
        state["mdeck"].extend(f["hand"])
        f["hand"] = []
        for v in hand:
            pile = state["mdeck"] if v in state["mdeck"] else state["mdisc"]
            pile.remove(v)
            f["hand"].append(v)
        f["hand"].sort()
    if disc is not None:
        state["dpile"][:0] = f["disc"]
        f["disc"] = []
        for c in disc:
            for holder in [state["dpile"], *(g["disc"] for g in state["fleets"])]:
                if c in holder:
                    holder.remove(c)
            f["disc"].append(c)
    if found is not None:
        for c in found:
            for holder in [state["dpile"], *(g["disc"] for g in state["fleets"])]:
                if c in holder:
                    holder.remove(c)
        f["found"] = list(found)
    if cargo is not None:
        for c in f["cargo"]:
            state["cubes"][c] += 1
        for c in cargo:
            state["cubes"][c] -= 1
        f["cargo"] = sorted(cargo, key=B.COLOURS.index)
    if sunk is not None:
        f["sunk"] = sorted(sunk)
    if score is not None:
        f["score"] = score
    state["v"] += 1  # edited by hand: views must not reuse a cached public part
    return state


def rig_die(state: State, face: int) -> None:
    """Set the RNG so that the next die roll shows ``face``."""
    for i in range(1000):
        rng_state = seed_to_state(f"die-{i}")
        if B.DIE[Rng({"rng": rng_state}).below(len(B.DIE))] == face:
            state["rng"] = rng_state
            return
    raise AssertionError("no seed gives that face")


def play(state: State, seat: int, text: str) -> list[Event]:
    return RULES.apply(state, seat, RULES.parse(text, state, seat))


def codes(state: State, seat: int) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def dests(state: State, seat: int, value: int) -> set[str]:
    return {o.move["to"] for o in RULES.options(state, seat) if o.move.get("card") == value}


def kinds(events: list[Event]) -> list[str]:
    return [e.kind for e in events]


def card_census(state: State) -> Counter[int]:
    cards = Counter(state["mdeck"]) + Counter(state["mdisc"])
    for f in state["fleets"]:
        cards += Counter(f["hand"])
    return cards


def cube_census(state: State) -> Counter[str]:
    cubes = Counter(state["cubes"])
    for f in state["fleets"]:
        cubes += Counter(f["cargo"])
    cubes["green"] += state["monastery"]
    return cubes


# ---- 3-4. components and preparation -------------------------------------------------------------

@pytest.mark.parametrize(("n", "greens"), [(2, 3), (3, 4), (4, 5)])
def test_it_places_cubes_on_the_eight_places_with_green_in_calecute_by_player_count(n: int, greens: int) -> None:
    state = RULES.setup(["a", "b", "c", "d"][:n], None, 1)
    assert state["cubes"] == {"red": 4, "black": 4, "yellow": 4, "brown": 4, "white": 4, "pink": 4, "blue": 4,
                              "green": greens}
    assert B.CUBES["green"]["place"] == "calecute" and len({c["place"] for c in B.CUBES.values()}) == 8
    assert state["greens"] == greens and state["monastery"] == 0


def test_it_deals_two_yellow_and_two_green_discovery_cards_and_piles_the_rest() -> None:
    state = RULES.setup(["a", "b", "c", "d"], None, 7)
    for f in state["fleets"]:
        colours = Counter(B.DISCOVERIES[c]["colour"] for c in f["disc"])
        assert colours == {"yellow": 2, "green": 2}
    everything = state["dpile"] + [c for f in state["fleets"] for c in f["disc"]]
    assert sorted(everything) == sorted(B.DISCOVERIES) and len(everything) == 32
    assert len(state["dpile"]) == 16
    assert {B.DISCOVERIES[c]["colour"] for c in state["dpile"]} == {"yellow", "green"}


def test_it_shuffles_48_movement_cards_and_deals_four_to_each_player() -> None:
    a = RULES.setup(["a", "b", "c"], None, 1)
    b = RULES.setup(["a", "b", "c"], None, 2)
    assert card_census(a) == Counter(B.CARD_VALUES) and sum(card_census(a).values()) == 48
    assert all(len(f["hand"]) == 4 for f in a["fleets"])
    assert a["mdeck"] != b["mdeck"]


def test_it_puts_every_fleet_in_lisboa_and_chooses_the_first_player_from_the_seed() -> None:
    firsts = set()
    for seed in range(12):
        state = RULES.setup(["a", "b", "c", "d"], None, seed)
        assert all(f["at"] == "lisboa" and f["score"] == 0 for f in state["fleets"])
        assert state["turn"] == state["first"]
        assert RULES.pending(state) == [state["first"]]
        firsts.add(state["first"])
    assert firsts == {0, 1, 2, 3}


def test_it_is_for_two_to_four_players_with_a_target_option() -> None:
    with pytest.raises(SetupError):
        RULES.setup(["a"], None, 1)
    with pytest.raises(SetupError):
        RULES.setup(["a", "b", "c", "d", "e"], None, 1)
    assert RULES.setup(["a", "b"], {"target": "60"}, 1)["options"] == {"target": 60}
    with pytest.raises(SetupError):
        RULES.setup(["a", "b"], {"target": 0}, 1)


# ---- 5. how to play --------------------------------------------------------------------------------

def test_it_lets_a_player_spend_up_to_four_cards_then_ends_the_turn_and_refills() -> None:
    state = put(game(), 0, hand=[1, 1, 1, 1])
    for dest in ("s1", "s2", "acores", "s3"):
        assert RULES.pending(state) == [0]
        play(state, 0, f"move 1 to {dest}")
    assert RULES.pending(state) == [1]
    assert len(state["fleets"][0]["hand"]) == 4
    assert card_census(state) == Counter(B.CARD_VALUES)


def test_it_lets_unspent_cards_be_kept_for_the_next_turn() -> None:
    state = put(game(), 0, hand=[1, 2, 4, 5])
    play(state, 0, "move 1 to s1")
    play(state, 0, "end")
    assert state["stack"][-1]["k"] == "cards"
    play(state, 0, "keep cards")
    hand = state["fleets"][0]["hand"]
    assert Counter(hand) >= Counter([2, 4, 5]) and len(hand) == 4
    assert RULES.pending(state) == [1]


def test_it_lets_unspent_cards_be_returned_all_or_some() -> None:
    state = put(game(), 0, hand=[2, 3, 4, 5])
    play(state, 0, "end")
    discard = len(state["mdisc"])
    play(state, 0, "return 3, 5")
    assert len(state["mdisc"]) == discard + 2
    state2 = put(game(seed="other"), 0, hand=[2, 3, 4, 5])
    play(state2, 0, "end")
    events = play(state2, 0, "return cards")
    assert state2["mdisc"][-4:] == [2, 3, 4, 5]
    assert any(e.kind == "return" and e.to is None for e in events)
    assert len(state2["fleets"][0]["hand"]) == 4


def test_it_reshuffles_the_discard_pile_when_the_movement_deck_runs_out() -> None:
    state = put(game(), 0, hand=[1, 2, 3, 4])
    state["mdisc"].extend(state["mdeck"][2:])
    del state["mdeck"][2:]
    play(state, 0, "end")
    events = play(state, 0, "return cards")
    assert "reshuffle" in kinds(events)
    assert len(state["fleets"][0]["hand"]) == 4
    assert card_census(state) == Counter(B.CARD_VALUES)


# ---- 6. moving the caravelas -----------------------------------------------------------------------

def test_it_uses_a_card_for_its_whole_value() -> None:
    state = put(game(), 0, hand=[3, 3, 3, 3])
    assert dests(state, 0, 3) == {"acores", "porto-santo", "canarias"}
    with pytest.raises(IllegalMove, match="cannot be reached with the 3"):
        RULES.parse("move 3 to s1", state, 0)
    with pytest.raises(IllegalMove):
        RULES.apply(state, 0, {"act": "move", "card": 3, "to": "s1"})


def test_it_moves_along_the_lines_in_any_direction_one_point_per_circle() -> None:
    state = put(game(), 0, at="madeira", hand=[1, 2])
    assert dests(state, 0, 1) == {"porto-santo", "s8", "s12"}
    assert dests(state, 0, 2) == {"s7", "s9", "canarias"}
    events = play(state, 0, "move 2 to canarias")
    assert events[0].data["path"] == ["s12", "canarias"]


def test_it_ignores_blue_circles_when_moving_with_the_arrows() -> None:
    state = put(game(), 0, at="cabo-verde", hand=[1, 2])
    assert B.NODES["s54"]["kind"] == B.NODES["s55"]["kind"] == "blue"
    assert "s56" in dests(state, 0, 1)  # two blue circles skipped: one point
    assert "brasil" in dests(state, 0, 2)
    assert not {"s54", "s55", "s57"} & (dests(state, 0, 1) | dests(state, 0, 2))


def test_it_counts_blue_circles_when_moving_against_the_arrows() -> None:
    state = put(game(), 0, at="brasil", hand=[1, 2, 3])
    assert "s57" in dests(state, 0, 1)  # against the arrows: blue circles cost a point and can be stops
    assert "s56" in dests(state, 0, 2)
    assert "s60" in dests(state, 0, 1)  # with the arrows: s58 and s59 skipped


def test_it_never_passes_the_same_circle_twice_with_one_card() -> None:
    # Lisboa's three neighbours are one step away: a 3 that came back through Lisboa would end on one
    state = put(game(), 0, hand=[3])
    neighbours = {b for b, _ in B.ADJ["lisboa"]}
    assert not neighbours & dests(state, 0, 3)
    with pytest.raises(IllegalMove):
        play(state, 0, "move 3 to s6")


def test_it_may_pass_the_same_circle_again_with_the_next_card() -> None:
    state = put(game(), 0, hand=[2, 2])
    play(state, 0, "move 2 to s2")  # Lisboa, s1, s2
    events = play(state, 0, "move 2 to lisboa")  # back over s1 into Lisboa with the next card
    assert events[0].data["path"] == ["s1", "lisboa"]


def test_it_allows_any_number_of_fleets_in_a_circle() -> None:
    state = game(4)
    for seat in range(4):
        put(state, seat, at="s2")
    put(state, 0, hand=[1])
    assert "acores" in dests(state, 0, 1) and "s1" in dests(state, 0, 1)
    assert [f["at"] for f in RULES.view(state, None)["fleets"]] == ["s2"] * 4


def test_it_names_the_path_it_picked_when_several_lead_to_the_destination() -> None:
    state = put(game(), 0, at="arguim", hand=[4])
    opts = [o for o in RULES.options(state, 0) if o.move.get("to") == "guine"]
    assert len(opts) == 1  # destinations only, whatever the number of paths
    events = play(state, 0, "move 4 to guine")
    assert events[0].data["path"] == ["s15", "cabo-verde", "s17", "guine"]
    assert "via s15, Cabo Verde, s17" in events[0].text


# ---- 7. discoveries --------------------------------------------------------------------------------

def test_it_fulfils_a_discovery_card_by_stopping_exactly_on_its_place() -> None:
    state = put(game(), 0, at="arguim", hand=[1, 3], disc=["guine", "madeira"])
    play(state, 0, "move 3 to s18")  # passes Guiné without stopping: nothing
    f = state["fleets"][0]
    assert "guine" in f["disc"] and f["score"] == 0
    play(state, 0, "move 1 to guine")  # stops there: fulfilled, face down in front of the player
    assert "guine" not in f["disc"] and f["found"] == ["guine"] and f["score"] == 1


def test_it_draws_four_discovery_cards_in_lisboa_and_keeps_at_least_one() -> None:
    state = put(game(), 0, disc=["guine"])
    top4 = state["dpile"][:4]
    events = play(state, 0, "draw")
    assert [e for e in events if e.kind == "drawn"][0].to == (0,)
    assert state["stack"][-1] == {"k": "keep", "drawn": top4}
    sizes = {len(o.move["cards"]) for o in RULES.options(state, 0)}
    assert sizes == {1, 2, 3}  # at least one, never more than four in hand
    play(state, 0, f"keep {B.name(top4[2])}")
    f = state["fleets"][0]
    assert f["disc"] == ["guine", top4[2]]
    assert state["dpile"][-3:] == [top4[0], top4[1], top4[3]]


def test_it_draws_discovery_cards_in_calecute_too_but_nowhere_else() -> None:
    state = put(game(), 0, at="cochim", hand=[1, 1], disc=[])
    assert "draw" not in codes(state, 0)
    with pytest.raises(IllegalMove, match="only in Lisboa or Calecute"):
        RULES.parse("draw", state, 0)
    play(state, 0, "move 1 to calecute")
    assert "draw" in codes(state, 0)


def test_it_allows_keeping_all_four() -> None:
    state = put(game(), 0, disc=[])
    drawn = state["dpile"][:4]
    play(state, 0, "draw")
    play(state, 0, "keep all")
    assert state["fleets"][0]["disc"] == drawn


def test_it_never_lets_a_hand_hold_more_than_four_discovery_cards() -> None:
    state = game()
    assert len(state["fleets"][0]["disc"]) == 4
    assert "draw" not in codes(state, 0)
    with pytest.raises(IllegalMove, match="already hold 4"):
        RULES.parse("draw", state, 0)
    put(state, 0, disc=state["fleets"][0]["disc"][:2])
    play(state, 0, "draw")
    assert max(len(o.move["cards"]) for o in RULES.options(state, 0)) == 2


def test_it_allows_one_draw_per_stop() -> None:
    state = put(game(), 0, hand=[2, 2], disc=[])
    play(state, 0, "draw")
    play(state, 0, "keep 1")
    assert "draw" not in codes(state, 0)
    with pytest.raises(IllegalMove, match="already drawn"):
        RULES.parse("draw", state, 0)
    play(state, 0, "move 2 to s2")
    play(state, 0, "move 2 to lisboa")  # a new stop in Lisboa: a new draw
    assert "draw" in codes(state, 0)


def test_it_keeps_returned_discovery_cards_known_to_the_returner_only() -> None:
    state = put(game(3), 0, disc=[])
    drawn = state["dpile"][:4]
    play(state, 0, "draw")
    play(state, 0, "keep 1")
    assert state["dknown"][0] == drawn[1:]
    mine = RULES.view(state, 0)["me"]["bottom"]
    assert [c for c, _ in mine] == drawn[1:]
    assert [pos for _, pos in mine] == [len(state["dpile"]) - 3, len(state["dpile"]) - 2, len(state["dpile"]) - 1]
    for seat in (1, 2):
        assert RULES.view(state, seat)["me"]["bottom"] == []
        assert not set(drawn[1:]) & set(json.dumps(RULES.view(state, seat)).split('"'))


# ---- 8. cubes ------------------------------------------------------------------------------------

def test_it_loads_one_cube_by_stopping_exactly_on_a_place_with_cubes() -> None:
    state = put(game(), 0, at="arguim", hand=[3, 2])
    play(state, 0, "move 3 to s18")  # passing Guiné loads nothing
    assert state["fleets"][0]["cargo"] == [] and state["cubes"]["red"] == 4
    play(state, 0, "move 2 to s16")  # back over Guiné without stopping
    assert state["fleets"][0]["cargo"] == []
    state = put(game(), 0, at="arguim", hand=[2])
    play(state, 0, "move 2 to guine")
    assert state["fleets"][0]["cargo"] == ["red"] and state["cubes"]["red"] == 3


def test_it_loads_at_most_one_cube_of_each_colour() -> None:
    state = put(game(), 0, at="s16", hand=[1], cargo=["red"])
    play(state, 0, "move 1 to guine")
    assert state["fleets"][0]["cargo"] == ["red"] and state["cubes"]["red"] == 3


def test_it_loads_no_cube_onto_a_sunk_caravela() -> None:
    state = put(game(), 0, at="s16", hand=[1], sunk=[1])
    events = play(state, 0, "move 1 to guine")
    assert "load" not in kinds(events) and state["cubes"]["red"] == 4


def test_it_loads_nothing_where_no_cube_is_left() -> None:
    state = put(game(), 0, at="s16", hand=[1])
    state["cubes"]["red"] = 0
    events = play(state, 0, "move 1 to guine")
    assert "load" not in kinds(events) and state["fleets"][0]["cargo"] == []


# ---- 9. the Cape of Good Hope ---------------------------------------------------------------------

def test_it_stops_a_fleet_at_the_cape_and_the_rest_of_the_card_is_lost() -> None:
    state = put(game(), 0, at="s25", hand=[3, 4])
    assert "cabo" in dests(state, 0, 3)
    assert not dests(state, 0, 4) & {"sao-bras", "s26", "s64", "s67"}  # never through the Cape
    rig_die(state, 0)
    events = play(state, 0, "move 3 to cape")
    assert state["fleets"][0]["at"] == "cabo"
    assert events[0].data["lost"] == 2 and "loses 2" in events[0].text


def test_it_rolls_the_die_once_and_a_zero_does_no_harm() -> None:
    state = put(game(), 0, at="s25", hand=[1, 2], cargo=["red"])
    rig_die(state, 0)
    events = play(state, 0, "move 1 to cabo")
    rolls = [e for e in events if e.kind == "die"]
    assert len(rolls) == 1 and rolls[0].data["roll"] == 0 and rolls[0].reveals
    assert state["stack"][-1]["k"] == "move" and state["fleets"][0]["sunk"] == []


def test_it_sinks_the_caravela_the_player_chooses_on_a_one_and_its_cubes_go_back() -> None:
    state = put(game(), 0, at="s25", hand=[1, 2], cargo=["red", "yellow", "brown"])
    rig_die(state, 1)
    play(state, 0, "move 1 to cabo")
    assert codes(state, 0) == ["sink1", "sink2", "sink3", "sink4"]
    play(state, 0, "sink 2")
    f = state["fleets"][0]
    assert f["sunk"] == [2] and f["cargo"] == ["red"]
    assert state["cubes"]["yellow"] == 4 and state["cubes"]["brown"] == 4
    assert cube_census(state)["yellow"] == 4


def test_it_goes_on_moving_after_the_cape() -> None:
    state = put(game(), 0, at="s25", hand=[1, 1, 2])
    rig_die(state, 1)
    play(state, 0, "move 1 to cabo")
    play(state, 0, "sink 4")
    play(state, 0, "move 1 to sao-bras")
    assert state["fleets"][0]["at"] == "sao-bras" and RULES.pending(state) == [0]


def test_it_returns_a_fleet_with_all_four_caravelas_sunk_to_lisboa_and_ends_the_turn() -> None:
    state = put(game(), 0, at="s25", hand=[1, 2, 3], sunk=[1, 2, 3], cargo=["green"])
    rig_die(state, 1)
    play(state, 0, "move 1 to cabo")
    assert codes(state, 0) == ["sink4"]
    events = play(state, 0, "sink 4")
    f = state["fleets"][0]
    assert f["at"] == "lisboa" and f["sunk"] == [] and f["cargo"] == []
    assert state["cubes"]["green"] == state["greens"]
    assert "wreck" in kinds(events) and state["stack"][-1]["k"] == "cards"  # unspent 2 and 3
    play(state, 0, "keep cards")
    assert RULES.pending(state) == [1]


def test_it_never_sinks_a_caravela_twice() -> None:
    state = put(game(), 0, at="s25", hand=[1, 2], sunk=[1, 3])
    rig_die(state, 1)
    play(state, 0, "move 1 to cabo")
    assert codes(state, 0) == ["sink2", "sink4"]
    with pytest.raises(IllegalMove):
        play(state, 0, "sink 1")


# ---- 10. arrival in Lisboa --------------------------------------------------------------------------

def test_it_exchanges_all_cargo_for_points_and_returns_the_cubes_in_lisboa() -> None:
    state = put(game(), 0, at="s1", hand=[1, 2], cargo=["red", "black", "white"])
    play(state, 0, "move 1 to lisboa")
    events = play(state, 0, "deliver")
    f = state["fleets"][0]
    assert f["score"] == 4 + 5 + 8 and f["cargo"] == []
    assert state["cubes"]["red"] == 4 and state["cubes"]["black"] == 4 and state["cubes"]["white"] == 4
    assert events[0].data["points"] == 17


def test_it_puts_delivered_green_cubes_in_the_monastery() -> None:
    state = put(game(), 0, at="s1", hand=[1], cargo=["green"])
    play(state, 0, "move 1 to lisboa")
    play(state, 0, "deliver")
    assert state["monastery"] == 1 and state["cubes"]["green"] == state["greens"] - 1
    assert RULES.view(state, None)["monastery"] == 1


def test_it_recovers_sunk_caravelas_in_lisboa_even_without_cargo() -> None:
    state = put(game(), 0, at="s1", hand=[1, 3], sunk=[2, 4])
    play(state, 0, "move 1 to lisboa")
    play(state, 0, "deliver")
    assert state["fleets"][0]["sunk"] == [] and state["fleets"][0]["score"] == 0


def test_it_ends_the_turn_after_a_delivery() -> None:
    state = put(game(), 0, at="s1", hand=[1, 3, 4], cargo=["red"])
    play(state, 0, "move 1 to lisboa")
    play(state, 0, "deliver")
    assert state["stack"] == [{"k": "cards"}]
    assert codes(state, 0)[:2] == ["keep", "return"]
    play(state, 0, "keep")
    assert RULES.pending(state) == [1]


def test_it_delivers_only_when_the_fleet_stops_in_lisboa() -> None:
    state = put(game(), 0, at="s1", hand=[2, 2], cargo=["red"])
    play(state, 0, "move 2 to s6")  # through Lisboa
    assert "deliver" not in codes(state, 0)
    with pytest.raises(IllegalMove, match="only in Lisboa"):
        RULES.parse("deliver", state, 0)
    state = put(game(), 0, hand=[2])
    with pytest.raises(IllegalMove, match="no cargo"):
        RULES.parse("deliver", state, 0)


# ---- 11. the end ------------------------------------------------------------------------------------

def test_it_ends_when_the_round_is_complete_after_a_player_reaches_the_target() -> None:
    state = game(3)
    put(state, 1, at="s16", hand=[1], disc=["guine"], score=99)
    play(state, 0, "end")
    play(state, 0, "keep cards")
    events = play(state, 1, "move 1 to guine")
    assert state["ending"] == "points" and "ending" in kinds(events)
    assert RULES.outcome(state) is None  # Carla still plays: everyone has had the same number of turns
    assert RULES.pending(state) == [2]  # Bruno's last card is spent: his turn is over
    play(state, 2, "end")
    play(state, 2, "keep cards")
    assert RULES.pending(state) == [] and state["over"]
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "points" and outcome.winners == (1,)
    with pytest.raises(IllegalMove):
        RULES.apply(state, 0, {"act": "end"})


def test_it_ends_at_once_when_the_last_player_of_the_round_reaches_the_target() -> None:
    state = game(2)
    state["first"] = 1  # seat 0 is then the last of the round
    put(state, 0, at="s16", hand=[1], disc=["guine"], score=99)
    play(state, 0, "move 1 to guine")
    assert state["over"]


def test_it_ends_when_the_last_green_cube_reaches_the_monastery() -> None:
    state = game(2)
    state["monastery"] = state["greens"] - 1
    state["cubes"]["green"] = 0
    put(state, 0, at="s1", hand=[1])
    state["fleets"][0]["cargo"] = ["green"]
    play(state, 0, "move 1 to lisboa")
    play(state, 0, "deliver")
    assert state["ending"] == "monastery" and not state["over"]
    play(state, 1, "end")
    play(state, 1, "keep cards")
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.reason == "monastery"


def test_it_counts_points_past_one_hundred() -> None:
    state = game(2)
    put(state, 0, at="s16", hand=[1], disc=["guine"], score=100)
    play(state, 0, "move 1 to guine")
    assert state["fleets"][0]["score"] == 101


def test_it_scores_two_per_cube_aboard_and_minus_two_per_unfulfilled_card_at_the_end() -> None:
    state = game(2)
    put(state, 0, score=50, cargo=["red", "blue"], disc=["guine"])
    put(state, 1, score=50, cargo=[], disc=["china", "natal", "goa"])
    state["over"], state["ending"] = True, "points"
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.scores == {0: 50 + 4 - 2, 1: 50 - 6}
    assert RULES.view(state, 1)["final"] == [52, 44]


def test_it_breaks_ties_by_discoveries_fulfilled_then_green_ones() -> None:
    state = game(4)
    put(state, 0, score=30, disc=[], found=["guine", "madeira"])
    put(state, 1, score=30, disc=[], found=["guine", "natal", "goa"][1:] + ["acores"])
    put(state, 2, score=30, disc=[], found=["porto-santo", "canarias", "mina"])
    put(state, 3, score=30, disc=[], found=["sofala", "ormuz", "arguim"])
    state["over"], state["ending"] = True, "points"
    outcome = RULES.outcome(state)
    assert outcome is not None
    # 1 and 3: three found, two green; 2: three found, none green; 0: two found
    assert outcome.ranking == ((1, 3), (2,), (0,))


# ---- the turn as a stack of decisions; refusals ---------------------------------------------------------

def test_it_refuses_moves_out_of_turn_and_leaves_the_state_unchanged() -> None:
    state = put(game(), 0, hand=[3])
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(NotYourTurn):
        RULES.apply(state, 1, {"act": "end"})
    for bad in ({"act": "move", "card": 3, "to": "s1"}, {"act": "move", "card": 2, "to": "s2"}, {"code": "sink1"},
                {"act": "keep", "cards": []}, {"act": "move", "card": True, "to": "acores"}, {"code": "3"}):
        with pytest.raises(IllegalMove):
            RULES.apply(state, 0, bad)
        assert json.dumps(state, sort_keys=True) == before


def test_it_accepts_an_option_by_code_or_by_its_move() -> None:
    a = put(game(), 0, hand=[3])
    b = json.loads(json.dumps(a))
    RULES.apply(a, 0, {"code": "3acores"})
    RULES.apply(b, 0, {"act": "move", "card": 3, "to": "acores"})
    assert a == b


# ---- the rulebook's figures -------------------------------------------------------------------------------

def test_it_reproduces_figure_1_no_return_through_lisboa_with_one_card() -> None:
    """A 3 from Lisboa: two yellow lines are legal moves; leaving Lisboa and coming back through it is not."""
    state = put(game(), 0, hand=[3])
    assert {"porto-santo", "acores"} <= dests(state, 0, 3)
    play(state, 0, "move 3 to porto santo")
    assert state["fleets"][0]["at"] == "porto-santo"
    state = put(game(), 0, hand=[3])
    # the red line: Lisboa -> s1 -> Lisboa -> s6 has the right length but passes Lisboa twice
    assert B.REACH["s1"][1].get("lisboa") and B.REACH["lisboa"][1].get("s6")
    with pytest.raises(IllegalMove, match="cannot be reached with the 3 from Lisboa"):
        RULES.parse("move 3 to s6", state, 0)
    with pytest.raises(IllegalMove):
        RULES.apply(state, 0, {"act": "move", "card": 3, "to": "s6"})


def test_it_reproduces_figure_2_the_guine_discovery_and_the_red_cube() -> None:
    state = put(game(), 0, at="cabo-verde", hand=[2, 5], disc=["guine", "china"])
    events = play(state, 0, "move 2 to guine")
    f = state["fleets"][0]
    assert f["score"] == 1 and f["found"] == ["guine"]
    assert f["cargo"] == ["red"] and B.CUBES["red"]["caravela"] == 1  # the first caravela
    assert kinds(events)[:3] == ["move", "discovery", "load"]


def test_it_reproduces_figure_3_the_two_places_to_draw_discovery_cards() -> None:
    assert set(B.DRAW_PLACES) == {"lisboa", "calecute"}
    drawable = set()
    for nid in B.ORDER:
        state = put(game(), 0, at=nid, disc=[])
        if "draw" in codes(state, 0):
            drawable.add(nid)
    assert drawable == {"lisboa", "calecute"}


def test_it_reproduces_figure_4_the_cape_with_a_two_card_and_a_sinking() -> None:
    state = game(4)
    put(state, 2, at="s25", hand=[2, 3], cargo=["red", "black", "white"])
    state["turn"] = 2
    rig_die(state, 1)
    events = play(state, 2, "move 2 to cabo")
    assert events[0].data["path"] == ["cabo"] and events[0].data["lost"] == 1  # stops after 1, loses the 2nd
    assert [e.data["roll"] for e in events if e.kind == "die"] == [1]
    assert RULES.options(state, 2)[0].label == "sink caravela 1 (loses red, black)"
    play(state, 2, "sink 1")  # the first caravela: the lowest valued cargoes
    f = state["fleets"][2]
    assert f["sunk"] == [1] and f["cargo"] == ["white"]
    assert state["cubes"]["red"] == 4 and state["cubes"]["black"] == 4  # back to Guiné and Congo
    assert cube_census(state) == Counter({"red": 4, "black": 4, "yellow": 4, "brown": 4, "white": 4, "pink": 4,
                                          "blue": 4, "green": 5})


def test_it_reproduces_figure_5_the_delivery_of_28_points_with_a_recovered_caravela() -> None:
    state = game(2)
    put(state, 0, at="s1", hand=[1, 4], cargo=["black", "yellow", "brown", "green"], sunk=[3], score=12)
    play(state, 0, "move 1 to lisboa")
    events = play(state, 0, "deliver")
    f = state["fleets"][0]
    assert events[0].data["points"] == 28 == 5 + 6 + 7 + 10
    assert f["score"] == 40 and f["sunk"] == [] and f["cargo"] == []
    assert state["monastery"] == 1  # the first green circle of the Jerónimos Monastery
    assert state["cubes"]["black"] == 4 and state["cubes"]["yellow"] == 4 and state["cubes"]["brown"] == 4
    assert state["stack"] == [{"k": "cards"}]  # his play ends


# ---- more of 5, 6 and 7, and the board data -------------------------------------------------------------

def test_it_passes_the_turn_clockwise() -> None:
    state = game(3)
    order = []
    for _ in range(4):
        seat = RULES.pending(state)[0]
        order.append(seat)
        play(state, seat, "end")
        play(state, seat, "keep cards")
    assert order == [0, 1, 2, 0]
    assert state["turns"] == 4


def test_it_lets_a_player_draw_before_delivering_in_lisboa() -> None:
    state = put(game(), 0, at="s1", hand=[1, 2], cargo=["red"], disc=["natal"])
    play(state, 0, "move 1 to lisboa")
    assert {"draw", "deliver", "end"} <= set(codes(state, 0))
    play(state, 0, "draw")
    play(state, 0, "keep 1")
    play(state, 0, "deliver")
    f = state["fleets"][0]
    assert len(f["disc"]) == 2 and f["score"] == 4 and state["stack"] == [{"k": "cards"}]


def test_it_forces_every_voyage_to_the_east_through_the_cape() -> None:
    seen, todo = {"lisboa"}, ["lisboa"]
    while todo:
        a = todo.pop()
        for b, _ in B.ADJ[a]:
            if b not in seen and b != "cabo":
                seen.add(b)
                todo.append(b)
    east = {"calecute", "goa", "malaca", "sofala", "melinde", "molucas", "china"}
    assert not east & seen
    assert all(B.DIST["lisboa"].get(n) is not None for n in B.ORDER)  # and yet every circle is reachable


def test_it_keeps_the_board_data_consistent_with_the_rulebook() -> None:
    assert len(B.CARD_VALUES) == 48 and len(B.DISCOVERIES) == 32
    assert B.DISCOVERIES["guine"]["points"] == 1
    assert sorted(B.DIE) == [0, 0, 0, 0, 1, 1]
    spots = [B.CUBES[c]["points"] for c in B.CARAVELA_SPOTS[1]]
    assert max(spots) <= min(B.CUBES[c]["points"] for k in (2, 3, 4) for c in B.CARAVELA_SPOTS[k])
    assert sum(len(v) for v in B.CARAVELA_SPOTS.values()) == 8
    assert all(B.NODES[d]["kind"] == "place" for d in B.DISCOVERIES)
    for route in B.MAP["arrows"]:
        ends = route["path"][0], route["path"][-1]
        assert all(B.NODES[e]["kind"] not in ("white", "blue") for e in ends)
        assert any(B.NODES[p]["kind"] == "blue" for p in route["path"])


@pytest.mark.parametrize("code", ["\u00b2s2", "\u00b9lisboa", "\u2460s1"])
def test_it_refuses_a_move_code_whose_digit_is_not_an_ascii_digit(code: str) -> None:
    state = game()
    before = json.dumps(state, sort_keys=True)
    with pytest.raises(IllegalMove, match="not a legal choice"):
        RULES.apply(state, 0, {"code": code})
    assert json.dumps(state, sort_keys=True) == before
