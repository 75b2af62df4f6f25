"""A moderator per game (issue 24), over a real SMTP socket: staff assign a moderator through the
API; the moderator runs the tools by mail from their own address to their secret command address;
players write to their moderator with ``moderator ...``; the assigned moderator, not every staff
account, hears that the game needs one; the moderator may use the API for their own game only."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.conf import settings

from pbem.games import moderation, moderators, selectors
from pbem.games.models import AuditEntry, Game, GameModerator, InboundMessage, OutboundMessage, Player
from tests.factories import make_player, token_client
from tests.mail.conftest import Persona, seat_of, sent_messages, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GAMES = "/api/v1/games/"


@pytest.fixture
def nora(smtp_server) -> Persona:  # type: ignore[no-untyped-def]
    return Persona("nora@example.org", "Nora", smtp_server)


@pytest.fixture
def staff():  # type: ignore[no-untyped-def]
    player = make_player("staff@example.org", "Staff")
    player.user.is_staff = True
    player.user.save(update_fields=["is_staff"])
    return player


def _assign(game: Game, staff, email: str, lead: bool = True) -> GameModerator:  # type: ignore[no-untyped-def]
    r = token_client(staff).post(f"{GAMES}{game.pk}/moderators/", {"email": email, "lead": lead,
                                                                   "reason": "league rota"}, format="json")
    assert r.status_code == 200, r.content
    return GameModerator.objects.get(game=game, player__email=email)


def _last_inbound() -> InboundMessage:
    row = InboundMessage.objects.order_by("-id").first()
    assert row is not None
    return row


def test_it_runs_the_moderators_commands_by_mail_from_their_own_address(
        bids_game: Game, ana: Persona, bruno: Persona, nora: Persona, staff) -> None:  # type: ignore[no-untyped-def]
    gm = _assign(bids_game, staff, nora.email)
    address = moderators.command_address(gm)
    welcome = text_of(nora.latest())
    assert "lead moderator of game" in welcome and address in welcome and "extend 2d REASON" in welcome
    assert "is now the lead moderator" in text_of(ana.latest())
    before = Game.objects.get(pk=bids_game.pk).deadline_at
    nora.send_to(address, "extend 2d storm in the harbour\nmessage Please keep the chat friendly.\npause a dispute")
    assert _last_inbound().status == InboundMessage.Status.APPLIED
    game = Game.objects.get(pk=bids_game.pk)
    assert game.status == Game.Status.PAUSED
    answer = text_of(nora.latest())
    assert answer.count("done:") == 3 and "not done" not in answer
    texts = [text_of(m) for m in ana.inbox()]
    assert any("storm in the harbour" in t and "48 hours" in t for t in texts)
    assert any("Please keep the chat friendly." in t for t in texts)
    assert "a dispute" in texts[-1]
    entry = AuditEntry.objects.get(game=game, action="extend")
    assert entry.actor is not None and entry.actor.email == nora.email and entry.details["hours"] == 48
    assert before is not None
    # the same address from anyone else changes nothing (a seat's rule: the address and the sender)
    bruno.send_to(address, "resume I am the moderator now")
    assert _last_inbound().status == InboundMessage.Status.REJECTED
    assert Game.objects.get(pk=bids_game.pk).status == Game.Status.PAUSED
    assert "only from the moderator's own address" in text_of(bruno.latest())
    # a refused command says why, the others still run
    nora.send_to(address, "replace 7 with x@example.org nobody\nresume settled")
    answer = text_of(nora.latest())
    assert "not done: game #" in answer and "has seats 1 to 3, not 7" in answer and "done: resumed" in answer


def test_it_passes_a_players_moderator_mail_to_the_games_moderators(
        bids_game: Game, ana: Persona, nora: Persona, staff) -> None:  # type: ignore[no-untyped-def]
    _assign(bids_game, staff, nora.email)
    ana.reply(ana.latest(), "moderator Bruno has not answered for a week; can you look?")
    assert _last_inbound().status == InboundMessage.Status.APPLIED
    forwarded = nora.latest()
    assert "Bruno has not answered for a week" in text_of(forwarded) and "Ana" in text_of(forwarded)
    assert ana.email in str(forwarded["Reply-To"])  # the moderator answers Ana directly
    assert "went to the moderators" in text_of(ana.latest())
    assert AuditEntry.objects.filter(game=bids_game, action="to-moderator").exists()
    assert not OutboundMessage.objects.filter(to_email=staff.email, game=bids_game).exists()  # not every staff


def test_it_tells_the_assigned_moderator_not_every_staff_account_that_the_game_waits(
        bids_game: Game, ana: Persona, nora: Persona, staff) -> None:  # type: ignore[no-untyped-def]
    _assign(bids_game, staff, nora.email)
    moderation.do_set_game_policy(bids_game.pk, None, {"no_move_policy": "wait"}, "slow league")
    for _ in range(2):
        game = Game.objects.get(pk=bids_game.pk)
        assert game.deadline_at is not None
        with time_machine.travel(game.deadline_at + timedelta(minutes=1), tick=False):
            moderation.do_sweep_deadlines()
    assert "waits for" in text_of(nora.latest())
    assert not OutboundMessage.objects.filter(to_email=staff.email, body_text__contains="waits for").exists()


def test_it_lets_an_assigned_moderator_use_the_api_for_their_own_game_only(
        bids_game: Game, blindbids: str, ana: Persona, nora: Persona, staff) -> None:  # type: ignore[no-untyped-def]
    _assign(bids_game, staff, nora.email, lead=False)
    client = token_client(moderators.GameModerator.objects.get(player__email=nora.email).player)
    assert client.post(f"{GAMES}{bids_game.pk}/pause/", {"reason": "a dispute"}, format="json").status_code == 200
    other = Game.objects.create(rules=blindbids, title="other", created_by=ana.player)
    assert client.post(f"{GAMES}{other.pk}/pause/", {"reason": "x"}, format="json").status_code == 403
    # only staff assign moderators
    assert client.post(f"{GAMES}{bids_game.pk}/moderators/", {"email": "z@example.org", "reason": "me"},
                       format="json").status_code == 403
    assert settings.PBEM_MAIL_DOMAIN in moderators.command_address(GameModerator.objects.get(player__email=nora.email))


def test_it_offers_an_open_seat_to_the_standby_list_in_order_with_the_game_so_far(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, mallory: Persona,
        nora: Persona) -> None:
    from pbem.games.models import Seat, Standby
    from tests.mail.conftest import seat_of

    mallory.send_to(settings.PBEM_FROM_EMAIL, "standby")  # any game, first in line
    assert "on the standby list for any game" in text_of(mallory.latest())
    nora.send_to(settings.PBEM_FROM_EMAIL, f"standby #{bids_game.pk}")  # this game: offered before any game's
    assert f"on the standby list for game #{bids_game.pk}" in text_of(nora.latest())
    moderation.do_set_game_policy(bids_game.pk, None, {"no_move_policy": "replace"}, "open league")
    for person in (ana, carla):
        game = Game.objects.get(pk=bids_game.pk)
        person.reply(person.latest(), f"c{game.state['hands'][seat_of(game, person).index][0]}")
    for _ in range(2):
        game = Game.objects.get(pk=bids_game.pk)
        with time_machine.travel(game.deadline_at + timedelta(minutes=1), tick=False):
            moderation.do_sweep_deadlines()
    offer = text_of(nora.latest())
    assert "A seat is open in game" in offer and f"join {bids_game.pk}" in offer and "The game so far" in offer
    assert "A seat is open" not in text_of(mallory.latest())  # one seat, one offer: the game's own volunteer
    nora.send_to(settings.PBEM_FROM_EMAIL, f"join {bids_game.pk}")
    seat = Seat.objects.get(game=bids_game, player__email=nora.email)
    assert seat.status == Seat.Status.JOINED
    assert not Standby.objects.filter(player__email=nora.email).exists()
    assert Standby.objects.filter(player__email=mallory.email).exists()
    mallory.send_to(settings.PBEM_FROM_EMAIL, "standby off")
    assert "off the standby list" in text_of(mallory.latest())
    assert AuditEntry.objects.filter(game=bids_game, action="standby-offer").count() == 1


def test_it_takes_a_players_message_to_the_moderators_from_their_page(
        bids_game: Game, ana: Persona, nora: Persona, staff) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client

    from tests.mail.test_personal_page import LINK

    link = next(m.group(1) for m in (LINK.search(text_of(x)) for x in ana.inbox()) if m)
    _assign(bids_game, staff, nora.email)
    page = Client().get(link).content.decode()
    assert "Write to the moderators" in page
    r = Client().post(f"{link.rstrip('/')}/moderator/", {"text": "Carla keeps bidding out of turn"})
    assert r.status_code == 302 and "moderator=sent" in r["Location"]
    forwarded = nora.latest()
    assert "Carla keeps bidding out of turn" in text_of(forwarded) and ana.email in str(forwarded["Reply-To"])
    assert Client().post(f"{link.rstrip('/')}/moderator/", {"text": " "}).status_code == 400


def test_it_moves_enters_an_absence_and_inspects_a_seat_by_moderator_mail(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, nora: Persona,
        staff) -> None:  # type: ignore[no-untyped-def]
    address = moderators.command_address(_assign(bids_game, staff, nora.email))
    assert "inspect 2 REASON" in text_of(nora.latest())
    assert bids_game.state is not None
    card = bids_game.state["hands"][1][0]
    # seats as the game page counts them, from 1: Bruno's is 2 (index 1), Carla's 3
    nora.send_to(address, "inspect 2 Bruno says he holds it\n"
                          "absence 3 until 2027-01-10 Carla phoned from the harbour\n"
                          f"move 2 Bid {card} -- Bruno phoned it in\n"
                          "move 2 Bid 999 -- twice\n"
                          "absence 3 next blue moon")
    answer = text_of(nora.latest())
    assert answer.count("done:") == 5 and answer.count("not done") == 2, answer
    assert "what Bruno sees" in answer and "moved for seat 2" in answer
    assert "seat 3's player is away until" in answer and "in this game; they were told" in answer
    assert "could not read" in answer
    assert any("looked at Bruno's hidden information" in text_of(m) and "Bruno says he holds it" in text_of(m)
               for m in ana.inbox())
    assert any("entered your absence (until" in text_of(m) and "Carla phoned from the harbour" in text_of(m)
               and f"in game #{bids_game.pk} only" in text_of(m) for m in carla.inbox())
    assert any("A moderator moved for you" in text_of(m) and "Bruno phoned it in" in text_of(m)
               for m in bruno.inbox())
    game = Game.objects.get(pk=bids_game.pk)
    assert game.moves.filter(seat=1, source="moderator").count() == 1
    actions = set(AuditEntry.objects.filter(game=game, actor__email=nora.email).values_list("action", flat=True))
    assert {"inspect", "absence", "move-for-seat"} <= actions


def test_a_games_moderator_enters_an_absence_for_that_game_only(
        blindbids: str, bids_game: Game, ana: Persona, bruno: Persona, carla: Persona, nora: Persona,
        staff) -> None:  # type: ignore[no-untyped-def]
    """Found by QA (#23): an absence entered by one game's assigned moderator became the player's
    vacation in all their running games, whose players were mailed. A game's moderator acts on
    that game only; an admin (staff) still enters a vacation across games."""
    other = start_game(blindbids, [carla, ana, bruno])
    address = moderators.command_address(_assign(bids_game, staff, nora.email))
    mailed = len(sent_messages())
    nora.send_to(address, "absence 3 until 2027-01-10 Carla phoned from the harbour")  # seat 3: index 2
    assert "seat 3's player is away until" in text_of(nora.latest())
    new = sent_messages()[mailed:]
    vacation_notices = [m for m in new if "is on vacation until" in text_of(m)]
    assert vacation_notices and all(f"#{bids_game.pk}" in str(m["Subject"]) for m in vacation_notices)
    assert not any(f"#{other.pk}" in str(m["Subject"]) for m in new)
    carla_player = Player.objects.get(email=carla.email)
    assert carla_player.vacation_until is None
    assert seat_of(Game.objects.get(pk=bids_game.pk), carla).absent_until is not None
    assert seat_of(Game.objects.get(pk=other.pk), carla).absent_until is None
    late = {s.seat: s for s in selectors.late_seats(Game.objects.get(pk=bids_game.pk))}
    assert late[2].on_vacation_until is not None and late[0].on_vacation_until is None
    assert all(s.on_vacation_until is None for s in selectors.late_seats(Game.objects.get(pk=other.pk)))

    nora.send_to(address, "absence 3 off she is back")
    assert "seat 3's player is back: their absence is over" in text_of(nora.latest())
    assert seat_of(Game.objects.get(pk=bids_game.pk), carla).absent_until is None

    r = token_client(staff).post(f"{GAMES}{bids_game.pk}/absence/",
                                 {"seat": 2, "until": "2027-01-10T12:00:00Z", "reason": "phoned the office"},
                                 format="json")
    assert r.status_code == 200, r.content
    carla_player.refresh_from_db()
    assert carla_player.vacation_until is not None  # an admin's: her vacation, in both games
    assert any(f"#{other.pk}" in str(m["Subject"]) and "is on vacation until" in text_of(m) for m in ana.inbox())
