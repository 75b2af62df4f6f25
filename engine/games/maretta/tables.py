"""Maretta's tables: the moves every listing draws from, the events list of one apply, and the
game's words (split from rules.py, which reads them; nothing here changes a state but ``_put``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mypy_extensions import mypyc_attr

from engine import notation
from engine.core import Event, Move, State, new_event
from engine.games.maretta.cards import BARREL_NAMES, NAMES, SHIP, SUITS, value

Frame = dict[str, Any]

#: the label of playing each card ("play 3 Wood")
_PLAY_LABEL = {c: f"play {name}" for c, name in NAMES.items()}

# decisions that are resolved automatically when they offer a single choice (or skipped with none)
_AUTO_SINGLE = frozenset({"barrel", "monkey", "troop", "discard", "pelican", "spear"})


def _distinct(cards: list[str]) -> list[str]:
    """Each different card once, by number then suit (the steamship card last)."""
    return sorted(set(cards))


def _without(cards: list[str], card: str) -> list[str]:
    """A copy of ``cards`` without one ``card``."""
    rest = cards[:]
    rest.remove(card)
    return rest


def _multiset_minus(a: list[str], b: list[str]) -> list[str]:
    rest = list(a)
    for c in b:
        if c in rest:
            rest.remove(c)
    return rest


#: every seat clockwise from seat s, s first: ``_CLOCKWISE[n][s]`` (tables for up to 8 seats)
_CLOCKWISE = {n: [tuple((s + j) % n for j in range(n)) for s in range(n)] for n in range(1, 9)}
#: the other seats clockwise from seat s: ``_AFTER[n][s]``
_AFTER = {n: [seats[1:] for seats in tables] for n, tables in _CLOCKWISE.items()}


# Every (code, move) pair a listing can hold, made once (see decisions.step_moves: shared, never changed).
_CARDS = tuple(NAMES)  # every card, the steamship card too
_VALUE = {c: value(c) for c in _CARDS}
_SUIT = {c: c[1:] for c in _CARDS}
_OF_SUIT = {su: frozenset(c for c in _CARDS if c[1:] == su) for su in SUITS}
_SEATS = range(8)  # more seats than a game may have
_PLAY = {c: (c, {"a": "play", "c": c}) for c in _CARDS}
_GIVE = {(c, p): (f"{c}-{p + 1}", {"a": "give", "c": c, "p": p}) for c in _CARDS for p in _SEATS}
_STEAL = {(c, p): (f"st-{c}", {"a": "steal", "c": c, "p": p}) for c in _CARDS for p in _SEATS}
_MOVE_INSTEAD: tuple[str, Move] = ("move", {"a": "move"})
_TAKE_FROM = {(c, p): (f"tk-{c}-{p + 1}", {"a": "take", "c": c, "p": p}) for c in _CARDS for p in _SEATS}
_TAKE = {(c, p): (f"tk-{c}", {"a": "take", "c": c, "p": p}) for c in _CARDS for p in _SEATS}
_DISCARD = {c: (f"ds-{c}", {"a": "discard", "c": c}) for c in _CARDS}
_LOOK = {p: (f"look-{p + 1}", {"a": "look", "p": p}) for p in _SEATS}
_SWAP = {p: (f"swap-{p + 1}", {"a": "swap", "p": p}) for p in _SEATS}


def _put(st: State, key: str, i: int, value: Any) -> None:
    """``st[key][i] = value`` by replacing the list ``st[key]`` with a changed copy.

    Why: views share the state's public lists instead of copying them (see ``_public``), so a
    move must never change one of those lists in place, or a view already given out would
    change with it (tests/engine/test_core_view_isolation.py).
    """
    lst = st[key][:]
    lst[i] = value
    st[key] = lst


def _names_seat(p: int) -> Callable[[Move], bool]:
    return lambda mv: mv.get("p") == p


# (mypyc compiles no subclass of list: this one stays an ordinary Python class, see engine/compiled.py)
@mypyc_attr(native_class=False)
class _Events(list[Event]):
    """Events of one apply. An event after a reveal its audience saw is marked as revealing too,
    because it may depend on what was revealed (a move by a hidden number, a barrel's effect).

    Why only for that audience: what follows a reveal to one seat (a barrel it looked at) and
    is shown to the table must not depend on it beyond its visible consequences, and the
    hidden-information checks compare exactly the events that are not marked.
    """

    revealed = False  # to everybody
    revealed_to: frozenset[int] = frozenset()  # to these seats only

    def add(self, kind: str, text: str, to: tuple[int, ...] | None = None, reveals: bool = False,
            msg: dict[str, Any] | None = None, **data: Any) -> None:
        if reveals:
            if to is None:
                self.revealed = True
            else:
                self.revealed_to = self.revealed_to | set(to)
            self.append(new_event(kind, text, data, to, True, msg))
            return
        # (set(()) <= anything: an event for nobody follows any reveal)
        follows = self.revealed or (to is not None and (not to or (bool(self.revealed_to)
                                                                      and set(to) <= self.revealed_to)))
        self.append(new_event(kind, text, data, to, follows, msg))

    def say(self, kind: str, said: tuple[str, dict[str, Any]], to: tuple[int, ...] | None = None,
            reveals: bool = False, **data: Any) -> None:
        """An event whose text is a message (``engine.i18n.text``): told again in any language."""
        self.add(kind, said[0], to, reveals, said[1], **data)


#: the words of the game: verbs (a synonym may mean several), suits, barrels, players come from the state
VOCABULARY = notation.Vocabulary.build(
    verbs={
        "play": [], "give": [], "put": [], "steal": ["roubar", "rob", "nick"], "take": [],
        "move": ["go", "sail", "walk", "advance", "run", "row", "mover", "andar", "avancar"],
        "barrel": ["barrels", "open", "pick", "choose", "barril", "barris"],
        "discard": ["drop", "lose", "throw", "bin", "descartar", "throw away"],
        "look": ["peek", "pelican", "see", "view", "inspect", "olhar", "ver"],
        "swap": ["spear", "switch", "exchange", "trade", "trocar"],
        "own": ["me", "myself", "self", "mine", "yourself", "keep", "own raft", "own minecart"],
        "facedown": ["face down", "hidden", "unknown", "covered", "virada", "escondida", "closed", "secret"],
        "position1": ["position 1", "pos 1", "p1", "posicao 1", "slot 1", "first position"],
        "position2": ["position 2", "pos 2", "p2", "posicao 2", "slot 2", "second position"],
        "spaces": ["space", "steps", "step", "casas", "casa"],
    },
    words={
        **dict.fromkeys(("play", "lay", "jogar", "give", "place", "put", "send", "dar", "colocar", "por"),
                        ("give", "play", "put")),
        **dict.fromkeys(("take", "get", "grab", "pegar", "tirar"), ("barrel", "steal", "take")),
    },
    names={
        **{su: [name, su, {"wo": "madeira", "ro": "corda", "fi": "fogo", "wa": "agua", "fo": "comida"}[su]]
           for su, name in SUITS.items()},
        SHIP: ["steamship", "ship", "steamer", "boat", "steam ship", "navio", "vapor", "steamship card"],
        **{k: [v] for k, v in BARREL_NAMES.items()},
    },
    fillers=["raft", "minecart", "cart", "hand", "stock", "instead", "stealing", "position", "pos", "places",
             "i", "jangada", "vagoneta", "mao"],
    display={**SUITS, SHIP: "Steamship", **BARREL_NAMES, "facedown": "face down"},
)
