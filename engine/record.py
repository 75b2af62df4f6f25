"""What a finished game records as its outcome: the one place the server and ``python -m engine
replay`` build it, so that a replayed export compares equal to the stored one."""

from __future__ import annotations

from typing import Any

from engine.core import Rules, State


def outcome_record(rules: Rules, state: State) -> dict[str, Any] | None:
    """``rules.outcome(state)`` as a dict, with the score breakdown (``{"<seat>": {part: points}}``)
    when the game gives one; None while the game goes on."""
    outcome = rules.outcome(state)
    if outcome is None:
        return None
    record = outcome.as_dict()
    breakdown = rules.score_breakdown(state)
    if breakdown:
        record["breakdown"] = {str(seat): parts for seat, parts in breakdown.items()}
    return record
