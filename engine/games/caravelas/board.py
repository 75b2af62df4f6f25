"""The Caravelas II board and cards, loaded once at import from the data files beside this module.

Everything here is static: the circles and lines of the map, the arrow routes,
the discovery cards, the movement deck, the die and the player board. The
movement graph and, for every circle and card value, the places a card can
reach (with one legal path each) are precomputed here so that listing a
player's options is a few dictionary look-ups.
"""

from __future__ import annotations

import json
from collections import deque
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any

# (the package's folder from importlib.resources: a module compiled with mypyc gets a __file__
# that assumes another layout, see engine/compiled.py)
_HERE = Path(str(resources.files("engine.games.caravelas")))

with open(_HERE / "map.json", encoding="utf-8") as _f:
    MAP: dict[str, Any] = json.load(_f)
with open(_HERE / "cards.json", encoding="utf-8") as _f:
    CARDS: dict[str, Any] = json.load(_f)

#: circle id -> its data (name, x, y, kind: lisbon, calecute, cape, place, white or blue)
NODES: dict[str, dict[str, Any]] = {n["id"]: n for n in MAP["nodes"]}
ORDER: list[str] = [n["id"] for n in MAP["nodes"]]
INDEX: dict[str, int] = {nid: i for i, nid in enumerate(ORDER)}
LISBON = next(n["id"] for n in MAP["nodes"] if n["kind"] == "lisbon")
CALECUTE = next(n["id"] for n in MAP["nodes"] if n["kind"] == "calecute")
CAPE = next(n["id"] for n in MAP["nodes"] if n["kind"] == "cape")
#: where discovery cards may be drawn
DRAW_PLACES = (LISBON, CALECUTE)


def name(nid: str) -> str:
    return str(NODES[nid]["name"])


# ---- movement graph ---------------------------------------------------------------------------
# ADJ[a] = [(b, skipped), ...]: one step from a to b; ``skipped`` are the blue circles passed over
# when b is reached by following an arrow route in its direction.

def _build_adjacency() -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    edges: dict[str, set[tuple[str, tuple[str, ...]]]] = {nid: set() for nid in ORDER}
    for line in MAP["lines"]:
        for a, b in pairwise(line):
            edges[a].add((b, ()))
            edges[b].add((a, ()))
    for route in MAP["arrows"]:
        path = route["path"]
        for i in range(len(path) - 1):
            # against the arrows: one circle at a time, blue ones included
            edges[path[i + 1]].add((path[i], ()))
            # with the arrows: blue circles are ignored
            j = i + 1
            while NODES[path[j]]["kind"] == "blue":
                j += 1
            edges[path[i]].add((path[j], tuple(path[i + 1:j])))
    return {nid: sorted(e, key=lambda t: (INDEX[t[0]], t[1])) for nid, e in edges.items()}


ADJ = _build_adjacency()
CARD_VALUES: list[int] = [int(v) for v, n in CARDS["movement"].items() for _ in range(n)]
VMAX: int = max(CARD_VALUES)


def _reach_from(start: str) -> list[dict[str, tuple[str, ...]]]:
    """For each value v, dest -> a legal path (circles stepped on, start excluded).

    A path never visits a circle twice (the start and skipped blue circles
    included) and ends at the Cape of Good Hope whenever it reaches it.
    """
    res: list[dict[str, tuple[str, ...]]] = [{} for _ in range(VMAX + 1)]

    def go(node: str, path: tuple[str, ...], visited: frozenset[str]) -> None:
        depth = len(path) + 1
        for to, skipped in ADJ[node]:
            if to in visited or any(s in visited for s in skipped):
                continue
            newpath = (*path, to)
            if to == CAPE:
                for v in range(depth, VMAX + 1):
                    best = res[v].get(CAPE)
                    if best is None or len(newpath) < len(best):
                        res[v][CAPE] = newpath
                continue
            res[depth].setdefault(to, newpath)
            if depth < VMAX:
                go(to, newpath, visited | {to, *skipped})

    go(start, (), frozenset([start]))
    return [{d: r[d] for d in sorted(r, key=INDEX.__getitem__)} for r in res]


#: REACH[node][v] = {dest: path}
REACH: dict[str, list[dict[str, tuple[str, ...]]]] = {nid: _reach_from(nid) for nid in ORDER}


def _distances(src: str) -> dict[str, int]:
    dist = {src: 0}
    queue = deque([src])
    while queue:
        a = queue.popleft()
        for b, _ in ADJ[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                queue.append(b)
    return dist


#: DIST[a][b]: fewest steps from a to b (ignoring card values); for bots and hints.
DIST: dict[str, dict[str, int]] = {nid: _distances(nid) for nid in ORDER}


# ---- cards, cubes, die ----------------------------------------------------------------------

#: discovery card id (= its location's circle id) -> {"colour", "points", "year"}
DISCOVERIES: dict[str, dict[str, Any]] = {d["id"]: d for d in CARDS["discoveries"]}
YELLOW = [d["id"] for d in CARDS["discoveries"] if d["colour"] == "yellow"]
GREEN = [d["id"] for d in CARDS["discoveries"] if d["colour"] == "green"]
DIE: list[int] = CARDS["die"]
#: colour -> {"place", "caravela" (1..4), "points", "goods"}
CUBES: dict[str, dict[str, Any]] = {c["colour"]: c for c in CARDS["cubes"]}
COLOURS: list[str] = [c["colour"] for c in CARDS["cubes"]]  # in player-board order
CUBE_AT: dict[str, str] = {c["place"]: c["colour"] for c in CARDS["cubes"]}
#: caravela number -> the colours of its two spots
CARAVELA_SPOTS: dict[int, list[str]] = {}
for _c in CARDS["cubes"]:
    CARAVELA_SPOTS.setdefault(_c["caravela"], []).append(_c["colour"])
CARAVELAS = sorted(CARAVELA_SPOTS)
HAND = CARDS["hand_size"]
MAX_DISC = CARDS["max_discoveries_in_hand"]
DRAW_N = CARDS["discovery_draw"]
CUBES_PER_COLOUR = CARDS["cubes_per_colour"]
GREEN_BY_PLAYERS: dict[int, int] = {int(k): v for k, v in CARDS["green_cubes_by_players"].items()}
END_CUBE_POINTS = CARDS["end_of_game"]["points_per_cube_on_board"]
END_CARD_POINTS = CARDS["end_of_game"]["points_per_unfulfilled_card"]

assert len(CARD_VALUES) == 48, "Caravelas II has 48 movement cards"
assert len(YELLOW) == 16 and len(GREEN) == 16, "16 yellow and 16 green discovery cards"
assert all(d in NODES for d in DISCOVERIES), "every discovery card names a place on the map"
assert all(c["place"] in NODES for c in CUBES.values()) and len(CUBES) == 8
assert CUBES["green"]["place"] == CALECUTE
