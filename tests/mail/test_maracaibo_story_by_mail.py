""""Since your last mail" names the card whose action was used (issue 21: three ``vd`` and a card's
village action all read "You get 1 doubloon.", never which card), on a real Maracaibo game: played
by the bot through the service until a captain may use a card's village action, which they then
write by mail over a real SMTP socket; the answer to that mail tells it as "You use …", what it gave
after it, and the other player's next mail with the captain's name."""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Callable

import pytest

from engine.core import Option
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from pbem.games import services
from pbem.games.models import Game
from tests.factories import player_at
from tests.mail.conftest import Persona, seat_of, sent_messages, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def _story(text: str) -> list[str]:
    story = text.split("Since your last mail:", 1)[1].split("\n\n", 1)[0]
    return [line.strip().removeprefix("- ") for line in story.strip("\n").splitlines()]


def _bot_until(game: Game, stop: Callable[[Game, int, list[Option]], bool]) -> None:
    """Play every pending seat's bot choice through the service until ``stop(game, seat, options)``."""
    rnd = random.Random(3)
    for _ in range(3000):
        game.refresh_from_db()
        assert game.status == Game.Status.RUNNING and game.state is not None
        seat = RULES.pending(game.state)[0]
        options = RULES.options(game.state, seat)
        if stop(game, seat, options):
            return
        choice = RULES.bot_choice(game.state, seat, options, rnd)
        services.do_submit_moves(game.pk, player_at(game, seat), [services.Command(code=choice.code)],
                                 source="api")
    raise AssertionError("the game never got there")


def _village_actions_answered(game: Game, seat: int, options: list[Option]) -> list[str]:
    """The card village actions of ``options`` after which ``seat`` still decides, so that the mail that
    plays one is answered by a mail to its captain. (Why: an action that ends the turn by itself, such as
    a card's whose village action leaves nothing more to do, gives no answer mail to the captain at
    once, only the next player's turn mail; seed 9359fa7f... dealt one.)"""
    assert game.state is not None
    answered = []
    for option in options:
        if re.fullmatch(r"v\d+", option.code):
            state = copy.deepcopy(game.state)
            RULES.apply(state, seat, {"code": option.code})
            if seat in RULES.pending(state):
                answered.append(option.code)
    return answered


#: A deal in which the bot's game reaches a card village action after which its captain still decides.
#: Why a fixed one: not every deal does (seed fc3dc65a... played a whole game without one, and the test
#: failed at random in about one run of many).
SEED = "story-village-0"


def test_the_story_by_mail_names_the_card_whose_village_action_was_used(
        ana: Persona, bruno: Persona, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    game = start_game("maracaibo", [ana, bruno])
    _bot_until(game, lambda g, seat, options: bool(_village_actions_answered(g, seat, options)))
    assert game.state is not None
    seat = RULES.pending(game.state)[0]
    captain, other = (ana, bruno) if seat_of(game, ana).index == seat else (bruno, ana)
    code = _village_actions_answered(game, seat, RULES.options(game.state, seat))[0]
    card = C.CARD[int(code[1:])]["name"]
    version = game.version
    before = len(sent_messages())
    captain.reply(captain.latest(), code)
    game.refresh_from_db()
    assert game.version > version, "the card's village action was applied from the mail"
    # the answer to the captain's mail tells the move as "You use ..."; the other player's next
    # mail, once the game has gone on, tells it with the captain's name
    answer = next(text_of(m) for m in sent_messages()[before:] if captain.email in str(m["To"]))
    mine = _story(answer)
    used = f"You use {card}'s village action."
    assert used in mine, mine
    assert mine.index(used) < len(mine) - 1, "what it gave is told after it"
    mailed = len(sent_messages())

    def told_to_other(_g: Game, _seat: int, _options: list[Option]) -> bool:
        return any(other.email in str(m["To"]) and "Since your last mail:" in text_of(m)
                   for m in sent_messages()[mailed:])

    _bot_until(game, told_to_other)
    theirs = next(_story(text_of(m)) for m in sent_messages()[mailed:]
                  if other.email in str(m["To"]) and "Since your last mail:" in text_of(m))
    assert f"{captain.name} uses {card}'s village action." in theirs, theirs
