"""How many mails, and how heavy: checks shared by the whole games played by mail.

Issue 10: a player gets a mail when something they need to know happened (their turn
begins, the game waits on them again, the game ends, a moderator acted); never two mails
in a row with the same options unless they moved in between; each mail under 30 KB.
"""

from __future__ import annotations

import itertools
from email.message import EmailMessage

from pbem.games.models import Game, InboundMessage
from tests.mail.conftest import Persona, text_of

MAX_MAIL_BYTES = 30_000


def game_mails(person: Persona, game: Game) -> list[EmailMessage]:
    """The game's own mails to ``person`` (not the answers to their replies, which start with Re:)."""
    subject = f"[pbem #{game.pk}] {game.title}"
    return [m for m in person.inbox() if str(m["Subject"]) == subject]


def options_block(m: EmailMessage) -> str:
    body = text_of(m)
    if "Your options:" not in body:
        return ""
    return body.split("Your options:", 1)[1].split("\n\n", 1)[0]


def check_mail_volume(game: Game, people: list[Persona], answered: dict[str, set[str]]) -> dict[str, int]:
    """Bounds every player's mails by their turns and their size; returns mails per player.

    ``answered``: per address, the Message-IDs of the mails that person replied to.
    Their turns are their accepted replies (one decision each), plus the start and the end.
    """
    counts = {}
    for person in people:
        box = game_mails(person, game)
        turns = InboundMessage.objects.filter(game=game, mail_from=person.email,
                                              status=InboundMessage.Status.APPLIED).count()
        assert len(box) <= turns + 2, f"{person.name} got {len(box)} mails for {turns} turns"
        for m in person.inbox():
            size = len(m.as_bytes())
            assert size < MAX_MAIL_BYTES, f"a mail to {person.name} weighs {size} bytes"
        for before, after in itertools.pairwise(box):
            same = options_block(before) and options_block(before) == options_block(after)
            if same:
                assert str(before["Message-ID"]) in answered[person.email], (
                    f"{person.name} got two mails in a row with the same options without moving")
        counts[person.name] = len(box)
    return counts
