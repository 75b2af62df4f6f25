"""Quests: which hand cards pay one, and fulfilling it (its reward times the compass).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, State, new_event
from engine.rng import Rng
from engine.stack import Frame

from . import content as C
from .board import P
from .effects import (
    add_vp,
    compass,
    discard_paid,
    gain,
    paying_cards,
    pays_as,
    perm,
    player,
    who,
    wild_cards,
    wild_sugar,
)


def quest_cards(p: P, cost: dict[str, Any]) -> list[int] | None:
    """The cheapest hand cards paying a quest's goods and objects, or None."""
    ways = quest_payments(p, cost)
    return ways[0] if ways else None


def quest_payments(p: P, cost: dict[str, Any]) -> list[list[int]]:
    """Every set of hand cards that pays a quest's goods and objects, each sorted, cheapest first.

    Why sets: two assignments of the same cards to the wanted goods are one payment.
    """
    wanted = [("good", w) for w in cost.get("goods", [])] + [("object", w) for w in cost.get("objects", [])]
    found: set[tuple[int, ...]] = set()
    wild = wild_sugar(p)  # (Cayman Islands: a sugar card pays any good or object)

    def walk(i: int, chosen: list[int]) -> None:
        if i == len(wanted):
            found.add(tuple(sorted(chosen)))
            return
        kind, w = wanted[i]
        for c in cards:
            if c not in chosen and pays_as(p, c, kind, w, wild):
                walk(i + 1, [*chosen, c])

    cards = paying_cards(p)  # (the hand, and the display's wild_card: the Uprising)
    walk(0, [])
    jokers = wild_cards(p)  # (a way with a wild card after every way without: used when nothing else pays)
    return sorted((list(t) for t in found), key=lambda cs: (sum(c in jokers for c in cs),
                                                            sum(C.CARD[c]["cost"] for c in cs), cs))


def pay_label(cards: list[int], wild: list[int] | None = None) -> str:
    """The cards paid in words (``wild``: the display's wild cards, paying as any good or object)."""
    return ", ".join(f"{C.CARD[c]['name']} (from the display, as any good or object)" if wild and c in wild
                     else f"{C.CARD[c]['name']} ({C.CARD[c]['good']}, {C.CARD[c]['object']})" for c in cards)


def can_pay_quest(p: P, qid: str) -> bool:
    cost = C.QUEST[qid]["cost"]
    return (p["doubloons"] >= cost.get("d", 0) and p["combat_points"] >= cost.get("cp", 0)
            and p["figures"] >= cost.get("fig", 0)
            and quest_cards(p, cost) is not None)


def do_quest(state: State, seat: int, qid: str, rng: Rng, ev: list[Event],
             cards: list[int] | None = None) -> list[Frame]:
    """Fulfil a quest paying with ``cards`` (by default the cheapest matching hand cards)."""
    p = player(state, seat)
    q = C.QUEST[qid]
    cost = q["cost"]
    if cards is None:
        cards = quest_cards(p, cost) or []
    discard_paid(state, p, cards)  # (a wild card of the display too)
    p["doubloons"] -= cost.get("d", 0)
    p["combat_points"] -= cost.get("cp", 0)
    p["figures"] -= cost.get("fig", 0)
    p["figures_owned"] -= cost.get("fig", 0)
    p["quests"] += 1
    k = compass(p)
    ev.append(new_event("quest", f"{who(state, seat)} fulfils quest {qid} paying {C.cost_text(cost)}"
                        + (f" (discarding {', '.join(C.CARD[c]['name'] for c in cards)})" if cards else "")
                        + f", reward x{k} compass.", {"seat": seat, "quest": qid},
                        # Why a reveal: the cards paid were hidden in the hand and go to the discard
                        # pile face up (the cheapest ones, chosen by the rules when the move names none)
                        reveals=bool(cards)))
    per = {key: v * k for key, v in q["per"].items()}
    frames = gain(state, seat, per, rng, ev, "quests")
    frames += gain(state, seat, q["fixed"], rng, ev, "quests")
    if q.get("hand"):  # the Uprising's promo Flying Dutchman (hand_plus: board.hand_limit reads it)
        p["hand_plus"] = int(p.get("hand_plus", 0)) + int(q["hand"])
        ev.append(new_event("hand_plus", f"{who(state, seat)}'s hand limit rises by {q['hand']}.", {"seat": seat}))
    bonus = perm(p, "quest_vp")
    if bonus:
        add_vp(p, bonus, "cards")
    return frames
