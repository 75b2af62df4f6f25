"""Which mails a move sends, and to whom (docs/mail.md "When a mail goes").

A step inside one's own turn is answered to the mail that made it, small and threaded under
it, and nobody else hears of it; a whole turn sent in one mail gets no answer (the next
turn's mail tells it); the last of a round of face-down plays gets the next round's mail.
Everything goes over the real SMTP socket and the real service.
"""

from __future__ import annotations

import copy
import itertools

import pytest

import engine
from pbem.games.models import Game, Move, Player
from tests.factories import set_state
from tests.mail.conftest import Persona, html_of, seat_of, start_game, text_of
from tests.mail.test_maretta_by_mail import listed_options
from tests.mail.volume import options_listed

pytestmark = pytest.mark.django_db(transaction=True)


def _turn_player(game: Game, people: list[Persona]) -> tuple[int, Persona]:
    rules = engine.get(game.rules)
    assert game.state is not None
    seat = rules.pending(game.state)[0]
    return seat, people[seat]


def _whole_turn(game: Game, seat: int) -> list[str]:
    """Option codes that play ``seat``'s whole turn (always the first sail, then end it)."""
    rules = engine.get(game.rules)
    assert game.state is not None
    state = copy.deepcopy(game.state)
    codes: list[str] = []
    while seat in rules.pending(state):
        options = rules.options(state, seat)
        end = next((o for o in options if o.label == "end the turn"), None)
        choice = end if end is not None and codes else options[0]
        codes.append(choice.code)
        rules.apply(state, seat, choice.move)
    return codes


def test_it_answers_a_step_inside_my_turn_to_my_own_mail_and_tells_nobody_else(ana: Persona,
                                                                               bruno: Persona) -> None:
    people = [ana, bruno]
    game = start_game("caravelas", people)
    seat, mover = _turn_player(game, people)
    other = people[1 - seat]
    turn_mail = mover.latest()
    before_other = len(other.inbox())
    first = listed_options(text_of(turn_mail))[0][0]
    mover.reply(turn_mail, first)

    answer = mover.latest()
    assert answer is not turn_mail
    # the answer keeps the game's bare topic after "Re:" (docs/mail.md: subjects), the turn mail says what it is
    topic, _, what = str(turn_mail["Subject"]).rpartition(": ")
    assert what.startswith("your turn") and str(answer["Subject"]) == f"Re: {topic}"
    assert str(answer["In-Reply-To"]) == mover.sent[-1][1]
    body = text_of(answer)
    assert "Your mail was applied; your turn in game" in body and "goes on." in body
    assert "Deadline:" in body and "left, until" in body
    assert "Since your last mail:\n  - You play a " in body  # what the mail did, told to its writer
    assert listed_options(body), "the next step's options"
    assert not [p for p in answer.walk() if p.get_content_type() == "image/png"], "no picture in a step's answer"
    assert len(answer.as_bytes()) < 12_000
    assert len(other.inbox()) == before_other, "a step inside another's turn is told when that turn ends"


def test_it_sends_one_mail_a_turn_to_players_who_send_whole_turns_in_one_mail(ana: Persona,
                                                                              bruno: Persona) -> None:
    people = [ana, bruno]
    game = start_game("caravelas", people)
    counts = {p.email: len(p.inbox()) for p in people}
    for _turn in range(4):
        game.refresh_from_db()
        seat, mover = _turn_player(game, people)
        other = people[1 - seat]
        mover.reply(mover.latest(), "\n".join(_whole_turn(game, seat)))
        assert len(mover.inbox()) == counts[mover.email], "a whole turn in one mail gets no answer"
        assert len(other.inbox()) == counts[other.email] + 1, "the next player's turn begins: one mail"
        counts[other.email] += 1
        newest = text_of(other.latest())
        assert "It is your turn" in newest and f"{mover.name} " in newest


