"""Maracaibo: The Uprising, the project cards' own actions (engine/games/maracaibo/card_actions.py,
card_combat.py; docs/rules/maracaibo-uprising.md, "Effect language: needed extensions"): each card is
the expansion's data row, dealt in mode 78 and played through the engine's own options."""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES, card_actions
from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.rng import Rng, seed_to_state
from engine.stack import frame
from tests.engine.maracaibo_scenarios import _on, _started

#: the move's random generator an effect is handed (a real one: the compiled rules check its type)
_RNG = Rng({"rng": seed_to_state("card-actions")})

State = dict[str, Any]


def _id(name: str) -> int:
    return int(C.CARD_BY_NAME[name])


def _codes(state: State, seat: int = 0) -> list[str]:
    return [o.code for o in RULES.options(state, seat)]


def _labels(state: State, seat: int = 0) -> dict[str, str]:
    return {o.code: o.label for o in RULES.options(state, seat)}


def _play(state: State, code: str, seat: int = 0) -> list[Any]:
    return RULES.apply(state, seat, {"code": code})


def test_it_deals_the_cards_of_this_modules_extensions_in_78_and_79() -> None:
    names = {c["name"] for c in U.PLAYABLE_CARDS}
    for name in ("Letter Carrier", "Turncoat", "Adventurer's Board", "Colonial Envoy", "Harbour Agent",
                 "Dispatcher", "Fence"):
        assert name in names and _id(name) in C.CARD
    state = _started(mode="78")
    every = [*state["deck"], *state["discard"], *state["display"], *state["box"],
             *(c for p in state["seats"] for c in (*p["hand"], *p["plan"]))]
    assert _id("Fence") in every  # an unnumbered new card: always in the B cards


def test_it_covers_letter_carriers_spaces_on_stops_at_4_7_13_and_pays_when_all_three_are_covered() -> None:
    state = _started(mode="78", at="3")
    p = state["seats"][0]
    p["display"] = [_id("Letter Carrier")]
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    _play(state, "s4")  # 3 -> 4 Puerto Plata
    assert p["stops"] == {str(_id("Letter Carrier")): ["4"]}
    assert state["stack"][-1]["kind"] == "disc"  # a disc of the ship board covers the space
    discs = sum(p["discs"].values())
    _play(state, _codes(state)[0])
    assert sum(p["discs"].values()) == discs - 1
    p["stops"] = {str(_id("Letter Carrier")): ["4", "7"]}
    p["at"] = "12"
    d, vp = p["doubloons"], p["victory_points"]
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    _play(state, "s13")
    _play(state, _codes(state)[0])  # the disc
    assert (p["doubloons"], p["victory_points"]) == (d + 5, vp + 5)
    assert p["stops"][str(_id("Letter Carrier"))] == ["4", "7", "13"]
    # a second stop at a covered space gives nothing more
    p["at"] = "12"
    _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))
    _play(state, "s13")
    assert state["stack"][-1]["kind"] == "main"


def test_it_plays_turncoat_as_the_last_combat_action_losing_influence_and_exploring_up_to_2() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    p["display"] = [_id("Turncoat")]
    p["influence"] = {"france": 0, "england": 0, "spain": 0}
    _on(state, frame("combat", 0, nation="spain", value=3, used=[], token="T1"))
    code = f"cc{_id('Turncoat')}"
    assert code not in _codes(state)  # no influence marker may move back
    p["influence"] = {"france": 2, "england": 0, "spain": 1}
    assert code in _codes(state)
    assert "the last combat action: lose 1 influence, explore up to 2" in _labels(state)[code]
    tokens, explorer = p["tokens"], p["explorer"]
    _play(state, code)
    assert p["tokens"] == tokens + 1  # the combat ended with it (its token kept)
    assert state["stack"][-1]["kind"] == "loseinf" and _codes(state)[:2] == ["nf", "ns"]
    _play(state, "nf")
    assert p["influence"]["france"] == 1
    assert state["stack"][-1]["kind"] == "explore"
    targets = [c for c in _codes(state) if c.startswith("e")]  # (the free actions besides)
    assert targets == ["e1", "e2"]
    _play(state, targets[-1])
    assert p["explorer"] == explorer + 2
    assert not any(f["kind"] == "combat" for f in state["stack"])


