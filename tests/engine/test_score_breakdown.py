"""Where each score came from: the engine's breakdown that results tables print.

For Caravelas and Maracaibo the parts add up to the final score exactly; for Maretta
(which ranks by how far one got) the first part is the score itself.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import engine
from engine.games.caravelas import RULES as CARAVELAS

GOLDEN = Path(__file__).resolve().parent / "golden"


@pytest.mark.parametrize("name", ["caravelas-2p.json", "caravelas-4p.json"])
def test_it_breaks_a_caravelas_score_into_discoveries_deliveries_cubes_and_cards(name: str) -> None:
    data = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    state = CARAVELAS.setup(data["players"], data["options"], data["seed"])
    assert CARAVELAS.score_breakdown(state) == {}, "nothing to break down while the game runs"
    for seat, code in data["moves"]:
        CARAVELAS.apply(state, seat, {"code": code})
    outcome = CARAVELAS.outcome(state)
    assert outcome is not None
    parts = CARAVELAS.score_breakdown(state)
    assert set(parts) == set(outcome.scores)
    for seat, score in outcome.scores.items():
        assert list(parts[seat]) == ["discoveries", "deliveries in Lisboa", "cubes still aboard",
                                     "unfulfilled discovery cards"]
        assert sum(parts[seat].values()) == score
        assert parts[seat]["cubes still aboard"] >= 0 >= parts[seat]["unfulfilled discovery cards"]


@pytest.mark.parametrize("name", ["maretta-A-3p.json", "maretta-B-4p.json"])
def test_it_shows_how_far_each_maretta_player_got(name: str) -> None:
    data = json.loads((GOLDEN / name).read_text(encoding="utf-8"))
    rules = engine.get("maretta")
    state = rules.setup(data["players"], data["options"], data["seed"])
    for seat, move in data["log"]:
        rules.apply(state, seat, move)
    outcome = rules.outcome(state)
    assert outcome is not None
    parts = rules.score_breakdown(state)
    for seat, score in outcome.scores.items():
        assert parts[seat]["space reached"] == score
        if data["options"]["side"] == "A":
            assert 0 <= parts[seat]["resource types in stock"] <= 5
        else:
            assert ("caught by the lava on turn" in parts[seat]) == (state["out"][seat] is not None)


def test_it_breaks_a_maracaibo_score_into_its_sources() -> None:
    rules = engine.get("maracaibo")
    state = rules.setup(["Ana", "Bruno"], {}, "breakdown")
    rnd = random.Random(5)
    for _ in range(20_000):
        pending = rules.pending(state)
        if not pending:
            break
        rules.apply(state, pending[0], rnd.choice(rules.options(state, pending[0])).move)
    outcome = rules.outcome(state)
    assert outcome is not None
    parts = rules.score_breakdown(state)
    for seat, score in outcome.scores.items():
        assert sum(parts[seat].values()) == score
        assert "other" not in parts[seat], "every victory point has a source"
        assert {"nations", "cards"} <= set(parts[seat])
