"""Setup (rulebook: "Setup", both sides): the option combinations, the deck, the barrels on the
route, the starting player and the first hands; then the first turn begins.
"""

from __future__ import annotations

from typing import Any

from engine.core import State
from engine.errors import SetupError
from engine.games.maretta.cards import DATA, HAND, SHIP, all_resource_cards
from engine.games.maretta.machine import run
from engine.games.maretta.tables import (
    _Events,
)
from engine.rng import Rng


def check_option_combination(n_players: int, options: dict[str, Any]) -> None:
    for key, end, what in (("reefs", options["steamship"], "Coral Reef"), ("crevasses", DATA["B"]["end"], "Crevasse")):
        vals = options[key]
        if len(vals) > 2:
            raise SetupError(f"option {key}: there are only 2 {what}s, not {len(vals)}")
        if len(set(vals)) != len(vals):
            raise SetupError(f"option {key}: two {what}s cannot lie at the same place ({vals})")
        if key == "reefs" and options["side"] == "B":
            continue
        for v in vals:
            if not 0 <= v < end:
                raise SetupError(f"option {key}: a {what} must lie after a space from 0 to {end - 1}, not after {v}")
        options[key] = sorted(vals)


def setup(st: State, rng: Rng) -> None:
    opts = st["options"]
    n = len(st["players"])
    side = opts["side"]
    cards = all_resource_cards()
    rng.shuffle(cards)
    if side == "A":
        keep = DATA["keep_resource_cards"][str(n)]
        deck, box = cards[:keep], cards[keep:]
        deck += [SHIP] * n
        rng.shuffle(deck)
        end, reefs = opts["steamship"], opts["reefs"]
        kinds = [k for k, c in DATA["barrels"].items() for _ in range(c)]
    else:
        deck, box = cards, []
        end, reefs = DATA["B"]["end"], opts["crevasses"]
        kinds = [k for k, c in DATA["barrels"].items() if k not in DATA["side_b_removes"] for _ in range(c)]
    rng.shuffle(kinds)
    spots = [p for p in DATA[side]["barrel_spots"] if p < end]
    bar: dict[str, list[list[Any]]] = {}
    for i, p in enumerate(spots):
        zone = sum(1 for r in reefs if r < p)
        if not reefs:
            ups = (False, False)  # placed face down; nothing tells to turn any over
        elif zone == 0:
            ups = (False, False) if side == "A" else (True, True)
        elif zone == len(reefs):
            ups = (True, True) if side == "A" else (False, False)
        else:
            ups = (True, False)
        bar[str(p)] = [[kinds[2 * i], ups[0]], [kinds[2 * i + 1], ups[1]]]
    start = rng.below(n)
    st.update(
        {
            "side": side,
            "end": end,
            "reefs": list(reefs),
            "turn": 1,
            "phase": 1,
            "start": start,
            "pos": [0] * n,
            "hand": [[] for _ in range(n)],
            "stock": [[] for _ in range(n)],
            "deck": deck,
            "box": box,
            "disc": [],
            "p1": [None] * n,
            "p1d": [False] * n,
            "p2": [None] * n,
            "mv": [0] * n,
            "bar": bar,
            "bbox": kinds[2 * len(spots) :],
            "bdisc": [],
            "bdv": [],
            "bseen": [None] * n,
            "barv": {k: [b[0] if b[1] else "?" for b in v] for k, v in bar.items()},
            "cut": [False] * n,
            "cutn": [False] * n,
            "cutp": [False] * n,
            "cutk": [None] * n,
            "known": [{} for _ in range(n)],
            "out": [None] * n,
            "lava": -opts["lava_start"] if side == "B" else None,
            "lspd": opts["lava_speed"] if side == "B" else None,
            "todo": [],
            "over": None,
            "v": 0,
        }
    )
    for _round in range(HAND):
        for j in range(n):
            st["hand"][(start + j) % n].append(deck.pop())
    st["todo"].append({"t": "turn"})
    run(st, _Events())
