"""pbem's pure rules engine: no Django, no Celery, no I/O beyond data files."""

from engine.core import Event, Option, OptionSpec, Outcome, Rules, note_events, visible_events
from engine.errors import EngineError, GameOver, IllegalMove, Malformed, NotYourTurn, SetupError, UnknownGame
from engine.registry import get, names

__all__ = [
    "EngineError", "Event", "GameOver", "IllegalMove", "Malformed", "NotYourTurn", "Option",
    "OptionSpec", "Outcome", "Rules", "SetupError", "UnknownGame", "get", "names", "note_events", "visible_events",
]
