"""Batches of moves, and the rule that a reveal is a commit point.

A player often sends several moves at once: a mail's lines, an API ``commands``
list, a whole multi-step turn. :func:`apply_batch` applies them in order for one
seat, under one rule that every door shares:

- A step whose events reveal something (``Event.reveals``) or that consumed the
  game's random numbers (the ``rng`` in the state moved) is a **commit point**:
  it and every step before it stand, whatever happens later.
- When a step is refused, the steps since the last commit point are rolled back
  with it (they revealed nothing, so nothing is lost), and the batch stops there.
  A batch refused before any commit point leaves the state exactly as it was.
- A refused line is judged where it stands: after the lines before it. Its reason and its
  ``allowed`` list, and the :attr:`Refusal.options`, are computed in the state those lines
  made, before they are rolled back. Why that shows nothing new: the steps since the last
  commit point revealed nothing and used no random numbers, so the state they made is a
  function of what the seat could see and of its own lines (sent one a mail, they would have
  shown the same); and it is what the player needs to fix the turn ("after sailing to 9, no
  card of that name is in your hand", not a reason judged before the sail).
- A bug (any other exception) after rolled-back steps is different: an exception's text and
  traceback are the game's internals, not its options. The line is run again alone on the
  standing state, and what propagates is that run's exception or a :class:`BatchCrash` naming
  the line, never the exception raised in the rolled-back state (nor as the ``__context__`` of
  another one), so a traceback in a log carries nothing of it either.

Usage (any door; the service's ``do_submit_moves`` is one)::

    from engine.batch import Command, apply_batch

    result = apply_batch(rules, state, seat, [Command(text="draw"), Command(code="bogus")])
    result.steps          # the steps that stand, in order (Step: number, shown, move, label, events, commit)
    result.refused        # None, or Refusal(number, shown, error, options, rolled_back)
    result.committed      # whether the state changed at all
    result.visible_events(seat)  # what the stood steps showed that seat

``state`` is changed in place: on return it is the state after the steps that
stand. The moves in :attr:`Step.move` are canonical (the matched option's move,
without any extra keys that were sent), so a log of them replays exactly.
"""

from __future__ import annotations

import contextlib
import json
import marshal
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from engine.core import Event, Move, Option, Rules, State, note_events, visible_events
from engine.errors import IllegalMove, Malformed
from engine.i18n import _

__all__ = [
    "MOVED_ON", "BatchCrash", "BatchResult", "Command", "Refusal", "Step", "apply_batch", "canonical_move",
    "is_commit_point", "read_command",
]

#: Kinds of event that say the game moved on by itself: a new turn began (``turn``, with the seat
#: whose turn it is), a new phase for everyone (``phase``), or a round ended (``round_end``). A
#: game emits them; a door uses them to tell a closing ``done`` after a turn that ended by itself
#: (a sign-off) from a move of the decision that came next.
MOVED_ON = frozenset({"turn", "phase", "round_end"})


class BatchCrash(RuntimeError):
    """A bug while applying a line that came after rolled-back lines, which does not recur when the
    line is applied alone to the state that stands. The original exception is dropped on purpose:
    it was raised in (and may quote) a rolled-back state. Reproduce it from the move log and the batch."""


@dataclass(frozen=True)
class Command:
    """One thing a player asked for: exactly one of an option code, a line of notation or a move."""

    code: str | None = None
    text: str | None = None
    move: Mapping[str, Any] | None = None

    @property
    def shown(self) -> str:
        """The command as the player wrote it, for answers."""
        if self.text is not None:
            return self.text
        if self.code is not None:
            return self.code
        return json.dumps(dict(self.move or {}), sort_keys=True)


@dataclass(frozen=True, slots=True)
class Step:
    """One applied step of a batch."""

    number: int  #: position in the batch, from 1
    shown: str  #: the command as written
    move: Move  #: the canonical move that was applied
    label: str  #: the option's label (what the move was read as)
    events: tuple[Event, ...]
    commit: bool  #: this step revealed something or used the random numbers


