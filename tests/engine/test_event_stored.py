"""A log row keeps an event in its short form (``Event.as_stored``, issue 28): what it leaves out
is made again when the row is read, the same event, in every game, on real random games."""

from __future__ import annotations

import json
import random

import pytest

import engine
from engine import i18n
from engine.core import Event


def _events(name: str, players: int, seed: int, moves: int = 120) -> list[Event]:
    rules = engine.get(name)
    names = [f"P{i}" for i in range(players)]
    state = rules.setup(names, {}, f"stored-{seed}")
    rnd = random.Random(seed)
    out: list[Event] = []
    for _ in range(moves):
        pending = rules.pending(state)
        if not pending:
            break
        seat = rnd.choice(pending)
        out += rules.apply(state, seat, rnd.choice(rules.options(state, seat)).move)
    return out


@pytest.mark.parametrize(("name", "players"), [("maretta", 3), ("caravelas", 3), ("maracaibo", 2), ("maracaibo", 1)])
@pytest.mark.parametrize("language", ["en", "pt"])
def test_a_stored_event_reads_back_as_the_event_it_was(name: str, players: int, language: str) -> None:
    with i18n.language(language):
        events = _events(name, players, 7)
        assert events
        for e in events:
            stored = json.loads(json.dumps(e.as_stored()))  # as the JSON column gives it back
            assert Event.from_dict(stored) == e, stored
            assert Event.from_dict(json.loads(json.dumps(e.as_dict()))) == e  # rows written before
        short = sum(len(json.dumps(e.as_stored())) for e in events)
        full = sum(len(json.dumps(e.as_dict())) for e in events)
        assert short < 0.8 * full, (short, full)  # it is shorter, by at least a fifth
        # a message's text is not kept twice: read in another language, it is told in that one
        told = [e for e in events if e.msg]
        assert told and all("text" not in e.as_stored() for e in told)
