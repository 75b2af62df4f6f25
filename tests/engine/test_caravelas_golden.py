"""Caravelas II golden replays: seed + options + move log must replay to the recorded final state.

Each ``golden/caravelas-*.json`` holds a complete bot game: the players, options and seed,
every move (as option codes), the digest of the final state, the outcome and the public
events of the last move. A change of rules, data or RNG use that alters any game shows
here. After an intended change, regenerate with::

    .venv/bin/python -m tests.engine.test_caravelas_golden
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine.core import visible_events
from engine.games.caravelas import RULES

GOLDEN = Path(__file__).resolve().parent / "golden"
CASES = {"caravelas-2p.json": (2, {}), "caravelas-3p.json": (3, {}), "caravelas-4p.json": (4, {}),
         "caravelas-3p-target60.json": (3, {"target": 60})}


def digest(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def record(n: int, options: dict[str, Any], seed: str) -> dict[str, Any]:
    players = ["Ana", "Bruno", "Carla", "Duarte"][:n]
    state = RULES.setup(players, options, seed)
    rnd = random.Random(seed)
    log: list[list[Any]] = []
    events: list[Any] = []
    while RULES.pending(state):
        seat = RULES.pending(state)[0]
        opts = RULES.options(state, seat)
        code = RULES.bot_choice(state, seat, opts, rnd).code
        events = RULES.apply(state, seat, {"code": code})
        log.append([seat, code])
    outcome = RULES.outcome(state)
    assert outcome is not None
    return {"game": "caravelas", "players": players, "options": options, "seed": seed, "moves": log,
            "digest": digest(state), "outcome": outcome.as_dict(), "turns": state["turns"],
            "last_events": [e.text for e in visible_events(events, None)]}


@pytest.mark.parametrize("name", sorted(CASES))
def test_it_replays_the_golden_game(name: str) -> None:
    data = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    state = RULES.setup(data["players"], data["options"], data["seed"])
    events: list[Any] = []
    for seat, code in data["moves"]:
        assert RULES.pending(state) == [seat]
        events = RULES.apply(state, seat, {"code": code})
    assert RULES.pending(state) == []
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.as_dict() == data["outcome"]
    assert state["turns"] == data["turns"]
    assert [e.text for e in visible_events(events, None)] == data["last_events"]
    assert digest(state) == data["digest"]


def test_it_replays_the_same_game_from_full_moves_as_from_codes() -> None:
    data = json.loads((GOLDEN / "caravelas-2p.json").read_text(encoding="utf-8"))
    state = RULES.setup(data["players"], data["options"], data["seed"])
    for seat, code in data["moves"]:
        move = next(o.move for o in RULES.options(state, seat) if o.code == code)
        RULES.apply(state, seat, json.loads(json.dumps(move)))
    assert digest(state) == data["digest"]


if __name__ == "__main__":
    for name, (n, options) in CASES.items():
        data = record(n, options, f"golden-{name}")
        (GOLDEN / name).write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n",
                                   encoding="utf-8")
        print(name, len(data["moves"]), "moves", data["outcome"])
