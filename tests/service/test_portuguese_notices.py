"""The notices a Portuguese player still read in English (QA, issue 27), each beside an English
player who reads it in English: civil disorder (with the moves played for the absent seat said in
the reader's language), a moderator's rollback and new time rules, a look at a seat's hidden
information, a new moderator, an absence a moderator entered, a message to a cooperative table,
an open seat offered to a Portuguese volunteer, and a campaign's results stored when a game ends."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

import engine
from engine import i18n
from pbem.games import moderation, moderators, services
from pbem.games.models import Game, OutboundMessage, Player, Source
from pbem.games.services import Command
from tests.factories import mail_text, make_player, seat_of, start_game
from tests.mail.test_language_by_mail import english_left
from tests.service.test_absent_players import _bid, _mark, _sweep_at, _texts, _two_deadlines

pytestmark = pytest.mark.django_db


def _pt(player: Player) -> Player:
    return services.do_update_preferences(player, language="pt")


def _portuguese_only(said: str) -> None:
    assert english_left(said) == [], said


def test_civil_disorder_is_told_to_a_portuguese_player_in_portuguese_with_the_moves_said(alice, bob) -> None:
    _pt(alice)
    game = start_game("maracaibo", alice, [bob], deadline_hours=72)
    rules = engine.get("maracaibo")
    seat = seat_of(game, alice)
    while True:  # Alice chooses her setup; Bob never answers
        game.refresh_from_db()
        if seat not in rules.pending(game.state):
            break
        services.do_submit_moves(game.pk, alice, [Command(code=rules.default_move(game.state, seat).code)],
                                 source=Source.API)
    mark = _mark()
    missed: list[str] = []
    with i18n.on_miss(lambda m, c: missed.append(m)):
        _two_deadlines(game)
    said = next(t for t in _texts(alice.email, mark) if "Desordem civil" in t)
    assert f"Desordem civil no jogo #{game.pk}: Bob falhou o prazo duas vezes" in said, said
    assert "por Bob: planejar " in said and "por Bob: guardar " in said, said
    assert "Civil disorder" not in said and "for Bob: plan " not in said
    _portuguese_only(said)
    assert not missed, missed
    heard = next(t for t in _texts(bob.email, mark) if "Civil disorder" in t)
    assert "for Bob: plan " in heard and "for Bob: keep " in heard


def test_a_moderators_rollback_and_time_rules_are_told_in_each_players_language(
        fake_game, alice, bob, moderator) -> None:
    _pt(alice)
    game = start_game(fake_game, alice, [bob], deadline_hours=48)
    mark = _mark()
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "bot", "absences_allowed": 2},
                                  "regra da liga")
    said = _texts(alice.email, mark)[-1]
    assert f"Um moderador mudou a forma como o jogo #{game.pk} trata o tempo (regra da liga):" in said, said
    assert "prazo: 48 horas por turno" in said and "no máximo 2 ausências" in said and "`extend`" in said
    _portuguese_only(said)
    assert f"A moderator changed how game #{game.pk} treats time" in _texts(bob.email, mark)[-1]
    _bid(game, alice)
    _bid(game, bob)
    mark = _mark()
    moderation.do_rollback(game.pk, moderator, 0, "baralho mal dado", confirm_reveals=True)
    said = _texts(alice.email, mark)[-1]
    assert f"Um moderador levou o jogo #{game.pk} de volta à jogada 0" in said and "baralho mal dado" in said, said
    assert "As jogadas desfeitas revelaram informação escondida" in said
    _portuguese_only(said)
    assert f"A moderator took game #{game.pk} back to move 0" in _texts(bob.email, mark)[-1]
    mark = _mark()
    moderators.do_inspect_seat(game.pk, moderator, seat_of(game, bob), "uma queixa")
    said = _texts(alice.email, mark)[-1]
    assert f"Um moderador viu a informação escondida de Bob no jogo #{game.pk}" in said, said
    _portuguese_only(said)
    assert "A moderator looked at Bob's hidden information" in _texts(bob.email, mark)[-1]
    mark = _mark()
    moderators.do_assign_moderator(game.pk, None, moderator.email, lead=True, reason="liga")
    said = _texts(alice.email, mark)[-1]
    assert "é agora o moderador principal do jogo" in said and "Para escrever aos moderadores" in said, said
    mark = _mark()
    moderators.do_enter_absence(game.pk, moderator, seat_of(game, alice), datetime.now(UTC) + timedelta(days=2),
                                "avisou por telefone")
    said = _texts(alice.email, mark)[-1]
    assert f"Um moderador do jogo #{game.pk} registrou a sua ausência (até " in said, said
    assert "Funciona como as suas próprias férias" in said
    _portuguese_only(said)


def test_an_open_seat_is_offered_to_a_portuguese_volunteer_in_portuguese(fake_game, alice, bob, moderator) -> None:
    game = start_game(fake_game, alice, [bob], deadline_hours=48)
    vera = _pt(make_player("vera@example.org", "Vera"))
    moderators.do_volunteer(vera, game.pk)
    moderation.do_set_game_policy(game.pk, moderator, {"no_move_policy": "replace"}, "open league")
    _bid(game, alice)
    mark = _mark()
    _two_deadlines(game)
    said = _texts(vera.email, mark)[-1]
    assert f"Há um lugar livre no jogo #{game.pk}" in said and f"`join {game.pk}`" in said, said
    row = OutboundMessage.objects.filter(to_email=vera.email).latest("pk")
    assert "um lugar para você" in row.subject and "a seat for you" not in row.subject
    _portuguese_only(said)
    assert _sweep_at is not None and mail_text is not None
    assert Game.objects.get(pk=game.pk).status == Game.Status.RUNNING


def test_a_campaigns_stored_results_are_said_in_the_readers_language(alice, bob, carol) -> None:
    from pbem.games import campaign_selectors, campaigns, language
    from pbem.games.models import CampaignEntry
    from tests.factories import play_first_options

    _pt(alice)
    campaign, first = campaigns.do_create_campaign(alice, "maretta", invite=[bob.email, carol.email],
                                                   options={"side": "A"}, games=2, auto_next=False)
    services.do_join_game(first.pk, bob)
    services.do_join_game(first.pk, carol)
    with language.speaking("pt"):  # (a Portuguese player's move ends the game: what is stored stays English)
        play_first_options(first.pk)
        campaigns.do_continue_campaign(first.pk)  # (its task, run here: this test's transaction never commits)
    entry = CampaignEntry.objects.get(campaign=campaign, action="finished")
    assert entry.details["result"].startswith(f"Game 1 (#{first.pk}): ")  # stored once, in English
    with language.speaking("pt"):
        said = campaign_selectors.story_so_far(campaign)
        page = campaign_selectors.campaign_data(campaign)
    assert f"Jogo 1 (#{first.pk}): " in said and ("ganho por " in said or "sem vencedor" in said), said
    assert "Campanha de Maretta" in said and "Maretta campaign" not in said, said
    assert f"Game 1 (#{first.pk})" not in said and "won by" not in said
    story = next(s["text"] for s in page["story"] if s["action"] == "finished")
    assert story.startswith(f"Jogo 1 (#{first.pk}): ")
    assert page["games"][0]["title"] == "Campanha de Maretta, jogo 1"
    english = campaign_selectors.story_so_far(campaign)
    assert f"Game 1 (#{first.pk}): " in english and "Maretta campaign" in english
    _portuguese_only(said)
    # QA (#27): "Game 1 (#1): won by" where only the service's words were Portuguese (Django's language,
    # not the engine's), and for a game no longer kept (deleted; an imported campaign's): said again
    from django.utils import translation

    with translation.override("pt"):
        assert f"Jogo 1 (#{first.pk}): " in campaign_selectors.story_so_far(campaign)
    Game.objects.filter(pk=first.pk).update(outcome=None)
    CampaignEntry.objects.filter(pk=entry.pk).update(game=None)
    with language.speaking("pt"):
        gone = campaign_selectors.story_so_far(campaign)
    assert f"Jogo 1 (#{first.pk}): " in gone and "won by" not in gone and "no winner" not in gone, gone
    assert entry.details["result"].split("; ", 1)[1] in gone  # (names and scores as stored)
    assert campaign_selectors.said_result_again("Game 2 (#9): no winner; Ana 3, Bruno 3") == (
        "Game 2 (#9): no winner; Ana 3, Bruno 3")
    with language.speaking("pt"):
        assert campaign_selectors.said_result_again("Game 2 (#9): no winner; Ana 3, Bruno 3") == (
            "Jogo 2 (#9): sem vencedor; Ana 3, Bruno 3")
        assert campaign_selectors.said_result_again("anything else") == "anything else"


def test_a_portuguese_moderators_mails_are_portuguese(alice, bob, carol, dave) -> None:
    """QA (#27): the mails only moderators get (a new moderator's command address and commands, a
    player's `moderator ...` mail passed on, a game waiting for a late seat, a bouncing address) were
    English to a Portuguese moderator; an English moderator still reads English."""
    from pbem.games import moderation

    game = start_game("maretta", alice, [bob, dave], options={"side": "A"})
    nora = _pt(make_player("nora@example.org", "Nora"))
    mark = _mark()
    moderators.do_assign_moderator(game.pk, None, nora.email, lead=True, reason="liga")
    said = _texts(nora.email, mark)[-1]
    assert f"É agora o moderador principal do jogo #{game.pk}" in said and "O seu endereço de comandos" in said, said
    assert "Comandos, um por linha" in said and "pause MOTIVO" in said, said
    _portuguese_only(said)
    moderators.do_assign_moderator(game.pk, None, carol.email, lead=False, reason="league")
    mark = _mark()
    moderators.do_write_to_moderator(game.pk, alice, "Bob has not moved for a week")
    said, heard = _texts(nora.email, mark)[-1], _texts(carol.email, mark)[-1]
    assert "escreve aos moderadores" in said and "Responda a esta mensagem para responder só a Alice" in said, said
    assert "Página do jogo: " in said and "Game page" not in said
    _portuguese_only(said)
    assert "writes to the moderators" in heard and "Reply to this mail to answer Alice alone" in heard, heard
    mark = _mark()
    from pbem.mail import outbox
    game.refresh_from_db()
    outbox.queue_to_moderators(game, moderation.moderator_emails(game), "nobody on the standby list")
    said, heard = _texts(nora.email, mark)[-1], _texts(carol.email, mark)[-1]
    assert "Página de moderador: " in said and "Moderator page" not in said, said
    assert "Moderator page: " in heard, heard
