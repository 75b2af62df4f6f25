"""A game's options refused in the reader's language (QA, issue 27): POST /games/ with
Accept-Language: pt answered "option rounds takes a whole number, not 'x'", and a Portuguese
player's ``new maracaibo mode=79`` alone by mail the Uprising's English refusal (engine.core's option
checks and Maracaibo's combinations were English f-strings)."""

from __future__ import annotations

import pytest

from pbem.games.models import Game
from tests.factories import token_client

pytestmark = pytest.mark.django_db

GAMES = "/api/v1/games/"
PT = {"Accept-Language": "pt"}


@pytest.mark.parametrize(("options", "said"), [
    ({"mode": "79", "rounds": "x"}, "a opção rounds leva um número inteiro, não 'x'"),
    ({"mode": "75"}, "a opção mode tem que ser uma de base, basic, 78, 79, 74, 193, campaign, campaign_base, não '75'"),
    ({"mode": "74", "jacques_level": 9}, "a opção jacques_level tem que ser no máximo 4, não 9"),
    ({"mode": "79", "promos": "maybe"}, "a opção promos leva yes ou no, não 'maybe'"),
    ({"colour": "red"}, "opção desconhecida colour para Maracaibo (conteúdo substituto) (opções conhecidas: "),
    ({"mode": "79"}, "os modos competitivos de A Revolta (opção mode basic, 78, 79) são para 2 a 4 jogadores; "
                     "o solo é jogado com mode=base, 74 ou 193"),
])
def test_a_refused_option_is_said_in_the_readers_language(alice, options, said) -> None:
    client = token_client(alice)
    r = client.post(GAMES, {"rules": "maracaibo", "options": options}, format="json", headers=PT)
    assert r.status_code in (400, 422), r.content
    assert r["Content-Language"] == "pt"
    assert said in r.json()["message"], r.json()
    # the same request in English says it in English, and nothing was made either time
    r = client.post(GAMES, {"rules": "maracaibo", "options": options}, format="json")
    assert "option" in r.json()["message"] and "opção" not in r.json()["message"], r.json()
    assert not Game.objects.exists()


def test_too_many_players_is_said_in_portuguese(alice) -> None:
    client = token_client(alice)
    invite = [f"p{i}@example.com" for i in range(6)]
    r = client.post(GAMES, {"rules": "maretta", "invite": invite}, format="json", headers=PT)
    assert "é para 3 a 5 jogadores, não 7" in r.json()["message"], r.json()
