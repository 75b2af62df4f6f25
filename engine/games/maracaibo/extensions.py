"""The Uprising's extensions of the effect language that cards and tiles use (docs/rules/maracaibo-uprising.md,
"Effect language: needed extensions"): each a general reading of a data row by its ``"ext"`` name,
never a branch on a card's id. The home ports' extensions live with their rules (homeports.py,
exploring.py, removal.py); these are the card-borne ones interpreted so far:

- ``per_more``: a gain ``{"per": "cp" | "figure", ...}`` (effects.py's counters ``cp`` and ``figure``:
  the combat points, and the figures in the supply; Assumption A20: figures never count as combat points);
- ``one_of``: one of several gain bundles, the player's choice (frame ``oneof``);
- ``trade_any``: pay any number of cards of a good, the gain once per card (frame ``tradeany``);
- ``liberate`` (``"t": "now"``, ``"where": "village"``): a marker removed from a village of the player's
  choice, to the resistance tile if possible (resistance.liberate), then the row's gain (frame ``libvillage``);
- ``by_object``: the top project card revealed, the reward its object names, the card discarded;
- ``by_round``: an assistant action's gain by the round, a round's ``"village"`` its village actions;
- ``end_per_rank``: VP at the end per noble rank reached;
- ``hand_plus``: a reward that raises the hand limit (``p["hand_plus"]``, read by board.hand_limit).

:func:`now` is what a card's immediate effect with an extension does (cards.do_buy calls it for such
rows; the base cards have none). The expansion's project cards are in the data but not yet dealt,
so the tests read their rows and apply them to real games.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import resistance
from .board import HANDLERS, loc_kind, opt, stack
from .careers import with_free_actions
from .effects import add_vp, cheapest, discard_paid, gain, good_cards, player, who
from .removal import removed
from .reveal import by_object as by_object  # (re-exported: legacytiles.py reads it here)

#: the "now" extensions :func:`now` reads
NOW = ("per_more", "one_of", "trade_any", "liberate", "by_object")


def now(state: State, seat: int, e: dict[str, Any], rng: Rng, ev: list[Event], source: str = "cards") -> list[Frame]:
    """An immediate effect: the base gain, or the extension its row names."""
    ext = e.get("ext")
    if ext is None or ext == "per_more":  # (per_more: the new counters of effects.gain)
        return gain(state, seat, e["gain"], rng, ev, source)
    if ext == "one_of":
        return [frame("oneof", seat, gains=list(e["gains"]), source=source)]
    if ext == "trade_any":
        if not good_cards(player(state, seat), str(e["pay"])):
            return []
        return [frame("tradeany", seat, good=e["pay"], gain=dict(e["gain"]), source=source)]
    if ext == "liberate":
        if not liberable_villages(state):
            return []
        return [frame("libvillage", seat, gain=dict(e.get("gain", {})), source=source)]
    if ext == "by_object":
        return by_object(state, seat, e["by_object"], rng, ev, source)
    raise KeyError(f"no immediate effect reads the extension {ext!r}")


def round_gain(state: State, e: dict[str, Any]) -> dict[str, Any]:
    """``by_round``: the gain of the current round (its ``"village"``: village actions, see :func:`by_round`)."""
    rounds: dict[str, dict[str, Any]] = e["rounds"]
    r = min(int(state["round"]), max(int(k) for k in rounds))
    return rounds[str(r)]


def by_round(state: State, seat: int, e: dict[str, Any], rng: Rng, ev: list[Event]) -> list[Frame]:
    """An assistant action by the round: its gain, then its village actions."""
    g = dict(round_gain(state, e))
    village = int(g.pop("village", 0))
    frames = gain(state, seat, g, rng, ev, "cards")
    if village:
        frames.append(frame("village", seat, left=village, used=[]))
    return frames


def end_per_rank(state: State, seat: int, e: dict[str, Any], ev: list[Event]) -> int:
    """``end_per_rank`` (Own Monument): at the end, VP per noble rank reached, summed over the nations."""
    p = player(state, seat)
    ranks = sum(C.rank(int(v)) for v in p["influence"].values())
    vp = int(e["vp"]) * ranks
    add_vp(p, vp, "cards")
    ev.append(new_event("end_rank", f"{who(state, seat)} scores {vp} VP for {ranks} noble ranks.", {"seat": seat}))
    return vp


def hand_plus(state: State, seat: int, n: int, ev: list[Event]) -> None:
    """``hand_plus`` (Flying Dutchman's reward): the hand limit raised by ``n`` for good."""
    p = player(state, seat)
    p["hand_plus"] = int(p.get("hand_plus", 0)) + n
    ev.append(new_event("hand_plus", f"{who(state, seat)}'s hand limit rises by {n}.", {"seat": seat}))


def liberable_villages(state: State) -> list[str]:
    """The villages holding a marker (any nation's), in the map's order."""
    return [loc for loc in C.LOC_ORDER if loc in state["markers"] and loc_kind(state, loc) == "village"]


# ---- the frames ---------------------------------------------------------------------------------

def _oneof_options(state: State, f: Frame) -> list[Option]:
    return [opt(f"g{i + 1}", f"take {C.gain_text(g)}") for i, g in enumerate(f["data"]["gains"])]


def _oneof_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    g = f["data"]["gains"][int(o.code[1:]) - 1]
    stack(state).push_all(gain(state, seat, g, rng, ev, f["data"]["source"]))
    return ev


def _tradeany_options(state: State, f: Frame) -> list[Option]:
    d = f["data"]
    have = len(good_cards(player(state, f["seat"]), d["good"]))
    return [opt(f"n{k}", f"pay {k} {d['good']} for {C.gain_text({x: v * k for x, v in d['gain'].items()})}"
                if k else f"pay no {d['good']}") for k in range(have, -1, -1)]


def _tradeany_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    k = int(o.code[1:])
    if not k:
        return ev
    d = f["data"]
    p = player(state, seat)
    paid = cheapest(p, good_cards(p, d["good"]))[:k]  # the cheapest: all alike (a wild card last)
    discard_paid(state, p, paid)
    ev.append(new_event("discard", f"{who(state, seat)} discards " + ", ".join(C.CARD[c]["name"] for c in paid)
                        + ".", {"seat": seat, "cards": paid}))
    stack(state).push_all(gain(state, seat, {x: v * k for x, v in d["gain"].items()}, rng, ev, d["source"]))
    return ev


def _libvillage_options(state: State, f: Frame) -> list[Option]:
    return [opt(f"l{loc}", f"liberate {loc} {C.LOC[loc]['name']} ({str(state['markers'][loc]).title()})")
            for loc in liberable_villages(state)]


def _libvillage_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    loc = o.code[1:]
    frames = gain(state, seat, f["data"]["gain"], rng, ev, f["data"]["source"])
    if resistance.playing(player(state, seat)):
        frames = [*resistance.liberate(state, seat, loc, ev), *frames]
    else:  # no resistance tile: the marker leaves the game (a removal still: the Gravedigger)
        nation = state["markers"].pop(loc)
        ev.append(new_event("liberate", f"{who(state, seat)} liberates {loc} {C.LOC[loc]['name']} from "
                            f"{nation.title()}; the marker leaves the game.", {"seat": seat, "loc": loc}))
        frames = [*removed(state, seat, loc, "liberate"), *frames]
    stack(state).push_all(frames)
    return ev


HANDLERS["oneof"] = with_free_actions(FunctionHandler(_oneof_options, _oneof_resolve))
HANDLERS["tradeany"] = FunctionHandler(_tradeany_options, _tradeany_resolve)
HANDLERS["libvillage"] = with_free_actions(FunctionHandler(_libvillage_options, _libvillage_resolve))