def test_it_puts_two_quests_on_adventurers_board_and_fulfils_one_as_the_last_village_action() -> None:
    state = _started(mode="78", at="6", hand=(1, 7, 8, 24), d=20)
    p = state["seats"][0]
    board = _id("Adventurer's Board")
    p["hand"].append(board)
    state["quest_pile"] = ["UQ1", "UQ2", *(q for q in state["quest_pile"] if q not in ("UQ1", "UQ2"))]
    top2 = ["UQ1", "UQ2"]  # a tobacco, a corn
    _on(state, frame("main", 0, spent=4))
    ev = _play(state, f"b{board}")
    assert p["cquests"] == {str(board): top2} and state["quest_pile"][:1] != top2[:1]
    assert any(e.reveals for e in ev)  # the pile's next quest is shown
    # a later turn: the card's village action, once a quest on it may be paid
    p["hand"] = [8, 1]  # Silent Priest (tobacco), Red Gunner (cotton): UQ1 only
    _on(state, frame("main", 0, spent=4))
    code = f"v{board}"
    assert code in _codes(state)
    quests = p["quests"]
    _play(state, code)  # one quest payable, one card pays it: taken at once
    assert p["quests"] == quests + 1 and p["cquests"][str(board)] == ["UQ2"] and p["hand"] == [1]
    assert not any(f["kind"] == "village" for f in state["stack"])  # the last village action of the turn


def test_it_returns_a_resistance_marker_for_colonial_envoy_to_the_supply_or_out_of_the_game() -> None:
    state = _started(mode="78")
    p = state["seats"][0]
    p["resist"] = ["france", None, None, None]
    state["supply"]["france"] = [0, *C.SUPPLY_SPACES[1:]]  # (the marker on the tile came from the supply)
    supply = sum(state["supply"]["france"])
    out = card_actions.out_of_game(state, "france")
    envoy = next(e for e in C.CARD[_id("Colonial Envoy")]["effects"] if e.get("ext") == "return_marker")
    _on(state, *card_actions.now(state, 0, envoy, _RNG, [], "cards"))
    assert _codes(state)[:2] == ["r1", "r0"]
    d = p["doubloons"]
    _play(state, "r1")
    assert p["resist"] == [None, None, None, None] and p["doubloons"] == d + 7
    assert sum(state["supply"]["france"]) == supply + 1 and card_actions.out_of_game(state, "france") == out
    # the Liberation: the marker leaves the game
    lib = _started(mode="79")
    q = lib["seats"][0]
    q["resist"] = [None, "spain", None, None]
    lib["supply"]["spain"] = [0, *lib["supply"]["spain"][1:]]
    before = sum(lib["supply"]["spain"])
    _on(lib, *card_actions.now(lib, 0, envoy, _RNG, [], "cards"))
    _play(lib, "r2")
    assert q["resist"][1] is None and sum(lib["supply"]["spain"]) == before
    # an empty tile: the effect is ignored
    assert card_actions.now(_started(mode="78"), 0, envoy, _RNG, [], "cards") == []


def test_it_returns_a_marker_removed_from_the_game_without_resistance_tiles() -> None:
    state = _started(mode="basic")
    state["supply"]["england"] = [0, 1, *C.SUPPLY_SPACES[2:]]  # two taken ...
    state["markers"] = {"2": "england"}  # ... one on the map: one out of the game
    assert card_actions.out_of_game(state, "england") == 1
    card_actions.return_to_supply(state, "england")
    assert state["supply"]["england"] == [0, 2, *C.SUPPLY_SPACES[2:]]


def test_it_plays_harbour_agents_assistant_action_by_the_round_as_the_main_action() -> None:
    state = _started(mode="78", at="11")
    p = state["seats"][0]
    agent = _id("Harbour Agent")
    p["display"] = [agent]
    p["assist"] = [{"loc": "11", "card": agent, "since": -1}]
    state["round"] = 2
    _on(state, frame("main", 0, spent=2))
    assert "7 doubloons, 1 village action" in _labels(state)[f"a{agent}"]
    d = p["doubloons"]
    _play(state, f"a{agent}")
    assert p["doubloons"] == d + 7 and state["stack"][-1]["kind"] == "village"


