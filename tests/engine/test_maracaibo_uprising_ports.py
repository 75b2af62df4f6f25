"""Maracaibo: The Uprising, the Home Ports module's remaining ports and the effect language's
extensions they use (docs/rules/maracaibo-uprising.md, "Home Ports", "Effect language").

Every test starts from a real setup of a mode-78 game played by the engine through its options
(``tests/engine/maracaibo_scenarios._started``), then puts Ana (seat 0) before the decision tested.
"""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _codes(state: State, seat: int = 0) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def _labels(state: State, seat: int = 0) -> dict[str, str]:
    return {o.code: o.label for o in RULES.options(state, seat)}


def _play(state: State, seat: int, code: str) -> list[Any]:
    return RULES.apply(state, seat, {"code": code})


def _read(state: State, line: str, seat: int = 0) -> str:
    return str(RULES.parse(line, state, seat)["code"])


def _with_port(port: str, mode: str = "78", unlocked: bool = True, **kw: Any) -> State:
    """Ana after the setup, her home port ``port`` kept (its area unlocked unless told)."""
    state = _started(mode=mode, **kw)
    p = state["p"][0]
    p["port"] = port
    p["discs"] = {**p["discs"], "UH": 0}
    if unlocked:
        p["areas"] = [*p["areas"], "UH"]
    state["v"] += 1
    return state


# ---- Bremen and Oranjestad: the player chooses the cards paid ---------------------------------------

def test_it_asks_which_tobacco_cards_pay_bremens_village_action() -> None:
    # hand: 8 Silent Priest, 24 Old Scout, 36 Old Deserter (tobacco), 1 Red Gunner (cotton)
    state = _with_port("HP2", hand=(1, 8, 24, 36))
    p = state["p"][0]
    _on(state, frame("village", 0, left=2, used=[]))
    d = p["d"]
    _play(state, 0, "vH")
    assert state["stack"][-1]["kind"] == "trade"
    labels = _labels(state)
    assert set(labels) == {"y8-24", "y8-36", "y24-36"}
    assert labels["y24-36"].startswith("discard Old Scout (tobacco), Old Deserter (tobacco); keep")
    assert _read(state, "keep silent priest") == "y24-36"
    assert _read(state, "discard silent priest and old deserter") == "y8-36"
    _play(state, 0, "y24-36")
    assert sorted(p["hand"]) == [1, 8] and p["d"] == d + 5
    assert {24, 36} <= set(state["discard"])
    assert state["stack"][-1]["kind"] == "village"  # the second village action follows
    assert "vH" not in _codes(state)  # one tobacco left


def test_it_pays_oranjestad_without_asking_when_one_way_pays() -> None:
    state = _with_port("HP12", hand=(3, 7, 8))  # 3 Wealthy Navigator, 7 Bold Merchant: the two corn cards
    p = state["p"][0]
    _on(state, frame("village", 0, left=2, used=[]))
    cp = p["cp"]
    assert "pay 2 corn for 3 combat points" in _labels(state)["vH"]
    _play(state, 0, "vH")
    assert p["hand"] == [8] and p["cp"] == cp + 3
    assert state["stack"][-1]["kind"] == "village"


# ---- Nassau: a place of the map and a home port ----------------------------------------------------

def test_it_reads_nassau_as_the_home_port_when_keeping_one_and_as_the_place_when_sailing() -> None:
    from engine.errors import IllegalMove

    state = RULES.setup(player_names(3), {"mode": "78"}, "nassau")
    dealt = state["p"][0]["setup"]["ports"]
    if "HP11" not in dealt:  # Nassau dealt to Ana in place of her first port (the box keeps the other)
        state["ports_box"] = sorted([*state["ports_box"], dealt[0]], key=lambda x: int(x[2:]))
        for holder in [state["ports_box"], *(p["setup"]["ports"] for p in state["p"][1:])]:
            if "HP11" in holder:
                holder.remove("HP11")
        dealt[0] = "HP11"
        state["v"] += 1
    for line in ("keep nassau", "nassau", "home port nassau", "keep home port Nassau", "port nassau"):
        assert _read(state, line) == "hHP11", line
    for line in ("sail to nassau", "liberate nassau"):
        try:
            RULES.parse(line, state, 0)
        except IllegalMove:
            continue
        raise AssertionError(f"{line!r} named a home port")
    sailing = _started(mode="78", at="1")
    _on(sailing, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    assert _labels(sailing)["s2"] == "sail 1 to 2 Nassau"
    for line in ("sail to nassau", "sail nassau", "nassau", "sail to 2"):
        assert _read(sailing, line) == "s2", line
    try:
        RULES.parse("keep home port nassau", sailing, 0)
    except IllegalMove:
        pass
    else:
        raise AssertionError("a home port read while sailing")


def test_it_tells_the_home_port_nassau_from_the_place_nassau_in_the_catalogue() -> None:
    from engine.games.maracaibo.catalogue import catalogue, option_details

    cat = catalogue()
    place = next(x for x in cat["places"] if x["id"] == "2")
    port = next(x for x in cat["tiles"]["home_ports"] if x["id"] == "HP11")
    assert place["name"] == port["name"] == "Nassau"
    assert port["kind"] == "home port" and port["label"] == "home port Nassau"
    assert len(cat["tiles"]["home_ports"]) == 15
    state = RULES.setup(player_names(2), {"mode": "78"}, "nassau-cat")
    o = RULES.options(state, 0)[0]
    assert option_details(state, 0, o) == {"kind": "home_port", "tile": o.code[1:]}
    sailing = _started(mode="78", at="1")
    _on(sailing, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    s2 = next(o for o in RULES.options(sailing, 0) if o.code == "s2")
    assert option_details(sailing, 0, s2) == {"kind": "sail", "place": "2"}
