"""The bot's values of the Uprising's card actions (card_actions.py), city tiles (citytiles.py) and promos
(promos.py), in VP like the rest of ``Ctx``: a card's worth when bought (:func:`card_value`), a card
village action's (:func:`village_value`), and the options of their frames (:func:`score`).

Rough on purpose: each is the gain it gives now or the share of it a game usually brings, so that
every new source of points is used and none is taken at any price.
"""

from __future__ import annotations

from typing import Any, Protocol

from .. import card_actions as CA
from .. import card_combat as CC
from .. import citytiles as CT
from .. import content as C
from .. import extensions as X
from .. import homeports as HP
from ..quests import can_pay_quest


class Ctx(Protocol):
    """What of the bot's Ctx (ctx.py, which imports this module) these values read."""

    state: dict[str, Any]
    p: Any
    dv: float
    left: int
    interims: int
    turns: float

    def gain_value(self, g: dict[str, Any], nation: str | None = None, explore: bool = True) -> float: ...
    def disc_value(self) -> float: ...
    def best_explore(self, n: int) -> float: ...
    def quest_value(self, qid: str, deep: bool = True) -> float: ...
    def keep_value(self, cid: int) -> float: ...
    def inf_value(self, nation: str, k: int) -> float: ...
    def city_value(self, loc: str, money: int | None = None) -> float: ...

#: the frame kinds :func:`score` values
KINDS = frozenset({"loseinf", "cardquest", "retmarker", "otherassist", "citytile", "cityquest"})


def assistant_gain(state: dict[str, Any], cid: int) -> dict[str, Any]:
    """The gain of the card's assistant action now (``by_round``: this round's, its village actions
    counted as doubloons)."""
    e = CA.assistant_effect(cid)
    if e.get("ext") != "by_round":
        return dict(e["gain"])
    g = dict(X.round_gain(state, e))
    village = int(g.pop("village", 0))
    g["d"] = int(g.get("d", 0)) + 2 * village
    return g


def card_value(ctx: Ctx, cid: int, e: dict[str, Any]) -> float | None:
    """What an extension effect of this module adds to a card's worth (None: not one of this module's)."""
    ext = e.get("ext")
    turns = ctx.turns
    if ext == "stops_collect":
        return 0.35 * ctx.left * (ctx.gain_value(e["gain"], explore=False) + ctx.disc_value()) / 3
    if ext == "last_pay_influence":  # (never usable where influence is VP: the rules say so, A61)
        if not CC.usable_in_mode(ctx.state, e):
            return 0.0
        return 0.08 * turns * (ctx.best_explore(int(e["explore_upto"])) - 1.5)
    if ext == "card_quests":
        return 0.25 * turns
    if ext == "return_marker":
        return ctx.gain_value(e["gain"]) * (0.8 if any(ctx.p.get("resist", ())) else 0.4)
    if ext == "other_assistant":
        best = max((ctx.gain_value(assistant_gain(ctx.state, c)) for c in CA._assistants(ctx.p)), default=0.0)
        return 0.2 * turns * max(0.0, best - int(e["pay"].get("d", 0)) * ctx.dv)
    if ext == "by_round":
        uses = ctx.interims * 0.6 + 0.3
        return ctx.gain_value(assistant_gain(ctx.state, cid), explore=False) * uses + 0.5
    if ext == "village_trade":
        return 0.12 * turns * max(0.0, ctx.gain_value(e["gain"]) - 2.0)
    return None


def village_value(ctx: Ctx, cid: int, e: dict[str, Any]) -> float:
    """A card's village action of this module, taken now."""
    p = ctx.p
    ext = e.get("ext")
    if ext == "card_quests":
        ready = [q for q in p.get("cquests", {}).get(str(cid), []) if can_pay_quest(p, q)]
        return max((ctx.quest_value(q) for q in ready), default=0.0) - 0.5
    if ext == "other_assistant":
        return max((ctx.gain_value(assistant_gain(ctx.state, c)) for c in CA._assistants(p)), default=0.0) \
            - int(e["pay"].get("d", 0)) * ctx.dv
    if ext == "village_trade":
        ways = HP.trade_ways(p, e["pay"])
        if not ways:
            return 0.0
        return ctx.gain_value(e["gain"]) - min(sum(ctx.keep_value(c) for c in cs) for cs in ways[:9])
    return 0.0


def city_tile_value(ctx: Ctx, loc: str) -> float:
    """The city action of a new city tile at ``loc`` (citytiles.py)."""
    t = CT.TILE[str(ctx.state["tiles"][loc])]
    if t["action"] == "cities":
        return ctx.gain_value(t["gain"]) + max(ctx.city_value(c) for c in t["cities"]) + 0.5
    q = ctx.state["quest_pile"][0] if ctx.state["quest_pile"] else None
    quest = max(0.0, ctx.quest_value(q)) if q and can_pay_quest(ctx.p, q) else 0.0
    return max(ctx.gain_value(g) for g in t["gains"]) + quest


def score(ctx: Ctx, kind: str, code: str, data: dict[str, Any]) -> float:
    """The value of an option of one of :data:`KINDS`."""
    p = ctx.p
    if kind == "loseinf":  # the nation whose influence is worth least
        nation = next(n for n in C.NATIONS if n[0] == code[1])
        return -ctx.inf_value(nation, 1)
    if kind == "cardquest":
        return ctx.quest_value(code[1:])
    if kind == "retmarker":
        return 0.0 if code == "r0" else ctx.gain_value(data["gain"]) - 0.5
    if kind == "otherassist":
        cid = int(code[1:])
        if not cid:
            return 0.0
        return ctx.gain_value(assistant_gain(ctx.state, cid)) - int(data["pay"].get("d", 0)) * ctx.dv
    if kind == "citytile":  # C16: the named city's action (and a delivery there first)
        if code.startswith("c"):
            return ctx.city_value(code[1:])
        loc = code[1:].partition("-")[0]
        reward = int(C.LOC[loc]["market"]["rewards"][len(ctx.state["market"][loc])])
        return ctx.city_value(loc) + reward * ctx.dv + ctx.disc_value() - 1.0
    if kind == "cityquest":
        q = ctx.state["quest_pile"][0] if ctx.state["quest_pile"] else None
        return ctx.quest_value(q) if code == "quest" and q and can_pay_quest(p, q) else 0.0
    return 0.0
