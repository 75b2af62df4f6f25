"""The mail lists the ship areas a delivery's disc may come from before the delivery is chosen (#21).

Real games played by the engine: wherever a seat's ship is at a city whose market is open and the
mail says so, the areas it lists are those the disc decision then offers after the delivery (and
its payment) is chosen; and a delivery written whole with its disc on one line is applied whole.
"""

from __future__ import annotations

import copy
import random
import re

from engine.batch import Command, apply_batch
from engine.games.maracaibo import RULES
from tests.engine import maracaibo_scenarios as S

_LISTED = re.compile(r"The disc may come from ship area (.*?)\. In one line")


def _listed(state: dict, seat: int) -> list[str] | None:
    text = " ".join(RULES.render_mail_text(RULES.view(state, seat)).split())
    found = _LISTED.search(text)
    return re.findall(r"(?:^|; )(U\w+) \(", found.group(1)) if found else None


def _after_delivery(state: dict, seat: int, code: str) -> list[str]:
    """The areas the disc decision offers once the delivery ``code`` (and its first payment) is chosen."""
    trial = copy.deepcopy(state)
    RULES.apply(trial, seat, {"code": code})
    while trial["stack"] and trial["stack"][-1]["kind"] == "pay":
        RULES.apply(trial, seat, RULES.options(trial, seat)[0].move)
    assert trial["stack"][-1]["kind"] == "disc", trial["stack"][-1]["kind"]
    return ["U" + o.code[1:] for o in RULES.options(trial, seat) if re.fullmatch(r"u\w+", o.code)]  # (not free actions)


def test_it_lists_the_disc_areas_the_delivery_then_offers_in_real_games() -> None:
    checked = 0
    for g in range(4):
        state = RULES.setup(["Ana", "Bruno", "Carla"][:2 + g % 2], {"mode": "78"} if g == 3 else {}, f"discs-{g}")
        rnd = random.Random(g)
        for _ in range(300):
            pending = RULES.pending(state)
            if not pending:
                break
            seat = pending[0]
            opts = RULES.options(state, seat)
            deliveries = [o for o in opts if re.fullmatch(r"d[a-z]+", o.code)]
            if deliveries and state["stack"][-1]["kind"] == "main":
                listed = _listed(state, seat)
                assert listed, "a delivery is offered but the mail lists no ship area"
                for o in deliveries:
                    assert _after_delivery(state, seat, o.code) == listed, o.label
                checked += 1
            RULES.apply(state, seat, RULES.bot_choice(state, seat, opts, rnd).move)
    assert checked >= 5


def test_it_applies_a_delivery_written_with_its_payment_and_disc_from_the_listed_areas() -> None:
    state, seat = S.city_two_corn()
    listed = _listed(state, seat)
    assert listed and "U3" in listed
    result = apply_batch(RULES, state, seat, [Command(text=f"deliver corn with card 3, disc {listed[0]}")])
    assert result.refused is None
    assert [s.move["code"] for s in result.steps] == ["dcorn", "y3", "u" + listed[0][1:]]