@dataclass(frozen=True, slots=True)
class Refusal:
    """The step that was refused, and what the seat may be told about it."""

    number: int  #: position in the batch, from 1
    shown: str
    error: IllegalMove  #: judged after the lines before it; ``allowed`` lists the options there
    options: tuple[Option, ...]  #: the seat's options at the refused line (after the lines before it)
    rolled_back: tuple[int, ...]  #: numbers of the earlier steps undone with it (no reveal among them)


@dataclass(frozen=True, slots=True)
class BatchResult:
    steps: tuple[Step, ...]  #: the steps that stand
    refused: Refusal | None

    @property
    def committed(self) -> bool:
        return bool(self.steps)

    @property
    def ok(self) -> bool:
        return self.refused is None

    def visible_events(self, seat: int | None) -> list[Event]:
        """The stood steps' events as ``seat`` may see them (what the batch showed it)."""
        return visible_events([e for s in self.steps for e in s.events], seat)


def is_commit_point(rng_before: Any, state_after: State, events: Sequence[Event]) -> bool:
    """Whether a step that started with the state's ``rng`` at ``rng_before`` can no longer be taken back."""
    return state_after.get("rng") != rng_before or any(e.reveals for e in events)


def canonical_move(rules: Rules, state: State, seat: int, move: Mapping[str, Any]) -> Move:
    """The move of the option ``move`` names (by its code, else by equal structure); else ``move`` as given.

    Why: a structured move may carry extra keys the game ignores; the log must hold
    exactly what the game understood, so a replay and an audit read the same move.
    """
    opts = rules.options(state, seat)
    code = move.get("code")
    if code is not None:
        for opt in opts:
            if opt.code == code:
                return dict(opt.move)
    else:
        for opt in opts:
            if opt.move == move:
                return dict(opt.move)
    return dict(move)


def read_command(rules: Rules, state: State, seat: int, command: Command) -> Move:
    """The move a command stands for (raises IllegalMove when it cannot be read)."""
    if command.move is not None:
        if not isinstance(command.move, Mapping):
            raise Malformed("a move must be an object such as {\"code\": ...}")
        return canonical_move(rules, state, seat, command.move)
    if command.code is not None:
        for opt in rules.options(state, seat):
            if opt.code == command.code:
                return dict(opt.move)
        return {"code": command.code}
    return rules.parse(command.text or "", state, seat)


def _listed(rules: Rules, state: State, seat: int) -> tuple[Option, ...]:
    """The seat's options as a refusal lists them to a person: in the game's presented order."""
    return tuple(rules.presented(state, seat, rules.options(state, seat)))


def _with_allowed(exc: IllegalMove, allowed: list[str]) -> IllegalMove:
    try:
        return type(exc)(exc.message, allowed)
    except TypeError:  # a game's own subclass with another signature
        fresh = IllegalMove(exc.message, allowed)
        fresh.code = exc.code
        return fresh


def _copy(state: State) -> State:
    # Why marshal: the state is plain data by contract (JSON's types), and marshal copies it in C
    # about three times faster than a JSON round trip (which every batch paid once, as much as the
    # move itself); version 2 writes a list shared twice as two lists, as JSON would. JSON stays the
    # fallback for anything marshal cannot write.
    try:
        copied: State = marshal.loads(marshal.dumps(state, 2))
    except ValueError:
        copied = json.loads(json.dumps(state))
    return copied


def _restore(state: State, saved: State) -> None:
    state.clear()
    state.update(saved)


