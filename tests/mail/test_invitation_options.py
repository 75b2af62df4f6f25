"""An invitation lists the game's options as a player writes them in ``new ... key=value`` (QA by
mail): a Portuguese invitation to an Uprising game read "promos = False" and a campaign's
"campaign = True", Python's words; now yes/no, in every language."""

from __future__ import annotations

import pytest

from pbem.games import services as game_services
from tests.mail.conftest import Persona, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def test_an_invitation_says_a_yes_or_no_option_as_it_is_written(ana: Persona, bruno: Persona, carla: Persona) -> None:
    game_services.do_update_preferences(game_services.do_get_or_create_player(bruno.email), language="pt")
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email} {carla.email} mode=79")
    for person, head in ((bruno, "Opções do jogo:"), (carla, "Game options:")):
        said = text_of(person.latest())
        options = said.split(head, 1)[1].split("\n\n", 1)[0]
        assert "  mode = 79" in options and "  promos = no" in options, options
        assert "False" not in options and "True" not in options, options
