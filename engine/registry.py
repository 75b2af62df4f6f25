"""Games by name. A new game is a new folder under ``engine/games`` plus one line here."""

from __future__ import annotations

import importlib

from engine.core import Rules
from engine.errors import UnknownGame

#: name -> module that defines ``RULES``; imported on first use.
_MODULES = {
    "maretta": "engine.games.maretta",
    "caravelas": "engine.games.caravelas",
    "maracaibo": "engine.games.maracaibo",
}

_loaded: dict[str, Rules] = {}


def names() -> list[str]:
    return sorted(_MODULES)


def get(name: str) -> Rules:
    """The rules object for ``name`` or UnknownGame listing the known names."""
    key = name.strip().lower()
    if key not in _MODULES:
        raise UnknownGame(f"no game called {name!r}; the games are: {', '.join(names())}")
    if key not in _loaded:
        module = importlib.import_module(_MODULES[key])
        _loaded[key] = module.RULES
    return _loaded[key]
