"""Maracaibo's refusals say what is wrong where the line stands (issue 21's audit).

Each line was misread or refused with a misleading reason: ``draw 2`` took a display card for a
doubloon, ``sail -1`` sailed 1, the explorer decision listed plan-card ids as spaces, ``reveal
T12`` was answered about career tasks, ``annex 12 for england`` was refused while fighting for
England, ``vd`` was "not understood" right after it was listed, ``no delivery`` was ambiguous
although the rules page calls it the city action.
"""

from __future__ import annotations

import json

import pytest

import engine
from engine.batch import Command, apply_batch
from engine.errors import IllegalMove
from engine.games.maracaibo.board import hand_limit
from tests.engine import maracaibo_scenarios as M

RULES = engine.get("maracaibo")


def refusal(scenario: str, text: str) -> str:
    state, seat = M.SCENARIOS[scenario]()
    with pytest.raises(IllegalMove) as info:
        RULES.parse(text, state, seat)
    return info.value.message


def reads(scenario: str, text: str) -> str:
    state, seat = M.SCENARIOS[scenario]()
    return str(RULES.parse(text, state, seat)["code"])


@pytest.mark.parametrize("text", ["draw 2", "draw 3", "draw up to 4", "draw card 2", "draw 2 cards"])
def test_it_never_reads_a_bare_count_as_a_paid_display_card(text: str) -> None:
    message = refusal("draw", text)
    assert "from the pile" in message and "from the display" in message  # both readings named


def test_it_draws_n_from_the_pile_on_one_line_when_all_n_are_sure() -> None:
    """Issue 21: ``draw 2 from pile`` in one mail. Each draw reveals a card, so the line is judged
    whole before the first: room in the hand and cards to draw for all of them, else refused."""
    state, seat = M.SCENARIOS["draw"]()
    hand = list(state["seats"][seat]["hand"])
    result = apply_batch(RULES, state, seat, [Command(text="draw 2 from pile")])
    assert result.refused is None and [s.move["code"] for s in result.steps] == ["pile", "pile"]
    assert all(s.commit for s in result.steps)  # each a reveal: they stand
    assert state["seats"][seat]["hand"][:len(hand)] == hand and len(state["seats"][seat]["hand"]) == len(hand) + 2

    state, seat = M.SCENARIOS["draw"]()
    room = hand_limit(state["seats"][seat]) - len(state["seats"][seat]["hand"])
    before = json.dumps(state, sort_keys=True)
    result = apply_batch(RULES, state, seat, [Command(text=f"draw {room + 1} from pile")])
    assert result.refused is not None and result.steps == ()
    assert f"room for {room} more cards" in result.refused.error.message
    assert f"at most 'draw {room} from the pile'" in result.refused.error.message
    assert json.dumps(state, sort_keys=True) == before  # nothing drawn, nothing shown
    assert reads("draw", "draw 1 from the pile") == "pile" and reads("draw", "draw 2 from the display") == "x2"
    assert reads("draw", "x3") == "x3"


def test_it_refuses_a_negative_sail() -> None:
    assert "forward" in refusal("sail", "sail -1")
    assert reads("sail", "sail 1") == "s8"


def test_it_lists_only_explorer_spaces() -> None:
    message = refusal("explore", "explore 12")
    assert "space 1, 2, 3 now" in message and "24" not in message.split("Closest")[0]


def test_it_answers_a_token_number_about_the_piles() -> None:
    message = refusal("pile", "reveal T12")
    assert "pile 1 or 2" in message and "career" not in message


def test_it_reads_the_nation_fought_for_and_refuses_another() -> None:
    assert reads("combat", "annex 12 for spain") == "cd12" and reads("combat", "annex 3 for spain") == "ca3"
    assert reads("combat-legacy", "annex 12 for england") == "cd12"
    assert "you are fighting for Spain" in refusal("combat", "annex 12 for england")


def test_it_says_why_vd_is_refused_once_the_village_actions_are_spent() -> None:
    message = refusal("free", "vd")
    assert "no village action left" in message and "not understood" not in message
    assert "after sailing to a village" in refusal("sail", "vd")


def test_it_reads_no_delivery_as_the_city_action_as_the_rules_page_says() -> None:
    assert reads("city", "no delivery") == "city" and reads("city", "don't deliver") == "city"
    assert reads("city", "skip") == "pass"
    assert "deliver which good" in refusal("city", "deliver")


def test_it_plans_and_keeps_a_dealt_card_by_its_number() -> None:
    assert reads("setup-plan", "plan 29") == "p29" and reads("setup-plan", "plan 1") == "p1"
    assert reads("setup-keep", "keep 1") == "k1"
