"""A marker removed from a location by a player, and what it triggers: the extension
``marker_removed`` of the effect language (the Gravedigger, "Coveiro"; docs/rules/maracaibo-uprising.md,
Resistance Tiles and Assumption A11).

The base game removes a marker when a player displaces it in a combat (combat.py); the Uprising's
Resistance Tiles module adds every liberation (resistance.py: the tile's village action, L40's
Liberate City and Village, Liberation's actions, the cards'). Each calls :func:`removed`, which asks
nothing: it returns the frame ``removed`` when the player holds an effect of the extension (a card in
their display, an unlocked home port: effects.ext_effects), and that frame, with its one option,
pays each such effect's gain when the stack reaches it (with the move's rng, as every gain).
"""

from __future__ import annotations

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from .board import HANDLERS, opt, stack
from .effects import ext_effects, gain, player, who

EXT = "marker_removed"


def removed(state: State, seat: int, loc: str, how: str) -> list[Frame]:
    """``seat`` has removed the marker at ``loc`` (``how``: "displace" or "liberate")."""
    if not ext_effects(player(state, seat), EXT):
        return []
    return [frame("removed", seat, loc=loc, how=how)]


def _options(state: State, f: Frame) -> list[Option]:
    gains = [C.gain_text(e["gain"]) for e in ext_effects(player(state, f["seat"]), EXT)]
    return [opt("ok", "a marker removed: " + "; ".join(gains))] if gains else []


def _resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    loc = str(f["data"]["loc"])
    ev.append(new_event("marker_removed", f"{who(state, seat)} removed the marker of {loc} {C.LOC[loc]['name']} "
                        f"({f['data']['how']}): the Gravedigger's effect.", {"seat": seat, "loc": loc}))
    frames: list[Frame] = []
    for e in ext_effects(player(state, seat), EXT):
        frames += gain(state, seat, e["gain"], rng, ev, "cards")
    stack(state).push_all(frames)
    return ev


HANDLERS["removed"] = FunctionHandler(_options, _resolve)
