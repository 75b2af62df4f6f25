"""A Portuguese player is not mailed about another's step while their own choice waits (issue 27).

Found by QA on a Maracaibo game by mail (#22): while Dora (pt) had not yet chosen her dealt cards,
every card Eve (English) planned or kept sent Dora a mail "the same as my last mail ... your move
was applied", though Dora had not moved. Whether a mail is due compared the options of Dora's last
mail, listed in Portuguese, with her options read in the mover's language (English): never equal.
Over the real SMTP socket and the real service, beside the same game with two English players.
"""

from __future__ import annotations

import pytest

from pbem.games import services as game_services
from pbem.games.models import Player
from tests.mail.conftest import Persona, start_game, text_of
from tests.mail.test_portuguese_games_by_mail import listed

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("language", ["pt", "en"])
def test_a_waiting_player_hears_nothing_of_anothers_step_in_any_language(ana: Persona, bruno: Persona,
                                                                         language: str) -> None:
    game_services.do_get_or_create_player(ana.email)
    Player.objects.filter(email=ana.email).update(language=language)
    start_game("maracaibo", [ana, bruno])
    first = ana.latest()
    assert listed(text_of(first)), "Ana's first mail lists her options"
    for _step in range(3):  # Bruno plans a card, then keeps two: three steps of his choice
        turn = bruno.latest()
        options = listed(text_of(turn))
        assert options, text_of(turn)
        bruno.reply(turn, options[0][0])
    assert ana.latest() is first or str(ana.latest()["Message-ID"]) == str(first["Message-ID"]), \
        text_of(ana.latest())[:400]
