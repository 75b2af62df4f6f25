"""The campaign contract of engine.core (issue 23): an archive is checked (envelope, then the game's
own data) before a campaign game is set up from it, and a game without campaigns refuses one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import engine
from engine.core import BadArchive, State
from engine.rng import Rng
from tests.engine.toy_games import Guess


class CampaignGuess(Guess):
    """The toy game with campaigns: the next game starts with the scores the last one ended with."""

    supports_campaign = True

    def _setup(self, state: State, rng: Rng) -> None:
        super()._setup(state, rng)
        archive = state.get("archive_in")
        state["played"] = archive["game"] if archive else 0
        if archive:
            state["scores"] = list(archive["scores"])

    def archive(self, state: State) -> dict[str, Any] | None:
        if self.outcome(state) is None:
            return None
        return {"format": "pbem-campaign", "version": 1, "rules": self.name, "game": state["played"] + 1,
                "seats": list(state["players"]), "scores": list(state["scores"])}

    def _check_archive(self, archive: Mapping[str, Any]) -> None:
        if not isinstance(archive.get("scores"), list) or len(archive["scores"]) != len(archive["seats"]):
            raise BadArchive("the archive's scores must give one number a seat")


TOY = CampaignGuess()


def _finished(state: State) -> State:
    while TOY.pending(state):
        for seat in TOY.pending(state):
            TOY.apply(state, seat, TOY.options(state, seat)[0].move)
    return state


def test_it_sets_up_the_next_game_from_the_archive_of_a_finished_one() -> None:
    first = TOY.setup(["Ann", "Bob"], {}, 7)
    assert TOY.archive(first) is None  # not finished yet
    archive = TOY.archive(_finished(first))
    assert archive is not None and archive["game"] == 1
    second = TOY.setup(["Ann", "Cy"], {}, 8, archive=archive)  # a seat changed hands
    assert second["scores"] == first["scores"] and second["played"] == 1
    assert "archive_in" not in second  # the game keeps what it needs, not the archive
    assert TOY.setup(["Ann", "Cy"], {}, 8, archive=archive) == second  # replays from seed + archive


@pytest.mark.parametrize(("change", "named"), [
    ({"format": "zip"}, "format"),
    ({"rules": "maretta"}, "'maretta' campaign"),
    ({"version": "1"}, "version"),
    ({"game": 0}, "game"),
    ({"seats": "Ann"}, "seats"),
    ({"seats": ["Ann", "Bob", "Cy"]}, "3 seats"),
    ({"scores": [1]}, "scores"),
])
def test_it_refuses_an_archive_naming_what_is_wrong(change: dict[str, Any], named: str) -> None:
    archive = TOY.archive(_finished(TOY.setup(["Ann", "Bob"], {}, 3)))
    assert archive is not None
    with pytest.raises(BadArchive, match=named):
        TOY.setup(["Ann", "Bob"], {}, 4, archive={**archive, **change})


def test_it_refuses_an_archive_for_a_game_without_campaigns() -> None:
    rules = engine.get("maretta")
    assert not rules.supports_campaign
    state = rules.setup(["Ann", "Bob", "Cy"], {}, 1)
    assert rules.archive(state) is None
    archive = {"format": "pbem-campaign", "version": 1, "rules": "maretta", "game": 1, "seats": ["Ann", "Bob", "Cy"]}
    with pytest.raises(BadArchive, match="no campaigns"):
        rules.setup(["Ann", "Bob", "Cy"], {}, 1, archive=archive)
    assert issubclass(BadArchive, ValueError)
