"""How many mails, and how heavy: checks shared by the whole games played by mail.

Issue 10: a player gets a mail when something they need to know happened (their turn
begins, the game waits on them again, the game ends, a moderator acted); never two mails
in a row with the same options unless they moved in between; each mail under 30 KB.
"""

from __future__ import annotations

import itertools
import json
from email.message import EmailMessage

import engine
from pbem.games.models import Game, Move
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


def turns_had(game: Game) -> tuple[dict[int, int], dict[int, int]]:
    """Per seat: the turns it had (the times the game began to wait on it: it was not
    pending, and after a change it is) and its own steps that left it still to decide (a
    mail moved one step of a longer turn: the next step is asked by mail). Found by
    replaying the game from its revealed seed and move log one change (version) at a time,
    as the mails went out."""
    rules = engine.get(game.rules)
    assert game.state is not None and game.seed
    n = len(game.state["players"])
    state = rules.setup(list(game.state["players"]), game.options, game.seed)
    waiting = set(rules.pending(state))
    turns = {s: int(s in waiting) for s in range(n)}
    steps = dict.fromkeys(range(n), 0)
    rows = Move.objects.filter(game=game, undone_at__isnull=True).order_by("number")
    for _version, group in itertools.groupby(rows, key=lambda m: m.version):
        movers = set()
        for m in group:
            rules.apply(state, m.seat, m.move)
            movers.add(m.seat)
        now = set(rules.pending(state))
        for s in now - waiting:
            turns[s] += 1
        for s in now & waiting & movers:
            steps[s] += 1
        waiting = now
    assert json.loads(json.dumps(state)) == game.state, "the replay must reach the game's final state"
    return turns, steps


def check_mail_volume(game: Game, people: list[Persona], answered: dict[str, set[str]],
                      notices: int = 0) -> dict[str, int]:
    """Bounds every player's mails by the turns that player had, plus the game's start,
    its end and ``notices`` (moderator notices), and their size; returns mails per player.

    ``answered``: per address, the Message-IDs of the mails that person replied to.
    """
    counts = {}
    turns, steps = turns_had(game)
    for person in people:
        box = game_mails(person, game)
        seat = game.seats.get(player__email=person.email).index
        assert seat is not None
        had, own = turns[seat], steps[seat]
        assert had > 0, f"{person.name} never had a turn"
        invited = sum("invites you to play" in text_of(m) for m in box)  # the game's start, for a guest
        bound = had + own + 2 + invited + notices
        assert len(box) <= bound, (f"{person.name} got {len(box)} mails for {had} turns and {own} steps "
                                   f"of their own turns (at most {bound} with the start and the end)")
        for m in person.inbox():
            size = len(m.as_bytes())
            assert size < MAX_MAIL_BYTES, f"a mail to {person.name} weighs {size} bytes"
        for before, after in itertools.pairwise(box):
            same = options_block(before) and options_block(before) == options_block(after)
            if same:
                assert str(before["Message-ID"]) in answered[person.email], (
                    f"{person.name} got two mails in a row with the same options without moving")
        counts[person.name] = len(box)
        counts[f"{person.name} turns"] = had
        counts[f"{person.name} steps"] = own
    return counts
