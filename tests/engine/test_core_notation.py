"""The forgiving notation helpers every game's parser builds on."""

from __future__ import annotations

import pytest

from engine.core import Option
from engine.errors import IllegalMove, Malformed
from engine.notation import fold, format_options, match_option, number, resolve, tokens


@pytest.mark.parametrize(
    ("raw", "folded"),
    [
        ("Água", "agua"),
        ("  TRÊS   Cocos ", "tres cocos"),
        ("Straße", "strasse"),
        ("Çà et là", "ca et la"),
        ("ﬁve", "five"),  # compatibility ligature
        ("", ""),
    ],
)
def test_fold(raw: str, folded: str) -> None:
    assert fold(raw) == folded


def test_tokens_drop_punctuation_but_keep_hyphens() -> None:
    assert tokens("Play 3, WOOD!") == ["play", "3", "wood"]
    assert tokens("(give) 'one' water: to Bob.") == ["give", "one", "water", "to", "bob"]
    assert tokens("steam-ship a/b") == ["steam-ship", "a/b"]
    assert tokens("   ") == []


@pytest.mark.parametrize(
    ("token", "value"),
    [
        ("3", 3), ("#3", 3), ("12", 12), ("three", 3), ("ten", 10), ("zero", 0),
        ("3rd", 3), ("1st", 1), ("2nd", 2), ("4th", 4), ("tres", 3), ("duas", 2), ("first", 1),
        ("three", 3), ("thr", None), ("3x", None), ("", None), ("wood", None),
    ],
)
def test_number(token: str, value: int | None) -> None:
    assert number(token) == value


def test_number_words_after_folding() -> None:
    assert number(fold("Três")) == 3
    assert [number(t) for t in tokens("Play TWO wood")] == [None, 2, None]


def test_resolve_exact_prefix_and_folding() -> None:
    names = ["Ana", "Bruno", "Bárbara", "Carla"]
    assert resolve("carla", names, "player") == "Carla"
    assert resolve("CAR", names, "player") == "Carla"
    assert resolve("barb", names, "player") == "Bárbara"
    assert resolve("ANA", names, "player") == "Ana"


def test_resolve_exact_beats_prefix() -> None:
    assert resolve("ana", ["Ana", "Anabela"], "player") == "Ana"


def test_resolve_ambiguous_lists_candidates() -> None:
    names = ["Bruno", "Bárbara", "Carla"]
    with pytest.raises(Malformed) as caught:
        resolve("b", names, "player")
    err = caught.value
    assert "Bruno" in str(err) and "Bárbara" in str(err)
    assert "write more" in str(err)
    assert list(err.allowed) == names
    assert err.code == "malformed"


def test_resolve_unknown_lists_all_choices() -> None:
    with pytest.raises(Malformed) as caught:
        resolve("zed", ["wood", "rope"], "resource")
    assert "not a resource" in str(caught.value)
    assert "wood, rope" in str(caught.value)
    with pytest.raises(Malformed):
        resolve("", ["wood", "rope"], "resource")


OPTIONS = [
    Option("p3w", "play 3 wood", {"card": [3, "wood"]}),
    Option("p3r", "play 3 rope", {"card": [3, "rope"]}),
    Option("b2", "barrel 2", {"barrel": 2}),
    Option("pass", "pass and draw two cards", {"pass": True}),
    Option("agua", "play 5 água", {"card": [5, "water"]}),
]


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("p3w", "p3w"),
        ("P3W", "p3w"),
        (" b2 ", "b2"),
        ("play 3 wood", "p3w"),
        ("Play 3 WOOD.", "p3w"),
        ("pl 3 wo", "p3w"),  # every word an abbreviation, in place
        ("play 3 r", "p3r"),
        ("barrel 2", "b2"),
        ("bar", "b2"),
        ("pass", "pass"),  # a code wins over being a prefix of a label
        ("pass and draw", "pass"),
        ("play 5 agua", "agua"),  # accent folded
        ("PLAY 5 ÁGUA", "agua"),
    ],
)
def test_match_option(text: str, code: str) -> None:
    assert match_option(text, OPTIONS).code == code


def test_match_option_ambiguous_prefix_lists_what_it_could_be() -> None:
    with pytest.raises(Malformed) as caught:
        match_option("play 3", OPTIONS)
    msg = str(caught.value)
    assert "ambiguous" in msg
    assert "play 3 wood" in msg and "play 3 rope" in msg
    assert "p3w: play 3 wood" in caught.value.allowed


def test_match_option_unknown_lists_every_option() -> None:
    with pytest.raises(Malformed) as caught:
        match_option("fly away", OPTIONS)
    assert "not understood" in str(caught.value)
    assert list(caught.value.allowed) == [f"{o.code}: {o.label}" for o in OPTIONS]
    assert isinstance(caught.value, IllegalMove)


def test_match_option_empty_line() -> None:
    with pytest.raises(Malformed, match="empty"):
        match_option("  ..  ", OPTIONS)


def test_match_option_too_many_words() -> None:
    with pytest.raises(Malformed):
        match_option("barrel 2 now please", OPTIONS)


def test_every_label_and_code_matches_its_own_option() -> None:
    for o in OPTIONS:
        assert match_option(o.code, OPTIONS) is o
        assert match_option(o.label, OPTIONS) is o


def test_format_options_aligns_codes() -> None:
    text = format_options(OPTIONS[:3])
    assert text.splitlines() == ["  p3w  play 3 wood", "  p3r  play 3 rope", "  b2   barrel 2"]
    assert format_options([]) == ""


# ---- nothing left over: a dangling "not", a reserved word, a guess that only repeats ----------------


def test_it_refuses_a_not_that_negates_nothing() -> None:
    from engine.notation import Vocabulary, lex

    vocab = Vocabulary.build(verbs={"end": ["done"]})
    assert lex("end not", vocab).unknown == ("not",)
    assert lex("not end", vocab).unknown == () and lex("not end", vocab).lexemes[0].negated


def test_it_never_guesses_a_reserved_command_word_into_another_word() -> None:
    from engine.notation import Vocabulary, lex

    vocab = Vocabulary.build(verbs={"send": ["give"], "play": []})
    line = lex("play 3 end", vocab)
    assert line.unknown == ("end",) and line.notes == ()


def test_it_takes_a_guess_that_only_repeats_a_typed_word_as_a_word_left_over() -> None:
    from engine.notation import Vocabulary, lex

    vocab = Vocabulary.build(verbs={"play": ["put"]}, names={"wood": []})
    assert lex("play 3 wod", vocab).notes == ("read `wod` as wood",)  # a typo of a word not typed: guessed
    line = lex("play wood wod", vocab)
    assert line.unknown == ("wod",) and line.notes == ()
