"""The table's small reads and changes both sides share: names, seat orders, opponents, a seat's stock,
a meeple's move, and the end of the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import filterfalse
from typing import Any

from engine import i18n
from engine.core import State
from engine.games.maretta.cards import DATA, SUITS, card_word
from engine.games.maretta.tables import (
    _AFTER,
    _CLOCKWISE,
    _OF_SUIT,
    _VALUE,
    _Events,
    _put,
)
from engine.i18n import N_, ngettext, word


def name_of(st: State, s: int) -> str:
    return str(st["players"][s])


def alive_seats(st: State) -> list[int]:
    out = st["out"]
    return [s for s in range(len(out)) if out[s] is None]


def turn_order(st: State) -> Sequence[int]:
    """Active seats clockwise from the starting player."""
    out = st["out"]
    if out.count(None) != len(out):  # somebody is out (side B)
        return [s for s in _CLOCKWISE[len(out)][st["start"]] if out[s] is None]
    return _CLOCKWISE[len(out)][st["start"]]


def opponents(st: State, s: int) -> Sequence[int]:
    out = st["out"]
    if out.count(None) != len(out):  # somebody is out (side B)
        return [p for p in _AFTER[len(out)][s] if out[p] is None]
    return _AFTER[len(out)][s]


def ahead(st: State, s: int) -> list[int]:
    pos = st["pos"]
    mine = pos[s]
    ahead = [pos[p] for p in opponents(st, s) if pos[p] > mine]
    if not ahead:
        return []
    nearest = min(ahead)
    return [p for p in opponents(st, s) if pos[p] == nearest]


def forget(st: State, s: int, card: str) -> None:
    """A card of seat s became public: it is no longer 'known to be in s's hand'."""
    known = st["known"]
    if not any(known):  # nobody has looked at a hand (the usual case)
        return
    key = str(s)
    for k in known:
        lst = k.get(key)
        if lst and card in lst:
            lst.remove(card)


def add_stock(st: State, s: int, card: str, ev: _Events) -> None:
    stock = [*st["stock"][s], card]
    if st["side"] == "B":
        su = card[1:]
        of_suit = _OF_SUIT[su].__contains__
        same = list(filter(of_suit, stock))
        total = sum(map(_VALUE.__getitem__, same))
        if total > 5:
            gone = same
            stock = list(filterfalse(of_suit, stock))
            st["disc"] = [*st["disc"], *gone]
            _put(st, "stock", s, stock)
            ev.say(
                "stack_discarded",
                i18n.text(
                    "{player}'s {suit} stack adds up to {total}, more than 5: it is discarded ({cards})",
                    player=name_of(st, s),
                    suit=word(SUITS[su]),
                    total=total,
                    cards=[card_word(c) for c in gone],
                ),
                seat=s,
                cards=gone,
            )
            return
    _put(st, "stock", s, stock)


def advance(st: State, s: int, n: int, ev: _Events, why: dict[str, Any]) -> None:
    old = st["pos"][s]
    end = st["end"]
    new = min(old + n, end)
    steps = new - old
    trail = st.get("trail")
    if trail is not None and steps > 0:  # the spaces passed through, for the board's trail
        _put(st, "trail", s, [*trail[s], *range(old + 1, new + 1)])
    if steps:
        _put(st, "pos", s, new)
    if n == 0:
        ev.say(
            "move", i18n.text("{player} does not move ({why})", player=name_of(st, s), why=why), seat=s, to_space=new
        )
        return
    ev.say(
        "move",
        i18n.text(
            "{player} moves {steps} ({why}) to {place}",
            player=name_of(st, s),
            steps=_spaces(steps),
            why=why,
            place=where_word(st, new),
        ),
        seat=s,
        steps=steps,
        to_space=new,
    )
    if steps > 0 and st["bar"].get(str(new)):
        st["todo"].append({"t": "barrel", "s": s, "at": new})


def where_word(st: State, p: int) -> dict[str, Any]:
    if p >= st["end"]:
        return word(str(DATA[st["side"]]["end_name"]))
    if p == 0:
        return word(str(DATA[st["side"]]["start_name"]))
    return word("space {n}", n=p)


def finish(st: State, winners: list[int], reason: str, ev: _Events) -> None:
    n = len(st["pos"])
    pos = st["pos"]
    out = st["out"]
    rest = [s for s in range(n) if s not in winners]

    def key(s: int) -> tuple[int, int, int]:
        # alive before out; later elimination before earlier; further along first
        return (1 if out[s] is None else 0, out[s] or 0, pos[s])

    groups: list[list[int]] = [sorted(winners)]
    for s in sorted(rest, key=key, reverse=True):
        if groups[-1] and groups[-1][0] not in winners and key(groups[-1][0]) == key(s):
            groups[-1].append(s)
        else:
            groups.append([s])
    groups = [sorted(g) for g in groups]
    st["over"] = {"winners": sorted(winners), "reason": reason, "ranking": groups, "scores": list(pos)}
    st["todo"] = []
    ev.say(
        "game_over",
        i18n.text(
            "The game ends ({reason}). Winners: {players}"
            if len(winners) > 1
            else "The game ends ({reason}). Winner: {players}",
            reason=word(reason),
            players=[name_of(st, s) for s in sorted(winners)],
        ),
        winners=sorted(winners),
        reason=reason,
    )


def _spaces(n: int) -> dict[str, Any]:
    return {"n": n, "one": "{n} space", "other": "{n} spaces"}


def _stacks(n: int) -> dict[str, Any]:
    return {"n": n, "one": "{n} stack", "other": "{n} stacks"}


# (the plural forms above, for the catalogue)
_PLURALS = (ngettext("{n} space", "{n} spaces", 1), ngettext("{n} stack", "{n} stacks", 1))

#: why a game ended (the state keeps the English words; events translate them)
_REASONS = (
    N_("steamship card"),
    N_("steamship token"),
    N_("steamship card and steamship token"),
    N_("deck exhausted"),
    N_("reached the sea"),
    N_("last survivor"),
    N_("nobody survived"),
    N_("empty"),
    # (the second text of a choice between two, for the catalogue)
    N_("{player} must put {card} on their own minecart"),
    N_("{player} puts {card} on {other}'s minecart"),
    N_("The game ends ({reason}). Winner: {players}"),
)
