"""The resistance tile's spaces said in Portuguese with one gender (QA by mail, issue 27): a player's
line read "peça de Resistência: 1 vazia, 2 vazia, 3 vazia, 4 vazio" (the first spaces said by the
pattern "# @" as the word "empty" alone, the last by "# empty")."""

from __future__ import annotations

from engine.games.maracaibo import labels


def test_every_empty_space_of_the_resistance_tile_is_said_alike() -> None:
    said = labels.say("resistance tile: 1 empty, 2 empty, 3 empty, 4 empty", "pt")
    assert said == "peça de Resistência: 1 vazio, 2 vazio, 3 vazio, 4 vazio"
    said = labels.say("resistance tile: 1 England, 2 empty, 3 France, 4 empty", "pt")
    assert said == "peça de Resistência: 1 Inglaterra, 2 vazio, 3 França, 4 vazio"