def apply_batch(rules: Rules, state: State, seat: int, commands: Sequence[Command], *,
                read: Callable[[Rules, State, int, Command], Move] = read_command,
                first_number: int = 1) -> BatchResult:
    """Apply ``commands`` in order for ``seat``; commit at every reveal; stop at the first refusal.

    ``read`` turns a command into a move (the default reads codes, notation and
    structured moves). Any exception other than IllegalMove (a bug) restores the
    state of the last commit point before it propagates (see the module's docstring
    for what propagates after rolled-back steps). ``first_number`` is the number of
    the first command (a door that continues a batch counts on).
    """
    saved = _copy(state)  # the state at the last commit point
    stood: list[Step] = []
    since: list[Step] = []  # applied after the last commit point: rolled back on a refusal
    for number, command in enumerate(commands, start=first_number):
        rng_before = state.get("rng")
        crashed = False
        chained: list[Step] = []
        try:
            try:
                move = read(rules, state, seat, command)
                label = rules.describe_move(state, seat, move)
                # a guessed word ("read `karla` as Carla") is said to the seat that typed it
                events = [*note_events(move, seat), *rules.apply(state, seat, move)]
            except IllegalMove as whole:
                # not one move: a line of sub-decisions ("buy Pious Gunner, explore 2"), read whole
                chained = _chain(rules, state, seat, number, command, read, whole)
        except _ChainRefused as refused:
            options = refused.options
            error = _with_allowed(refused.error, [f"{o.code}: {o.label}" for o in options])
            _restore(state, saved)
            undone = tuple(s.number for s in since)
            return BatchResult(tuple(stood), Refusal(number, command.shown, error, options, undone))
        except IllegalMove as exc:
            # judged where it stands: the options after the lines before it (see the docstring)
            options = _listed(rules, state, seat)
            error = _with_allowed(exc, [f"{o.code}: {o.label}" for o in options]) if since else exc
            _restore(state, saved)
            undone = tuple(s.number for s in since)
            return BatchResult(tuple(stood), Refusal(number, command.shown, error, options, undone))
        except BaseException as exc:
            if not since or not isinstance(exc, Exception):
                _restore(state, saved)
                raise
            crashed = True  # raised below, outside this handler, so the exception is not its __context__
        if crashed:
            _restore(state, saved)
            _crash_alone(rules, state, seat, command, number, tuple(s.number for s in since), read)
        if chained:
            since.extend(chained[:-1])
            step = chained[-1]
        else:
            step = Step(number, command.shown, move, label, tuple(events), is_commit_point(rng_before, state, events))
        since.append(step)
        if step.commit:
            stood.extend(since)
            since = []
            if number < first_number + len(commands) - 1:
                saved = _copy(state)
    return BatchResult(tuple(stood + since), None)


class _ChainRefused(Exception):
    """A line of sub-decisions refused whole: why, and the options where it failed."""

    def __init__(self, error: IllegalMove, options: tuple[Option, ...]) -> None:
        super().__init__(error.message)
        self.error, self.options = error, options


def _chain(rules: Rules, state: State, seat: int, number: int, command: Command,
           read: Callable[[Rules, State, int, Command], Move], whole: IllegalMove) -> list[Step]:
    """A line that is not one move read as sub-decisions, each after the one before it (a
    delivery's payment and disc, the explorer's space after a buy): all of them applied (``state``
    then stands after the last, one step each, numbered as the line), or none.

    ``whole``, the line's own refusal, stands when the line has one part or its first part is not
    a move either: it was not meant as a chain. Why only the last part may reveal or draw: a line
    is understood whole or refused whole, and a refusal after a reveal would take the reveal back
    (a peek); so such a line is refused whatever follows, by a reason that names only what the
    player wrote, never what was revealed. The one exception is a move repeated to the line's end
    that the game says is sure to be legal each time (``Rules.sure_repeat``: ``draw 2 from pile``),
    judged before its first reveal."""
    parts = rules.line_parts(command.text) if command.text is not None else []
    if len(parts) < 2:
        raise whole
    # A game may split a part more finely (Maracaibo: ``deliver corn with card 3`` as the delivery,
    # then its payment); where the first of those finer parts is no move (the delivery chosen already,
    # the payment asked), the line is read again split only where every game splits it (QA, #20: the
    # mail's worked line ``deliver cotton with Red Gunner, disc UH`` was refused at the payment).
    # Likewise where a later finer part is no move (``with Lucky Navigator`` after a delivery that only
    # that card could pay, paid without asking). The finer split's refusal stands when neither reads.
    plain = Rules.line_parts(rules, command.text) if command.text is not None else []
    try:
        return _chain_parts(rules, state, seat, number, command, read, whole, parts)
    except (_FirstPartRefused, _ChainRefused) as fine:
        refused: _ChainRefused | None = fine if isinstance(fine, _ChainRefused) else None
    if plain != parts and len(plain) > 1:
        try:
            return _chain_parts(rules, state, seat, number, command, read, whole, plain)
        except _ChainRefused as coarse:  # past its first part: what it says is nearer than "no move"
            refused = refused or coarse
        except _FirstPartRefused:
            pass
    if refused is not None:
        raise refused
    raise whole


