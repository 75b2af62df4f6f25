"""Side A, Escape from Maretta: phase one (a card face down in position 1, all turned over together),
what a card placed in position 2 moves (its receiver by the difference, its placer 2 or a steal), and
phase three (a Steamship passes, the rafts into stock, two cards each).
"""

from __future__ import annotations

from engine import i18n
from engine.core import State
from engine.games.maretta.board import add_stock, advance, finish, forget, name_of
from engine.games.maretta.cards import SHIP, card_word, value
from engine.games.maretta.tables import (
    Frame,
    _Events,
    _put,
)
from engine.i18n import word


def commit(st: State, s: int, card: str, ev: _Events) -> None:
    st["hand"][s].remove(card)
    _put(st, "p1", s, card)
    _put(st, "p1d", s, True)
    ev.say("committed", i18n.text("You put {card} face down in position 1", card=card_word(card)), to=(s,), card=card)
    ev.say("chosen", i18n.text("{player} has chosen a card for position 1", player=name_of(st, s)), seat=s)
    n = len(st["pos"])
    p1, hands = st["p1"], st["hand"]
    for t in range(n):
        if p1[t] is None and hands[t]:
            return  # someone is still choosing
    st["todo"].pop()
    shown = []
    p1d = st["p1d"] = st["p1d"][:]  # replaced, never changed in place (views share it)
    for t in range(n):
        c = st["p1"][t]
        if c is None:
            continue
        if st["cut"][t]:
            shown.append(word("{player}: stays face down (cuttlefish)", player=name_of(st, t)))
            continue
        p1d[t] = False
        forget(st, t, c)
        shown.append(word("{player}: {card}", player=name_of(st, t), card=card_word(c)))
    ev.say(
        "reveal",
        i18n.text("All cards are turned over. {shown}", shown={"items": shown, "sep": "; "}),
        reveals=True,
        cards=[None if st["p1d"][t] else st["p1"][t] for t in range(n)],
    )
    st["phase"] = 2
    ev.say(
        "phase",
        i18n.text(
            "Phase two: clockwise from the starting player, each player puts a card on "
            "an opponent's raft in position 2."
        ),
    )
    st["todo"].append({"t": "nextP", "i": 0})


def step_recvA(st: State, f: Frame, ev: _Events) -> None:
    r = f["r"]
    c1, c2 = st["p1"][r], st["p2"][r]
    if st["p1d"][r]:
        _put(st, "p1d", r, False)
        forget(st, r, c1)
        ev.say(
            "reveal",
            i18n.text(
                "{player} turns over the face-down card in position 1: {card}",
                player=name_of(st, r),
                card=card_word(c1),
            ),
            reveals=True,
            seat=r,
            card=c1,
        )
    d = abs(value(c1) - value(c2))
    _put(st, "mv", r, d)
    advance(st, r, d, ev, word("difference between {a} and {b}", a=card_word(c1), b=card_word(c2)))


def step_placerA(st: State, f: Frame, ev: _Events) -> None:
    s, r = f["s"], f["r"]
    if s == r:
        return
    card = st["p2"][r]
    if card != SHIP and card in st["stock"][r]:
        st["todo"].append({"t": "steal", "s": s, "r": r})
        return
    advance(st, s, 2, ev, word("for placing a card"))


def step_p3A(st: State, f: Frame, ev: _Events) -> None:
    n = len(st["pos"])
    st["phase"] = 3
    p1, p2 = st["p1"], st["p2"]
    winners: set[int] = set()
    reason = ""
    if SHIP in p1 or SHIP in p2:
        scores = []
        for s in range(n):
            kinds = len({c[1:] for c in st["stock"][s]})
            scores.append(st["mv"][s] + kinds)
        boarders = [s for s in range(n) if scores[s] >= 7]
        detail = [f"{name_of(st, s)} {st['mv'][s]}+{scores[s] - st['mv'][s]}={scores[s]}" for s in range(n)]
        if boarders:
            ev.say(
                "steamship",
                i18n.text(
                    "A Steamship passes! Scores (movement + resource types in stock): {detail}. Boarding: {players}",
                    detail=detail,
                    players=[name_of(st, s) for s in boarders],
                ),
                scores=scores,
                boarders=boarders,
            )
            winners.update(boarders)
            reason = "steamship card"
        else:
            ev.say(
                "steamship",
                i18n.text(
                    "A Steamship passes, but nobody reaches 7 (movement + resource types "
                    "in stock: {detail}); the Steamship card is discarded",
                    detail=detail,
                ),
                scores=scores,
                boarders=[],
            )
    token = [s for s in range(n) if st["pos"][s] >= st["end"]]
    if token:
        winners.update(token)
        reason = reason + " and steamship token" if reason else "steamship token"
    if winners:
        finish(st, sorted(winners), reason, ev)
        return
    for s in range(n):
        for c in (p1[s], p2[s]):
            if c is None:
                continue
            if c == SHIP:
                st["disc"] = [*st["disc"], c]
            else:
                add_stock(st, s, c, ev)
    st["p1"] = [None] * n
    st["p2"] = [None] * n
    ev.say("stock", i18n.text("Everybody moves the cards of their raft into their stock."))
    st["start"] = (st["start"] + 1) % n
    if len(st["deck"]) < 2 * n:
        best = max(st["pos"])
        ev.say("deck_out", i18n.text("The deck cannot supply two cards to everybody: the game ends."))
        finish(st, [s for s in range(n) if st["pos"][s] == best], "deck exhausted", ev)
        return
    for j in range(n):
        s = (st["start"] + j) % n
        drawn = [st["deck"].pop(), st["deck"].pop()]
        st["hand"][s].extend(drawn)
        ev.say(
            "draw",
            i18n.text("You draw {a} and {b}", a=card_word(drawn[0]), b=card_word(drawn[1])),
            to=(s,),
            reveals=True,
            cards=drawn,
        )
    ev.say(
        "draws",
        i18n.text("Everybody draws 2 cards; {player} becomes the starting player.", player=name_of(st, st["start"])),
    )
    st["turn"] += 1
    st["todo"].append({"t": "turn"})
