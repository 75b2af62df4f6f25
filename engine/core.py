"""The rules contract every game implements, and the small value types it speaks.

A game is a subclass of :class:`Rules` registered by name. State is plain JSON
data (dicts, lists, str, int, bool, None) owned by the caller; :meth:`Rules.apply`
validates a move completely before it changes anything, then mutates the state
in place and returns the events. A refused move raises an :class:`IllegalMove`
and leaves the state exactly as it was.

Seats are integers ``0 .. n-1`` in clockwise order. A view or event for seat
``None`` is the spectator's.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from engine import i18n, notation, svg
from engine.errors import GameOver, IllegalMove, NotYourTurn, SetupError
from engine.i18n import _
from engine.rng import Rng, seed_to_state

State = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]


# Why the hand-written __init__ of Option and Event: a frozen dataclass's generated __init__ sets
# each field through object.__setattr__, which costs about twice what calling the slot's member
# descriptor does, and every move builds dozens of options and events. The instances are the same:
# frozen (assignment raises), equal, hashable and shown as the dataclass would.
#
# Compiled with mypyc (engine/compiled.py) they are native classes: their fields are C struct
# members, which the __init__ below sets directly (the frozen check is the dataclass's
# __setattr__, which only Python-level assignment goes through), and compiled code reads them
# without a lookup. The same source runs both ways: _NATIVE tells which.


@dataclass(frozen=True, slots=True, init=False)
class Option:
    """One legal choice: a stable short code, a human label, the move it stands for."""

    code: str
    label: str
    move: Move

    def __init__(self, code: str, label: str, move: Move) -> None:
        if _NATIVE:
            self.code = code  # type: ignore[misc]  # (a native field: set once, here)
            self.label = label  # type: ignore[misc]
            self.move = move  # type: ignore[misc]
        else:
            _set_code(self, code)
            _set_label(self, label)
            _set_move(self, move)

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "label": self.label, "move": self.move}

    def __reduce__(self) -> tuple[Any, ...]:
        # Why: a native class's instance is pickled and copied through its constructor (mypyc's
        # own way needs the class open to interpreted subclasses); the same in pure Python
        return (Option, (self.code, self.label, self.move))


@dataclass(frozen=True, slots=True, init=False)
class Event:
    """Something that happened. ``to`` is None for everyone, else the seats that may see it.

    ``reveals`` marks an event that shows information hidden until now (a card
    turned over, a barrel looked at, a die rolled): undo never crosses it.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    to: tuple[int, ...] | None = None
    reveals: bool = False
    #: the text as a message (``engine.i18n.msg``: msgid and parameters), so that it can be
    #: told again in another language (``engine.i18n.event_text``); None: the text only
    msg: Mapping[str, Any] | None = None

    def __init__(self, kind: str, text: str, data: Mapping[str, Any] | None = None,
                 to: tuple[int, ...] | None = None, reveals: bool = False,
                 msg: Mapping[str, Any] | None = None) -> None:
        if _NATIVE:
            self.kind = kind  # type: ignore[misc]  # (a native field: set once, here)
            self.text = text  # type: ignore[misc]
            self.data = {} if data is None else data  # type: ignore[misc]
            self.to = to  # type: ignore[misc]
            self.reveals = reveals  # type: ignore[misc]
            self.msg = msg  # type: ignore[misc]
        else:
            _set_kind(self, kind)
            _set_text(self, text)
            _set_data(self, {} if data is None else data)
            _set_to(self, to)
            _set_reveals(self, reveals)
            _set_msg(self, msg)

    def visible_to(self, seat: int | None) -> bool:
        return self.to is None or (seat is not None and seat in self.to)

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "text": self.text,
            "data": dict(self.data),
            "to": None if self.to is None else list(self.to),
            "reveals": self.reveals,
            **({} if self.msg is None else {"msg": dict(self.msg)}),
        }

    def as_stored(self) -> dict[str, Any]:
        """:meth:`as_dict` as a log row keeps it (issue 28: a third of a move's bytes on disk went
        to what this leaves out): no text when the message makes it again (:meth:`from_dict`, in
        the reader's language, as readers tell it anyway), no empty data, no ``to`` for everyone,
        no ``reveals`` when false. :meth:`from_dict` reads both forms."""
        out: dict[str, Any] = {"kind": self.kind}
        if self.msg is None:
            out["text"] = self.text
        if self.data:
            out["data"] = dict(self.data)
        if self.to is not None:
            out["to"] = list(self.to)
        if self.reveals:
            out["reveals"] = True
        if self.msg is not None:
            out["msg"] = dict(self.msg)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Event:
        to = d.get("to")
        msg = d.get("msg")
        return cls(
            kind=d["kind"],
            # a stored event keeps no text its message makes (as_stored): made in the context's language
            text=d["text"] if "text" in d else i18n.render(msg) if msg else "",
            data=dict(d.get("data") or {}),
            to=None if to is None else tuple(to),
            reveals=bool(d.get("reveals", False)),
            msg=msg,
        )

    def __reduce__(self) -> tuple[Any, ...]:
        return (Event, (self.kind, self.text, self.data, self.to, self.reveals, self.msg))  # (see Option's)


