"""Maracaibo's combat actions as rows of data (engine/games/maracaibo/combat.py, data/combat.json):
every action offered in a combat is one row, and one generic do_combat_action carries it out."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.combat import ROWS, check_row, combat_options, do_combat_action
from engine.rng import Rng
from engine.testing import choose, player_names


def _row_of(code: str) -> tuple[dict[str, Any], str | None]:
    by_code = {r["code"]: r for r in ROWS}
    if code in by_code:
        return by_code[code], None
    return by_code[code[:2]], code[2:]


def _combats(n: int, seed: str, **options: Any) -> list[dict[str, Any]]:
    """Every state of a seeded bot game where a combat action is to be chosen."""
    rnd = random.Random(seed)
    state = RULES.setup(player_names(n), options, seed)
    found = []
    while pend := RULES.pending(state):
        seat = pend[0]
        if state["stack"][-1]["kind"] == "combat":
            found.append(copy.deepcopy(state))
        RULES.apply(state, seat, choose(RULES, state, seat, RULES.options(state, seat), rnd).move)
    return found


def test_it_carries_out_every_combat_action_offered_by_its_row() -> None:
    seen: set[str] = set()
    for seed, options in (("rows-a", {"scenario": "77"}), ("rows-b", {"scenario": "76"})):
        for state in _combats(3, seed, **options):
            f = state["stack"][-1]
            seat, data = f["seat"], f["data"]
            for o in combat_options(state, seat, data):
                if o.code == "cend":
                    continue
                row, loc = _row_of(o.code)
                assert o.label.endswith(f"(value {row['cost']})")
                assert row["once"] not in data["used"]
                s = copy.deepcopy(state)
                p = s["seats"][seat]
                before = (p["combat_points"] + p["figures"], s["markers"].get(loc or ""))
                frames = do_combat_action(s, seat, o.code, copy.deepcopy(data), Rng(s), [])
                after = frames[-1]["data"]
                assert frames[-1]["kind"] == "combat" and row["once"] in after["used"]
                assert after["value"] == max(0, data["value"] - row["cost"])
                short = max(0, row["cost"] - data["value"])
                paid_at_once = not any(fr["kind"] == "short" for fr in frames)
                if paid_at_once and not {"cp", "fig", "flag"} & set(row["effect"]):  # (no points or figures got)
                    assert p["combat_points"] + p["figures"] == before[0] - short
                if row["effect"].get("marker"):
                    assert s["markers"][loc] == data["nation"] != before[1]
                seen.add(row["id"])
    # the games used the rulebook's rows, a card's and the treasure fleet's (legacy tile L6)
    assert {"influence1", "influence2", "annex", "displace", "L6a", "L6b"} <= seen
    assert any(i.startswith("c") and i[1:].isdigit() for i in seen)


def test_it_makes_a_row_of_each_card_and_legacy_combat_action() -> None:
    card_actions = sum(1 for c in C.CARD.values() for e in c["effects"] if e["t"] == "combat")
    legacy_actions = sum(len(t["actions"]) for t in C.LEGACY.values() if t["kind"] == "combat")
    port_actions = sum(1 for hp in U.PORTS for e in hp["effects"] if e["t"] == "combat")  # the Uprising's
    assert port_actions == 3  # Kingstown, Port-au-Prince, Yaquimel
    assert len(ROWS) == len(C.COMBAT_ACTIONS) + card_actions + legacy_actions + port_actions
    costs = {r["id"]: r["cost"] for r in ROWS}
    # the rulebook's values: influence 2 and 5, annex 4, displace 6; the ship's (U6) 2 and 5
    assert [costs[i] for i in ("influence1", "influence2", "annex", "displace", "ship_annex", "ship_displace")] \
        == [2, 5, 4, 6, 2, 5]


@pytest.mark.parametrize(("row", "words"), [
    ({"id": "x", "code": "cx", "cost": 2, "once": "x", "label": "x", "effect": {}, "price": 3}, "keys"),
    ({"id": "x", "code": "cx", "cost": -1, "once": "x", "label": "x", "effect": {}}, "cost"),
    ({"id": "x", "code": "cx", "cost": 2, "once": "x", "label": "x", "effect": {}, "needs": {"moon": 1}}, "needs"),
    ({"id": "x", "code": "cx", "cost": 2, "once": "x", "label": "x", "effect": {"teleport": 1}}, "effect"),
    ({"id": "x", "code": "cx", "cost": 2, "once": "x", "label": "x", "effect": {},
      "where": {"kinds": ["city"], "held": "everyone"}}, "where"),
    ({"id": "x", "code": "cx", "cost": 2, "once": "x", "label": "x", "effect": {"marker": True}}, "target"),
])
def test_it_refuses_a_malformed_combat_row_saying_why(row: dict[str, Any], words: str) -> None:
    with pytest.raises(ValueError, match=f"combat action x: .*{words}"):
        check_row(row)
