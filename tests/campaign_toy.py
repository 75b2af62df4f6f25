"""The engine tests' toy campaign game (``CampaignGuess``: the next game starts with the scores the
last one ended with), registered as ``guess`` for one test: a real archive through the engine's
campaign contract, on games short enough to play several of in a test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import registry
from tests.engine.test_core_campaign import TOY


@pytest.fixture
def guess() -> Iterator[str]:
    registry._MODULES[TOY.name] = "tests.engine.test_core_campaign"
    registry._loaded[TOY.name] = TOY
    try:
        yield TOY.name
    finally:
        registry._MODULES.pop(TOY.name, None)
        registry._loaded.pop(TOY.name, None)
