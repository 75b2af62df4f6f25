"""Campaigns and rematches by mail, over the real SMTP ingress (issue 23).

The campaign is played on the engine tests' toy campaign game (tests/campaign_toy.py) until
Maracaibo's campaign content exists; every move is a reply to the player's own game mail."""

from __future__ import annotations

import random
from email.message import EmailMessage

import pytest

import engine
from engine.testing import choose
from pbem.games import services
from pbem.games.models import Campaign, CampaignEntry, Game
from tests.campaign_toy import guess
from tests.factories import player_at, token_client
from tests.mail.conftest import DOMAIN, Persona, start_game, text_of

__all__ = ["guess"]

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = f"pbem@{DOMAIN}"


def game_mail(person: Persona, game: Game) -> EmailMessage:
    """The person's newest mail of ``game`` that a move answers (to their seat's address)."""
    mails = [m for m in person.inbox() if f"[pbem #{game.pk}]" in str(m["Subject"])
             and "seat-" in str(m.get("Reply-To", ""))]
    assert mails, f"{person.name} got no mail of game #{game.pk}"
    return mails[-1]


def play_by_mail(game_id: int, people: list[Persona], seed: int = 1) -> Game:
    """Each pending seat's player replies to their newest mail of the game with one option code."""
    by_email = {p.email: p for p in people}
    rnd = random.Random(seed)
    for _ in range(200):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.RUNNING:
            return game
        rules = engine.get(game.rules)
        assert game.state is not None
        seat = rules.pending(game.state)[0]
        person = by_email[player_at(game, seat).email]
        opt = choose(rules, game.state, seat, rules.options(game.state, seat), rnd)
        person.reply(game_mail(person, game), opt.code)
    raise AssertionError(f"game #{game_id} did not end by mail")


def answer_to(person: Persona, line: str) -> str:
    person.send_to(GENERAL, line)
    return text_of(person.latest())


def test_it_rematches_a_finished_game_by_a_reply_to_its_mail(ana: Persona, bruno: Persona) -> None:
    first = start_game("caravelas", [ana, bruno], options={"target": 10})
    play_by_mail(first.pk, [ana, bruno])
    first.refresh_from_db()
    assert first.status == Game.Status.FINISHED
    ana.reply(game_mail(ana, first), "rematch")
    answer = text_of(ana.latest())
    again = Game.objects.exclude(pk=first.pk).get()
    assert f"Game #{again.pk}" in answer and "invited" in answer
    assert (again.rules, again.options) == (first.rules, first.options)
    invitation = bruno.latest()
    assert f"[pbem #{again.pk}]" in str(invitation["Subject"])
    bruno.reply(invitation, "join")
    again.refresh_from_db()
    assert again.status == Game.Status.RUNNING
    ana.reply(game_mail(ana, first), "rematch")  # asked again: the answer names the rematch made
    assert f"rematch already: game #{again.pk}" in text_of(ana.latest())
    assert Game.objects.count() == 2


def test_it_rematches_a_finished_game_by_the_command_rematch_to_the_general_address(ana: Persona, bruno: Persona,
                                                                                 carla: Persona) -> None:
    """`rematch #N` to pbem@ (the docs' one command, beside the reply `rematch`): asked by a player of the game
    it invites the others; asked by someone who did not play it, or of a game still running, it is refused
    with the reason (played through the mail door, #23)."""
    first = start_game("caravelas", [ana, bruno], options={"target": 10})
    refused = answer_to(ana, f"rematch #{first.pk}")
    assert f"game #{first.pk} is running; a rematch follows a finished game" in refused, refused
    play_by_mail(first.pk, [ana, bruno])
    answer_to(carla, "name Carla")  # (an account: she played no game of it)
    refused = answer_to(carla, f"rematch #{first.pk}")
    assert "did not play" in refused and Game.objects.count() == 1, refused
    answer = answer_to(bruno, f"rematch #{first.pk}")
    again = Game.objects.exclude(pk=first.pk).get()
    assert f"Game #{again.pk}" in answer and "invited" in answer, answer
    assert (again.rules, again.options) == (first.rules, first.options)
    assert again.seats.get(player__email=bruno.email).status == "joined"  # the asker sits, the other is asked
    assert f"[pbem #{again.pk}]" in str(ana.latest()["Subject"])  # the other player is invited
    assert f"rematch already: game #{again.pk}" in answer_to(ana, f"rematch #{first.pk}")


