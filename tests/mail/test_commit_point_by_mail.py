"""A reveal is a commit point, by mail: the two attacks of issue 7 give nothing away.

``draw`` then a bad line in Caravelas used to show the four cards a draw reveals and change
nothing, so the peek could be repeated; ``b1`` or ``b2`` then a bad line in Maretta told which
face-down barrel is which. Now the draw or the look stands, the answer says so, and a mail
refused before any reveal shows only the options as they were before it.
"""

from __future__ import annotations

import pytest

import engine
from engine.games.caravelas import board
from pbem.games.models import Game, InboundMessage, Move
from tests.factories import caravelas_ready_to_draw, maretta_at_barrels
from tests.mail.conftest import Persona, seat_of, sent_messages, start_game, text_of
from tests.mail.test_maretta_by_mail import listed_options

pytestmark = pytest.mark.django_db(transaction=True)


def answer(person: Persona, text: str) -> str:
    """Reply to one's latest mail; the server's answer to that reply."""
    before = len(sent_messages())
    person.reply(person.latest(), text)
    mine = [m for m in sent_messages()[before:] if person.email in str(m["To"]) and "In-Reply-To" in m
            and "Re:" in str(m["Subject"]) and "Line" in text_of(m)]
    assert len(mine) == 1, [text_of(m) for m in sent_messages()[before:]]
    return text_of(mine[0])


def test_it_keeps_a_draw_by_mail_and_says_what_it_showed(ana: Persona, bruno: Persona) -> None:
    game = start_game("caravelas", [ana, bruno])
    seat = caravelas_ready_to_draw(game)
    drawer, other = (ana, bruno) if seat == 0 else (bruno, ana)
    pile = list(game.state["dpile"][:4])
    mails_to_other = len(other.inbox())
    body = answer(drawer, "draw\nbogus")
    assert "was applied in part: line 1 of 2 stands, line 2 was refused" in body
    assert "1. draw" in body and all(board.name(c) in body for c in pile)
    assert "Line 2 of 2: bogus" in body and "Your options now:" in body and "keep" in body
    row = InboundMessage.objects.latest("id")
    assert row.status == InboundMessage.Status.APPLIED and row.result.startswith("partly")
    assert [m.move for m in Move.objects.filter(game=game)] == [{"act": "draw"}]
    drawn_line = next(line for line in body.splitlines() if "You draw" in line).split("- ", 1)[1]
    for m in other.inbox()[mails_to_other:]:
        assert drawn_line not in text_of(m) and "You draw" not in text_of(m)
    again = answer(drawer, "draw\nbogus")
    assert "nothing was changed" in again and "Line 1 of 2: draw" in again
    game.refresh_from_db()
    assert Move.objects.filter(game=game).count() == 1


def test_it_keeps_a_face_down_barrel_taken_by_mail(ana: Persona, bruno: Persona, carla: Persona) -> None:
    game = start_game("maretta", [ana, bruno, carla])
    maretta_at_barrels(game, 0, [("mo", False), ("sp", False)])
    before = len(ana.inbox())
    body = answer(ana, "b2\nbogus")
    told = [text_of(m) for m in ana.inbox()[before:]]
    assert "applied in part" in body
    # the barrel's look is told to her once: here the change began her next decision, so its
    # game mail tells it, and the answer points to that mail instead of repeating it
    assert sum(t.count("look at it: Fishing Spear") for t in told) == 1
    assert [m.move for m in Move.objects.filter(game=game)] == [{"a": "barrel", "b": 2}]
    for person in (bruno, carla):  # they see a face-down barrel taken, and nothing of what it was
        for m in person.inbox():
            assert "look at it" not in text_of(m) and "Fishing Spear has no effect" not in text_of(m)
            assert "nobody is in front" not in text_of(m)


def test_it_answers_the_same_whichever_barrel_a_refused_mail_took_first(ana: Persona, bruno: Persona,
                                                                        carla: Persona) -> None:
    game = start_game("maretta", [ana, bruno, carla])
    maretta_at_barrels(game, 0, [("mo", True), ("sp", True)])
    one = answer(ana, "b1\nbogus")
    two = answer(ana, "b2\nbogus")
    assert one == two and "nothing was changed" in one and "not applied either" in one
    game.refresh_from_db()
    assert game.version == 1 and not Move.objects.filter(game=game).exists()
    assert Game.objects.get(pk=game.pk).state["todo"][-1]["t"] == "barrel"


def test_it_tells_the_lines_a_partly_refused_mail_applied_once(ana: Persona, bruno: Persona) -> None:
    """The answer to a mail applied in part is the drawer's mail about that change: their next
    mails start after it, so the draw is not told again (issue 10: each move once)."""
    people = [ana, bruno]
    game = start_game("caravelas", people)
    seat = caravelas_ready_to_draw(game)
    drawer = people[seat]
    first = len(drawer.inbox())
    body = answer(drawer, "draw\nbogus")
    assert "Since your last mail:\n  - You draw " in body
    drawn = next(line for line in body.splitlines() if line.startswith("  - You draw "))
    game.refresh_from_db()
    assert seat_of(game, drawer).last_mailed_version == game.version
    # the drawer goes on from the answer, one option a mail, until the other's turn has come back
    for _ in range(40):
        game.refresh_from_db()
        waiting = engine.get("caravelas").pending(game.state)
        if waiting == [seat] and Move.objects.filter(game=game, seat=1 - seat).exists():
            break
        mover = people[waiting[0]]
        mover.reply(mover.latest(), listed_options(text_of(mover.latest()))[0][0])
    else:
        raise AssertionError("the other player's turn did not come and go")
    later = [text_of(m) for m in drawer.inbox()[first:]]
    assert len(later) >= 2, "the answer, then at least the mail of the drawer's next turn"
    assert sum(t.count(drawn.removeprefix("  - ")) for t in later) == 1, "the draw is told once"
    assert sum(t.count("draw 4 discovery cards") + t.count("draws 4 discovery cards") for t in later) <= 1
    assert "It is your turn" in later[-1]
