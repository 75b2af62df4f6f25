"""A complete (one-round) game of Maracaibo played only by mail over a real SMTP socket, whole turns in one mail.

Two people read their own mail. The setup choice is one mail of five lines (plan
one dealt card, keep four); every turn is one mail of three lines: sail as far
as the mail offers, no main action, end the main phase (the hand stays full,
so there is nothing to draw). Scoring choices are answered with their code.
"""

from __future__ import annotations

import random
import re

import pytest

from pbem.games.models import Game, InboundMessage, Move
from tests.mail.conftest import Persona, text_of
from tests.mail.test_maretta_by_mail import GENERAL, Player, is_game_over, listed_options, play_until_over
from tests.mail.volume import check_mail_volume

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


class Captain(Player):
    def act(self) -> bool:
        newest = self.persona.latest()
        mid = str(newest["Message-ID"])
        if mid in self.answered:
            return False
        options = listed_options(text_of(newest))
        if not options:
            return False
        codes = [code for code, _ in options]
        if all(re.fullmatch(r"p\d+", c) for c in codes):  # the setup choice: plan one, keep four
            dealt = [c[1:] for c in codes]
            lines = [f"p{dealt[0]}", *(f"k{c}" for c in dealt[1:5])]
        elif any(c.startswith("s") and c[1:] and (c[1].isdigit() or c[1:] == "H") for c in codes):
            sails = [(int(label.split()[1]), code) for code, label in options if label.startswith("sail ")]
            lines = [max(sails)[1], "pass", "done"]
        else:
            code, label = self.rnd.choice(options)
            lines = [self.rnd.choice([code, label])]
        self.persona.reply(newest, "\n".join(lines))
        self.answered.add(mid)
        self.replies += 1
        return True


def test_it_plays_a_complete_game_of_maracaibo_by_mail_whole_turns_in_one_mail(ana: Persona,
                                                                                bruno: Persona) -> None:
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email} rounds=1")
    invitation = bruno.latest()
    assert "invites you to play Maracaibo" in text_of(invitation)
    bruno.reply(invitation, "join")

    rnd = random.Random(11)
    players = [Captain(p, rnd) for p in (ana, bruno)]
    replies = play_until_over(players, rnd)

    for p in players:
        over = next(m for m in p.persona.inbox() if is_game_over(m))
        assert "Winner" in text_of(over)
        assert any("SUBSTITUTE CONTENT" in text_of(m) for m in p.persona.inbox())
    game = Game.objects.get(rules="maracaibo")
    assert game.status == Game.Status.FINISHED
    moves = list(Move.objects.filter(game=game))
    assert {m.source for m in moves} == {"mail"}
    applied = InboundMessage.objects.filter(game=game, status=InboundMessage.Status.APPLIED).count()
    # whole turns in one mail: many more moves than mails
    assert len(moves) >= 2 * (applied - 1)
    assert replies < 60
    counts = check_mail_volume(game, [ana, bruno], {p.persona.email: p.answered for p in players})
    print(f"maracaibo: game mails per player {counts}, "
          f"largest {max(len(m.as_bytes()) for p in (ana, bruno) for m in p.inbox())} bytes")
