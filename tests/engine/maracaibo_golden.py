"""Maracaibo games stored by older releases (tests/engine/golden/*.json, made on those commits by the
scripts beside them), read and replayed as the service reads a stored game: the release tests of the
competitive modes and campaigns (test_maracaibo_releases) and of the cooperative scenarios
(test_maracaibo_coop_releases) share them."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from engine.games.maracaibo import RULES
from engine.games.maracaibo.upgrade import current

GOLDEN = Path(__file__).parent / "golden"


def golden(name: str) -> dict[str, Any]:
    g: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return g


def upgraded(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` brought to today's format, as stored (through JSON)."""
    state = copy.deepcopy(state)
    current(state)
    out: dict[str, Any] = json.loads(json.dumps(state))
    return out


def played(g: dict[str, Any], options: dict[str, Any], moves: list[list[Any]]) -> dict[str, Any]:
    """The golden game's setup with ``options`` and its archive, then ``moves``, each one legal, as stored."""
    state = RULES.setup(g["players"], options, g["seed"], archive=g["archive"])
    for seat, code in moves:
        assert code in [o.code for o in RULES.options(state, seat)], (seat, code)
        RULES.apply(state, seat, {"code": code})
    out: dict[str, Any] = json.loads(json.dumps(state))  # (as stored)
    return out
