"""Side B, Escape from Vulcano: phase two (a card of one's own in position 1), phase three (the
minecarts into stock, a move by the stacks in stock) and phase four (the lava flows, hands refill).
"""

from __future__ import annotations

from engine import i18n
from engine.core import State
from engine.games.maretta.board import _stacks, add_stock, advance, alive_seats, finish, name_of, turn_order, where_word
from engine.games.maretta.cards import HAND, card_word
from engine.games.maretta.tables import (
    _SUIT,
    Frame,
    _distinct,
    _Events,
    _put,
)
from engine.i18n import word
from engine.rng import Rng


def legal_b(st: State, s: int) -> list[str]:
    c2 = st["p2"][s]
    hand = st["hand"][s]
    if c2 is None:
        return _distinct(hand)
    v2, s2 = c2[0], c2[1:]
    return _distinct([c for c in hand if c[0] != v2 and c[1:] != s2])


def step_nextB2(st: State, f: Frame, ev: _Events) -> None:
    order = turn_order(st)
    i = f["i"]
    st["phase"] = 2
    if i == 0:
        ev.say(
            "phase",
            i18n.text(
                "Phase two: each player puts a card of their own in position 1, sharing "
                "neither suit nor number with their position 2."
            ),
        )
    if i >= len(order):
        return
    s = order[i]
    st["todo"].append({"t": "nextB2", "i": i + 1})
    if not st["hand"][s]:
        ev.say(
            "skip",
            i18n.text("{player} has no card in hand and plays nothing in position 1", player=name_of(st, s)),
            seat=s,
        )
    elif not legal_b(st, s):
        ev.say(
            "skip",
            i18n.text("{player} holds no card that may go in position 1 and plays nothing", player=name_of(st, s)),
            reveals=True,
            seat=s,
        )
    else:
        st["todo"].append({"t": "play", "s": s})


def step_p3B(st: State, f: Frame, ev: _Events) -> None:
    st["phase"] = 3
    order = turn_order(st)
    p1 = st["p1"] = st["p1"][:]  # replaced, never changed in place (views share them)
    p2 = st["p2"] = st["p2"][:]
    for s in order:
        for cards in (p2, p1):
            c = cards[s]
            if c is not None:
                cards[s] = None
                add_stock(st, s, c, ev)
    ev.say("stock", i18n.text("Phase three: everybody moves the cards of their minecart into their stock."))
    todo = st["todo"]
    todo.append({"t": "p4B"})
    for s in reversed(order):
        todo.append({"t": "moveB", "s": s})


def step_moveB(st: State, f: Frame, ev: _Events) -> None:
    s = f["s"]
    k = len(set(map(_SUIT.__getitem__, st["stock"][s])))  # the suits in stock
    _put(st, "mv", s, k)
    advance(st, s, k, ev, word("{stacks} in stock", stacks=_stacks(k)))


def step_p4B(st: State, f: Frame, ev: _Events) -> None:
    st["phase"] = 4
    n = len(st["pos"])
    opts = st["options"]
    old = st["lava"]
    speed = st["lspd"]
    new = old + speed
    crossed = sum(1 for c in st["reefs"] if old <= c < new)
    st["lava"] = new
    there = where_word(st, new) if new >= 0 else word("{n} spaces behind the village", n=-new)
    if crossed and opts["lava_crevasse_change"]:
        st["lspd"] = max(1, speed + crossed * opts["lava_crevasse_change"])
        said = i18n.text(
            "Phase four: the lava flows {n} spaces to {place}; it crossed a crevasse and will now "
            "flow {speed} spaces a turn",
            n=speed,
            place=there,
            speed=st["lspd"],
        )
    else:
        said = i18n.text("Phase four: the lava flows {n} spaces to {place}", n=speed, place=there)
    ev.say("lava", said, lava=new)
    end = st["end"]
    for s in alive_seats(st):
        if st["pos"][s] <= new and st["pos"][s] < end:
            _put(st, "out", s, st["turn"])
            ev.say(
                "caught",
                i18n.text("{player} is caught by the lava and is out of the game", player=name_of(st, s)),
                seat=s,
            )
    alive = alive_seats(st)
    sea = [s for s in alive if st["pos"][s] >= end]
    if sea:
        finish(st, sea, "reached the sea", ev)
        return
    if len(alive) == 1:
        finish(st, alive, "last survivor", ev)
        return
    if not alive:
        last = [s for s in range(n) if st["out"][s] == st["turn"]]
        best = max(st["pos"][s] for s in last)
        finish(st, [s for s in last if st["pos"][s] == best], "nobody survived", ev)
        return
    s = st["start"]
    for j in range(1, n + 1):
        t = (s + j) % n
        if st["out"][t] is None:
            st["start"] = t
            break
    for s in turn_order(st):
        hand = st["hand"][s]
        drawn = []
        while len(hand) < HAND:
            if not st["deck"]:
                if not st["disc"]:
                    break
                st["deck"] = st["disc"][:]  # a copy: it is shuffled in place, and views share the pile
                st["disc"] = []
                Rng(st).shuffle(st["deck"])
                ev.say(
                    "reshuffle",
                    i18n.text(
                        "The draw pile is empty: the discard pile ({n} cards) is shuffled into a new draw pile.",
                        n=len(st["deck"]),
                    ),
                )
            c = st["deck"].pop()
            hand.append(c)
            drawn.append(c)
        if drawn:
            ev.say(
                "draw",
                i18n.text("You draw {cards}", cards=[card_word(c) for c in drawn]),
                to=(s,),
                reveals=True,
                cards=drawn,
            )
    ev.say(
        "draws",
        i18n.text(
            "Everybody draws up to {n} cards; {player} becomes the starting player.",
            n=HAND,
            player=name_of(st, st["start"]),
        ),
    )
    st["turn"] += 1
    st["todo"].append({"t": "turn"})
