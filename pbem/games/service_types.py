"""The services' shared types: the errors they raise (with the API's code and status), the
commands and results of a move, and the lookups every part of the services uses. Split from
``services`` to keep each module short; ``services`` re-exports every name, so callers keep
writing ``services.ServiceError``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext

import engine
from engine import IllegalMove, Rules, batch, visible_events
from pbem.games.models import Game


class ServiceError(Exception):
    """A request the service refuses; ``code`` for the API, message for people."""

    code = "invalid"
    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    code = "not_found"
    status = 404


class Forbidden(ServiceError):
    code = "forbidden"
    status = 403


class Conflict(ServiceError):
    code = "conflict"
    status = 409


class StaleVersion(ServiceError):
    code = "stale"
    status = 412


class TooManyRequests(ServiceError):
    """A limit on how often something may be done; ``retry_after`` seconds until it may again."""

    code = "throttled"
    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class MoveRejected(ServiceError):
    """One command of a batch was refused.

    A reveal is a commit point (see ``engine.batch``): the commands up to the batch's last
    reveal before the refused one stand (``applied``, ``version`` the game version they
    produced); the others were rolled back with it. With nothing applied, nothing changed.
    ``options`` are the seat's options in the game as it now stands; ``at_line`` those at the
    refused line, after the lines before it (rolled back when they revealed nothing: the
    refusal is judged where it stands, see ``engine.batch``), which ``error.allowed`` lists.
    """

    code = "rejected"
    status = 422

    def __init__(self, line_no: int, line: str, error: IllegalMove, options: Sequence[engine.Option], *,
                 seat: int | None = None, applied: Sequence[Applied] = (), version: int | None = None,
                 rolled_back: Sequence[int] = (), at_line: Sequence[engine.Option] | None = None) -> None:
        where = f"line {line_no} ({line!r})" if line else f"command {line_no}"
        super().__init__(f"{where}: {error.message}")
        self.line_no = line_no
        self.line = line
        self.error = error
        self.options = list(options)
        self.seat = seat
        self.applied = list(applied)
        self.version = version
        self.rolled_back = list(rolled_back)
        self.at_line = list(options if at_line is None else at_line)

    @property
    def partial(self) -> bool:
        """Some commands before the refused one stand (they revealed something)."""
        return bool(self.applied)

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.error.code,
            "message": self.message,
            "line": self.line_no,
            "text": self.line,
            "allowed": list(self.error.allowed),
            "options": [o.as_dict() for o in self.options],
            "applied": [a.as_seen(self.seat) for a in self.applied],
            "rolled_back": list(self.rolled_back),
            "version": self.version,
        }


@dataclass(frozen=True)
class Command(batch.Command):
    """One thing a player asked for: an option code, a line of notation, or a structured move."""

    @property
    def shown(self) -> str:
        return self.text if self.text is not None else (self.code or "")

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Command:
        given = [k for k in ("code", "text", "move") if d.get(k) is not None]
        if len(given) != 1:
            raise ServiceError(gettext("each command needs exactly one of code, text or move"))
        if "move" in given and not isinstance(d["move"], dict):
            raise ServiceError(gettext("move must be an object"))
        if "move" not in given and not isinstance(d[given[0]], str):
            raise ServiceError(gettext("%(field)s must be a string") % {"field": given[0]})
        return cls(**{given[0]: d[given[0]]})


@dataclass
class Applied:
    seat: int
    move: dict[str, Any]
    label: str
    events: list[engine.Event] = field(default_factory=list)
    #: None: the batch's source; "bot" for moves played for a resigned seat.
    source: str | None = None
    #: The command's position in its batch (from 1) and as written; 0 and "" for moves not sent.
    line: int = 0
    shown: str = ""

    def as_seen(self, seat: int | None) -> dict[str, Any]:
        """This move as ``seat`` is told it: its line, what it was read as, the events it may see."""
        return {"line": self.line, "text": self.shown, "label": self.label, "move": self.move,
                "events": [{"kind": e.kind, "text": e.text, "reveals": e.reveals}
                           for e in visible_events(self.events, seat)]}


@dataclass
class BatchResult:
    game: Game
    version: int
    applied: list[Applied]
    #: Trailing lines not taken as commands (a sign-off such as "Thanks!"): see _split_signoff.
    ignored: list[str] = field(default_factory=list)


def rules_for(game: Game) -> Rules:
    return engine.get(game.rules)

def access_game_for_update(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(gettext("there is no game #%(game_id)s") % {"game_id": game_id}) from None
