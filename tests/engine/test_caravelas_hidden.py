"""Caravelas II hidden information: hands are private, deck orders unknown to all, returned cards
known to their returner only; views, option labels and events never leak, and resample_hidden
changes everything a seat cannot know and nothing it knows."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from engine.core import visible_events
from engine.games.caravelas import RULES
from engine.rng import Rng
from tests.engine.test_caravelas_rules import game, play, put

State = dict[str, Any]


def positions(n: int, count: int = 60, seed: str = "hidden") -> list[State]:
    """States from a bot game, including some with a discovery draw pending."""
    rnd = random.Random(seed)
    state = RULES.setup(["Ana", "Bruno", "Carla", "Duarte"][:n], None, seed)
    out = []
    while RULES.pending(state) and len(out) < count:
        seat = RULES.pending(state)[0]
        opts = RULES.options(state, seat)
        if rnd.random() < 0.3 or state["stack"][-1]["k"] == "keep":
            out.append(copy.deepcopy(state))
        RULES.apply(state, seat, RULES.bot_choice(state, seat, opts, rnd).move)
    return out


def test_it_shows_a_player_its_own_hands_and_only_counts_of_the_others() -> None:
    state = game(3)
    view = RULES.view(state, 1)
    assert view["me"]["hand"] == state["fleets"][1]["hand"]
    assert view["me"]["disc"] == state["fleets"][1]["disc"]
    assert [f["hand"] for f in view["fleets"]] == [4, 4, 4]
    assert [f["disc"] for f in view["fleets"]] == [4, 4, 4]
    text = json.dumps(view)
    for c in state["fleets"][0]["disc"] + state["fleets"][2]["disc"]:
        assert f'"{c}"' not in text


def test_it_never_shows_the_order_or_content_of_the_decks() -> None:
    state = game(2)
    for seat in (None, 0, 1):
        view = RULES.view(state, seat)
        assert view["mdeck"] == len(state["mdeck"]) and view["dpile"] == len(state["dpile"])
        text = json.dumps(view)
        for c in state["dpile"]:
            assert f'"{c}"' not in text


def test_it_gives_a_spectator_no_private_part() -> None:
    state = game(2)
    view = RULES.view(state, None)
    assert "me" not in view and view["seat"] is None


def test_it_shows_drawn_discovery_cards_to_the_drawer_only() -> None:
    state = put(game(2), 0, disc=[])
    events = play(state, 0, "draw")
    drawn = state["stack"][-1]["drawn"]
    assert RULES.view(state, 0)["me"]["drawn"] == drawn
    assert "drawn" not in RULES.view(state, 1)["me"]
    public = json.dumps([e.as_dict() for e in visible_events(events, 1)])
    assert not any(f'"{c}"' in public for c in drawn)
    private = [e for e in events if e.kind == "drawn"]
    assert private[0].to == (0,) and private[0].reveals


def test_it_tells_only_the_mover_which_movement_cards_it_drew() -> None:
    state = put(game(2), 0, hand=[3])
    events = play(state, 0, "move 3 to acores")
    cards = [e for e in events if e.kind == "cards"]
    assert len(cards) == 1 and cards[0].to == (0,) and cards[0].reveals
    assert [e.kind for e in visible_events(events, 1)] == ["move", "refill", "turn"]


def test_it_resamples_everything_a_seat_cannot_know_and_nothing_it_knows() -> None:
    for n in (2, 3, 4):
        changed = 0
        for i, state in enumerate(positions(n, 40, seed=f"rs-{n}")):
            for seat in [None, *range(n)]:
                rng = Rng({"rng": f"{i:016x}"})
                other = RULES.resample_hidden(copy.deepcopy(state), seat, rng)
                assert RULES.view(other, seat) == RULES.view(state, seat)
                if seat is not None:
                    labels = [(o.code, o.label) for o in RULES.options(other, seat)]
                    assert labels == [(o.code, o.label) for o in RULES.options(state, seat)]
                    mine = state["fleets"][seat]
                    assert other["fleets"][seat]["hand"] == mine["hand"]
                    assert other["fleets"][seat]["disc"] == mine["disc"]
                changed += other != state
                # the cards are all still there
                for key in ("mdeck",):
                    assert sorted(other[key] + [v for f in other["fleets"] for v in f["hand"]]) == \
                        sorted(state[key] + [v for f in state["fleets"] for v in f["hand"]])
        assert changed > 0


def test_it_resamples_others_hands_and_the_deck_order() -> None:
    state = game(3)
    seen_hands, seen_decks = set(), set()
    for i in range(20):
        other = RULES.resample_hidden(copy.deepcopy(state), 0, Rng({"rng": f"{i:016x}"}))
        seen_hands.add(json.dumps([other["fleets"][1]["hand"], other["fleets"][2]["disc"]]))
        seen_decks.add(json.dumps([other["mdeck"], other["dpile"]]))
        assert other["fleets"][0] == state["fleets"][0]
    assert len(seen_hands) > 10 and len(seen_decks) > 10


def test_it_keeps_the_returned_cards_where_their_returner_knows_them_in_a_resample() -> None:
    state = put(game(3), 1, disc=[])
    state["turn"] = 1
    play(state, 1, "draw")
    play(state, 1, "keep 2")
    known = list(state["dknown"][1])
    assert len(known) == 3 and state["dpile"][-3:] == known
    for i in range(10):
        other = RULES.resample_hidden(copy.deepcopy(state), 1, Rng({"rng": f"{i:016x}"}))
        assert other["dpile"][-3:] == known and other["dknown"][1] == known
        # for another seat those cards are unknown: they may move, and the returner's memory follows them
        third = RULES.resample_hidden(copy.deepcopy(state), 0, Rng({"rng": f"{i:016x}"}))
        assert third["dknown"][1] == third["dpile"][-3:]


def test_it_forgets_a_returned_card_once_it_is_drawn_again() -> None:
    state = put(game(2), 0, disc=[])
    state["dpile"] = state["dpile"][:5]
    play(state, 0, "draw")
    play(state, 0, "keep 1")
    assert len(state["dknown"][0]) == 3
    play(state, 0, "end")
    play(state, 0, "keep cards")
    bruno = state["fleets"][1]
    bruno["found"], bruno["disc"] = bruno["disc"], []
    assert len(state["dpile"]) == 4
    play(state, 1, "draw")  # draws the last one of the pile and the three Ana returned
    assert state["dknown"][0] == []
    assert RULES.view(state, 0)["me"]["bottom"] == []
