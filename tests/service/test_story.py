""""Since your last mail" reads as a story told to its reader (issue 10): their own moves in
the second person, each thing once, sentences with capitals and singulars, names not seats."""

from __future__ import annotations

import itertools
import random
import re

import pytest

from engine.core import Event
from pbem.games import wording
from pbem.games.models import Game, OutboundMessage
from tests.factories import mail_text, play_first_options, start_game


@pytest.mark.parametrize(("told", "heard"), [
    ("Everybody draws 2 cards; Ana becomes the starting player.",
     "Everybody draws 2 cards; you become the starting player."),
    ("Turn 2 begins; Ana is the starting player.", "Turn 2 begins; you are the starting player."),
    ("All cards are turned over. Ana: 1 Wood; Bruno: 4 Rope", "All cards are turned over. You: 1 Wood; Bruno: 4 Rope"),
    ("Ana discards 1 Wood from their stock", "You discard 1 Wood from your stock"),
    ("nobody is in front of Ana: the Fishing Spear has no effect",
     "Nobody is in front of you: the Fishing Spear has no effect"),
    ("no opponent of Ana has a card in stock", "No opponent of yours has a card in stock"),
    ("Bruno puts 2 Fire on Ana's raft", "Bruno puts 2 Fire on your raft"),
    ("Ana gets 1 doubloons.", "You get 1 doubloon."),
    ("Carla swaps places with Ana: Carla is now at space 6, Ana at space 5",
     "Carla swaps places with you: Carla is now at space 6, you at space 5"),
    ("Ana has chosen a card for position 1", "You have chosen a card for position 1"),
    ("Bruno gives 11 cards to Carla", "Bruno gives 11 cards to Carla"),
    ("Next turn Ana plays their first card face down", "Next turn you play your first card face down"),
    ("Bruno shows Ana cards", "Bruno shows you cards"),
])
def test_it_tells_each_line_to_its_reader(told: str, heard: str) -> None:
    assert wording.sentence(wording.to_reader(told, "Ana")) == heard


def test_it_tells_a_private_line_once_instead_of_its_public_twin() -> None:
    events = [Event("chosen", "Ana has chosen a card for position 1"),
              Event("play", "You put 1 Wood face down in position 1", to=(0,)),
              Event("chosen", "Bruno has chosen a card for position 1")]
    assert wording.story(events, 0, "Ana") == ["You put 1 Wood face down in position 1",
                                               "Bruno has chosen a card for position 1"]


def test_a_private_line_has_one_public_twin_and_the_next_line_about_its_reader_is_told() -> None:
    # play-test of Maracaibo's Uprising (78): the reader's round-end income, after their draw, was dropped
    events = [Event("draw", "Ana draws 1 card."), Event("drawn", "You draw Lucky Gravedigger.", to=(0,)),
              Event("income", "Ana receives 8 doubloons and 0 VP."),
              Event("income", "Bruno receives 8 doubloons and 1 VP.")]
    assert wording.story(events, 0, "Ana") == ["You draw Lucky Gravedigger.", "You receive 8 doubloons and 0 VP.",
                                               "Bruno receives 8 doubloons and 1 VP."]


def test_it_counts_a_thing_that_happened_several_times_in_a_row() -> None:
    # three village actions ``vd`` gave 3 doubloons: told once, with how many times
    events = [Event("sail", "Ana sails 2 to 9 Barbados."), *[Event("gain", "Ana gets 1 doubloons.")] * 3,
              Event("draw", "Bruno draws 1 card."), Event("draw", "Bruno draws 1 card.")]
    assert wording.story(events, 0, "Ana") == ["You sail 2 to 9 Barbados.", "You get 1 doubloon. (3 times)",
                                               "Bruno draws 1 card. (2 times)"]


WRONG = [
    (re.compile(r"\byou (is|has|was|does|[a-z]+[^s]s)\b"), "a verb not agreeing with you"),
    (re.compile(r"^You .*\btheir\b"), "their for the reader's own things"),
    (re.compile(r"(^|[.!?] )[a-z]"), "a sentence without its capital"),
    (re.compile(r"(?<![\d.,])\b1 (card|space|point|doubloon|step|cube)s\b"), "a plural after 1"),
    (re.compile(r"\b[Ss]eat \d"), "a seat number instead of a name"),
]


@pytest.mark.parametrize(("rules", "options"), [("maretta", {"side": "A"}), ("maretta", {"side": "B"}),
                                                 ("caravelas", {}), ("maracaibo", {})])
def test_the_stories_of_a_real_game_read_right(alice, bob, carol, rules, options) -> None:
    game = start_game(rules, alice, [bob, carol], options=options)
    play_first_options(game.pk, limit=60, rnd=random.Random(4))
    told = 0
    for m in OutboundMessage.objects.filter(game=game).order_by("pk"):
        if "Since your last mail:" not in mail_text(m):
            continue
        story = mail_text(m).split("Since your last mail:", 1)[1].split("\n\n", 1)[0]
        lines = [line.removeprefix("  - ") for line in story.strip("\n").splitlines()]
        told += len(lines)
        for line in lines:
            for pattern, what in WRONG:
                assert not pattern.search(line), f"{what} in a mail to {m.to_email}: {line!r}"
        game_lines = [line for line in lines if not line.startswith("Older moves")]
        assert all(a != b for a, b in itertools.pairwise(game_lines)), "a line told twice in a row"
    assert told > 20
    game.refresh_from_db()
    assert game.status in (Game.Status.RUNNING, Game.Status.FINISHED)


@pytest.mark.parametrize(("n", "scenario"), [(3, "77"), (2, "76")])
def test_it_tells_maracaibo_moves_in_the_second_person_to_their_player_only(n: int, scenario: str) -> None:
    """A seeded whole game: every reader's story of every move. A line about another player names
    them and never says "you" or "your" (the city actions and legacy tiles are written to the player
    who takes them: their events tell them about that player); the reader's own are "You ...",
    never "their"."""
    from engine.core import visible_events
    from engine.games.maracaibo import RULES

    names = ["Ana", "Bruno", "Carla"][:n]
    state = RULES.setup(names, {"scenario": scenario}, f"story-{n}")
    rnd = random.Random(7)
    about_others: list[str] = []
    mine: list[str] = []
    while RULES.pending(state):
        seat = RULES.pending(state)[0]
        events = RULES.apply(state, seat, RULES.bot_choice(state, seat, RULES.options(state, seat), rnd).move)
        for reader, name in enumerate(names):
            for line in wording.story(list(visible_events(events, reader)), reader, name):
                if any(line.startswith((f"{other} ", f"{other}'s ")) for other in names if other != name):
                    about_others.append(line)
                    assert not re.search(r"\b(you|your|yours)\b", line, re.I), f"told to {name}: {line!r}"
                elif line.startswith(("You ", "Your ")):
                    mine.append(line)
                    assert not re.search(r"\b(their|theirs|they)\b", line), f"told to {name}: {line!r}"
    assert RULES.outcome(state) is not None
    told = " ".join(about_others)
    assert "takes the city action: " in told and "You take the city action: " in " ".join(mine)
    if scenario == "77":
        assert " stops at " in told and "of their choice" in told
