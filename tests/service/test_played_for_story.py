"""Moves a player did not choose are told as such in the story of every later mail (issue 24:
"the next warning says 'You plan Pious Sailor' as if the absent player had"), in a real game:
Maracaibo, one absent player's setup played by civil disorder, a moderator's move for a seat."""

from __future__ import annotations

from datetime import timedelta

import time_machine

import engine
from pbem.games import moderation, services
from pbem.games.models import OutboundMessage, Player, Source
from pbem.games.services import Command
from tests.factories import mail_text, seat_of, start_game

RULES = engine.get("maracaibo")


def _story(player: Player, since: int) -> list[str]:
    texts = [mail_text(m) for m in OutboundMessage.objects.filter(to_email=player.email, pk__gt=since)]
    return [line.strip() for t in texts if "Since your last mail:" in t
            for line in t.split("Since your last mail:")[1].split("\n\n")[0].splitlines() if line.strip()]


def test_it_tells_moves_played_for_an_absent_player_as_not_their_choice(alice, bob, moderator):
    game = start_game("maracaibo", alice, [bob], deadline_hours=72)
    a = seat_of(game, alice)
    while a in RULES.pending(game.state):
        services.do_submit_moves(game.pk, alice, [Command(code=RULES.default_move(game.state, a).code)],
                                 source=Source.API)
        game.refresh_from_db()
    mark = OutboundMessage.objects.order_by("-pk").first().pk
    for _ in range(2):  # the reminder, then civil disorder plays Bob's whole setup
        game.refresh_from_db()
        with time_machine.travel(game.deadline_at + timedelta(minutes=1), tick=False):
            moderation.do_sweep_deadlines()
    bobs = _story(bob, mark)
    said = bobs.index("- Civil disorder: you missed the deadline, so the game played for you (not your own choice):")
    assert bobs[said + 1].startswith("- You plan ")  # the moves follow the line that says whose they are
    assert any(line.startswith("- Civil disorder: Bob missed the deadline") for line in _story(alice, mark))
    game.refresh_from_db()
    mark = OutboundMessage.objects.order_by("-pk").first().pk
    code = RULES.default_move(game.state, a).code
    moderation.do_move_for_seat(game.pk, moderator, a, [Command(code=code)], "Alice phoned it in")
    b = seat_of(game, bob)
    for _ in range(60):  # Alice plays the rest of her turn herself
        game.refresh_from_db()
        if b in RULES.pending(game.state) or a not in RULES.pending(game.state):
            break
        services.do_submit_moves(game.pk, alice, [Command(code=RULES.default_move(game.state, a).code)],
                                 source=Source.API)
    told = _story(bob, mark)
    assert told[told.index("- A moderator moved for Alice:") + 1].startswith("- Alice sails"), told
    assert sum(line.startswith("- A moderator moved") for line in told) == 1  # her own moves are hers
