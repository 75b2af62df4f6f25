"""A line is understood whole, or refused: never acted on by a prefix, for every registered game.

Each option's label, fed with one extra meaningful word (a place, a number, a verb, a name:
the words of the other options now, a number and the players' names), must be refused or
read as the same move, never as a different one. The one exception is a choice of a set
(keep these cards, return these cards), where an extra item names a bigger set: there the
line must still be read as a move whose own label names every word typed.
"""

from __future__ import annotations

import random

import pytest

from engine import notation, registry
from engine.errors import IllegalMove

#: games, options and player counts to walk; a few hundred decisions each
WALKS = {
    "maretta": [({"side": "A"}, 3), ({"side": "B"}, 4)],
    "caravelas": [({}, 2), ({}, 3)],
    "maracaibo": [({}, 2), ({"scenario": "77"}, 3), ({"scenario": "76"}, 1)],
}
#: decisions walked per game and setup (Maracaibo's setup choice alone takes 5 a seat; 1 player: solo with Jean)
STEPS = {"maracaibo": 70}


def _extra_words(labels: list[str], players: list[str], rnd: random.Random) -> list[str]:
    words = sorted({w for label in labels for w in notation.tokens(label.replace("-", " "))
                    if w not in notation.FILLERS and notation.number(w) is None})
    pool = [*rnd.sample(words, min(3, len(words))), "2", "7", "end", "move", players[min(1, len(players) - 1)]]
    return pool


def _set_like(move: dict, other: dict) -> bool:
    """Both moves choose a set of things, and differ only in that set (keep/return cards)."""
    lists = [k for k, v in move.items() if isinstance(v, list)]
    return bool(lists) and {k: v for k, v in move.items() if k not in lists} == \
        {k: v for k, v in other.items() if k not in lists}


@pytest.mark.slow
@pytest.mark.parametrize("game", [g for g in registry.names() if g in WALKS])
def test_it_never_reads_a_label_with_an_extra_word_as_another_move(game: str) -> None:
    rules = registry.get(game)
    rnd = random.Random(f"whole-line-{game}")
    checked = 0
    for options, n in WALKS[game]:
        players = ["Ana", "Bruno", "Carla", "Duarte", "Eva"][:n]
        state = rules.setup(players, options, f"whole-{game}-{n}")
        for _step in range(STEPS.get(game, 25)):
            pending = rules.pending(state)
            if not pending:
                break
            seat = pending[0]
            opts = rules.options(state, seat)
            labels = [o.label for o in opts]
            for o in rnd.sample(opts, min(3, len(opts))):
                for word in _extra_words(labels, players, rnd):
                    for line in (f"{o.label} {word}", f"{word} {o.label}"):
                        try:
                            got = rules.parse(line, state, seat)
                        except IllegalMove:
                            continue
                        checked += 1
                        if got == o.move:
                            continue
                        assert _set_like(dict(o.move), got), (
                            f"{game}: {line!r} was read as {got}, not {o.label!r} ({o.move}) nor refused")
                        other = next(x for x in opts if x.move == got)
                        typed = {w for w in notation.tokens(line) if w not in notation.FILLERS}
                        named = set(notation.tokens(" ".join(rules._readings(state, seat, other))))
                        assert typed <= named | set(notation.tokens(other.code)), (line, other.label)
            rules.apply(state, seat, rnd.choice(opts).move)
    assert checked > 50  # the walk did read lines (same-move readings), not only refuse them


@pytest.mark.parametrize("game", ["maracaibo", "caravelas", "maretta"])
def test_a_code_that_is_no_options_is_refused_as_such_not_as_an_unknown_word(game: str) -> None:
    """QA (#20): 'hHP6' was answered "I do not know the word 'hhp'": the real reason is that no option
    has that code now."""
    from engine import i18n

    rules = registry.get(game)
    n = max(rules.min_players, 3)
    state = rules.setup([f"P{i}" for i in range(n)], {}, "codes")
    seat = rules.pending(state)[0]
    assert "hhp6" not in {o.code.lower() for o in rules.options(state, seat)}
    with pytest.raises(IllegalMove) as refused:
        rules.parse("hHP6", state, seat)
    said = str(refused.value)
    assert "'hHP6' is not the code of any of your options now" in said and "hhp'" not in said, said
    with i18n.language("pt"), pytest.raises(IllegalMove) as recusada:
        rules.parse("hHP6", state, seat)
    assert "'hHP6' não é o código de nenhuma das suas opções agora" in str(recusada.value)
