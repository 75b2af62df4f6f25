"""Whole games by mail with a Portuguese player beside English ones (issue 27).

Ana writes to the general address in Portuguese (``Content-Language: pt``) and sets up the game;
Bruno and Carla are English. Each reads only their own mail and answers the options it lists,
as in tests/mail/test_maretta_by_mail.py, over the real SMTP socket. At the end, every mail Ana got
is Portuguese (no English fixed text of the service's catalogue), every mail the others got is
English, and the game is over for everyone.
"""

from __future__ import annotations

import functools
import random
import re
from email.message import EmailMessage

import pytest

from pbem.games.models import Game, Move
from tests.mail.conftest import Persona, html_of, text_of
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
        self.seen, self.ended = 0, False  # (the mails read for the game's end so far: a mailbox only grows)

    def over(self) -> bool:
        if not self.ended:
            box = self.persona.inbox()
            self.ended, self.seen = any(OVER.search(text_of(m)) for m in box[self.seen:]), len(box)
        return self.ended

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
    # Maretta's board in words and the picture's symbols' key under it (the picture's own labels:
    # tests/engine/test_maretta_render.py): Portuguese
    # (none of Maretta's render texts in English), and English for the others
    said = "\n".join(text_of(m) + _html(m) for m in box)
    heard = "\n".join(text_of(m) + _html(m) for o in (bruno, carla) for m in o.inbox())
    for m in box:
        shown = text_of(m) + _html(m)
        assert engine_english_left(shown) == [], (engine_english_left(shown), text_of(m)[:1500])
        # (what the HTML part shows: its texts, not its tags and styles, where "none" is CSS)
        words = text_of(m) + re.sub(r"<[^>]*>", " ", re.sub(r"<style.*?</style>", " ", _html(m), flags=re.S))
        assert maretta_english_left(words) == [], (maretta_english_left(words), text_of(m)[:1500])
    for portuguese in ("Pilha de compra: ", "Esperando: ", "A sua mão: ", "Percurso: ", "Barris: ", " mão: ",
                       "Fichas marrons (?): barris virados para baixo"):
        assert portuguese in said and portuguese not in heard, portuguese
    for english in ("Draw pile: ", "Waiting for: ", "Your hand: ", "Route: ", "Barrels: ", " hand: ",
                    "Brown chips (?): face-down barrels"):
        assert english not in said and english in heard, english
    game = Game.objects.get(rules="maretta")
    assert game.status == Game.Status.FINISHED
    assert {m.source for m in Move.objects.filter(game=game)} == {"mail"}
    print(f"maretta with a Portuguese player: {replies} replies by mail")


def maretta_english_left(text: str) -> list[str]:
    """The words of Maretta's board texts (the msgids marked in engine/games/maretta/render.py that
    Portuguese says otherwise, their words between the placeholders, whole words of 4 letters or
    more) that a Portuguese mail still shows in English: short ones too ("Now: ", "hand: ", "raft")."""
    return [words for words, whole in _maretta_english() if whole.search(text)]


