"""A whole Maracaibo turn in one mail, over a real SMTP socket (issue 21).

- The setup choice written with the cards' numbers (``plan 7`` where the option is ``p7``).
- A turn refused mid-way is judged where the refused line stands: after the lines before it,
  which revealed nothing and were undone with it; the answer lists the options there.
- A closing ``done`` after a turn that moved on by itself (the solo game: Jean plays, and the
  seat's next turn begins at once) is a sign-off, never a refusal of the whole turn.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

import engine
from engine.core import Option
from pbem.games.models import Game, InboundMessage, Move
from tests.mail.conftest import Persona, seat_of, sent_messages, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)

RULES = engine.get("maracaibo")


def answers_to(person: Persona, text: str) -> list[str]:
    """Reply to one's latest mail; the texts of every mail to that person it brought."""
    before = len(sent_messages())
    person.reply(person.latest(), text)
    return [text_of(m) for m in sent_messages()[before:] if person.email in str(m["To"])]


def choose_setup(game: Game, person: Persona) -> list[str]:
    """The setup mail's lines: plan the first dealt card, keep four, every card by its number."""
    game.refresh_from_db()
    assert game.state is not None
    dealt = [o.code[1:] for o in RULES.options(game.state, seat_of(game, person).index)]
    return [f"plan {dealt[0]}", *(f"keep {c}" for c in dealt[1:5])]


def play_setup(game: Game, people: list[Persona]) -> None:
    for person in people:
        lines = choose_setup(game, person)
        told = answers_to(person, "\n".join(lines))
        assert not any("not accepted" in t or "refused" in t for t in told), told
    game.refresh_from_db()
    assert game.state is not None and game.state["stack"][-1]["kind"] != "setup"
    assert Move.objects.filter(game=game).count() == 5 * len(people)


def codes(options: list[Option]) -> list[str]:
    return [o.code for o in options]


def test_it_judges_a_refused_line_of_a_whole_turn_after_the_lines_before_it(ana: Persona, bruno: Persona) -> None:
    game = start_game("maracaibo", [ana, bruno])
    play_setup(game, [ana, bruno])
    assert game.state is not None
    seat = RULES.pending(game.state)[0]
    captain = ana if seat_of(game, ana).index == seat else bruno
    # a village one action away (sailed 1 to 3 spaces): after one ``vd`` the main phase ends by itself
    turn: list[str] = []
    there: list[Option] = []
    for sail in (o for o in RULES.options(game.state, seat) if o.code.startswith("s")):
        trial: dict[str, Any] = copy.deepcopy(game.state)
        RULES.apply(trial, seat, sail.move)
        if "vd" in codes(RULES.options(trial, seat)):
            RULES.apply(trial, seat, {"code": "vd"})
            if "vd" not in codes(RULES.options(trial, seat)):
                turn, there = [sail.code, "vd", "vd"], RULES.options(trial, seat)
                break
    assert turn, "no village one action away"
    version = game.version
    told = answers_to(captain, "\n".join(turn))
    body = next(t for t in told if "Line 3 of 3: vd" in t)
    assert "was not accepted; nothing was changed" in body
    assert "Lines 1, 2 before it were fine but revealed nothing" in body
    # the options listed for line 3 are those after lines 1 and 2: the main phase has ended
    assert "Line 3 was judged after them; there, you could write:" in body
    listed = body.split("there, you could write:", 1)[1].split("\n\n", 1)[0]
    assert all(o.label in listed for o in there) and "end the main phase" in listed
    assert "judged as the game stands" not in body and "cannot follow" not in body
    assert "you have no village action left: the main phase has ended" in body  # not "not understood"
    game.refresh_from_db()
    assert game.version == version
    # and the options now are still those before line 1 (the sail), to write the turn again
    assert "Your options now:" in body and "sail" in body.split("Your options now:", 1)[1]


def test_it_takes_a_closing_done_after_a_turn_that_moved_on_by_itself_as_a_sign_off(ana: Persona) -> None:
    game = start_game("maracaibo", [ana], options={"difficulty": 2})
    play_setup(game, [ana])
    assert game.state is not None
    # the turn as a captain writes it: sail, the village actions or none, end; Jean then plays
    # and Ana's next turn begins at once, so "done" has no decision of this turn left to end
    trial: dict[str, Any] = copy.deepcopy(game.state)
    lines: list[str] = []
    for _ in range(8):
        options = codes(RULES.options(trial, 0))
        code = next((c for c in ("vd", "pass", "done", "end") if c in options), None)
        if not lines:
            code = next(c for c in options if c.startswith("s") and c not in ("s21a", "s21b", "s22"))
        assert code is not None, options
        events = RULES.apply(trial, 0, {"code": code})
        lines.append(code)
        if any(e.kind == "turn" for e in events):
            break
    assert any(c.startswith("s") for c in codes(RULES.options(trial, 0)))  # her next turn: sail again
    version = game.version
    told = answers_to(ana, "\n".join([*lines, "done"]))
    assert not any("not accepted" in t or "refused" in t for t in told), told
    row = InboundMessage.objects.latest("id")
    assert row.status == InboundMessage.Status.APPLIED
    game.refresh_from_db()
    assert game.version == version + 1  # one batch, one version
    assert [m.move["code"] for m in Move.objects.filter(game=game).order_by("number")][-len(lines):] == lines
    # her next turn began by itself: the newest mail she has asks it (no answer buries it)
    assert "Your options:" in told[-1] and "ignored: done" not in told[-1], told[-1][:2000]


def example_in(body: str) -> list[str]:
    heading = "A whole turn in one mail, for example (from your options now):\n"
    assert heading in body, body[:2000]
    block = body.split(heading, 1)[1].split("\n\n", 1)[0]
    return [line.strip() for line in block.splitlines()]


def test_it_shows_a_worked_whole_turn_that_applies_as_written(ana: Persona, bruno: Persona) -> None:
    game = start_game("maracaibo", [ana, bruno])
    # the first mail explains the setup with the dealt cards: plan one, keep four
    setup = example_in(text_of(ana.latest()))
    assert setup[0].startswith("plan ") and len(setup) == 5 and all(x.startswith("keep ") for x in setup[1:])
    told = answers_to(ana, "\n".join(setup))
    assert not any("not accepted" in t or "refused" in t for t in told), told
    answers_to(bruno, "\n".join(choose_setup(game, bruno)))
    game.refresh_from_db()
    assert game.state is not None
    seat = RULES.pending(game.state)[0]
    captain = ana if seat_of(game, ana).index == seat else bruno
    turn = example_in(text_of(captain.latest()))
    assert turn[0].startswith("sail to ") and turn == RULES.example_turn(game.state, seat)
    version = game.version
    told = answers_to(captain, "\n".join(turn))
    assert not any("not accepted" in t or "refused" in t for t in told), told
    game.refresh_from_db()
    assert game.version > version
    assert Move.objects.filter(game=game, seat=seat, version=game.version).count() >= len(turn) - 1
