"""Maretta (both board sides): ``RULES`` is what the registry loads."""

from engine.games.maretta.rules import Maretta

RULES = Maretta()

__all__ = ["RULES", "Maretta"]
