from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache

from tests.factories import alice, bob, carol, dave, fake_game, moderator

__all__ = ["alice", "bob", "carol", "dave", "fake_game", "moderator"]


@pytest.fixture(autouse=True)
def _fresh_throttles() -> Iterator[None]:
    """Throttle counters live in the cache; each test starts with none."""
    cache.clear()
    yield
