"""A turn begins (both sides), and the phase in which, clockwise from the starting player, each player
puts a card on an opponent's raft (A) or minecart (B) in position 2.
"""

from __future__ import annotations

from engine import i18n
from engine.core import State
from engine.games.maretta.board import name_of, turn_order
from engine.games.maretta.tables import (
    _AFTER,
    Frame,
    _Events,
)


def step_turn(st: State, f: Frame, ev: _Events) -> None:
    n = len(st["pos"])
    st["p1"] = [None] * n
    st["p1d"] = [False] * n
    st["p2"] = [None] * n
    st["mv"] = [0] * n
    st["trail"] = [[p] for p in st["pos"]]
    st["phase"] = 1
    todo = st["todo"]
    if st["side"] == "A":
        st["cut"] = st["cutn"]
        st["cutn"] = [False] * n
        st["cutp"] = [False] * n
        st["cutk"] = [None] * n
        ev.say(
            "turn",
            i18n.text(
                "Turn {turn} begins; {player} is the starting player. Phase one: everybody "
                "puts a card face down in position 1.",
                turn=st["turn"],
                player=name_of(st, st["start"]),
            ),
            turn=st["turn"],
        )
        todo.append({"t": "p1"})
    else:
        ev.say(
            "turn",
            i18n.text(
                "Turn {turn} begins; {player} is the starting player. Phase one: each "
                "player puts a card on an opponent's minecart.",
                turn=st["turn"],
                player=name_of(st, st["start"]),
            ),
            turn=st["turn"],
        )
        todo.append({"t": "p3B"})
        todo.append({"t": "nextB2", "i": 0})
        todo.append({"t": "nextP", "i": 0})


def step_nextP(st: State, f: Frame, ev: _Events) -> None:
    """Next player to place a card in someone's position 2."""
    order = turn_order(st)
    i = f["i"]
    if i >= len(order):
        if st["side"] == "A":
            st["todo"].append({"t": "p3A"})
        return
    s = order[i]
    st["todo"].append({"t": "nextP", "i": i + 1})
    if not st["hand"][s]:
        ev.say("skip", i18n.text("{player} has no card to place", player=name_of(st, s)), seat=s)
        return
    st["todo"].append({"t": "place", "s": s})


def raft_targets(st: State, s: int) -> list[int]:
    p2 = st["p2"]
    out = st["out"]
    free = [t for t in _AFTER[len(p2)][s] if p2[t] is None and out[t] is None]
    return free or [s]
