"""A game's rules keep the vocabulary of each set of players' names a worker meets in turn (#28:
one kept, the moves of four games judged in turn built it again at every move)."""

from __future__ import annotations

import engine
from engine import core


def test_the_vocabularies_of_games_judged_in_turn_are_kept_and_each_reads_its_own_names():
    rules = engine.get("maracaibo")
    a, b = {"players": ["Ana", "Bruno"]}, {"players": ["Carla", "Duarte"]}
    first = rules._vocabulary(a, 0)
    other = rules._vocabulary(b, 0)
    assert rules._vocabulary(a, 0) is first  # game a's again after game b's: kept
    assert rules._vocabulary(b, 0) is other
    assert "ana" in first.words and "ana" not in other.words  # each its own players' names
    assert "duarte" in other.words and "duarte" not in first.words
    renamed = rules._vocabulary({"players": ["Ana", "Beatriz"]}, 0)
    assert "beatriz" in renamed.words and "bruno" not in renamed.words


def test_the_kept_vocabularies_are_bounded():
    rules = engine.get("maretta")
    for i in range(core.VOCABULARIES_KEPT * 2):
        rules._vocabulary({"players": [f"p{i}", "q", "r"]}, 0)
    assert rules._vocab_cache is not None and len(rules._vocab_cache) <= core.VOCABULARIES_KEPT
