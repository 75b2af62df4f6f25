"""A Portuguese reader's own moves told as "Você ..." (#27), as an English reader's are "You ...":
the story of a mail (pbem.games.wording.story, what pbem/mail/outbox.py puts in every update mail)
read by a Portuguese player named its reader ("Bruno compra Vigia Corajoso ...") where the same mail
in English said "You buy ...". Brazilian "você" takes the third person singular the events are
written in: only the name changes; the other players' events keep their names."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import get, i18n
from engine.core import Event
from pbem.games import wording
from pbem.games.language import speaking

NAMES = ["Ana", "Bruno", "Carla"]


def _story_in_portuguese(rules: str, options: dict[str, Any], seed: str, steps: int, reader: int) -> list[str]:
    """A seeded game's events, each rendered in Portuguese as the mail renders them (outbox._told),
    told to ``reader`` by the mail's story."""
    R = get(rules)
    state, rnd, events = R.setup(NAMES, options, seed), random.Random(seed), []
    for _ in range(steps):  # (seeded random moves: Maretta has no bot)
        pending = R.pending(state)
        if not pending:
            break
        events += [e.as_dict() for e in R.apply(state, pending[0], rnd.choice(R.options(state, pending[0])).move)]
    told = [Event.from_dict({**e, "text": i18n.event_text(e, "pt")} if e.get("msg") else e) for e in events
            if e.get("to") is None or reader in e["to"]]
    with speaking("pt"):
        return wording.story(told, reader, NAMES[reader])


@pytest.mark.parametrize(("rules", "options"), [
    ("maracaibo", {"rounds": 2}), ("maracaibo", {"mode": "79", "rounds": 2}), ("maretta", {}), ("caravelas", {})])
def test_a_portuguese_readers_own_events_say_voce_and_the_others_keep_their_names(
        rules: str, options: dict[str, Any]) -> None:
    lines = _story_in_portuguese(rules, options, "you-7", 400, reader=1)
    named = [line for line in lines if "Bruno" in line]
    assert named == [], f"the reader named in their own story: {named[:5]}"
    assert sum(line.startswith("Você ") for line in lines) >= 5, lines[:40]
    for other in ("Ana ", "Carla "):
        assert any(line.startswith(other) for line in lines), (other, lines[:40])
    assert not [line for line in lines if line.startswith("You ")], "English in a Portuguese story"


@pytest.mark.parametrize(("told", "heard"), [
    ("Bruno compra Vigia Corajoso por 7 dobrões.", "Você compra Vigia Corajoso por 7 dobrões."),
    ("Turno de Bruno (rodada 1).", "Seu turno (rodada 1)."),
    ("O explorador de Bruno se move para o espaço 2.", "O seu explorador se move para o espaço 2."),
    ("Planejadas: Ana: Velho Batedor; Bruno: Diplomata Sombrio.",
     "Planejadas: Ana: Velho Batedor; você: Diplomata Sombrio."),
    ("Ana rouba 1 carta de Bruno.", "Ana rouba 1 carta de você."),
    ("Ana compra Vigia Corajoso por 7 dobrões.", "Ana compra Vigia Corajoso por 7 dobrões."),
    ("Brunostein compra 1 carta.", "Brunostein compra 1 carta."),
])
def test_it_tells_each_line_to_its_portuguese_reader(told: str, heard: str) -> None:
    assert wording.to_reader_pt(told, "Bruno") == heard


def test_a_private_line_in_portuguese_is_told_once_instead_of_its_public_twin() -> None:
    events = [Event("drawn", "Bruno tira 1 carta."), Event("drawn", "Você tira Velho Cirurgião.", to=(1,))]
    with speaking("pt"):
        assert wording.story(events, 1, "Bruno") == ["Você tira Velho Cirurgião."]
