"""Maracaibo's substitute data after the balance adjustments: the shapes the adjustments must keep."""

from __future__ import annotations

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo.scoring import final_scores
from engine.testing import player_names


def test_it_gives_every_combat_token_a_different_value_for_each_nation() -> None:
    assert len(C.TILES["combat"]) == 25  # the component list
    for t in C.TILES["combat"]:
        values = [t["value"][n] for n in C.NATIONS]
        assert len(set(values)) == 3, t["id"]  # the choice of nation must matter
        assert all(2 <= v <= 6 for v in values)


def test_it_scores_the_library_two_vp_for_every_three_cards_in_the_display() -> None:
    state = RULES.setup(player_names(2), {}, "library")
    state["prestige"] = [{"id": "P5", "up": True, "investors": [0, 1]}]
    state["seats"][0]["display"] = list(C.A_CARDS[:8])  # 8 cards: 2 sets of three
    state["seats"][1]["display"] = list(C.A_CARDS[8:11])  # 3 cards: 1 set
    scores = final_scores(state)
    assert scores[0]["prestige"] == 4 and scores[1]["prestige"] == 2


def test_it_keeps_every_quest_reward_worth_more_than_its_cost() -> None:
    for q in C.TILES["quests"]:
        reward = sum(q["per"].values()) + sum(q["fixed"].values())
        cost = q["cost"]
        price = len(cost.get("goods", [])) + len(cost.get("objects", [])) + cost.get("d", 0) // 2 \
            + cost.get("cp", 0) + 2 * cost.get("fig", 0)
        assert reward > price, q["id"]
