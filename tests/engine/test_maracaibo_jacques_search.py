"""The Search, scenario 193's module (docs/rules/maracaibo-cooperative.md, The Search; SE below):
hints, card 191 (192 solo), Luysa found and freed, the rules it switches off."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from engine.core import Event, State
from engine.games.maracaibo import RULES, coop, search
from engine.games.maracaibo import content as C
from engine.rng import Rng, seed_to_state
from engine.stack import frame
from engine.testing import check_conformance, player_names
from tests.engine.test_maracaibo_jacques_coop import finish

#: a gain's words (the data files') -> the player's keys in the state
STATE_KEY = {"d": "doubloons", "vp": "victory_points", "cp": "combat_points"}


def started(n: int, seed: Any = 1, **options: Any) -> State:
    state = RULES.setup(player_names(n), {"mode": "193", **options}, seed)
    while state["stack"][-1]["kind"] == "setup":
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.options(state, seat)[0].move)
    return state


def codes(state: State) -> list[str]:
    seat = RULES.pending(state)[0]
    return [o.code for o in RULES.options(state, seat)]


def sail_to_a_hint(state: State) -> str:
    """The pending seat sails to the nearest location holding a hint (through the game's own move)."""
    seat = RULES.pending(state)[0]
    sails = [o.code for o in RULES.options(state, seat) if o.code.startswith("s")]
    loc = next(c[1:] for c in sails if state["search"]["board"].get(c[1:]))
    RULES.apply(state, seat, {"code": f"s{loc}"})
    return loc


# ---- setup ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "on_board", "covered"), [(1, 22, None), (2, 21, "green"), (3, 22, None),
                                                         (4, 21, "red")])
def test_it_lays_the_hints_by_player_count(n: int, on_board: int, covered: str | None) -> None:
    s = RULES.setup(player_names(n), {"mode": "193"}, 3)["search"]
    assert s["card"] == (192 if n == 1 else 191)
    assert sum(len(h) for h in s["board"].values()) == on_board
    assert set(s["board"]) == set(search.DATA["locations"])
    assert len(s["board"]["2"]) == (1 if n in (2, 4) else 2)
    assert all(len(h) == 2 for loc, h in s["board"].items() if loc != "2")
    assert len(s["red"]) == 2 and s["red"][0] == ("X" if covered == "red" else None)
    assert s["green"][0] == ("X" if covered == "green" else None)
    assert len(search.HINTS) == 22 and s["found"] is None and s["freed"] is None
    assert "search" not in RULES.setup(player_names(n), {"mode": "74"}, 3)


def test_it_hides_the_face_down_hints_and_resamples_them() -> None:
    state = started(3)
    view = RULES.view(state, 0)
    assert view["search"]["board"] == {loc: len(h) for loc, h in state["search"]["board"].items()}
    assert not any(h in str(view["search"]) for h in search.HINTS)
    changed = 0
    for i in range(5):
        other = RULES.resample_hidden(copy.deepcopy(state), 0, Rng({"rng": seed_to_state(f"s{i}")}))
        assert RULES.view(other, 0) == view
        changed += other["search"]["board"] != state["search"]["board"]
    assert changed


# ---- revealing hints -------------------------------------------------------------------------------------

def test_it_offers_a_hint_before_the_main_action_where_the_ship_stops_and_places_it_with_its_reward() -> None:
    state = started(3, seed=2)
    loc = sail_to_a_hint(state)
    assert state["stack"][-1]["kind"] == "hint" and codes(state) == ["hint", "nohint"]
    top = state["search"]["board"][loc][-1]
    hint = search.HINTS[top]
    p = state["seats"][0]
    before = {"d": p["doubloons"], "vp": p["victory_points"], "cp": p["combat_points"]}
    events = RULES.apply(state, 0, {"code": "hint"})
    e = next(e for e in events if e.kind == "hint")
    assert e.reveals and e.data["hint"] == top and top not in state["search"]["board"][loc]
    row = state["search"][hint["colour"]]
    assert row.index(top) == 0
    reward = search.DATA["card"]["191"][hint["colour"]][0]
    assert all(p[STATE_KEY[k]] == before[k] + v for k, v in reward.items())
    assert state["stack"][-1]["kind"] == "main"  # then the main action


