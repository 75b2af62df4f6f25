"""A whole game of Maracaibo by mail with a Portuguese player beside an English one (issue 27).

Ana writes to the general address in Portuguese (``Content-Language: pt``) and sets up a short
game (two rounds); Bruno is English. Each reads only their own mail and answers one of the options
it lists (its code or its label, as written there), over the real SMTP socket, as
tests/mail/test_portuguese_games_by_mail.py plays Maretta and Caravelas. Ana's mails are Portuguese:
the service's texts, and the game's own (option labels, the story, the pictures: no text of the
engine shown to her in English, its catalogue misses collected while the game is played: labels,
events, the board in words, the pictures); Bruno's are English. Still English in Ana's mails: the
worked example turn's lines (English notation, which reads in any language).
"""

from __future__ import annotations

import random

import pytest

from engine import i18n
from pbem.games.models import Game, Move
from tests.mail.conftest import Persona, text_of
from tests.mail.test_language_by_mail import send_in
from tests.mail.test_portuguese_games_by_mail import OVER, Reader, _html, check_languages, play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_it_plays_a_whole_game_of_maracaibo_by_mail_with_a_portuguese_player(ana: Persona, bruno: Persona) -> None:
    send_in(ana, "pt", f"new maracaibo with {bruno.email} rounds=2")
    assert ana.player.language == "pt"
    invitation = bruno.latest()
    assert "invites you to play Maracaibo" in text_of(invitation)
    bruno.reply(invitation, "join")
    rnd = random.Random(7)
    missed: list[tuple[str, str]] = []
    with i18n.on_miss(lambda m, c: missed.append((m, c))):
        replies = play([Reader(p, rnd) for p in (ana, bruno)], rnd)
    left = sorted({m for m, c in missed if c == "pt"})
    assert left == [], f"the game's texts a Portuguese player read in English: {left}"
    box = check_languages(ana, [bruno])
    said = "\n".join(text_of(m) + _html(m) for m in box)
    heard = "\n".join(text_of(m) + _html(m) for m in bruno.inbox())
    for portuguese in ("planejar ", "guardar ", "navegar ", "nenhuma ação principal", "Turno de Bruno", " navega ",
                       "Seu turno", "Você navega",
                       "UMA AÇÃO PRINCIPAL AQUI", "JOGADORES"):
        assert portuguese in said and portuguese not in heard, portuguese
    for english in ("no main action", "A MAIN ACTION HERE", "PLAYERS", "turn (round 1)."):
        assert english in heard and english not in said, english
    assert any(OVER.search(text_of(m)) and "terminou" in text_of(m) for m in box)
    game = Game.objects.get(rules="maracaibo")
    assert game.status == Game.Status.FINISHED
    assert {m.source for m in Move.objects.filter(game=game)} == {"mail"}
    print(f"maracaibo with a Portuguese player: {replies} replies by mail")


def test_it_plays_turns_of_the_uprising_by_mail_with_a_portuguese_player(ana: Persona, bruno: Persona) -> None:
    """The Uprising (Unrest, 79) by mail (issue 27): its title, its new ship board's
    areas, home ports and resistance said to the Portuguese player, no catalogue miss while played."""
    send_in(ana, "pt", f"new maracaibo with {bruno.email} mode=79 rounds=2")
    bruno.reply(bruno.latest(), "join")
    rnd = random.Random(11)
    missed: list[tuple[str, str]] = []
    with i18n.on_miss(lambda m, c: missed.append((m, c))):
        readers = [Reader(p, rnd) for p in (ana, bruno)]
        for _ in range(40):  # some turns (the whole base game is played above)
            if all(r.over() for r in readers) or not any(r.act() for r in rnd.sample(readers, 2) if not r.over()):
                break
    left = sorted({m for m, c in missed if c == "pt"})
    assert left == [], f"the game's texts a Portuguese player read in English: {left}"
    box = check_languages(ana, [bruno])
    said = "\n".join(text_of(m) for m in box)
    assert "Maracaibo: A Revolta, Agitação (79)" in said and "The Uprising" not in said, said[:2000]
    assert "Porto de Origem" in said
    assert "Maracaibo: The Uprising, Unrest (79)" in "\n".join(text_of(m) for m in bruno.inbox())
