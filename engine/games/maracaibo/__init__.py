"""Maracaibo for 2 to 4 players (SUBSTITUTE CONTENT: cards, map and tiles are this project's own)."""

from engine.games.maracaibo.rules import RULES, Maracaibo

__all__ = ["RULES", "Maracaibo"]
