"""A line understood by a guess says so, to the player who typed it and nobody else."""

from __future__ import annotations

from pbem.games import services
from pbem.games.models import Game, Move, Source
from pbem.games.services import Command
from tests.factories import seat_of, start_game


def _hand(game: Game, seat: int) -> list[int]:
    assert game.state is not None
    return list(game.state["hands"][seat])


def test_it_logs_what_a_guessed_word_was_read_as_for_the_typist_only(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    seat = seat_of(game, alice)
    card = _hand(game, seat)[0]
    services.do_submit_moves(game.pk, alice, [Command(text=f"biid {card}")], source=Source.MAIL)
    row = Move.objects.get(game=game)
    assert row.move == {"code": f"c{card}"}
    notes = [e for e in row.events if e["kind"] == "read_as"]
    assert [(e["text"], e["to"]) for e in notes] == [("Your line was understood by a guess: read `biid` as bid.",
                                                      [seat])]


def test_it_adds_no_note_when_nothing_was_guessed(fake_game, alice, bob):
    game = start_game(fake_game, alice, [bob])
    card = _hand(game, seat_of(game, alice))[0]
    services.do_submit_moves(game.pk, alice, [Command(text=f"bid {card}")], source=Source.MAIL)
    assert [e["kind"] for e in Move.objects.get(game=game).events] == ["choose", "choose_own"]
