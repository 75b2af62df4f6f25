"""Maracaibo: The Uprising: the setups of the competitive scenarios 78 and 79 (docs/rules/maracaibo-uprising.md,
"Scenario 78", "Scenario 79"), and whole games of both."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.errors import SetupError
from engine.games.maracaibo import RULES
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.bot import choose
from engine.stack import frame
from engine.testing import check_conformance, player_names, run_game
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]

#: a gain's words (the data files') -> the player's keys in the state
STATE_KEY = {"d": "doubloons", "vp": "victory_points", "cp": "combat_points"}


def _all_cards(state: State) -> list[int]:
    """Every project card of the game, wherever it is at the start."""
    return [*state["deck"], *state["box"], *state["display"], *state["discard"], *state.get("returned", []),
            *(c for p in state["seats"] for c in [*p["hand"], *p["plan"], *(p["setup"] or {}).get("dealt", [])])]


@pytest.mark.parametrize("mode", ["78", "79"])
def test_it_shuffles_the_new_cards_and_90_to_106_into_the_b_deck(mode: str) -> None:
    state = RULES.setup(player_names(3), {"mode": mode}, f"cards-{mode}")
    cards = set(_all_cards(state))
    numbered = {U.NUMBERED[n] for n in range(100, 107)}
    playable = {int(c["id"]) for c in U.PLAYABLE_CARDS}
    assert set(range(90, 100)) <= cards  # the base game's numbered cards
    assert numbered & playable <= cards and playable <= cards  # the expansion's, 100-106 and the unnumbered
    assert not (cards & {int(c["id"]) for c in U.CARDS}) - playable  # none whose effects are not played yet
    assert len(cards) == len(C.A_CARDS) + len(C.B_CARDS) + 10 + len(playable)
    base = set(_all_cards(RULES.setup(player_names(3), {"mode": "basic"}, "cards-basic")))
    assert not base & playable and not base & set(range(90, 100))


def test_it_deals_a_card_iff_every_extension_it_needs_is_played() -> None:
    names = {str(c["name"]) for c in U.PLAYABLE_CARDS}
    # the six worded cards of registered extensions, beside the 11 of the base language
    assert {"Tobacco Factor", "Corn Quartermaster", "Generous Patron", "Drill Sergeant", "Crew Mess",
            "Gravedigger"} <= names
    base = {str(c["name"]) for c in U.CARDS if all(U.base_language(e) for e in c["effects"])
            and not any(f in c for f in U.CARD_FIELD_EXTENSIONS) and not c.get("liberation_symbol")}
    assert len(base) == 11 and base <= names
    for c in U.CARDS:  # a card is dealt iff each of its extensions (effects, fields, symbol) is registered
        needs = {f"{e['ext']}@{e['t']}" for e in c["effects"] if "ext" in e}
        needs |= {f for f in U.CARD_FIELD_EXTENSIONS if f in c} | ({"liberation_symbol"} if c.get(
            "liberation_symbol") else set())
        registered = all(n in U.PLAYED_EXTENSIONS or n.split("@")[0] in U.PLAYED_EXTENSIONS for n in needs)
        assert (c["name"] in names) == registered, c["name"]
    # the registry decides: without trade_any the Tobacco Factor is not dealt; "liberate@now" alone does not
    # deal a card showing the liberation symbol
    maroon = next(c for c in U.CARDS if c["name"] == "Maroon Leader")
    assert not U.playable_card(next(c for c in U.CARDS if c["name"] == "Tobacco Factor"),
                               U.PLAYED_EXTENSIONS - {"trade_any"})
    assert not U.playable_card(maroon, frozenset({"liberate@now"}))
    assert U.playable_card(maroon, frozenset({"liberate@now", "liberation_symbol"}))
    assert not U.playable_card(maroon, frozenset({"liberate@combat", "liberation_symbol"}))


def test_it_deals_the_new_cards_and_the_bot_buys_and_plays_them() -> None:
    ext_cards = {int(c["id"]) for c in U.PLAYABLE_CARDS if any("ext" in e for e in c["effects"])}
    bought: set[int] = set()
    frames: set[str] = set()
    for mode in ("78", "79"):
        for i in range(6):
            state = RULES.setup(player_names(3), {"mode": mode}, f"deal-{mode}-{i}")
            rnd = random.Random(f"deal-{mode}-{i}")
            while pending := RULES.pending(state):
                seat = pending[0]
                frames.add(state["stack"][-1]["kind"] if state["stack"] else "")
                RULES.apply(state, seat, choose(state, seat, RULES.options(state, seat), rnd).move)
            assert RULES.outcome(state) is not None
            bought |= {c for p in state["seats"] for c in p["bought"]} & ext_cards
    assert len(bought) >= 3, bought  # 5 different ones in these 12 games (measured), their decisions asked
    assert len({"oneof", "tradeany", "libvillage"} & frames) >= 2, frames
    # with card_actions.py's cards and the new city tiles dealt too (measured: 16 different cards bought in these
    # 12 games; Colonial Envoy's and C16's decisions asked in several). The Dispatcher's (otherassist) was asked
    # here until the bot's home port choice was learned (#20); since, the bot uses the Dispatcher in none of
    # 20 games (deal-78-0 ... deal-79-9, measured): its decision is the scenario "other-assistant"'s
    # (maracaibo_scenarios.py)
    assert {"retmarker", "citytile"} <= frames, frames


@pytest.mark.parametrize("mode", ["78", "79"])
def test_it_places_the_scenarios_legacy_tiles_and_three_by_the_revealed_cards_objects(mode: str) -> None:
    scen = U.SCENARIOS[mode]
    seen = set()
    for seed in range(6):
        state = RULES.setup(player_names(3), {"mode": mode}, f"legacy-{mode}-{seed}")
        revealed = state["discard"][-3:]
        assert len(state["discard"]) == 3  # the three revealed cards, face up
        want = [*scen["legacy"], *(scen["legacy_by_object"][C.CARD[c]["object"]][i] for i, c in enumerate(revealed))]
        want += ["L32"] if "L31" in want else []  # (the ruin comes with its track)
        got = [*state["legacy"], *state["legacy_new"]] + (
            ["L40"] if mode == "78" else [])
        assert sorted(got) == sorted(want)
        assert all(t in C.LEGACY for t in state["legacy"]) and "L1" in state["legacy"]
        assert "L30" in state["legacy_new"] and "L30" in state["legacy_board"]  # the new city, played
        seen |= set(state["legacy"])
    assert seen - {"L1"}  # some seeds draw a base tile that plays (L4-L9)


@pytest.mark.parametrize("mode", ["78", "79"])
def test_it_uses_the_expansions_28_quest_tiles_placed_by_the_scenarios_table(mode: str) -> None:
    state = RULES.setup(player_names(3), {"mode": mode}, f"quests-{mode}")
    quests = [*state["quest_pile"], *state["quests"].values(), *state["track_quests"].values()]
    assert sorted(quests) == sorted(q["id"] for q in U.QUESTS)
    first = U.SCENARIOS[mode]["quests"]["1"]
    assert sorted(state["quests"]) == sorted([*first["all"], *first["three"]])
    assert state["scenario"] == mode


def test_it_adds_the_new_career_to_the_base_games_in_scenario_78() -> None:
    dealt = {c["id"] for seed in range(12) for p in RULES.setup(player_names(4), {"mode": "78"}, f"k-{seed}")["seats"]
             for c in p["careers"]}
    assert "K9" in dealt and len(dealt) > 4
    base = {c["id"] for seed in range(12) for p in RULES.setup(player_names(4), {"mode": "basic"}, f"k-{seed}")["seats"]
            for c in p["careers"]}
    assert "K9" not in base


def test_it_puts_the_spanish_garrison_tile_only_where_no_marker_stands() -> None:
    for seed in range(40):
        state = RULES.setup(player_names(2), {"mode": "79"}, f"l9-{seed}")
        if "L9" in state["legacy"]:
            assert state["markers"]["12"] == "spain" and sum(state["supply"]["spain"]) == 7  # scenario's own
            return
    pytest.skip("no seed of 40 drew L9")


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["78", "79"])
def test_it_passes_the_conformance_checker_over_a_whole_game(mode: str) -> None:
    report = check_conformance(RULES, 3, {"mode": mode}, seeds=[f"scen-{mode}"])
    assert report.finished == 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_it_plays_whole_games_of_scenario_78_by_the_bot(n: int) -> None:
    report = run_game(RULES, n, {"mode": "78"}, f"all-in-{n}", checks=False)
    assert report.finished == 1


# ---- the new legacy spaces L34-L36 (legacytiles.py) ---------------------------------------------

def _sailing_to(tile: str, at: str) -> State:
    """Scenario 79 with ``tile`` in play; Ana in ``at``, about to sail."""
    state = _started(mode="79", at=at)
    state["legacy_new"] = [tile]
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    return state


def _labels(state: State) -> dict[str, str]:
    return {o.code: o.label for o in RULES.options(state, 0) if not o.code.startswith(("p", "k"))}


def test_it_offers_the_powder_store_before_the_main_action_for_1_combat_point() -> None:
    state = _sailing_to("L35", "14")
    p = state["seats"][0]
    p["combat_points"], p["victory_points"] = 2, 0
    RULES.apply(state, 0, {"code": "s15"})
    assert _labels(state) == {"yes": "Powder store: pay 1 combat point for 2 VP now", "no": "Powder store: leave it"}
    RULES.apply(state, 0, {"code": "yes"})
    assert (p["combat_points"], p["victory_points"]) == (1, 2) and state["stack"][-1]["kind"] == "main"
    poor = _sailing_to("L35", "14")
    poor["seats"][0]["combat_points"] = 0
    RULES.apply(poor, 0, {"code": "s15"})
    assert poor["stack"][-1]["kind"] == "main"  # nothing to pay with: not offered


def test_it_trades_two_identical_goods_for_2_doubloons_at_the_smugglers_beach() -> None:
    state = _sailing_to("L36", "7")
    p = state["seats"][0]
    tobacco = sorted((c for c in C.CARD if C.CARD[c]["good"] == "tobacco" and c <= 160),
                     key=lambda c: (C.CARD[c]["cost"], c))[:3]
    p["hand"], p["doubloons"] = [*tobacco, 3], 0  # three tobacco, one corn (card 3)
    RULES.apply(state, 0, {"code": "s8"})
    assert set(_labels(state)) == {"gtobacco", "no"}
    RULES.apply(state, 0, {"code": "gtobacco"})
    assert p["hand"] == [tobacco[2], 3] and p["doubloons"] == 2 and set(tobacco[:2]) <= set(state["discard"])


def test_it_reveals_the_top_card_at_the_informants_cove_for_its_objects_reward() -> None:
    state = _sailing_to("L34", "5")
    p = state["seats"][0]
    top = state["deck"][-1]
    reward = U.LEGACY["L34"]["before_main"]["by_object"][C.CARD[top]["object"]]
    before = {k: p[STATE_KEY[k]] for k in ("d", "vp", "cp")}
    RULES.apply(state, 0, {"code": "s6"})
    events = RULES.apply(state, 0, {"code": "yes"})
    assert state["discard"][-1] == top and any(e.kind == "reveal" and e.reveals for e in events)
    for k in ("d", "vp", "cp"):
        assert p[STATE_KEY[k]] == min(before[k] + reward.get(k, 0), 8 if k == "cp" else 999)


def test_it_shows_the_new_legacy_tiles_all_played_and_what_lies_on_them() -> None:
    for seed in range(30):
        state = RULES.setup(player_names(3), {"mode": "79"}, f"shown-{seed}")
        if "L31" in state["legacy_new"]:
            break
    assert "legacy_unplayed" not in state  # every new tile of 78 and 79 is played
    view = RULES.view(state, None)
    shown = {t["id"]: t["played"] for t in view["uprising_legacy"]}
    assert shown == dict.fromkeys(state["legacy_new"], True) and {"L30", "L31", "L32"} <= set(shown)
    assert view["legacy_board"] == {"L30": {}, "L32": {}, "order": [], "since": {}, **(
        {t: [] for t in ("L33", "L37") if t in shown})}
    assert "L30" in shown and "(not played yet by this server)" not in RULES.render_text(view)
    assert "scenario 79 (Unrest)" in RULES.render_text(view)


@pytest.mark.parametrize("mode", ["78", "79", "74", "193"])
def test_it_refuses_a_base_scenario_card_with_a_mode_that_is_a_scenario_card_of_its_own(mode: str) -> None:
    n = 2 if mode in ("78", "79") else 1
    with pytest.raises(SetupError, match=f"mode {mode} plays its own scenario card .*leave option scenario out"):
        RULES.setup(player_names(n), {"mode": mode, "scenario": "77"}, "both")
    assert RULES.setup(player_names(n), {"mode": mode}, "alone")["options"]["scenario"] == "75"
    assert RULES.setup(player_names(2), {"mode": "basic", "scenario": "77"}, "basic")["legacy"]  # basic: the base's
