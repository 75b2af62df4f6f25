"""Maracaibo: The Uprising's promos with the option ``promos`` (engine/games/maracaibo/promos.py;
docs/rules/maracaibo-uprising.md): Flying Dutchman a quest in the pile, Own Monument a prestige
building, each read from its data row and played through the engine."""

from __future__ import annotations

from typing import Any

import pytest

from engine.errors import SetupError
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo.board import hand_limit
from engine.games.maracaibo.scoring import final_scores
from engine.stack import frame
from engine.testing import check_conformance, player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def test_it_puts_the_promos_in_play_only_with_the_option_in_basic_78_and_79() -> None:
    for mode in ("basic", "78", "79"):
        state = RULES.setup(player_names(3), {"mode": mode, "promos": True}, f"promo-{mode}")
        quests = [*state["quest_pile"], *state["quests"].values(), *state["track_quests"].values()]
        assert "FD" in quests
        assert "OM" in [b["id"] for b in state["prestige"]] + state["prestige_box"]
        plain = RULES.setup(player_names(3), {"mode": mode}, f"promo-{mode}")
        assert "FD" not in plain["quest_pile"] and "OM" not in plain["prestige_box"]
    with pytest.raises(SetupError, match="promos"):
        RULES.setup(player_names(3), {"promos": True}, "promo-base")


def test_it_scores_8_vp_and_raises_the_hand_limit_for_the_flying_dutchman() -> None:
    state = _started(mode="78", promos=True, hand=(1, 3, 14, 8))  # spyglass (Red Gunner, Pious Gunner), sword
    p = state["seats"][0]
    assert C.QUEST["FD"]["cost"] == {"objects": ["spyglass", "sword"], "d": 2}
    state["quests"]["6"] = "FD"
    p["at"], p["doubloons"] = "6", 10
    limit, vp = hand_limit(p), p["victory_points"]
    _on(state, frame("main", 0, spent=2))
    RULES.apply(state, 0, {"code": "quest"})
    while state["stack"] and state["stack"][-1]["kind"] == "pay":
        RULES.apply(state, 0, {"code": RULES.options(state, 0)[0].code})
    # fixed: not times the compass
    assert p["victory_points"] == vp + 8 and hand_limit(p) == limit + 1 and p["doubloons"] == 8


def test_it_scores_own_monument_2_vp_per_noble_rank_for_its_investors() -> None:
    state = _started(mode="78", promos=True)
    state["prestige"] = [{"id": "OM", "up": True, "investors": [0]}]
    p = state["seats"][0]
    p["influence"] = {"france": 6, "england": 3, "spain": 1}  # ranks 2 + 1 + 0
    assert final_scores(state)[0]["prestige"] == 2 * 3
    assert C.PRESTIGE["OM"]["cost"] == 10  # substitute price


def test_it_passes_the_conformance_checker_with_the_promos() -> None:
    report = check_conformance(RULES, 3, {"mode": "78", "promos": True, "rounds": 1}, seeds=["promos-1"])
    assert report.games == report.finished == 1 and not report.errors
