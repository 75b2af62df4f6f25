"""A small decision stack that any game can keep inside its JSON state.

A turn made of many small decisions (sail, then a main action whose effects
chain into further choices) is a list of *frames* in ``state[key]``, top last.
Each frame is plain JSON::

    {"kind": "village", "seat": 2, "data": {"left": 2}}
    {"kind": "setup", "seats": [0, 1, 3], "data": {}}      # several seats at once

The game gives one :class:`Handler` per kind: ``options`` lists the choices of
the frame on top, ``resolve`` carries one of them out. The stack pops the frame
before ``resolve`` runs, so a handler that wants to ask again (two more village
actions) pushes it back with new data, and a handler whose effect needs a
decision first (an immediate effect asking for a nation) pushes that frame on
top. Frames push in the order they are to be *asked*: :meth:`DecisionStack.push_all`
takes them in asking order.

Automatic frames resolve themselves in :meth:`DecisionStack.settle`: a frame
whose handler lists no option is dropped, a frame with exactly one option is
taken without asking (unless the frame says ``"ask": true``), and a handler may
declare a frame automatic outright. ``pending`` and ``options`` read the top.
A frame with ``seats`` is a simultaneous decision: every listed seat is
pending, each resolves its own part and the handler removes the seat from
the list (see :meth:`DecisionStack.done_for`); the frame pops itself when the
list is empty.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from engine.core import Event, Move, Option, State, option_by_code
from engine.errors import IllegalMove, NotYourTurn
from engine.rng import Rng

Frame = dict[str, Any]

#: settle() gives up after this many automatic resolutions in a row (a handler loop is a bug)
MAX_AUTOMATIC = 10_000


@mypyc_attr(native_class=False)  # (mypyc compiles no native subclass of RuntimeError)
class StackError(RuntimeError):
    """A programming error in a game's handlers (unknown kind, runaway automatic frames)."""


class Handler(Protocol):
    """What a game provides for one frame kind."""

    def options(self, state: State, frame: Frame) -> list[Option]: ...

    def resolve(self, state: State, frame: Frame, seat: int, option: Option, rng: Rng) -> list[Event]: ...


@dataclass(frozen=True, slots=True)
class FunctionHandler:
    """A handler made of two functions, the usual way to declare one.

    ``settle_fn`` (optional): what :meth:`DecisionStack.settle` needs to know of a frame's
    options, cheaper than listing them all: a prefix of the options with at least two of them
    when there are two or more (then the frame asks), else all of them.
    """

    options_fn: Callable[[State, Frame], list[Option]]
    resolve_fn: Callable[[State, Frame, int, Option, Rng], list[Event]]
    settle_fn: Callable[[State, Frame], list[Option]] | None = None

    def options(self, state: State, frame: Frame) -> list[Option]:
        return self.options_fn(state, frame)

    def settle_options(self, state: State, frame: Frame) -> list[Option]:
        fn = self.settle_fn
        return fn(state, frame) if fn is not None else self.options_fn(state, frame)

    def resolve(self, state: State, frame: Frame, seat: int, option: Option, rng: Rng) -> list[Event]:
        return self.resolve_fn(state, frame, seat, option, rng)


def frame(kind: str, seat: int | None = None, *, seats: Iterable[int] | None = None, ask: bool = False,
          **data: Any) -> Frame:
    """A new frame: one seat decides, or (``seats``) several at once."""
    f: Frame = {"kind": kind, "data": data}
    if seats is not None:
        f["seats"] = sorted(seats)
    else:
        if seat is None:
            raise StackError(f"frame {kind} needs a seat or seats")
        f["seat"] = seat
    if ask:
        f["ask"] = True
    return f


