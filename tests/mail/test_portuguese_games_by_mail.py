"""Whole games by mail with a Portuguese player beside English ones (issue 27).

Ana writes to the general address in Portuguese (``Content-Language: pt``) and sets up the game;
Bruno and Carla are English. Each reads only their own mail and answers the options it lists,
as in tests/mail/test_maretta_by_mail.py, over the real SMTP socket. At the end, every mail Ana got
is Portuguese (no English fixed text of the service's catalogue), every mail the others got is
English, and the game is over for everyone.
"""

from __future__ import annotations

import random
import re
from email.message import EmailMessage

import pytest

from pbem.games.models import Game, Move
from tests.mail.conftest import Persona, text_of
from tests.mail.test_language_by_mail import english_left, send_in
from tests.mail.test_maretta_by_mail import OPTION_LINE

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MAX_REPLIES = 1500
OVER = re.compile(r"^(Game #\d+ \(.*\) is over(: .* wins?)?|O jogo #\d+ \(.*\) terminou(: ganham? .*)?)\.$", re.M)
SAME = ("The same as in my last mail (", "As mesmas da minha última mensagem (")


def listed(body: str) -> list[tuple[str, str]]:
    lines = body.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(("Your options", "As suas opções")):
            out = []
            for option in lines[i + 1:]:
                m = OPTION_LINE.match(option)
                if not m:
                    break
                out.append((m.group(1), m.group(2)))
            return out
    return []


class Reader:
    def __init__(self, persona: Persona, rnd: random.Random) -> None:
        self.persona, self.rnd, self.answered = persona, rnd, set[str]()

    def over(self) -> bool:
        return any(OVER.search(text_of(m)) for m in self.persona.inbox())

    def act(self) -> bool:
        box = self.persona.inbox()
        newest = box[-1]
        mid = str(newest["Message-ID"])
        if mid in self.answered:
            return False
        options = listed(text_of(newest))
        if not options and any(s in text_of(newest) for s in SAME):
            options = next((o for o in (listed(text_of(m)) for m in reversed(box[:-1])) if o), [])
        if not options:
            return False
        code, label = self.rnd.choice(options)
        self.persona.reply(newest, self.rnd.choice([code, label]))
        self.answered.add(mid)
        return True


def play(readers: list[Reader], rnd: random.Random) -> int:
    replies = 0
    while not all(r.over() for r in readers):
        acted = False
        for r in rnd.sample(readers, len(readers)):
            if not r.over() and r.act():
                acted, replies = True, replies + 1
        assert acted, "nobody has a mail asking for a move, but the game is not over"
        assert replies < MAX_REPLIES
    return replies


def check_languages(pt: Persona, others: list[Persona]) -> list[EmailMessage]:
    box = pt.inbox()
    assert box
    for m in box:
        assert english_left(text_of(m)) == [], (english_left(text_of(m)), text_of(m)[:800])
    assert any("É a sua vez no jogo" in text_of(m) for m in box)
    for o in others:
        assert any("It is your turn in game" in text_of(m) for m in o.inbox())
        assert not any("É a sua vez" in text_of(m) or "Resultados dos seus comandos" in text_of(m)
                       for m in o.inbox())
    return box


def test_it_plays_a_whole_game_of_maretta_by_mail_with_a_portuguese_player(
        ana: Persona, bruno: Persona, carla: Persona) -> None:
    send_in(ana, "pt", f"new maretta with {bruno.email} {carla.email} side=A")
    assert ana.player.language == "pt"
    assert "Resultados dos seus comandos" in text_of(ana.inbox()[0])
    for invited in (bruno, carla):
        invitation = invited.latest()
        assert "invites you to play Maretta" in text_of(invitation)
        invited.reply(invitation, "join")
    rnd = random.Random(3)
    replies = play([Reader(p, rnd) for p in (ana, bruno, carla)], rnd)
    box = check_languages(ana, [bruno, carla])
    assert any(OVER.search(text_of(m)) and "terminou" in text_of(m) for m in box)
    # a deadline in words, with a Portuguese date
    assert any(re.search(r"^Prazo: faltam .*, até (Seg|Ter|Qua|Qui|Sex|Sáb|Dom) \d+ \w+ \d\d:\d\d UTC\.$",
                         text_of(m), re.M) for m in box)
    game = Game.objects.get(rules="maretta")
    assert game.status == Game.Status.FINISHED
    assert {m.source for m in Move.objects.filter(game=game)} == {"mail"}
    print(f"maretta with a Portuguese player: {replies} replies by mail")
