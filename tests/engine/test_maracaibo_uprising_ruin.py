"""Maracaibo: The Uprising, the ruin L31 and its track L32 (ruin.py; docs/rules/maracaibo-uprising.md, "New legacy
tiles"): the figure placed when the explorer passes the ruin, the split moves, the spaces' rewards, the order of
arrival; by hand and in bot games."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.games.maracaibo import RULES
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.bot import choose as bot
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _legacy_board, _on, _started

State = dict[str, Any]


def _exploring(n: int, explorer: int, ruin: dict[str, int] | None = None) -> State:
    """Scenario 79 with the ruin; Ana's explorer on ``explorer``, explores ``n``; ``ruin``: seat -> space."""
    state = _legacy_board(_started(mode="79"), "L31", "L32")
    state["seats"][0]["explorer"] = explorer
    if ruin is not None:
        state["legacy_board"] = {**state["legacy_board"], "L32": dict(ruin), "since": dict.fromkeys(ruin, -1)}
    _on(state, frame("main", 0, spent=1), frame("explore", 0, n=n))
    return state


def _codes(state: State) -> set[str]:
    return {o.code for o in RULES.options(state, 0) if not o.code.startswith(("p", "k"))}


def test_it_puts_a_figure_on_the_ruin_track_when_the_explorer_passes_the_ruin() -> None:
    state = _exploring(3, 10)
    p = state["seats"][0]
    p["figures"] = 2
    RULES.apply(state, 0, {"code": "e11"})  # up to 11: not past the ruin (after space 11)
    assert state["legacy_board"]["L32"] == {} and p["figures"] == 2
    state = _exploring(3, 10)
    p = state["seats"][0]
    p["figures"] = 2
    events = RULES.apply(state, 0, {"code": "e12"})
    assert state["legacy_board"]["L32"] == {"0": 0} and p["figures"] == 1 and any(e.kind == "ruin" for e in events)
    assert state["legacy_board"]["since"] == {"0": state["turns"]}
    # not this turn: "de sua próxima curva em diante" (A19)
    state["stack"] = [frame("explore", 0, n=2)]
    assert not any("r" in c for c in _codes(state))


def test_it_places_no_figure_later_when_the_supply_was_empty() -> None:
    state = _exploring(3, 10)
    state["seats"][0]["figures"] = 0
    RULES.apply(state, 0, {"code": "e12"})
    assert state["legacy_board"]["L32"] == {}
    state["seats"][0]["figures"] = 3
    state["stack"] = [frame("explore", 0, n=3)]
    RULES.apply(state, 0, {"code": "e15"})
    assert state["legacy_board"]["L32"] == {}  # past the ruin already: never later


def test_it_splits_explorer_moves_with_the_ruin_figure_skipping_the_others_and_paying_both() -> None:
    state = _exploring(3, 13, {"0": 0, "1": 1})
    codes = _codes(state)
    # Bruno's figure on 1 is skipped: Ana's figure reaches 2, 3, 4 with 1, 2, 3 spaces
    assert {"r2", "r3", "r4", "e14r2", "e14r3", "e15r2"} <= codes and "r1" not in codes and "r5" not in codes
    p = state["seats"][0]
    p["doubloons"], p["victory_points"] = 0, 0
    RULES.apply(state, 0, {"code": "e14r2"})
    assert p["explorer"] == 14 and state["legacy_board"]["L32"]["0"] == 2
    assert p["doubloons"] >= 5  # space 2: 5 doubloons (and space 14's reward)


def test_it_rewards_spaces_1_and_3_only_for_the_objects_shown() -> None:
    state = _exploring(1, 13, {"0": 0})
    p = state["seats"][0]
    p["hand"] = [7, 24]  # Bold Merchant (book), Old Scout (herbs): space 1 asks a book
    top = state["deck"][-1]
    RULES.apply(state, 0, {"code": "r1"})
    assert state["stack"][-1]["kind"] == "ruinpay" and _codes(state) == {"y7", "no"}
    RULES.apply(state, 0, {"code": "y7"})
    assert p["hand"] == [24] and state["discard"][-2:] == [7, top]  # paid, then the revealed card discarded
    poor = _exploring(1, 13, {"0": 2})
    poor["seats"][0]["hand"] = [7, 24]  # no spyglass for space 3: it gives nothing, and nothing is asked
    RULES.apply(poor, 0, {"code": "r3"})
    assert poor["legacy_board"]["L32"]["0"] == 3 and poor["stack"][-1]["kind"] != "ruinpay"


def test_it_scores_the_ruin_tracks_end_by_order_of_arrival() -> None:
    vps = U.LEGACY["L32"]["end_vp"]
    state = _exploring(1, 13, {"0": 4, "1": 5})
    state["legacy_board"] = {**state["legacy_board"], "order": [1]}
    p = state["seats"][0]
    p["victory_points"] = 0
    assert "r5" in _codes(state)  # the end is never skipped, held or not
    RULES.apply(state, 0, {"code": "r5"})
    assert p["victory_points"] == vps[1] and state["legacy_board"]["order"] == [1, 0]
    state["stack"] = [frame("explore", 0, n=2)]
    assert not any("r" in c for c in _codes(state))  # the figure stays there


def test_the_bot_moves_its_ruin_figure_in_its_games(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(U.SCENARIOS["79"], "legacy", ["L1", "L30", "L31"])
    used: Counter[str] = Counter()
    for seed in range(4):
        state = RULES.setup(player_names(3), {"mode": "79"}, f"ruin-{seed}")
        rnd = random.Random(seed)
        while pending := RULES.pending(state):
            seat = pending[0]
            kind = state["stack"][-1]["kind"] if state["stack"] else ""
            pick = bot(state, seat, RULES.options(state, seat), rnd)
            if kind == "explore" and "r" in pick.code:
                used["ruin move"] += 1
            for e in RULES.apply(state, seat, pick.move):
                used[e.kind] += 1
        assert RULES.outcome(state) is not None
    assert used["ruin"] and used["ruin move"] and used["ruin_move"], used
