"""A Portuguese player is refused in Portuguese (issue 27): the service's refusals (games,
campaigns, moderation), the absence commands' answers by mail, and the personal page's refusals
and its "by mail: now ..." line, beside an English player who reads the same in English."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

import pytest
from django.test import Client

from pbem.games import campaigns, links, moderation
from pbem.games import services as game_services
from pbem.games.services import ServiceError
from tests.mail.conftest import Persona, seat_of, start_game, text_of
from tests.mail.test_language_by_mail import english_left

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def _portuguese(person: Persona) -> None:
    player = game_services.do_get_or_create_player(person.email)
    game_services.do_update_preferences(player, language="pt")


def test_it_answers_account_and_absence_commands_of_a_portuguese_player_in_portuguese(
        ana: Persona, bruno: Persona, carla: Persona) -> None:
    _portuguese(ana)
    game = start_game("maretta", [ana, bruno, carla])
    ana.send_to(GENERAL, f"join #999999\njoin #{game.pk}\nextend")
    said = text_of(ana.latest())
    assert "não há nenhum jogo #999999" in said and english_left(said) == [], said
    assert f"o jogo #{game.pk} está em andamento; não aceita novos jogadores" in said
    assert "Qual jogo?" in said
    ana.send_to(GENERAL, "vacation until the day after never\nvacation until 2099-01-05\nvacation off")
    said = text_of(ana.latest())
    assert "As suas férias não foram marcadas" in said and "Não consegui ler" in said, said
    assert "umas férias podem durar no máximo um ano" in said and "não foi aceita" in said, said
    assert "Bem-vindo de volta" in said and english_left(said) == [], said
    # the same commands from an English player, in English
    bruno.send_to(GENERAL, "join #999999\nextend")
    said = text_of(bruno.latest())
    assert "there is no game #999999" in said and "Which game?" in said


def test_it_refuses_a_portuguese_player_in_portuguese_in_the_services_and_on_her_page(
        ana: Persona, bruno: Persona, carla: Persona) -> None:
    from pbem.games import language

    _portuguese(ana)
    game = start_game("maretta", [ana, bruno, carla], options={"side": "A"})
    player = game_services.do_get_or_create_player(ana.email)
    with language.speaking(language.of(player)):
        with pytest.raises(ServiceError) as refused:
            campaigns.do_rematch(game.pk, player)
        assert f"o jogo #{game.pk} está em andamento; uma revanche segue um jogo terminado" == refused.value.message
        with pytest.raises(ServiceError) as refused:
            moderation.do_set_vacation(player, datetime(2020, 1, 1, tzinfo=UTC), via="mail")
        assert refused.value.message == "umas férias têm que acabar no futuro"
        with pytest.raises(ServiceError) as refused:
            campaigns.access_campaign(999999)
        assert refused.value.message == "não há nenhuma campanha #999999"
    # her page: nobody has moved, so undo is refused, in Portuguese; the line "by mail" names the
    # decision in Portuguese (Maretta's view names it)
    path = urlsplit(links.seat_page_url(seat_of(game, ana))).path
    client = Client()
    page = client.post(path + "undo/").content.decode()
    assert "não há nenhuma jogada a desfazer: ainda ninguém jogou" in page, page[:2000]
    page = client.get(path).content.decode()
    assert "agora todos põem uma carta virada para baixo na posição 1." in page
    assert "everybody puts a card" not in page
    # Bruno's page says the same in English
    theirs = urlsplit(links.seat_page_url(seat_of(game, bruno))).path
    page = client.post(theirs + "undo/").content.decode()
    assert "there is no move to take back: nobody has moved yet" in page
    assert "now everybody puts a card face down in position 1." in client.get(theirs).content.decode()


def test_it_tells_each_player_a_moderators_and_an_absences_notice_in_their_own_language(
        ana: Persona, bruno: Persona, carla: Persona) -> None:
    _portuguese(ana)
    game = start_game("maretta", [ana, bruno, carla], options={"side": "A"})
    bruno_player = game_services.do_get_or_create_player(bruno.email)
    moderation.do_set_vacation(bruno_player, datetime.now(UTC) + timedelta(days=3), via="mail")
    said = text_of(ana.latest())
    assert "Bruno está de férias até" in said and "o prazo de mais ninguém muda" in said, said
    assert "Bruno is on vacation until" in text_of(carla.latest())
    moderation.do_pause_game(game.pk, None, "a server move")
    said = text_of(ana.latest())
    assert f"Um moderador pôs o jogo #{game.pk} em pausa: a server move" in said, said
    assert english_left(said) == [], said
    assert f"A moderator paused game #{game.pk}: a server move" in text_of(carla.latest())
    moderation.do_resume_game(game.pk, None, "back")
    assert f"Um moderador recomeçou o jogo #{game.pk}: back" in text_of(ana.latest())
    assert f"A moderator resumed game #{game.pk}: back" in text_of(carla.latest())


def test_it_welcomes_a_portuguese_newcomer_in_portuguese_and_tells_the_others_in_theirs(
        ana: Persona, bruno: Persona, carla: Persona, mallory: Persona) -> None:
    _portuguese(mallory)
    _portuguese(ana)
    game = start_game("maretta", [ana, bruno, carla], options={"side": "A"})
    newcomer = game_services.do_get_or_create_player(mallory.email)
    moderation.do_replace_player(game.pk, None, 1, newcomer, "Bruno asked to leave")
    said = text_of(mallory.latest())
    assert f"Bem-vindo ao jogo #{game.pk}" in said
    assert "fica com o lugar de Bruno (substituição por um moderador: Bruno asked to leave)" in said
    assert english_left(said) == [], said
    assert "fica com o lugar de Bruno no jogo" in text_of(ana.latest())
    assert "takes over Bruno's seat in game" in text_of(carla.latest())
    assert f"You no longer play in game #{game.pk}" in text_of(bruno.latest())


def test_it_tells_a_campaigns_seat_handover_to_each_in_their_language(ana: Persona, bruno: Persona,
                                                                     carla: Persona) -> None:
    from pbem.games.models import OutboundMessage

    _portuguese(carla)
    alice, bob = (game_services.do_get_or_create_player(p.email) for p in (ana, bruno))
    campaign, first = campaigns.do_create_campaign(alice, "caravelas", name="Verão", invite=[bob.email])
    game_services.do_join_game(first.pk, bob)
    campaigns.do_hand_over_seat(campaign.pk, alice, 1, carla.email, "Bruno moved away")
    newcomer = OutboundMessage.objects.filter(to_email=carla.email).get().body_text
    # (index 1: seat 2, as people count)
    assert f"Fica com o lugar 2 da campanha #{campaign.pk} (Verão) a partir do seu próximo jogo" in newcomer
    assert "Página da campanha:" in newcomer and "Classificação (vitórias, depois pontuação total)" in newcomer
    assert english_left(newcomer) == [], newcomer
    leaving = OutboundMessage.objects.filter(to_email=bruno.email, subject__contains="campaign").get().body_text
    assert "passes to" in leaving and "Reason: Bruno moved away" in leaving and "Campaign page:" in leaving


def test_it_answers_a_portuguese_players_refused_move_in_portuguese_and_an_english_one_in_english(
        ana: Persona, bruno: Persona, carla: Persona) -> None:
    # QA (issue 27): the answer to a refused move said "was not accepted", "Your line", "Your
    # options now:" in English to a Portuguese player
    _portuguese(ana)
    start_game("maretta", [ana, bruno, carla], options={"side": "A"})
    ana.reply(ana.latest(), "navegar para a lua\nzz")
    said = text_of(ana.latest())
    assert "não foi aceita; nada foi alterado" in said and "Linha 1 de 2: navegar para a lua" in said, said
    assert "1 linha depois da recusada não foi lida." in said and "As suas opções agora:" in said, said
    assert "Responda a esta mensagem com os seus comandos" in said and "A sua página: http" in said, said
    assert english_left(said) == [], said
    for english in ("was not accepted", "Line 1 of 2", "Your options now", "after the refused one", "Your page"):
        assert english not in said, english
    bruno.reply(bruno.latest(), "sail to the moon")
    said = text_of(bruno.latest())
    assert "was not accepted; nothing was changed" in said and "Your line: sail to the moon" in said, said
    assert "Your options now:" in said and "Your page: http" in said, said


def test_it_draws_the_dealt_cards_on_a_portuguese_players_maracaibo_page_in_portuguese(
        ana: Persona, bruno: Persona) -> None:
    # QA (issue 27): the page's dealt cards said "Plan Brave Builder", "cotton · herbs" to a pt player
    _portuguese(ana)
    game = start_game("maracaibo", [ana, bruno])
    client = Client()
    page = client.get(urlsplit(links.seat_page_url(seat_of(game, ana))).path).content.decode()
    buttons = re.findall(r'<button type="submit" data-code="p\d+"[^>]*>([^<]*)</button>', page)
    assert buttons and all(b.startswith("Planejar ") for b in buttons), buttons
    # the notation help's examples in Portuguese notation (QA, #27: 'sail 5', 'draw 2 display')
    assert "&#x27;navegar 5&#x27;" in page and "&#x27;sail 5&#x27;" not in page
    tags = re.findall(r'<span class="card-tags">([^<]*)</span>', page)
    assert tags and not any(w in t for t in tags for w in ("cotton", "herbs", "sugar", "corn", "tobacco")), tags
    theirs = client.get(urlsplit(links.seat_page_url(seat_of(game, bruno))).path).content.decode()
    assert re.search(r'data-code="p\d+"[^>]*>Plan ', theirs)
    tags = re.findall(r'<span class="card-tags">([^<]*)</span>', theirs)
    assert any(w in t for t in tags for w in ("cotton", "herbs", "sugar", "corn", "tobacco")), tags
