"""What Maracaibo's two automas share (Jean, the base game's, jean.py; Jacques, the Uprising's,
jacques.py): their explorer's way along the track (an automa takes no reward there; where it
stops and what it skips are the same rules for both). (Their VP by source: effects.add_vp, as a
player's.)

The players' explorers an automa's explorer skips (``occupied``) are not counted; the end space
is never skipped (every explorer may share it).
"""

from __future__ import annotations

from engine.core import State

from . import content as C


def _to_end() -> dict[int, int]:
    """Spaces from each explorer space to the end, by the shortest way."""
    dist = {C.END_SPACE: 0}
    for s in sorted((x["id"] for x in C.SPACES), reverse=True):
        nxt = [dist[n] for n in C.SPACES[s]["next"] if n in dist]
        if s not in dist and nxt:
            dist[s] = 1 + min(nxt)
    return dist


#: explorer space -> spaces to the end by the shortest way
TO_END = _to_end()


def quest_in_reach(state: State, start: int, n: int, occupied: set[int]) -> int | None:
    """The explorer-track quest reachable from ``start`` with at most ``n`` counted spaces: the
    fewest spaces, then the lower space."""
    best: tuple[int, int] | None = None
    frontier = [(start, 0)]
    while frontier:
        s, steps = frontier.pop()
        for nx in C.SPACES[s]["next"]:
            counted = steps if (nx in occupied and nx != C.END_SPACE) else steps + 1
            if counted > n:
                continue
            if counted > steps and str(nx) in state["track_quests"] and (best is None or (counted, nx) < best):
                best = (counted, nx)
            if nx != C.END_SPACE:
                frontier.append((nx, counted))
    return None if best is None else best[1]


def shortest_way(start: int, n: int, occupied: set[int]) -> int:
    """Where ``n`` counted spaces on from ``start`` by the shortest way to the end lead (the lower
    space where two ways are as short)."""
    to, steps, s = start, 0, start
    while steps < n and s != C.END_SPACE:
        s = min(C.SPACES[s]["next"], key=lambda x: (TO_END[x], x))
        if s in occupied and s != C.END_SPACE:
            continue
        steps += 1
        to = s
    return to
