"""Maracaibo's story campaign played by mail over the real SMTP ingress (issue 23, "what must
show"): created and joined by mail, at least three games each played by the players' replies
(a whole turn a mail, the bot choosing for them), a vote taken by mail, legacy tiles carried into
the next game, a seat changing hands between games, and the archive exported and imported into
a new campaign whose next game is the same game."""

from __future__ import annotations

import copy
import random

import pytest

import engine
from engine import IllegalMove
from engine.core import Event
from pbem.games import services
from pbem.games.models import Campaign, CampaignEntry, Game, Move, Seat
from tests.factories import player_at, token_client
from tests.mail.conftest import DOMAIN, Persona, text_of
from tests.mail.test_campaign_by_mail import game_mail

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GENERAL = f"pbem@{DOMAIN}"
RULES = engine.get("maracaibo")


def turn_lines(game: Game, seat: int, rnd: random.Random) -> list[str]:
    """The option codes of the seat's whole turn, as the bot would play it: chosen on a copy of the
    state (its random numbers are in it, so the server's application goes the same way)."""
    assert game.state is not None
    state = copy.deepcopy(game.state)
    codes: list[str] = []
    while len(codes) < 25 and RULES.pending(state) and RULES.pending(state)[0] == seat:
        opt = RULES.bot_choice(state, seat, RULES.options(state, seat), rnd)
        codes.append(opt.code)
        try:
            RULES.apply(state, seat, opt.move)
        except IllegalMove:  # pragma: no cover - the bot chose from the options
            break
    return codes


def play_by_mail(game_id: int, people: list[Persona], seed: int) -> Game:
    by_email = {p.email: p for p in people}
    rnd = random.Random(seed)
    for _ in range(400):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.RUNNING:
            return game
        assert game.state is not None
        seat = RULES.pending(game.state)[0]
        person = by_email[player_at(game, seat).email]
        person.reply(game_mail(person, game), "\n".join(turn_lines(game, seat, rnd)))
    raise AssertionError(f"game #{game_id} did not end by mail")


def votes_by_mail(game: Game) -> int:
    return sum(1 for m in Move.objects.filter(game=game, source="mail") for e in m.events
               if e["kind"] == "vote_result")


