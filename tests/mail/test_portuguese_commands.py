"""The moderator's and the account's mail commands in Portuguese beside the English ones (#27): a
Portuguese moderator wrote `pausar`, a Portuguese player `jogos`, and got "unknown command" or "is not a
command here". Through the mail door (the SMTP socket): each line understood whole or refused with its
real reason, and the help lists the Portuguese words."""

from __future__ import annotations

import pytest

from pbem.games import moderators, services
from pbem.games.models import AuditEntry, Game, GameModerator, InboundMessage, Player
from tests.factories import make_player, token_client
from tests.mail.conftest import Persona, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


@pytest.fixture
def nora(smtp_server) -> Persona:  # type: ignore[no-untyped-def]
    return Persona("nora@example.org", "Nora", smtp_server)


def _moderated_by(game: Game, nora: Persona, language: str) -> str:
    staff = make_player("staff@example.org", "Staff")
    staff.user.is_staff = True
    staff.user.save(update_fields=["is_staff"])
    services.do_update_preferences(make_player(nora.email, "Nora"), language=language)
    r = token_client(staff).post(f"/api/v1/games/{game.pk}/moderators/", {"email": nora.email, "lead": True,
                                                                          "reason": "rota"}, format="json")
    assert r.status_code == 200, r.content
    return moderators.command_address(GameModerator.objects.get(game=game, player__email=nora.email))


def test_a_moderator_commands_in_portuguese_by_mail(bids_game: Game, ana: Persona, nora: Persona) -> None:
    address = _moderated_by(bids_game, nora, "pt")
    welcome = text_of(nora.latest())
    assert "pausar MOTIVO" in welcome and "substituir 3 por a@example.org" in welcome
    nora.send_to(address, "prolongar 2d tempestade no porto\nmensagem Sejam amáveis.\npausar uma disputa")
    assert InboundMessage.objects.order_by("-id").first().status == InboundMessage.Status.APPLIED  # type: ignore[union-attr]
    assert Game.objects.get(pk=bids_game.pk).status == Game.Status.PAUSED
    answer = text_of(nora.latest())
    assert answer.count("feito:") == 3 and "não feito" not in answer, answer
    assert AuditEntry.objects.get(game=bids_game, action="extend").details["hours"] == 48
    assert any("Sejam amáveis." in text_of(m) for m in ana.inbox())
    # a line in a word of neither language is refused with what the commands are; the others run
    nora.send_to(address, "pular 3 porque sim\nsubstituir 7 por x@example.org ninguém\nretomar resolvido")
    answer = text_of(nora.latest())
    assert "'pular' não é um comando de moderador: pausar, retomar" in answer, answer
    assert "tem os lugares 1 a 3, não 7" in answer, answer  # seats counted from 1, as the game page does
    assert Game.objects.get(pk=bids_game.pk).status == Game.Status.RUNNING
    # English words still work for her, and the other way round for an English moderator
    nora.send_to(address, "pause again")
    assert Game.objects.get(pk=bids_game.pk).status == Game.Status.PAUSED


def test_an_english_moderator_may_write_portuguese_and_is_told_the_real_reason(bids_game: Game,
                                                                               nora: Persona) -> None:
    address = _moderated_by(bids_game, nora, "en")
    assert "In Portuguese too: pausar, retomar" in text_of(nora.latest())
    nora.send_to(address, "pausar a dispute\nfrobnicate 2")
    answer = text_of(nora.latest())
    assert "done: paused" in answer and "'frobnicate' is not a moderator command: pause, resume" in answer, answer
    assert Game.objects.get(pk=bids_game.pk).status == Game.Status.PAUSED


def test_a_player_writes_the_account_commands_in_portuguese(bids_game: Game, ana: Persona) -> None:
    from datetime import UTC, datetime, timedelta

    Player.objects.filter(email=ana.email).update(language="pt")
    back = (datetime.now(UTC) + timedelta(days=40)).date()
    ana.send_to(GENERAL, f"jogos\nmodo resumo\nnome Ana Silva\nférias até {back.isoformat()}")
    answer = text_of(ana.latest())
    assert "não feito" not in answer, answer
    player = ana.player
    assert player.mail_mode == Player.MailMode.DIGEST and player.display_name == "Ana Silva"
    assert player.vacation_until is not None and player.vacation_until.date() == back
    ana.send_to(GENERAL, "férias fim\nmodo turno\nxyzzy")
    answer = text_of(ana.latest())
    player = ana.player
    assert player.vacation_until is None and player.mail_mode == Player.MailMode.MY_TURN
    assert "'xyzzy' não é um comando aqui (ajuda, jogos, novo" in answer, answer
    ana.send_to(GENERAL, "ajuda")
    assert "Os mesmos comandos em português: ajuda, jogos, novo JOGO com ENDEREÇO" in text_of(ana.latest())


def test_a_new_game_and_an_invitation_answered_in_portuguese(blindbids: str, ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"novo {blindbids} com {bruno.email}")
    game = Game.objects.order_by("-id").first()
    assert game is not None and game.rules == blindbids
    bruno.send_to(GENERAL, f"entrar #{game.pk}")
    assert game.seats.filter(player__email=bruno.email).exists()
    ana.send_to(GENERAL, "help")
    assert "In Portuguese too: ajuda, jogos" in text_of(ana.latest())