def test_it_ends_a_campaign_by_mail_with_its_reason_kept(guess: str, ana: Persona, bruno: Persona) -> None:
    """`campaign #N end REASON` (played by mail, #23: untested; without a reason the door logged "ended by its
    moderator" for the creator who ended it): the reason is asked for, kept and told; only its runner ends it."""
    answer_to(ana, f"new campaign guess with {bruno.email} games=3")
    campaign = Campaign.objects.get()
    refused = answer_to(bruno, f"campaign #{campaign.pk} end I am bored")
    assert "only the creator" in refused
    refused = answer_to(ana, f"campaign #{campaign.pk} end")
    assert "say why the campaign ends" in refused
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    said = answer_to(ana, f"campaign #{campaign.pk} end the group stops here")
    assert f"Campaign #{campaign.pk} is over: no game follows." in said
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED
    entry = CampaignEntry.objects.get(campaign=campaign, action="ended")
    assert entry.details["reason"] == "the group stops here" and entry.actor is not None
    assert entry.actor.email == ana.email
    assert "The campaign ended: the group stops here." in answer_to(bruno, f"campaign #{campaign.pk}")
    assert "is over already" in answer_to(ana, f"campaign #{campaign.pk} end again")


def test_it_runs_a_campaign_by_mail_with_a_seat_changing_hands(guess: str, ana: Persona, bruno: Persona,
                                                              carla: Persona) -> None:
    answer = answer_to(ana, f'new campaign guess with {bruno.email} name="Long summer" games=3')
    campaign = Campaign.objects.get()
    assert f"Campaign #{campaign.pk} (Long summer) is created" in answer
    first = campaign.games.get()
    bruno.reply(bruno.latest(), "join")
    play_by_mail(first.pk, [ana, bruno])
    told = [m for m in bruno.inbox() if f"campaign #{campaign.pk}]" in str(m["Subject"])]
    assert len(told) == 1 and "Game 1 of campaign" in text_of(told[0]) and "Standings" in text_of(told[0])
    second = campaign.games.get(campaign_number=2)
    assert second.status == Game.Status.RUNNING
    refused = answer_to(bruno, f"campaign #{campaign.pk} seat 2 to {carla.email} because I sail away")
    assert "only the creator" in refused
    answer = answer_to(ana, f"campaign #{campaign.pk} seat 2 to {carla.email} because Bruno sails away")
    assert "from its next game on" in answer
    story = text_of(carla.latest())
    assert "the story so far" in story and "Game 1 (#" in story
    play_by_mail(second.pk, [ana, bruno], seed=2)  # the game under way stays Bruno's
    third = campaign.games.get(campaign_number=3)
    assert services.Seat.objects.get(game=third, index=1).player.email == carla.email
    play_by_mail(third.pk, [ana, carla], seed=3)
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED
    summary = answer_to(carla, f"campaign #{campaign.pk}")
    # (Carla had no account when her seat was given: she is named by her address until she writes)
    assert "Seat 2 passed from Bruno to carla (Bruno sails away)" in summary
    assert summary.count("Game ") >= 3 and "Standings" in summary
    entry = CampaignEntry.objects.get(campaign=campaign, action="handover")
    assert entry.actor is not None and entry.actor.email == ana.email


