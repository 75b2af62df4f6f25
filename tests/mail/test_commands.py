"""Account commands by mail to the general address, over the real SMTP socket."""

from __future__ import annotations

import pytest

from pbem.games.models import Game, InboundMessage, Player, Seat
from tests.mail.conftest import Persona, sent_messages, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def answer(person: Persona) -> str:
    m = person.latest()
    assert m["Auto-Submitted"] == "auto-generated"
    return text_of(m)


def test_it_answers_help(ana: Persona) -> None:
    ana.send_to(GENERAL, "help")
    body = answer(ana)
    assert "new GAME [with ADDRESS...]" in body
    assert "maretta: Maretta" in body
    # every account command the general address takes is in it (issue 29: extend, vacation)
    for command in ("games", "join", "decline", "resign #N", "extend #N", "vacation until DATE", "name", "mode"):
        assert f"\n  {command}" in body, command
    assert "default move" in body and "first option" not in body
    # a choice's values: how a player finds the Uprising's scenarios (QA: help listed mode=base alone)
    assert "mode=base (base|basic|78|79|74|193|campaign|campaign_base)" in " ".join(body.split())
    assert "side=A (A|B)" in body and "automa=jean (jean|jacques)" in body and "release" not in body
    assert InboundMessage.objects.get().status == InboundMessage.Status.APPLIED


def test_it_invites_to_a_game_of_three_without_the_solo_only_options(ana: Persona, bruno: Persona,
                                                                     carla: Persona) -> None:
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email} {carla.email} difficulty=4")
    invitation = text_of(bruno.latest())
    assert "for 3 players" in invitation
    assert "scenario = 75" in invitation and "rounds = 4" in invitation
    assert "difficulty" not in invitation and "jean_uprising" not in invitation
    assert "jacques_level" not in invitation  # (Jean nor Jacques in a game of three of the base game)


def test_it_invites_to_a_79_or_74_game_with_only_the_options_its_mode_uses(ana: Persona, bruno: Persona) -> None:
    """QA (#20): a 79 game's invitation listed ``scenario = 75`` and ``jacques_level = 2``."""
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email} mode=79")
    options = text_of(bruno.latest()).split("Game options:\n")[1].split("\n\n")[0]
    assert options.split("\n") == ["  mode = 79", "  promos = no", "  rounds = 4"]
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email} mode=74 jacques_level=3")
    options = text_of(bruno.latest()).split("Game options:\n")[1].split("\n\n")[0]
    assert options.split("\n") == ["  jacques_level = 3", "  mode = 74", "  rounds = 4"]


def test_it_answers_a_mail_without_commands_with_the_help(ana: Persona) -> None:
    ana.send_to(GENERAL, "")
    assert "Your mail held no command" in answer(ana)


def test_it_creates_a_game_and_invites_by_mail_then_starts_it_when_all_join(blindbids: str, ana: Persona,
                                                                            bruno: Persona, carla: Persona) -> None:
    ana.send_to(GENERAL, f'new blindbids with {bruno.email} {carla.email} rounds=2 title="Friday bids"')
    game = Game.objects.get()
    assert game.title == "Friday bids"
    assert game.options["rounds"] == 2
    assert f"Game #{game.pk} (Friday bids) is created" in answer(ana)
    invitation = bruno.latest()
    assert "invites you to play Blind Bids" in text_of(invitation)
    assert "for 3 players" in text_of(invitation) and "for 3 players" in text_of(carla.latest())
    assert "rounds = 2" in text_of(invitation)
    ana.send_to(GENERAL, "games")  # a title of the creator's own: the game it plays after it
    assert f"#{game.pk} Friday bids (Blind Bids): waiting for players" in answer(ana)
    # no account for an invited address before it answers (issue 11)
    assert not Player.objects.filter(email__in=[bruno.email, carla.email]).exists()
    bruno.reply(invitation, "join")
    assert "You joined game" in answer(bruno)
    assert game.seats.get(player__email=bruno.email).status == Seat.Status.JOINED
    assert not Player.objects.filter(email=carla.email).exists()
    # Carla joins through the general address instead of her invitation.
    carla.send_to(GENERAL, "join")
    assert game.seats.get(player__email=carla.email).status == Seat.Status.JOINED
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    for person in (ana, bruno, carla):
        assert any("It is your turn" in text_of(m) for m in person.inbox())


def test_it_lists_my_games_with_whose_turn_it_is(bids_game: Game, ana: Persona) -> None:
    ana.send_to(GENERAL, "games")
    body = answer(ana)
    assert f"#{bids_game.pk} Blind Bids: your turn" in body  # (QA, #20: not "Blind Bids (Blind Bids)")


