"""What a Portuguese player still read in English (QA, issue 27), by mail over the real SMTP socket
and on the page, beside an English player in the same game: the game's title (stored in English
when the game is made, said in each reader's language when shown), and the mail door's answers
(pbem/mail/services.py: a wrong address, a finished game, undo or an absence mixed with other
lines, too many lines, the lines ignored, the page link, a message to the table)."""

from __future__ import annotations

import pytest
from django.test import Client

from pbem.games import services as game_services
from pbem.games.models import Game
from tests.mail.conftest import Persona, seat_of, start_game, text_of
from tests.mail.test_language_by_mail import english_left

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"
EN_TITLE, PT_TITLE = "Maracaibo (substitute content)", "Maracaibo (conteúdo substituto)"


def _portuguese(person: Persona) -> None:
    player = game_services.do_get_or_create_player(person.email)
    game_services.do_update_preferences(player, language="pt")


def _portuguese_only(said: str) -> None:
    assert english_left(said) == [], said
    assert "substitute content" not in said and "Nothing was changed" not in said, said


def test_a_portuguese_player_reads_the_games_title_in_portuguese(ana: Persona, bruno: Persona) -> None:
    _portuguese(ana)
    game = start_game("maracaibo", [ana, bruno])
    assert game.title == EN_TITLE  # stored once, in English
    mine, his = ana.latest(), bruno.latest()
    assert PT_TITLE in str(mine["Subject"]) and PT_TITLE in text_of(mine), mine["Subject"]
    assert "substitute content" not in str(mine["Subject"]) + text_of(mine)
    assert EN_TITLE in str(his["Subject"]) and EN_TITLE in text_of(his)
    # the page, in the visitor's language
    page = Client().get(f"/games/{game.pk}/", headers={"Accept-Language": "pt"}).content.decode()
    assert f"#{game.pk} {PT_TITLE}" in page and EN_TITLE not in page
    assert f"#{game.pk} {EN_TITLE}" in Client().get(f"/games/{game.pk}/").content.decode()
    # a rematch's and a campaign game's titles: the service's own parts said, a player's own kept
    from pbem.games.language import speaking
    from pbem.games.models import said_game_title

    with speaking("pt"):
        assert said_game_title(f"{EN_TITLE} (rematch)", "maracaibo") == f"{PT_TITLE} (revanche)"
        assert said_game_title(f"{EN_TITLE} campaign, game 2", "maracaibo") == f"Campanha de {PT_TITLE}, jogo 2"
        assert said_game_title("Friday at Ana's", "maracaibo") == "Friday at Ana's"
        # the title a game's mode composes (Rules.game_title), and its campaign's
        title = "Maracaibo: The Uprising, Unrest (79)"
        assert said_game_title(title, "maracaibo", {"mode": "79"}) == "Maracaibo: A Revolta, Agitação (79)"
        assert said_game_title(f"{title} campaign, game 3", "maracaibo", {"mode": "79"}) == (
            "Campanha de Maracaibo: A Revolta, Agitação (79), jogo 3")
    assert said_game_title(f"{EN_TITLE} campaign, game 2", "maracaibo") == f"{EN_TITLE} campaign, game 2"


def test_the_mail_doors_answers_to_a_portuguese_player_are_portuguese(
        ana: Persona, bruno: Persona, carla: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    from pbem.mail import services

    monkeypatch.setattr(services, "REPLIES_PER_HOUR", 50)  # (every answer here goes; the limit has its tests)
    _portuguese(ana)
    _portuguese(carla)
    game = start_game("maracaibo", [ana, bruno])
    turn = ana.latest()
    ana.reply(turn, "undo\nplan 3")
    said = text_of(ana.latest())
    assert "mistura undo com outras linhas" in said and "Para desfazer a sua última jogada" in said, said
    _portuguese_only(said)
    ana.reply(turn, "extend\nplan 3")
    said = text_of(ana.latest())
    assert "mistura `extend` com outras linhas" in said, said
    _portuguese_only(said)
    ana.reply(turn, "\n".join(["plan 3"] * 31))
    said = text_of(ana.latest())
    assert "tem mais de 30 linhas de comandos" in said, said
    _portuguese_only(said)
    ana.reply(turn, "link")
    said = text_of(ana.latest())
    assert f"A sua página pessoal do jogo #{game.pk} ({PT_TITLE})" in said and "É só sua" in said, said
    _portuguese_only(said)
    ana.reply(turn, "say boa sorte")
    said = text_of(ana.latest())
    assert "A sua mensagem vai para os outros jogadores" in said, said
    _portuguese_only(said)
    # someone else (Portuguese too) writes from another address to Ana's seat
    carla.send_to(str(turn["Reply-To"]), "plan 3", subject=f"Re: {turn['Subject']}")
    said = text_of(carla.latest())
    assert "veio de um endereço que não é aquele com que este lugar está registrado" in said, said
    _portuguese_only(said)
    # more lines than are read, to the general address
    carla.send_to(GENERAL, "\n".join(["games"] * 32))
    said = text_of(carla.latest())
    assert "Ignoradas: mais 2 linhas depois das primeiras 30." in said, said
    # a finished game takes no more moves
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    ana.reply(turn, "plan 3")
    said = text_of(ana.latest())
    assert f"O jogo #{game.pk} ({PT_TITLE}) está terminado; já não aceita jogadas. Nada foi alterado." in said, said
    _portuguese_only(said)
    assert str(ana.latest()["Subject"]).strip().startswith(f"Re: [pbem #{game.pk}] {PT_TITLE}")
    # the same answers to the English player, in English
    bruno.reply(bruno.latest(), "undo\nplan 3")
    assert "mixes undo with other lines" in text_of(bruno.latest()) or "takes no more moves" in text_of(
        bruno.latest())
    assert seat_of(game, ana).index == 0
