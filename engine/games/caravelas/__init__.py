"""Caravelas II: discoveries and cargo along the Portuguese sea routes, for 2 to 4 players."""

from engine.games.caravelas.rules import RULES, Caravelas

__all__ = ["RULES", "Caravelas"]