def test_it_offers_no_hint_while_both_red_spaces_are_full_until_one_is_cleared_by_an_object() -> None:
    state = started(3, seed=2)
    reds = [h for h in search.HINTS if search.HINTS[h]["colour"] == "red"]
    state["search"]["red"] = reds[:2]
    for loc in state["search"]["board"]:
        assert not search.can_reveal(state, loc)
    sail_to_a_hint(state)
    assert state["stack"][-1]["kind"] == "main"  # no hint frame
    p = state["seats"][0]
    obj = search.HINTS[reds[0]]["object"]
    card = next(c for c in C.CARD if C.CARD[c]["object"] == obj and c not in p["hand"])
    p["hand"].append(card)
    clear = f"lh1c{card}"
    assert clear in codes(state)
    RULES.apply(state, 0, {"code": clear})
    assert state["search"]["red"][0] is None and card not in p["hand"] and card in state["discard"]
    assert reds[0] in state["search"]["box"]
    assert any(search.can_reveal(state, loc) for loc in state["search"]["board"])


def test_it_finds_luysa_when_the_last_green_space_is_filled_at_the_current_ship() -> None:
    state = started(3, seed=2)
    s = state["search"]
    greens = [h for hs in s["board"].values() for h in hs if search.HINTS[h]["colour"] == "green"]
    for loc in s["board"]:  # five green hints found already (taken off the board)
        s["board"][loc] = [h for h in s["board"][loc] if h not in greens[:5]]
    s["green"] = [*greens[:5], None]
    last = greens[5]
    loc = sail_to_a_hint(state)
    for at in s["board"]:
        s["board"][at] = [h for h in s["board"][at] if h != last]
    s["board"][loc] = [*s["board"][loc], last]  # the top hint here is the last green one
    events = RULES.apply(state, 0, {"code": "hint"})
    found = next(e for e in events if e.kind == "luysa_found")
    assert found.reveals and s["found"] == loc == state["seats"][0]["at"]
    assert s["board"] == {} and s["red"] == [None, None] and all(g is None for g in s["green"])
    assert len(s["box"]) == 22


def test_it_finds_luysa_solo_when_exactly_11_hints_are_left() -> None:
    state = started(1, seed=5)
    s = state["search"]
    ev: list[Event] = []
    removed = 0
    while sum(len(h) for h in s["board"].values()) > 12:  # take hints away until 12 are left
        loc = next(loc for loc, h in s["board"].items() if h)
        s["box"].append(s["board"][loc].pop())
        removed += 1
    s["red"] = [None, None]
    loc = next(loc for loc, h in s["board"].items() if h)
    state["seats"][0]["at"] = loc
    search.reveal(state, 0, loc, Rng(state), ev)
    assert s["found"] == loc and any(e.kind == "luysa_found" for e in ev)


# ---- freeing her -------------------------------------------------------------------------------------------

def test_it_frees_luysa_at_her_location_for_l39s_combat_points() -> None:
    state = started(2, seed=2)
    s = state["search"]
    p = state["seats"][0]
    s["found"] = "5"
    p["combat_points"] = search.LUYSA["cp"]
    assert "luysa" not in codes(state)  # not there
    p["at"] = "5"
    assert "luysa" in codes(state)
    p["combat_points"] = search.LUYSA["cp"] - 1
    assert "luysa" not in codes(state)
    p["combat_points"] = search.LUYSA["cp"]
    state["revision"] += 1  # (edited by hand: the rules' options cache keys on the version)
    RULES.apply(state, 0, {"code": "luysa"})
    assert s["freed"] == 0 and p["combat_points"] == 0


def at_the_last_scoring(doubloons: tuple[int, ...]) -> State:
    """Three players, the last round ended by Bruno (seat 1), Bruno's last scoring choice to make; Luysa
    found at 5 and not free; the players' doubloons as given."""
    state = started(3, seed=2, rounds=1)
    state["search"]["found"] = "5"
    for p, d in zip(state["seats"], doubloons, strict=True):
        p["doubloons"] = d
    state["stack"] = [frame("scoring", 1, mode="final"), frame("score", 1, mode="final", ask=True)]
    state["revision"] += 1
    RULES.apply(state, 1, {"code": "vp2"})
    return state


