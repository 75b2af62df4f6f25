"""pbem's pure rules engine: no Django, no Celery, no I/O beyond data files."""

from engine import compiled as _compiled

_compiled.guard()  # first: no game module may be imported before it (see engine/compiled.py)

from engine.core import Event, Option, OptionSpec, Outcome, Rules, note_events, visible_events  # noqa: E402
from engine.errors import EngineError, GameOver, IllegalMove, Malformed, NotYourTurn, SetupError, UnknownGame  # noqa: E402
from engine.registry import get, names  # noqa: E402

__all__ = [
    "EngineError", "Event", "GameOver", "IllegalMove", "Malformed", "NotYourTurn", "Option",
    "OptionSpec", "Outcome", "Rules", "SetupError", "UnknownGame", "get", "names", "note_events", "visible_events",
]
