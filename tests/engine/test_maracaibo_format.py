"""Maracaibo's state format and its upgrades (engine/games/maracaibo/upgrade.py): a game saved by an
older engine loads, plays on and ends as it would have, and every upgrade step is checked.

The golden games (tests/engine/golden/maracaibo_*.json, written by make_maracaibo.py on main
eee8661, before formats existed) hold a mid-game state, its seed and log, the rest of the game as
that engine played it, and its end.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from engine.games.maracaibo import RULES
from engine.games.maracaibo.upgrade import FORMAT, UPGRADES, UnknownFormat, current, format_of

GOLDEN = Path(__file__).parent / "golden"
SAVED = ["maracaibo_3p_s77", "maracaibo_solo_s76"]


def _golden(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((GOLDEN / f"{name}.json").read_text())
    return doc


def _upgraded(state: dict[str, Any]) -> dict[str, Any]:
    s = copy.deepcopy(state)
    current(s)
    return s


@pytest.mark.parametrize("name", SAVED)
def test_it_plays_on_a_game_saved_before_formats_existed(name: str) -> None:
    g = _golden(name)
    state = g["state"]
    assert "format" not in state  # (saved as format 0)
    for i, (seat, code) in enumerate(g["rest"]):
        assert seat in RULES.pending(state)
        RULES.apply(state, seat, {"code": code})
        if i == 0:
            assert state["format"] == FORMAT  # upgraded when first read
    assert RULES.pending(state) == []
    assert state == _upgraded(g["final"])
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.as_dict() == g["outcome"]


@pytest.mark.parametrize("name", SAVED)
def test_it_upgrades_a_saved_state_to_the_state_todays_engine_plays_to(name: str) -> None:
    g = _golden(name)
    state = RULES.setup(g["players"], g["options"], g["seed"])
    for seat, code in g["moves"]:
        RULES.apply(state, seat, {"code": code})
    assert state["format"] == FORMAT
    assert state == _upgraded(g["state"])
    for seat in [*range(len(g["players"])), None]:  # and it reads the same
        assert RULES.view(copy.deepcopy(g["state"]), seat) == RULES.view(state, seat)


def test_it_writes_its_format_in_a_new_game() -> None:
    state = RULES.setup(["Ana", "Bruno"], {}, "format")
    assert format_of(state) == FORMAT == len(UPGRADES)
    assert current(state) is False


def test_it_takes_a_format_0_state_to_format_1_changing_nothing_else() -> None:
    old = _golden(SAVED[0])["state"]
    new = copy.deepcopy(old)
    UPGRADES[0](new)
    assert new.pop("format") == 1
    assert new == old


def test_it_names_three_top_level_keys_readably_in_format_3_in_their_places() -> None:
    old = _golden(SAVED[0])["state"]
    UPGRADES[0](old)
    UPGRADES[1](old)
    new = copy.deepcopy(old)
    UPGRADES[2](new)
    assert old["format"] == 2 and new["format"] == 3
    renamed = {"qpile": "quest_pile", "tquests": "track_quests", "pbox": "prestige_box"}
    assert list(new) == [renamed.get(k, k) for k in old]
    assert all(new[renamed.get(k, k)] == v for k, v in old.items() if k != "format")


@pytest.mark.parametrize("bad", [FORMAT + 1, -1, "1", None])
def test_it_refuses_a_state_of_a_format_it_does_not_know(bad: Any) -> None:
    state = RULES.setup(["Ana", "Bruno"], {}, "format")
    state["format"] = bad
    with pytest.raises(UnknownFormat, match=f"format {bad!r}; this engine reads formats 0 to {FORMAT}"):
        RULES.pending(state)
