"""Maracaibo: The Uprising, the Home Ports module's remaining ports and the effect language's
extensions they use (docs/rules/maracaibo-uprising.md, "Home Ports", "Effect language").

Every test starts from a real setup of a mode-78 game played by the engine through its options
(``tests/engine/maracaibo_scenarios._started``), then puts Ana (seat 0) before the decision tested.
"""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _codes(state: State, seat: int = 0) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def _labels(state: State, seat: int = 0) -> dict[str, str]:
    return {o.code: o.label for o in RULES.options(state, seat)}


def _play(state: State, seat: int, code: str) -> list[Any]:
    return RULES.apply(state, seat, {"code": code})


def _read(state: State, line: str, seat: int = 0) -> str:
    return str(RULES.parse(line, state, seat)["code"])


def _with_port(port: str, mode: str = "78", unlocked: bool = True, **kw: Any) -> State:
    """Ana after the setup, her home port ``port`` kept (its area unlocked unless told)."""
    state = _started(mode=mode, **kw)
    p = state["seats"][0]
    p["port"] = port
    p["discs"] = {**p["discs"], "UH": 0}
    if unlocked:
        p["areas"] = [*p["areas"], "UH"]
    state["revision"] += 1
    return state


# ---- Bremen and Oranjestad: the player chooses the cards paid ---------------------------------------

def test_it_asks_which_tobacco_cards_pay_bremens_village_action() -> None:
    # hand: 8 Silent Priest, 24 Old Scout, 36 Old Deserter (tobacco), 1 Red Gunner (cotton)
    state = _with_port("HP2", hand=(1, 8, 24, 36))
    p = state["seats"][0]
    _on(state, frame("village", 0, left=2, used=[]))
    d = p["doubloons"]
    _play(state, 0, "vH")
    assert state["stack"][-1]["kind"] == "trade"
    labels = _labels(state)
    assert set(labels) == {"y8-24", "y8-36", "y24-36"}
    assert labels["y24-36"].startswith("discard Old Scout (tobacco), Old Deserter (tobacco); keep")
    assert _read(state, "keep silent priest") == "y24-36"
    assert _read(state, "discard silent priest and old deserter") == "y8-36"
    _play(state, 0, "y24-36")
    assert sorted(p["hand"]) == [1, 8] and p["doubloons"] == d + 5
    assert {24, 36} <= set(state["discard"])
    assert state["stack"][-1]["kind"] == "village"  # the second village action follows
    assert "vH" not in _codes(state)  # one tobacco left


def test_it_pays_oranjestad_without_asking_when_one_way_pays() -> None:
    state = _with_port("HP12", hand=(3, 7, 8))  # 3 Wealthy Navigator, 7 Bold Merchant: the two corn cards
    p = state["seats"][0]
    _on(state, frame("village", 0, left=2, used=[]))
    cp = p["combat_points"]
    assert "pay 2 corn for 3 combat points" in _labels(state)["vH"]
    _play(state, 0, "vH")
    assert p["hand"] == [8] and p["combat_points"] == cp + 3
    assert state["stack"][-1]["kind"] == "village"


# ---- Nassau: a place of the map and a home port ----------------------------------------------------

