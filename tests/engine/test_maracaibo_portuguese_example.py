"""A Portuguese mail's worked whole turn is written in Portuguese and is understood as written (QA,
issue 27): it read ``sail to 7`` / ``buy Grim Diplomat`` / ``vd`` / ``done, tirar do monte`` (English
verbs and the English card name under a list of options that says "Diplomata Sombrio"), and a
player who wrote the card as the mail names it (``comprar Diplomata Sombrio``) was told the words
were unknown: only the English name or the whole label was read."""

from __future__ import annotations

import copy
import re

import pytest

import engine
from engine import i18n

RULES = engine.get("maracaibo")


def _turns(mode: str, seed: str, players: int):  # (state, seat) at each decision of a few turns
    state = RULES.setup(["Ana", "Bruno"][:players], {"mode": mode}, seed=seed)
    for _ in range(6):
        for seat in RULES.pending(state):
            yield state, seat
            lines = RULES.example_turn(state, seat)
            for line in lines:
                for part in RULES.line_parts(line):
                    RULES.apply(state, seat, RULES.parse(part, state, seat))
            if not lines:
                RULES.apply(state, seat, RULES.options(state, seat)[0].move)


@pytest.mark.parametrize(("mode", "players"), [("79", 2), ("base", 2), ("193", 1)])
def test_the_example_turn_in_portuguese_is_portuguese_and_plays_as_written(mode: str, players: int) -> None:
    seen = set()
    for state, seat in _turns(mode, "qa-pt", players):
        with i18n.language("pt"):
            lines = RULES.example_turn(state, seat)
            trial = copy.deepcopy(state)
            for line in lines:
                assert not re.search(r"\b(sail|buy|plan|keep|done|draw)\b", line), lines
                for part in RULES.line_parts(line):
                    RULES.apply(trial, seat, RULES.parse(part, trial, seat))
        seen |= {line.split()[0] for line in lines}
    assert {"planejar", "guardar", "navegar", "comprar"} <= seen, seen
    assert any(w.startswith("feito") for w in seen), seen


def test_a_card_is_understood_by_its_portuguese_name_in_any_language() -> None:
    state, seat = next((s, k) for s, k in _turns("79", "qa-pt", 2)
                       if any(o.code.startswith("s") for o in RULES.options(s, k)))
    trial = copy.deepcopy(state)
    RULES.apply(trial, seat, [o for o in RULES.options(trial, seat) if o.code.startswith("s")][-1].move)
    buy = next(o for o in RULES.options(trial, seat) if re.fullmatch(r"b\d+", o.code))
    english = RULES.describe_move(trial, seat, buy.move).split(" (")[0].removeprefix("buy ")
    portuguese = i18n.translate(english, "pt")
    assert portuguese != english
    for text in (f"comprar {portuguese}", f"buy {portuguese}", f"comprar {english}"):
        assert RULES.parse(text, trial, seat) == buy.move, text
        with i18n.language("pt"):
            assert RULES.parse(text, trial, seat) == buy.move, text
