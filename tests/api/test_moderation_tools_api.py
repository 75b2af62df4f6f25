"""The moderator's tools and the players' absence through the API (staff only where it says)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.utils import timezone

from pbem.games import services
from pbem.games.models import AuditEntry, Game, Move, OutboundMessage, Source
from tests.factories import mail_text, seat_of, start_game, token_client

GAMES = "/api/v1/games/"


@pytest.fixture
def game(fake_game, alice, bob) -> Game:
    g = start_game(fake_game, alice, [bob])
    card = g.state["hands"][seat_of(g, alice)][0]
    services.do_submit_moves(g.pk, alice, [services.Command(code=f"c{card}")], source="api")
    g.refresh_from_db()
    return g


STAFF_POSTS = [
    ("extend-deadline", {"hours": 12, "reason": "storm"}),
    ("message", {"text": "hello all"}),
    ("policy", {"no_move_policy": "wait", "reason": "slow league"}),
    ("rollback", {"to_move": 0, "reason": "misdeal"}),
    ("abort", {"reason": "gone"}),
]


@pytest.mark.parametrize(("path", "body"), STAFF_POSTS)
def test_it_keeps_the_moderator_tools_to_staff(game, alice, path, body):
    assert token_client(alice).post(f"{GAMES}{game.pk}/{path}/", body, format="json").status_code == 403
    assert token_client().post(f"{GAMES}{game.pk}/{path}/", body, format="json").status_code == 401


@pytest.mark.parametrize(("path", "body"), STAFF_POSTS)
def test_it_runs_each_tool_for_a_moderator_and_audits_it(game, moderator, bob, path, body):
    mails = OutboundMessage.objects.filter(to_email=bob.email).count()
    r = token_client(moderator).post(f"{GAMES}{game.pk}/{path}/", body, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["id"] == game.pk
    entry = AuditEntry.objects.filter(game=game, actor=moderator).first()
    assert entry is not None
    assert OutboundMessage.objects.filter(to_email=bob.email).count() > mails  # players are told


def test_it_moves_for_a_seat_and_answers_the_refusal_clearly(game, moderator, bob):
    client = token_client(moderator)
    seat = seat_of(game, bob)
    bad = client.post(f"{GAMES}{game.pk}/move-for-seat/",
                      {"seat": seat, "commands": [{"code": "nonsense"}], "reason": "phone"}, format="json")
    assert bad.status_code == 422 and "nonsense" in str(bad.json())
    card = game.state["hands"][seat][0]
    ok = client.post(f"{GAMES}{game.pk}/move-for-seat/",
                     {"seat": seat, "commands": [{"code": f"c{card}"}], "reason": "phone"}, format="json")
    assert ok.status_code == 200, ok.json()
    assert Move.objects.get(game=game, seat=seat).source == Source.MODERATOR


def test_a_move_for_a_seat_the_game_has_not_is_a_404_naming_the_seat(game, moderator):
    """Found by QA (#20): seat 5 of a two-seat game was a 422 'nonsense is not a legal choice now'
    with no options, as though the seat existed and had nothing to decide."""
    r = token_client(moderator).post(f"{GAMES}{game.pk}/move-for-seat/",
                                     {"seat": 5, "commands": [{"code": "nonsense"}], "reason": "phone"},
                                     format="json")
    assert r.status_code == 404, r.json()
    assert r.json()["message"] == f"game #{game.pk} has no seat 5"
    assert not AuditEntry.objects.filter(game=game, action="move-for-seat").exists()


def test_it_lists_the_late_seats_for_staff(game, moderator, alice, bob):
    r = token_client(moderator).get(f"{GAMES}{game.pk}/late/")
    assert r.status_code == 200
    rows = r.json()["results"]
    assert [x["name"] for x in rows] == ["Bob"] and rows[0]["email"] == bob.email
    assert token_client(alice).get(f"{GAMES}{game.pk}/late/").status_code == 403


def test_it_grants_a_player_an_extension_and_refuses_when_used_up(game, bob, alice):
    client = token_client(bob)
    first = client.post(f"{GAMES}{game.pk}/extend/")
    assert first.status_code == 200 and first.json()["extensions_left"] == 1
    client.post(f"{GAMES}{game.pk}/extend/")
    third = client.post(f"{GAMES}{game.pk}/extend/")
    assert third.status_code == 403 and "used all 2 extensions" in third.json()["message"]
    assert token_client(alice).post(f"{GAMES}{game.pk}/extend/").status_code == 409  # not her turn


def test_it_sets_and_ends_a_vacation(game, bob, alice):
    client = token_client(bob)
    until = (timezone.now() + timedelta(days=4)).isoformat()
    r = client.post("/api/v1/me/vacation/", {"until": until}, format="json")
    assert r.status_code == 200 and r.json()["games"] == [game.pk]
    assert OutboundMessage.objects.filter(to_email=alice.email, body_text__contains="Bob is on vacation").exists()
    past = client.post("/api/v1/me/vacation/", {"until": "2001-01-01T00:00:00Z"}, format="json")
    assert past.status_code == 422 and "future" in past.json()["message"]
    assert client.post("/api/v1/me/vacation/", {"until": None}, format="json").status_code == 200


def test_it_answers_400_for_a_bad_policy_and_409_for_an_abort_twice(game, moderator):
    client = token_client(moderator)
    r = client.post(f"{GAMES}{game.pk}/policy/", {"no_move_policy": "coinflip", "reason": "x"}, format="json")
    assert r.status_code == 400
    client.post(f"{GAMES}{game.pk}/abort/", {"reason": "gone"}, format="json")
    again = client.post(f"{GAMES}{game.pk}/abort/", {"reason": "gone"}, format="json")
    assert again.status_code == 409


def test_it_lets_anyone_take_a_seat_opened_for_replacement_through_the_api(game, moderator, alice, bob, dave):
    from datetime import timedelta as _td

    import time_machine

    from pbem.games import moderation
    from pbem.games.models import Seat

    token_client(moderator).post(f"{GAMES}{game.pk}/policy/", {"no_move_policy": "replace", "reason": "league"},
                                 format="json")
    game.refresh_from_db()
    for _ in range(2):  # the first sweep warns and gives a second deadline, the next applies the policy
        game.refresh_from_db()
        with time_machine.travel(game.deadline_at + _td(minutes=1), tick=False):
            moderation.do_sweep_deadlines()
    seat = game.seats.get(player=bob)
    assert seat.status == Seat.Status.OPEN
    listed = token_client(dave).get(f"{GAMES}?joinable=1").json()
    assert game.pk in [g["id"] for g in listed["results"]]
    assert game.pk not in [g["id"] for g in token_client(alice).get(f"{GAMES}?joinable=1").json()["results"]]
    r = token_client(dave).post(f"{GAMES}{game.pk}/join/")
    assert r.status_code == 200, r.json()
    seat.refresh_from_db()
    assert seat.player == dave and seat.status == Seat.Status.JOINED
    mine = token_client(dave).get("/api/v1/me/games/?my_turn=1").json()
    assert game.pk in [g["id"] for g in mine["results"]]
    assert token_client(dave).post(f"{GAMES}{game.pk}/join/").status_code == 409  # no second seat


def test_it_creates_a_game_with_a_time_bank_and_refuses_an_increment_without_one(fake_game, alice, bob):
    t0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)
    refused = token_client(alice).post(GAMES, {"rules": fake_game, "open_seats": 1, "time_bank_increment_hours": 5},
                                       format="json")
    assert refused.status_code == 422 and "needs a time bank" in str(refused.json())
    with time_machine.travel(t0, tick=False):
        r = token_client(alice).post(GAMES, {"rules": fake_game, "open_seats": 1, "time_bank_hours": 120,
                                             "time_bank_increment_hours": 6}, format="json")
        assert r.status_code == 201, r.json()
        services.do_join_game(r.json()["id"], bob)
    game = Game.objects.get(pk=r.json()["id"])
    assert (game.time_bank_hours, game.time_bank_increment_hours) == (120, 6)
    assert game.status == Game.Status.RUNNING and game.deadline_at == t0 + timedelta(hours=120)
    turn = OutboundMessage.objects.filter(to_email=bob.email).order_by("-pk").first()
    assert turn is not None and "your time bank: 5 days left for the whole game" in mail_text(turn)