def test_it_pays_3_doubloons_for_one_of_the_players_assistant_actions_with_dispatcher_once_a_turn() -> None:
    state = _started(mode="78", at="6")
    p = state["seats"][0]
    agent, dispatcher = _id("Harbour Agent"), _id("Dispatcher")
    p["display"] = [agent, dispatcher]
    p["assist"] = [{"loc": "11", "card": agent, "since": 0}]  # elsewhere: still its action
    state["round"] = 2
    _on(state, frame("main", 0, spent=4))
    assert f"v{dispatcher}" in _codes(state)
    d = p["doubloons"]
    _play(state, f"v{dispatcher}")
    assert _codes(state)[:2] == [f"a{agent}", "a0"]
    _play(state, f"a{agent}")
    assert p["doubloons"] == d - 3 + 7
    assert f"v{dispatcher}" not in _codes(state)  # not twice a turn (Assumption A62)


def test_it_trades_two_identical_goods_for_5_doubloons_with_fence_as_a_card_village_action() -> None:
    state = _started(mode="78", at="6", hand=(8, 24, 36, 7))  # three tobacco, a corn
    p = state["seats"][0]
    fence = _id("Fence")
    p["display"] = [fence]
    _on(state, frame("main", 0, spent=4))
    labels = _labels(state)
    assert labels[f"v{fence}"].startswith("village action of Fence: pay 2 identical goods for 5 doubloons")
    assert "vH" not in labels  # not a home port's action
    d = p["doubloons"]
    _play(state, f"v{fence}")
    assert state["stack"][-1]["kind"] == "trade" and state["stack"][-1]["data"]["card"] == fence
    _play(state, _codes(state)[0])
    assert p["doubloons"] == d + 5 and len(p["hand"]) == 2


def test_it_counts_markers_placed_on_the_resistance_tile_for_the_new_careers_liberated_task() -> None:
    from engine.games.maracaibo.effects import count_of

    state = _started(mode="78")
    p = state["seats"][0]
    task = next(t for t in U.NEW_CAREER["tasks"] if t["metric"] == "liberated")
    assert task["ext"] == "liberation_metric"
    state["markers"] = {"2": "england", "3": "france"}
    ev: list[Any] = []
    from engine.games.maracaibo import resistance

    _on(state, *resistance.liberate(state, 0, "2", ev))
    _play(state, "r1")
    assert count_of(p, task["metric"]) == 1
    _on(state, *resistance.liberate(state, 0, "3", ev))
    _play(state, "r0")  # the marker leaves the game: not placed on the tile
    assert count_of(p, task["metric"]) == 1


def test_it_words_this_modules_extensions() -> None:
    def words(name: str) -> str:
        return "; ".join(C.effect_text(e) for e in C.CARD[_id(name)]["effects"])

    assert words("Letter Carrier") == ("each stop at 4, 7, 13 covers its space with a ship disc; all three: "
                                       "5 doubloons, 5 VP")
    assert words("Turncoat") == "new combat action, the last (value 1): lose 1 influence, explore up to 2"
    assert words("Dispatcher") == "new village action: pay 3 doubloons for one of your assistant actions"
    assert words("Fence") == "new village action: pay 2 identical goods for 5 doubloons"
    assert words("Harbour Agent").startswith("assistant action by the round: 1: 7 doubloons; 2: 7 doubloons, 1 "
                                             "village action")
    assert "back to its supply, and 7 doubloons" in words("Colonial Envoy")
    assert words("Adventurer's Board").startswith("the first 2 quests of the pile onto this card")


def test_it_scores_ships_log_trophy_room_and_dry_dock_by_what_the_ship_board_holds_when_bought() -> None:
    # the iconography's "Marque 1 ponto de vitória para cada peça de missão no tabuleiro do seu navio" / "...
    # peça de combate ..." / "... melhoria do navio desbloqueada": the base language's `per`, counted at the buy
    for name, per in (("Ship's Log", "quest"), ("Trophy Room", "combat"), ("Dry Dock", "upgrade")):
        cid = _id(name)
        assert U.CARD[cid]["effects"] == [{"t": "now", "gain": {"per": per, "vp": 1}}]
        state = _started(mode="78", at="6", hand=(cid, 7, 8, 24), d=20)
        p = state["seats"][0]
        p["quests"], p["tokens"], p["areas"] = 3, 2, ["U1", "U4", "UR", "UH"]
        _on(state, frame("main", 0, spent=4))  # in San Juan (6), a village: a card bought as a village action
        vp, figures = p["victory_points"], p["figures"]
        _play(state, f"b{cid}")
        assert cid in p["display"] and p["figures"] == figures - 1
        assert p["victory_points"] - vp == {"quest": 3, "combat": 2, "upgrade": 4}[per], name