def test_it_declines_an_invitation_and_frees_the_seat(blindbids: str, ana: Persona, bruno: Persona,
                                                      carla: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    game = Game.objects.get()
    bruno.send_to(GENERAL, f"decline #{game.pk}")
    assert f"You declined game #{game.pk}" in answer(bruno)
    assert Seat.objects.filter(game=game, player__isnull=True).count() == 1
    carla.send_to(GENERAL, f"join #{game.pk}")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert Player.objects.filter(email=carla.email).exists()


def test_it_lists_the_invitations_of_an_address_with_no_account_yet_with_how_to_join_or_decline(
        blindbids: str, ana: Persona, bruno: Persona, carla: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email} {carla.email}")
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    first, second = Game.objects.order_by("pk")
    carla.send_to(GENERAL, f"decline #{first.pk}")
    bruno.send_to(GENERAL, "games")
    body = answer(bruno)
    assert "You have no games yet" not in body
    assert f"#{second.pk} Blind Bids: you are invited (1 of 2 seats taken); " \
           f"reply 'join #{second.pk}' to play or 'decline #{second.pk}'" in body
    assert f"#{first.pk} Blind Bids: you are invited" in body
    assert body.index(f"#{second.pk} ") < body.index(f"#{first.pk} ")  # newest first
    assert not Player.objects.filter(email=bruno.email).exists()  # asking makes no account
    carla.send_to(GENERAL, "games")  # she declined her only invitation
    assert "done: You have no games yet." in answer(carla)
    bruno.send_to(GENERAL, f"decline #{second.pk}")
    bruno.send_to(GENERAL, "games")
    body = answer(bruno)
    assert f"#{second.pk} " not in body and f"#{first.pk} Blind Bids" in body


def test_it_resigns_a_game(bids_game: Game, bruno: Persona) -> None:
    bruno.send_to(GENERAL, f"resign #{bids_game.pk}")
    assert f"You resigned from game #{bids_game.pk}" in answer(bruno)
    assert Seat.objects.get(game=bids_game, index=1).status == Seat.Status.RESIGNED


def test_it_reports_each_line_and_refuses_unknown_commands(ana: Persona) -> None:
    ana.send_to(GENERAL, "games\nfly to the moon\nresign\nnew nosuchgame with x@example.org")
    body = answer(ana)
    assert "> games\ndone: You have no games yet." in body
    assert "> fly to the moon\nnot done: 'fly' is not a command here" in body
    assert "> resign\nnot done: resign needs the game number" in body
    assert "no game called 'nosuchgame'" in body
    assert InboundMessage.objects.get().status == InboundMessage.Status.REJECTED


def test_it_asks_which_game_when_invited_twice(blindbids: str, ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    n = len(sent_messages())
    bruno.send_to(GENERAL, "join")
    assert len(sent_messages()) == n + 1
    assert "you are invited to several games" in answer(bruno)


def test_it_does_not_take_moves_at_the_general_address(bids_game: Game, ana: Persona) -> None:
    ana.send_to(GENERAL, "c3")
    assert "'c3' is not a command here" in answer(ana)


def test_it_starts_a_game_of_maretta_by_mail(ana: Persona, bruno: Persona, carla: Persona) -> None:
    ana.send_to(GENERAL, f"new maretta with {bruno.email} {carla.email} side=B")
    game = Game.objects.get()
    assert game.options["side"] == "B"
    for person in (bruno, carla):
        person.reply(person.latest(), "join")
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING


def test_it_seats_an_invited_address_only_when_it_answers_join(blindbids: str, ana: Persona, bruno: Persona,
                                                               mallory: Persona) -> None:
    """A mail from an invited address to its seat address gives the seat to no account until it
    says ``join``: a stranger invited by a mistyped address who asks "what is this?" gets no
    account and no seat, so the creator sees no name on it (issue 11)."""
    ana.send_to(GENERAL, f"new blindbids with {mallory.email}")
    game = Game.objects.get()
    invitation = mallory.latest()
    mallory.reply(invitation, "Who are you? I do not know any Ana.")
    assert "Reply with the word join" in answer(mallory)
    seat = game.seats.get(invited_email=mallory.email)
    assert seat.player is None and seat.status == Seat.Status.INVITED
    assert not Player.objects.filter(email=mallory.email).exists()
    # a decline makes the account the general address would make, and never seats it
    mallory.reply(invitation, "decline")
    assert f"You declined game #{game.pk}" in answer(mallory)
    assert not game.seats.filter(player__email=mallory.email).exists()
    assert game.seats.filter(player__isnull=True, invited_email="").count() == 1


def test_it_seats_an_invited_address_with_its_mail_name_when_it_joins_by_its_seat_address(
        blindbids: str, ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email}")
    game = Game.objects.get()
    bruno.reply(bruno.latest(), "join")
    seat = game.seats.get(player__email=bruno.email)
    assert seat.status == Seat.Status.JOINED and seat.invited_email == ""
    assert seat.player is not None and seat.player.display_name == "Bruno"


def test_it_creates_a_game_with_a_time_bank_by_mail(blindbids: str, ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new blindbids with {bruno.email} bank=100 increment=4")
    game = Game.objects.get()
    assert (game.time_bank_hours, game.time_bank_increment_hours) == (100, 4)
    ana.send_to(GENERAL, f"new blindbids with {bruno.email} increment=4")
    assert "an increment needs a time bank" in answer(ana) and Game.objects.count() == 1
