"""A refusal says the same in every process: a reason picked from a set of words named the first
of the set, whose order changes with Python's hash seed (PYTHONHASHSEED), so one line was refused
for Belize in one process and for Barbados in the next (and a mail's answer could change on replay)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SNIPPET = """
from engine.errors import IllegalMove
from engine.games.caravelas import RULES as CARAVELAS
from engine.games.maracaibo import RULES as MARACAIBO
from engine.stack import frame
from tests.engine import maracaibo_scenarios as S
from tests.engine.test_caravelas_rules import game, play, put

def refusal(rules, line, state, seat):
    try:
        rules.parse(line, state, seat)
    except IllegalMove as exc:
        return str(exc)
    raise AssertionError(line)

# Maracaibo, sailing from Nassau (1): neither Belize (18) nor Barbados (9) is in reach
state, seat = S._on(S._started(at="1"), frame("main", 0, spent=0), frame("sail", 0, ask=True))
print(refusal(MARACAIBO, "sail to belize barbados", state, seat))
# Caravelas, keeping drawn cards: a line naming two places that were not drawn
state = put(game(), 0, disc=["guine"])
play(state, 0, "draw")
others = [n for n in ("madeira", "acores", "canarias", "malaca") if n not in state["stack"][-1]["drawn"]]
print(refusal(CARAVELAS, f"keep {others[0]} {others[1]}", state, 0))
"""


def test_a_refusal_names_the_same_reason_whatever_the_hash_seed() -> None:
    said = set()
    for seed in ("1", "2", "3", "4", "5"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        run = subprocess.run([sys.executable, "-c", SNIPPET], cwd=ROOT, env=env, capture_output=True,
                             text=True, check=True)
        said.add(run.stdout)
    assert len(said) == 1, said
    assert "cannot be reached from 1" in next(iter(said))