class _FirstPartRefused(Exception):
    """The first part of a line's split is no move: the split was not what the writer meant."""


def _chain_parts(rules: Rules, state: State, seat: int, number: int, command: Command,
                 read: Callable[[Rules, State, int, Command], Move], whole: IllegalMove,
                 parts: list[str]) -> list[Step]:
    """:func:`_chain` for one split of the line (``parts``); :class:`_FirstPartRefused` when its first
    part is no move."""
    trial = _copy(state)
    steps: list[Step] = []
    sure = False  # the rest of the line repeats a move the game says is legal each time (see above)
    for k, part in enumerate(parts):
        rng_before = trial.get("rng")
        try:
            move = read(rules, trial, seat, Command(text=part))
            if not sure and k < len(parts) - 1 and all(p == part for p in parts[k + 1:]):
                # judged on the state before the first of them, which has revealed nothing yet
                sure = rules.sure_repeat(trial, seat, move, len(parts) - k)
            label = rules.describe_move(trial, seat, move)
            events = [*note_events(move, seat), *rules.apply(trial, seat, move)]
        except IllegalMove as exc:
            if not k:
                raise _FirstPartRefused from None
            # judged after the parts before it, which revealed nothing (see below)
            # said in the reader's language, as the reason after it is (a Portuguese mail read "in ..., after")
            raise _ChainRefused(IllegalMove(_('in "{line}", after "{before}": "{part}": {why}').format(
                line=command.text, before=", ".join(parts[:k]), part=part, why=exc.message)),
                                _listed(rules, trial, seat)) from None
        commit = is_commit_point(rng_before, trial, events)
        if commit and k < len(parts) - 1 and not sure:
            if len(set(parts)) == 1:  # a repeat the game cannot vouch for: its own reason says why
                raise _ChainRefused(whole, _listed(rules, state, seat))
            raise _ChainRefused(IllegalMove(_('"{part}" draws or reveals something, so it must end its line: '
                                              'write "{rest}" on the next line').format(
                                                  part=part, rest=", ".join(parts[k + 1:]))),
                                _listed(rules, state, seat))
        steps.append(Step(number, part, move, label, tuple(events), commit))
    _restore(state, trial)
    return steps


def _lines(numbers: Sequence[int]) -> str:
    if len(numbers) == 1:
        return f"line {numbers[0]}"
    return "lines " + ", ".join(str(n) for n in numbers[:-1]) + f" and {numbers[-1]}"


def _crash_alone(rules: Rules, standing: State, seat: int, command: Command, number: int, undone: Sequence[int],
                 read: Callable[[Rules, State, int, Command], Move]) -> None:
    """A bug after rolled-back lines: rerun the line alone on a copy of the standing state and raise
    what that run raises (computed from the standing state only), else a :class:`BatchCrash`."""
    trial = _copy(standing)
    with contextlib.suppress(IllegalMove):
        rules.apply(trial, seat, read(rules, trial, seat, command))
    # any other exception propagates from here: it was raised on the standing state
    raise BatchCrash(f"line {number} of a batch failed with an internal error after {_lines(undone)} "
                     "(rolled back with it); it does not fail alone on the standing state. The error is "
                     "not shown because it was raised in a rolled-back state: replay the move log and "
                     "apply the batch to reproduce it")
