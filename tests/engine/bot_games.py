"""The bot-game driver the engine's language tests share: a whole seeded game played by the
rules' own bot (``bot_choice``) for the first pending seat, watched step by step."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from engine import get
from engine.core import Option, State

#: an event as the rules tell it (``Event.as_dict``)
EventDict = dict[str, Any]
#: called before each decision with (step, state, seat, that seat's options)
Watch = Callable[[int, State, int, list[Option]], None]


def bot_game(
    rules_name: str,
    players: list[str],
    options: dict[str, Any],
    seed: str,
    choices: int | str,
    *,
    steps: int = 8000,
    watch: Watch | None = None,
    state: State | None = None,
) -> tuple[State, list[EventDict]]:
    """Play ``rules_name`` set up for ``players`` from ``seed`` (or go on from ``state``) for at most
    ``steps`` decisions, the bot's choices drawn from ``random.Random(choices)``: the state reached
    and every event. Call it inside ``i18n.language`` to play it in another language."""
    R = get(rules_name)
    rnd = random.Random(choices)
    st = R.setup(players, options, seed) if state is None else state
    events: list[EventDict] = []
    for step in range(steps):
        pending = R.pending(st)
        if not pending:
            break
        seat = pending[0]
        opts = R.options(st, seat)
        if watch is not None:
            watch(step, st, seat, opts)
        events += [e.as_dict() for e in R.apply(st, seat, R.bot_choice(st, seat, opts, rnd).move)]
    return st, events
