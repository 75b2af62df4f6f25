"""bench/pipeline.py's driver chooses its move as a player does, from the mails its players got
(issue 28: reading the game and asking the engine cost the bench's drivers 20 ms a move on the
cores the pipeline is measured on). If the mails' wording of the options changes, the bench would
choose wrong moves and time out: this reads real mails of real games with the bench's own reader
and checks it finds exactly the seats the engine waits for and the codes it offers them."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail as django_mail

import engine
from bench.pipeline import asked
from pbem.games.models import Game, Seat
from pbem.mail.outbox import reply_address
from tests.mail.conftest import Persona, start_game

pytestmark = pytest.mark.django_db(transaction=True)


def _mails_to(person: Persona, since: int) -> list[bytes]:
    return [m.message().as_bytes() for m in django_mail.outbox[since:] if person.email in m.to]


@pytest.mark.parametrize(("rules", "options"), [("maretta", {"side": "A"}), ("maracaibo", {})])
def test_the_bench_driver_finds_the_seat_to_move_and_its_codes_in_the_mails(
    rules: str, options: dict[str, Any], ana: Persona, bruno: Persona, carla: Persona
) -> None:
    people = [ana, bruno, carla]
    game = start_game(rules, people, options=options)
    game_rules = engine.get(rules)
    asks: dict[str, list[str]] = {}  # the seats' reply addresses a mail asked, with its codes
    last: dict[str, list[str]] = {}
    seen = 0
    answered_at_once = 0
    for move in range(12):
        for person in people:
            for raw in _mails_to(person, seen):
                reply_to, codes = asked(raw)
                if codes is None:
                    asks.pop(reply_to, None)
                    continue
                asks[reply_to] = last[reply_to] = codes or last[reply_to]  # "the same as in my last mail"
        seen = len(django_mail.outbox)
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING and game.state is not None
        pending = game_rules.pending(game.state)
        seats = {s.index: s for s in Seat.objects.filter(game=game).select_related("player")}
        # in the order the mails list them (Rules.presented: Maretta's as the hand is shown)
        expected = {reply_address(seats[i]): [o.code for o in game_rules.presented(
            game.state, i, game_rules.options(game.state, i))] for i in pending}
        assert asks == expected, f"move {move}: the mails ask {sorted(asks)}, the engine waits for {pending}"
        # Every seat asked answers its own mail before anyone reads the next ones (the bench's
        # drivers answer each seat asked at once, as players choosing at the same time do): each
        # answer, written from the options its mail listed, is applied.
        for reply_to, codes in sorted(asks.items()):
            mover = next(seats[i] for i in pending if reply_address(seats[i]) == reply_to)
            assert mover.player is not None
            person = next(p for p in people if p.email == mover.player.email)
            recorded = game.moves_recorded
            person.send_to(reply_to, codes[move % len(codes)])  # choices spread over the options
            del asks[reply_to]
            game.refresh_from_db()
            assert game.moves_recorded > recorded, f"move {move}: {codes[move % len(codes)]} was not applied"
        answered_at_once = max(answered_at_once, len(expected))
    if rules == "maretta":  # its cards are chosen by every seat at once
        assert answered_at_once == len(people)
