"""A complete game of Caravelas II, played only by mail over a real SMTP socket.

Like the Maretta game next door: two people read only their own mail and reply to
it. A sailor choosing at random almost never ends Caravelas, so these two read
their mail the way a player does: they bring cargo home, draw discovery cards
when short of them, and sail for the places named on their own discovery cards.
The target score is lowered (an option of the game) to keep the suite quick.
"""

from __future__ import annotations

import random
import re

import pytest

from pbem.games.models import Game, InboundMessage, Move
from tests.mail.conftest import Persona, text_of
from tests.mail.test_maretta_by_mail import GENERAL, Player, is_game_over, options_to_answer, play_until_over
from tests.mail.volume import check_mail_volume, print_figures

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def my_discoveries(body: str) -> set[str]:
    """The place names under "Your discovery cards:"."""
    lines = body.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Your discovery cards"):
            names = set()
            for entry in lines[i + 1:]:
                m = re.match(r"^  (\S.*?) \(", entry)
                if not m:
                    break
                names.add(m.group(1).lower())
            return names
    return set()


def my_cargo(body: str) -> bool:
    m = re.search(r"<- you.*\n\s+cargo: (.*?);", body)
    return bool(m and m.group(1) != "empty")


class Sailor(Player):
    def act(self) -> bool:
        newest = self.newest()
        mid = str(newest["Message-ID"])
        if mid in self.answered:
            return False
        body = text_of(newest)
        options = options_to_answer(self.persona.inbox(), newest)
        if not options:
            return False
        targets = my_discoveries(body)
        by_label = {label.lower(): (code, label) for code, label in options}
        choice = None
        if my_cargo(body) and "deliver" in by_label:
            choice = by_label["deliver"]
        elif len(targets) <= 2 and "draw" in by_label:
            choice = by_label["draw"]
        else:
            for code, label in options:
                if any(label.lower().endswith(f" to {t}") for t in targets):
                    choice = (code, label)
                    break
        code, label = choice or self.rnd.choice(options)
        self.persona.reply(newest, self.rnd.choice([code, label]))
        self.answered.add(mid)
        self.replies += 1
        return True


def test_it_plays_a_complete_game_of_caravelas_by_mail(ana: Persona, bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new caravelas with {bruno.email} target=10")
    invitation = bruno.latest()
    assert "invites you to play Caravelas II" in text_of(invitation)
    bruno.reply(invitation, "join")

    rnd = random.Random(7)
    players = [Sailor(p, rnd) for p in (ana, bruno)]
    replies = play_until_over(list(players), rnd, shuffle=False)

    for p in players:
        over = next(m for m in p.persona.inbox() if is_game_over(m))
        assert "Winner" in text_of(over)
    game = Game.objects.get(rules="caravelas")
    assert game.status == Game.Status.FINISHED and game.options["target"] == 10
    moves = Move.objects.filter(game=game)
    assert {m.source for m in moves} == {"mail"}
    assert InboundMessage.objects.filter(game=game, status=InboundMessage.Status.APPLIED).count() == moves.count() + 1
    print(f"caravelas: {replies} replies by mail")
    figures = check_mail_volume(game, [ana, bruno])
    print_figures("caravelas", figures)
    # the small picture fits every mail that asks for a decision
    assert all(f["pictures"] == f["asking"] for f in figures.values()), figures