def test_it_lets_a_moderator_seat_a_group_by_mail_without_playing(ana: Persona, bruno: Persona, carla: Persona,
                                                                  mallory: Persona) -> None:
    moderator = services.do_create_player("mod@pbem.example", "Mod")
    moderator.user.is_staff = True
    moderator.user.save(update_fields=["is_staff"])
    mod = Persona(moderator.email, "Mod", ana.server)
    answer = answer_to(mod, f"new campaign caravelas for {ana.email} {bruno.email} games=2 target=10")
    campaign = Campaign.objects.get()
    game = campaign.games.get()
    assert "you run it and do not play" in answer and game.status == Game.Status.RUNNING
    assert [s.player.email for s in game.seats.order_by("index")] == [ana.email, bruno.email]
    assert f"[pbem #{game.pk}]" in str(ana.latest()["Subject"])  # the group's first game mails
    refused = answer_to(mallory, f"new campaign caravelas for {ana.email} {carla.email}")
    assert "only a moderator seats players directly" in refused


def test_it_answers_new_game_with_option_campaign_by_naming_new_campaign(ana: Persona, bruno: Persona) -> None:
    # a game with the option campaign but no campaign would play the story's first game and hand its archive
    # to no next game (#23): refused, the answer names the command that makes the campaign
    said = answer_to(ana, f"new maracaibo with {bruno.email} campaign=yes")
    assert "new campaign maracaibo with ADDRESS" in said and "POST /api/v1/campaigns/" in said, said
    assert not Game.objects.exists() and not Campaign.objects.exists()
    said = answer_to(ana, f"new campaign maracaibo with {bruno.email}")
    game = Game.objects.get()
    assert game.campaign is not None and game.options["campaign"] is True, said


def test_it_ends_a_series_of_maracaibo_games_without_the_story_after_three(ana: Persona, bruno: Persona) -> None:
    """QA: `new campaign maracaibo ... mode=79 campaign=no` (the story refuses mode 79) made a series
    with no number of games and no archive to end it: it would have gone on for ever. Without the
    story it is a series of three unless told, as for a game without campaigns; with it, the story
    ends it."""
    answer = answer_to(ana, f"new campaign maracaibo with {bruno.email} mode=79")
    assert "not done" in answer and "not 79" in answer  # the story campaign plays no mode 79
    answer = answer_to(ana, f"new campaign maracaibo with {bruno.email} mode=79 campaign=no")
    series = Campaign.objects.get()
    assert f"Campaign #{series.pk}" in answer and series.options["campaign"] is False
    assert series.games_planned == 3
    answer_to(ana, f"new campaign maracaibo with {bruno.email} mode=79 campaign=no games=5")
    answer_to(ana, f"new campaign maracaibo with {bruno.email}")
    assert [(c.options["campaign"], c.games_planned) for c in Campaign.objects.order_by("pk")] == [
        (False, 3), (False, 5), (True, None)]
    # its archive, asked by the API: there never is one, and the answer says so
    r = token_client(series.created_by).get(f"/api/v1/campaigns/{series.pk}/archive/")
    assert r.status_code == 409 and "a series of games without a story: it has no archive" in r.json()["message"]


def test_a_campaign_games_last_mail_comes_before_the_campaign_mail_and_the_next_games_first(
        guess: str, ana: Persona, bruno: Persona) -> None:
    """Seen playing Maracaibo's Uprising campaign by mail (here on the toy campaign game): the campaign
    mail ("Game 2 is set up now: its first mail follows") and game 2's first mail reached the players
    before game 1's "game over" mail, all three in the same second, so a mail client showed the new game
    before the old one's end."""
    answer_to(ana, f"new campaign guess with {bruno.email} games=3")
    campaign = Campaign.objects.get()
    first = campaign.games.get()
    bruno.reply(bruno.latest(), "join")
    play_by_mail(first.pk, [ana, bruno])
    second = campaign.games.get(campaign_number=2)
    for person in (ana, bruno):
        subjects = [" ".join(str(m["Subject"]).split()) for m in person.inbox()]
        over = max(i for i, s in enumerate(subjects) if f"[pbem #{first.pk}]" in s)
        told = next(i for i, s in enumerate(subjects) if f"campaign #{campaign.pk}]" in s)
        begun = min(i for i, s in enumerate(subjects) if f"[pbem #{second.pk}]" in s)
        assert "game over" in subjects[over]
        assert over < told < begun, subjects[over - 1:]
