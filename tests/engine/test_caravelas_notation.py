"""Caravelas II notation: what a player types in a mail reply, forgiving, with helpful refusals."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalMove, Malformed
from engine.games.caravelas import RULES
from engine.notation import match_option
from tests.engine.test_caravelas_rules import game, play, put, rig_die


def parsed(text: str, state: dict, seat: int = 0) -> dict:
    return RULES.parse(text, state, seat)


@pytest.mark.parametrize("text", [
    "move 3 to acores", "card 3 to acores", "MOVE 3 TO AÇORES", "move three to the azores"[:-11] + " azores",
    "3 to acores", "move 3 acores", "play 3 to Açores", "m 3 aco", "move 3 to Azores", "3acores", "mover 3 para açores",
])
def test_it_reads_a_card_move_many_ways(text: str) -> None:
    state = put(game(), 0, hand=[2, 3, 3, 5])
    assert parsed(text, state) == {"act": "move", "card": 3, "to": "acores"}


def test_it_reads_the_examples_of_the_issue() -> None:
    state = put(game(), 0, at="cabo-verde", hand=[2, 4])
    assert parsed("move 2 to guine", state) == {"act": "move", "card": 2, "to": "guine"}
    state = put(game(), 0, at="s7", hand=[2])
    assert parsed("card 2 to madeira", state) == {"act": "move", "card": 2, "to": "madeira"}


def test_it_takes_a_destination_alone_when_one_card_reaches_it() -> None:
    state = put(game(), 0, hand=[1, 3])
    assert parsed("porto santo", state) == {"act": "move", "card": 3, "to": "porto-santo"}
    assert parsed("to canarias", state) == {"act": "move", "card": 3, "to": "canarias"}


def test_it_asks_which_card_when_several_reach_the_destination() -> None:
    state = put(game(), 0, at="arguim", hand=[2, 4])
    with pytest.raises(Malformed, match="ambiguous: it fits several moves: move 2 to Guiné; move 4 to Guiné"):
        parsed("guine", state)  # straight down, or round through Cabo Verde


def test_it_reads_sea_circles_and_multi_word_places() -> None:
    state = put(game(), 0, at="arguim", hand=[1, 2])
    assert parsed("move 1 to s15", state)["to"] == "s15"
    assert parsed("move 2 to cabo verde", state)["to"] == "cabo-verde"
    assert parsed("move 2 to Cape Verde", state)["to"] == "cabo-verde"


def test_it_reads_the_cape_by_any_of_its_names() -> None:
    state = put(game(), 0, at="s25", hand=[2])
    for text in ("move 2 to cabo", "move 2 to cape of good hope", "move 2 to Boa Esperança", "2 to good hope"):
        assert parsed(text, state) == {"act": "move", "card": 2, "to": "cabo"}


def test_it_explains_a_move_it_cannot_take() -> None:
    state = put(game(), 0, hand=[1, 3])
    with pytest.raises(IllegalMove, match="no 5 card; your movement cards are 1, 3"):
        parsed("move 5 to acores", state)
    with pytest.raises(Malformed, match=r"do not know the word .atlantis."):
        parsed("move 3 to atlantis", state)
    with pytest.raises(IllegalMove, match="Guiné cannot be reached with the 3 from Lisboa") as exc:
        parsed("move 3 to guine", state)
    assert "Açores" in exc.value.message and exc.value.allowed
    with pytest.raises(Malformed, match="ambiguous: it fits several moves: move 3 to Açores; move 3 to Porto Santo"):
        parsed("move 3", state)


def test_it_lists_the_choices_when_nothing_is_understood() -> None:
    state = put(game(), 0, hand=[1, 3])
    with pytest.raises(Malformed) as exc:
        parsed("hoist the mainsail", state)
    assert "3acores: move 3 to Açores" in exc.value.allowed
    with pytest.raises(Malformed):
        parsed("", state)


def test_it_reads_draw_keep_and_the_card_names_drawn() -> None:
    state = put(game(), 0, disc=["guine"])
    assert parsed("draw", state) == {"act": "draw"}
    assert parsed("DRAW", state) == {"act": "draw"}
    play(state, 0, "draw")
    drawn = state["stack"][-1]["drawn"]
    names = {"porto-santo": "porto santo", "sao-tome": "São Tomé", "cabo-verde": "cabo verde"}
    a, b = drawn[0], drawn[2]
    text = f"keep {names.get(a, a)}, {names.get(b, b)}"
    assert parsed(text, state) == {"act": "keep", "cards": [a, b]}
    assert parsed(f"keep {names.get(b, b)} and {names.get(a, a)}", state) == {"act": "keep", "cards": [a, b]}
    assert parsed("keep 1 3", state) == {"act": "keep", "cards": [a, b]}
    assert parsed("k13", state) == {"act": "keep", "cards": [a, b]}
    with pytest.raises(IllegalMove, match="at most 3 of the cards you drew"):
        parsed("keep all", state)
    with pytest.raises(IllegalMove, match="no card 7"):
        parsed("keep 7", state)


def test_it_reads_the_examples_keep_guine_malaca() -> None:
    state = put(game(), 0, disc=[])
    for c in ("guine", "malaca"):
        for f in state["fleets"]:
            if c in f["disc"]:
                f["disc"].remove(c)
                state["dpile"].append(c)
        state["dpile"].remove(c)
    state["dpile"][1:1] = ["guine"]
    state["dpile"][3:3] = ["malaca"]
    play(state, 0, "draw")
    assert parsed("keep guine, malaca", state) == {"act": "keep", "cards": ["guine", "malaca"]}
    assert parsed("keep Malaca Guiné", state) == {"act": "keep", "cards": ["guine", "malaca"]}


def test_it_reads_sink_with_or_without_the_word_caravela() -> None:
    state = put(game(), 0, at="s25", hand=[1, 2])
    rig_die(state, 1)
    play(state, 0, "move 1 to cabo")
    assert parsed("sink 1", state) == {"act": "sink", "caravela": 1}
    assert parsed("sink caravela 3", state) == {"act": "sink", "caravela": 3}
    assert parsed("afundar caravela dois", state) == {"act": "sink", "caravela": 2}
    assert parsed("sink4", state) == {"act": "sink", "caravela": 4}
    state["fleets"][0]["sunk"] = [2]
    with pytest.raises(IllegalMove, match="caravela 2 is already sunk"):
        parsed("sink 2", state)


def test_it_reads_deliver_and_end() -> None:
    state = put(game(), 0, at="s1", hand=[1, 2], cargo=["red"])
    play(state, 0, "move 1 to lisboa")
    assert parsed("deliver", state) == {"act": "deliver"}
    assert parsed("Entregar", state) == {"act": "deliver"}
    assert parsed("end", state) == {"act": "end"}
    assert parsed("end the turn", state) == {"act": "end"}


def test_it_reads_keep_cards_and_return_cards() -> None:
    state = put(game(), 0, hand=[2, 3, 3, 5])
    play(state, 0, "end")
    assert parsed("keep cards", state) == {"act": "cards", "return": []}
    assert parsed("keep", state) == {"act": "cards", "return": []}
    assert parsed("return cards", state) == {"act": "cards", "return": [2, 3, 3, 5]}
    assert parsed("return all", state) == {"act": "cards", "return": [2, 3, 3, 5]}
    assert parsed("return 5, 3", state) == {"act": "cards", "return": [3, 5]}
    assert parsed("keep 3 3", state) == {"act": "cards", "return": [2, 5]}
    with pytest.raises(IllegalMove, match="no 4 card"):
        parsed("return 4", state)


def test_it_parses_back_every_option_code_and_label_of_real_games() -> None:
    rnd = random.Random(5)
    for n in (2, 3, 4):
        state = RULES.setup(["a", "b", "c", "d"][:n], None, f"notation-{n}")
        for _ in range(250):
            seat = RULES.pending(state)[0]
            opts = RULES.options(state, seat)
            for o in opts:
                assert RULES.parse(o.code, state, seat) == o.move
                assert RULES.parse(o.label, state, seat) == o.move
                assert RULES.parse(o.label.upper(), state, seat) == o.move
            assert len({o.code for o in opts}) == len(opts) == len({o.label for o in opts})
            RULES.apply(state, seat, RULES.bot_choice(state, seat, opts, rnd).move)
            if not RULES.pending(state):
                break


def test_it_keeps_codes_short_and_stable() -> None:
    state = put(game(), 0, hand=[1, 3])
    assert [o.code for o in RULES.options(state, 0)] == ["1s1", "1s6", "1s10", "3acores", "3porto-santo",
                                                         "3canarias", "end"]
    assert match_option("move 3 to can", RULES.options(state, 0)).code == "3canarias"
    assert parsed("3 can", state) == {"act": "move", "card": 3, "to": "canarias"}


def test_it_hands_out_a_fresh_move_that_the_caller_may_change() -> None:
    state = put(game(), 0, hand=[1, 3])
    move = parsed("end", state)
    move["act"] = "spoiled"
    move2 = parsed("3acores", state)
    move2["to"] = "spoiled"
    assert parsed("end", state) == {"act": "end"}
    assert parsed("3acores", state) == {"act": "move", "card": 3, "to": "acores"}
