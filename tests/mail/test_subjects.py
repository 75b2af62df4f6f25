"""Subjects say what a mail is (issue 21), after the game's topic that keeps the thread.

"[pbem #12] Title: your turn, round II" / ": Bob moved" / ": game over"; every mail of a game
still answers the game's root id (In-Reply-To/References) and carries the constant
Thread-Topic, so the clients that thread by headers keep one thread (docs/mail.md).
"""

from __future__ import annotations

import pytest

import engine
from pbem.games import links
from pbem.games import services as game_services
from pbem.games.models import Game, Player, Seat
from pbem.games.services import Command
from pbem.mail import outbox
from tests.mail.conftest import Persona, start_game

pytestmark = pytest.mark.django_db(transaction=True)


def _play(game: Game, person: Persona, seat: int) -> None:
    game.refresh_from_db()
    assert game.state is not None
    opt = engine.get(game.rules).options(game.state, seat)[0]
    game_services.do_submit_moves(game.pk, Player.objects.get(email=person.email), [Command(code=opt.code)],
                                  source="web")


def _subjects(person: Persona, game: Game) -> list[str]:
    topic = f"[pbem #{game.pk}] {game.title}"
    out = []
    for m in person.inbox():
        assert m["In-Reply-To"] == outbox.thread_id(game) or str(m["Subject"]).startswith("Re: ")
        assert outbox.thread_id(game) in str(m["References"])
        if not str(m["Subject"]).startswith("Re: "):
            assert m["Thread-Topic"] == topic
        out.append(str(m["Subject"]).removeprefix(f"{topic}: "))
    return out


def test_it_says_in_the_subject_whose_turn_and_who_moved_and_that_the_game_is_over(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona) -> None:
    assert _subjects(ana, bids_game) == ["your turn, round I"]
    _play(bids_game, ana, 0)
    _play(bids_game, bruno, 1)
    # Ana bid and waits for Carla: in mode "all" she hears that Bruno moved, Carla that it is her turn
    assert _subjects(ana, bids_game)[-1] == "Bruno moved"
    assert _subjects(carla, bids_game)[-1] == "your turn, round I"
    _play(bids_game, carla, 2)
    assert _subjects(ana, bids_game)[-1] == "your turn, round II"
    bids_game.refresh_from_db()
    while bids_game.status == Game.Status.RUNNING:
        for seat, person in enumerate((ana, bruno, carla)):
            _play(bids_game, person, seat)
        bids_game.refresh_from_db()
    for person in (ana, bruno, carla):
        assert _subjects(person, bids_game)[-1] == "game over"


def test_it_names_a_resignation_in_the_subject_of_the_notice_to_the_others(
        bids_game: Game, ana: Persona, bruno: Persona, carla: Persona) -> None:
    before = len(ana.inbox())
    game_services.do_resign(bids_game.pk, Player.objects.get(email=bruno.email))
    told = _subjects(ana, bids_game)[before:]
    assert "Bruno resigned" in told
    notice = next(m for m in ana.inbox()[before:] if str(m["Subject"]).endswith(": Bruno resigned"))
    body = notice.get_body(preferencelist=("plain",)).get_content()  # type: ignore[union-attr]
    assert "Bruno resigned from game" in body
    # it links Ana's own page (her hand, her options), not the public one
    assert links.seat_page_url(Seat.objects.get(game=bids_game, player__email=ana.email)) in body
    assert f"/games/{bids_game.pk}/" not in body
    assert "Bruno resigned" in _subjects(carla, bids_game)


def test_it_numbers_a_maracaibo_round_as_the_rulebook_does(ana: Persona, bruno: Persona) -> None:
    game = start_game("maracaibo", [ana, bruno])
    # the simultaneous setup (plan one card, keep four) asks both seats at once in round I
    assert _subjects(ana, game) == ["your turn, round I"]
    assert _subjects(bruno, game) == ["invitation", "your turn, round I"]
    assert [outbox.roman(n) for n in (1, 2, 3, 4, 9, 14)] == ["I", "II", "III", "IV", "IX", "XIV"]


def test_it_says_the_subject_in_the_readers_language(ana: Persona, bruno: Persona, carla: Persona) -> None:
    # QA (issue 27): a Portuguese player's subject said "your turn" in English
    game_services.do_update_preferences(game_services.do_get_or_create_player(ana.email), language="pt")
    game = start_game("maretta", [ana, bruno, carla], options={"side": "A"})
    assert _subjects(ana, game)[-1].startswith("é a sua vez"), _subjects(ana, game)
    assert _subjects(bruno, game)[-1].startswith("your turn"), _subjects(bruno, game)
    _play(game, bruno, 1)
    _play(game, ana, 0)
    said = _subjects(ana, game)[-1]
    assert "your turn" not in said and " moved" not in said and "waiting for" not in said, said


def test_it_says_the_thread_topic_in_the_readers_language(ana: Persona, bruno: Persona) -> None:
    # QA (issue 27): the subject was Portuguese, its Thread-Topic header (Outlook's thread) English
    game_services.do_update_preferences(game_services.do_get_or_create_player(ana.email), language="pt")
    game = start_game("maracaibo", [ana, bruno])
    assert game.title == "Maracaibo (substitute content)"
    said, heard = ana.inbox(), bruno.inbox()
    assert said and heard
    for m in said:  # (an encoded header reads back with the folding's space)
        topic = " ".join(str(m["Thread-Topic"]).split())
        assert topic == f"[pbem #{game.pk}] Maracaibo (conteúdo substituto)", topic
        assert " ".join(str(m["Subject"]).split()).startswith(f"{topic}: ")
    for m in heard:
        assert m["Thread-Topic"] == f"[pbem #{game.pk}] {game.title}", m["Thread-Topic"]
