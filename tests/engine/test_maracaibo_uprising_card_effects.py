"""Maracaibo: The Uprising, the project cards' extensions of the effect language, part 1
(docs/rules/maracaibo-uprising.md, "Effect language: needed extensions"): requirement fields
(``cost_goods``, ``nation_worker``, ``token_worker``), ``income_when``, ``fight_for_pays``,
``token_choice``, ``village_variety``, ``wild_card``, ``empty_village_d``, a card's combat action
``by_object`` and the cards with the liberation symbol. Each test applies the expansion's own card
rows (data/uprising/cards.json) to a real mode-78 or 79 game set up and started by the engine, by
the options a player is offered."""

from __future__ import annotations

from typing import Any

import pytest

from engine import i18n
from engine.errors import IllegalMove
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.stack import frame
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _id(name: str) -> int:
    return int(next(c["id"] for c in U.CARDS if c["name"] == name))


def _labels(state: State, seat: int = 0) -> dict[str, str]:
    return {o.code: o.label for o in RULES.options(state, seat)}


def _play(state: State, code: str, seat: int = 0) -> list[Any]:
    return RULES.apply(state, seat, {"code": code})


def _village(mode: str = "78", at: str = "6", hand: tuple[int, ...] = (1, 7, 8, 24), d: int = 20) -> State:
    """Ana in a village (San Juan, 6) after sailing 4: the first of her village actions."""
    state = _started(mode=mode, at=at, hand=hand, d=d)
    _on(state, frame("main", 0, spent=4))
    return state


# ---- by_object: a card's combat action -----------------------------------------------------------

def test_it_offers_the_fortune_tellers_combat_action_and_pays_by_the_revealed_object() -> None:
    teller = _id("Fortune Teller")
    state = _started(mode="78")
    p = state["seats"][0]
    p["display"] = [teller]
    _on(state, frame("combat", 0, nation="spain", value=5, used=[], token="T1"))
    label = _labels(state)[f"cc{teller}"]
    assert label.startswith("Fortune Teller: reveal the top project card") and "herbs: 4 VP" in label
    top = state["deck"][-1]
    before = (p["doubloons"], p["victory_points"], p["combat_points"])
    ev = _play(state, f"cc{teller}")
    assert state["discard"][-1] == top and any(e.kind == "reveal" and e.reveals for e in ev)
    got = U.CARD[teller]["effects"][0]["by_object"][C.CARD[top]["object"]]
    if "explore" in got:
        assert state["stack"][-1]["kind"] == "explore"
    else:
        assert (p["doubloons"], p["victory_points"], p["combat_points"]) == (before[0] + got.get("d", 0), before[1]
                                                                             + got.get("vp", 0),
                                              min(C.COMBAT_MAX, before[2] + got.get("cp", 0)))
    combat = next(f for f in reversed(state["stack"]) if f["kind"] == "combat")
    assert combat["data"]["value"] == 2 and f"c{teller}" in combat["data"]["used"]  # value 3 paid, once


def test_it_reveals_for_the_fortune_teller_against_a_nation_in_the_liberation() -> None:
    teller = _id("Fortune Teller")
    state = _started(mode="79")
    p = state["seats"][0]
    p["display"] = [teller]
    _on(state, frame("liberation", 0, nation="spain", value=4, used=[], token="T1"))
    assert "reveal the top project card" in _labels(state)[f"cc{teller}"]
    top = state["deck"][-1]
    _play(state, f"cc{teller}")
    assert state["discard"][-1] == top


# ---- the liberation symbol: a card's immediate liberation -----------------------------------------

def test_it_deals_the_cards_with_the_liberation_symbol_and_liberates_when_bought() -> None:
    camp, maroon = _id("Rebel Camp"), _id("Maroon Leader")
    assert {camp, maroon} <= {int(c["id"]) for c in U.PLAYABLE_CARDS}
    assert C.effect_text(U.CARD[camp]["effects"][0]) == ("now: remove a marker from a village of your choice (to "
                                                          "your resistance tile if you can, else out of the game), "
                                                          "and 2 VP")
    state = _village(hand=(camp, 1, 7))
    p = state["seats"][0]
    state["markers"] = {"2": "england", "3": "france", "14": "spain"}  # 14 Cartagena is a city
    vp = p["victory_points"]
    _play(state, f"b{camp}")
    assert state["stack"][-1]["kind"] == "libvillage" and sorted(_labels(state)) [:2] == ["l2", "l3"]
    assert "l14" not in _labels(state)
    _play(state, "l2")
    assert "2" not in state["markers"] and p["victory_points"] == vp + 2
    assert state["stack"][-1]["kind"] == "resist"
    _play(state, "r1")
    assert p["resist"][0] == "england" and p.get("liberated", 0) == 1  # Fighting Spirit counts it


