"""What a Maracaibo turn tells: a village action from a card or a ship area names whose action it was
("since your last mail" said "You get 1 doubloon." and not which card gave it; issue 21)."""

from __future__ import annotations

import random
import re

import engine
from engine.games.maracaibo import content as C
from engine.testing import choose, player_names

RULES = engine.get("maracaibo")


def test_it_names_the_card_whose_village_action_was_used() -> None:
    rnd = random.Random(4)
    seen = 0
    for seed in range(12):
        state = RULES.setup(player_names(2), {}, seed)
        for _ in range(3000):
            pending = RULES.pending(state)
            if not pending or seen >= 3:
                break
            seat = pending[0]
            options = RULES.options(state, seat)
            used = next((o for o in options if re.fullmatch(r"v\d+", o.code)), None)
            chosen = used or choose(RULES, state, seat, options, rnd)
            events = RULES.apply(state, seat, chosen.move)
            if used is not None:
                name = C.CARD[int(used.code[1:])]["name"]
                said = [e for e in events if e.kind == "village_use"]
                assert said and f"uses {name}'s village action" in said[0].text and said[0].data["card"] == int(
                    used.code[1:])
                assert events.index(said[0]) < len(events) - 1  # what it gave follows
                seen += 1
    assert seen >= 1
