"""Maretta's mail notation: what players type, forgivingly, and helpful errors."""

from __future__ import annotations

import pytest

from engine import get
from engine.errors import IllegalMove, Malformed
from tests.engine.test_maretta_rules import PINK, PURPLE, YELLOW, barrel_game, edit, play, side_a_turn, side_b_turn

R = get("maretta")


def placement_state() -> dict:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     start=PINK)
    st["players"] = ["Ana", "Bob", "Carla"]
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    return st  # Bob (seat 1) places a card on Ana's or Carla's raft


def test_it_reads_play_3_wood_in_phase_one() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    assert R.parse("play 3 wood", st, PURPLE) == {"a": "play", "c": "3wo"}
    assert R.parse("Play 3 WOOD.", st, PURPLE) == {"a": "play", "c": "3wo"}
    assert R.parse("3wood", st, PURPLE) == {"a": "play", "c": "3wo"}
    assert R.parse("three fire", st, PURPLE) == {"a": "play", "c": "3fi"}
    assert R.parse("4 fo", st, PURPLE) == {"a": "play", "c": "4fo"}
    assert R.parse("2ro", st, PURPLE) == {"a": "play", "c": "2ro"}  # the option code


@pytest.mark.parametrize("text", ["give 1 water to bob", "Give 1 Wáter to BOB", "1 water bob", "giv 1 wat to bo",
                                  "put 1 water on bob's raft", "1wa-3"])
def test_it_reads_give_1_water_to_bob(text: str) -> None:
    st = placement_state()
    st["players"] = ["Ana", "Carla", "Bob"]
    st["todo"][-1]["s"] = PURPLE  # Ana places, Bob sits at seat 2
    st["hand"][PURPLE] = ["1wa", "2wo", "5fi"]
    st["v"] += 1
    assert R.parse(text, st, PURPLE) == {"a": "give", "c": "1wa", "p": 2}


def test_it_asks_which_player_when_a_card_could_go_to_several() -> None:
    st = placement_state()
    with pytest.raises(Malformed) as err:
        R.parse("play 1 water", st, PINK)
    assert "give 1 Water to Ana" in str(err.value) and "give 1 Water to Carla" in str(err.value)
    assert R.parse("play 1 water on carla", st, PINK) == {"a": "give", "c": "1wa", "p": YELLOW}


def test_it_reads_steal_4_rope_from_carla_and_move() -> None:
    st = side_a_turn([["3fi", "4ro", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     stock=[[], [], ["4ro", "2fi"]])
    st["players"] = ["Ana", "Bob", "Carla"]
    for s, c in ((0, "3fi"), (1, "5ro"), (2, "1ro")):
        play(st, s, c)
    play(st, PURPLE, "4ro-3")
    assert R.parse("steal 4 rope from carla", st, PURPLE) == {"a": "steal", "c": "4ro", "p": YELLOW}
    assert R.parse("steal fire", st, PURPLE) == {"a": "steal", "c": "2fi", "p": YELLOW}
    assert R.parse("move", st, PURPLE) == {"a": "move"}
    assert R.parse("move 2 spaces", st, PURPLE) == {"a": "move"}


def test_it_reads_barrel_choices_by_number_and_by_what_is_shown() -> None:
    st = barrel_game("mo", up=False)
    assert R.parse("barrel 2", st, PURPLE) == {"a": "barrel", "b": 2}
    assert R.parse("b1", st, PURPLE) == {"a": "barrel", "b": 1}
    assert R.parse("take the anchor", st, PURPLE) == {"a": "barrel", "b": 2}
    assert R.parse("face down", st, PURPLE) == {"a": "barrel", "b": 1}
    assert R.parse("first barrel", st, PURPLE) == {"a": "barrel", "b": 1}


def test_it_reads_take_rope_from_carla_for_a_monkey() -> None:
    st = barrel_game("mo", stock=[[], ["3fo", "4wa"], ["5ro", "1fi"]])
    st["players"] = ["Ana", "Bob", "Carla"]
    play(st, PURPLE, "b1")
    assert R.parse("take rope from carla", st, PURPLE) == {"a": "take", "c": "5ro", "p": YELLOW}
    assert R.parse("take 4 water from bob", st, PURPLE) == {"a": "take", "c": "4wa", "p": PINK}
    with pytest.raises(Malformed, match="several"):
        R.parse("take from bob", st, PURPLE)


def test_it_reads_discard_look_and_swap() -> None:
    st = barrel_game("sh", stock=[["1fi", "2ro"], [], []])
    play(st, PURPLE, "b1")
    assert R.parse("discard 2 rope", st, PURPLE) == {"a": "discard", "c": "2ro"}
    assert R.parse("drop fire", st, PURPLE) == {"a": "discard", "c": "1fi"}
    st = barrel_game("pe")
    st["players"] = ["Ana", "Bob", "Carla"]
    play(st, PURPLE, "b1")
    assert R.parse("look at bob", st, PURPLE) == {"a": "look", "p": PINK}
    assert R.parse("pelican carla", st, PURPLE) == {"a": "look", "p": YELLOW}
    st = barrel_game("sp", pos=[4, 6, 6])
    st["players"] = ["Ana", "Bob", "Carla"]
    play(st, PURPLE, "b1")
    assert R.parse("swap with carla", st, PURPLE) == {"a": "swap", "p": YELLOW}


def test_it_reads_side_b_moves() -> None:
    st = side_b_turn([["1fo", "2wo", "3ro", "4wa"], ["5wo", "2fi", "3fi", "4fi"], ["1wa", "2fo", "5wo", "1ro"]])
    st["players"] = ["Ana", "Bob", "Carla"]
    assert R.parse("give 1 food to carla", st, PURPLE) == {"a": "give", "c": "1fo", "p": YELLOW}
    play(st, PURPLE, "1fo-3")
    play(st, PINK, "2fi-1")
    play(st, YELLOW, "1wa-2")
    assert R.parse("play 3 rope", st, PURPLE) == {"a": "play", "c": "3ro"}


def test_it_reads_the_steamship_card() -> None:
    st = side_a_turn([["ss", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    assert R.parse("play steamship", st, PURPLE) == {"a": "play", "c": "ss"}
    assert R.parse("play the steamship card", st, PURPLE) == {"a": "play", "c": "ss"}


def test_it_explains_what_it_did_not_understand_and_what_is_allowed() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    with pytest.raises(Malformed) as err:
        R.parse("hoist the mainsail", st, PURPLE)
    assert "hoist" in str(err.value) and "3wo: play 3 Wood" in err.value.allowed
    with pytest.raises(Malformed, match="empty"):
        R.parse("   ", st, PURPLE)
    with pytest.raises(IllegalMove) as err2:
        R.parse("play 5 water", st, PURPLE)
    assert not isinstance(err2.value, Malformed) and "not a legal move now" in str(err2.value)
    assert "5 Water is not a card you can use now" in str(err2.value)
    with pytest.raises(Malformed, match="several"):
        R.parse("play f", st, PURPLE)  # 3 Fire or 4 Food
    assert R.parse("play w", st, PURPLE) == {"a": "play", "c": "3wo"}  # the only wood or water in hand


def test_it_parses_every_label_and_code_back_to_its_option() -> None:
    st = placement_state()
    edit(st)
    for o in R.options(st, PINK):
        assert R.parse(o.label, st, PINK) == o.move
        assert R.parse(o.code, st, PINK) == o.move
        assert R.parse(o.label.upper(), st, PINK) == o.move
