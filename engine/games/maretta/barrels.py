"""The barrels (rulebook: "Barrels"): what each one does, the cuttlefish's face-down card and who
knows of it, and a barrel's step that finds nothing to do.
"""

from __future__ import annotations

from engine import i18n
from engine.core import State
from engine.games.maretta.board import name_of, opponents
from engine.games.maretta.tables import (
    Frame,
    _Events,
    _put,
)


def barrel_effect(st: State, s: int, kind: str, ev: _Events, hidden: bool = False) -> None:
    """Resolve a barrel; ``hidden``: it was taken face down, so its steps must not name it."""
    todo = st["todo"]
    mark = len(todo)
    n = len(st["pos"])
    names = st["players"]
    if kind == "mo":
        todo.append({"t": "monkey", "s": s})
    elif kind == "tr":
        for p in reversed(opponents(st, s)):
            todo.append({"t": "troop", "s": p, "v": s})
    elif kind == "cu":
        _put(st, "cutn", s, True)
        announce_cuttlefish(st, s, [s], hidden)
        ev.say(
            "cuttlefish",
            i18n.text("Next turn {player} plays their first card face down", player=names[s]),
            to=(s,) if hidden else None,
            seat=s,
        )
    elif kind == "sc":
        st["cutn"] = [True] * n
        announce_cuttlefish(st, s, list(range(n)), hidden)
        ev.say(
            "cuttlefish", i18n.text("Next turn everybody plays their first card face down"), to=(s,) if hidden else None
        )
    elif kind == "sh":
        todo.append({"t": "discard", "s": s})
    elif kind == "sx":
        for p in reversed([s, *opponents(st, s)]):
            todo.append({"t": "discard", "s": p})
    elif kind == "sp":
        todo.append({"t": "spear", "s": s})
    elif kind == "an":
        todo.append({"t": "discard", "s": s})
        todo.append({"t": "discard", "s": s})
    elif kind == "pe":
        todo.append({"t": "pelican", "s": s})
    else:
        raise AssertionError(kind)
    if hidden:
        for f in todo[mark:]:
            f["h"] = 1
            f["by"] = s


def announce_cuttlefish(st: State, s: int, seats: list[int], hidden: bool) -> None:
    """Who knows that ``seats`` play their first card face down next turn: the table
    (``cutp``) for a face-up barrel, only its taker (``cutk``) for one taken face down."""
    n = len(st["pos"])
    public = st.setdefault("cutp", list(st["cutn"]))
    known = st.setdefault("cutk", [None] * n)
    if not hidden:
        public = st["cutp"] = public[:]  # replaced, never changed in place (views share it)
        for t in seats:
            public[t] = True
    for u in range(n):
        if hidden and u != s:
            continue
        if known[u] is not None or hidden:
            mine = list(known[u] or public)
            for t in seats:
                mine[t] = True
            known[u] = mine


def nothing(st: State, f: Frame, ev: _Events) -> None:
    t = f["t"]
    who = name_of(st, f["s"])
    msg = {
        "barrel": lambda: i18n.text("the barrels at space {n} are gone", n=f.get("at")),
        "monkey": lambda: i18n.text(
            "no opponent of {player} has a card in stock: the Monkey finds nothing", player=who
        ),
        "troop": lambda: i18n.text(
            "{other}'s stock is empty: {player} takes nothing",
            player=who,
            other=name_of(st, f["v"] if "v" in f else f["s"]),
        ),
        "discard": lambda: i18n.text("{player} has no card in stock to discard", player=who),
        "pelican": lambda: i18n.text("{player} has no opponent to look at: the Pelican has no effect", player=who),
        "spear": lambda: i18n.text("nobody is in front of {player}: the Fishing Spear has no effect", player=who),
    }[t]()
    if "h" in f:
        # A barrel taken face down that does nothing leaves nothing the table can see: why it
        # did nothing would name it (a Monkey, a Spear; one discard line or two), so only its
        # taker is told.
        ev.say("no_effect", msg, to=(taker(f),), seat=f["s"])
        return
    ev.say("no_effect", msg, seat=f["s"])


def taker(f: Frame) -> int:
    """Who took the face-down barrel whose effect this step is (older states: the step's seat)."""
    by = f.get("by")
    return int(by) if by is not None else int(f["s"])