def test_it_reads_nassau_as_the_home_port_when_keeping_one_and_as_the_place_when_sailing() -> None:
    from engine.errors import IllegalMove

    state = RULES.setup(player_names(3), {"mode": "78"}, "nassau")
    dealt = state["seats"][0]["setup"]["ports"]
    if "HP11" not in dealt:  # Nassau dealt to Ana in place of her first port (the box keeps the other)
        state["ports_box"] = sorted([*state["ports_box"], dealt[0]], key=lambda x: int(x[2:]))
        for holder in [state["ports_box"], *(p["setup"]["ports"] for p in state["seats"][1:])]:
            if "HP11" in holder:
                holder.remove("HP11")
        dealt[0] = "HP11"
        state["revision"] += 1
    for line in ("keep nassau", "nassau", "home port nassau", "keep home port Nassau", "port nassau"):
        assert _read(state, line) == "hHP11", line
    for line in ("sail to nassau", "liberate nassau"):
        try:
            RULES.parse(line, state, 0)
        except IllegalMove:
            continue
        raise AssertionError(f"{line!r} named a home port")
    sailing = _started(mode="78", at="1")
    _on(sailing, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    assert _labels(sailing)["s2"] == "sail 1 to 2 Nassau"
    for line in ("sail to nassau", "sail nassau", "nassau", "sail to 2"):
        assert _read(sailing, line) == "s2", line
    try:
        RULES.parse("keep home port nassau", sailing, 0)
    except IllegalMove:
        pass
    else:
        raise AssertionError("a home port read while sailing")


def test_it_tells_the_home_port_nassau_from_the_place_nassau_in_the_catalogue() -> None:
    from engine.games.maracaibo.catalogue import catalogue, option_details

    cat = catalogue()
    place = next(x for x in cat["places"] if x["id"] == "2")
    port = next(x for x in cat["tiles"]["home_ports"] if x["id"] == "HP11")
    assert place["name"] == port["name"] == "Nassau"
    assert port["kind"] == "home port" and port["label"] == "home port Nassau"
    assert len(cat["tiles"]["home_ports"]) == 15
    state = RULES.setup(player_names(2), {"mode": "78"}, "nassau-cat")
    o = RULES.options(state, 0)[0]
    assert option_details(state, 0, o) == {"kind": "home_port", "tile": o.code[1:]}
    sailing = _started(mode="78", at="1")
    _on(sailing, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    s2 = next(o for o in RULES.options(sailing, 0) if o.code == "s2")
    assert option_details(sailing, 0, s2) == {"kind": "sail", "place": "2"}


# ---- Antwerp: a disc off the market instead of delivering (market_take) -----------------------------

def test_it_lets_antwerp_take_a_disc_off_the_market_instead_of_delivering() -> None:
    state = _with_port("HP1", at="13", hand=(8, 1))  # Port Royal takes tobacco and cotton
    p = state["seats"][0]
    state["market"]["13"] = [1, 2]  # Bob's and Carla's discs
    _on(state, frame("main", 0, spent=1))
    labels = _labels(state)
    assert labels["dH"] == ("take a disc off the market of Port Royal instead of delivering (3 doubloons, 3 VP now), "
                            "then the city action")
    assert _read(state, "take a disc off the market") == "dH"
    d, vp, hand = p["doubloons"], p["victory_points"], list(p["hand"])
    events = _play(state, 0, "dH")
    assert state["market"]["13"] == [1] and p["hand"] == hand  # the last disc off; nothing delivered
    kinds = [e.kind for e in events]
    assert kinds.index("market_take") < kinds.index("gain") < kinds.index("city")  # then the city action
    assert events[kinds.index("gain")].text == "Ana gets 3 doubloons, 3 VP."
    assert p["doubloons"] >= d + 3 and p["victory_points"] >= vp + 3


def test_it_offers_antwerp_at_a_full_market_but_never_at_an_empty_one() -> None:
    state = _with_port("HP1", at="13", hand=(8, 1))
    state["market"]["13"] = [1, 2, 1]  # full: no delivery, but Antwerp
    _on(state, frame("main", 0, spent=1))
    codes = _codes(state)
    assert "dH" in codes and "dtobacco" not in codes
    state["market"]["13"] = []
    state["revision"] += 1
    codes = _codes(state)
    assert "dH" not in codes and "dtobacco" in codes  # deliver as usual
    locked = _with_port("HP1", unlocked=False, at="13", hand=(8, 1))
    locked["market"]["13"] = [1]
    _on(locked, frame("main", 0, spent=1))
    assert "dH" not in _codes(locked)


# ---- Porto: an identical good after delivering (deliver_again_cp) -----------------------------------

def test_it_lets_porto_discard_an_identical_good_after_delivering_for_2_combat_points() -> None:
    state = _with_port("HP14", at="13", hand=(1, 8, 24, 36))
    p = state["seats"][0]
    state["market"]["13"] = [1, 2]  # one space left: Porto counts with a full market after it
    _on(state, frame("main", 0, spent=1))
    _play(state, 0, "dtobacco")
    _play(state, 0, "y8")  # delivered with Silent Priest
    assert state["market"]["13"] == [1, 2, 0]
    assert state["stack"][-1]["kind"] == "again"
    assert set(_codes(state)) == {"y24", "y36", "no"}
    assert _read(state, "discard old deserter") == "y36"
    cp = p["combat_points"]
    _play(state, 0, "y36")
    assert p["combat_points"] == cp + 2 and sorted(p["hand"]) == [1, 24] and 36 in state["discard"]
    assert state["stack"][-1]["kind"] != "again"  # once per delivery, then the delivery's disc and the city action


def test_it_asks_porto_nothing_without_an_identical_good_or_when_declined() -> None:
    state = _with_port("HP14", at="13", hand=(1, 8))
    _on(state, frame("main", 0, spent=1))
    _play(state, 0, "dtobacco")
    assert all(f["kind"] != "again" for f in state["stack"])
    state = _with_port("HP14", at="13", hand=(8, 24))
    p = state["seats"][0]
    _on(state, frame("main", 0, spent=1))
    _play(state, 0, "dtobacco")
    _play(state, 0, "y8")
    cp = p["combat_points"]
    _play(state, 0, "no")
    assert p["combat_points"] == cp and p["hand"] == [24]


# ---- Cayman Islands: sugar as any good or object (wild_sugar) ---------------------------------------

def test_it_lets_cayman_deliver_a_sugar_card_as_any_good_of_the_market() -> None:
    state = _with_port("HP3", at="10", hand=(2, 1))  # Maracaibo takes tobacco and corn; 2 is sugar
    p = state["seats"][0]
    _on(state, frame("main", 0, spent=1))
    labels = _labels(state)
    assert "dtobacco" in labels and "dcorn" in labels and "with a sugar card" in labels["dcorn"]
    d = p["doubloons"]
    events = _play(state, 0, "dcorn")
    assert p["hand"] == [1] and state["market"]["10"] == [0] and p["doubloons"] == d + 4
    assert any("delivers corn" in e.text for e in events)
    locked = _with_port("HP3", unlocked=False, at="10", hand=(2, 1))
    _on(locked, frame("main", 0, spent=1))
    assert not {"dtobacco", "dcorn"} & set(_codes(locked))


def test_it_lets_cayman_pay_a_quest_and_a_trade_with_several_sugar_cards() -> None:
    from engine.games.maracaibo.homeports import trade_ways
    from engine.games.maracaibo.quests import quest_payments

    state = _with_port("HP3", hand=(2, 14, 1))  # 2 and 14 are sugar (herbs, spyglass); 1 cotton, spyglass
    p = state["seats"][0]
    cost = {"goods": ["tobacco"], "objects": ["sword"]}  # no card shows either
    assert sorted(map(sorted, quest_payments(p, cost))) == [[2, 14]]
    assert [2, 14] in trade_ways(p, {"goods": ["tobacco", "tobacco"]})
    p["areas"] = [a for a in p["areas"] if a != "UH"]  # locked: sugar is sugar
    assert quest_payments(p, cost) == [] and trade_ways(p, {"goods": ["tobacco", "tobacco"]}) == []


# ---- Panamá: the second-to-last space's reward too (explore_second_last) ----------------------------

def test_it_gives_panama_the_second_to_last_spaces_reward_when_moving_two_or_more() -> None:
    state = _with_port("HP13")
    p = state["seats"][0]
    p["explorer"] = 6
    _on(state, frame("explore", 0, n=3))
    labels = _labels(state)
    assert labels["e7"] == "explore to space 7 (3 VP now)"  # one space: no second-to-last
    assert labels["e10"] == "explore to space 10 (3 VP now), and space 7 (3 VP now)"  # 6 -> 7 -> 10 by the fork
    assert labels["e9"].endswith(", and space 8 (2 doubloons, 1 combat point)")
    vp = p["victory_points"]
    _play(state, 0, "e10")
    assert p["explorer"] == 10 and p["victory_points"] == vp + 6
    locked = _with_port("HP13", unlocked=False)
    locked["seats"][0]["explorer"] = 6
    _on(locked, frame("explore", 0, n=3))
    assert _labels(locked)["e10"] == "explore to space 10 (3 VP now)"


def test_it_asks_panama_which_way_when_the_fork_gives_two_and_offers_the_quest_there() -> None:
    state = _with_port("HP13")
    p = state["seats"][0]
    p["explorer"] = 7
    _on(state, frame("explore", 0, n=3))
    labels = _labels(state)
    assert labels["e10"] == "explore to space 10 (3 VP now)"
    assert labels["e10b9"].endswith(", and space 9 (1 card drawn)")
    assert _read(state, "explore 10") == "e10" and _read(state, "explore 10 and space 9") == "e10b9"
    hand = len(p["hand"])
    _play(state, 0, "e10b9")
    assert p["explorer"] == 10 and len(p["hand"]) == hand + 1
    quest = _with_port("HP13")
    q = quest["seats"][0]
    q["explorer"], q["doubloons"] = 2, 20
    quest["track_quests"]["4"] = "Q13"  # pay 3 doubloons
    _on(quest, frame("explore", 0, n=3))
    _play(quest, 0, "e5")  # 2 -> 3 -> 4 -> 5: space 4 is the second-to-last
    assert quest["stack"][-1]["kind"] == "tquest" and quest["stack"][-1]["data"]["space"] == 4
    _play(quest, 0, "quest")
    assert "4" not in quest["track_quests"] and q["quests"] == 1


# ---- the Gravedigger: a marker removed, by a displace or any liberation (marker_removed) -------------

GRAVEDIGGER = 228  # the expansion's substitute card "Gravedigger" (data/uprising/cards.json)


def test_it_has_the_gravedigger_as_a_card_row_of_the_extension() -> None:
    from engine.games.maracaibo import uprising_content as U

    card = U.CARD[GRAVEDIGGER]
    assert card["name"] == "Gravedigger"
    assert card["effects"] == [{"t": "perm", "ext": "marker_removed", "gain": {"vp": 2}}]


def test_it_pays_the_gravedigger_when_its_owner_displaces_a_marker() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    p["display"] = [*p["display"], GRAVEDIGGER]
    state["markers"] = {"3": "france"}
    _on(state, frame("combat", 0, nation="england", value=8, used=[], token="T1"))
    vp = p["victory_points"]
    events = _play(state, 0, "cd3")
    assert state["markers"]["3"] == "england"
    assert any(e.kind == "marker_removed" for e in events) and p["victory_points"] == vp + 2
    annex = _started(mode="78")
    annex["seats"][0]["display"] = [*annex["seats"][0]["display"], GRAVEDIGGER]
    _on(annex, frame("combat", 0, nation="england", value=8, used=[], token="T1"))
    events = _play(annex, 0, "ca5")  # an annex removes no marker
    assert not any(e.kind == "marker_removed" for e in events)
    plain = _started(mode="78")  # without the card
    plain["markers"] = {"3": "france"}
    _on(plain, frame("combat", 0, nation="england", value=8, used=[], token="T1"))
    vp = plain["seats"][0]["victory_points"]
    events = _play(plain, 0, "cd3")
    assert not any(e.kind == "marker_removed" for e in events) and plain["seats"][0]["victory_points"] == vp


def test_it_pays_the_gravedigger_on_every_liberation_with_the_resistance_tiles() -> None:
    state = _started(mode="78", at="2")
    p = state["seats"][0]
    p["display"] = [*p["display"], GRAVEDIGGER]
    p["areas"] = [*p["areas"], "UR"]
    p["combat_points"] = 3
    state["markers"] = {"2": "england"}
    _on(state, frame("village", 0, left=1, used=[]))
    vp = p["victory_points"]
    _play(state, 0, "vR")  # the resistance tile's village action liberates 2
    assert "2" not in state["markers"]
    _play(state, 0, "cp3")  # its 3 combat value in combat points
    _play(state, 0, "r0")  # the marker out of the game: the Gravedigger counts all the same
    assert p["victory_points"] == vp + 2
    # a marker no space may take: the liberation still counts
    state = _started(mode="78", at="2")
    p = state["seats"][0]
    p["display"] = [*p["display"], GRAVEDIGGER]
    p["resist"] = ["england", None, "england", None]
    p["areas"] = [*p["areas"], "UR"]
    p["combat_points"] = 3
    state["markers"] = {"2": "england"}
    _on(state, frame("village", 0, left=1, used=[]))
    vp = p["victory_points"]
    _play(state, 0, "vR")
    _play(state, 0, "cp3")
    assert "2" not in state["markers"] and p["victory_points"] == vp + 2


# ---- Roatán: a figure on the explorer track, the moves split (second_explorer) ----------------------

def test_it_places_roatans_figure_at_the_start_of_the_track_when_unlocked_only_from_the_supply() -> None:
    state = _with_port("HP15", unlocked=False)
    p = state["seats"][0]
    p["discs"] = {**p["discs"], "UH": 1}
    p["figures"] = 2
    _on(state, frame("disc", 0, n=1))
    _play(state, 0, "uH")
    assert p["explorer2"] == 0 and p["figures"] == 1 and state["stack"][-1]["kind"] == "portbonus"
    assert RULES.view(state, 1)["p"][0]["explorer2"] == 0  # public
    broke = _with_port("HP15", unlocked=False)
    q = broke["seats"][0]
    q["discs"] = {**q["discs"], "UH": 1}
    q["figures"] = 0
    _on(broke, frame("disc", 0, n=1))
    events = _play(broke, 0, "uH")
    assert "explorer2" not in q and any("none is placed" in e.text for e in events)


def _roatan(explorer: int, figure: int) -> State:
    state = _with_port("HP15")
    p = state["seats"][0]
    p["explorer"], p["explorer2"] = explorer, figure
    state["revision"] += 1
    return state


def test_it_splits_roatans_explorer_moves_with_rewards_for_both() -> None:
    state = _roatan(3, 0)
    p = state["seats"][0]
    _on(state, frame("explore", 0, n=3))
    codes = _codes(state)
    assert {"e4", "e5", "e6"} <= set(codes)  # the explorer alone, as ever
    assert {"e4w1", "e4w2", "e5w1", "w1", "w2"} <= set(codes)
    assert not [c for c in codes if c.startswith("e6w")]  # the explorer took all three moves
    assert _labels(state)["e4w2"] == "explore to space 4 (nothing) and the home port's figure to space 2 (2 VP now)"
    assert _read(state, "explore 4 and figure 2") == "e4w2"
    vp = p["victory_points"]
    _play(state, 0, "e4w2")
    assert (p["explorer"], p["explorer2"]) == (4, 2) and p["victory_points"] == vp + 2


def test_it_never_moves_roatans_figure_ahead_of_the_explorer_and_gives_it_the_barriers() -> None:
    state = _roatan(3, 2)
    _on(state, frame("explore", 0, n=2))
    assert not [c for c in _codes(state) if c.startswith("w")]  # 2 -> 3 is the explorer's: skipped, ahead
    assert "e4w3" in _codes(state) and "e5w3" not in _codes(state)  # two moves: one each, or both the explorer's
    fork = _roatan(8, 5)  # the explorer on the fork's long way (8 -> 9 -> 10), the figure before the fork
    _on(fork, frame("explore", 0, n=2))
    assert "w7" not in _codes(fork)  # 7 is ahead of 8: 4 spaces to the next barrier (13) by 7 -> 10, 5 from 8
    barrier = _roatan(10, 5)
    p = barrier["seats"][0]
    _on(barrier, frame("explore", 0, n=2))
    vp = p["victory_points"]
    _play(barrier, 0, "w7")  # the figure over the red barrier (6): its 3 influence, then space 7's 3 VP
    assert p["explorer"] == 10 and p["explorer2"] == 7
    assert barrier["stack"][-1]["kind"] == "nation" and barrier["stack"][-1]["data"]["n"] == 3
    assert p["victory_points"] == vp + 3


def test_it_makes_the_others_skip_roatans_figure_and_scores_by_the_explorer() -> None:
    from engine.games.maracaibo.effects import count_of
    from engine.games.maracaibo.exploring import explore_targets

    state = _roatan(5, 2)
    bob = state["seats"][1]
    bob["explorer"] = 1
    assert explore_targets(state, 1, 1) == [3]  # Ana's figure on 2 is skipped, not counted
    assert count_of(state["seats"][0], "explorer") == 5  # careers and scorings read the explorer only
