"""People count seats from 1 everywhere they read or type one (issue 23, as campaigns do since
67d5060): the game page, the moderator page, the admin's seat choices, the moderator's mail
commands over a real SMTP socket and the mails that name a seat; the API's ``seat`` fields stay the
engine's indexes from 0. A moderator's seat 0, or one beyond the last, is refused naming the seats,
never taken as another seat."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from pbem.games.models import AuditEntry, Game, GameModerator, Move, Player
from tests.factories import make_player, token_client
from tests.mail.conftest import Persona, text_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def nora(smtp_server: Any) -> Persona:
    return Persona("nora@example.org", "Nora", smtp_server)


@pytest.fixture
def staff() -> Player:
    player = make_player("staff@example.org", "Staff")
    player.user.is_staff = True
    player.user.save(update_fields=["is_staff"])
    return player


def _command_address(game: Game, staff: Player, nora: Persona) -> str:
    from pbem.games import moderators

    r = token_client(staff).post(f"/api/v1/games/{game.pk}/moderators/",
                                 {"email": nora.email, "lead": True, "reason": "league rota"}, format="json")
    assert r.status_code == 200, r.content
    return moderators.command_address(GameModerator.objects.get(game=game, player__email=nora.email))


def test_a_moderators_mail_commands_count_seats_from_1_and_refuse_0_and_beyond_naming_the_range(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, nora: Persona,
        staff: Player) -> None:
    address = _command_address(bids_game, staff, nora)
    nora.send_to(address, "inspect 0 a dispute\n"
                          "move 4 Bid 1 -- phoned\n"
                          "absence 0 until 2027-01-10 away\n"
                          "replace 0 with olga@example.org Ana left\n"
                          "replace 9 with olga@example.org Ana left")
    answer = text_of(nora.latest())
    assert answer.count("not done") == 5, answer
    assert answer.count(f"game #{bids_game.pk} has seats 1 to 3, not 0") == 3, answer
    assert "has seats 1 to 3, not 4" in answer and "has seats 1 to 3, not 9" in answer
    assert not AuditEntry.objects.filter(game=bids_game, action__in=["inspect", "move-for-seat", "absence",
                                                                     "replace"]).exists()
    assert bids_game.seats.filter(index=0, player__email=ana.email).exists()  # seat 0 was not taken as the first

    # seat 3 is Carla's (index 2), as the game page shows it; the answer names it so
    nora.send_to(address, "inspect 3 Carla says she holds it\nreplace 1 with olga@example.org as Olga -- Ana left")
    answer = text_of(nora.latest())
    assert "what Carla sees" in answer and "seat 1 handed to olga@example.org" in answer, answer
    assert AuditEntry.objects.get(game=bids_game, action="inspect").details["seat"] == 2  # the log keeps the index
    game = Game.objects.get(pk=bids_game.pk)
    assert game.seats.filter(index=0, player__email="olga@example.org").exists()
    assert game.seats.filter(index=2, player__email=carla.email).exists()


def test_a_players_mail_to_the_moderators_names_their_seat_from_1(
        bids_game: Game, bruno: Persona, nora: Persona, staff: Player) -> None:
    _command_address(bids_game, staff, nora)
    bruno.reply(bruno.latest(), "moderator Carla has not answered for a week")
    assert f"seat 2 of game #{bids_game.pk}" in text_of(nora.latest())  # Bruno: index 1


def test_the_game_page_and_the_moderator_pages_count_seats_from_1_the_api_from_0(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, staff: Player) -> None:
    assert bids_game.state is not None
    card = bids_game.state["hands"][1][0]
    bruno.reply(bruno.latest(), f"Bid {card}")
    move = Move.objects.get(game=bids_game)
    assert move.seat == 1
    page = Client().get(f"/games/{bids_game.pk}/").content.decode()
    cells = re.findall(r"<tr><td>(\d+)</td><td>(\w+)</td>", page)
    assert cells == [("1", "Ana"), ("2", "Bruno"), ("3", "Carla")], cells
    assert "move 1 (seat 2," in page, page

    client = Client()
    client.force_login(staff.user)
    moderate = client.get(f"/admin/games/game/{bids_game.pk}/moderate/").content.decode()
    assert "seat 2 (" in moderate  # the last moves: Bruno's
    assert '<option value="1">1: Ana</option>' in moderate and '<option value="3">3: Carla</option>' in moderate
    assert '<input name="seat" type="number" min="1" max="3" required>' in moderate
    waits = re.findall(r"<tr><td>(\d+)</td><td>(\w+) &lt;", moderate)  # whose turn: Ana and Carla
    assert sorted(waits) == [("1", "Ana"), ("3", "Carla")], waits
    # the page's forms take the seat as shown: 0 refused naming the seats, 3 is Carla's
    r = client.post(f"/admin/games/game/{bids_game.pk}/moderate/", {"tool": "inspect", "seat": "0",
                                                                      "reason": "a dispute"}, follow=True)
    assert f"ame #{bids_game.pk} has seats 1 to 3, not 0</li>" in r.content.decode()  # (the page says "Game")
    r = client.post(f"/admin/games/game/{bids_game.pk}/moderate/", {"tool": "inspect", "seat": "3",
                                                                      "reason": "a dispute"}, follow=True)
    assert "What Carla sees" in r.content.decode()
    replace = client.get(f"/admin/games/game/{bids_game.pk}/replace/").content.decode()
    assert ">seat 1: Ana<" in replace and ">seat 3: Carla<" in replace and "seat 0" not in replace
    r = client.post(f"/admin/games/game/{bids_game.pk}/replace/",
                    {"seat": "2", "email": "olga@example.org", "name": "", "reason": "Carla left"})
    assert r.status_code == 302  # the choice's value is the index; what the moderator reads counts from 1
    assert [str(m) for m in get_messages(r.wsgi_request)] == [
        f"Seat 3 of game #{bids_game.pk} now belongs to olga@example.org."]
    assert bids_game.seats.filter(index=2, player__email="olga@example.org").exists()
    # the admin's rows name a seat and a move's seat from 1 too (a row's own name: Seat/Move.__str__;
    # those lists are a superuser's)
    staff.user.is_superuser = True
    staff.user.save(update_fields=["is_superuser"])
    carla_seat = bids_game.seats.get(index=2)
    seat_page = client.get(f"/admin/games/seat/{carla_seat.pk}/change/").content.decode()
    assert f"seat 3 of game {bids_game.pk}" in seat_page and f"seat 2 of game {bids_game.pk}" not in seat_page
    move_page = client.get(f"/admin/games/move/{move.pk}/change/").content.decode()
    assert f"move 1 of game {bids_game.pk} (seat 2)" in move_page, move_page

    # the API's seat fields stay indexes from 0
    api = token_client(staff).get(f"/api/v1/games/{bids_game.pk}/late/").json()
    assert sorted(s["seat"] for s in api["results"]) == [0, 2]