def test_it_pays_the_gravedigger_for_a_cards_liberation() -> None:
    maroon, digger = _id("Maroon Leader"), _id("Gravedigger")
    state = _village(hand=(maroon, 1, 7))
    p = state["seats"][0]
    p["display"] = [digger]
    state["markers"] = {"3": "france"}
    vp = p["victory_points"]
    _play(state, f"b{maroon}")  # (one village holds a marker: liberated without a question)
    assert "3" not in state["markers"]
    while state["stack"][-1]["kind"] in ("removed", "resist"):
        _play(state, "r0" if state["stack"][-1]["kind"] == "resist" else RULES.options(state, 0)[0].code)
    assert p["victory_points"] == vp + 2  # the Gravedigger's 2 VP (the marker left the game: no space's reward)


# ---- the requirement fields ------------------------------------------------------------------------

def test_it_asks_the_goods_a_card_costs_besides_its_doubloons() -> None:
    broker = _id("Sugar Broker")  # 3 doubloons + a sugar
    none = _village(hand=(broker, 1, 7))
    assert f"b{broker}" not in _labels(none)  # no sugar card in hand: not buyable
    one = _village(hand=(broker, 2, 7))  # 2 Pious Carpenter: the one sugar
    p = one["seats"][0]
    assert _labels(one)[f"b{broker}"].startswith("buy Sugar Broker (3 d + sugar)")
    d = p["doubloons"]
    _play(one, f"b{broker}")
    assert p["doubloons"] == d - 3 and 2 in one["discard"] and 2 not in p["hand"] and broker in p["display"]
    two = _village(hand=(broker, 2, 14, 7))  # two sugar cards: which one pays, asked
    _play(two, f"b{broker}")
    assert two["stack"][-1]["kind"] == "costgoods"
    labels = _labels(two)
    assert labels["y2"] == "pay Pious Carpenter (sugar) for Sugar Broker" and "y14" in labels
    _play(two, "y14")
    assert two["seats"][0]["hand"] == [2, 7] and 14 in two["discard"]


def test_it_marks_a_nation_with_a_figure_and_pays_for_every_fight_for_it() -> None:
    purser = _id("Crown Purser")
    state = _village(hand=(purser, 1, 7))
    p = state["seats"][0]
    fig, figs = p["figures"], p["figures_owned"]
    _play(state, f"b{purser}")
    assert state["stack"][-1]["kind"] == "marknation" and sorted(_labels(state)) == ["me", "mf", "ms"]
    _play(state, "ms")
    # placed, owned
    assert p["marked"] == {str(purser): "spain"} and (p["figures"], p["figures_owned"]) == (fig - 1, figs)
    d = p["doubloons"]
    _on(state, frame("fight", 1, token="T1", ask=True))  # Bob fights for Spain: Ana's 2 doubloons
    _play(state, "fs", seat=1)
    assert p["doubloons"] == d + 2
    _on(state, frame("fight", 1, token="T1", ask=True))  # for England: nothing
    _play(state, "fe", seat=1)
    assert p["doubloons"] == d + 2
    state["markers"]["14"] = "spain"
    _on(state, frame("fight", 2, token="T3", ask=True))  # Carla against Spain (78): nothing
    _play(state, "as", seat=2)
    assert p["doubloons"] == d + 2
    no_fig = _village(hand=(purser, 1, 7))
    no_fig["seats"][0]["figures"] = 0
    assert f"b{purser}" not in _labels(no_fig)  # the figure is a requirement


