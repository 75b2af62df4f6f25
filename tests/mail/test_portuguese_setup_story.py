"""What a Portuguese player is told of the Uprising's setup, by mail over the real SMTP socket (QA,
issue 27): after both players chose, "Every player has chosen; the unkept cards are shuffled into
the draw pile. Planned: ..." and "Home ports: ..." stayed English (events made as text only), and a
thing done twice read "(2 times)"."""

from __future__ import annotations

import copy

import pytest

import engine
from engine.core import Event
from pbem.games import services as game_services
from pbem.games import wording
from pbem.games.language import speaking
from pbem.games.models import Game
from tests.mail.conftest import Persona, seat_of, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)

RULES = engine.get("maracaibo")


def _setup_lines(game: Game, person: Persona) -> list[str]:
    """A home port, a planned card and four kept ones, the cards by number (as in one mail)."""
    game.refresh_from_db()
    assert game.state is not None
    seat = seat_of(game, person).index
    port = RULES.options(game.state, seat)[0]
    trial = copy.deepcopy(game.state)
    RULES.apply(trial, seat, port.move)
    dealt = [o.code[1:] for o in RULES.options(trial, seat)]
    return [port.code, f"plan {dealt[0]}", *(f"keep {c}" for c in dealt[1:5])]


def test_the_setups_end_is_told_to_a_portuguese_player_in_portuguese(ana: Persona, bruno: Persona) -> None:
    game_services.do_update_preferences(game_services.do_get_or_create_player(bruno.email), language="pt")
    game = start_game("maracaibo", [ana, bruno], options={"mode": "79"}, mail_mode="every")
    for person in (ana, bruno):
        person.reply(person.latest(), "\n".join(_setup_lines(game, person)))
    game.refresh_from_db()
    assert game.state is not None and game.state["stack"][-1]["kind"] != "setup"
    # (mode all: each reads it in the mail after the last choice)
    his = text_of(bruno.latest())
    assert "Todos escolheram; as cartas não guardadas são embaralhadas no monte. Planejadas: " in his, his
    assert "Portos de Origem: " in his, his
    assert "Every player has chosen" not in his and "Home ports" not in his, his
    hers = text_of(ana.latest())
    assert "Every player has chosen; the unkept cards are shuffled into the draw pile. Planned: " in hers, hers
    assert "Home ports: " in hers, hers


def test_a_thing_done_several_times_says_how_many_in_the_readers_language() -> None:
    events = [Event("gain", "Ana gets 1 doubloon.")] * 2
    with speaking("pt"):
        assert wording.story(events, 1, "Bruno") == ["Ana gets 1 doubloon. (2 vezes)"]
    with speaking("en"):
        assert wording.story(events, 1, "Bruno") == ["Ana gets 1 doubloon. (2 times)"]
