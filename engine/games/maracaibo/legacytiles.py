"""Maracaibo: The Uprising, the new legacy tiles that are a space on the board (rulebook page 12;
docs/rules/maracaibo-uprising.md, "New legacy tiles"): ending the ship's movement there, before the
main action, the player may use the space once (frame ``legacyspace``, asked right after sailing):

- **L34** Informant's cove (``by_object``): reveal the top project card, the reward for its object,
  the card discarded ("revelar a carta do topo ... receber a recompensa correspondente ao objeto");
- **L35** Powder store: pay 1 combat point for 2 VP ("pagar 1 ponto de combate para marcar 2 pontos
  de vitória");
- **L36** Smugglers' beach: pay 2 identical goods for 2 doubloons ("pagar 2 mercadorias idênticas
  para obter 2 dobrões"): the player names the good; the two cheapest cards of it are discarded.

The tiles in play are ``state["legacy_new"]`` (scenarios.py places them in 78 and 79); each row is
read from ``data/uprising/tiles.json`` (``before_main``: ``pay`` and ``gain``, or ``by_object``).
The other new tiles are played by legacyboard.py (L30, L33, L37) and ruin.py (L31, L32).

SUBSTITUTE CONTENT: the tiles' locations and the by-object rewards are this project's (Assumption A18).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import extensions
from . import uprising_content as U
from .board import HANDLERS, P, opt, stack
from .careers import with_free_actions
from .effects import cheapest, discard_paid, gain, good_cards, player, who

#: the tile kinds this module plays (a space used before the main action)
KINDS = frozenset({"space"})


def played(tile: str) -> bool:
    """Whether this module plays the tile (a new tile of kind ``space``)."""
    row = U.LEGACY.get(tile)
    return bool(row and row.get("kind") in KINDS)


def _pairs(p: P) -> list[str]:
    """The goods of which the player holds two cards or more."""
    return [g for g in C.GOODS if len(good_cards(p, g)) >= 2]


def _ways(state: State, seat: int, t: dict[str, Any]) -> list[Option]:
    """How the player may use tile ``t`` now (empty: it cannot be used)."""
    p = player(state, seat)
    b = t["before_main"]
    name = t["name"]
    if "by_object" in b:
        if not state["deck"] and not state["discard"]:
            return []
        words = ", ".join(f"{o} {C.gain_text(g)}" for o, g in b["by_object"].items())
        return [opt("yes", f"{name}: reveal the top project card for its object's reward ({words})")]
    pay = b["pay"]
    if "cp" in pay:
        return [opt("yes", f"{name}: pay {pay['cp']} combat point for {C.gain_text(b['gain'])}")] \
            if p["combat_points"] >= pay["cp"] else []
    return [opt(f"g{g}", f"{name}: pay 2 {g} for {C.gain_text(b['gain'])}") for g in _pairs(p)]


def on_stop(state: State, seat: int, loc: str) -> list[Frame]:
    """The ship ended its movement at ``loc``: the tile there is offered (when it can be used)."""
    for tid in state.get("legacy_new", ()):
        t = U.LEGACY[tid]
        if t.get("kind") in KINDS and t.get("loc") == loc and _ways(state, seat, t):
            return [frame("legacyspace", seat, tile=tid, ask=True)]
    return []


def _options(state: State, f: Frame) -> list[Option]:
    t = U.LEGACY[f["data"]["tile"]]
    return [*_ways(state, f["seat"], t), opt("no", f"{t['name']}: leave it")]


def _resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    t = U.LEGACY[f["data"]["tile"]]
    ev: list[Event] = []
    if o.code == "no":
        return ev
    p = player(state, seat)
    b = t["before_main"]
    ev.append(new_event("legacy", f"{who(state, seat)} uses {t['name']}.", {"seat": seat, "tile": t["id"]}))
    if "by_object" in b:
        stack(state).push_all(extensions.by_object(state, seat, b["by_object"], rng, ev, "legacy"))
        return ev
    if o.code == "yes":
        p["combat_points"] -= int(b["pay"]["cp"])
    else:
        good = o.code[1:]
        cards = cheapest(p, good_cards(p, good))[:2]  # (a wild card last)
        discard_paid(state, p, cards)
        ev.append(new_event("discard", f"{who(state, seat)} discards " + ", ".join(C.CARD[c]["name"] for c in cards)
                            + ".", {"seat": seat, "cards": cards}))
    stack(state).push_all(gain(state, seat, b["gain"], rng, ev, "legacy"))
    return ev


HANDLERS["legacyspace"] = with_free_actions(FunctionHandler(_options, _resolve))
