"""Games of the cooperative scenarios (74, 193) stored by older releases replay from seed, options and log
exactly as that release set them up and played them (issue 22; engine/games/maracaibo/coop_releases.py,
scenarios.RELEASES, upgrade.py's format 11).

The golden games were played on the old commits themselves (tests/engine/golden/
make_maracaibo_coop_releases.py): of main 5b2b789's parent (row fa60223: 18 markers solo and with two
players, card 192 with six green spaces, 8 red hints, L39 5 combat points), of main fbaa97f's parent (row
5b2b789: card 192 with four green spaces, The Search's first hints and card 191) and of main b855b57, the
last before the Rebel Chronicler was renumbered (6a0f3d2, #20: row fbaa97f, its 74 game today's setup but for
that card's old id)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.games.maracaibo import RULES, coop_releases, scenarios, search
from engine.testing import player_names
from tests.engine.maracaibo_golden import golden, played, upgraded

#: each golden game and the release its stored state says set it up
STORED = {
    "maracaibo_coop_5b2b789p_74_1p": "fa60223",
    "maracaibo_coop_5b2b789p_193_1p": "fa60223",
    "maracaibo_coop_5b2b789p_193_2p": "fa60223",
    "maracaibo_coop_fbaa97fp_193_1p": "5b2b789",
    "maracaibo_coop_fbaa97fp_193_3p": "5b2b789",
    "maracaibo_coop_b855b57_193_1p": "fbaa97f",
    "maracaibo_coop_b855b57_74_2p": "fbaa97f",  # (today's 74 but for the card renumbered since: 6a0f3d2)
}
#: the finished games whose final state alone no longer shows their release (Luysa found: card 192 cleared, so
#: no revealed hint's colour tells row 5b2b789 from fbaa97f; release_of takes the newer): their replays read
#: the release stamped on the stored state while it still showed it (format 11, on first reading)
AMBIGUOUS_END = {"maracaibo_coop_fbaa97fp_193_1p": "fbaa97f"}


@pytest.mark.parametrize("name", sorted(STORED))
def test_a_cooperative_game_stored_by_an_older_release_replays_to_its_stored_state_and_ends_as_it_did(
        name: str) -> None:
    g = golden(name)
    stored = upgraded(g["state"])
    assert stored["options"]["release"] == STORED[name]  # (deduced from what the state holds: format 11)
    options = RULES.replay_options(g["options"], g["state"])  # (what a replay of the stored game reads)
    assert options.get("release", "current") == STORED[name]
    assert played(g, options, g["moves"]) == stored  # exactly: that release's setup, the same draws
    ended = played(g, options, [*g["moves"], *g["rest"]])  # and on to the end as that engine played it
    final = upgraded(g["final"])
    if name in AMBIGUOUS_END:
        assert final["options"]["release"] == AMBIGUOUS_END[name]
        final["options"]["release"] = STORED[name]
    assert ended == final
    out = RULES.outcome(ended)
    assert out is not None and out.as_dict() == g["outcome"]  # (the same team result, conditions and all)


@pytest.mark.parametrize("name", [n for n, r in STORED.items() if r != "current"])
def test_todays_setup_would_not_replay_an_older_releases_game(name: str) -> None:
    g = golden(name)
    today = played(g, g["options"], [])
    then = played(g, RULES.replay_options(g["options"], g["state"]), [])
    assert today != then
    with pytest.raises(AssertionError):  # (a move of the log is no option of today's setup, or the states part)
        assert played(g, g["options"], [*g["moves"]]) == upgraded(g["state"])


@pytest.mark.parametrize("n", [1, 2, 3, 4])
@pytest.mark.parametrize("mode", ["74", "193"])
def test_a_new_cooperative_game_is_todays_release_and_each_row_is_told_from_todays(mode: str, n: int) -> None:
    for i in range(3):
        state = RULES.setup(player_names(n), {"mode": mode}, f"coop-today-{mode}-{n}-{i}")
        assert state["options"]["release"] == "current" and scenarios.release_of(state) == "current"
        assert RULES.replay_options({"mode": mode}, state) == {"mode": mode}
    # each row's setup is told from today's where they differ (markers with 1-2 players, The Search's card and
    # hints), and the release deduced sets up the same game (two rows that deal alike are one: the newer)
    def dealt(release: str, seed: str) -> dict[str, Any]:
        state: dict[str, Any] = json.loads(json.dumps(RULES.setup(player_names(n), {"mode": mode, "release": release},
                                                                  seed)))
        del state["options"]["release"]
        return state

    for name in coop_releases.ROWS:
        seed = f"coop-row-{name}-{mode}-{n}"
        state = RULES.setup(player_names(n), {"mode": mode, "release": name}, seed)
        found = scenarios.release_of(state)
        assert dealt(found, seed) == dealt(name, seed)
        assert (found == "current") == (dealt(name, seed) == dealt("current", seed))


def test_the_rows_deal_what_those_releases_dealt() -> None:
    solo = RULES.setup(player_names(1), {"mode": "74", "release": "fa60223"}, "coop-rows")
    assert len(solo["markers"]) == 18 and not solo.get("garrison")  # (a marker on each village and city)
    assert len(RULES.setup(player_names(1), {"mode": "74"}, "coop-rows")["markers"]) == 7  # (each city: today)
    for name, green, red_hints, cp in (("fa60223", 6, 8, 5), ("5b2b789", 4, 8, 5), ("fbaa97f", 4, 11, 8),
                                       ("6a0f3d2", 4, 11, 8), ("current", 3, 11, 8)):
        state = RULES.setup(player_names(1), {"mode": "193", "release": name}, "coop-rows")
        assert len(state["search"]["green"]) == green
        assert sum(search.colour(state, h) == "red" for h in search.HINTS) == red_hints
        assert search.luysa_cp(state) == RULES.view(state, 0)["search"]["luysa_cp"] == cp