#: compiled with mypyc: Option and Event are native classes, without __slots__ (a Python class
#: has them, from slots=True)
_NATIVE: bool = "__slots__" not in vars(Option)


def _slot_setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    if _NATIVE:
        return _no_setter
    setter: Callable[[Any, Any], None] = vars(cls)[name].__set__  # the slot's member descriptor
    return setter


def _no_setter(obj: Any, value: Any) -> None:
    raise AssertionError("a native class sets its fields itself")


_set_code, _set_label, _set_move = (_slot_setter(Option, n) for n in ("code", "label", "move"))
_set_kind, _set_text, _set_data, _set_to, _set_reveals, _set_msg = (
    _slot_setter(Event, n) for n in ("kind", "text", "data", "to", "reveals", "msg"))


def _unfrozen_twin(cls: type) -> Any:
    """A plain class with exactly the slots of the frozen dataclass ``cls`` (None when compiled).

    Why: filling a twin's slots is ordinary attribute assignment (the interpreter's fastest
    store), and assigning ``__class__`` then makes it a ``cls`` instance like any other: frozen,
    equal, shown and hashed as the dataclass does. That builds an Option in about half the
    instructions of calling the slots' member descriptors (callgrind), and an Event in about
    a third. CPython allows the ``__class__`` assignment only between classes of the same
    layout, which the probe below checks once, at import. A native class (compiled) has no
    slots to copy and allows no such assignment; it needs none: its constructor is a C call.
    """
    if _NATIVE:
        return None
    twin = type(f"_{cls.__name__}Fields", (), {"__slots__": vars(cls)["__slots__"]})
    probe = twin()
    probe.__class__ = cls  # TypeError here if the two layouts ever differ
    return twin


_OptionFields, _EventFields = _unfrozen_twin(Option), _unfrozen_twin(Event)


def new_option(code: str, label: str, move: Move) -> Option:
    """``Option(code, label, move)`` without the call to ``__init__`` (for listings built at every move)."""
    if _NATIVE:
        return Option(code, label, move)
    o = _OptionFields()
    o.code = code
    o.label = label
    o.move = move
    o.__class__ = Option
    made: Option = o
    return made


def new_event(kind: str, text: str, data: Mapping[str, Any], to: tuple[int, ...] | None = None,
              reveals: bool = False, msg: Mapping[str, Any] | None = None) -> Event:
    """``Event(kind, text, data, to, reveals, msg)`` without the call to ``__init__`` (``data`` is required)."""
    if _NATIVE:
        return Event(kind, text, data, to, reveals, msg)
    e = _EventFields()
    e.kind = kind
    e.text = text
    e.data = data
    e.to = to
    e.reveals = reveals
    e.msg = msg
    e.__class__ = Event
    made: Event = e
    return made


def visible_events(events: Sequence[Event], seat: int | None) -> list[Event]:
    """Events redacted for one seat: the same rule as views."""
    return [e for e in events if e.visible_to(seat)]


