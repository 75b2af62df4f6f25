"""A Maracaibo option code sent when it is not the seat's turn is refused as "not your turn", and a
code the seat has not is said in the reader's language (QA through the API, issue 27): a code out of
turn got "zz is not a legal choice now" (Maracaibo's describe_move refused it before apply could
name the real reason), and in English whatever Accept-Language said."""

from __future__ import annotations

import pytest

import engine
from pbem.games.models import Game
from tests.factories import seat_of, start_game, token_client

pytestmark = pytest.mark.django_db(transaction=True)

RULES = engine.get("maracaibo")


def _post(player, game: Game, code: str, language: str = "en"):
    return token_client(player).post(f"/api/v1/games/{game.pk}/moves/?wait=5", {"commands": [{"code": code}]},
                                     format="json", headers={"Accept-Language": language})


def test_a_code_out_of_turn_is_refused_as_not_your_turn_and_a_wrong_code_in_the_readers_language(
        alice, bob) -> None:
    game = start_game("maracaibo", alice, [bob], options={"mode": "79"})
    for player in (alice, bob):  # the setup: both choose at once (a home port, a planned card, four kept)
        for _ in range(8):
            game.refresh_from_db()
            options = RULES.options(game.state, seat_of(game, player))
            if not options:
                break
            assert _post(player, game, options[0].code).status_code == 200
    game.refresh_from_db()
    waiting = RULES.pending(game.state)
    assert len(waiting) == 1
    mover, other = (alice, bob) if seat_of(game, alice) in waiting else (bob, alice)
    theirs = RULES.options(game.state, waiting[0])[0].code
    for language, said in (("en", "it is not your turn"), ("pt", "não é a sua vez")):
        r = _post(other, game, theirs, language)
        assert r.status_code == 422 and r.json()["code"] == "not_your_turn", r.json()
        assert said in r.json()["message"], r.json()
    r = _post(mover, game, "zz", "pt")
    assert r.status_code == 422 and r.json()["code"] == "illegal", r.json()
    assert "zz não é uma escolha válida agora" in r.json()["message"], r.json()
    r = _post(mover, game, "zz")
    assert "zz is not a legal choice now" in r.json()["message"], r.json()