class DecisionStack:
    """The frames in ``state[key]`` and the handlers that resolve them."""

    __slots__ = ("handlers", "key", "state")

    def __init__(self, state: State, handlers: Mapping[str, Handler], key: str = "stack") -> None:
        self.state = state
        self.handlers = handlers
        self.key = key
        state.setdefault(key, [])

    # ---- reading -----------------------------------------------------------------

    @property
    def frames(self) -> list[Frame]:
        frames: list[Frame] = self.state[self.key]
        return frames

    def top(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    def __len__(self) -> int:
        return len(self.frames)

    def pending(self) -> list[int]:
        top = self.top()
        if top is None:
            return []
        if "seats" in top:
            return list(top["seats"])
        return [int(top["seat"])]

    def handler(self, f: Frame) -> Handler:
        try:
            return self.handlers[f["kind"]]
        except KeyError:
            raise StackError(f"no handler for frame kind {f['kind']!r}") from None

    def options(self, seat: int) -> list[Option]:
        top = self.top()
        if top is None or seat not in self.pending():
            return []
        return self.handler(self._for_seat(top, seat)).options(self.state, self._for_seat(top, seat))

    # ---- changing ----------------------------------------------------------------

    def push(self, f: Frame) -> None:
        self.frames.append(f)

    def push_all(self, frames: Iterable[Frame]) -> None:
        """Push frames given in the order they are to be asked (the first ends on top)."""
        self.frames.extend(reversed(list(frames)))

    def pop(self) -> Frame:
        if not self.frames:
            raise StackError("pop from an empty decision stack")
        f: Frame = self.frames.pop()
        return f

    def clear(self) -> None:
        self.frames.clear()

    def done_for(self, seat: int) -> None:
        """A simultaneous frame on top: ``seat`` has finished its part."""
        top = self.top()
        if top is None or "seats" not in top:
            raise StackError("done_for needs a simultaneous frame on top")
        top["seats"] = [s for s in top["seats"] if s != seat]
        if not top["seats"]:
            self.pop()

    def choose(self, seat: int, move: Move, rng: Rng, options: list[Option] | None = None) -> list[Event]:
        """Validate ``move`` against the top frame's options, resolve it, then settle.

        ``options``: the seat's options just listed for this very state, when the caller has
        them (saves listing them again). Nothing changes when the move is refused.
        """
        top = self.top()
        if top is None:
            raise NotYourTurn("there is nothing to decide now")
        if seat not in self.pending():
            raise NotYourTurn("it is not your decision now")
        mine = self._for_seat(top, seat)
        opts = options if options is not None else self.handler(mine).options(self.state, mine)
        if not opts:
            raise IllegalMove("there is nothing to choose here")
        option = option_by_code(opts, move)
        events = self._resolve(top, seat, option, rng)
        events.extend(self.settle(rng))
        return events

    def settle(self, rng: Rng) -> list[Event]:
        """Resolve automatic frames on top until one needs a real decision (or none is left)."""
        events: list[Event] = []
        for _ in range(MAX_AUTOMATIC):
            top = self.top()
            if top is None:
                return events
            if "seats" in top:
                return events  # a simultaneous decision always asks
            h = self.handler(top)
            # Why a handler may list fewer here: the frame asks whenever it has two options or more,
            # so the rest need not be worked out (see FunctionHandler.settle_fn)
            lister = getattr(h, "settle_options", None)
            opts = lister(self.state, top) if lister is not None else h.options(self.state, top)
            if not opts:
                self.pop()
                continue
            if len(opts) == 1 and not top.get("ask"):
                events.extend(self._resolve(top, int(top["seat"]), opts[0], rng))
                continue
            return events
        raise StackError(f"more than {MAX_AUTOMATIC} automatic frames in a row")

    # ---- internals ---------------------------------------------------------------

    def _resolve(self, top: Frame, seat: int, option: Option, rng: Rng) -> list[Event]:
        if "seats" in top:
            # the frame stays for the other seats; the handler calls done_for when this seat is through
            return list(self.handler(top).resolve(self.state, self._for_seat(top, seat), seat, option, rng))
        self.pop()
        return list(self.handler(top).resolve(self.state, top, seat, option, rng))

    @staticmethod
    def _for_seat(top: Frame, seat: int) -> Frame:
        if "seats" not in top:
            return top
        # a per-seat reading of a simultaneous frame; data is shared (handlers key it by seat)
        return {"kind": top["kind"], "seat": seat, "data": top["data"], "shared": True}