def test_it_draws_two_tokens_keeps_one_and_hides_the_other_for_token_choice() -> None:
    monkey = _id("Powder Monkey")
    state = _village(hand=(monkey, 1, 7))
    p = state["seats"][0]
    fig = p["figures"]
    _play(state, f"b{monkey}")
    assert p["figures"] == fig - 1 and monkey in p["display"]  # a figure beside the combat tokens
    _on(state, frame("pile", 0))
    top2 = state["piles"][1][-2:]
    ev = _play(state, "t2")
    assert state["stack"][-1]["kind"] == "tokenpick"
    drawn = state["stack"][-1]["data"]["tokens"]
    assert sorted(drawn) == sorted(top2)
    told = [e for e in ev if e.kind == "tokens_drawn"]
    assert told and told[0].to == (0,) and all(t in told[0].text for t in drawn)
    public = [e for e in ev if e.to is None]
    assert not any(t in e.text for e in public for t in drawn)  # the others learn only that two were drawn
    assert not any(t in str(RULES.view(state, 1)) for t in drawn if t not in str(RULES.view(state, 1).get("piles")))
    keep, other = drawn
    assert set(_labels(state)) == {f"k{keep}p1", f"k{keep}p2", f"k{other}p1", f"k{other}p2"}
    bottom = len(state["piles"][0])
    _play(state, f"k{keep}p1")
    assert state["piles"][0][0] == other and len(state["piles"][0]) == bottom + 1  # the bottom of pile 1
    assert state["stack"][-1]["kind"] == "fight" and state["stack"][-1]["data"]["token"] == keep


def test_it_resamples_the_drawn_tokens_for_the_other_seats_only() -> None:
    from engine.rng import Rng, seed_to_state

    monkey = _id("Powder Monkey")
    state = _started(mode="78")
    state["seats"][0]["display"] = [monkey]
    _on(state, frame("pile", 0))
    _play(state, "t1")
    drawn = state["stack"][-1]["data"]["tokens"]
    mine = RULES.resample_hidden(state, 0, Rng({"rng": seed_to_state("r")}))
    assert mine["stack"][-1]["data"]["tokens"] == drawn  # the drawer's own
    changed = 0
    for i in range(12):
        other = RULES.resample_hidden(state, 1, Rng({"rng": seed_to_state(f"r{i}")}))
        got = other["stack"][-1]["data"]["tokens"]
        pool = sorted([*other["piles"][0], *other["piles"][1], *got])
        assert pool == sorted([*state["piles"][0], *state["piles"][1], *drawn])
        assert [len(x) for x in other["piles"]] == [len(x) for x in state["piles"]]
        changed += got != drawn
    assert changed


# ---- income_when ---------------------------------------------------------------------------------

def test_it_raises_the_vp_income_once_when_the_fifth_combat_token_is_taken() -> None:
    veteran = _id("War Veteran")
    state = _started(mode="78")
    p = state["seats"][0]
    p["display"], p["tokens"], p["income_victory_points"] = [veteran], 4, 0
    _on(state, frame("combat", 0, nation="spain", value=0, used=[], token="T1"))
    ev = _play(state, "cend")
    assert p["tokens"] == 5 and p["income_victory_points"] == 5 and any(e.kind == "income_when" for e in ev)
    _on(state, frame("combat", 0, nation="spain", value=0, used=[], token="T2"))
    _play(state, "cend")
    assert p["tokens"] == 6 and p["income_victory_points"] == 5  # once


def test_it_pays_income_when_at_once_if_the_condition_holds_when_bought() -> None:
    guide = _id("Jungle Guide")
    state = _village(hand=(guide, 1, 7))
    p = state["seats"][0]
    p["explorer"], p["income_victory_points"] = 20, 0  # past the green barrier (19)
    _play(state, f"b{guide}")
    assert p["income_victory_points"] == 5 and p["when_paid"] == [guide]
    early = _village(hand=(guide, 1, 7))
    q = early["seats"][0]
    q["explorer"], q["income_victory_points"] = 3, 0
    _play(early, f"b{guide}")
    assert q["income_victory_points"] == 0  # not yet: it waits for the barrier
    q["explorer"] = 19
    _on(early, frame("free", 0))
    _play(early, "end")
    assert q["income_victory_points"] == 5


def test_it_counts_ship_upgrades_for_the_master_shipwright() -> None:
    wright = _id("Master Shipwright")
    state = _started(mode="78")
    p = state["seats"][0]
    p["display"], p["income_victory_points"] = [wright], 0
    p["areas"] = ["U1", "U2", "U3", "U4"]
    _on(state, frame("free", 0))
    _play(state, "end")
    assert p["income_victory_points"] == 0
    p["areas"] = [*p["areas"], "U5"]
    _on(state, frame("free", 0))
    _play(state, "end")
    assert p["income_victory_points"] == 3


