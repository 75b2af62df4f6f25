"""The headline: complete games of Maretta, played only by mail over a real SMTP socket.

Three simulated people. Each one reads only the mails addressed to them (the
bytes Django actually sent), and does what a person would: the game is set up
by mail (``new maretta with ...`` to the general address, ``join`` in reply to
the invitation); then, whenever their newest mail lists options they have not
answered yet, they pick one and reply to that mail's Reply-To, typing either the
option's code or its words, on top of the quoted original. The loop ends when
each of them has the game-over mail. Nobody looks at the database until the
checks at the end.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable
from email.message import EmailMessage

import pytest

from pbem.games.models import Game, InboundMessage, Move
from tests.mail.conftest import Persona, text_of
from tests.mail.volume import check_mail_volume, print_figures

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GENERAL = "pbem@pbem.localhost"
OPTION_LINE = re.compile(r"^  (\S+)\s{2,}(\S.*)$")
MAX_REPLIES = 1500


def listed_options(body: str) -> list[tuple[str, str]]:
    """The (code, label) lines under "Your options:" (or "Your options now:"), as a reader sees them."""
    lines = body.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Your options"):
            out = []
            for option in lines[i + 1:]:
                m = OPTION_LINE.match(option)
                if not m:
                    break
                out.append((m.group(1), m.group(2)))
            return out
    return []


def options_to_answer(box: list[EmailMessage], m: EmailMessage) -> list[tuple[str, str]]:
    """The options ``m`` asks about, as a reader finds them: listed, or, where it says they are
    "the same as in my last mail", those of the newest mail before it that lists them."""
    listed = listed_options(text_of(m))
    if listed or "The same as in my last mail (" not in text_of(m):
        return listed
    for earlier in reversed(box[:box.index(m)]):
        listed = listed_options(text_of(earlier))
        if listed:
            return listed
    return []


def is_game_over(m: EmailMessage) -> bool:
    return bool(re.search(r"^Game #\d+ \(.*\) is over(: .* wins?)?\.$", text_of(m), re.M))


class Player:
    """A person at a mail program: reads their own mailbox, answers the newest mail that asks."""

    def __init__(self, persona: Persona, rnd: random.Random) -> None:
        self.persona = persona
        self.rnd = rnd
        self.answered: set[str] = set()
        self.replies = 0
        self.seen, self.ended = 0, False  # (the mails read for the game's end so far: a mailbox only grows)

    def game_over(self) -> bool:
        if not self.ended:
            box = self.persona.inbox()
            self.ended, self.seen = any(is_game_over(m) for m in box[self.seen:]), len(box)
        return self.ended

    def newest(self) -> EmailMessage:
        """The newest mail, or the game mail it points to: the answer to a mail applied in part
        whose lines began the next decision says that decision is in the game mail sent with it."""
        newest = self.persona.latest()
        if "Your next decision is in the game mail sent with this answer" in text_of(newest):
            box = self.persona.inbox()
            return next(m for m in reversed(box[:box.index(newest)]) if not str(m["Subject"]).startswith("Re:"))
        return newest

    def act(self) -> bool:
        """Answer the newest mail if it lists options not answered yet; True if a reply went out."""
        newest = self.newest()
        mid = str(newest["Message-ID"])
        if mid in self.answered:
            return False
        options = options_to_answer(self.persona.inbox(), newest)
        if not options:
            return False
        code, label = self.rnd.choice(options)
        typed = self.rnd.choice([code, label, label.upper(), code.upper()])
        self.persona.reply(newest, typed)
        self.answered.add(mid)
        self.replies += 1
        return True


def play_until_over(players: list[Player], rnd: random.Random, *, shuffle: bool = True,
                    after_round: Callable[[], None] | None = None) -> int:
    """Rounds in which everyone answers their newest mail, until all have the game-over mail.

    ``after_round`` lets a caller wait for asynchronous work (a real worker) between rounds.
    Returns how many replies were sent.
    """
    replies = 0
    while not all(p.game_over() for p in players):
        acted = False
        for p in rnd.sample(players, len(players)) if shuffle else players:
            if not p.game_over() and p.act():
                acted = True
                replies += 1
        if after_round is not None:
            after_round()
        assert acted, "nobody has a mail asking for a move, but the game is not over"
        assert replies < MAX_REPLIES, "the game does not end"
    return replies


def play_a_game_by_mail(side: str, people: list[Persona], seed: int) -> Game:
    ana, bruno, carla = people
    # Set-up, by mail too.
    ana.send_to(GENERAL, f"new maretta with {bruno.email} {carla.email} side={side}")
    for invited in (bruno, carla):
        invitation = invited.latest()
        assert "invites you to play Maretta" in text_of(invitation)
        invited.reply(invitation, "join")

    rnd = random.Random(seed)
    players = [Player(p, rnd) for p in people]
    replies = play_until_over(players, rnd)

    # ---- what the players saw ---------------------------------------------------------------------
    over = [next(m for m in p.persona.inbox() if is_game_over(m)) for p in players]
    first_texts = [text_of(p.persona.inbox()[0]) for p in players]
    for p, m in zip(players, over):
        body = text_of(m)
        assert "Winner" in body
        seed_shown = re.search(r"^Seed: ([0-9a-f]+) \(its SHA-256 ([0-9a-f]{64})", body, re.M)
        assert seed_shown, "the seed is revealed at the end"
        digest = hashlib.sha256(seed_shown.group(1).encode()).hexdigest()
        assert digest == seed_shown.group(2)
        # The commitment shown in the player's first game mail matches the revealed seed.
        assert any(digest in text_of(x) for x in p.persona.inbox() if "Seed commitment" in text_of(x))
        # every game mail carries the game's thread topic, its subject that topic and what it is
        topic = str(m["Thread-Topic"])
        assert str(m["Subject"]) == f"{topic}: game over"
        assert all(str(x["Thread-Topic"]) == topic and str(x["Subject"]).startswith(f"{topic}: ")
                   for x in p.persona.inbox()
                   if "[pbem #" in str(x["Subject"]) and not str(x["Subject"]).startswith("Re:"))
    assert first_texts  # each had mail from the start
    print(f"maretta side {side}: {replies} replies by mail")
    game = Game.objects.get(rules="maretta", options__side=side)
    figures = check_mail_volume(game, people)
    print_figures(f"maretta side {side}", figures)
    # the small picture fits every mail that asks for a decision
    assert all(f["pictures"] == f["asking"] for f in figures.values()), figures

    # ---- what the server recorded -------------------------------------------------------------------
    assert game.status == Game.Status.FINISHED
    moves = list(Move.objects.filter(game=game))
    assert moves and {m.source for m in moves} == {"mail"}
    applied = InboundMessage.objects.filter(game=game, status=InboundMessage.Status.APPLIED).count()
    assert applied == len(moves) + 2  # every move was one reply; plus the two joins
    return game


def test_it_plays_a_complete_game_of_maretta_side_a_by_mail(ana: Persona, bruno: Persona, carla: Persona) -> None:
    game = play_a_game_by_mail("A", [ana, bruno, carla], seed=1)
    assert game.outcome and game.outcome["reason"]


def test_it_plays_a_complete_game_of_maretta_side_b_by_mail(ana: Persona, bruno: Persona, carla: Persona) -> None:
    game = play_a_game_by_mail("B", [ana, bruno, carla], seed=2)
    assert game.outcome and game.outcome["reason"]
