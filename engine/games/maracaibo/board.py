"""The table and its small reads, shared by every part of a turn, and the decision stack.

Read first. The state's keys are explained in ``rules.py``; this module answers the questions every
phase asks of it (what kind of location, which city action, which legacy tiles, the nations'
markers and multipliers), makes the options (:func:`opt`), and keeps :data:`HANDLERS`, the frame
kinds of the decision stack: each phase module registers the frames it owns when it is imported
(``rules.py`` imports them all), and :func:`stack` reads the state's frames with them.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from engine import i18n
from engine.core import Event, Option, State, new_option
from engine.stack import DecisionStack, Frame, FunctionHandler, frame

from . import content as C
from .effects import said, who
from .vpwhen import vp_when

P = dict[str, Any]


def json_copy(v: Any) -> Any:
    """A deep copy of JSON data, quicker than copy.deepcopy (no memo: JSON has no cycles)."""
    if isinstance(v, dict):
        return {k: json_copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [json_copy(x) for x in v]
    return v


def opt(code: str, label: str) -> Option:
    """The option of this code and label, made once, then the same object in every listing.

    Why shared: a move lists a dozen options and making one costs about as much as a small dict
    of state; the codes and labels come from a bounded set (the static data and small numbers).
    An option is a value: frozen, and nothing changes its move (apply takes a copy)."""
    found = _OPTIONS.get((code, label))
    if found is None:
        if len(_OPTIONS) >= _MAX_OPTIONS:
            _OPTIONS.clear()
        # (the label says when its VP come: "3 VP now", issue #21)
        found = _OPTIONS[(code, label)] = new_option(code, vp_when(label), {"code": code})
    return found


_OPTIONS: dict[tuple[str, str], Option] = {}


#: a bound on the options kept (a whole game makes a few thousand)
_MAX_OPTIONS = 50_000


def first_two(options: Iterator[Option]) -> list[Option]:
    """What the stack's settle needs of a frame's options (engine.stack.FunctionHandler.settle_fn):
    the first two when there are two or more, else all of them; the rest are never worked out."""
    return list(itertools.islice(options, 2))


def hand_limit(p: P) -> int:
    # (the Uprising's hand_plus: Flying Dutchman's reward raises it for good)
    return (C.HAND_LIMIT_UPGRADED if "U2" in p["areas"] else C.HAND_LIMIT) + int(p.get("hand_plus", 0))


def last_round(state: State) -> bool:
    return int(state["round"]) >= int(state["rounds"])


#: card id -> content.sold_before (static data, worked out at a card's first look: the Uprising's cards join
#: content.CARD when uprising_content is imported, which may be after this module)
SOLD_BEFORE: dict[int, int | None] = {}


def closed_from(state: State, cid: int) -> int | None:
    """The round of this game from which card ``cid`` is no longer sold (None: sold in every round): its
    row's ``before_round``, or the game's last round for ``before_last_round`` (content.sold_before)."""
    if cid in SOLD_BEFORE:
        r = SOLD_BEFORE[cid]
    else:
        r = SOLD_BEFORE[cid] = C.sold_before(C.CARD[cid])
    return None if r is None else r or int(state["rounds"])


def window_closed(state: State, cid: int) -> bool:
    """Whether card ``cid``'s buying window has closed (cards.can_buy; the notation's refusal says it)."""
    r = closed_from(state, cid)
    return r is not None and int(state["round"]) >= r


def legacy(state: State, kind: str) -> list[dict[str, Any]]:
    """The legacy tiles of this kind in play (scenarios 76, 77): a list shared by every call, not
    to be changed (the tiles in play never change after the setup)."""
    key = (tuple(state.get("legacy", ())), kind)
    found = _LEGACY.get(key)
    if found is None:
        found = _LEGACY[key] = [C.LEGACY[t] for t in key[0] if C.LEGACY[t]["kind"] == kind]
    return found


_LEGACY: dict[tuple[tuple[str, ...], str], list[dict[str, Any]]] = {}


def loc_kind(state: State, loc: str) -> str:
    """village, city, home or start; "off" for a legacy location whose tile is not in play.

    Why a table: the kind depends only on the legacy tiles in play and on whether two players
    or fewer play, which never change during a game; a move asks for it several times."""
    key = (tuple(state.get("legacy", ())), tuple(state.get("legacy_new", ())), len(state["players"]) <= 2)
    kinds = _LOC_KINDS.get(key)
    if kinds is None:
        kinds = _LOC_KINDS[key] = {loc: _loc_kind(state, loc) for loc in C.LOC}
    return kinds[loc]


_LOC_KINDS: dict[tuple[tuple[str, ...], tuple[str, ...], bool], dict[str, str]] = {}


def _loc_kind(state: State, loc: str) -> str:
    info = C.LOC[loc]
    if "legacy" in info and info["legacy"] not in state.get("legacy", ()) \
            and info["legacy"] not in state.get("legacy_new", ()):  # (the Uprising's L30: legacyboard.py)
        return "off"
    kind = str(info["kind"])
    if kind == "city" and info.get("two_player") and len(state["players"]) <= 2:  # solo: as with 2
        return "village"  # the 2-player Maracaibo city tile covers the city
    if kind == "village" and any(t["loc"] == loc for t in legacy(state, "city")):
        return "city"  # legacy tile L1: Puerto Cabezas becomes a city
    return kind


def open_to(state: State, p: P, loc: str) -> bool:
    """A legacy city may be entered (and annexed) once the player's explorer has got far enough."""
    return loc_kind(state, loc) != "off" and p["explorer"] >= C.LOC[loc].get("explorer", 0)


