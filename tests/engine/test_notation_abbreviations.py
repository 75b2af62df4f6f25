"""Place names shortened word by word (``cabo v``, ``c verde``, ``s. leoa``, ``cabo boa esp``) are read
as the one place they shorten, for every place of Caravelas whose name has more than one word; a
shortening that fits two places is left to the options (and refused as ambiguous when both are legal)."""

from __future__ import annotations

import pytest

from engine import notation
from engine.games.caravelas import board as B
from engine.games.caravelas import rules as CR


def shortenings(words: list[str]) -> list[str]:
    """First word whole, the others cut to 1 and to 3 letters; all but the last cut to 1 letter."""
    first, rest = words[0], words[1:]
    return [" ".join([first, *(w[:1] for w in rest)]), " ".join([first, *(w[:3] for w in rest)]),
            " ".join([*(w[:1] for w in words[:-1]), words[-1]])]


CASES = []
for node in B.MAP["nodes"]:
    for name in [node["name"], *node.get("aliases", [])]:
        ws = [w for w in notation.tokens(name.replace("-", " ")) if w not in notation.FILLERS]
        if len(ws) >= 2:
            CASES += [(node["id"], short) for short in shortenings(ws)]
#: shortenings that fit two places, or one the game reads otherwise on purpose
SHARED = {"porto s": {"porto-santo", "brasil"}, "angra s b": None, "s j mina": None, "cabo b e": None,
          "boa e": None}


@pytest.mark.parametrize(("place", "short"), CASES, ids=[s for _p, s in CASES])
def test_it_reads_a_place_shortened_word_by_word_as_that_place(place: str, short: str) -> None:
    line = notation.lex(short, CR.VOCABULARY)
    if short in SHARED:
        expected = SHARED[short]
        if expected is not None:
            assert [set(x.terms) for x in line.lexemes] == [expected]
        return
    assert not line.unknown and [set(x.terms) for x in line.lexemes] == [{place}], (short, line)


def test_it_still_reads_the_cape_alone_and_a_place_after_it_as_two_words() -> None:
    assert [set(x.terms) for x in notation.lex("5 cabo", CR.VOCABULARY).lexemes] == [{"5"}, {"cabo"}]
    # a word that means something alone after "cabo" is not taken as the end of a shortened name
    assert [set(x.terms) for x in notation.lex("cabo guine", CR.VOCABULARY).lexemes] == [{"cabo"}, {"guine"}]
