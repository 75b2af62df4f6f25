"""A complete solo game of Maracaibo against Jean, the automa, played only by mail over a real SMTP socket.

One person: ``new maracaibo difficulty=2`` to the general address starts the game at
once (one seat; Jean is no player and gets no mail). Every turn is one mail of three
lines (sail as far as offered, no main action, done), after which the engine plays
Jean's turn itself: her turns come back as events in the player's next mail.
"""

from __future__ import annotations

import random
import re
from email.message import EmailMessage
from typing import Any

import pytest

from pbem.games.models import Game, Move, Seat
from pbem.games.pages import seat_page
from tests.mail.conftest import Persona, sent_messages, text_of
from tests.mail.test_maracaibo_by_mail import Captain
from tests.mail.test_maretta_by_mail import GENERAL, is_game_over, play_until_over
from tests.mail.volume import check_mail_volume, print_figures

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


class GameMailReader:
    """A person who reads the game's own mails: the answer to ``new`` arrives after the game's first mail."""

    def __init__(self, persona: Persona) -> None:
        self.persona = persona

    def latest(self) -> EmailMessage:
        return [m for m in self.persona.inbox() if str(m["Subject"]).removeprefix("Re: ").startswith("[pbem #")][-1]

    def __getattr__(self, name: str) -> Any:
        return getattr(self.persona, name)


def test_it_plays_a_complete_solo_game_of_maracaibo_against_jean_by_mail(ana: Persona) -> None:
    ana.send_to(GENERAL, "new maracaibo difficulty=2")
    assert "is created and started" in text_of(ana.latest()) or any(
        "is created and started" in text_of(m) for m in ana.inbox())

    subjects = [str(m["Subject"]) for m in ana.inbox()]
    assert len(subjects) == 2 and subjects[0].startswith("[pbem #")  # the game's first mail, then the answer
    rnd = random.Random(5)
    player = Captain(GameMailReader(ana), rnd)  # type: ignore[arg-type]
    replies = play_until_over([player], rnd)

    game = Game.objects.get(rules="maracaibo")
    assert game.status == Game.Status.FINISHED
    assert game.options["difficulty"] == 2
    assert list(game.seats.values_list("status", flat=True)) == [Seat.Status.JOINED]
    assert game.state is not None and game.state["players"] == [ana.player.display_name]
    out = game.outcome or {}
    assert set(out["automa"]) == {"Jean"} and out["ranking"] == [[0]]
    assert out["winners"] == ([0] if out["scores"]["0"] > out["automa"]["Jean"] else [])

    # Jean's turns reached the player as events in their mails, every round
    bodies = [text_of(m) for m in ana.inbox()]
    everything = "\n".join(bodies)
    assert re.search(r"Jean reveals her card [ABC]\d", everything)
    assert re.search(r"Jean sails to \d+", everything)
    for rnd_no in (1, 2, 3, 4):
        assert f"Jean's turn (round {rnd_no})" in everything
    assert "Jean" in everything and "the automa, difficulty 2" in everything
    over = text_of(next(m for m in ana.inbox() if is_game_over(m)))
    assert re.search(r"^  [12]\. Jean \(automa\): \d+", over, re.M) and "Why it ended: final scoring: " in over

    # the personal page ranks Jean with the player
    page = seat_page(game.seats.get())
    me = ana.player.display_name
    assert [(r.place, r.name) for r in page.results] == (
        [(1, me), (2, "Jean (automa)")] if out["winners"] else [(1, "Jean (automa)"), (2, me)])

    # nobody but the player was written to about the game; every move came by mail
    assert {str(a) for m in sent_messages() for a in [m["To"]]} <= {ana.email, str(ana.latest()["To"])}
    assert {m.source for m in Move.objects.filter(game=game)} == {"mail"}
    print(f"maracaibo solo: {replies} replies, outcome {out}")
    print_figures("maracaibo solo", check_mail_volume(game, [ana]))
