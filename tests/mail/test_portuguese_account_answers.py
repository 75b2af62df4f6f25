"""The answers to account commands by mail are said in the writer's language (QA, issue 27): a
Portuguese player who mailed ``new maracaibo with ... mode=193`` read "feito: Game #2 (...) is
created. Invitations went to ... It starts when every seat is taken."; ``games``, ``join``,
``decline``, ``name``, ``mode``, ``resign`` and the campaign commands answered in English too
(pbem/mail/commands.py and campaign_commands.py said them as f-strings). Over the real SMTP socket."""

from __future__ import annotations

import pytest

from pbem.games import services as game_services
from pbem.games.models import Game
from tests.mail.conftest import Persona, text_of
from tests.mail.test_language_by_mail import english_left

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def _portuguese(person: Persona) -> None:
    game_services.do_update_preferences(game_services.do_get_or_create_player(person.email), language="pt")


def _said(person: Persona, body: str) -> str:
    person.send_to(GENERAL, body)
    said = text_of(person.latest())
    assert english_left(said) == [], said
    return said


def test_a_portuguese_players_account_commands_are_answered_in_portuguese(
        ana: Persona, bruno: Persona, carla: Persona) -> None:
    _portuguese(ana)
    _portuguese(bruno)
    said = _said(ana, f"new maracaibo with {bruno.email} {carla.email} mode=193 open=1")
    game = Game.objects.get()
    assert f"O jogo #{game.pk} (" in said and f"Os convites foram para {bruno.email}, {carla.email}" in said, said
    assert "há 1 lugar livre" in said and f"'join #{game.pk}'" in said, said
    assert "is created" not in said and "Invitations went" not in said, said
    said = _said(bruno, f"games\njoin #{game.pk}")
    assert "Os seus jogos:" in said and "está convidado (1 de 4 lugares ocupados)" in said, said
    assert f"Entrou no jogo #{game.pk}" in said and "os últimos lugares estiverem ocupados (faltam 2)" in said, said
    said = _said(bruno, "name Bruno Costa\nmode digest\nmode\nfrobnicate")
    assert "O seu nome é agora Bruno Costa." in said, said
    assert "O seu modo de e-mail é agora digest: uma mensagem de resumo por dia" in said, said
    assert "'frobnicate' não é um comando aqui" in said, said
    said = _said(ana, "campaigns")
    assert "Não está em nenhuma campanha." in said, said


def test_an_english_player_still_reads_them_in_english(ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email}")
    said = text_of(ana.latest())
    game = Game.objects.get()
    assert f"Game #{game.pk} (" in said and f"is created. Invitations went to {bruno.email}." in said, said
    bruno.send_to(GENERAL, "games")
    assert "Your games:" in text_of(bruno.latest()) and "you are invited (1 of 2 seats taken)" in text_of(
        bruno.latest())
