"""Campaigns and rematches through the REST API (pbem/api/campaign_views.py, issue 23): a campaign's
life (created, its group joined, a game played to its end, the next set up from the archive, a
seat handed over), the archive exported and imported into a new campaign, refusals."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rest_framework.test import APIClient

from engine import cli
from pbem.games import campaigns, services
from pbem.games.models import Campaign, Game, Player
from tests.campaign_toy import guess
from tests.engine.test_core_campaign import TOY
from tests.factories import token_client
from tests.service.test_campaigns import finish

__all__ = ["guess"]

CAMPAIGNS = "/api/v1/campaigns/"


def test_it_runs_a_campaign_and_goes_on_from_its_exported_archive(
        guess: str, alice: Player, bob: Player, carol: Player, dave: Player,
        django_capture_on_commit_callbacks: Any) -> None:
    a, b = token_client(alice), token_client(bob)
    r = a.post(CAMPAIGNS, {"rules": guess, "name": "Spring", "invite": [bob.email], "games": 3}, format="json")
    assert r.status_code == 201, r.content
    cid = r.json()["id"]
    first = r.json()["games"][0]["id"]
    assert b.post(f"/api/v1/games/{first}/join/").status_code == 200
    assert a.get(f"{CAMPAIGNS}{cid}/archive/").status_code == 409  # no game of it has ended
    finish(first, django_capture_on_commit_callbacks)
    page = APIClient().get(f"{CAMPAIGNS}{cid}/").json()  # anyone may read it, as a game's page
    assert [g["number"] for g in page["games"]] == [1, 2] and page["has_archive"]
    assert {s["name"] for s in page["standings"]} == {"Alice", "Bob"}
    assert [s["action"] for s in page["story"]][:3] == ["created", "finished", "next"]
    assert APIClient().get(f"{CAMPAIGNS}{cid}/archive/").status_code == 401
    assert token_client(dave).get(f"{CAMPAIGNS}{cid}/archive/").status_code == 403
    archive = b.get(f"{CAMPAIGNS}{cid}/archive/").json()
    first_game = Game.objects.get(pk=first)
    assert archive == TOY.archive(first_game.state)
    r = token_client(carol).post(CAMPAIGNS, {"rules": guess, "invite": [dave.email], "archive": archive},
                                 format="json")
    assert r.status_code == 201, r.content
    imported = r.json()
    assert imported["games"][0]["number"] == 2
    assert token_client(dave).post(f"/api/v1/games/{imported['games'][0]['id']}/join/").status_code == 200
    theirs = Game.objects.get(pk=imported["games"][0]["id"])
    ours = Game.objects.get(pk=page["games"][1]["id"])
    assert theirs.state is not None and ours.state is not None
    assert theirs.state["scores"] == ours.state["scores"]  # it goes on from where ours did
    r = token_client(dave).post(f"{CAMPAIGNS}{cid}/handover/", {"seat": 1, "email": dave.email, "reason": "x"},
                                 format="json")
    assert r.status_code == 403
    r = a.post(f"{CAMPAIGNS}{cid}/handover/", {"seat": 1, "email": carol.email, "reason": "Bob sails away"},
               format="json")
    assert r.status_code == 200, r.content
    assert [g["name"] for g in r.json()["group"]] == ["Alice", "Carol"]
    assert a.post(f"{CAMPAIGNS}{cid}/next/").json()["code"] == "conflict"  # game 2 is under way


def test_it_refuses_an_archive_the_engine_cannot_continue_with_its_reason(guess: str, alice: Player,
                                                                         bob: Player) -> None:
    archive = {"format": "pbem-campaign", "version": 1, "rules": guess, "game": 1, "seats": ["A", "B"],
               "scores": [1]}
    r = token_client(alice).post(CAMPAIGNS, {"rules": guess, "invite": [bob.email], "archive": archive},
                                 format="json")
    assert r.status_code == 422  # the request fits the schema; the engine refuses the archive
    assert "the archive's scores must give one number a seat" in r.json()["message"]
    assert not Campaign.objects.exists()


def test_it_rematches_a_finished_game(alice: Player, bob: Player, dave: Player,
                                      django_capture_on_commit_callbacks: Any) -> None:
    r = token_client(alice).post("/api/v1/games/", {"rules": "caravelas", "options": {"target": 10},
                                                   "invite": [bob.email]}, format="json")
    gid = r.json()["id"]
    assert token_client(bob).post(f"/api/v1/games/{gid}/rematch/").status_code == 409  # not started
    token_client(bob).post(f"/api/v1/games/{gid}/join/")
    finish(gid, django_capture_on_commit_callbacks)
    assert token_client(dave).post(f"/api/v1/games/{gid}/rematch/").status_code == 403
    r = token_client(bob).post(f"/api/v1/games/{gid}/rematch/")
    assert r.status_code == 201, r.content
    again = r.json()
    assert again["rules"] == "caravelas" and again["options"] == Game.objects.get(pk=gid).options
    assert r["Location"].endswith(f"/games/{again['id']}/")
    assert token_client(alice).post(f"/api/v1/games/{gid}/rematch/").status_code == 409


def test_it_exports_a_campaign_game_with_its_archive_once_the_campaign_is_over(
        guess: str, alice: Player, bob: Player, tmp_path: Path, django_capture_on_commit_callbacks: Any) -> None:
    _campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=2)
    services.do_join_game(first.pk, bob)
    finish(first.pk, django_capture_on_commit_callbacks)
    second = Game.objects.get(campaign_number=2)
    client = APIClient()
    assert client.get(f"/api/v1/games/{first.pk}/export/").json()["archive"] is None  # the first: none
    finish(second.pk, django_capture_on_commit_callbacks, seed=2)
    exported = client.get(f"/api/v1/games/{second.pk}/export/").json()
    assert exported["archive"] == second.archive and exported["archive"]["game"] == 1
    path = tmp_path / "export.json"
    path.write_text(json.dumps(exported), encoding="utf-8")
    assert cli.replay(argparse.Namespace(file=str(path))) == 0  # setup + seed + archive + moves


def test_it_keeps_a_campaign_game_export_back_while_the_campaign_goes_on(
        guess: str, alice: Player, bob: Player, django_capture_on_commit_callbacks: Any) -> None:
    campaign, first = campaigns.do_create_campaign(alice, guess, invite=[bob.email], games=3)
    services.do_join_game(first.pk, bob)
    finish(first.pk, django_capture_on_commit_callbacks)
    second = Game.objects.get(campaign_number=2)
    finish(second.pk, django_capture_on_commit_callbacks, seed=2)
    r = APIClient().get(f"/api/v1/games/{second.pk}/export/")
    assert r.status_code == 409 and f"campaign #{campaign.pk}, which goes on" in r.json()["message"]


def test_it_answers_a_reason_of_control_characters_with_a_422_not_a_400(guess: str, alice: Player,
                                                                        bob: Player) -> None:
    campaign, _game = campaigns.do_create_campaign(alice, guess, invite=[bob.email])
    r = token_client(alice).post(f"{CAMPAIGNS}{campaign.pk}/end/", {"reason": "\u001c"}, format="json")
    assert r.status_code == 422 and "say why the campaign ends" in r.json()["message"]
    r = token_client(alice).post(f"{CAMPAIGNS}{campaign.pk}/end/", {"reason": "the\ngroup\x07stops"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "finished"
    assert "the group stops" in r.json()["story"][-1]["text"]


def test_it_refuses_a_handover_naming_the_newcomer_a_name_no_player_may_have(guess: str, alice: Player,
                                                                              bob: Player) -> None:
    """QA: a handover's ``name`` that no player may have ("Erin 2": a digit) was dropped without a
    word and the newcomer named by their address; now a 422 says why, and nothing changes."""
    campaign, game = campaigns.do_create_campaign(alice, guess, invite=[bob.email])
    a = token_client(alice)
    assert token_client(bob).post(f"/api/v1/games/{game.pk}/join/").status_code == 200
    url = f"{CAMPAIGNS}{campaign.pk}/handover/"
    r = a.post(url, {"seat": 1, "email": "erin@example.com", "reason": "Bob sails away", "name": "Erin 2"},
               format="json")
    assert r.status_code == 422 and "a name cannot hold digits" in r.json()["message"], r.content
    assert not Player.objects.filter(email="erin@example.com").exists()
    assert [g["name"] for g in a.get(f"{CAMPAIGNS}{campaign.pk}/").json()["group"]] == ["Alice", "Bob"]
    r = a.post(url, {"seat": 1, "email": "erin@example.com", "reason": "Bob sails away", "name": " Erin "},
               format="json")
    assert r.status_code == 200 and [g["name"] for g in r.json()["group"]] == ["Alice", "Erin"], r.content
