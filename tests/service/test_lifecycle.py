"""Creating, joining, declining, leaving and starting games (pbem.games.services)."""

from __future__ import annotations

import hashlib

import pytest
from django.contrib.auth import get_user_model

from pbem.games import selectors, services
from pbem.games.models import AuditEntry, Game, OutboundMessage, Player, Seat
from tests.factories import make_player, start_game


def test_it_creates_a_game_with_the_creator_seated_and_invitations_queued(fake_game, alice, bob):
    game = services.do_create_game(alice, fake_game, invite=[bob.email], open_seats=1, title="Friday")
    assert game.status == Game.Status.OPEN
    assert game.title == "Friday"
    assert game.options == {"rounds": 3, "deck": "short"}  # defaults filled in
    seats = {s.player_id: s.status for s in game.seats.all()}
    assert seats == {alice.pk: Seat.Status.JOINED, bob.pk: Seat.Status.INVITED, None: Seat.Status.INVITED}
    assert OutboundMessage.objects.filter(game=game, to_email=bob.email).count() == 1
    assert AuditEntry.objects.filter(game=game, action="create").exists()


def test_it_invites_unknown_addresses_without_making_them_accounts(fake_game, alice):
    users = get_user_model().objects.count()
    game = services.do_create_game(alice, fake_game, invite=["New.Person@Example.org"])
    seat = game.seats.exclude(player=alice).get()
    assert (seat.player, seat.invited_email, seat.status) == (None, "new.person@example.org", Seat.Status.INVITED)
    assert not Player.objects.filter(email="new.person@example.org").exists()
    assert get_user_model().objects.count() == users
    assert OutboundMessage.objects.filter(game=game, to_email="new.person@example.org").count() == 1
    assert game.pk not in [g.pk for g in selectors.open_games()]  # an invited seat is not free
    assert game.pk not in [g.pk for g in selectors.open_games(viewer=make_player("x@example.org"))]


def test_it_seats_an_invited_address_that_has_an_account_as_that_player(fake_game, alice, bob):
    game = services.do_create_game(alice, fake_game, invite=[bob.email.upper()])
    assert game.seats.get(player=bob).status == Seat.Status.INVITED


def test_it_makes_the_invited_address_a_player_when_it_joins_by_api(fake_game, alice):
    game = services.do_create_game(alice, fake_game, invite=["late@example.org"])
    late = make_player("late@example.org")  # the address got an account afterwards
    assert game.pk in [g.pk for g in selectors.open_games(viewer=late)]
    services.do_join_game(game.pk, late)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.seats.get(player=late).invited_email == ""


def test_it_opens_the_seat_of_an_address_that_declines(fake_game, alice):
    game = services.do_create_game(alice, fake_game, invite=["no@example.org"])
    services.do_decline_game(game.pk, make_player("no@example.org"))
    seat = game.seats.exclude(player=alice).get()
    assert (seat.player, seat.invited_email) == (None, "")
    assert game.pk in [g.pk for g in selectors.open_games()]


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"rules_name": "chess"}, "no game called 'chess'"),
    ({"options": {"rounds": 9}}, "rounds must be at most 5"),
    ({"options": {"colour": "red"}}, "unknown option colour"),
    ({"invite": ["alice@example.org"]}, "do not invite yourself"),
    ({"invite": ["x@example.org", "X@example.org "]}, "invited twice"),
    ({"invite": [f"p{i}@example.org" for i in range(4)]}, "2 to 4 players, not 5"),
    ({"open_seats": -1}, "cannot be negative"),
    ({"deadline_hours": 0}, "deadline"),
])
def test_it_refuses_bad_games_with_the_engines_message(fake_game, alice, kwargs, message):
    args = {"rules_name": fake_game, "invite": ["b@example.org"]} | kwargs
    with pytest.raises(services.ServiceError, match=message) as err:
        services.do_create_game(alice, args.pop("rules_name"), **args)
    assert err.value.status == 400
    assert not Game.objects.exists()


def test_the_game_starts_when_the_last_seat_fills_and_commits_to_its_seed(fake_game, alice, bob, dave):
    game = services.do_create_game(alice, fake_game, invite=[bob.email], open_seats=1)
    services.do_join_game(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.state is None
    services.do_join_game(game.pk, dave)  # the open seat
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert game.version == 1 and game.started_at is not None and game.deadline_at is not None
    assert sorted(game.seats.values_list("index", flat=True)) == [0, 1, 2]
    assert game.seed and game.seed_hash == hashlib.sha256(game.seed.encode()).hexdigest()
    assert game.state is not None and game.state["players"] == ["Alice", "Bob", "Dave"]
    assert AuditEntry.objects.filter(game=game, action="start", details__seed_hash=game.seed_hash).exists()


def test_a_declined_invitation_opens_the_seat_for_anyone(fake_game, alice, bob, dave):
    game = services.do_create_game(alice, fake_game, invite=[bob.email])
    services.do_decline_game(game.pk, bob)
    with pytest.raises(services.Conflict):
        services.do_decline_game(game.pk, bob)
    services.do_join_game(game.pk, dave)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    assert not game.seats.filter(player=bob).exists()


def test_leaving_before_the_start_frees_the_seat_and_the_creator_leaving_aborts(fake_game, alice, bob, carol):
    game = services.do_create_game(alice, fake_game, invite=[bob.email], open_seats=1)
    services.do_join_game(game.pk, bob)
    services.do_leave_game(game.pk, bob)
    assert game.seats.filter(player__isnull=True).count() == 2
    with pytest.raises(services.Conflict, match="not seated"):
        services.do_leave_game(game.pk, carol)
    services.do_leave_game(game.pk, alice)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    with pytest.raises(services.Conflict, match="takes no new players"):
        services.do_join_game(game.pk, carol)


def test_a_started_game_cannot_be_left_or_joined(fake_game, alice, bob, carol):
    game = start_game(fake_game, alice, [bob])
    with pytest.raises(services.Conflict, match="resign instead"):
        services.do_leave_game(game.pk, bob)
    with pytest.raises(services.Conflict, match="takes no new players"):
        services.do_join_game(game.pk, carol)


def test_joining_twice_or_a_full_game_is_refused(fake_game, alice, bob, carol):
    game = services.do_create_game(alice, fake_game, invite=[bob.email, carol.email])
    services.do_join_game(game.pk, bob)
    with pytest.raises(services.Conflict, match="already"):
        services.do_join_game(game.pk, bob)
    outsider = make_player("eve@example.org")
    with pytest.raises(services.Conflict, match="no free seat"):
        services.do_join_game(game.pk, outsider)


def test_unknown_games_are_not_found(db, alice):
    with pytest.raises(services.NotFound) as err:
        services.do_join_game(424242, alice)
    assert err.value.status == 404
