"""Maracaibo notation as a player types it, hidden information, and the renderings."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalMove
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.rng import Rng, seed_to_state
from engine.stack import frame
from tests.engine.test_maracaibo_rules import started


def parsed(state: dict, seat: int, line: str) -> str:
    return str(RULES.parse(line, state, seat)["code"])


def test_it_reads_sail_by_steps_and_by_place() -> None:
    state = started(3)
    assert parsed(state, 0, "sail 5") == "s5"
    assert parsed(state, 0, "Sail to 6") == "s6"
    assert parsed(state, 0, "sail to santo domingo") == "s5"
    assert parsed(state, 0, "sail to puerto") == "s4"


def test_it_reads_buy_plan_deliver_quest_and_done() -> None:
    state = started(3)
    p = state["seats"][0]
    card = p["hand"][0]
    name = C.CARD[card]["name"]
    assert parsed(state, 0, f"plan {name.lower()}") == f"p{card}"
    RULES.apply(state, 0, {"code": "s6"})
    p["doubloons"] = 99
    assert parsed(state, 0, f"buy {name}") == f"b{card}"
    assert parsed(state, 0, "pass") == "pass"
    state["stack"][-1:] = [frame("free", 0)]
    assert parsed(state, 0, "done") == "end"


def test_it_reads_fight_influence_annex_explore_career_and_draw() -> None:
    state = started(3)
    state["stack"] = [frame("fight", 0, token="T1", ask=True)]
    assert parsed(state, 0, "fight france") == "ff"
    assert parsed(state, 0, "fight eng") == "fe"
    state["stack"] = [frame("combat", 0, nation="spain", value=8, used=[], token="T1")]
    assert parsed(state, 0, "influence 2") == "ci2"
    assert parsed(state, 0, "annex 6") == "ca6"
    state["stack"] = [frame("explore", 0, n=3)]
    assert parsed(state, 0, "explore 3") == "e3"
    state["stack"] = [frame("draw", 0)]
    state["seats"][0]["hand"] = []
    assert parsed(state, 0, "draw 2 display") == "x2"
    assert parsed(state, 0, "draw pile") == "pile"
    p = state["seats"][0]
    p["quests"] = 9
    p["tokens"] = 9
    state["stack"] = [frame("free", 0)]
    task = next(o.code for o in RULES.options(state, 0) if o.code.endswith("u"))
    assert parsed(state, 0, f"career {task[1:-1]} upper") == task


@pytest.mark.parametrize("line", ["sail", "sail 5 to tortuga", "buy", "fight", "influence 9 please", "zzz"])
def test_it_refuses_a_line_it_does_not_understand_whole(line: str) -> None:
    state = started(3)
    with pytest.raises(IllegalMove):
        RULES.parse(line, state, 0)


def test_it_hides_hands_the_deck_tokens_and_face_down_buildings() -> None:
    state = started(3)
    view = RULES.view(state, 1)
    assert view["me"]["hand"] == state["seats"][1]["hand"]
    assert view["p"][0]["hand"] == len(state["seats"][0]["hand"])
    assert view["deck"] == len(state["deck"]) and view["piles"] == [13, 12]
    assert [b["id"] for b in view["prestige"]][1:] == [None, None, None]
    for trial in range(5):
        other = RULES.resample_hidden(state, 1, Rng({"rng": seed_to_state(trial)}))
        assert RULES.view(other, 1) == view


def test_it_renders_text_with_the_hand_in_words_and_an_svg() -> None:
    state = started(3)
    rnd = random.Random(3)
    for _ in range(30):
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.bot_choice(state, seat, RULES.options(state, seat), rnd).move)
    view = RULES.view(state, 0)
    text = RULES.render_text(view)
    assert "SUBSTITUTE CONTENT" in text
    for cid in state["seats"][0]["hand"]:
        assert C.card_text(cid) in text
    svg = RULES.render_svg(view)
    assert svg.startswith("<svg") and "SUBSTITUTE" in svg


@pytest.mark.slow
def test_it_reads_a_label_with_a_typo_or_a_word_left_out_as_itself_or_refuses_it() -> None:
    """Lines a hurried player makes of the options: never read as a different move."""
    from engine import notation

    rnd = random.Random(5)
    checked = 0

    def typo(w: str) -> str:
        if len(w) < 5 or not w.isalpha():
            return w
        i = rnd.randrange(1, len(w) - 1)
        return w[:i] + w[i + 1:] if rnd.random() < 0.5 else w[:i] + w[i + 1] + w[i] + w[i + 2:]

    for g in range(3):
        state = RULES.setup(["Ana", "Bruno", "Carla", "Duarte"][:2 + g], {}, f"hurried-{g}")
        for _ in range(80):
            seat = RULES.pending(state)[0]
            opts = RULES.options(state, seat)
            for o in rnd.sample(opts, min(3, len(opts))):
                words = notation.tokens(o.label.replace("(", " ").replace(")", " "))
                lines = [" ".join(typo(w) for w in words), " ".join(words[:2])]
                k = rnd.randrange(len(words))
                if words[k] not in notation.NEGATIONS:  # leaving out a "no" says the opposite
                    lines.append(" ".join(words[:k] + words[k + 1:]))
                for line in lines:
                    try:
                        got = RULES.parse(line, state, seat)
                    except IllegalMove:
                        continue
                    checked += 1
                    assert got == o.move, (line, o.label, got)
            RULES.apply(state, seat, RULES.bot_choice(state, seat, opts, rnd).move)
    assert checked > 300


def _refusal(state: dict, seat: int, line: str) -> str:
    with pytest.raises(IllegalMove) as info:
        RULES.parse(line, state, seat)
    return str(info.value)


def test_it_reads_9a_and_16a_typed_alone_where_the_options_name_them_and_says_why_not_elsewhere() -> None:
    from tests.engine import maracaibo_scenarios as S
    state, seat = S.sail_legacy()  # scenario 77, explorer on 12: 9a is three away
    assert parsed(state, seat, "9a") == parsed(state, seat, "sail 9a") == "s9a"
    assert "16a Providencia cannot be reached from 8" in _refusal(state, seat, "16a")
    state, seat = S.combat_legacy()  # scenario 77: both legacy cities may be annexed
    assert parsed(state, seat, "9a") == "ca9a" and parsed(state, seat, "16a") == "ca16a"
    assert "21a Homeward: Dry Tortugas has no flag" in _refusal(state, seat, "21a")
    state, seat = S.sail_legacy_closed()  # scenario 77, explorer on 2
    assert "9a Isla Margarita opens to you once your explorer reaches space 6 (it is on 2)" in \
        _refusal(state, seat, "sail to 9a")
    state, seat = S.sail()  # scenario 75: no legacy tile
    for line in ("9a", "sail 9a", "sail to 16a"):
        assert "is not in play in this game (it comes with legacy tile L" in _refusal(state, seat, line), line
    state, seat = S.village()
    assert "names a place (21b Homeward: Key West); places are chosen while sailing ('sail to 21b'), not" in \
        _refusal(state, seat, "21b")
    assert "9a Isla Margarita is not in play" in _refusal(state, seat, "9a")  # a place, never the number 9


def test_it_says_there_is_no_such_location_when_a_sailing_line_names_a_number_that_is_none() -> None:
    # (a play-test: 'sail to 99' was answered "'sail 99' means 99 locations ... write 'sail to 99'",
    # the very line refused)
    from tests.engine import maracaibo_scenarios as S

    state, seat = S.sail()
    for line in ("sail to 99", "Sail To 99", "to 99", "sail to location 99"):
        said = _refusal(state, seat, line)
        assert said.startswith("'" + line + "' is not a legal move now: there is no location 99 on the map. You can: "
                               "sail 1 to"), said
        assert "write 'sail to" not in said
    assert "'sail 99' means 99 locations" in _refusal(state, seat, "sail 99")  # steps, not a location: as before
    assert "no location is 6 steps ahead" not in _refusal(state, seat, "sail to 99")


def test_it_says_there_is_no_such_location_in_portuguese_too() -> None:
    from engine.i18n import language
    from tests.engine import maracaibo_scenarios as S

    state, seat = S.sail()
    with language("pt"):
        for line in ("navegar para 99", "navegar até 99"):
            assert "não há local 99 no mapa. Pode: " in _refusal(state, seat, line), line


def test_it_refuses_fight_alone_in_a_combat_rather_than_ending_the_combat() -> None:
    # (a play-test: "fight" was read as "end the combat", the one option with a word of it)
    from engine.i18n import language
    from tests.engine import maracaibo_scenarios as S

    state, seat = S.combat()
    for line in ("fight", "combat", "Fight!"):
        assert _refusal(state, seat, line) == (f"{line!r}: a combat is under way; choose what it does (an option "
                                              "below), or write 'end the combat' to end it")
    for line in ("end the combat", "end", "pass", "done", "no more combat", "end fight"):
        assert parsed(state, seat, line) == "cend", line
    with language("pt"):
        assert "há um combate em curso" in _refusal(state, seat, "lutar")
        assert parsed(state, seat, "terminar o combate") == "cend"


def test_it_asks_which_good_or_card_when_a_line_names_neither() -> None:
    # (a play-test: "discard" in a city was read as delivering sugar, the one delivery whose reading has
    # the paying card's "discard"; after Porto's delivery, as "discard no tobacco")
    from tests.engine import maracaibo_scenarios as S

    state, seat = S.city_two_corn()
    for line in ("discard", "use", "discard it"):
        assert _refusal(state, seat, line) == f"{line!r}: deliver which good? 'deliver corn' or 'deliver sugar'"
    assert parsed(state, seat, "sugar") == "dsugar" and parsed(state, seat, "deliver corn") == "dcorn"
    state, seat = S.again()
    assert _refusal(state, seat, "discard") == ("'discard': discard which card? 'discard Old Scout' or "
                                                "'discard Old Deserter'; or 'no' to discard none")
    assert parsed(state, seat, "discard old scout") == "y24"
    for line in ("no", "keep", "pass", "don't discard"):
        assert parsed(state, seat, line) == "no", line


def test_it_says_a_no_with_nothing_after_it_refuses_nothing() -> None:
    from engine.i18n import language
    from tests.engine import maracaibo_scenarios as S

    state, seat = S.city_two_corn()
    said = _refusal(state, seat, "no")
    assert said.startswith("'no' says no to nothing: a 'no' or 'not' goes before the move it refuses.") and \
        "'not'" not in said.split("refuses.")[1]
    assert parsed(state, seat, "no delivery") == "city"
    with language("pt"):
        assert _refusal(state, seat, "não").startswith("'não' não recusa nada")


@pytest.mark.parametrize(("line", "parts"), [
    ("done and draw from the pile", ["done", "draw from the pile"]),
    ("terminar e comprar do monte", ["terminar", "comprar do monte"]),
    ("keep A, B and C", ["keep A", "B", "C"]),
    ("guardar A, B e C", ["guardar A", "B", "C"]),
    # elsewhere "and" is part of one option's words
    ("take 1 doubloon and 1 combat point", ["take 1 doubloon and 1 combat point"]),
])
def test_it_splits_a_kept_list_and_an_end_then_draw_at_and(line: str, parts: list[str]) -> None:
    assert RULES.line_parts(line) == parts


def test_a_line_refused_after_its_first_part_is_said_in_the_readers_language() -> None:
    # Carla (pt) wrote "terminar e comprar do monte" and read 'in "...", after "terminar": ...' in English
    from engine import i18n
    from engine.batch import Command, apply_batch

    state = started(3)
    with i18n.language("pt"):
        result = apply_batch(RULES, state, 0, [Command(text="navegar 6, atlantis")])
    assert result.refused is not None
    why = result.refused.error.message
    assert why.startswith('em "navegar 6, atlantis", depois de "navegar 6": "atlantis": '), why


def test_end_the_combat_with_no_combat_says_there_is_none_to_end() -> None:
    # Alice's whole turn: "resistance 2", "end the combat", ...; the liberation had ended the fight by itself
    state = started(3)
    RULES.apply(state, 0, {"code": "s6"})
    with pytest.raises(IllegalMove) as refused:
        RULES.parse("end the combat", state, 0)
    assert "there is no combat to end now" in refused.value.message
