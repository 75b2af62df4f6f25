"""A player's language through the API (issue 27): the setting in /me/, and each answer's language
from the request's Accept-Language, else the player's setting, said in Content-Language."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from pbem.games.models import Game, Player
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


def test_without_accept_language_the_players_setting_says_the_games_words_too(alice, bob) -> None:
    """QA (issue 27): the player's setting reached Django's words only, and only where a view read
    the player: a pt player's options and refusals through the API came in English without an
    Accept-Language. Sent, Accept-Language wins over the setting."""
    from tests.factories import start_game

    game = start_game("maracaibo", alice, [bob])
    Player.objects.filter(pk=alice.pk).update(language="pt")
    client = token_client(Player.objects.get(pk=alice.pk))
    url = f"/api/v1/games/{game.pk}/options/"
    pt = client.get(url)
    assert pt["Content-Language"] == "pt"
    en = client.get(url, headers={"Accept-Language": "en"})
    assert en["Content-Language"] == "en"
    pt_labels = [o["label"] for o in pt.json()["options"]]
    en_labels = [o["label"] for o in en.json()["options"]]
    assert pt_labels and pt_labels != en_labels
    assert any(label.startswith(("planejar ", "guardar ")) for label in pt_labels), pt_labels
    assert not any(label.startswith(("planejar ", "guardar ")) for label in en_labels)
    # a refused move's reason (the engine's words) in the setting's language too
    refused = client.post(f"/api/v1/games/{game.pk}/moves/?wait=5",
                          {"commands": [{"text": "navegar 99"}]}, format="json")
    assert refused["Content-Language"] == "pt"
    body = refused.content.decode()
    english = client.post(f"/api/v1/games/{game.pk}/moves/?wait=5", {"commands": [{"text": "navegar 99"}]},
                          format="json", headers={"Accept-Language": "en"}).content.decode()
    assert body != english, body


def test_the_schema_says_how_the_language_is_chosen() -> None:
    schema = APIClient().get("/api/v1/schema/", headers={"Accept": "application/json"}).json()
    op = schema["paths"]["/api/v1/games/{game_id}/options/"]["get"]
    header = next(p for p in op["parameters"] if p["name"] == "Accept-Language")
    assert header["in"] == "header" and "setting" in header["description"]
    assert "Content-Language" in op["responses"]["200"]["headers"]


def test_it_says_a_games_title_in_the_readers_language(alice, bob) -> None:
    """QA (issue 27): GET /games/{id}/ gave the stored English title ("Maracaibo: The Uprising, ...")
    to a Portuguese reader, by Accept-Language or by the player's setting; the lobby too."""
    from tests.factories import start_game

    game = start_game("maracaibo", alice, [bob], options={"mode": "79"})
    client = token_client(alice)
    url = f"/api/v1/games/{game.pk}/"
    en = client.get(url).json()
    pt = client.get(url, headers={"Accept-Language": "pt"})
    assert "Accept-Language" in pt["Vary"]
    assert en["title"] == game.title and "Uprising" in en["title"]
    assert pt.json()["title"] != en["title"] and "Uprising" not in pt.json()["title"], pt.json()["title"]
    assert pt.json()["rules_title"] != en["rules_title"], pt.json()["rules_title"]
    Player.objects.filter(pk=alice.pk).update(language="pt")
    setting = token_client(Player.objects.get(pk=alice.pk))
    assert setting.get(url).json()["title"] == pt.json()["title"]
    lobby = setting.get("/api/v1/games/").json()
    rows = lobby["results"] if isinstance(lobby, dict) else lobby
    assert [g["title"] for g in rows if g["id"] == game.pk] == [pt.json()["title"]]
    # a title its creator wrote is shown as written
    Game.objects.filter(pk=game.pk).update(title="Friday game")
    assert setting.get(url).json()["title"] == "Friday game"


def test_it_says_each_games_notation_help_with_portuguese_examples(alice) -> None:
    """QA (#27): the notation help (the API's rules, the page's "How to write your moves by mail") gave a
    Portuguese reader English examples ('sail 5', 'draw 2 display'); they are Portuguese notation."""
    client = token_client(alice)
    for name, english, portuguese in (("maracaibo", "'sail 5'", "'navegar 5'"),
                                      ("caravelas", "'move 3 to guine'", "'mover 3 para guiné'"),
                                      ("maretta", "play 3 wood", "jogar 3 madeira")):
        en = client.get(f"/api/v1/rules/{name}/").json()["notation_help"]
        pt = client.get(f"/api/v1/rules/{name}/", headers={"Accept-Language": "pt"}).json()["notation_help"]
        assert english in en and portuguese in pt and english not in pt, pt
    pt = client.get("/api/v1/rules/maracaibo/", headers={"Accept-Language": "pt"}).json()["notation_help"]
    assert "'tirar 2 da exposição'" in pt and "draw" not in pt, pt