def city_action(state: State, loc: str) -> str:
    if loc in state["tiles"]:
        return str(C.CITY_TILE[state["tiles"][loc]]["action"])
    for t in legacy(state, "city"):
        if t["loc"] == loc:
            return str(t["action"])
    return str(C.LOC[loc]["action"])


def city_action_text(state: State, loc: str, *, told: bool = False) -> str:
    """The city action at ``loc``, to the player who may take it, or (``told``) about them."""
    action = city_action(state, loc)
    if action == "gain":
        return C.gain_text(C.LOC[loc]["gain"])
    if told:
        return C.CITY_ACTION_TOLD.get(action) or C.told(C.CITY_ACTION_TEXT[action])
    return C.CITY_ACTION_TEXT[action]


def markers_on_board(state: State) -> dict[str, int]:
    on_board = list(state["markers"].values())
    return {n: on_board.count(n) for n in C.NATIONS}


def take_marker(state: State, nation: str) -> bool:
    spaces = state["supply"][nation]
    for i, left in enumerate(spaces):
        if left > 0:
            state["supply"][nation] = [*spaces[:i], left - 1, *spaces[i + 1:]]  # (replaced: views share it)
            return True
    return False


def has_marker(state: State, nation: str) -> bool:
    return any(state["supply"][nation])


def multiplier(state: State) -> dict[str, int]:
    """Each nation's multiplier: its empty supply spaces, plus 2 for the most markers on the board
    (ties: all of them), or 1 for the second most when a single nation has more."""
    on_board = list(state["markers"].values())
    counts = [on_board.count(n) for n in C.NATIONS]
    ordered = sorted(counts)
    top = ordered[-1]
    # second most, when a single nation has the most: the highest count below it
    second = ordered[-2] if len(ordered) > 1 and ordered[-2] != top else None
    supply = state["supply"]
    out = {}
    for n, c in zip(C.NATIONS, counts):
        out[n] = supply[n].count(0) + (2 if c == top else 1 if c == second else 0)
    return out


# (compiled: a native subclass of the native DecisionStack; a Python class may not subclass one)
class _Stack(DecisionStack):
    """The shared decision stack, its reads of the top written out for Maracaibo's frames in
    ``state["stack"]``: the same results in fewer calls (one move reads the top a dozen times)."""

    def top(self) -> Frame | None:
        frames: list[Frame] = self.state["stack"]
        return frames[-1] if frames else None

    def pending(self) -> list[int]:
        return _pending_seats(self.state)

    def pop(self) -> Frame:
        frames: list[Frame] = self.state["stack"]
        if not frames:
            return super().pop()  # (the error)
        return frames.pop()


#: the frame kinds and their handlers: each phase module adds its own when imported
HANDLERS: dict[str, FunctionHandler] = {}


def _pending_seats(state: State) -> list[int]:
    """DecisionStack.pending, read from the state."""
    frames = state["stack"]
    if not frames:
        return []
    top = frames[-1]
    if "seats" in top:
        return list(top["seats"])
    return [int(top["seat"])]


def stack(state: State) -> DecisionStack:
    return _Stack(state, HANDLERS)


def start_turn(state: State, seat: int, ev: list[Event]) -> None:
    state["turn"] = seat
    ev.append(said("turn", i18n.text("{player}'s turn (round {round}).", player=who(state, seat), round=state["round"]),
                   {"seat": seat}))
    stack(state).push_all([frame("sail", seat, ask=True), frame("main", seat, spent=0), frame("free", seat),
                           frame("draw", seat), frame("next", seat)])
