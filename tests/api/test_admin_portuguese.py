"""The admin's pages a moderator uses, in the moderator's language (#27): the moderator page was
Portuguese for a Portuguese moderator, the others (a player replaced, the bulk action's reason, the
campaign forms, the lists) English. Through the real door: Django's test client, signed in."""

from __future__ import annotations

from pbem.games import services
from pbem.games.models import Game, Player
from tests.factories import make_player, play_first_options, seat_of, start_game
from tests.mail.test_language_by_mail import english_left


def _portuguese(moderator) -> None:  # type: ignore[no-untyped-def]
    services.do_update_preferences(moderator, language="pt")


def test_the_replace_page_speaks_the_moderators_language(fake_game, alice, bob, moderator, client):
    game = start_game(fake_game, alice, [bob])
    _portuguese(moderator)
    client.force_login(moderator.user)
    url = f"/admin/games/game/{game.pk}/replace/"
    page = client.get(url).content.decode()
    for said in (f"Substituir um jogador no jogo #{game.pk}", "Substituir o jogador", "Endereço",
                 "Fica no registro de auditoria da moderação.", "O novo jogador fica com o lugar",
                 "lugar 1:"):  # (seats counted from 1)
        assert said in page, said
    for english in ("Replace the player", "The new player's address", "Kept in the moderation audit log",
                    "The new player takes the seat"):
        assert english not in page, english
    assert english_left(page) == [], english_left(page)
    # a form error and the service's refusal, in Portuguese too
    refused = client.post(url, {"seat": seat_of(game, bob), "email": "not an address", "reason": "x"}).content.decode()
    assert "Endereço" in refused and "Enter a valid email address" not in refused
    seat = seat_of(game, bob)
    done = client.post(url, {"seat": seat, "email": "dina@example.org", "reason": "Bob saiu"},
                       follow=True).content.decode()
    assert f"O lugar {seat + 1} do jogo #{game.pk} agora é de dina@example.org." in done
    # an English moderator reads it in English
    services.do_update_preferences(moderator, language="en")
    assert "Replace the player" in client.get(url).content.decode()


def test_the_bulk_actions_reason_and_the_games_list_speak_the_moderators_language(fake_game, alice, bob, moderator,
                                                                                  client):
    game = start_game(fake_game, alice, [bob])
    _portuguese(moderator)
    client.force_login(moderator.user)
    listing = client.get("/admin/games/game/").content.decode()
    for said in ("Pausar os jogos selecionados", "Retomar os jogos selecionados", "precisa de um moderador",
                 "Página do moderador…"):
        assert said in listing, said
    assert "Pause the selected games" not in listing and "needs a moderator" not in listing
    # the list's columns and filters (a field's own English name before: "deadline at", "no move policy")
    for said in (">Título<", ">Estado<", ">Prazo<", ">Quando um jogador não joga<", ">Criado por<", "Por estado",
                 "Por jogo", "Por quando um jogador não joga"):
        assert said in listing, said
    for english in (">Title<", ">Deadline at<", ">No move policy<", "By status", "By no move policy"):
        assert english not in listing, english
    ask = client.post("/admin/games/game/", {"action": "pause_games", "_selected_action": [game.pk]}).content.decode()
    for said in ("Por que estes jogos são pausados?", "Os jogadores de cada jogo e o registro de auditoria leem",
                 'value="Pausar"', "Motivo"):
        assert said in ask, said
    assert "Why are these games" not in ask and "read the reason" not in ask
    done = client.post("/admin/games/game/", {"action": "pause_games", "_selected_action": [game.pk],
                                              "reason": "disputa"}, follow=True).content.decode()
    assert "1 jogo pausado." in done
    assert Game.objects.get(pk=game.pk).status == Game.Status.PAUSED


def test_the_campaign_form_speaks_the_moderators_language(moderator, client, db):
    _portuguese(moderator)
    client.force_login(moderator.user)
    page = client.get("/admin/games/campaign/new/").content.decode()
    for said in ("Nova campanha", "Uma série de jogos de um grupo", "Os endereços do grupo, um por linha",
                 "Prazo (horas)", "Próximo jogo automático", 'value="Criar"'):
        assert said in page, said
    for english in ("New campaign", "A series of games", "The group's addresses", 'value="Create"'):
        assert english not in page, english
    assert english_left(page) == [], english_left(page)
    refused = client.post("/admin/games/campaign/new/", {"name": "Liga", "rules": "maracaibo", "players": "a@x.org",
                                                         "options": "{nope", "deadline_hours": 72}).content.decode()
    assert "não é JSON" in refused and "not JSON" not in refused


def test_a_staff_account_without_a_player_reads_the_admin_in_english(db, client):
    staff = make_player("root@example.org", "Root")
    staff.user.is_staff = True
    staff.user.is_superuser = True
    staff.user.save(update_fields=["is_staff", "is_superuser"])
    client.force_login(staff.user)
    assert "New campaign" in client.get("/admin/games/campaign/new/").content.decode()


