"""A view, once taken, never changes: moves applied afterwards leave it as it was.

Why: a game may build its views from parts it shares with the state (the same lists, not
copies) when its moves replace those parts instead of changing them in place. A service keeps
views while the game goes on (an update mail's row, a batch answering several lines), so a
move that changed a shared list in place would change a view already given out. Every seat's
and the spectator's view is taken before every move of seeded games played by each game's own
bot, kept with its JSON text, and compared with it once the game is over.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import engine
from engine.core import Rules
from engine.testing import choose, player_names

CASES = [
    ("maretta", 3, {"side": "A"}, 2), ("maretta", 5, {"side": "A"}, 2),
    ("maretta", 3, {"side": "B"}, 2), ("maretta", 5, {"side": "B"}, 2),
    ("maretta", 4, {"side": "A", "reefs": []}, 1),
    ("maretta", 5, {"side": "B", "lava_speed": 1}, 4),  # long games: the discard pile is reshuffled
    ("caravelas", 2, None, 1), ("caravelas", 4, None, 1),
    ("maracaibo", 1, None, 1), ("maracaibo", 3, None, 1),
]


def _dump(view: Any) -> str:
    return json.dumps(view, sort_keys=True)


def _changed_keys(view: dict[str, Any], was: str) -> list[str]:
    before = json.loads(was)
    return sorted(k for k in set(view) | set(before) if _dump(view.get(k)) != _dump(before.get(k)))


@pytest.mark.parametrize(("name", "n", "options", "games"), CASES,
                         ids=[f"{c[0]}-{c[1]}p-{_dump(c[2])}" for c in CASES])
def test_a_view_taken_is_never_changed_by_later_moves(name: str, n: int, options: dict[str, Any] | None,
                                                      games: int) -> None:
    rules: Rules = engine.get(name)
    for g in range(games):
        seed = f"isolation-{name}-{n}-{g}"
        rnd = random.Random(seed)
        state = rules.setup(player_names(n), options, seed)
        kept: list[tuple[int, int | None, dict[str, Any], str]] = []
        for step in range(20_000):
            pending = rules.pending(state)
            for seat in [*range(n), None]:
                view = rules.view(state, seat)
                kept.append((step, seat, view, _dump(view)))
            if not pending:
                break
            seat = pending[rnd.randrange(len(pending))]
            rules.apply(state, seat, choose(rules, state, seat, rules.options(state, seat), rnd).move)
        assert rules.outcome(state) is not None, "the game did not end"
        changed = [(step, seat, _changed_keys(view, was)) for step, seat, view, was in kept if _dump(view) != was]
        assert not changed, f"game {seed}: views changed by later moves (step, seat, keys): {changed[:5]}"
