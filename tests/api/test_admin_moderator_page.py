"""The admin's moderator page: what a moderator sees of a game, and its tools as forms."""

from __future__ import annotations

from pbem.games import services
from pbem.games.models import AuditEntry, Game, Move, Source
from tests.factories import seat_of, start_game


def test_it_shows_whose_turn_the_board_and_the_tools(fake_game, alice, bob, moderator, client):
    game = start_game(fake_game, alice, [bob])
    card = game.state["hands"][seat_of(game, alice)][0]
    services.do_submit_moves(game.pk, alice, [services.Command(code=f"c{card}")], source="api")
    client.force_login(moderator.user)
    r = client.get(f"/admin/games/game/{game.pk}/moderate/")
    assert r.status_code == 200
    page = r.content.decode()
    assert "Whose turn" in page and "Bob" in page and bob.email in page
    assert "<svg" in page and "Last moves" in page
    assert 'value="rollback"' in page and 'value="pause"' in page
    # the admin's game list links the page and filters games that need a moderator
    listing = client.get("/admin/games/game/?overdue=yes")
    assert listing.status_code == 200
    assert "Audit entries" in client.get("/admin/").content.decode()


def test_it_runs_a_tool_from_its_form_and_shows_the_services_refusal(fake_game, alice, bob, moderator, client):
    game = start_game(fake_game, alice, [bob])
    client.force_login(moderator.user)
    url = f"/admin/games/game/{game.pk}/moderate/"
    r = client.post(url, {"tool": "move", "seat": seat_of(game, bob) + 1, "line": "bid 999", "reason": "phone"},
                    follow=True)
    assert r.status_code == 200 and not Move.objects.filter(game=game).exists()
    assert "999" in r.content.decode()  # the refusal is shown, nothing applied
    card = game.state["hands"][seat_of(game, bob)][0]
    client.post(url, {"tool": "move", "seat": seat_of(game, bob) + 1, "line": f"c{card}", "reason": "phone"})
    assert Move.objects.get(game=game).source == Source.MODERATOR
    client.post(url, {"tool": "pause", "reason": "dispute"})
    game.refresh_from_db()
    assert game.status == Game.Status.PAUSED
    assert AuditEntry.objects.get(game=game, action="pause").details["reason"] == "dispute"


def test_it_keeps_the_page_from_players(fake_game, alice, bob, client):
    game = start_game(fake_game, alice, [bob])
    client.force_login(alice.user)
    r = client.get(f"/admin/games/game/{game.pk}/moderate/")
    assert r.status_code in (302, 403)


def test_it_assigns_inspects_and_enters_an_absence_from_the_moderator_page(fake_game, alice, bob, moderator, client):
    from pbem.games.models import AuditEntry, GameModerator

    game = start_game(fake_game, alice, [bob])
    client.force_login(moderator.user)
    url = f"/admin/games/game/{game.pk}/moderate/"
    page = client.get(url).content.decode()
    assert 'value="inspect"' in page and 'value="absence"' in page and 'value="moderator"' in page
    client.post(url, {"tool": "moderator", "email": "nora@example.org", "lead": "1", "reason": "rota"})
    assert GameModerator.objects.get(game=game).lead
    r = client.post(url, {"tool": "inspect", "seat": seat_of(game, bob) + 1, "reason": "a dispute"}, follow=True)
    assert "What Bob sees" in r.content.decode()
    from datetime import timedelta

    from django.utils import timezone

    back = (timezone.now() + timedelta(days=20)).replace(microsecond=0, second=0, tzinfo=None)
    client.post(url, {"tool": "absence", "seat": seat_of(game, bob) + 1, "until": back.isoformat(), "reason": "phoned"})
    bob.refresh_from_db()
    assert bob.vacation_until is not None and bob.vacation_until.replace(tzinfo=None) == back
    assert {"moderator-assign", "inspect", "absence"} <= set(AuditEntry.objects.filter(game=game)
                                                          .values_list("action", flat=True))


def test_it_shows_a_portuguese_moderator_the_page_and_its_answers_in_portuguese(fake_game, alice, bob, moderator,
                                                                               client):
    """QA (#27): the moderator page and its tools' answers were English to a Portuguese moderator."""
    from tests.mail.test_language_by_mail import english_left

    game = start_game(fake_game, alice, [bob])
    services.do_update_preferences(moderator, language="pt")
    client.force_login(moderator.user)
    url = f"/admin/games/game/{game.pk}/moderate/"
    page = client.get(url).content.decode()
    for said in ("De quem é a vez", "Últimas jogadas", "Ferramentas", "Motivo", 'value="Pausar"', "Moderar o jogo #"):
        assert said in page, said
    for english in ("Whose turn", "Last moves", "Extend deadline by", 'value="Pause"'):
        assert english not in page, english
    assert english_left(page) == [], english_left(page)
    done = client.post(url, {"tool": "pause", "reason": "disputa"}, follow=True).content.decode()
    assert "Em pausa; os jogadores foram avisados." in done
    services.do_update_preferences(moderator, language="en")
    assert "Whose turn" in client.get(url).content.decode()
