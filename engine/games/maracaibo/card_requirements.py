"""The Uprising's new building requirements of project cards (the rulebook's iconography, "NOVOS
REQUISITOS DE CONSTRUÇÃO"; docs/rules/maracaibo-uprising.md, "Effect language: needed extensions"):
card fields, each an extension of the card format read by its name, never by a card's id.

- ``cost_goods`` ``["sugar"]``: besides the doubloons, the goods named are paid with hand cards (the
  card bought is not one of them; a sugar card pays as any good with ``wild_sugar``); the cards paid
  are asked when there is a choice (frame ``costgoods``), the cheapest when all ways are alike;
- ``nation_worker`` ``true``: a figure from the supply to the first space of a nation's influence
  track, the player's choice (frame ``marknation``); it marks the nation the card's effect names
  ``"nation": "marked"`` (``p["marked"]``: card id -> nation, public; card_permanents.fought_for);
- ``token_worker`` ``true``: a figure from the supply beside the combat token piles (it stays there:
  it only shows the card's effect, Assumption A48).

The two figures are placed, not returned: the player still owns them (``figs``), but they leave the
supply (``fig``) for good, as an assistant's does. cards.can_buy asks :func:`can_meet`, cards.do_buy
calls :func:`on_buy` once the card is paid and in the display.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from .board import HANDLERS, P, opt
from .effects import discard_paid, good_cards, player, who, wild_cards

#: the card fields that place a figure from the supply when the card is bought
FIGURE_FIELDS = ("nation_worker", "token_worker")


def figures(c: dict[str, Any]) -> int:
    """The figures a card's requirement fields take from the supply."""
    return sum(1 for f in FIGURE_FIELDS if c.get(f))


def goods_ways(p: P, goods: list[str], but: int | None = None) -> list[list[int]]:
    """Every set of hand cards (not ``but``) that pays ``goods``, one card each, sorted, cheapest first."""
    found: set[tuple[int, ...]] = set()

    def walk(i: int, chosen: list[int]) -> None:
        if i == len(goods):
            found.add(tuple(sorted(chosen)))
            return
        for c in good_cards(p, goods[i]):
            if c != but and c not in chosen:
                walk(i + 1, [*chosen, c])

    walk(0, [])
    jokers = wild_cards(p)  # (a wild card last: used when nothing else pays)
    return sorted((list(t) for t in found), key=lambda cs: (sum(c in jokers for c in cs),
                                                            sum(C.CARD[c]["cost"] for c in cs), cs))


def can_meet(p: P, cid: int) -> bool:
    """The card's goods can be paid (its other requirements: cards._BUY_NEEDS)."""
    goods = C.CARD[cid].get("cost_goods")
    return not goods or bool(goods_ways(p, list(goods), but=cid))


def on_buy(state: State, seat: int, cid: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The requirements of card ``cid`` just bought (already in the display): goods, figures."""
    c = C.CARD[cid]
    p = player(state, seat)
    frames: list[Frame] = []
    goods = c.get("cost_goods")
    if goods:
        ways = goods_ways(p, list(goods))
        if len({tuple(C.CARD[x]["name"] for x in w) for w in ways}) > 1:  # which cards: asked
            frames.append(frame("costgoods", seat, card=cid, cards=sorted({x for w in ways for x in w})))
        else:
            _pay(state, seat, cid, ways[0], ev)
    if c.get("token_worker"):
        p["figures"] -= 1
        ev.append(new_event("token_worker", f"{who(state, seat)} places a figure beside the combat tokens for "
                            f"{c['name']}.", {"seat": seat, "card": cid}))
    if c.get("nation_worker"):
        p["figures"] -= 1
        frames.append(frame("marknation", seat, card=cid))
    return frames


def _pay(state: State, seat: int, cid: int, cards: list[int], ev: list[Event]) -> None:
    p = player(state, seat)
    discard_paid(state, p, cards)  # (a wild card of the display too)
    ev.append(new_event("discard", f"{who(state, seat)} discards " + ", ".join(C.CARD[c]["name"] for c in cards)
                        + f" for {C.CARD[cid]['name']}'s goods.", {"seat": seat, "cards": cards}))


# ---- the frames ---------------------------------------------------------------------------------

def _goods_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    cid = int(f["data"]["card"])
    return [opt("y" + "-".join(map(str, w)), "pay " + ", ".join(f"{C.CARD[x]['name']} ({C.CARD[x]['good']})"
                                                                for x in w) + f" for {C.CARD[cid]['name']}")
            for w in goods_ways(p, list(C.CARD[cid]["cost_goods"]))]


def _goods_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    _pay(state, seat, int(f["data"]["card"]), [int(x) for x in o.code[1:].split("-")], ev)
    return ev


def _mark_options(state: State, f: Frame) -> list[Option]:
    name = C.CARD[int(f["data"]["card"])]["name"]
    return [opt(f"m{n[0]}", f"a figure to {n.title()}'s influence track: {name}'s nation") for n in C.NATIONS]


def _mark_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    cid = int(f["data"]["card"])
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    p["marked"] = {**p.get("marked", {}), str(cid): nation}
    return [new_event("nation_worker", f"{who(state, seat)} places a figure on {nation.title()}'s influence track "
                      f"for {C.CARD[cid]['name']}.", {"seat": seat, "card": cid, "nation": nation})]


HANDLERS["costgoods"] = FunctionHandler(_goods_options, _goods_resolve)
HANDLERS["marknation"] = FunctionHandler(_mark_options, _mark_resolve)
