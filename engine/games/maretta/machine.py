"""The step machine: runs the pending steps (``todo``, the top last) until one waits for a seat."""

from __future__ import annotations

from collections.abc import Callable

from engine.core import State
from engine.games.maretta import side_a, side_b, turn
from engine.games.maretta.barrels import nothing
from engine.games.maretta.decisions import decide, step_moves
from engine.games.maretta.tables import (
    _AUTO_SINGLE,
    Frame,
    _Events,
)


def run(st: State, ev: _Events) -> None:
    todo = st["todo"]
    while todo and st["over"] is None:
        f = todo[-1]
        t = f["t"]
        if t in _AUTO_SINGLE:
            moves = step_moves(st, f)
            if len(moves) > 1:
                return
            todo.pop()
            if moves:
                decide(st, f, moves[0][1], ev)
            else:
                nothing(st, f, ev)
            continue
        if t in ("p1", "place", "play", "steal"):
            return
        todo.pop()
        STEPS[t](st, f, ev)


#: the steps the machine runs by itself, by the name a frame gives in "t"
STEPS: dict[str, Callable[[State, Frame, _Events], None]] = {
    "turn": turn.step_turn,
    "nextP": turn.step_nextP,
    "recvA": side_a.step_recvA,
    "placerA": side_a.step_placerA,
    "p3A": side_a.step_p3A,
    "nextB2": side_b.step_nextB2,
    "p3B": side_b.step_p3B,
    "moveB": side_b.step_moveB,
    "p4B": side_b.step_p4B,
}
