"""Maracaibo: The Uprising: the bot's values of the home port it keeps and of Turncoat's combat action
(engine/games/maracaibo/bot/uprising.py, bot/cards_ext.py; docs/rules/maracaibo-uprising.md, "Balance")."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.games.maracaibo import RULES, card_combat
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.bot import Ctx, cards_ext, choose
from engine.games.maracaibo.bot import uprising as UB
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]
TURNCOAT = next(c["id"] for c in C.CARD.values() if c["name"] == "Turncoat")


def _most_of_one_good(state: State, seat: int) -> int:
    p = state["seats"][seat]
    goods = Counter(C.CARD[c].get("good") for c in [*p["hand"], *p["setup"]["dealt"]])
    goods.pop(None, None)
    return max(goods.values())


def _play_out(state: State, seed: int) -> State:
    rnd = random.Random(f"{seed}-bot")
    while pending := RULES.pending(state):
        seat = pending[0]
        RULES.apply(state, seat, choose(state, seat, RULES.options(state, seat), rnd).move)
    return state


def test_it_keeps_porto_when_its_cards_pay_one_good_five_times_in_79() -> None:
    # (in 78 Porto's measured gain is an average port's: with the same cards it ties Cayman Islands there)
    # (a game set up before Genova was left out with Liberation, port_pool "all": the same deal as then)
    state = RULES.setup(player_names(3), {"mode": "79", "port_pool": "all"}, 1)
    dealt = state["seats"][1]["setup"]["ports"]
    assert sorted(dealt) == ["HP11", "HP14", "HP3"]  # Porto, Cayman Islands, Nassau
    assert _most_of_one_good(state, 1) == 5  # an identical good to spare after most deliveries
    ctx = Ctx(state, 1)
    values = {pid: ctx.port_value(pid) for pid in dealt}
    assert max(values, key=values.__getitem__) == "HP14"
    for n in range(5):  # whatever the bot's noise
        assert choose(state, 1, RULES.options(state, 1), random.Random(n)).code == "hHP14"
    _play_out(state, 1)  # the whole game: seat 1 still has Porto at the end
    assert state["seats"][1]["port"] == "HP14"


def test_it_leaves_porto_for_a_port_worth_more_when_fewer_of_its_cards_pay_one_good() -> None:
    state = RULES.setup(player_names(3), {"mode": "78"}, 3)
    dealt = state["seats"][2]["setup"]["ports"]
    assert sorted(dealt) == ["HP14", "HP4", "HP9"] and _most_of_one_good(state, 2) == 4
    ctx = Ctx(state, 2)
    assert ctx.port_value("HP14") < ctx.port_value("HP4")  # Genova
    assert choose(state, 2, RULES.options(state, 2), random.Random(0)).code == "hHP4"


def test_it_values_porto_less_where_combat_points_only_top_up_a_fight_for_a_nation() -> None:
    state = RULES.setup(player_names(3), {"mode": "78"}, 1)
    ctx = Ctx(state, 1)
    liberating, port = ctx.porto_value(), ctx.port_value("HP14")
    state["options"] = {**state["options"], "mode": "basic"}  # (the same cards, combat points worth 0.4)
    ctx = Ctx(state, 1)
    assert ctx.porto_value() < liberating
    assert ctx.port_value("HP14") < port and ctx.port_value("HP14") < UB.PORT_BASE  # below the average port


def test_every_home_port_is_valued_from_its_measured_gain_in_each_module() -> None:
    ports = {hp["id"] for hp in U.PORTS}
    assert len(ports) == 15
    for module in ("uprising", "liberation"):
        assert set(UB.PORT_GAIN[module]) == ports  # every port measured, none left at nothing
    # (a stored game set up before Genova was left out with Liberation, port_pool "all": Genova dealt in 79)
    state = RULES.setup(player_names(3), {"mode": "79", "port_pool": "all"}, 1)
    ctx = Ctx(state, 0)
    values = {pid: ctx.port_value(pid) for pid in sorted(ports - {"HP14"})}
    assert min(values.values()) > 0
    order = sorted(values, key=lambda pid: (values[pid], pid))
    assert order == sorted(values, key=lambda pid: (UB.PORT_GAIN["liberation"][pid], pid))
    assert order[-1] == "HP4" and order[0] == "HP2"  # 79: Genova measured most, Bremen least
    assert sorted(state["seats"][0]["setup"]["ports"]) == ["HP4", "HP5", "HP7"]
    for n in range(5):  # whatever the bot's noise: Genova over Kingstown and Yaquimel
        assert choose(state, 0, RULES.options(state, 0), random.Random(n)).code == "hHP4"
    state["options"] = {**state["options"], "mode": "78"}  # the Uprising's table: Genova's gain is smaller there
    assert Ctx(state, 0).port_value("HP4") < values["HP4"]


def test_it_discards_an_identical_good_for_portos_combat_points_only_when_the_card_is_worth_less() -> None:
    state = _started(mode="79")
    p = state["seats"][0]
    p["port"], p["combat_points"] = "HP14", 0
    ctx = Ctx(state, 0)
    card = min(p["hand"], key=ctx.keep_value)
    assert ctx.again_value("no") == 0.0
    assert ctx.again_value(f"y{card}") == pytest.approx(2 * ctx.cp_worth() - ctx.keep_value(card))
    p["combat_points"] = C.COMBAT_MAX  # no room for the points: the card is only lost
    assert Ctx(state, 0).again_value(f"y{card}") < 0


@pytest.mark.parametrize("mode", ["78", "79"])
def test_it_values_turncoats_combat_action_only_where_the_rules_let_it_be_used(mode: str) -> None:
    state = _started(mode=mode)
    e = next(e for e in C.CARD[TURNCOAT]["effects"] if e.get("ext") == "last_pay_influence")
    usable = card_combat.usable_in_mode(state, e)
    assert usable is (mode == "78")  # 79: influence is VP, the markers never leave 0 (A61)
    value = cards_ext.card_value(Ctx(state, 0), TURNCOAT, e)
    assert value == 0.0 if mode == "79" else value != 0.0


def test_it_never_offers_turncoat_in_the_liberation_even_with_it_on_display() -> None:
    state = _started(mode="79")
    state["seats"][0]["display"] = [TURNCOAT]
    _on(state, frame("liberation", 0, nation="spain", value=3, used=[], token="T1"))
    codes = [o.code for o in RULES.options(state, 0)]
    assert "lc10" in codes and f"cc{TURNCOAT}" not in codes


def test_it_values_the_rebel_chronicler_for_its_points_only_while_its_buying_window_is_open() -> None:
    # card 241 is sold only before the last round (#20, ``needs``' before_last_round; no barrier to be past): in
    # the last round it is worth its good or object alone to the bot (not planned, discarded first), and in round
    # 3 it is bought
    state = _started(mode="78", hand=(241, 7, 8, 24), plan=(), d=20)
    p = state["seats"][0]
    p["explorer"], p["synergy"] = 0, ["anchor", "cross", "crown", "scroll", "flag"]
    state["round"] = 3
    open_ = Ctx(state, 0)
    assert open_.buy_net(241) > open_.goods_value(241) and open_.keep_value(241) == open_.buy_net(241)
    assert any(c == 241 for _, c, _, _ in open_.buyable())
    state["round"] = 4
    state["revision"] += 1
    closed = Ctx(state, 0)
    assert closed.buy_net(241) < 0 and closed.keep_value(241) == closed.goods_value(241)
    assert not any(c == 241 for _, c, _, _ in closed.buyable())
    assert closed.keep_value(241) < open_.keep_value(241)
    _on(state, frame("main", 0, spent=4))
    p["at"] = "6"  # (a village: San Juan; the main action's village actions)
    state["round"] = 3
    state["revision"] += 1
    assert "b241" in {o.code for o in RULES.options(state, 0)}
    state["round"] = 4
    state["revision"] += 1
    assert "b241" not in {o.code for o in RULES.options(state, 0)}


@pytest.mark.parametrize("mode", ["78", "79"])
def test_it_values_the_powder_monkey_by_the_better_of_two_tokens_over_one_each_combat_to_come(mode: str) -> None:
    # #20: the Powder Monkey (token_choice, n 2) was valued at a guess and never bought; its worth is the gain of
    # keeping the better of two tokens drawn over one drawn (every token of the data as likely: the piles are
    # hidden), each token valued as the bot values the token it keeps, times the combats expected
    from itertools import combinations

    from engine.games.maracaibo.bot import cards as CV

    monkey = next(c["id"] for c in C.CARD.values() if c["name"] == "Powder Monkey")
    state = _started(mode=mode, hand=(monkey, 7, 8, 24), plan=())
    ctx = Ctx(state, 0)
    vals = [ctx.token_value(t) for t in C.TOKEN]
    pairs = list(combinations(vals, 2))
    gain = sum(max(a, b) for a, b in pairs) / len(pairs) - sum(vals) / len(vals)
    assert gain > 0.1 and ctx.token_choice_gain(2) == pytest.approx(gain)
    assert ctx.token_choice_gain(1) == 0.0
    (e,) = C.CARD[monkey]["effects"]
    assert ctx.ext_card_value(e) == pytest.approx(gain * CV.COMBATS_A_TURN * ctx.turns)
    # once it is on display, a combat to come is worth the gain more (its owner fights the more for it)
    before = ctx.fight_estimate()
    state["seats"][0]["hand"].remove(monkey)
    state["seats"][0]["display"].append(monkey)
    state["revision"] += 1
    assert Ctx(state, 0).fight_estimate() == pytest.approx(before + gain)
