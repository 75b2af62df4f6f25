"""Positions of a game played at random, for tests of what is drawn or shown: the game set up from
``setup_seed``, its first pending seat playing an option drawn by ``random.Random(choice_seed)``, a
copy of the state (through JSON, as stored) taken every ``every`` moves, at most ``limit`` of them."""

from __future__ import annotations

import json
import random
from typing import Any

import engine


def played_states(game: str, players: list[str], options: dict[str, Any], setup_seed: str, choice_seed: int, *,
                  every: int, limit: int) -> list[dict[str, Any]]:
    rules = engine.get(game)
    st = rules.setup(players, options, setup_seed)
    rnd = random.Random(choice_seed)
    out: list[dict[str, Any]] = []
    i = 0
    while rules.pending(st) and len(out) < limit:
        if i % every == 0:
            out.append(json.loads(json.dumps(st)))
        s = rules.pending(st)[0]
        rules.apply(st, s, rnd.choice(rules.options(st, s)).move)
        i += 1
    return out
