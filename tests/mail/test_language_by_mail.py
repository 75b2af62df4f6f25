"""A player's language by mail (issue 27): ``language pt``, a newcomer's Content-Language, and each
seat of one game mailed in its own language, over the real SMTP socket."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games.models import Player
from tests.i18n_catalogue import catalogue
from tests.mail.conftest import Persona, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)

GENERAL = "pbem@pbem.localhost"


def english_left(text: str) -> list[str]:
    """The service's English fixed texts (the pt catalogue's msgids, their words between the
    placeholders) that a Portuguese mail still shows. The player's own commands quoted back (a line
    "> vacation until 2099-01-05", or `vacation until 2099-01-05` in a refusal) are their words, not
    the service's (the moderator page's "vacation until" is a msgid of its own)."""
    text = "\n".join(line for line in text.split("\n") if not line.startswith("> "))
    text = re.sub(r"`[^`\n]*`", " ", text)
    return [words for words, said in _service_english() if words in text]


_PT_PO = Path(__file__).resolve().parents[2] / "pbem" / "locale" / "pt" / "LC_MESSAGES" / "django.po"
_english: tuple[tuple[int, int], list[tuple[str, str]]] | None = None


def _service_english() -> list[tuple[str, str]]:
    """(words of a msgid between its placeholders, 12 characters or more, that its Portuguese does not say;
    that Portuguese) for the pt catalogue, in its order. Read again only when the file changed.
    Why: the whole-game tests ask this of every mail and every story line (the catalogue was parsed each time)."""
    global _english
    stat = _PT_PO.stat()
    key = (stat.st_mtime_ns, stat.st_size)
    if _english is None or _english[0] != key:
        pieces = []
        for msgid, strs in catalogue("pt").items():
            if strs[0] == msgid:
                continue
            for words in re.split(r"%\(\w+\)[sd]|<[^>]+>|\{\{[^}]*\}\}", msgid):
                words = words.strip(" .,:;()\n")
                if len(words) >= 12 and words not in strs[0]:  # (a command example stays)
                    pieces.append((words, strs[0]))
        _english = (key, pieces)
    return _english[1]


def send_in(person: Persona, content_language: str, body: str) -> None:
    """A mail to the general address whose text says it is written in ``content_language``."""
    raw = person.compose(GENERAL, body)
    # (after the content is set: setting it clears the Content-* headers)
    raw = raw.replace(b"\r\nMIME-Version:", f"\r\nContent-Language: {content_language}\r\nMIME-Version:".encode(), 1)
    assert b"Content-Language" in raw
    assert person.server is not None
    person.server.send(person.email, [GENERAL], raw)


def test_it_sets_the_language_with_a_mail_to_the_general_address(ana: Persona) -> None:
    ana.send_to(GENERAL, "name Ana\nlanguage pt\ngames")
    answer = text_of(ana.latest())
    assert ana.player.language == "pt"
    assert "A sua língua é agora pt" in answer
    # the lines after it are answered in the new language
    assert "Resultados dos seus comandos" in answer or "feito:" in answer
    ana.send_to(GENERAL, "idioma klingon")
    refused = text_of(ana.latest())
    assert "klingon não é uma língua disponível aqui" in refused and "não feito" in refused
    assert ana.player.language == "pt"
    ana.send_to(GENERAL, "language english")
    assert ana.player.language == "en"
    assert "Your language is now en" in text_of(ana.latest())


def test_it_gives_a_newcomer_the_language_of_their_first_mail(ana: Persona, bruno: Persona) -> None:
    send_in(ana, "pt-BR", "name Ana Silva")
    assert ana.player.language == "pt"
    assert "Resultados dos seus comandos" in text_of(ana.latest())
    bruno.send_to(GENERAL, "name Bruno")
    assert bruno.player.language == "en"
    assert "Results of your commands" in text_of(bruno.latest())
    # their setting wins over a later mail's header
    send_in(bruno, "pt", "games")
    assert "Results of your commands" in text_of(bruno.latest())


def test_it_mails_each_seat_of_one_game_in_its_own_language(ana: Persona, bruno: Persona, carla: Persona) -> None:
    Player.objects.filter(email=ana.email).delete()
    start_game("maretta", [ana, bruno, carla], options={"side": "A"})
    Player.objects.filter(email=ana.email).update(language="pt")
    # the start's mails went before ana chose: a reminder-like update comes in each one's language
    from pbem.games.models import Game
    from pbem.mail import outbox
    game = Game.objects.get()
    outbox.queue_updates(game, None, "")
    ana_mail, bruno_mail = text_of(ana.latest()), text_of(bruno.latest())
    assert re.search(r"^(É a sua vez no jogo|Jogo) #\d+ .*", ana_mail, re.M), ana_mail[:600]
    assert "Desde a sua última mensagem" in ana_mail or "As suas opções" in ana_mail or "esperando" in ana_mail
    assert re.search(r"^(It is your turn in game|Game) #\d+", bruno_mail, re.M)
    assert english_left(ana_mail) == [], english_left(ana_mail)
    assert "Comandos da conta" in ana_mail and "Account commands" in bruno_mail
    # the marker line too (issue 27), and the reply under it is read
    assert ana_mail.startswith("-- responda acima desta linha --\n") and "reply above" not in ana_mail
    assert bruno_mail.startswith("-- reply above this line --\n")
