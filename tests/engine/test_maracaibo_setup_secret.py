"""Maracaibo's simultaneous setup keeps each planned card secret until every seat has chosen (issue 21).

A seat that had finished (planned one card, kept four) showed its planned card to the others
before they chose: in a public event's data, in their view's planning area and so in their mail
text. The property: while another seat is still choosing, nothing it sees (events, view, the
mail's text) changes when the finished seat's planned card is any other card it may hold.
"""

from __future__ import annotations

import copy
import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.core import visible_events
from engine.rng import Rng, seed_to_state
from engine.testing import player_names

RULES = engine.get("maracaibo")


def finish_setup(state: dict, seat: int, rnd: random.Random) -> list:
    """The seat plans one dealt card and keeps four; the events of those moves."""
    events = []
    while seat in RULES.pending(state):
        events += RULES.apply(state, seat, rnd.choice(RULES.options(state, seat)).move)
    return events


@settings(max_examples=25, deadline=None)
@given(n=st.integers(min_value=2, max_value=4), seed=st.integers(min_value=0, max_value=10**6),
       finished=st.integers(min_value=1, max_value=3))
def test_it_shows_no_planned_card_to_a_seat_still_choosing(n: int, seed: int, finished: int) -> None:
    rnd = random.Random(seed)
    state = RULES.setup(player_names(n), {}, seed)
    done = list(range(min(finished, n - 1)))  # at least one seat still chooses
    events = [e for s in done for e in finish_setup(state, s, rnd)]
    planned = {s: state["seats"][s]["setup"]["plan"] for s in done}
    waiting = [s for s in range(n) if s not in done]
    assert all(not state["seats"][s]["plan"] for s in done)  # not in the public planning area yet
    for other in waiting:
        seen = visible_events(events, other)
        assert all("plan" not in e.data and e.data.get("card") not in planned.values() for e in seen)
        view = RULES.view(state, other)
        text = RULES.render_text(view)
        for s, card in planned.items():
            assert view["p"][s]["plan"] == [] and not view["p"][s]["choosing"]
            assert engine.games.maracaibo.content.CARD[card]["name"] not in text.split("YOUR")[0]
        # whatever the finished seats planned, the waiting seat sees the same
        other_world = RULES.resample_hidden(copy.deepcopy(state), other, Rng({"rng": seed_to_state(rnd.random())}))
        assert json.dumps(RULES.view(other_world, other), sort_keys=True) == json.dumps(view, sort_keys=True)
    # once everybody has chosen, every planning area is shown, and the end of the setup names them
    last = [e for s in waiting for e in finish_setup(state, s, rnd)]
    assert all(state["seats"][s]["plan"] == [planned[s]] for s in done)
    end = next(e for e in last if e.kind == "setup_end")
    assert end.reveals and all(engine.games.maracaibo.content.CARD[c]["name"] in end.text for c in planned.values())
