"""Addresses no mail can go to are refused at the door, with a clear answer, never a DataError.
(A From that cannot be answered: tests/mail/test_hostile.py, from_too_long.)"""

from __future__ import annotations

import pytest

from pbem.games import services
from pbem.games.models import Game, InboundMessage, OutboundMessage, Seat
from pbem.games.services import ServiceError
from tests.factories import make_player, token_client
from tests.mail.conftest import Persona, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def test_it_answers_an_invitation_to_an_address_over_254_characters_clearly(ana: Persona) -> None:
    long = "b" * 250 + "@example.org"
    ana.send_to(GENERAL, f"new maretta with {long} carla@example.com")
    answer = text_of(ana.latest())
    assert "not done" in answer and "262 characters long" in answer and "254 at most" in answer
    assert "DataError" not in answer and "internal error" not in answer
    assert not Game.objects.exists() and not Seat.objects.exists()
    row = InboundMessage.objects.get()
    assert row.status == InboundMessage.Status.REJECTED and "internal error" not in row.result


@pytest.mark.parametrize("invitee", ["bru\r\nno@example.net", "bru\nno@example.net", "bru\x85no@example.net"])
def test_it_refuses_an_invitee_with_a_line_break_in_the_local_part(invitee: str) -> None:
    alice = make_player("alice@example.org")
    # The service refuses it whatever the door (the API's serializer refuses it first).
    with pytest.raises(ServiceError, match="is not an email address we can send to"):
        services.do_create_game(alice, "maretta", invite=[invitee])
    r = token_client(alice).post("/api/v1/games/", {"rules": "maretta", "invite": [invitee]}, format="json")
    assert r.status_code == 400, r.content
    assert not Game.objects.exists() and not OutboundMessage.objects.exists()
