"""Whether a Maracaibo main phase ends by itself is predictable from the mail (issue 21): every village
action's option says how many there are ("(1 of 2 village actions)" for the first, "(1 left)" for
the last after it), and the game does as it says: after the last, no village action is offered (the
main phase has ended by itself); before it, the next is offered with one fewer left. Checked on
seeded bot games, 2 and 4 players."""

from __future__ import annotations

import random
import re

import pytest

import engine
from engine.testing import choose, player_names

RULES = engine.get("maracaibo")
FIRST = re.compile(r"\(1 of (\d+) village actions?\)$")
LEFT = re.compile(r"\((\d+) left\)$")


def _left(options: list[engine.Option]) -> set[int]:
    """How many village actions each village option says are left, this one included."""
    out = set()
    for o in options:
        m = FIRST.search(o.label) or LEFT.search(o.label)
        if m:
            out.add(int(m.group(1)))
    return out


@pytest.mark.parametrize("n", [2, 4])
def test_the_village_actions_say_which_of_how_many_and_the_phase_ends_after_the_last(n: int) -> None:
    rnd = random.Random(n)
    last = before_last = 0
    for seed in range(3):
        state = RULES.setup(player_names(n), {}, f"phase-end-{n}-{seed}")
        while RULES.pending(state):
            seat = RULES.pending(state)[0]
            options = RULES.options(state, seat)
            left = _left(options)
            vd = next((o for o in options if o.code == "vd"), None)
            if vd is None or not left:
                RULES.apply(state, seat, choose(RULES, state, seat, options, rnd).move)
                continue
            assert len(left) == 1, f"one count for every village action offered: {left}"
            (k,) = left
            counted = f"{k} village action{'s' if k != 1 else ''})"  # ("1 of 1 village action", #27)
            assert vd.label.endswith(counted if " of " in vd.label else f"({k} left)")
            RULES.apply(state, seat, vd.move)
            after = RULES.options(state, seat) if seat in RULES.pending(state) else []
            if k == 1:
                assert not _left(after) and "vd" not in [o.code for o in after], "the phase ended by itself"
                last += 1
            else:
                assert _left(after) == {k - 1}, "then the next, with one fewer left"
                before_last += 1
    assert last >= 5 and before_last >= 1, (last, before_last)
