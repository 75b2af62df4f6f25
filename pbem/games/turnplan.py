"""A whole turn planned on the personal page before it is sent (issue #21).

The player picks an option, then another from the options that follow it, and so on; the
page then sends the steps as one batch, like the lines of one mail (``do_submit_moves``:
a reveal is a commit point, a refused step is judged where it stands).

Why the planning shows nothing it should not: the steps are tried on a copy of the state
(``engine.batch.apply_batch``), and the plan only goes on after steps that revealed nothing
and used no random numbers. The options after such steps are a function of what the seat can
see and of its own choices: sent one a mail, they would have shown the same (the argument of
``engine.batch`` for a refused line's options). A step that reveals, draws or rolls closes the
plan: nothing computed after it leaves this module, not even whether the turn goes on.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

import engine
from engine import batch
from engine.core import Option
from engine.errors import IllegalMove

#: At most this many planned steps (a Maracaibo turn takes a handful; the API allows 50 a batch).
MAX_STEPS = 30


@dataclass
class PlannedStep:
    code: str
    label: str


@dataclass
class TurnPlan:
    """What a planned turn holds, and what may come next."""

    steps: list[PlannedStep] = field(default_factory=list)
    #: The options after the steps (empty when the plan is closed or holds nothing yet).
    options: list[Option] = field(default_factory=list)
    #: Why nothing more can be added ("" while the plan is open).
    closed: str = ""
    #: A step given that cannot be played where it stands (the game moved on, a bad address).
    error: str = ""
    #: The state after the steps (on a copy), for drawing the next options' cards and map links.
    state: Any = None

    @property
    def codes(self) -> list[str]:
        return [s.code for s in self.steps]


def plan_turn(rules: Any, state: Any, seat: int, codes: list[str]) -> TurnPlan:
    """The plan of ``codes`` (option codes, in order) for ``seat`` in ``state`` (not changed)."""
    codes = [c for c in codes if c][:MAX_STEPS]
    trial = json.loads(json.dumps(state))
    result = batch.apply_batch(rules, trial, seat, [batch.Command(code=c) for c in codes])
    if result.refused is not None:
        n = result.refused.number
        shorter = plan_turn(rules, state, seat, codes[: n - 1])
        shorter.error = _("Step %(n)s of your plan (%(step)s) cannot be played there: %(why)s. "
                          "The plan stops before it.") % {"n": n, "step": result.refused.shown,
                                                           "why": result.refused.error.message}
        return shorter
    plan = TurnPlan(steps=[PlannedStep(s.shown, s.label) for s in result.steps], state=trial)
    commit = next((i for i, s in enumerate(result.steps) if s.commit), None)
    if commit is not None:
        if commit < len(result.steps) - 1:  # steps after a reveal: never planned (their options would tell)
            return plan_turn(rules, state, seat, codes[: commit + 1])
        plan.closed = _("its last step shows something hidden or draws (a card, a tile, the random numbers), "
                        "so nothing after it can be planned before you send it")
        plan.state = None
        return plan
    if seat not in rules.pending(trial):
        plan.closed = _("these steps end your turn")
        return plan
    plan.options = rules.presented(trial, seat, rules.options(trial, seat))
    if len(plan.steps) >= MAX_STEPS:
        plan.closed, plan.options = _("a plan holds at most %(n)s steps") % {"n": MAX_STEPS}, []
    return plan


def plan_for(game: Any, seat: int, codes: list[str]) -> TurnPlan:
    """The plan for a seat of a running game (its rules and stored state)."""
    return plan_turn(engine.get(game.rules), game.state, seat, codes)


def worth_planning(rules: Any, state: Any, seat: int, options: list[Option], tries: int = 12) -> bool:
    """Whether a turn of several steps can be planned now: the game shows a worked whole turn of more
    than one line (``Rules.example_turn``), or one of the first ``tries`` options leaves the seat a
    further decision without revealing anything (Maretta's play ends the turn: no)."""
    if len(rules.example_turn(state, seat)) > 1:
        return True
    for option in options[:tries]:
        trial = json.loads(json.dumps(state))
        rng = trial.get("rng")
        try:
            events = rules.apply(trial, seat, option.move)
        except IllegalMove:
            continue
        if not batch.is_commit_point(rng, trial, events) and seat in rules.pending(trial):
            return True
    return False