def test_it_plays_a_maracaibo_campaign_by_mail(ana: Persona, bruno: Persona, carla: Persona,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # Why dealt seeds: some deals end the story before a vote and a carried legacy tile are seen
    # (seeds 9f065f74..., 3431879e... did: CI was red); these deals reach all of them.
    seeds = iter(f"gulf-campaign-{i}" for i in range(100))
    monkeypatch.setattr(services, "new_seed", lambda: next(seeds))
    ana.send_to(GENERAL, f'new campaign maracaibo with {bruno.email} name="Gulf" rounds=2')
    campaign = Campaign.objects.get()
    assert campaign.options["campaign"] is True and campaign.options["rounds"] == 2
    bruno.reply(bruno.latest(), "join")
    people = [ana, bruno, carla]
    votes = 0
    carried = False
    number = 0
    while number < 3 or not votes or not carried:
        game = campaign.games.get(campaign_number=number + 1)
        number = game.campaign_number or 0
        assert number <= 5, "five games without a vote and legacy tiles carried"
        if game.archive:
            assert game.state is not None
            assert set(game.archive["legacy"]) <= set(game.state["legacy"])  # on the board again
            carried = carried or bool(game.archive["legacy"])
        game = play_by_mail(game.pk, people, seed=number)
        votes += votes_by_mail(game)
        if number == 1:  # between the first and the second game's end: Bruno's seat passes to Carla
            ana.send_to(GENERAL, f"campaign #{campaign.pk} seat 2 to {carla.email} because Bruno sails home")
            assert "from its next game on" in text_of(ana.latest())
            assert "the story so far" in text_of(carla.latest())
        campaign.refresh_from_db()
        assert campaign.status == Campaign.Status.RUNNING, "the story ended before the test saw all"
    assert CampaignEntry.objects.filter(campaign=campaign, action="handover").count() == 1
    third = campaign.games.get(campaign_number=3)
    assert Seat.objects.get(game=third, index=1).player.email == carla.email  # from game 3 on
    told = "\n".join(text_of(m) for m in carla.inbox() if f"campaign #{campaign.pk}]" in str(m["Subject"]))
    results = [Event.from_dict(e).text for m in Move.objects.filter(game__campaign=campaign) for e in m.events
               if e["kind"] == "vote_result"]
    assert results and all(text in told for text in results)  # the campaign mails tell the votes

    # export, then import into a new campaign of the same group: its game is the same game
    following = campaign.games.get(campaign_number=number + 1)
    archive = token_client(ana.player).get(f"/api/v1/campaigns/{campaign.pk}/archive/").json()
    assert archive == following.archive and archive["game"] == number
    monkeypatch.setattr(services, "new_seed", lambda: following.seed)
    r = token_client(ana.player).post("/api/v1/campaigns/", {"rules": "maracaibo", "invite": [carla.email],
                                                            "options": {"rounds": 2}, "archive": archive},
                                      format="json")
    assert r.status_code == 201, r.content
    imported = Game.objects.get(pk=r.json()["games"][0]["id"])
    carla.reply(carla.latest(), "join")
    imported.refresh_from_db()
    assert imported.campaign_number == number + 1 and imported.status == Game.Status.RUNNING
    assert imported.state == following.state


def test_it_plays_the_uprisings_campaign_by_mail(ana: Persona, bruno: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Uprising's campaign (mode=campaign): created and joined by mail, games played by the
    players' replies until two games are over and a vote was taken by mail, the Home Ports and the
    expansion's legacy tiles carried; then the archive exported and imported into a new campaign
    whose next game is the same game."""
    seeds = iter(f"uprising-campaign-{i}" for i in range(100))
    monkeypatch.setattr(services, "new_seed", lambda: next(seeds))
    ana.send_to(GENERAL, f'new campaign maracaibo with {bruno.email} name="Cumana" mode=campaign rounds=2')
    campaign = Campaign.objects.get()
    assert campaign.options["campaign"] is True and campaign.options["mode"] == "campaign"
    bruno.reply(bruno.latest(), "join")
    people = [ana, bruno]
    votes = 0
    number = 0
    while number < 2 or not votes:
        game = campaign.games.get(campaign_number=number + 1)
        number = game.campaign_number or 0
        assert number <= 4, "four games without a vote by mail"
        assert game.state is not None and game.state["story"]["book"] == "uprising"
        assert game.state["legacy"][:2] == ["L1", "L4"] and "L30" in game.state["legacy_new"]
        assert all(p["board"] == "uprising" for p in game.state["seats"])  # the new boards, the Home Ports
        game = play_by_mail(game.pk, people, seed=number)
        votes += votes_by_mail(game)
        campaign.refresh_from_db()
        assert campaign.status == Campaign.Status.RUNNING
    told = "\n".join(text_of(m) for m in ana.inbox() if f"campaign #{campaign.pk}]" in str(m["Subject"]))
    results = [Event.from_dict(e).text for m in Move.objects.filter(game__campaign=campaign) for e in m.events
               if e["kind"] == "vote_result"]
    assert results and all(text in told for text in results)  # the campaign mails tell the votes

    following = campaign.games.get(campaign_number=number + 1)
    archive = token_client(ana.player).get(f"/api/v1/campaigns/{campaign.pk}/archive/").json()
    assert archive == following.archive and archive["story"]["book"] == "uprising" and archive["game"] == number
    monkeypatch.setattr(services, "new_seed", lambda: following.seed)
    r = token_client(ana.player).post("/api/v1/campaigns/", {"rules": "maracaibo", "invite": [bruno.email],
                                                            "options": {"rounds": 2}, "archive": archive},
                                      format="json")
    assert r.status_code == 201, r.content
    imported = Game.objects.get(pk=r.json()["games"][0]["id"])
    bruno.reply(bruno.latest(), "join")
    imported.refresh_from_db()
    assert imported.campaign_number == number + 1 and imported.status == Game.Status.RUNNING
    assert imported.state is not None and imported.state["options"]["mode"] == "campaign"  # the archive's story's
    assert imported.options["mode"] == "campaign" and imported.campaign is not None
    assert imported.campaign.options["mode"] == "campaign"  # the service keeps the options the games play
    assert imported.state == following.state
