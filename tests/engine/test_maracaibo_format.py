"""Maracaibo's state format and its upgrades (engine/games/maracaibo/upgrade.py): a game saved by an
older engine loads, plays on and ends as it would have, and every upgrade step is checked.

The golden games (tests/engine/golden/maracaibo_*.json, written by make_maracaibo.py on main
eee8661, before formats existed) hold a mid-game state, its seed and log, the rest of the game as
that engine played it, and its end.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.errors import SetupError
from engine.games.maracaibo import RULES
from engine.games.maracaibo.upgrade import FORMAT, UPGRADES, UnknownFormat, current, format_of
from engine.testing import player_names
from tests.engine.maracaibo_golden import golden, upgraded

SAVED = ["maracaibo_3p_s77", "maracaibo_solo_s76"]


@pytest.mark.parametrize("name", SAVED)
def test_it_plays_on_a_game_saved_before_formats_existed(name: str) -> None:
    g = golden(name)
    state = g["state"]
    assert "format" not in state  # (saved as format 0)
    for i, (seat, code) in enumerate(g["rest"]):
        assert seat in RULES.pending(state)
        RULES.apply(state, seat, {"code": code})
        if i == 0:
            assert state["format"] == FORMAT  # upgraded when first read
    assert RULES.pending(state) == []
    assert state == upgraded(g["final"])
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.as_dict() == g["outcome"]


@pytest.mark.parametrize("name", SAVED)
def test_it_upgrades_a_saved_state_to_the_state_todays_engine_plays_to(name: str) -> None:
    g = golden(name)
    state = RULES.setup(g["players"], g["options"], g["seed"])
    for seat, code in g["moves"]:
        RULES.apply(state, seat, {"code": code})
    assert state["format"] == FORMAT
    assert state == upgraded(g["state"])
    for seat in [*range(len(g["players"])), None]:  # and it reads the same
        assert RULES.view(copy.deepcopy(g["state"]), seat) == RULES.view(state, seat)


def test_it_writes_its_format_in_a_new_game() -> None:
    state = RULES.setup(["Ana", "Bruno"], {}, "format")
    assert format_of(state) == FORMAT == len(UPGRADES)
    assert current(state) is False


def test_it_takes_a_format_0_state_to_format_1_changing_nothing_else() -> None:
    old = golden(SAVED[0])["state"]
    new = copy.deepcopy(old)
    UPGRADES[0](new)
    assert new.pop("format") == 1
    assert new == old


def test_it_names_three_top_level_keys_readably_in_format_3_in_their_places() -> None:
    old = golden(SAVED[0])["state"]
    UPGRADES[0](old)
    UPGRADES[1](old)
    new = copy.deepcopy(old)
    UPGRADES[2](new)
    assert old["format"] == 2 and new["format"] == 3
    renamed = {"qpile": "quest_pile", "tquests": "track_quests", "pbox": "prestige_box"}
    assert list(new) == [renamed.get(k, k) for k in old]
    assert all(new[renamed.get(k, k)] == v for k, v in old.items() if k != "format")


#: format 19's renames, written out here (not read from upgrade.py, so that the test would see a slip there)
_TOP_19 = {"p": "seats", "v": "revision"}
_PLAYER_19 = {"d": "doubloons", "vp": "victory_points", "cp": "combat_points", "inf": "influence", "fig": "figures",
              "figs": "figures_owned", "inc_d": "income_doubloons", "inc_vp": "income_victory_points",
              "src": "victory_points_by_source"}


@pytest.mark.parametrize("name", [*SAVED, "maracaibo_coop_b855b57_74_2p"])
def test_it_names_the_last_short_keys_readably_in_format_19_in_their_places(name: str) -> None:
    """A 3-player game, a solo game against Jean, a cooperative game with Jacques: every short key renamed in its
    place, every value the same, nothing else changed."""
    old = golden(name)["state"]
    for step in UPGRADES[format_of(old):18]:
        step(old)
    new = copy.deepcopy(old)
    UPGRADES[18](new)
    assert old["format"] == 18 and new["format"] == 19
    assert list(new) == [_TOP_19.get(k, k) for k in old]
    kept = {"format", "p", "jean", "jacques"}
    assert all(new[_TOP_19.get(k, k)] == v for k, v in old.items() if k not in kept)
    pairs = list(zip(old["p"], new["seats"], strict=True))
    pairs += [(old[a], new[a]) for a in ("jean", "jacques") if a in old]
    assert len(pairs) > len(old["p"]) or name == SAVED[0]  # (an automa's dict renamed too)
    for before, after in pairs:
        assert list(after) == [_PLAYER_19.get(k, k) for k in before]
        assert list(after.values()) == list(before.values())
        assert not set(after) & set(_PLAYER_19)
    assert new == upgraded(golden(name)["state"])  # (the chain brings it there)


@pytest.mark.parametrize("bad", [FORMAT + 1, -1, "1", None])
def test_it_refuses_a_state_of_a_format_it_does_not_know(bad: Any) -> None:
    state = RULES.setup(["Ana", "Bruno"], {}, "format")
    state["format"] = bad
    with pytest.raises(UnknownFormat, match=f"format {bad!r}; this engine reads formats 0 to {FORMAT}"):
        RULES.pending(state)


# ---- the Uprising's 78 and 79 saved before the new legacy tiles L30-L37 were played ------------------

#: games of 78 and 79 saved by main c0d8ac1 (make_maracaibo_uprising_old.py), format 5: the new legacy tiles
#: drawn (L30, L33, L37; L30, L34, L31) all in ``legacy_unplayed``, no ``legacy_new`` nor ``legacy_board``
SAVED_UPRISING = ["maracaibo_78_before_l30", "maracaibo_79_before_l30"]


def _without_turn_notes(state: dict[str, Any]) -> dict[str, Any]:
    """The state without ``p[...]["villages"]``, the village actions of the turn under way (Village Elder's
    count, card_permanents.note_village, written since c0d8ac1 on the expansion's boards, cleared at the end
    of each main action: the game's last main action leaves it written)."""
    out = copy.deepcopy(state)
    for p in out["seats"]:
        p.pop("villages", None)
    return out


@pytest.mark.parametrize("name", SAVED_UPRISING)
def test_it_plays_on_a_78_or_79_game_saved_before_the_new_legacy_tiles_were_played(name: str) -> None:
    g = golden(name)
    state = g["state"]
    assert state["format"] == 5 and "legacy_new" not in state and "legacy_board" not in state
    unplayed = list(state["legacy_unplayed"])
    assert "L30" in unplayed and len(unplayed) == 3
    for i, (seat, code) in enumerate(g["rest"]):
        assert seat in RULES.pending(state)
        assert code in [o.code for o in RULES.options(state, seat)]  # the same options as that engine offered
        RULES.apply(state, seat, {"code": code})
        if i == 0:  # upgraded when first read: none of the tiles it did not play comes into play
            assert state["format"] == FORMAT
            assert (state["legacy_new"], state["legacy_board"], state["legacy_unplayed"]) == ([], {}, unplayed)
        assert state["legacy_board"] == {} and all(p["at"] != "10a" for p in state["seats"])  # (L30's new city)
    assert RULES.pending(state) == []
    assert _without_turn_notes(state) == _without_turn_notes(upgraded(g["final"]))
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.as_dict() == g["outcome"]


@pytest.mark.parametrize("name", SAVED_UPRISING)
def test_it_tells_the_players_the_drawn_tiles_it_does_not_play_after_the_upgrade(name: str) -> None:
    state = upgraded(golden(name)["state"])
    keys = list(state)
    assert keys[keys.index("legacy"):keys.index("legacy") + 4] == ["legacy", "legacy_new", "legacy_board",
                                                                  "legacy_unplayed"]
    for seat in [0, 1, 2, None]:
        told = RULES.view(state, seat)["uprising_legacy"]
        assert [(t["id"], t["played"]) for t in told] == [(t, False) for t in state["legacy_unplayed"]]
    assert all(RULES.options(state, seat) for seat in RULES.pending(state))


def test_it_adds_only_the_board_to_a_state_whose_new_spaces_l34_l36_were_already_played() -> None:
    """main 93f71f2 to 7e3c82d's parent: L34-L36 in ``legacy_new``, no ``legacy_board``."""
    old = golden(SAVED_UPRISING[1])["state"]
    for step in UPGRADES[5:6]:
        step(old)
    old = {**{k: v for k, v in old.items() if k != "legacy_unplayed"}, "legacy_new": ["L34"],
           "legacy_unplayed": ["L30", "L31"]}
    new = copy.deepcopy(old)
    UPGRADES[6](new)
    assert new.pop("format") == 7 and new.pop("legacy_board") == {}
    assert new == {k: v for k, v in old.items() if k != "format"}
    fresh = RULES.setup(player_names(3), {"mode": "79"}, "format-7")  # a state of today: unchanged
    again = copy.deepcopy(fresh)
    UPGRADES[6](again)
    assert again == {**fresh, "format": 7}  # (only the format said)


# ---- replaying such a game from its seed: the internal option release (scenarios.RELEASES) -------------


def _replayed(g: dict[str, Any], moves: list[list[Any]], options: dict[str, Any]) -> dict[str, Any]:
    state = RULES.setup(g["players"], options, g["seed"])
    for seat, code in moves:
        assert code in [o.code for o in RULES.options(state, seat)]
        RULES.apply(state, seat, {"code": code})
    replayed: dict[str, Any] = json.loads(json.dumps(state))  # (as stored)
    return replayed


@pytest.mark.parametrize("name", SAVED_UPRISING)
def test_it_replays_a_78_or_79_game_saved_before_the_new_legacy_tiles_from_its_seed_and_log(name: str) -> None:
    g = golden(name)
    stored = upgraded(g["state"])
    assert stored["options"]["release"] == "c0d8ac1"  # (format 8 marks it)
    # (format 16: a 79 game, set up before Genova was left out with Liberation, deals from all 15 ports)
    assert stored["options"]["port_pool"] == ("all" if stored["options"]["mode"] == "79" else "current")
    # (as migration 0026 marks the stored game; the ports as Rules.replay_options says)
    options = {**g["state"]["options"], "release": "c0d8ac1", "port_pool": stored["options"]["port_pool"]}
    assert _replayed(g, g["moves"], options) == stored  # exactly: the setup of that release, same draws
    ended = _replayed(g, [*g["moves"], *g["rest"]], options)  # (the last main action's notes: see above)
    assert _without_turn_notes(ended) == _without_turn_notes(upgraded(g["final"]))
    # today's setup (no marker) deals other cards, tiles and home ports: the log does not replay
    today = RULES.setup(g["players"], g["state"]["options"], g["seed"])
    seat, code = g["moves"][0]
    assert today["deck"] != stored["deck"] or code not in [o.code for o in RULES.options(today, seat)]


def test_a_game_set_up_today_says_release_current_and_the_upgrade_keeps_it() -> None:
    fresh = RULES.setup(player_names(3), {"mode": "78"}, "release-today")
    assert fresh["options"]["release"] == "current" and fresh["legacy_new"]
    again = copy.deepcopy(fresh)
    again["format"] = 7
    del again["options"]["release"]
    current(again)
    assert again == fresh
    old = RULES.setup(player_names(3), {"mode": "79", "release": "c0d8ac1"}, "release-old")
    assert (old["legacy_new"], old["legacy_board"]) == ([], {}) and "L30" in old["legacy_unplayed"]
    assert not {201, 220, 221, 224, 229} ^ {c for c in [*old["deck"], *old["box"], *old["display"],
                                                       *old["discard"]] if 200 < c < 230}


@pytest.mark.parametrize("mode", ["base", "basic", "74"])
def test_it_refuses_the_option_release_outside_78_and_79(mode: str) -> None:
    n = 1 if mode == "74" else 2
    with pytest.raises(SetupError, match=f"option release=c0d8ac1 is a stored game's of mode 78 or 79, not of "
                                         f"mode {mode}"):
        RULES.setup(player_names(n), {"mode": mode, "release": "c0d8ac1"}, "release-refused")
    with pytest.raises(SetupError, match="release"):
        RULES.setup(player_names(3), {"mode": "78", "release": "1999"}, "release-unknown")