def test_the_campaigns_list_speaks_the_moderators_language(moderator, client, db):
    _portuguese(moderator)
    client.force_login(moderator.user)
    listing = client.get("/admin/games/campaign/").content.decode()
    for said in ("Campanhas (uma nova: /admin/games/campaign/new/)", "Por estado", "Por jogo"):
        assert said in listing, said
    for english in ("By status", "By rules"):
        assert english not in listing, english


#: the staff's other lists (#27): a column of each, a filter, in Portuguese and as they were in English
OTHER_LISTS = {
    "player": ([">Nome exibido<", ">Modo de e-mail<", "Por modo de e-mail"], [">Display name<", "By mail mode"]),
    "seat": ([">Jogador<", ">Entrou em<", "Por estado"], [">Joined at<", "By status"]),
    "move": ([">Número<", ">Origem<", ">Desfeito em<", "Por origem", "Por desfeito em"],
             [">Source<", ">Undone at<", "By source", "By undone at"]),
    "moverequest": ([">Versão resultante<", ">Decidido em<", "Por estado"], [">Result version<", "By status"]),
    "inboundmessage": ([">Remetente<", ">Recebido em<", ">Id da mensagem<"], [">Mail from<", ">Received at<"]),
    "outboundmessage": ([">Destinatário<", ">Assunto<", ">Tentativas<", "Por estado"],
                        [">To email<", ">Subject<", ">Attempts<"]),
    "auditentry": ([">Criado em<", ">Autor<", ">Ação<", ">Motivo<", "Por ação"], [">Created at<", ">Actor<"]),
    "mailaddress": ([">Pontos de devolução<", ">Tipo de devolução<", ">Desativado em<", "Por tipo de devolução"],
                    [">Bounce score<", ">Bounce kind<", "By bounce kind"]),
}


def _a_row_in_every_list(game: Game, bob: Player) -> None:
    from pbem.games.models import AuditEntry, InboundMessage, MailAddress, MoveRequest

    play_first_options(game.pk, until_finished=False, limit=1)
    MoveRequest.objects.create(game=game, player=bob, commands=["x"], expected_version=game.version)
    InboundMessage.objects.create(message_id="<m1@example.org>", raw=b"Subject: x\r\n\r\nx", mail_from=bob.email,
                                  rcpt_to="seat-secret@example.org", game=game)
    MailAddress.objects.create(email=bob.email, bounce_score=1.0, bounce_kind="soft")
    AuditEntry.objects.create(game=game, actor=bob, action="pause", details={"reason": "x"})


def test_the_staffs_other_lists_and_pages_speak_the_moderators_language(fake_game, alice, bob, moderator, client):
    game = start_game(fake_game, alice, [bob])
    _a_row_in_every_list(game, bob)
    _portuguese(moderator)
    client.force_login(moderator.user)
    for model, (said, english) in OTHER_LISTS.items():
        listing = client.get(f"/admin/games/{model}/").content.decode()
        for text in said:
            assert text in listing, (model, text)
        for text in english:
            assert text not in listing, (model, text)
    # the rows' own names (the models' names: breadcrumbs, titles, the game page's seats heading)
    names = {"player": "Jogadores", "seat": "Lugares", "move": "Jogadas", "moverequest": "Pedidos de jogada",
             "inboundmessage": "E-mails recebidos", "outboundmessage": "E-mails enviados",
             "auditentry": "Registros de auditoria", "mailaddress": "Endereços de e-mail"}
    for model, plural in names.items():
        listing = client.get(f"/admin/games/{model}/").content.decode()
        assert f"&rsaquo; {plural}\n" in listing, (model, plural)  # (the breadcrumbs)
    assert ">Jogos<" in client.get("/admin/").content.decode()
    # a change page's fields, and a seat's token and a mail's secret address stay out of sight
    seat = game.seats.get(index=1)
    page = client.get(f"/admin/games/seat/{seat.pk}/change/").content.decode()
    for text in ("Última versão enviada:", "Entrou em:", "Jogador:", "Índice:"):
        assert text in page, text
    assert "Last mailed version" not in page and "Joined at" not in page and seat.token not in page
    inbound = client.get(f"/admin/games/inboundmessage/{game.inbound.get().pk}/change/").content.decode()
    assert "Remetente:" in inbound and "Processado em:" in inbound and "seat-secret" not in inbound
    # the game's page too: its fields and its seats' columns
    page = client.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    for text in ("Hash da semente:", "Começado em:", "Prolongamentos permitidos:", "Última versão enviada"):
        assert text in page, text
    assert "Seed hash" not in page and "Started at" not in page
    assert ">Lugares<" in page and ">Seats<" not in page, page
    # an English moderator reads them as they were: the fields' names
    services.do_update_preferences(moderator, language="en")
    for model, (_said, english) in OTHER_LISTS.items():
        listing = client.get(f"/admin/games/{model}/").content.decode()
        for text in english:
            assert text in listing, (model, text)
    page = client.get(f"/admin/games/seat/{seat.pk}/change/").content.decode()
    assert "Last mailed version:" in page and "Joined at:" in page
    assert "<title>Select seat to view" in client.get("/admin/games/seat/").content.decode()
