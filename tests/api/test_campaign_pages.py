"""The campaign page, the rematch button of a finished game's personal page, and the admin's
campaign forms (issue 23), through Django's test client."""

from __future__ import annotations

from typing import Any

from django.test import Client

from pbem.games import campaigns, services
from pbem.games.links import seat_page_token
from pbem.games.models import Campaign, CampaignEntry, CampaignSeat, Game, Player
from tests.campaign_toy import guess
from tests.factories import start_game
from tests.service.test_campaigns import finish

__all__ = ["guess"]


def test_it_shows_a_campaign_page_with_its_standings_and_story(guess: str, alice: Player, bob: Player,
                                                              django_capture_on_commit_callbacks: Any) -> None:
    campaign, first = campaigns.do_create_campaign(alice, guess, name="Dry season", invite=[bob.email], games=2)
    services.do_join_game(first.pk, bob)
    finish(first.pk, django_capture_on_commit_callbacks)
    first.refresh_from_db()
    page = Client().get(f"/campaigns/{campaign.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"Campaign #{campaign.pk} Dry season" in html
    # the game's name, not the rules' key; plurals said properly (QA, #23: "guess", "1 win(s)")
    from pbem.games import campaign_selectors

    name = campaign_selectors.game_name(campaign)
    assert name != guess and f"<p>{name} · " in html and " · 2 games · " in html
    import re

    assert "win(s)" not in html and "game(s)" not in html and " in 1 game\n" in html, html
    assert re.search(r": 1 win, |: 0 wins, ", html) and not re.search(r": 1 wins|: 0 win,|\b1 points", html), html
    from django.utils import translation

    with translation.override("pt"):
        told = campaign_selectors.story_so_far(campaign)
    assert "vitória(s)" not in told and " em 1 jogo\n" in told + "\n"
    assert re.search(r": 1 vitória, |: 0 vitórias, ", told), told
    assert not re.search(r": 1 vitórias|\b1 pontos", told), told
    winner = first.state["players"][first.outcome["winners"][0]]
    assert f"Game 1 (#{first.pk}): won by {winner}" in html
    second = campaign.games.get(campaign_number=2)
    assert f'href="/games/{second.pk}/"' in html
    game_page = Client().get(f"/games/{second.pk}/").content.decode()
    assert f'href="/campaigns/{campaign.pk}/"' in game_page
    assert Client().get("/campaigns/999999/").status_code == 404


def test_it_never_shows_an_invited_address_on_the_public_campaign_page_or_api(guess: str, alice: Player) -> None:
    """An unanswered invitation's address is the creator's and the invitee's business only: the campaign
    page and GET /campaigns/{id}/ name the seat "an invited player" (they showed the address)."""
    address = "someone.private.1984@example.net"
    campaign, _first = campaigns.do_create_campaign(alice, guess, name="Quiet", invite=[address], games=2)
    page = Client().get(f"/campaigns/{campaign.pk}/").content.decode()
    answer = Client().get(f"/api/v1/campaigns/{campaign.pk}/").content.decode()
    for shown in (page, answer):
        assert "someone.private" not in shown and "an invited player" in shown, shown[:2000]
    assert alice.display_name in page


def test_it_rematches_from_the_personal_page_of_a_finished_game(alice: Player, bob: Player,
                                                                django_capture_on_commit_callbacks: Any) -> None:
    game = start_game("caravelas", alice, [bob], options={"target": 10})
    token = seat_page_token(game.seats.get(player=alice))
    assert "Rematch" not in Client().get(f"/p/{token}/").content.decode()  # not while it runs
    finish(game.pk, django_capture_on_commit_callbacks)
    page = Client().get(f"/p/{token}/").content.decode()
    assert f'action="/p/{token}/rematch/"' in page
    answer = Client().post(f"/p/{token}/rematch/")
    again = Game.objects.exclude(pk=game.pk).get()
    assert answer.status_code == 200 and f"#{again.pk}" in answer.content.decode()
    assert again.seats.get(player=alice).status == "joined" and again.seats.get(player=bob).status == "invited"
    refused = Client().post(f"/p/{token}/rematch/")
    assert refused.status_code == 409 and "rematch already" in refused.content.decode()
    assert Client().post("/p/forged/rematch/").status_code == 404


def test_it_lets_a_moderator_run_a_campaign_from_the_admin(guess: str, moderator: Player, alice: Player,
                                                           bob: Player, carol: Player,
                                                           django_capture_on_commit_callbacks: Any) -> None:
    client = Client()
    client.force_login(moderator.user)
    refused = client.post("/admin/games/campaign/new/", {
        "name": "Bad", "rules": guess, "players": f"{alice.email}\n{bob.email}", "options": "{", "deadline_hours": 72})
    assert refused.status_code == 200 and "not JSON" in refused.content.decode()
    r = client.post("/admin/games/campaign/new/", {
        "name": "Autumn", "rules": guess, "players": f"{alice.email}\n{bob.email}", "options": "{}", "games": 2,
        "deadline_hours": 48, "archive": ""})
    campaign = Campaign.objects.get()
    assert r.status_code == 302 and r["Location"].endswith(f"/admin/games/campaign/{campaign.pk}/change/")
    first = campaign.games.get()
    assert first.status == Game.Status.RUNNING and first.deadline_hours == 48
    assert client.get(f"/admin/games/campaign/{campaign.pk}/change/").status_code == 200
    r = client.post(f"/admin/games/campaign/{campaign.pk}/handover/",
                    {"seat": 1, "email": carol.email, "name": "", "reason": "Bob is away for a year"})
    assert r.status_code == 302
    assert CampaignSeat.objects.get(campaign=campaign, index=1).player == carol
    assert CampaignEntry.objects.get(campaign=campaign, action="handover").actor == moderator
    r = client.post(f"/admin/games/campaign/{campaign.pk}/next/")
    assert r.status_code == 200 and "not over yet" in r.content.decode()  # game 1 is under way
    page = client.get(f"/admin/games/campaign/{campaign.pk}/change/").content.decode()
    assert f'href="/admin/games/campaign/{campaign.pk}/archive/"' in page
    r = client.get(f"/admin/games/campaign/{campaign.pk}/archive/", follow=True)  # none before a game ends
    assert "has no archive yet" in r.content.decode()
    finish(first.pk, django_capture_on_commit_callbacks)
    r = client.get(f"/admin/games/campaign/{campaign.pk}/archive/")
    campaign.refresh_from_db()
    assert r.status_code == 200 and r.json() == campaign.carry and r.json()["format"] == "pbem-campaign"
    assert f"campaign-{campaign.pk}-archive.json" in r["Content-Disposition"]
    assert CampaignEntry.objects.get(campaign=campaign, action="exported").actor == moderator
    assert Client().get(f"/admin/games/campaign/{campaign.pk}/archive/").status_code == 302  # staff only
    r = client.post(f"/admin/games/campaign/{campaign.pk}/end/", {"reason": "the group stops"})
    assert r.status_code == 302
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.FINISHED
    assert Client().get(f"/admin/games/campaign/{campaign.pk}/end/").status_code == 302  # staff only: to login


def test_the_page_and_the_mails_count_seats_from_1_the_api_from_0(guess: str, alice: Player, bob: Player,
                                                                   carol: Player) -> None:
    """People count seats from 1 (#23: the campaign page showed the creator in seat 0, and a handover by mail
    took the index, so `seat 1` named the second player); the API's ``seat`` fields stay indexes from 0."""
    import re

    from pbem.games import campaign_selectors
    from pbem.games.services import ServiceError
    from pbem.mail import campaign_commands

    campaign, first = campaigns.do_create_campaign(alice, guess, name="Counted", invite=[bob.email], games=3)
    services.do_join_game(first.pk, bob)
    html = Client().get(f"/campaigns/{campaign.pk}/").content.decode()
    rows = re.findall(r"<tr><td>(\d+)</td><td>(\d+)</td><td class=\"name(?: word)?\">([^<]+)</td>", html)
    assert sorted((seat, name.strip()) for _place, seat, name in rows) == [
        ("1", alice.display_name), ("2", bob.display_name)], rows
    api = Client().get(f"/api/v1/campaigns/{campaign.pk}/").json()
    assert [g["seat"] for g in api["group"]] == [0, 1]
    for wrong in ("0", "3"):
        try:
            campaign_commands.run(alice.email, alice, ["campaign", f"#{campaign.pk}", "seat", wrong, "to",
                                                       carol.email, "because", "x"])
        except ServiceError as exc:
            assert exc.message == f"campaign #{campaign.pk} has seats 1 to 2, not {wrong}", exc.message
        else:
            raise AssertionError(f"seat {wrong} taken")
    said = campaign_commands.run(alice.email, alice, ["campaign", f"#{campaign.pk}", "seat", "2", "to", carol.email,
                                                      "because", "Bob", "sails", "away"])
    assert said.startswith(f"Seat 2 of campaign #{campaign.pk} is {carol.display_name}'s"), said
    held = CampaignSeat.objects.get(campaign=campaign, player=carol)
    assert held.index == 1  # Bob's seat, the second
    entry = CampaignEntry.objects.get(campaign=campaign, action="handover")
    assert entry.details["seat"] == 1
    told = campaign_selectors.story_so_far(campaign)
    assert f"Seat 2 passed from {bob.display_name} to {carol.display_name} (Bob sails away)." in told, told
    api = Client().get(f"/api/v1/campaigns/{campaign.pk}/").json()
    assert any(s["text"].startswith("seat 2 passed from") for s in api["story"]), api["story"]
    r = Client().post(f"/api/v1/campaigns/{campaign.pk}/handover/")  # (anonymous: refused, nothing changes)
    assert r.status_code in (401, 403)
