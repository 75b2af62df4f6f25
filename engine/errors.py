"""One exception family for everything a game can refuse.

Every rejection carries a machine code (for the API) and a message a human can
act on (for the mail reply): what was wrong, and what would have been allowed.
A rejected move never changes the state.
"""

from __future__ import annotations

from collections.abc import Sequence


class EngineError(Exception):
    """Base of every error the engine raises on purpose."""


class SetupError(EngineError, ValueError):
    """Bad player count, unknown option or bad option value at setup."""


class UnknownGame(EngineError, KeyError):
    """No rules are registered under that name."""

    def __str__(self) -> str:  # KeyError quotes its message otherwise
        return str(self.args[0]) if self.args else "unknown game"


class IllegalMove(EngineError, ValueError):
    """A move the game refuses. ``code`` is stable, ``message`` is for people."""

    code = "illegal"

    def __init__(self, message: str, allowed: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.message = message
        self.allowed = tuple(allowed)

    def __str__(self) -> str:
        return self.message

    def as_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, "allowed": list(self.allowed)}


class NotYourTurn(IllegalMove):
    code = "not_your_turn"


class GameOver(IllegalMove):
    code = "game_over"


class Malformed(IllegalMove):
    """The text or the structured move could not be understood at all."""

    code = "malformed"