@functools.cache
def _maretta_english() -> list[tuple[str, re.Pattern[str]]]:
    """The words :func:`maretta_english_left` looks for and their whole-word patterns, in the source's
    order (read once: it is asked of every mail of a whole game)."""
    import ast
    from pathlib import Path

    from engine import i18n
    from engine.games.maretta import render

    pieces = []
    for node in ast.walk(ast.parse(Path(render.__file__).read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_", "ngettext")):
            continue
        english = [a.value for a in node.args[:2] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
        if not english:
            continue
        said = i18n.translate(english[0], "pt") if node.func.id != "ngettext" else \
            " ".join(i18n.ngettext(english[0], english[-1], n, "pt") for n in (1, 2))
        for msgid in english:
            for words in re.split(r"\{\w*\}", msgid):
                words = words.strip(" .,:;()-+<*\n")
                if len(words) >= 4 and words not in said:
                    pieces.append((words, re.compile(rf"(?<!\w){re.escape(words)}(?!\w)")))
    return pieces


def engine_english_left(text: str) -> list[str]:
    """The engine's English texts (the msgids of its pt catalogue that Portuguese says otherwise,
    their words between the placeholders) that a Portuguese mail still shows: option labels,
    the story, the board in words and the picture's legend."""
    return [words for words in _engine_english() if words in text]


@functools.cache
def _engine_english() -> list[str]:
    """The pieces :func:`engine_english_left` looks for, in the catalogue's order (split once: it is asked
    of every mail of a whole game)."""
    from engine import i18n

    pieces = []
    for msgid, said in i18n._catalogue("pt").items():
        for english, portuguese in zip((msgid,), (said if isinstance(said, str) else said[0],), strict=True):
            if english == portuguese:
                continue
            for words in re.split(r"\{\w*\}", english):
                words = words.strip(" .,:;()-+<\n")
                if len(words) >= 12 and words not in portuguese:
                    pieces.append(words)
    return pieces


def _html(m: EmailMessage) -> str:
    """The HTML part of an update mail ("" for a mail of text only, a command's answer)."""
    return html_of(m) if m.is_multipart() and any(p.get_content_type() == "text/html" for p in m.walk()) else ""


class PtSailor(Reader):
    """A Caravelas sailor who reads either language (as tests/mail/test_caravelas_by_mail.py's,
    which ends games a random choice would not): brings cargo home, draws discovery cards
    when short of them, sails for the places of their own cards; otherwise chooses at random."""

    def act(self) -> bool:
        box = self.persona.inbox()
        newest = box[-1]
        mid = str(newest["Message-ID"])
        if mid in self.answered:
            return False
        body = text_of(newest)
        options = listed(body)
        if not options and any(s in body for s in SAME):
            options = next((o for o in (listed(text_of(m)) for m in reversed(box[:-1])) if o), [])
        if not options:
            return False
        codes = {code: (code, label) for code, label in options}
        cargo = re.search(r"<- (?:you|você).*\n\s+(?:cargo|carga): (.*?);", body)
        targets = set()
        lines = body.splitlines()
        for i, line in enumerate(lines):
            if line.startswith(("Your discovery cards", "As suas cartas de Descoberta")):
                for entry in lines[i + 1:]:
                    m = re.match(r"^  (\S.*?) \(", entry)
                    if not m:
                        break
                    targets.add(m.group(1))
        choice = None
        if cargo and cargo.group(1) not in ("empty", "vazia") and "deliver" in codes:
            choice = codes["deliver"]
        elif len(targets) <= 2 and "draw" in codes:
            choice = codes["draw"]
        else:
            choice = next(((c, label) for c, label in options
                           if any(label.endswith((f" to {t}", f" para {t}")) for t in targets)), None)
        code, label = choice or self.rnd.choice(options)
        self.persona.reply(newest, self.rnd.choice([code, label]))
        self.answered.add(mid)
        return True


def test_it_plays_a_whole_game_of_caravelas_by_mail_with_a_portuguese_player(ana: Persona, bruno: Persona) -> None:
    send_in(ana, "pt", f"new caravelas with {bruno.email} target=10")
    assert ana.player.language == "pt"
    invitation = bruno.latest()
    assert "invites you to play Caravelas II" in text_of(invitation)
    bruno.reply(invitation, "join")
    rnd = random.Random(5)
    replies = play([PtSailor(p, rnd) for p in (ana, bruno)], rnd)
    box = check_languages(ana, [bruno])
    for m in box:  # the game's own words too: labels, the story, the board, the picture's legend
        assert engine_english_left(text_of(m)) == [], (engine_english_left(text_of(m)), text_of(m)[:1500])
    said = "\n".join(text_of(m) + _html(m) for m in box)
    heard = "\n".join(text_of(m) + _html(m) for m in bruno.inbox())
    for portuguese in ("As suas cartas de Movimento", "Frotas:", "terminar o turno", "Com moldura: a sua frota",
                       "Turno de ", " joga um "):
        assert portuguese in said and portuguese not in heard, portuguese
    for english in ("Your movement cards", "Fleets:", "end the turn", "Framed: your fleet", "&#x27;s turn.",
                    " plays a "):
        assert english not in said and english in heard, english
    assert any(OVER.search(text_of(m)) and "terminou" in text_of(m) for m in box)
    game = Game.objects.get(rules="caravelas")
    assert game.status == Game.Status.FINISHED
    assert {m.source for m in Move.objects.filter(game=game)} == {"mail"}
    print(f"caravelas with a Portuguese player: {replies} replies by mail")