def ransom_texts(events: list[Event]) -> list[str]:
    return [e.text for e in events if e.kind == "luysa_ransom"]


def test_it_lets_the_table_choose_who_pays_the_ransom_at_the_end() -> None:
    state = at_the_last_scoring((16, 20, 3))
    assert not state["over"] and RULES.pending(state) == [1]  # Bruno ended the game: asked first
    opts = RULES.options(state, 1)
    assert [(o.code, o.label) for o in opts] == [("ransom", "pay Luysa's ransom of 15 doubloons"),
                                                 ("noransom", "leave the ransom to another player")]
    assert RULES.options(state, 0) == [] and RULES.options(state, 2) == []
    events = RULES.apply(state, 1, {"code": "noransom"})
    assert ransom_texts(events) == ["Bruno does not pay Luysa's ransom."]
    assert RULES.pending(state) == [0]  # Carla (3 doubloons) cannot pay alone: never asked
    assert [o.label for o in RULES.options(state, 0)][1] == "leave Luysa captive"
    events = RULES.apply(state, 0, {"code": "ransom"})
    assert ransom_texts(events) == ["Ana pays Luysa's ransom of 15 doubloons: she is free."]
    assert state["over"] and state["search"]["freed"] == 0
    assert [p["doubloons"] for p in state["seats"]] == [1, 20, 3]
    out = RULES.outcome(state)
    assert out is not None and out.team is not None and coop.CONDITIONS["luysa"] in out.team.met


def test_it_leaves_luysa_captive_when_every_able_player_declines_the_ransom() -> None:
    state = at_the_last_scoring((16, 20, 3))
    RULES.apply(state, 1, {"code": "noransom"})
    events = RULES.apply(state, 0, {"code": "noransom"})
    assert ransom_texts(events) == ["Ana does not pay Luysa's ransom: nobody pays it, she stays captive."]
    assert state["over"] and state["search"]["freed"] is None and [p["doubloons"] for p in state["seats"]] == [16, 20,
                                                                                                               3]
    out = RULES.outcome(state)
    assert out is not None and out.team is not None and coop.CONDITIONS["luysa"] in out.team.missed


def test_it_asks_nobody_for_a_ransom_no_single_player_can_pay() -> None:
    state = at_the_last_scoring((14, 14, 14))  # 42 doubloons at the table, but no pooling
    assert state["over"] and state["search"]["freed"] is None


def test_it_pays_the_ransom_when_the_asked_player_misses_the_deadline() -> None:
    state = at_the_last_scoring((16, 20, 3))
    assert RULES.default_move(state, 1).code == "ransom"  # it costs the table nothing it scores


def test_it_makes_luysa_a_condition_of_the_rescue() -> None:
    state = started(2, seed=2)
    out = finish(state)
    assert out.team is not None
    luysa = coop.CONDITIONS["luysa"]
    assert (luysa in out.team.met) == (state["search"]["freed"] is not None)
    assert luysa in out.team.met + out.team.missed


# ---- the rules it switches off -----------------------------------------------------------------------------

def test_it_offers_no_noble_rank_jump_in_the_rescue() -> None:
    for mode, offered in (("78", True), ("193", False)):  # (Liberation drops it already: liberation.py)
        state = RULES.setup(player_names(2), {"mode": mode}, 2)
        while state["stack"][-1]["kind"] == "setup":
            seat = RULES.pending(state)[0]
            RULES.apply(state, seat, RULES.options(state, seat)[0].move)
        state["seats"][0]["influence"] = {**state["seats"][0]["influence"], "france": 1}
        assert C.next_rank_at(1) is not None
        state["stack"].append(frame("u11", 0))
        assert ("rank" in codes(state)) == offered


# ---- conformance --------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("n", "level"), [(1, 4), (2, 3), (3, 2), (4, 1)])
def test_it_passes_the_conformance_checker_for_one_round_of_the_rescue(n: int, level: int) -> None:
    report = check_conformance(RULES, n, {"mode": "193", "rounds": 1, "jacques_level": level},
                               seeds=[f"rescue-{n}-{level}"])
    assert report.finished == 1 and report.resamples_that_changed > 0
