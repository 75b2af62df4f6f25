"""A simple seeded bot for simulations and the conformance checker.

It sails towards the discovery cards it holds and the cubes it can load,
brings cargo home to Lisboa, draws discovery cards when short of them, and
otherwise plays a little at random. It reads only what its own seat may know
(its hand, its cards, the public board), so it could be offered to players too.
"""

from __future__ import annotations

import random
from typing import Any

from engine.core import Option, State

from . import board as B

_CARGO_HOME = 14  # cargo worth at least this heads for Lisboa


def _targets(state: State, f: dict[str, Any]) -> tuple[set[str], bool]:
    """Where this fleet wants to go, and whether it is heading home with cargo."""
    cargo_value = sum(B.CUBES[c]["points"] for c in f["cargo"])
    loadable = {B.CUBES[c]["place"] for c in B.COLOURS
                if state["cubes"][c] > 0 and c not in f["cargo"] and B.CUBES[c]["caravela"] not in f["sunk"]}
    targets = set(f["disc"]) | loadable
    home = bool(cargo_value >= _CARGO_HOME or len(f["sunk"]) >= 2 or ((f["cargo"] or f["sunk"]) and not targets))
    if home:
        return {B.LISBON}, True
    if not f["disc"] and state["dpile"]:
        targets |= {B.LISBON, B.CALECUTE}
    if not targets:
        targets = {B.LISBON}
    return targets, False


def _closeness(node: str, targets: set[str]) -> int:
    d = B.DIST[node]
    return min(d.get(t, 99) for t in targets)


def choose(state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
    f = state["fleets"][seat]
    k = state["stack"][-1]["k"]
    if k == "sink":
        def loss(o: Option) -> int:
            c = o.move["caravela"]
            return sum(B.CUBES[col]["points"] for col in f["cargo"] if B.CUBES[col]["caravela"] == c)
        return min(options, key=lambda o: (loss(o), o.move["caravela"]))
    if k == "keep":
        at = f["at"]

        def worth(c: str) -> float:
            return float(B.DISCOVERIES[c]["points"]) * 10 / (10 + B.DIST[at].get(c, 50))
        ranked = sorted(state["stack"][-1]["drawn"], key=worth, reverse=True)
        want = set(ranked[:2])
        for o in options:
            if set(o.move["cards"]) == want:
                return o
        return options[0]
    if k == "cards":
        return options[0] if rnd.random() < 0.8 else options[1]
    # the move step
    by_code = {o.code: o for o in options}
    if "deliver" in by_code and (f["cargo"] or f["sunk"]):
        return by_code["deliver"]
    if "draw" in by_code and len(f["disc"]) <= 2:
        return by_code["draw"]
    moves = [o for o in options if o.move["act"] == "move"]
    if not moves:
        return by_code["end"]
    if rnd.random() < 0.08:
        return moves[rnd.randrange(len(moves))]
    targets, _home = _targets(state, f)
    loadable = {B.CUBES[c]["place"]: B.CUBES[c]["points"] for c in B.COLOURS
                if state["cubes"][c] > 0 and c not in f["cargo"] and B.CUBES[c]["caravela"] not in f["sunk"]}
    best: list[Option] = []
    best_score = -1e9
    for o in moves:
        dest = o.move["to"]
        score = -_closeness(dest, targets)
        if dest in f["disc"]:
            score += 3 + B.DISCOVERIES[dest]["points"]
        if dest in loadable:
            score += 2 + loadable[dest] / 2
        if dest == B.LISBON and (f["cargo"] or f["sunk"]):
            score += 10
        if dest == B.CAPE:
            score -= 1
        if score > best_score:
            best, best_score = [o], score
        elif score == best_score:
            best.append(o)
    stay = -_closeness(f["at"], targets) - 1
    if best_score < stay and rnd.random() < 0.7:
        return by_code["end"]
    return best[rnd.randrange(len(best))]
