"""Golden Maretta games: seed, options and move log replay to the recorded final state and outcome.

A change to the rules that changes any of these games shows here. When the change is intended,
regenerate the files with ``python -m tests.engine.test_maretta_golden --write`` and say why in the
commit message.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import get

R = get("maretta")
GOLDEN = Path(__file__).with_name("golden")
GAMES = {
    "maretta-A-3p": (["Ana", "Bruno", "Carla"], {"side": "A"}, "golden-A1"),
    "maretta-A-5p-one-reef": (["Ana", "Bruno", "Carla", "Duarte", "Eva"],
                              {"side": "A", "reefs": "10", "steamship": 18}, "golden-A2"),
    "maretta-B-4p": (["Ana", "Bruno", "Carla", "Duarte"], {"side": "B"}, "golden-B1"),
    "maretta-B-3p-fast-lava": (["Ana", "Bruno", "Carla"],
                               {"side": "B", "lava_start": 1, "lava_crevasse_change": 1}, "golden-B2"),
}


def state_hash(state: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(state, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def record(name: str) -> dict[str, Any]:
    players, options, seed = GAMES[name]
    st = R.setup(players, options, seed)
    rnd = random.Random(seed)
    log = []
    while R.pending(st):
        seat = rnd.choice(R.pending(st))
        move = rnd.choice(R.options(st, seat)).move
        R.apply(st, seat, move)
        log.append([seat, move])
    out = R.outcome(st)
    assert out is not None
    return {"game": "maretta", "players": players, "options": options, "seed": seed, "log": log,
            "final_state_sha256": state_hash(st), "outcome": out.as_dict(), "final_positions": st["pos"]}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_it_replays_the_golden_game_exactly(name: str) -> None:
    data = json.loads((GOLDEN / f"{name}.json").read_text("utf-8"))
    st = R.setup(data["players"], data["options"], data["seed"])
    for seat, move in data["log"]:
        assert seat in R.pending(st)
        opts = R.options(st, seat)
        code = next(o.code for o in opts if o.move == move)  # every logged move is a listed option
        R.apply(st, seat, {"code": code})
    assert R.pending(st) == []
    assert R.outcome(st).as_dict() == data["outcome"]
    assert st["pos"] == data["final_positions"]
    assert state_hash(st) == data["final_state_sha256"]


def test_it_has_golden_games_for_both_sides() -> None:
    sides = {json.loads((GOLDEN / f"{n}.json").read_text("utf-8"))["options"]["side"] for n in GAMES}
    assert sides == {"A", "B"}


if __name__ == "__main__":
    if "--write" not in sys.argv:
        sys.exit("usage: python -m tests.engine.test_maretta_golden --write")
    GOLDEN.mkdir(exist_ok=True)
    for name in GAMES:
        (GOLDEN / f"{name}.json").write_text(json.dumps(record(name), indent=1) + "\n", "utf-8")
        print(f"wrote {name}")