def test_it_mails_the_last_face_down_player_the_next_round(blindbids: str, ana: Persona, bruno: Persona,
                                                            carla: Persona) -> None:
    people = [ana, bruno, carla]
    start_game(blindbids, people)
    for p in people:
        p.reply(p.latest(), listed_options(text_of(p.latest()))[0][0])
    for p in people:
        newest = p.latest()
        assert not str(newest["Subject"]).startswith("Re:"), "a new round is a game mail, not an answer"
        assert "Bids revealed" in text_of(newest) and "It is your turn" in text_of(newest)


def test_it_tells_mode_all_players_once_when_a_turn_ends_not_after_each_step(ana: Persona,
                                                                             bruno: Persona) -> None:
    people = [ana, bruno]
    game = start_game("caravelas", people, mail_mode=Player.MailMode.EVERY_MOVE)
    seat, mover = _turn_player(game, people)
    other = people[1 - seat]
    before = len(other.inbox())
    codes = _whole_turn(game, seat)
    assert len(codes) >= 2
    for code in codes:
        mover.reply(mover.latest(), code)
    assert len(other.inbox()) == before + 1
    assert seat_of(game, other).last_mailed_version == Game.objects.get(pk=game.pk).version


def test_it_answers_a_refused_line_after_many_steps_answered_within_the_hour(ana: Persona, bruno: Persona) -> None:
    people = [ana, bruno]
    game = start_game("caravelas", people)

    def step_answers(p: Persona) -> int:
        return sum("Your mail was applied; your turn" in text_of(m) for m in p.inbox())

    for _turn in range(40):
        game.refresh_from_db()
        seat, mover = _turn_player(game, people)
        if step_answers(mover) > 5:
            break
        for code in _whole_turn(game, seat):
            mover.reply(mover.latest(), code)
    assert step_answers(mover) > 5, "more answers than the hourly limit of other answers"
    mover.reply(mover.latest(), "sail to the moon")
    answer = text_of(mover.latest())
    assert "was not accepted; nothing was changed" in answer, "the answers to steps do not use up the limit"
    assert listed_options(answer)


def test_it_never_lists_the_same_options_twice_in_a_row_when_a_step_asks_the_same_again(
        ana: Persona, bruno: Persona, carla: Persona) -> None:
    """Three cards to discard, three of them 1 Rope: after the first, the next discard offers the
    very same choices. The answer to that step does not list them again (issue 10: never two
    mails in a row with the same options): it tells the discard and points to the last mail,
    naming its codes, and a reply with one of them is taken."""
    people = [ana, bruno, carla]
    game = start_game("maretta", people)
    state = copy.deepcopy(game.state)
    assert state is not None
    state["stock"][0] = ["1ro", "1ro", "1ro", "2wa"]
    state["todo"] += [{"t": "discard", "s": 0}] * 3
    state["v"] += 1
    set_state(game, state)
    others = {p.email: len(p.inbox()) for p in (bruno, carla)}

    ana.reply(ana.latest(), "ds-1ro")
    first = ana.latest()
    assert listed_options(text_of(first)) == [("ds-1ro", "discard 1 Rope from your stock"),
                                              ("ds-2wa", "discard 2 Water from your stock")]
    ana.reply(first, "discard 1 rope")
    again = ana.latest()
    body = text_of(again)
    assert "Your mail was applied; your turn in game" in body and "You discard 1 Rope" in body
    assert "Your options:\n  The same as in my last mail (ds-1ro, ds-2wa): your move was applied" in body
    assert not listed_options(body) and not options_listed(again)
    assert "discard 1 Rope from your stock</td>" not in html_of(again) and "The same as in my last mail" in \
        html_of(again)
    ana.reply(again, "ds-2wa")  # the third discard ends her part: the next round asks everyone
    newest = text_of(ana.latest())
    assert "It is your turn" in newest and "You discard 2 Water" in newest
    assert [m.move for m in Move.objects.filter(game=game).order_by("number")] == [
        {"a": "discard", "c": "1ro"}, {"a": "discard", "c": "1ro"}, {"a": "discard", "c": "2wa"}]
    told = ana.inbox()
    for before, after in itertools.pairwise(told):
        assert not options_listed(before) or options_listed(before) != options_listed(after)
    for p in (bruno, carla):  # their last mail asks what they are asked still: no mail
        assert len(p.inbox()) == others[p.email]
