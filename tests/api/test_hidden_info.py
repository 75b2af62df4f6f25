"""A player sees only their own view, a spectator only the public one: tested by property.

Two games that differ only in what a seat cannot know (the engine's
``resample_hidden`` deals other hands, deck orders and face-down cards
differently) must give that seat identical answers on every endpoint it can
read. Any leak of hidden information, in the view, its text or SVG rendering,
the options or the game detail, would make the answers differ.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import engine
from engine.rng import Rng
from pbem.games.models import Game, Player
from tests.factories import play_first_options, player_at, start_game, token_client

VOLATILE = {"id", "links", "etag", "created_at", "started_at", "deadline_at", "seed_hash", "game"}


def _strip(data: Any) -> Any:
    if isinstance(data, dict):
        return {k: _strip(v) for k, v in data.items() if k not in VOLATILE}
    if isinstance(data, list):
        return [_strip(v) for v in data]
    return data


def _answers(game: Game, viewer: Player | None) -> dict[str, Any]:
    client = token_client(viewer)
    base = f"/api/v1/games/{game.pk}/"
    out = {
        "detail": _strip(client.get(base).json()),
        "view": _strip(client.get(f"{base}view/").json()),
        "text": client.get(f"{base}view/?format=txt").content,
        "svg": client.get(f"{base}view/?format=svg").content,
        "board": client.get(f"{base}board.svg").content,
    }
    if viewer is not None:
        out["options"] = _strip(client.get(f"{base}options/").json())
    return out


def _twin(game: Game, players: list[Player], seat: int | None, rnd: random.Random) -> tuple[Game, bool]:
    """A second game with the same players and public state; ``seat``'s hidden information resampled."""
    rules = engine.get(game.rules)
    holder = {"rng": f"{rnd.getrandbits(64):016x}"}
    other_state = rules.resample_hidden(game.state, seat, Rng(holder))
    twin = start_game(game.rules, players[0], players[1:], options=game.options)
    Game.objects.filter(pk=twin.pk).update(state=other_state, version=game.version)
    twin.refresh_from_db()
    return twin, other_state != game.state


@pytest.mark.parametrize(("rules", "options", "n_moves"), [
    ("blindbids", {"rounds": 5, "deck": "long"}, 4),
    ("maretta", {"side": "A"}, 7),
    ("maretta", {"side": "B"}, 12),
])
def test_games_differing_only_in_hidden_information_answer_the_same(fake_game, alice, bob, carol, dave, rules,
                                                                    options, n_moves):
    players = [alice, bob, carol]
    rnd = random.Random(f"{rules}-{options}")
    changed = 0
    for trial in range(2):
        game = start_game(rules, alice, [bob, carol], options=options)
        play_first_options(game.pk, limit=n_moves + trial, rnd=rnd)
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING
        for seat in (None, 0, 1, 2):
            viewer = None if seat is None else player_at(game, seat)
            twin, differs = _twin(game, players, seat, rnd)
            changed += differs
            assert _answers(twin, viewer) == _answers(game, viewer), (rules, trial, seat)
            if seat is None:  # an outsider with a token is a spectator too
                assert _answers(twin, dave) | {"options": None} == _answers(game, dave) | {"options": None}
    assert changed > 0, "resample_hidden never changed a state: the property proved nothing"
