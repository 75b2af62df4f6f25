"""The campaign contract of engine.core (issue 23): an archive is checked (envelope, then the game's
own data) before a campaign game is set up from it, and a game without campaigns refuses one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

import engine
from engine.core import BadArchive, State, View
from engine.rng import Rng
from engine.testing import ConformanceError, check_campaign, check_conformance
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


# ---- the conformance checker over a campaign's later games --------------------------------------


class EndingGuess(CampaignGuess):
    """A campaign of three games: the third game's archive says the campaign has ended."""

    def archive(self, state: State) -> dict[str, Any] | None:
        made = super().archive(state)
        if made is not None:
            made["ended"] = made["game"] >= 3
        return made

    def _check_archive(self, archive: Mapping[str, Any]) -> None:
        super()._check_archive(archive)
        if archive.get("ended"):
            raise BadArchive("the campaign has ended: no game follows it")


class LeakyLaterGame(EndingGuess):
    """Shows the target from the second game on: only a game set up from an archive leaks."""

    def _view(self, state: State, seat: int | None) -> View:
        view = super()._view(state, seat)
        if state["played"]:
            view["target"] = state["target"]
        return view


class UnreplayableLaterGame(EndingGuess):
    """Counts its setups in the process: a later game is not what seed + archive + moves replay."""

    setups = 0

    def _setup(self, state: State, rng: Rng) -> None:
        super()._setup(state, rng)
        type(self).setups += 1
        if state["played"]:
            state["scores"][0] += type(self).setups % 2


class MiscountedArchive(EndingGuess):
    def archive(self, state: State) -> dict[str, Any] | None:
        made = super().archive(state)
        if made is not None and made["game"] == 2:
            made["game"] = 1
        return made


class EndlessCampaign(EndingGuess):
    def _check_archive(self, archive: Mapping[str, Any]) -> None:
        CampaignGuess._check_archive(self, archive)  # (takes an ended campaign's archive too)


def test_the_checker_plays_a_whole_campaign_each_later_game_from_the_last_ones_archive() -> None:
    report = check_campaign(EndingGuess(), 2, {"rounds": 3}, "camp")
    assert report.finished == 3 and [a["game"] for a in report.archives] == [1, 2, 3]
    assert report.archives[-1]["ended"] and not report.archives[0]["ended"]
    first, second, third = (a["scores"] for a in report.archives)
    assert all(x <= y for x, y in zip(first, second)) and all(x <= y for x, y in zip(second, third))  # carried
    assert report.last_state is not None and report.last_state["played"] == 2  # the third game
    assert report.resamples_that_changed > 0
    assert check_campaign(TOY, 2, {}, "toy", games=4).finished == 4  # a campaign with no end: as many as asked


@pytest.mark.parametrize(("broken", "message"), [
    (LeakyLaterGame, r"campaign 'camp', game 2: seed 'camp-g2', step \d+: seat .*view depends on information hidden"),
    (UnreplayableLaterGame, "game 2: .*seed plus archive plus move log does not replay"),
    (MiscountedArchive, "game 2: the archive counts 1 games played"),
    (EndlessCampaign, "game 3: a game was set up from the archive of an ended campaign"),
], ids=lambda v: v.__name__ if isinstance(v, type) else "")
def test_the_checker_catches_what_only_a_later_game_or_its_archive_breaks(broken: type[EndingGuess],
                                                                         message: str) -> None:
    check_conformance(broken(), 2, {"rounds": 3}, seeds=["camp"])  # the first game alone passes
    with pytest.raises(ConformanceError, match=message):
        check_campaign(broken(), 2, {"rounds": 3}, "camp")


@pytest.mark.parametrize(("game", "status", "said"), [
    (EndingGuess, 0, "campaigns: 2  games: 6 finished  errors: 0"),
    (LeakyLaterGame, 1, "errors: 2"),
], ids=["passes", "leaks"])
def test_simulate_runs_whole_campaigns_under_the_checker(game: type[EndingGuess], status: int, said: str,
                                                          monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    from engine import cli, registry

    monkeypatch.setattr(registry, "_MODULES", {"guess": "tests.engine.toy_games"})
    monkeypatch.setattr(registry, "_loaded", {"guess": game()})
    assert cli.main(["simulate", "guess", "--campaign", "-n", "2", "-k", "2", "--check", "-q"]) == status
    out = capsys.readouterr().out
    assert said in out
    if status:
        assert "game 2: seed '1-0-g2'" in out and "hidden from it" in out