# ---- village_variety, empty_village_d -------------------------------------------------------------

def test_it_scores_the_village_elder_for_different_village_actions_at_the_end_of_the_main_action() -> None:
    elder = _id("Village Elder")
    state = _started(mode="78", at="6", hand=(elder, 1, 7))
    p = state["seats"][0]
    _on(state, frame("free", 0), frame("main", 0, spent=7))  # three village actions
    vp = p["victory_points"]
    _play(state, f"b{elder}")  # bought by a village action: one other is enough
    _play(state, "vd")
    _play(state, "done")
    assert p["victory_points"] == vp
    _play(state, "end")
    assert p["victory_points"] == vp + 2 and not p.get("villages")
    again = _started(mode="78", at="6", hand=(1, 7), d=20)
    q = again["seats"][0]
    q["display"] = [elder, _id("Hidden Cove")]
    _on(again, frame("free", 0), frame("main", 0, spent=7))
    vp = q["victory_points"]
    _play(again, "vd")
    _play(again, f"v{_id('Hidden Cove')}")
    _play(again, "b1")
    _play(again, "end")
    assert q["victory_points"] == vp + 4  # three different: 4 VP


def test_it_pays_the_coastal_pilot_for_each_movement_point_to_an_empty_village() -> None:
    pilot = _id("Coastal Pilot")
    state = _started(mode="78", at="H")
    p = state["seats"][0]
    p["display"] = [pilot]
    state["markers"].pop("6", None)
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    steps = int(next(o.label for o in RULES.options(state, 0) if o.code == "s6").split()[1])
    d = p["doubloons"]
    _play(state, "s6")
    assert p["doubloons"] == d + min(steps, 5)
    held = _started(mode="78", at="H")
    held["seats"][0]["display"] = [pilot]
    held["markers"]["6"] = "spain"
    _on(held, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    d = held["seats"][0]["doubloons"]
    _play(held, "s6")
    assert held["seats"][0]["doubloons"] == d  # a marker there: nothing


# ---- a whole game with the cards in play, under the conformance checker ------------------------------

def test_it_passes_the_conformance_checker_with_every_permanent_card_in_play(monkeypatch: Any) -> None:
    """Every player starts with the Powder Monkey (two tokens, one hidden), the Crown Purser (its nation
    marked), the War Veteran, the Village Elder and the Coastal Pilot in the display: the checker
    resamples what each seat may not know at every step (the drawn tokens among it), replays the game
    from its seed and moves, and checks every option and event."""
    from engine.testing import run_game

    names = ("Powder Monkey", "Crown Purser", "War Veteran", "Village Elder", "Coastal Pilot")
    cards = [_id(n) for n in names]
    setup = type(RULES).setup

    def with_cards(rules: Any, players: Any, options: Any, seed: Any) -> State:
        state: State = setup(rules, players, options, seed)
        state["deck"] = [c for c in state["deck"] if c not in cards]
        for i, p in enumerate(state["seats"]):
            p["display"] = [*p["display"], *cards]
            p["marked"] = {str(_id("Crown Purser")): C.NATIONS[i % 3]}
        return state

    # the choices of two drawn tokens the checker saw (read through the rules object's options, not by
    # patching card_permanents.draw_tokens: compiled, combat calls it directly)
    drawn: set[tuple[int, tuple[str, ...]]] = set()
    options = type(RULES).options

    def seen(rules: Any, state: State, seat: int) -> Any:
        top = state["stack"][-1] if state["stack"] else None
        if top is not None and top["kind"] == "tokenpick" and top["seat"] == seat:
            drawn.add((int(state["turns"]), tuple(top["data"]["tokens"])))
        return options(rules, state, seat)

    monkeypatch.setattr(type(RULES), "setup", with_cards)
    monkeypatch.setattr(type(RULES), "options", seen)
    report = run_game(RULES, 2, {"mode": "78"}, "cards-conformance")
    assert report.finished == 1 and report.resamples_that_changed > 0
    assert len(drawn) >= 3  # combats begun with two tokens drawn (and their choices checked)


# ---- wild_card -------------------------------------------------------------------------------------

def test_it_delivers_with_the_quartermasters_mate_from_the_display_as_any_good() -> None:
    mate = _id("Quartermaster's Mate")
    state = _started(mode="78", at="14", hand=(1, 8))  # Cartagena takes corn and sugar: no such card in hand
    p = state["seats"][0]
    p["display"] = [mate]
    _on(state, frame("main", 0, spent=3))
    labels = _labels(state)
    assert "dcorn" in labels and "Quartermaster's Mate from the display" in labels["dcorn"]
    _play(state, "dcorn")
    assert mate not in p["display"] and mate in state["discard"] and p["hand"] == [1, 8]
    assert state["market"]["14"] == [0]  # delivered: a disc on the market


def test_it_pays_a_quest_with_the_wild_card_only_when_the_hand_cannot() -> None:
    mate = _id("Quartermaster's Mate")
    state = _started(mode="78", hand=(1, 8, 24))
    p = state["seats"][0]
    p["display"] = [mate]
    _on(state, frame("pay", 0, what="quest", quest="Q2"))  # a corn: only the wild card pays it
    assert _labels(state)[f"y{mate}"] == ("pay quest Q2 with Quartermaster's Mate (from the display, as any good "
                                          "or object)")
    _play(state, f"y{mate}")
    assert mate not in p["display"] and p["quests"] == 1 and p["hand"] == [1, 8, 24]
    tobacco = _started(mode="78", hand=(1, 8, 24))
    q = tobacco["seats"][0]
    q["display"] = [mate]
    _on(tobacco, frame("pay", 0, what="quest", quest="Q1"))  # a tobacco: the hand's first, the wild card last
    codes = [o.code for o in RULES.options(tobacco, 0)]
    assert codes[-1] == f"y{mate}" and {"y8", "y24"} <= set(codes)


def test_it_uses_the_wild_card_in_a_trade_only_beyond_the_hands_goods() -> None:
    mate = _id("Quartermaster's Mate")
    state = _started(mode="78", hand=(1, 8, 24))  # two tobacco
    p = state["seats"][0]
    p["display"] = [mate]
    _on(state, frame("tradeany", 0, good="tobacco", gain={"d": 2}, source="cards"))
    assert [o.code for o in RULES.options(state, 0)][:4] == ["n3", "n2", "n1", "n0"]  # the wild card: a third
    _play(state, "n2")
    assert mate in p["display"] and p["hand"] == [1]  # two: the hand's tobacco, the wild card kept
    assert C.effect_text(U.CARD[mate]["effects"][0]) == ("from now on, discard this card instead of paying one "
                                                          "good or object of your choice")


def _not_sold_and_told_why(state: State, cid: int, english: str, portuguese: str) -> None:
    """The Rebel Chronicler (card ``cid``, in Ana's hand) is not offered, and a player who asks for it is told
    why: ``english``; named in Portuguese, the name its mails show, the same reason in Portuguese."""
    assert f"b{cid}" not in _labels(state)
    with pytest.raises(IllegalMove) as info:
        RULES.parse("buy rebel chronicler", state, 0)
    assert english in info.value.message, info.value.message
    with i18n.language("pt"), pytest.raises(IllegalMove) as info:
        RULES.parse("comprar Cronista Rebelde", state, 0)
    assert portuguese in info.value.message, info.value.message


def test_the_rebel_chronicler_is_sold_before_the_last_round_at_13_with_no_barrier_to_be_past() -> None:
    # substitute numbers of #20 (card 241): bought in the last turns its 3 VP per synergy token paid off too well
    # (card 237), at mid-game for 10 and 12 doubloons past the blue barrier too (cards 238, 239, sold before the
    # last round), and sold only in rounds 1 and 2 nobody bought it (card 240): cost 13, 0 VP, a figure, sold
    # before the last round (``needs``' before_last_round), to an explorer anywhere
    cid = _id("Rebel Chronicler")
    assert cid == 241 and U.CARD[cid]["needs"] == {"before_last_round": True} and U.CARD[cid]["figure"]
    assert (U.CARD[cid]["cost"], U.CARD[cid]["vp"]) == (13, 0)
    state = _village(hand=(cid, 7, 8, 24))
    p = state["seats"][0]
    p["explorer"], p["synergy"] = 0, ["anchor", "cross"]  # (the explorer at the track's start)
    state["round"] = state["rounds"]  # the last round: not sold, and a player who asks is told why
    state["revision"] += 1
    assert state["rounds"] == 4
    _not_sold_and_told_why(state, cid, "Rebel Chronicler is sold only before the last round",
                           "Cronista Rebelde só se vende antes da última rodada")
    assert "cost 13 d + return a figure (before the last round):" in C.card_text(cid)
    state["round"] = 3
    p["doubloons"] = 12  # (a doubloon short: its price said, in either language)
    state["revision"] += 1
    _not_sold_and_told_why(state, cid, "Rebel Chronicler costs 13 doubloons and you have 12",
                           "Cronista Rebelde custa 13 dobrões e você tem 12")
    p["doubloons"] = 20
    state["revision"] += 1
    assert f"b{cid}" in _labels(state)  # (round 3, the explorer at the start: sold)
    vp, d, figs = p["victory_points"], p["doubloons"], p["figures"]
    _play(state, f"b{cid}")
    # (3 VP per synergy token now)
    assert (p["victory_points"] - vp, d - p["doubloons"]) == (3 * 2, 13) and cid in p["display"]
    assert p["figures"] == figs - 1  # (and a figure returned)


def test_the_retired_card_240_of_a_stored_game_is_sold_in_round_2_and_not_in_round_3() -> None:
    # a game set up before the fifth change deals card 240 (release row 65e19e8): its row's window, rounds 1 and
    # 2, past the blue barrier, and its price, 12, not card 241's
    assert U.CARD[240]["retired_for"] == 241 and U.CARD[240]["cost"] == 12
    assert U.CARD[240]["needs"] == {"barrier": "blue", "before_round": 3}
    blue = next(s for s, colour in C.BARRIERS.items() if colour == "blue")
    state = _village(hand=(240, 7, 8, 24))
    p = state["seats"][0]
    p["explorer"], p["synergy"], p["doubloons"] = blue - 1, ["anchor", "cross"], 20
    state["round"] = 2
    state["revision"] += 1
    assert "b240" not in _labels(state)  # (the barrier not crossed)
    p["explorer"] = blue
    for r in (3, state["rounds"]):  # round 3, not the last, and the last: not sold, and a player who asks is told why
        state["round"] = r
        state["revision"] += 1
        _not_sold_and_told_why(state, 240, "Rebel Chronicler is sold only before round 3",
                               "Cronista Rebelde só se vende antes da rodada 3")
    assert "(explorer past the blue barrier, before round 3)" in C.card_text(240)
    state["round"] = 2
    state["revision"] += 1
    assert "b240" in _labels(state)
    vp, d = p["victory_points"], p["doubloons"]
    _play(state, "b240")
    assert (p["victory_points"] - vp, d - p["doubloons"]) == (3 * 2, 12) and 240 in p["display"]


def test_the_retired_card_239_of_a_stored_game_is_still_sold_in_round_3_and_not_in_the_last() -> None:
    # a game set up before the fourth change deals card 239 (release row 9fa6890): its row's window, the
    # last round, at cost 12
    assert U.CARD[239]["retired_for"] == 240 and U.CARD[239]["cost"] == 12
    assert U.CARD[239]["needs"] == {"barrier": "blue", "before_last_round": True}
    blue = next(s for s, colour in C.BARRIERS.items() if colour == "blue")
    state = _village(hand=(239, 7, 8, 24))
    p = state["seats"][0]
    p["explorer"], p["synergy"], p["doubloons"] = blue, ["anchor", "cross"], 20
    state["round"] = 3
    state["revision"] += 1
    assert state["rounds"] == 4 and "b239" in _labels(state)
    assert "before the last round" in C.card_text(239)
    state["round"] = 4
    state["revision"] += 1
    _not_sold_and_told_why(state, 239, "Rebel Chronicler is sold only before the last round",
                           "Cronista Rebelde só se vende antes da última rodada")


def test_a_cards_words_say_its_buying_window_with_or_without_a_barrier(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the card format's window is the row's: content.sold_before; a row may hold a window and no barrier)
    monkeypatch.setitem(U.CARD[241], "needs", {"before_round": 2})
    assert "cost 13 d + return a figure (before round 2):" in C.card_text(241)
    monkeypatch.setitem(U.CARD[241], "needs", {"barrier": "red"})
    assert "(explorer past the red barrier):" in C.card_text(241)
