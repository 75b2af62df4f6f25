"""A player's language through the API (issue 27): the setting in /me/, and each answer's language
from the request's Accept-Language, else the player's setting, said in Content-Language."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from pbem.games.models import Player
from tests.factories import token_client

pytestmark = pytest.mark.django_db

ME = "/api/v1/me/"


def test_it_sets_and_shows_the_players_language(alice) -> None:
    client = token_client(alice)
    assert client.get(ME).json()["language"] == "en"
    r = client.patch(ME, {"language": "pt"}, format="json")
    assert r.status_code == 200 and r.json()["language"] == "pt"
    assert Player.objects.get(pk=alice.pk).language == "pt"
    refused = client.patch(ME, {"language": "klingon"}, format="json")
    assert refused.status_code == 400 and "klingon" in refused.content.decode()
    assert Player.objects.get(pk=alice.pk).language == "pt"


def test_it_answers_in_the_accept_language_else_in_the_players_setting(alice) -> None:
    client = token_client(alice)
    assert client.get(ME)["Content-Language"] == "en"
    assert client.get(ME, headers={"Accept-Language": "pt-BR,pt;q=0.9,en;q=0.8"})["Content-Language"] == "pt"
    client.patch(ME, {"language": "pt"}, format="json")
    assert client.get(ME)["Content-Language"] == "pt"
    # a request that asks for English is answered in English whatever the setting
    assert client.get(ME, headers={"Accept-Language": "en"})["Content-Language"] == "en"
    # nothing of one request's language stays for the next one's
    assert APIClient().get("/api/v1/games/")["Content-Language"] == "en"