# (Outcome, TeamResult and OptionSpec: ordinary Python classes when compiled too; no move builds them)
@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TeamResult:
    """A cooperative game's shared result: every seat won, or every seat lost, together.
    ``met`` and ``missed`` are the victory conditions the table met and missed, in words."""

    won: bool
    met: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {"won": self.won, "met": list(self.met), "missed": list(self.missed)}


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result. ``ranking`` lists groups of tied seats, best first.

    A solo game against an automa (which is no seat) gives its score in ``automa`` (name ->
    score); ``seats_won`` is False when the automa beat the seats: the ranking still places
    every seat, and nobody is a winner.

    A cooperative game gives ``team`` (None in every other game): the seats are one group of the
    ranking (co-operators are never ranked against each other) and ``seats_won`` is the team's
    result (use :meth:`cooperative` to build it).
    """

    scores: Mapping[int, float]
    ranking: tuple[tuple[int, ...], ...]
    reason: str
    automa: Mapping[str, float] = field(default_factory=dict)
    seats_won: bool = True
    team: TeamResult | None = None

    @classmethod
    def cooperative(cls, scores: Mapping[int, float], team: TeamResult, reason: str,
                    automa: Mapping[str, float] | None = None) -> Outcome:
        """The outcome of a cooperative game: all seats in one group, winners all or none."""
        return cls(scores=scores, ranking=(tuple(sorted(scores)),), reason=reason, automa=dict(automa or {}),
                   seats_won=team.won, team=team)

    @property
    def winners(self) -> tuple[int, ...]:
        return self.ranking[0] if self.ranking and self.seats_won else ()

    def as_dict(self) -> dict[str, Any]:
        # (the scores read as Any: compiled, a value typed float would be made one, and 69 shown as 69.0)
        scores: Mapping[int, Any] = self.scores
        d: dict[str, Any] = {
            "scores": {str(k): v for k, v in scores.items()},
            "ranking": [list(g) for g in self.ranking],
            "winners": list(self.winners),
            "reason": self.reason,
        }
        if self.automa:
            d["automa"] = dict(self.automa)
        if self.team is not None:
            d["team"] = self.team.as_dict()
        return d


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One game option, declared by the game, validated at setup.

    ``kind`` is ``int``, ``bool``, ``choice`` or ``intlist``.
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    min: int | None = None
    max: int | None = None
    #: Meaningful in a one-player game only (the automa's): not shown for a game of more players.
    solo_only: bool = False
    #: Meaningful in a game of two or more players only (the Uprising's modes): not for a solo game.
    multi_only: bool = False
    #: Never offered to a player (not in the games' list, the API's catalogue nor ``help``): the engine sets
    #: it for its own needs, e.g. Maracaibo's ``release``, which an older stored game's options carry.
    internal: bool = False

    def applies_to(self, n_players: int) -> bool:
        """Whether this option means something in a game of ``n_players``."""
        return (n_players == 1 or not self.solo_only) and (n_players > 1 or not self.multi_only)

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "type": self.kind, "default": self.default, "help": self.help}
        if self.choices:
            d["choices"] = list(self.choices)
        if self.min is not None:
            d["min"] = self.min
        if self.max is not None:
            d["max"] = self.max
        return d

    def coerce(self, value: Any) -> Any:
        """Accept the value as given in JSON, in a mail (text) or on a command line."""
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            folded = notation.fold(str(value))
            if folded in ("1", "yes", "true", "on", "y"):
                return True
            if folded in ("0", "no", "false", "off", "n"):
                return False
            raise SetupError(_("option {name} takes yes or no, not {value}").format(name=self.name, value=repr(value)))
        if kind == "int":
            n = _to_int(self.name, value)
            self._check_range(n)
            return n
        if kind == "intlist":
            parts: list[Any]  # (Any: compiled, a list typed list[str] would refuse the numbers of a list)
            if isinstance(value, str):
                parts = [p for p in value.replace(",", " ").split() if p]
            elif isinstance(value, (list, tuple)):
                parts = list(value)
            else:
                raise SetupError(_("option {name} takes a list of numbers, not {value}").format(
                    name=self.name, value=repr(value)))
            nums = [_to_int(self.name, p) for p in parts]
            for n in nums:
                self._check_range(n)
            return nums
        if kind == "choice":
            for choice in self.choices:
                if notation.fold(str(choice)) == notation.fold(str(value)):
                    return choice
            allowed = ", ".join(str(c) for c in self.choices)
            raise SetupError(_("option {name} must be one of {allowed}, not {value}").format(
                name=self.name, allowed=allowed, value=repr(value)))
        raise AssertionError(f"unknown option kind {kind}")

    def _check_range(self, n: int) -> None:
        if self.min is not None and n < self.min:
            raise SetupError(_("option {name} must be at least {min}, not {n}").format(
                name=self.name, min=self.min, n=n))
        if self.max is not None and n > self.max:
            raise SetupError(_("option {name} must be at most {max}, not {n}").format(
                name=self.name, max=self.max, n=n))


def _to_int(name: str, value: Any) -> int:
    if isinstance(value, bool):
        raise SetupError(_("option {name} takes a whole number, not {value}").format(name=name, value=repr(value)))
    try:
        return int(str(value).strip())
    except ValueError:
        raise SetupError(_("option {name} takes a whole number, not {value}").format(
            name=name, value=repr(value))) from None


@mypyc_attr(native_class=False)  # (mypyc compiles no native subclass of an interpreted class)
class BadArchive(SetupError):
    """A campaign archive the engine cannot continue from; the message names what is wrong.

    (A :class:`SetupError`, hence a ``ValueError``: a door that answers a bad setup answers it.)
    """


#: The envelope every campaign archive has (``Rules.archive``, ``Rules.check_archive``).
ARCHIVE_FORMAT = "pbem-campaign"


#: (class, method name) -> the hook Rules.__init_subclass__ set as that public method
_ALIASES: dict[tuple[type, str], Any] = {}


def versioned(body: dict[str, Any]) -> dict[str, Any]:
    """A game's catalogue with its ``version``: a digest of its content, so a client that cached
    it knows when the game's content changed (each game's ``catalogue.py`` builds ``body``)."""
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()[:16]
    return {"version": digest, **body}


#: Each game package's ``catalogue`` module (None: it has none), looked up once.
_CATALOGUE_MODULES: dict[str, Any] = {}


#: What separates the sub-decisions written on one line (``Rules.line_parts``).
_LINE_PARTS = re.compile(r"\s*(?:[,;]|\bthen\b)\s*", re.IGNORECASE)
#: a bracketed group of a line, closed (an option's label copied: "Bold Merchant (corn, book)")
_GROUPS = re.compile(r"\([^()]*\)|\[[^\[\]]*\]")


# (compiled: a native class that games written in Python, such as tests' toy games, may subclass)
@mypyc_attr(allow_interpreted_subclasses=True)

class Rules:
    """Base class of every game. Subclasses fill in the ``_``-prefixed hooks.

    The public methods are the contract the service uses; they add the checks
    that every game needs the same way (game over, whose turn, option schema).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: A short paragraph for mails and the API: how to write moves.
    notation_help: ClassVar[str] = ""
    #: What the words of this game mean (verbs, names, fillers): see :mod:`engine.notation`.
    vocabulary: ClassVar[notation.Vocabulary] = notation.Vocabulary()
    #: The vocabularies made for the players' names lately (:meth:`_vocabulary`), by those names.
    _vocab_cache: dict[tuple[str, ...], tuple[notation.Vocabulary, notation.Vocabulary]] | None = None
    #: The JSON Schema (draft 2020-12) of this game's views, a file beside the game's module
    #: (None: the game declares none; :meth:`view_schema` then answers any object).
    view_schema_file: ClassVar[str | None] = None
    #: Whether the game plays campaigns: games carried one to the next by an archive (see archive).
    supports_campaign: ClassVar[bool] = False

    # ---- contract -----------------------------------------------------------------

    def check_options(self, n_players: int, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Validate options against the declared schema; fill in defaults."""
        if not self.min_players <= n_players <= self.max_players:
            raise SetupError(_("{title} is for {min} to {max} players, not {n}").format(
                title=i18n.lookup(self.title) or self.title, min=self.min_players, max=self.max_players, n=n_players))
        given = dict(options or {})
        specs = {s.name: s for s in self.option_specs}
        unknown = sorted(set(given) - set(specs))
        if unknown:
            known = ", ".join(n for n, s in specs.items() if not s.internal) or _("none")  # internal: no client's
            raise SetupError(_("unknown option {names} for {title} (known options: {known})").format(
                names=", ".join(unknown), title=i18n.lookup(self.title) or self.title, known=known))
        out: dict[str, Any] = {}
        for spec in self.option_specs:
            out[spec.name] = spec.coerce(given[spec.name]) if spec.name in given else spec.default
        self._check_option_combination(n_players, out)
        return out

    def options_in_play(self, options: Mapping[str, Any], n_players: int) -> dict[str, Any]:
        """The (checked) options a game of ``n_players`` with these options plays by, for an invitation
        to list: none that mean nothing for that many players (the automa's in a game of three) nor any
        internal one. A game whose modes leave options unused drops those too (Maracaibo: no scenario
        card in a 79 game, no Jacques without him)."""
        specs = {s.name: s for s in self.option_specs}
        return {k: v for k, v in options.items()
                if k not in specs or (specs[k].applies_to(n_players) and not specs[k].internal)}

    def game_title(self, options: Mapping[str, Any]) -> str:
        """A game's name for these (checked) options, as a mail's subject, a page and the API title it:
        the game, and its mode or scenario where the options pick one that plays differently (a
        player with several games tells them apart by it). By default the game's title."""
        return self.title

    def setup(self, players: Sequence[str], options: Mapping[str, Any] | None, seed: int | str,
              archive: Mapping[str, Any] | None = None) -> State:
        """A new game. ``players`` are display names in seat order.

        ``archive``: the previous game's :meth:`archive`, for the next game of a campaign (None: a
        game on its own, or the first of a campaign); checked by :meth:`check_archive` (BadArchive),
        and part of what the game replays from (setup + seed + archive + move log)."""
        opts = self.check_options(len(players), options)
        state: State = {"game": self.name, "players": list(players), "options": opts, "rng": seed_to_state(seed)}
        if archive is not None:
            self.check_archive(archive)
            seats = archive["seats"]
            if len(seats) != len(players):
                raise BadArchive(f"the archive is of a campaign of {len(seats)} seats, not {len(players)}")
            # a copy through JSON: the state owns it, and the game's _setup reads and removes it
            state["archive_in"] = json.loads(json.dumps(dict(archive)))
        self._setup(state, Rng(state))
        state.pop("archive_in", None)
        return state

    def archive(self, state: State) -> dict[str, Any] | None:
        """What a finished campaign game hands to the next (JSON: ``{"format": "pbem-campaign",
        "version": 1, "rules": <game>, "game": <games played>, "seats": [names], ...}``); None when
        the game is not a campaign game or is not finished. By default a game has no campaigns."""
        return None

    def upgrade_archive(self, archive: Mapping[str, Any]) -> dict[str, Any]:
        """``archive`` brought to the version this engine writes (a copy; an archive already there,
        or one of a version the engine does not know, copied as it is: :meth:`check_archive` names
        what is wrong with it). A game whose archive changed form upgrades an older one here, as
        its states are upgraded (:meth:`upgrade`); setup from an archive does it too."""
        copied: dict[str, Any] = json.loads(json.dumps(dict(archive)))
        return copied

    def replay_options(self, options: Mapping[str, Any], stored: Mapping[str, Any]) -> dict[str, Any]:
        """The options a stored game replays from (setup + seed + archive + move log: an undo, a
        moderator's rollback, ``manage.py verify_games``), given its own ``options`` and its ``stored``
        state (any format this engine reads; not changed). A game whose state says how an older release
        set it up (Maracaibo's internal option ``release``, deduced from what the state dealt) says so
        here, so that the replay sets it up as that release did; by default the options given."""
        return dict(options)

    def archive_options(self, options: Mapping[str, Any], archive: Mapping[str, Any]) -> dict[str, Any]:
        """The options a game set up from ``archive`` plays, given ``options`` (a game whose archive
        decides some of its options, as Maracaibo's story decides its mode, says so here, so that
        the service keeps the options the games play); by default the options given."""
        return dict(options)

    def check_archive(self, archive: Mapping[str, Any]) -> None:
        """Raise :class:`BadArchive`, naming what is wrong, unless this engine can continue a
        campaign from ``archive`` (the envelope here, the game's own data in ``_check_archive``)."""
        if not self.supports_campaign:
            raise BadArchive(f"{self.title} has no campaigns: it continues from no archive")
        if not isinstance(archive, Mapping):
            raise BadArchive("an archive is a JSON object")
        if archive.get("format") != ARCHIVE_FORMAT:
            raise BadArchive(f"not a campaign archive: its format is {archive.get('format')!r}, not {ARCHIVE_FORMAT!r}")
        if archive.get("rules") != self.name:
            raise BadArchive(f"the archive is of a {archive.get('rules')!r} campaign, not {self.name!r}")
        version = archive.get("version")
        if type(version) is not int or version < 1:
            raise BadArchive(f"the archive's version must be a whole number from 1, not {version!r}")
        played = archive.get("game")
        if type(played) is not int or played < 1:
            raise BadArchive(f"the archive's game (games played) must be a whole number from 1, not {played!r}")
        seats = archive.get("seats")
        if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
            raise BadArchive("the archive's seats must be a list of the players' names")
        if not self.min_players <= len(seats) <= self.max_players:
            raise BadArchive(f"the archive has {len(seats)} seats; {self.title} is for "
                             f"{self.min_players} to {self.max_players} players")
        self._check_archive(archive)

    def pending(self, state: State) -> list[int]:
        """Seats whose decision the game waits for (empty once the game is over)."""
        if self._outcome(state) is not None:
            return []
        return self._pending(state)

    def options(self, state: State, seat: int) -> list[Option]:
        """The legal choices of ``seat`` now; empty when it has nothing to decide."""
        if self._outcome(state) is not None or seat not in self._pending(state):
            return []
        return self._options(state, seat)

    def presented(self, state: State, seat: int, options: Sequence[Option]) -> list[Option]:
        """``options`` (the seat's now) in the order a mail and a page list them: the same options
        with the same codes (a reply to an older mail is read as before), perhaps ordered as the
        reader sees their cards (Maretta: as the hand is shown). By default the engine's order,
        which deadlines, bots and stored logs go by, so it never changes with this."""
        return list(options)

    def apply(self, state: State, seat: int, move: Mapping[str, Any]) -> list[Event]:
        """Validate, then apply one move in place; return its events."""
        # (``move`` typed Mapping, not dict: compiled, a parameter typed dict refuses anything else
        # with a TypeError before the check below can answer it with an IllegalMove)
        if self._outcome(state) is not None:
            raise GameOver(_("the game is over; no more moves are taken"))
        pending = self._pending(state)
        if seat not in pending:
            names = ", ".join(self.seat_name(state, s) for s in pending) or _("nobody")
            raise NotYourTurn(_("it is not your turn: the game waits for {names}").format(names=names))
        if type(move) is not dict and not isinstance(move, Mapping):  # (the ABC check is slow: dicts first)
            raise IllegalMove(_("a move must be an object such as {example}").format(example='{"code": ...}'))
        # Why through an Any: compiled, self._apply would be called through Rules' vtable, so an
        # _apply patched on the game's class (tests make a move crash that way) would not run; looked
        # up on the object, the hook is found as Python finds it (once a move: a few dozen ns)
        game: Any = self
        events: list[Event] = game._apply(state, seat, dict(move), Rng(state))
        return events

    def view(self, state: State, seat: int | None) -> View:
        """Exactly what ``seat`` may know (None: a spectator).

        Read-only: a game may share a view's parts between seats and with the state (lists
        that its moves replace rather than change), so a view never changes once given out
        (tests/engine/test_core_view_isolation.py), and changing it in place could change the
        state. Copy a view before editing it.

        (A game's class calls its ``_view`` for this directly: see ``__init_subclass__``.)
        """
        return self._view(state, seat)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        # Why: view and outcome only call their hook, and a service move calls them several
        # times per seat; a game's class that leaves them as they are gets its hooks as these
        # methods themselves (one Python call instead of two; the same results).
        super().__init_subclass__(**kwargs)
        for public, hook in (("view", "_view"), ("outcome", "_outcome")):
            # the nearest class that defines the public method itself (an alias set here does not count)
            owner = next(k for k in cls.__mro__
                         if public in vars(k) and vars(k)[public] is not _ALIASES.get((k, public)))
            if owner is Rules:
                impl = getattr(cls, hook)
                setattr(cls, public, impl)
                _ALIASES[(cls, public)] = impl

    def view_schema(self) -> dict[str, Any]:
        """The JSON Schema (draft 2020-12) every :meth:`view` of this game matches, for every seat
        and the spectator: a fresh dict, read from :attr:`view_schema_file` beside the game's code."""
        if self.view_schema_file is None:
            return {"type": "object", "description": f"a view of {self.title} (its shape is not declared)"}
        package = type(self).__module__.rpartition(".")[0] or type(self).__module__
        schema: dict[str, Any] = json.loads(resources.files(package).joinpath(self.view_schema_file).read_text())
        return schema

    def _catalogue_module(self) -> Any:
        """The game's ``catalogue`` module beside its code (``engine/games/<name>/catalogue.py``), or None."""
        package = type(self).__module__.rpartition(".")[0] or type(self).__module__
        if package not in _CATALOGUE_MODULES:
            try:
                _CATALOGUE_MODULES[package] = importlib.import_module(f"{package}.catalogue")
            except ModuleNotFoundError as exc:
                if exc.name != f"{package}.catalogue":
                    raise
                _CATALOGUE_MODULES[package] = None
        return _CATALOGUE_MODULES[package]

    def catalogue(self) -> dict[str, Any] | None:
        """The game's content a front end draws (cards, places, routes, tiles: what an id in a view
        or an option stands for), with its ``version`` (a digest of the content); None when the game
        declares none. Default: ``catalogue()`` of the game's ``catalogue`` module."""
        module = self._catalogue_module()
        return None if module is None else dict(module.catalogue())

    def option_details(self, state: State, seat: int, option: Option) -> dict[str, Any] | None:
        """What ``option`` does, in the catalogue's terms (``kind``, and the ``card``, ``place``, ``cost``,
        ``effect``... it names), so a client draws it without reading its label; None when the game
        declares none. Default: ``option_details`` of the game's ``catalogue`` module."""
        module = self._catalogue_module()
        return None if module is None else module.option_details(state, seat, option)

    def option_details_schema(self) -> dict[str, Any] | None:
        """The JSON Schema every :meth:`option_details` answer matches (``OPTION_DETAILS_SCHEMA``)."""
        module = self._catalogue_module()
        return None if module is None else dict(module.OPTION_DETAILS_SCHEMA)

    def parse(self, text: str, state: State, seat: int) -> Move:
        """Turn a line a player typed into a move (or raise Malformed/IllegalMove).

        The move is a :class:`engine.notation.Noted` dict: its ``notes`` say what was guessed
        ("read `karla` as Carla"); :func:`note_events` makes them events for the seat.
        """
        reading = self.read(text, state, seat)
        move = notation.Noted(reading.move)
        move.notes = reading.notes
        return move

    def read(self, text: str, state: State, seat: int) -> notation.Reading:
        """Read a whole line as one of the seat's options, saying what was guessed; or refuse it.

        The move is a fresh copy; ``notes`` ("read `karla` as Carla") are for the answer.
        A line is understood whatever the language of the context (``engine.i18n.language``):
        it is read against the options in English (whose vocabulary has every language's
        words), then against their labels in the other languages; the label and a refusal are
        in the context's language.
        """
        code = i18n.current()
        refusal: IllegalMove | None = None
        for lang in i18n.LANGUAGES:
            # (no continue inside the with: mypyc cannot compile a continue inside try/finally)
            read: notation.Reading | None = None
            with i18n.language(lang):
                try:
                    read = self._read_in(text, state, seat)
                except (GameOver, NotYourTurn):
                    if lang == code:
                        raise
                except IllegalMove as e:
                    if lang == code:
                        refusal = e
            if read is None:
                continue
            reading = read
            if lang != code:
                reading = replace(reading, label=self._label_of(state, seat, reading))
            return reading
        assert refusal is not None
        raise refusal

    def _label_of(self, state: State, seat: int, reading: notation.Reading) -> str:
        for o in self.options(state, seat):
            if o.code == reading.code:
                return o.label
        return reading.label

    def _read_in(self, text: str, state: State, seat: int) -> notation.Reading:
        opts = self.options(state, seat)
        if not opts:
            if self.outcome(state) is not None:
                raise GameOver(_("the game is over; no more moves are taken"))
            raise NotYourTurn(_("it is not your turn: there is nothing for you to decide now"))
        parse = self._parse
        # a game with a parser of its own (its class's, or one set on it): anything but Rules' own,
        # compared bound (compiled, a bound method has no __func__ to compare)
        if parse != vars(Rules)["_parse"].__get__(self, type(self)):
            move = parse(text, state, seat, opts)
            return notation.Reading(move, self.describe_move(state, seat, move), str(move.get("code", "")))
        return self._read_line(text, state, seat, opts)

    def outcome(self, state: State) -> Outcome | None:
        return self._outcome(state)

    def cooperative(self, state: State) -> bool:
        """Whether the seats play together, as one team with one shared result (``Outcome.team``):
        the doors then never rank them against each other, and a player's message reaches the
        whole table at once. A public fact of the game's options; no by default."""
        return False

    def score_breakdown(self, state: State) -> dict[int, dict[str, float]]:
        """Once the game is over, where each seat's score came from, in the order to show
        it: ``{seat: {"discoveries": 40, "deliveries": 21, ...}}``; ``{}`` when a game has no
        parts to show. Public facts only: results tables print it for everyone."""
        return {}

    def render_text(self, view: View) -> str:
        return self._render_text(view)

    def render_mail_text(self, view: View) -> str:
        """The board in words as a mail carries it: what its reader needs to play without the
        box, in fewer bytes where the game has much to say (a mail stays under 30 KB with its
        picture, issue 10); the whole of :meth:`render_text` is on the reader's game page. By
        default :meth:`render_text` itself."""
        return self._render_mail_text(view)

    def render_svg(self, view: View) -> str:
        return self._render_svg(view)

    def render_phone_svg(self, view: View) -> list[str]:
        """The board for a phone (a screen about 360 CSS px wide, issue 10): pictures shown one
        under the other, each drawn for being seen at its own width (its text 12 px or more
        there); a page pans one that is wider than the screen. By default, the one board of
        :meth:`render_svg`."""
        return self._render_phone_svg(view)

    def render_mail_svg(self, view: View) -> str:
        """The small picture a mail carries inline (a few KB as PNG): what its reader needs at
        a glance; the whole board is on their game page. Drawn for a phone (issue 10): at most
        ``engine.svg.MAIL_WIDTH`` (358) px wide, the width a mail has on a 390 px phone, where
        it is shown at its own size, with no text under ``engine.svg.MAIL_TEXT`` (11) px. By
        default the first of :meth:`render_phone_svg`; a game whose board is too big for that
        shows the part near the reader instead. Its ``<desc>``, if any, is its legend in words,
        which the mail prints under it (a few hundred bytes as text, 1 KB or more drawn).
        Its text is drawn smoothed (``engine.svg.SMOOTH_TEXT``), for every game."""
        return svg.smooth_text(self._render_mail_svg(view))

    def warm_up(self) -> None:
        """Compute now what a process's first moves of this game would otherwise compute on their way
        and keep (tables that depend on the game's data alone). A Celery worker calls it once, before it
        forks its pool (``workers/celery.py``), so every pool process starts with it done. By default
        there is nothing to do."""

    def upgrade(self, state: State) -> bool:
        """Bring a state written by an older release of this game to the format this release
        writes, in place; True when it was older. A game that versions its state (Maracaibo:
        ``"format"``) also does this whenever its rules first read an older state, so a game in
        progress survives a release; ``manage.py verify_games`` calls it before comparing a stored
        state with the replay of its log. By default a game has one format: nothing to do."""
        return False

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        """A label for a structured move, used when echoing a parsed line back."""
        for opt in self.options(state, seat):
            if opt.move == move:
                return opt.label
        return json.dumps(move, sort_keys=True)

    def seat_name(self, state: State, seat: int) -> str:
        return str(state["players"][seat])

    def line_parts(self, text: str) -> list[str]:
        """The sub-decisions of a line that is not one move, in order (``buy Pious Gunner, explore 2``:
        two): split at commas, semicolons and "then". ``engine.batch`` reads them each after the one
        before it, all applied or the line refused whole; a game may split more finely."""
        # a bracketed group is kept whole (QA of #20: a label copied with its own commas, "deliver corn
        # with Bold Merchant (corn, book), disc U3", was split inside "(corn, book)" and refused)
        groups = [(m.start(), m.end()) for m in _GROUPS.finditer(text)]
        parts: list[str] = []
        start = 0
        for m in _LINE_PARTS.finditer(text):
            if any(a < m.start() < b for a, b in groups):
                continue
            parts.append(text[start:m.start()])
            start = m.end()
        parts.append(text[start:])
        return [part for part in parts if part.strip()]

    def sure_repeat(self, state: State, seat: int, move: Move, times: int) -> bool:
        """Whether ``move``, made ``times`` times in a row from ``state``, is sure to be legal each
        time whatever the earlier ones reveal (``draw 2 from pile`` with room for two cards and two
        to draw). Only then may a line repeat a move that reveals (``engine.batch``): the line is
        judged whole before its first reveal, so no refusal can follow one. False by default."""
        return False

    def example_turn(self, state: State, seat: int) -> list[str]:
        """A whole turn the seat could write in one mail now, one line each, built from its actual
        options (a game with multi-step turns shows one; [] when it has none to show). Each line
        reads back through ``parse`` and the lines apply in order as one batch (tested). It is
        computed on a copy, from what the seat may know: a game stops it before a line that would
        reveal or draw anything."""
        return []

    def default_move(self, state: State, seat: int) -> Option | None:
        """The game's declared safe move for ``seat``'s current decision, played by the
        service's "default move" no-move policy when a player misses a deadline.

        Each game names one per decision kind (the least committal choice: end the turn,
        move rather than steal, keep cards...), never simply the first option listed.
        None when the seat has nothing to decide, or the game declares no default for
        this kind of decision (the service then waits and tells the moderator).
        """
        options = self.options(state, seat)
        if not options:
            return None
        return self._default_move(state, seat, options)

    # ---- testing hook ---------------------------------------------------------------

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        """A copy of ``state`` where everything ``seat`` cannot know is changed.

        Used by the conformance checker to prove that views, option labels and
        events do not depend on hidden information.
        """
        raise NotImplementedError

    # ---- hooks for subclasses ------------------------------------------------------

    def _check_option_combination(self, n_players: int, options: dict[str, Any]) -> None:
        """Cross-option checks; raise SetupError."""

    def _setup(self, state: State, rng: Rng) -> None:
        """Deal the game into ``state``; a campaign game finds its archive in ``state["archive_in"]``."""
        raise NotImplementedError

    def _check_archive(self, archive: Mapping[str, Any]) -> None:
        """The game's own checks of an archive whose envelope is sound: raise BadArchive."""

    def _pending(self, state: State) -> list[int]:
        raise NotImplementedError

    def _options(self, state: State, seat: int) -> list[Option]:
        raise NotImplementedError

    def _default_move(self, state: State, seat: int, options: list[Option]) -> Option | None:
        """One of ``options``: the safe default of this kind of decision (see default_move)."""
        return None

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        raise NotImplementedError

    def _view(self, state: State, seat: int | None) -> View:
        raise NotImplementedError

    def _parse(self, text: str, state: State, seat: int, options: list[Option]) -> Move:
        """A game with a parser of its own overrides this (then no notes, no shared rules apply):
        prefer stating a vocabulary, readings and explanations for the shared layer."""
        return self._read_line(text, state, seat, options).move

    def _read_line(self, text: str, state: State, seat: int, options: list[Option]) -> notation.Reading:
        """The shared notation with this game's vocabulary, readings and explanations."""
        return notation.read_line(
            text, options, self._vocabulary(state, seat),
            readings=lambda o: self._readings(state, seat, o),  # type: ignore[arg-type]
            explain=lambda line: self._explain(state, seat, line, options),
        )

    def _vocabulary(self, state: State, seat: int) -> notation.Vocabulary:
        """The game's vocabulary plus the players' names (each name, and each word of it)."""
        # Why several kept, by the players' names (issue 28): a worker judges the moves of many games
        # in turn, and with one kept each move of another game built it again (a Maracaibo move's
        # vocabulary, the translated words merged in, was a fifth of the move's worker CPU).
        key = tuple(str(name) for name in state.get("players") or ())
        base = self.vocabulary
        cache = self._vocab_cache
        if cache is None:
            cache = self._vocab_cache = {}
        hit = cache.get(key)
        if hit is not None and hit[0] is base:
            return hit[1]
        written: dict[str, list[str]] = {}
        display: dict[str, str] = {}
        for i, name in enumerate(key):
            term = f"seat{i}"
            for w in {name, *notation.tokens(name)}:
                written.setdefault(w, []).append(term)
            display[term] = name
        players = notation.Vocabulary.build(words=written, display=display)
        vocab = base.merged(replace(players, names=frozenset(display)))
        vocab = vocab.merged(_translated_words(self.name, vocab))
        if len(cache) >= VOCABULARIES_KEPT:
            cache.clear()  # (a bound; dicts are safe between threads for these single steps)
        cache[key] = (base, vocab)
        return vocab

    def _readings(self, state: State, seat: int, option: Option) -> Sequence[str]:
        """The texts that name an option (its label by default); ``(...)`` parts are optional."""
        return [option.label]

    def _explain(self, state: State, seat: int, line: notation.Line, options: list[Option]) -> str | None:
        """Why a line whose words are all understood fits no option now (None: no particular reason)."""
        return None

    def _outcome(self, state: State) -> Outcome | None:
        raise NotImplementedError

    def _render_text(self, view: View) -> str:
        raise NotImplementedError

    def _render_mail_text(self, view: View) -> str:
        return self.render_text(view)

    def _render_svg(self, view: View) -> str:
        raise NotImplementedError

    def _render_phone_svg(self, view: View) -> list[str]:
        return [self.render_svg(view)]

    def _render_mail_svg(self, view: View) -> str:
        return self.render_phone_svg(view)[0]


#: How many players' vocabularies a game's rules keep (:meth:`Rules._vocabulary`): a worker's recent games
#: (a Maracaibo one weighs about 230 KB: 7 MB at most; building one is 2.8 ms, 0.7 for Maretta).
VOCABULARIES_KEPT = 32


def _translated_words(game: str, vocab: notation.Vocabulary) -> notation.Vocabulary:
    """The words of other languages (``engine/locale/<lang>/vocabulary.json``) as synonyms of the
    English words they stand for: the same terms (a word the vocabulary does not list means
    itself, as in a label)."""
    table: dict[str, list[str]] = {}
    fillers: list[str] = []
    for written, english in i18n.vocabulary_words(game).items():
        for en in english:
            key = " ".join(notation.tokens(en.replace("-", " ")))
            if key not in vocab.words and (key in vocab.fillers or key in notation.FILLERS):
                fillers.append(written)  # the synonym of a word that means nothing here
            else:
                table.setdefault(written, []).extend(vocab.words.get(key) or (key,))
    return notation.Vocabulary.build(words=table, fillers=fillers)


def note_events(move: Move, seat: int) -> list[Event]:
    """What a line was read as, when a word was guessed: events for the seat that typed it only."""
    notes = getattr(move, "notes", ())
    return [Event("read_as", f"Your line was understood by a guess: {note}.", {"note": note}, to=(seat,))
            for note in notes]


def option_by_code(options: Sequence[Option], move: Move) -> Option:
    """Find the option a move names, by code or by equal structure, or refuse clearly.

    Games whose moves are all enumerated use this in ``_apply`` to validate.
    """
    code = move.get("code")
    if code is not None:
        for opt in options:
            if opt.code == code:
                return opt
    else:
        for opt in options:
            if opt.move == move:
                return opt
    allowed = [f"{o.code}: {o.label}" for o in options]
    shown = code if code is not None else json.dumps(move, sort_keys=True)
    raise IllegalMove(_("{move} is not a legal choice now").format(move=shown), allowed)
