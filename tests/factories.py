"""Shared personas and game helpers for service, API and worker tests.

The personas follow healthchecks' habit: Alice creates games, Bob and Carol
play with her, Dave is an outsider who must see nothing private, and Mod is a
staff moderator. Import the fixtures into a folder's conftest.py.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

import engine
from engine import registry
from pbem.games import services
from pbem.games.models import Game, Player, pending_of

FAKE_GAME = "blindbids"


def make_player(email: str, name: str = "") -> Player:
    return services.do_create_player(email, name)


def start_game(rules: str, creator: Player, others: Sequence[Player], options: dict[str, Any] | None = None,
               **kwargs: Any) -> Game:
    """Create a game inviting ``others``, have them all join; the game is running afterwards."""
    game = services.do_create_game(creator, rules, options=options or {}, invite=[p.email for p in others],
                                   **kwargs)
    for p in others:
        services.do_join_game(game.pk, p)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING, game.status
    return game


def seat_of(game: Game, player: Player) -> int:
    index = game.seats.get(player=player).index
    assert index is not None
    return index


def player_at(game: Game, seat: int) -> Player:
    player = game.seats.get(index=seat).player
    assert player is not None
    return player


def play_first_options(game_id: int, until_finished: bool = True, limit: int = 10_000,
                       rnd: random.Random | None = None) -> int:
    """Drive a game through the service with each pending seat's first (or a random) option."""
    moves = 0
    while moves < limit:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.RUNNING:
            break
        rules = engine.get(game.rules)
        assert game.state is not None
        pending = rules.pending(game.state)
        if not pending:
            break
        seat = pending[0]
        options = rules.options(game.state, seat)
        opt = rnd.choice(options) if rnd else options[0]
        services.do_submit_moves(game_id, player_at(game, seat), [services.Command(code=opt.code)],
                                 source="api")
        moves += 1
        if not until_finished:
            break
    return moves


def set_state(game: Game, state: dict[str, Any]) -> Game:
    """Store a state arranged by hand (the engine tests' helpers build them), with the
    ``pending_seats`` every state write stores beside it."""
    Game.objects.filter(pk=game.pk).update(state=state, pending_seats=pending_of(game.rules, state))
    game.refresh_from_db()
    return game


def caravelas_ready_to_draw(game: Game) -> int:
    """The pending seat of a Caravelas game holds one discovery card in Lisboa, so it may draw. Its index."""
    from engine.games.caravelas import board
    from tests.engine.test_caravelas_rules import put

    assert game.state is not None
    seat = engine.get("caravelas").pending(game.state)[0]
    set_state(game, put(game.state, seat, at=board.LISBON, disc=["guine"]))
    return seat


def maretta_at_barrels(game: Game, seat: int, barrels: list[tuple[str, bool]]) -> None:
    """``seat`` of a Maretta game has just stopped on ``barrels`` ([kind, face up]) and must take one."""
    from tests.engine.test_maretta_rules import at_barrel, edit

    assert game.state is not None
    state = game.state
    edit(state, pos=[4] * len(state["pos"]))
    at_barrel(state, seat, barrels)
    set_state(game, state)


# ---- fixtures ---------------------------------------------------------------------------------


@pytest.fixture
def fake_game() -> Iterator[str]:
    """Register the test-only hidden-information game ``blindbids`` for one test."""
    registry._MODULES[FAKE_GAME] = "tests.fakegame"
    try:
        yield FAKE_GAME
    finally:
        registry._MODULES.pop(FAKE_GAME, None)
        registry._loaded.pop(FAKE_GAME, None)


@pytest.fixture
def alice(db: None) -> Player:
    return make_player("alice@example.org", "Alice")


@pytest.fixture
def bob(db: None) -> Player:
    return make_player("bob@example.org", "Bob")


@pytest.fixture
def carol(db: None) -> Player:
    return make_player("carol@example.org", "Carol")


@pytest.fixture
def dave(db: None) -> Player:
    """The outsider: plays in none of the games."""
    return make_player("dave@example.org", "Dave")


@pytest.fixture
def moderator(db: None) -> Player:
    player = make_player("mod@example.org", "Mod")
    player.user.is_staff = True
    player.user.is_superuser = True
    player.user.save(update_fields=["is_staff", "is_superuser"])
    return player


def token_client(player: Player | None = None) -> Any:
    """A DRF test client, authenticated with ``player``'s API token (anonymous for None)."""
    from rest_framework.test import APIClient

    client = APIClient()
    if player is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {services.do_issue_api_token(player)}")
    return client


def mail_text(row: Any) -> str:
    """An outbox row's text as it is sent (an update mail's is composed from its content)."""
    from pbem.mail import sending

    return sending.bodies(row).text
