"""A small seeded generator whose whole state is one JSON string.

SplitMix64: tiny, fast in pure Python and good enough for shuffling decks.
The state lives inside the game state, so ``setup + seed + move log`` replays
exactly; nothing here touches Python's global ``random``.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def seed_to_state(seed: object) -> str:
    """Turn any seed (int or text, or anything else: its str()) into the generator's starting state."""
    # (typed object: compiled, a seed typed int | str would refuse a float the tests give)
    digest = hashlib.sha256(str(seed).encode("utf-8")).digest()
    return digest[:8].hex()


class Rng:
    """Reads and writes its state in ``holder[key]`` (a hex string)."""

    __slots__ = ("_holder", "_key")

    def __init__(self, holder: dict[str, Any], key: str = "rng") -> None:
        self._holder = holder
        self._key = key

    def _next(self) -> int:
        x = (int(self._holder[self._key], 16) + 0x9E3779B97F4A7C15) & _MASK
        self._holder[self._key] = format(x, "016x")
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in ``[0, n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (_MASK + 1) - ((_MASK + 1) % n)
        while True:
            v = self._next()
            if v < limit:
                return v % n

    def die(self, sides: int = 6) -> int:
        return self.below(sides) + 1

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
