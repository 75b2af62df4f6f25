"""Genova left out of the home ports dealt with the Liberation module, as the rulebook advises (#20): "os Portos
de Origem que lhe dão influência obtêm 2 pontos de vitória por influência. Não recomendamos o uso de 'Genova'
neste caso" (docs/rules/maracaibo-uprising.md, A7). The port's row says the modules it is left out of
(data/uprising: ``left_out``; homeports.dealt_pool); a game set up before (format 15 and older) holding Genova
is stamped ``port_pool`` "all" by format 16 and replays from the 15 ports (golden/maracaibo_79_019c428.json: a
79 game played on main 019c428 in which a player keeps Genova)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from engine.errors import SetupError
from engine.games.maracaibo import RULES, homeports
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.upgrade import _readable_keys, current
from engine.testing import player_names
from tests.engine.maracaibo_golden import golden, played, upgraded

GENOVA = "HP4"


def held_ports(state: dict[str, Any]) -> list[str]:
    """Every port the state holds: the box, the kept ones (hidden or on a board) and those being chosen."""
    held = [*state["ports_box"], *state["ports_kept"].values()]
    for p in state["seats"]:
        held += [p["port"], *p["setup"].get("ports", ())]
    return [pid for pid in held if pid]


@pytest.mark.parametrize(("mode", "n"), [("79", 2), ("79", 3), ("79", 4), ("74", 1), ("74", 2), ("193", 2)])
def test_a_game_with_liberation_never_deals_genova_nor_boxes_it(mode: str, n: int) -> None:
    for i in range(8):
        state = RULES.setup(player_names(n), {"mode": mode}, f"no-genova-{mode}-{n}-{i}")
        held = held_ports(state)
        assert GENOVA not in held
        assert sorted(held) == sorted(hp["id"] for hp in U.PORTS if hp["id"] != GENOVA)  # (the 14 others, once)
        assert state["options"]["port_pool"] == "current"


def test_78_still_deals_genova_to_some_player() -> None:
    dealt = 0
    for i in range(10):
        state = RULES.setup(player_names(4), {"mode": "78"}, f"genova-78-{i}")
        assert GENOVA in held_ports(state) and len(held_ports(state)) == 15
        dealt += any(GENOVA in p["setup"]["ports"] for p in state["seats"])
    assert dealt  # (4 players are dealt 12 of the 15: Genova among them in most seeds)


def test_a_campaign_game_whose_story_plays_liberation_leaves_genova_out() -> None:
    story = {"options": {"mode": "campaign"}, "story": {"modules": ["liberation", "resistance"]}}
    assert GENOVA not in homeports.dealt_pool(story)
    assert GENOVA in homeports.dealt_pool({"options": {"mode": "campaign"}, "story": {"modules": ["uprising"]}})
    assert len(homeports.dealt_pool({**story, "options": {"mode": "campaign", "port_pool": "all"}})) == 15


def test_a_79_game_stored_before_deals_genova_and_replays_exactly() -> None:
    g = golden("maracaibo_79_019c428")
    stored = upgraded(g["state"])
    assert stored["options"]["port_pool"] == "all"  # (format 16: it holds Genova)
    assert [p["port"] for p in stored["seats"]].count(GENOVA) == 1  # (a player kept it)
    options = RULES.replay_options(g["options"], g["state"])
    assert options["port_pool"] == "all"
    assert played(g, options, g["moves"]) == stored  # exactly: the 15 ports dealt, the same draws
    assert played(g, options, [*g["moves"], *g["rest"]]) == upgraded(g["final"])  # and on to its end
    today = RULES.setup(g["players"], g["options"], g["seed"])
    assert GENOVA not in held_ports(today)  # (today's setup of the same seed deals otherwise)
    assert json.loads(json.dumps(today)) != played(g, options, [])


def test_format_16_says_all_only_of_a_liberation_game_holding_genova() -> None:
    then = RULES.setup(player_names(3), {"mode": "79", "port_pool": "all"}, "format-16")
    assert GENOVA in held_ports(then)
    for state, said in ((then, "all"), (RULES.setup(player_names(3), {"mode": "79"}, "format-16"), "current"),
                        (RULES.setup(player_names(3), {"mode": "78"}, "format-16"), "current")):
        old = copy.deepcopy(state)
        _readable_keys(old, back=True)  # (format 15's keys: the short ones)
        old["format"] = 15
        old["options"] = {k: v for k, v in old["options"].items() if k != "port_pool"}
        current(old)
        assert old["options"]["port_pool"] == said
        assert json.loads(json.dumps(old)) == json.loads(json.dumps(state))


def test_it_refuses_a_port_pool_it_does_not_know() -> None:
    with pytest.raises(SetupError, match="port_pool"):
        RULES.setup(player_names(3), {"mode": "79", "port_pool": "some"}, "refused")
