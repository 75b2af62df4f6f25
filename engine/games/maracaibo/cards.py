"""Project cards: buying (a village action), investing in a prestige building, and
phase C, drawing up to the hand limit (the ``draw`` frame).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine import i18n
from engine.core import Event, Option, State
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler

from . import card_actions, extensions
from . import content as C
from .board import HANDLERS, P, first_two, hand_limit, opt, stack, window_closed
from .card_requirements import can_meet, figures, on_buy
from .effects import add_vp, apply_income, draw_cards, gain, perm, player, said, take_synergy, who, without


def _buy_needs(c: dict[str, Any]) -> tuple[int, int, int]:
    """What buying a card takes: its printed cost, the figures it uses (its own figure, an
    assistant), and the explorer space its barrier needs reached (0: none)."""
    needs = c.get("needs")
    at = {v: k for k, v in C.BARRIERS.items()}[needs["barrier"]] if needs and "barrier" in needs else 0
    figs = (1 if c.get("figure") else 0) + (1 if c.get("assist") else 0) + figures(c)  # (the Uprising's fields)
    return int(c["cost"]), figs, at


#: card id -> _buy_needs (static data, worked out once)
_BUY_NEEDS: dict[int, tuple[int, int, int]] = {cid: _buy_needs(c) for cid, c in C.CARD.items()}


#: the cards with a requirement field of the Uprising (goods, a figure placed: card_requirements.on_buy)
_REQ_CARDS = frozenset(cid for cid, c in C.CARD.items() if c.get("cost_goods") or figures(c))
#: the cards that cost goods too (the Uprising's ``cost_goods``: card_requirements.can_meet)
_GOODS_CARDS = frozenset(cid for cid, c in C.CARD.items() if c.get("cost_goods"))


def card_cost(p: P, cid: int) -> int:
    return max(0, _BUY_NEEDS[cid][0] - perm(p, "discount"))


def can_buy(state: State, p: P, cid: int, cost: int | None = None) -> bool:
    """Whether the player can buy the card now (``cost``: its card_cost, when the caller has it)."""
    _, figs, at = _BUY_NEEDS[cid]
    if (card_cost(p, cid) if cost is None else cost) > p["doubloons"]:
        return False
    if window_closed(state, cid):  # (its buying window: content.sold_before)
        return False
    return bool(p["figures"] >= figs and p["explorer"] >= at and (cid not in _GOODS_CARDS or can_meet(p, cid)))


def buy_options(state: State, seat: int) -> list[Option]:
    return list(buy_options_in_order(state, seat, ""))


def buy_options_in_order(state: State, seat: int, suffix: str) -> Iterator[Option]:
    """buy_options one at a time, each label ending in ``suffix`` (which village action it is)."""
    p = player(state, seat)
    discount = perm(p, "discount")  # (card_cost's, once for every card)
    for cid in [*p["hand"], *p["plan"]]:
        cost = max(0, _BUY_NEEDS[cid][0] - discount)
        if can_buy(state, p, cid, cost):
            where = " from the planning area" if cid in p["plan"] else ""
            goods = "".join(f" + {g}" for g in C.CARD[cid].get("cost_goods", ()))  # (the Uprising's cost_goods)
            yield opt(f"b{cid}", f"buy {C.CARD[cid]['name']} ({cost} d{goods}){where}{suffix}")
    for b in state["prestige"]:
        pb = C.PRESTIGE[b["id"]]
        if b["up"] and seat not in b["investors"] and p["doubloons"] >= pb["cost"] and p["figures"] >= 1:
            yield opt(f"i{b['id']}", f"invest in the {pb['name']} ({pb['cost']} d and a figure){suffix}")


#: the msgids games stored before each noun was counted by its own number ("for 1 doubloons", #27)
_OLD = (i18n.correct("{player} buys {card} for {cost} doubloons.",
                     "{player} buys {card} for {cost} {cost|doubloon|doubloons}."),
        i18n.correct("{player} buys {card} for {cost} doubloons, {extra}.",
                     "{player} buys {card} for {cost} {cost|doubloon|doubloons}, {extra}."))

# (the second text of a choice between two, for the catalogue)
_SECOND = (i18n.N_("{player} buys {card} for {cost} {cost|doubloon|doubloons}."),
           i18n.N_("{player} invests in the {building}."),
           i18n.N_("{player} takes {card} from the display."), i18n.N_("{player} sails {steps} to {loc} {place}."),
           i18n.ngettext("{n} card", "{n} cards", 1))


def do_buy(state: State, seat: int, cid: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    c = C.CARD[cid]
    cost = card_cost(p, cid)
    if cid in p["plan"]:
        p["plan"] = without(p["plan"], cid)
    else:
        p["hand"].remove(cid)
    p["doubloons"] -= cost
    p["display"] = [*p["display"], cid]
    p["bought"] = [*p["bought"], cid]
    extra: list[Any] = []
    if c.get("figure"):
        p["figures"] -= 1
        p["figures_owned"] -= 1
        extra.append(i18n.word("returning a figure"))
    if c.get("assist"):
        p["figures"] -= 1
        p["assist"] = [*p["assist"], {"loc": c["assist"], "card": cid, "since": state["turns"]}]
        extra.append(i18n.word("with an assistant at {loc} {place}", loc=c["assist"],
                               place=i18n.word(C.LOC[c["assist"]]["name"])))
    ev.append(said("buy", i18n.text("{player} buys {card} for {cost} {cost|doubloon|doubloons}, {extra}." if extra
                                    else "{player} buys {card} for {cost} {cost|doubloon|doubloons}.",
                                    player=who(state, seat),
                                    card=i18n.word(c["name"]), cost=cost, extra=extra), {"seat": seat, "card": cid}))
    card_actions.on_buy(state, seat, cid, ev)  # (the Uprising's card_quests: quests onto the card)
    frames: list[Frame] = on_buy(state, seat, cid, rng, ev) if cid in _REQ_CARDS else []
    take_synergy(state, seat, c.get("synergy"), ev)
    for e in c["effects"]:
        if e["t"] == "income" and "ext" not in e:  # (the Uprising's income_when: card_permanents.after_move)
            if e.get("needs") and e["needs"] not in p["synergy"]:
                continue
            if e.get("needs"):
                p["gated"] = [*p["gated"], cid]
            apply_income(state, seat, e, ev)
        elif e["t"] == "now" and e.get("ext") in card_actions.NOW:  # (the Uprising's: card_actions.py)
            frames += card_actions.now(state, seat, e, rng, ev, "cards")
        elif e["t"] == "now" and "ext" in e:  # the Uprising's cards: an extension of the language
            frames += extensions.now(state, seat, e, rng, ev)
        elif e["t"] == "now":
            frames += gain(state, seat, e["gain"], rng, ev, "cards")
    return frames


def do_invest(state: State, seat: int, bid: str, ev: list[Event]) -> None:
    p = player(state, seat)
    b = next(x for x in state["prestige"] if x["id"] == bid)
    pb = C.PRESTIGE[bid]
    p["doubloons"] -= pb["cost"]
    p["figures"] -= 1
    first = not b["investors"]
    b["investors"] = [*b["investors"], seat]  # (replaced: views share it)
    ev.append(said("invest", i18n.text("{player} invests in the {building} first: 2 VP." if first
                                       else "{player} invests in the {building}.", player=who(state, seat),
                                       building=i18n.word(pb["name"])), {"seat": seat, "building": bid}))
    if first:
        add_vp(p, 2, "prestige")
    take_synergy(state, seat, pb["synergy"], ev)


def _draw_options(state: State, f: Frame) -> list[Option]:
    return list(_draw_options_in_order(state, f))


def _draw_settle(state: State, f: Frame) -> list[Option]:
    return first_two(_draw_options_in_order(state, f))


def _draw_options_in_order(state: State, f: Frame) -> Iterator[Option]:
    p = player(state, f["seat"])
    if len(p["hand"]) >= hand_limit(p):
        return
    if state["deck"] or state["discard"]:
        yield opt("pile", "draw from the pile")
    free = "U3" in p["areas"]
    for i, cid in enumerate(state["display"]):
        if free or p["doubloons"] >= 1:
            yield opt(f"x{i + 1}", f"draw {i + 1} from the display: {C.CARD[cid]['name']}"
                        + ("" if free else " (1 d)"))


def sure_pile_draws(state: State, seat: int, times: int) -> bool:
    """Whether ``times`` draws from the pile in a row are each legal whatever they show (``draw 2
    from pile``): the seat is drawing, its hand has room for all of them, and the pile and the
    discard pile hold as many cards. A drawn card changes neither the hand limit nor the frame."""
    top = stack(state).top()
    if top is None or top["kind"] != "draw" or top["seat"] != seat:
        return False
    p = player(state, seat)
    return hand_limit(p) - len(p["hand"]) >= times and len(state["deck"]) + len(state["discard"]) >= times


def _draw_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    ev: list[Event] = []
    if o.code == "pile":
        draw_cards(state, seat, 1, rng, ev)
    else:
        cid = state["display"].pop(int(o.code[1:]) - 1)
        p["hand"].append(cid)
        paid = "U3" not in p["areas"]
        if paid:
            p["doubloons"] -= 1
        ev.append(said("take", i18n.text("{player} takes {card} from the display for 1 doubloon." if paid
                                         else "{player} takes {card} from the display.", player=who(state, seat),
                                         card=i18n.word(C.CARD[cid]["name"])), {"seat": seat, "card": cid}))
    stack(state).push(f)
    return ev


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["draw"] = FunctionHandler(_draw_options, _draw_resolve, _draw_settle)
