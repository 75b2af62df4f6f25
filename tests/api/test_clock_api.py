"""Time banks through the API and the moderator's page (issue 24), in a real game (Maretta, three
players, everyone plays at once): a game says it keeps time banks, the moderator's list of late
seats gives each seat's own clock (stopped by a vacation), and a moderator's extension goes into
the banks of the seats the game waits on."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import time_machine

from pbem.games import moderation
from pbem.games.models import Game
from tests.factories import seat_of, start_game, token_client

GAMES = "/api/v1/games/"
T0 = datetime(2027, 3, 1, 12, 0, tzinfo=UTC)


def _game(alice, bob, carol) -> Game:
    with time_machine.travel(T0, tick=False):
        return start_game("maretta", alice, [bob, carol], options={"side": "A"}, time_bank_hours=100,
                          time_bank_increment_hours=10)


def test_it_shows_the_time_banks_in_the_game_and_each_late_seats_own_clock(client, alice, bob, carol, moderator):
    game = _game(alice, bob, carol)
    with time_machine.travel(T0 + timedelta(hours=10), tick=False):
        moderation.do_set_vacation(bob, T0 + timedelta(days=5), via="api")
    with time_machine.travel(T0 + timedelta(hours=20), tick=False):
        shown = token_client(carol).get(f"{GAMES}{game.pk}/").json()
        late = token_client(moderator).get(f"{GAMES}{game.pk}/late/").json()["results"]
        client.force_login(moderator.user)
        page = client.get(f"/admin/games/game/{game.pk}/moderate/")
    assert (shown["time_bank_hours"], shown["time_bank_increment_hours"]) == (100, 10)
    assert shown["deadline_at"] == "2027-03-05T16:00:00Z"  # the first clock to run out: 100 hours from the start
    rows = {r["name"]: r for r in late}
    assert rows["Bob"]["bank_left_seconds"] == 90 * 3600 and rows["Bob"]["clock"].endswith("stopped: on vacation")
    assert rows["Bob"]["deadline_at"] == "2027-03-10T06:00:00Z"  # his own: back 6 March 12:00, then his 90 hours
    assert rows["Alice"]["bank_left_seconds"] == 80 * 3600 and rows["Alice"]["clock"].endswith("running")
    assert page.status_code == 200 and "time bank: 3 days 18 hours left, stopped: on vacation" in page.content.decode()


def test_it_puts_a_moderators_extension_into_the_waiting_banks(alice, bob, carol, moderator):
    game = _game(alice, bob, carol)
    with time_machine.travel(T0 + timedelta(hours=50), tick=False):
        r = token_client(moderator).post(f"{GAMES}{game.pk}/extend-deadline/",
                                         {"hours": 24, "reason": "a storm"}, format="json")
        assert r.status_code == 200, r.json()
        late = token_client(moderator).get(f"{GAMES}{game.pk}/late/").json()["results"]
    assert {row["bank_left_seconds"] for row in late} == {74 * 3600}  # 50 hours spent, 24 given
    game.refresh_from_db()
    assert game.deadline_at == T0 + timedelta(hours=124)
    assert seat_of(game, alice) in {row["seat"] for row in late}


def test_it_answers_a_moderators_extension_by_mail_with_the_banks(alice, bob, carol, moderator):
    from pbem.games import moderators

    game = _game(alice, bob, carol)
    nora = moderators.do_assign_moderator(game.pk, moderator, "nora@example.org", lead=True, reason="league")
    with time_machine.travel(T0 + timedelta(hours=50), tick=False):
        done = moderators.run_line(nora, "extend 1d a storm")  # 50 hours left at 3 March 14:00, and 24 more
    assert done.ok and done.text == ("24 hours more on the time bank of each player the game waits on; the first "
                                     "clock to run out now runs out Sat 06 Mar 2027 16:00 UTC")

