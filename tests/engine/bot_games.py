"""The bot-game driver the engine's tests share: a seeded game played by the rules' own bot
(``bot_choice``) for the first pending seat, step by step."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from engine import get
from engine.core import Option, State

#: an event as the rules tell it (``Event.as_dict``)
EventDict = dict[str, Any]
#: called before each decision with (step, state, seat, that seat's options)
Watch = Callable[[int, State, int, list[Option]], None]


def bot_steps(
    rules_name: str,
    state: State,
    choices: int | str,
    *,
    steps: int = 8000,
    events: list[EventDict] | None = None,
) -> Iterator[tuple[int, int, list[Option]]]:
    """Play ``state`` on for at most ``steps`` decisions, the bot's choices drawn from
    ``random.Random(choices)``: before each decision, (step, the seat, its options); each move's
    events go to ``events``. Iterate inside ``i18n.language`` to play it in another language."""
    R: Any = get(rules_name)  # (bot_choice: the games that have a bot)
    rnd = random.Random(choices)
    for step in range(steps):
        pending = R.pending(state)
        if not pending:
            return
        seat = pending[0]
        opts = R.options(state, seat)
        yield step, seat, opts
        told = R.apply(state, seat, R.bot_choice(state, seat, opts, rnd).move)
        if events is not None:
            events += [e.as_dict() for e in told]


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
    """``rules_name`` set up for ``players`` from ``seed`` (or ``state`` gone on with) played by
    :func:`bot_steps`, ``watch`` called before each decision: the state reached and every event."""
    st = get(rules_name).setup(players, options, seed) if state is None else state
    events: list[EventDict] = []
    for step, seat, opts in bot_steps(rules_name, st, choices, steps=steps, events=events):
        if watch is not None:
            watch(step, st, seat, opts)
    return st, events
