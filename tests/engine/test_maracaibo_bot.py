"""Maracaibo's heuristic bot: it reads only what its seat may know, is seeded, delivers, and beats random play."""

from __future__ import annotations

import random
from typing import Any

from engine.games.maracaibo import RULES
from engine.games.maracaibo.bot import choose
from engine.rng import Rng, seed_to_state
from engine.testing import player_names


def _game(n: int, seed: str, players: list[Any] | None = None, **options: Any) -> dict[str, Any]:
    state = RULES.setup(player_names(n), options, seed)
    rnd = random.Random(f"{seed}-bot")
    who = players or [choose] * n
    while pending := RULES.pending(state):
        seat = pending[0]
        opts = RULES.options(state, seat)
        RULES.apply(state, seat, who[seat](state, seat, opts, rnd).move)
    return state


def _random(state: dict[str, Any], seat: int, options: list[Any], rnd: random.Random) -> Any:
    return rnd.choice(options)


def test_it_chooses_the_same_whatever_is_hidden_from_its_seat() -> None:
    state = RULES.setup(player_names(3), {"scenario": "77", "rounds": 2}, "bot-hidden")
    rnd = random.Random("bot-hidden")
    checked = 0
    while pending := RULES.pending(state):
        seat = pending[0]
        opts = RULES.options(state, seat)
        other = RULES.resample_hidden(state, seat, Rng({"rng": seed_to_state(f"r{checked}")}))
        twin = random.Random()
        twin.setstate(rnd.getstate())
        mine = choose(state, seat, opts, rnd)
        assert choose(other, seat, RULES.options(other, seat), twin).code == mine.code
        RULES.apply(state, seat, mine.move)
        checked += 1
    assert checked > 100


def test_it_plays_the_same_game_from_the_same_seed() -> None:
    a = _game(2, "bot-seeded", rounds=2)
    b = _game(2, "bot-seeded", rounds=2)
    assert a == b
    assert [p["victory_points"] for p in a["seats"]] != [0, 0]


def test_it_delivers_goods_and_completes_ship_upgrades() -> None:
    for seed in ("bot-deliver-1", "bot-deliver-2"):
        state = _game(2, seed)
        for p in state["seats"]:
            assert p["delivered"] >= 4
            assert len(p["areas"]) >= 2
            assert p["victory_points_by_source"].get("upgrades", 0) > 0


def test_it_wins_against_random_play() -> None:
    wins = 0
    for i in range(8):
        me = i % 2
        who: list[Any] = [_random, _random]
        who[me] = choose
        state = _game(2, f"bot-vs-random-{i}", who)
        outcome = RULES.outcome(state)
        assert outcome is not None
        wins += me in outcome.winners
    assert wins == 8
