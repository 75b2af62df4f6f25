"""Maracaibo: The Uprising, the ruin L31 and its track L32 (rulebook page 12; docs/rules/maracaibo-uprising.md,
"New legacy tiles"), read from their rows of ``data/uprising/tiles.json``:

- moving the explorer past the ruin (from its ``after_space`` or before to a later space) puts a figure from
  the supply at the start (space 0) of the ruin track at once; none if the supply is empty, and never later
  ("Você não pode voltar e colocar a figura em uma volta posterior"); at most one figure a player;
- from the player's next turn on, every explorer move may be split between the explorer and that figure
  (exploring.py: ``e<a>r<b>``, the explorer to a and the figure to b; ``r<b>``, the figure alone); the
  figure skips the spaces the other players' figures hold, the track's end excepted;
- the space the figure stops on: space 2 and 4 their gain; spaces 1 and 3 a reward only if the player pays
  the objects shown (frame ``ruinpay``: the cards that pay, or nothing): the top project card revealed, the
  reward for its object, the card discarded; the end: VP by the order of arrival (``end_vp``); the figure
  stays there.

What lies on the track is ``state["legacy_board"]``: ``L32`` (seat -> space), ``order`` (the seats in the
order they reached the end), ``since`` (seat -> the turn the figure arrived).

SUBSTITUTE CONTENT: the spaces' objects and the end's VP are this project's (Assumption A18).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import uprising_content as U
from .board import HANDLERS, opt, stack
from .careers import with_free_actions
from .effects import add_vp, gain, player, who
from .quests import pay_label, quest_payments
from .reveal import by_object

RUIN: dict[str, Any] | None = next((t for t in U.LEGACY.values() if t.get("kind") == "ruin"), None)
TRACK: dict[str, Any] | None = U.LEGACY.get(str(RUIN["track"])) if RUIN else None
#: the ruin track's spaces by number (1-4), and its end
SPACES: dict[int, dict[str, Any]] = {int(s["n"]): s for s in TRACK["spaces"]} if TRACK else {}
END = len(SPACES) + 1


def _board(state: State) -> dict[str, Any]:
    found: dict[str, Any] = state.get("legacy_board", {})
    return found


def playing(state: State) -> bool:
    return TRACK is not None and TRACK["id"] in _board(state)


def position(state: State, seat: int) -> int | None:
    """Where this player's figure stands on the ruin track (None: none there)."""
    if not playing(state):
        return None
    assert TRACK is not None
    at = _board(state)[TRACK["id"]].get(str(seat))
    return None if at is None else int(at)


def _set(state: State, **parts: Any) -> None:
    """The board's dicts replaced, never changed in place (views share them)."""
    state["legacy_board"] = {**state["legacy_board"], **parts}


def on_explore(state: State, seat: int, start: int, to: int, ev: list[Event]) -> None:
    """The explorer moved from ``start`` to ``to``: past the ruin, a figure from the supply to the track."""
    if not playing(state) or position(state, seat) is not None:
        return
    assert RUIN is not None and TRACK is not None
    if not start <= int(RUIN["after_space"]) < to:
        return
    p = player(state, seat)
    if p["figures"] < 1:
        ev.append(new_event("ruin", f"{who(state, seat)}'s explorer passes the ruin with no figure in the supply: "
                            "none goes to the ruin track.", {"seat": seat}))
        return
    p["figures"] -= 1
    board = _board(state)
    _set(state, **{TRACK["id"]: {**board[TRACK["id"]], str(seat): 0},
                   "since": {**board["since"], str(seat): int(state["turns"])}})
    ev.append(new_event("ruin", f"{who(state, seat)}'s explorer passes the ruin: a figure goes to the start of the "
                        "ruin track.", {"seat": seat}))


def can_move(state: State, seat: int) -> bool:
    """The figure may move: it is on the track, short of its end, since an earlier turn."""
    at = position(state, seat)
    return at is not None and at < END and int(_board(state)["since"][str(seat)]) < int(state["turns"])


def reach(state: State, seat: int, n: int) -> dict[int, int]:
    """Each space the figure may stop on counting up to ``n`` spaces, with the fewest it counts (the spaces
    the other players' figures hold are skipped, the end never)."""
    at = position(state, seat)
    if at is None or n < 1:
        return {}
    assert TRACK is not None
    held = {int(v) for k, v in _board(state)[TRACK["id"]].items() if k != str(seat)} - {END}
    out: dict[int, int] = {}
    steps = 0
    for space in range(at + 1, END + 1):
        if space in held:
            continue
        steps += 1
        if steps > n:
            break
        out[space] = steps
    return out


def space_text(space: int, state: State | None = None) -> str:
    if space == END:
        return "the ruin track's end"
    s = SPACES[space]
    if "gain" in s:
        return C.gain_text(s["gain"])
    return f"pay {' and '.join(s['pay']['objects'])} to reveal a card for its object's reward"


def do_figure(state: State, seat: int, to: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The figure to ``to``: its space's reward (or the payment asked), the end's VP by order of arrival."""
    assert TRACK is not None
    board = _board(state)
    _set(state, **{TRACK["id"]: {**board[TRACK["id"]], str(seat): to}})
    ev.append(new_event("ruin_move", f"{who(state, seat)}'s figure moves to space {to} of the ruin track.",
                        {"seat": seat, "to": to}))
    if to == END:
        order = [*board["order"], seat]
        _set(state, order=order)
        vps = TRACK["end_vp"]
        vp = int(vps[min(len(order) - 1, len(vps) - 1)])
        add_vp(player(state, seat), vp, "explorer")
        ev.append(new_event("ruin_end", f"{who(state, seat)}'s figure reaches the end of the ruin track "
                            f"({_ordinal(len(order))}): {vp} VP.", {"seat": seat}))
        return []
    s = SPACES[to]
    if "gain" in s:
        return gain(state, seat, s["gain"], rng, ev, "explorer")
    if (state["deck"] or state["discard"]) and ways(state, seat, s):
        return [frame("ruinpay", seat, space=to, ask=True)]
    return []


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def ways(state: State, seat: int, s: dict[str, Any]) -> list[list[int]]:
    return quest_payments(player(state, seat), {"objects": s["pay"]["objects"]})


def _pay_options(state: State, f: Frame) -> list[Option]:
    s = SPACES[int(f["data"]["space"])]
    what = " and ".join(s["pay"]["objects"])
    return [*(opt("y" + "-".join(map(str, cs)), f"pay {what} with {pay_label(cs)}: reveal the top project card for "
                  "its object's reward") for cs in ways(state, f["seat"], s)),
            opt("no", "pay nothing: no reward on this space")]


def _pay_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    if o.code == "no":
        return []
    p = player(state, seat)
    cards = [int(c) for c in o.code[1:].split("-")]
    p["hand"] = [c for c in p["hand"] if c not in cards]
    state["discard"] = [*state["discard"], *cards]
    ev = [new_event("ruin_pay", f"{who(state, seat)} pays {', '.join(C.CARD[c]['name'] for c in cards)} on the "
                    "ruin track.", {"seat": seat, "cards": cards})]
    s = SPACES[int(f["data"]["space"])]
    stack(state).push_all(by_object(state, seat, s["by_object"], rng, ev, "legacy"))
    return ev


HANDLERS["ruinpay"] = with_free_actions(FunctionHandler(_pay_options, _pay_resolve))
