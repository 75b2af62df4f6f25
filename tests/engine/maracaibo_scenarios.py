"""Maracaibo states for the notation corpus (tests/engine/notation/maracaibo.txt): one per decision kind.

Ana (seat 0) decides in each. Her cards are fixed so the corpus can name them:
1 Red Gunner (cotton), 2 Pious Carpenter (sugar), 3 Wealthy Navigator (corn), 7 Bold Merchant
(corn), 8 Silent Priest (tobacco), 14 Pious Gunner (sugar), 24 Old Scout (tobacco), 29 Brave
Navigator (cotton), 36 Old Deserter (tobacco), 44 Silent Builder (tobacco).
"""

from __future__ import annotations

from typing import Any

from engine.games.maracaibo import RULES, legacyboard
from engine.games.maracaibo import uprising_content as U
from engine.stack import Frame, frame
from engine.testing import player_names

State = dict[str, Any]
DEALT = [1, 7, 8, 14, 24, 29, 36, 44]


def _take(state: State, cards: list[int]) -> None:
    """Move ``cards`` out of wherever they are (deck, display, box, hands) so Ana can hold them."""
    for c in cards:
        for lst in (state["deck"], state["box"], state["discard"], state["display"], state.get("returned", []),
                    *(p["hand"] for p in state["seats"]), *(p["plan"] for p in state["seats"]),
                    *((p["setup"] or {}).get("dealt", []) for p in state["seats"])):
            while c in lst:
                lst.remove(c)


def _setup() -> State:
    state = RULES.setup(player_names(3), {}, "corpus")
    _take(state, DEALT)
    state["seats"][0]["setup"]["dealt"] = sorted(DEALT)
    return state


def _started(at: str = "H", hand: tuple[int, ...] = (1, 7, 8, 24), plan: tuple[int, ...] = (14,),
             d: int = 20, **options: Any) -> State:
    state = RULES.setup(player_names(3), options, "corpus")
    while state["stack"][-1]["kind"] == "setup":
        seat = RULES.pending(state)[0]
        RULES.apply(state, seat, RULES.options(state, seat)[0].move)
    _take(state, [*hand, *plan])
    p = state["seats"][0]
    p["hand"], p["plan"], p["doubloons"], p["at"] = list(hand), list(plan), d, at
    state["revision"] += 1
    return state


def _on(state: State, *frames: Frame) -> tuple[State, int]:
    state["stack"] = list(frames)
    state["revision"] += 1
    return state, 0


def setup_plan() -> tuple[State, int]:
    """Dealt 1, 7, 8, 14, 24, 29, 36, 44: plan one."""
    return _setup(), 0


def setup_keep() -> tuple[State, int]:
    """Brave Navigator planned: keep four of the other seven."""
    state = _setup()
    RULES.apply(state, 0, {"code": "p29"})
    return state, 0


def sail() -> tuple[State, int]:
    """In St. Kitts (7) with 1, 7, 8, 24, Pious Gunner planned: sail 1 to 7 on (branches at 8 and 14)."""
    state = _started(at="7")
    return _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))


def sail_legacy() -> tuple[State, int]:
    """Scenario 77, in Martinique (8) with the explorer on space 12: Isla Margarita (9a) is open."""
    state = _started(at="8", scenario="77")
    state["seats"][0]["explorer"] = 12
    return _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))


def sail_legacy_closed() -> tuple[State, int]:
    """Scenario 77, in Martinique (8) with the explorer on space 2: Isla Margarita (9a) opens at 6."""
    state = _started(at="8", scenario="77")
    state["seats"][0]["explorer"] = 2
    return _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))


def sail_homeward() -> tuple[State, int]:
    """On the first homeward-bound space (20): 21a and 21b are one away (round I: the round ends there)."""
    state = _started(at="20")
    return _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))


def village() -> tuple[State, int]:
    """In San Juan (6, a village) after sailing 4: the first of two village actions."""
    state = _started(at="6")
    return _on(state, frame("main", 0, spent=4))


def village_more() -> tuple[State, int]:
    """The second village action (or no more)."""
    state = _started(at="6")
    return _on(state, frame("village", 0, left=1, used=[]))


def city() -> tuple[State, int]:
    """In Cartagena (14: corn and sugar) with cotton, corn, sugar and tobacco cards."""
    state = _started(at="14", hand=(1, 3, 2, 8))
    return _on(state, frame("main", 0, spent=3))


def homeward() -> tuple[State, int]:
    """On the Yucatan Channel (20): a combat action, explore 2, or nothing."""
    state = _started(at="20")
    return _on(state, frame("main", 0, spent=2))


def discard() -> tuple[State, int]:
    state = _started()
    return _on(state, frame("yesno", 0, what="discard", ask=True))


def assistants() -> tuple[State, int]:
    state = _started()
    state["seats"][0]["assist"] = [{"loc": "14", "card": 8, "since": 0}]
    return _on(state, frame("yesno", 0, what="assistants", ask=True))


def pay_cp() -> tuple[State, int]:
    state = _started()
    state["seats"][0]["combat_points"] = 3
    return _on(state, frame("yesno", 0, what="pay_cp", ask=True))


def disc() -> tuple[State, int]:
    """A disc off the ship board: U1-U4, U6-U8 are open (U5, U9-U12 need others first)."""
    return _on(_started(), frame("disc", 0, n=1))


def nation() -> tuple[State, int]:
    return _on(_started(), frame("nation", 0, n=1))


def nation_place() -> tuple[State, int]:
    """Ship upgrade U10: a marker of a nation in the empty village 9 Barbados."""
    return _on(_started(), frame("nation", 0, n=1, place="9", d=1))


def explore() -> tuple[State, int]:
    return _on(_started(), frame("explore", 0, n=3))


def tquest() -> tuple[State, int]:
    """The explorer landed on space 3, where quest Q1 (a tobacco) waits."""
    state = _started()
    state["track_quests"]["3"] = "Q1"
    return _on(state, frame("tquest", 0, space=3, ask=True))


def pay_deliver() -> tuple[State, int]:
    """Delivering corn in Cartagena: with Wealthy Navigator or with Bold Merchant?"""
    state = _started(at="14", hand=(3, 7, 2, 8))
    return _on(state, frame("city", 0), frame("disc", 0, n=1), frame("pay", 0, what="deliver", good="corn"))


def city_two_corn() -> tuple[State, int]:
    """In Cartagena (14: corn and sugar) with two corn cards (Wealthy Navigator 3, Bold Merchant 7):
    a delivery of corn asks which card pays, then the disc (issue 21: written on one line)."""
    state = _started(at="14", hand=(3, 7, 2, 8))
    return _on(state, frame("main", 0, spent=3))


def pay_quest() -> tuple[State, int]:
    """Quest Q1 (a tobacco): pay with Silent Priest or with Old Scout?"""
    state = _started(hand=(8, 24, 1))
    return _on(state, frame("pay", 0, what="quest", quest="Q1"))


def pile() -> tuple[State, int]:
    return _on(_started(), frame("pile", 0))


def fight() -> tuple[State, int]:
    """Combat token T1 revealed: France 3, England 8, Spain 7."""
    return _on(_started(), frame("fight", 0, token="T1", ask=True))


def combat() -> tuple[State, int]:
    """Fighting for Spain with value 8; France holds 12 Santa Marta; Bold Merchant gives a combat action."""
    state = _started()
    state["markers"]["12"] = "france"
    state["seats"][0]["display"] = [7]
    state["seats"][0]["hand"] = [1, 8, 24]
    return _on(state, frame("combat", 0, nation="spain", value=8, used=[], token="T1"))


def combat_legacy() -> tuple[State, int]:
    """Scenario 77, fighting for England with value 8, the explorer on 12: 9a and 16a may be annexed."""
    state = _started(scenario="77")
    state["seats"][0]["explorer"] = 12
    return _on(state, frame("combat", 0, nation="england", value=8, used=[], token="T1"))


def u11() -> tuple[State, int]:
    return _on(_started(), frame("u11", 0))


def three() -> tuple[State, int]:
    """Ship area U9's village action with three tobacco and three corn in hand: which three?"""
    state = _started(at="6", hand=(4, 8, 12, 3, 7, 11))
    state["seats"][0]["areas"] = ["U8", "U9"]
    return _on(state, frame("three", 0))


def pay_three() -> tuple[State, int]:
    """U9 with four tobacco in hand (Grim Diplomat, Silent Priest, Old Gravedigger, Grim Navigator): which three?"""
    state = _started(at="6", hand=(4, 8, 12, 16, 3))
    state["seats"][0]["areas"] = ["U8", "U9"]
    return _on(state, frame("pay", 0, what="three", good="tobacco"))


def short() -> tuple[State, int]:
    """A combat action 2 short of its value, with 3 combat points and 2 figures: which mix pays?"""
    state = _started()
    state["seats"][0]["combat_points"], state["seats"][0]["figures"] = 3, 2
    return _on(state, frame("combat", 0, nation="france", value=0, used=["inf"], token="T1"),
               frame("short", 0, need=2))


def rankup() -> tuple[State, int]:
    state = _started()
    state["seats"][0]["influence"] = {"france": 2, "england": 5, "spain": 15}
    return _on(state, frame("rankup", 0))


def free() -> tuple[State, int]:
    """After the main action: plan a card, a career task, or end the main phase."""
    state = _started()
    p = state["seats"][0]
    p["quests"], p["tokens"] = 9, 9
    return _on(state, frame("free", 0))


def draw() -> tuple[State, int]:
    """Two cards in hand: draw from the pile or take one of the display (1 doubloon)."""
    state = _started(hand=(1, 7))
    return _on(state, frame("draw", 0))


def score() -> tuple[State, int]:
    """Interim scoring: buy a card from the hand, or score 2 VP."""
    return _on(_started(), frame("score", 0, mode="interim", ask=True))


def setup_port() -> tuple[State, int]:
    """The Uprising (mode 78): Ana is dealt the home ports Bremen, Roseau, Nassau: keep one."""
    state = RULES.setup(player_names(3), {"mode": "78"}, "corpus")
    mine = ["HP2", "HP10", "HP11"]
    everywhere = [state["ports_box"], *(p["setup"]["ports"] for p in state["seats"])]
    for lst in everywhere:
        lst[:] = [x for x in lst if x not in mine]
    state["ports_box"] += list(state["seats"][0]["setup"]["ports"])
    for p in state["seats"][1:]:
        while len(p["setup"]["ports"]) < 3:
            p["setup"]["ports"].append(state["ports_box"].pop())
    state["seats"][0]["setup"]["ports"] = mine
    return state, 0


def port_bonus() -> tuple[State, int]:
    """The Uprising (mode 78): Ana has unlocked her home port Grand Turk: pay 5 doubloons for 5 VP, or not."""
    state = _started(mode="78")
    state["seats"][0]["port"] = "HP8"
    return _on(state, frame("portbonus", 0, ask=True))


def disc_new_board() -> tuple[State, int]:
    """The Uprising (mode 78): a disc off the new ship board, its resistance tile UR and home port UH open."""
    state = _started(mode="78")
    state["seats"][0]["port"] = "HP8"
    state["seats"][0]["discs"] = {**state["seats"][0]["discs"], "UH": 2}
    return _on(state, frame("disc", 0, n=1))


def resist() -> tuple[State, int]:
    """The Uprising (mode 78): Ana liberated a French marker; her tile holds France on space 1:
    spaces 3 (a figure) and 4 (3 doubloons) may take it, or it leaves the game."""
    state = _started(mode="78")
    state["seats"][0]["resist"] = ["france", None, None, None]
    return _on(state, frame("resist", 0, nation="france", times=1))


def village_resist() -> tuple[State, int]:
    """The Uprising (mode 78): Ana at 3 Tortuga (an English marker), her resistance tile unlocked, 3 combat points."""
    state = _started(mode="78", at="3")
    p = state["seats"][0]
    p["areas"], p["combat_points"], p["figures"] = [*p["areas"], "UR"], 3, 0
    p["discs"] = {**p["discs"], "UR": 0}
    state["markers"]["3"] = "england"
    return _on(state, frame("village", 0, left=2, used=[]))


def fight_uprising() -> tuple[State, int]:
    """The Uprising (mode 78): token T3 revealed (England 4, France 6, Spain 2): fight for or against a nation."""
    state = _started(mode="78")
    state["markers"]["14"] = "france"
    return _on(state, frame("fight", 0, token="T3", ask=True))


def against() -> tuple[State, int]:
    """The Uprising (mode 78): fighting against France with value 6; France holds 14 Cartagena, 4 Puerto
    Plata and the village 2 Nassau."""
    state = _started(mode="78")
    state["markers"] = {"14": "france", "4": "france", "2": "france", "13": "spain"}
    return _on(state, frame("against", 0, nation="france", value=6, used=[], token="T3"))


def combat_port() -> tuple[State, int]:
    """The Uprising (mode 78): fighting for England with value 8, Ana's home port Kingstown unlocked."""
    state = _started(mode="78")
    p = state["seats"][0]
    p["port"], p["areas"] = "HP5", [*p["areas"], "UH"]
    return _on(state, frame("combat", 0, nation="england", value=8, used=[], token="T1"))


def fight_liberation() -> tuple[State, int]:
    """The Liberation (mode 79): token T3 revealed (England 4, France 6, Spain 2): always against a nation."""
    state = _started(mode="79")
    return _on(state, frame("fight", 0, token="T3", ask=True))


def liberation() -> tuple[State, int]:
    """The Liberation (mode 79): against Spain with value 9, the combat tile's upgrade unlocked; Spain
    holds the cities 10 Maracaibo and 13 Port Royal and the village 8 Martinique; Bold Merchant in
    Ana's display."""
    state = _started(mode="79")
    state["markers"] = {"10": "spain", "13": "spain", "8": "spain", "14": "england"}
    p = state["seats"][0]
    p["areas"], p["display"] = [*p["areas"], "U6"], [7]
    return _on(state, frame("liberation", 0, nation="spain", value=9, used=[], token="T3"))


def legacy_space() -> tuple[State, int]:
    """Scenario 79: Ana ended her movement at 8 Martinique, where L36 (Smugglers' beach) lies; she holds
    two tobacco (8 Silent Priest, 24 Old Scout) and two corn (3 Wealthy Navigator, 7 Bold Merchant)."""
    state = _started(mode="79", at="8", hand=(3, 7, 8, 24))
    state["legacy_new"] = ["L36"]
    return _on(state, frame("main", 0, spent=1), frame("legacyspace", 0, tile="L36", ask=True))


def _legacy_board(state: State, *tiles: str) -> State:
    """Only ``tiles`` of the Uprising's new legacy tiles in play, nothing on them yet."""
    state["legacy_new"] = list(tiles)
    state["legacy_board"] = legacyboard.new_board(list(tiles))
    return state


def explore_ruin() -> tuple[State, int]:
    """Scenario 79 with the ruin (L31, L32): Ana explores 3, her explorer on 13, her figure at the start of the
    ruin track (since an earlier turn), Bruno's figure on its space 1 (skipped)."""
    state = _legacy_board(_started(mode="79"), "L31", "L32")
    state["seats"][0]["explorer"] = 13
    state["legacy_board"] = {**state["legacy_board"], "L32": {"0": 0, "1": 1}, "since": {"0": -1, "1": -1}}
    return _on(state, frame("main", 0, spent=1), frame("explore", 0, n=3))


def ruin_pay() -> tuple[State, int]:
    """Scenario 79: Ana's ruin track figure stopped on space 3 (pay a spyglass): two of her cards have one, Red
    Gunner and Old Deserter (Bold Merchant has a book, Old Scout herbs)."""
    state = _legacy_board(_started(mode="79", hand=(1, 7, 36, 24)), "L31", "L32")
    return _on(state, frame("main", 0, spent=1), frame("ruinpay", 0, space=3, ask=True))


def sail_passage() -> tuple[State, int]:
    """Scenario 79 with L37 (the 13-2 passage): Ana in 11 Cumana, about to sail; 13 is two away, then from 2
    the movement left reaches 7."""
    state = _legacy_board(_started(mode="79", at="11"), "L37")
    return _on(state, frame("main", 0, spent=0), frame("sail", 0, ask=True))


def new_city() -> tuple[State, int]:
    """Scenario 78 with L30: Ana ended her movement at 10a Willemstad for the first time; which influence
    marker does she give up (England 2, Spain 7)?"""
    state = _legacy_board(_started(mode="78", at="10a"), "L30")
    state["seats"][0]["influence"] = {"france": 0, "england": 2, "spain": 7}
    return _on(state, frame("main", 0, spent=2), frame("newcity", 0))


def outpost() -> tuple[State, int]:
    """Scenario 79 with L33: Ana sailed to 21a, her space of the outpost is empty: a disc there and a village
    action?"""
    state = _legacy_board(_started(mode="79", at="21a"), "L33")
    return _on(state, frame("main", 0, spent=1), frame("legacydisc", 0, tile="L33", ask=True))


SCENARIOS = {
    "setup-plan": setup_plan, "setup-keep": setup_keep, "sail": sail, "sail-legacy": sail_legacy,
    "sail-legacy-closed": sail_legacy_closed, "sail-homeward": sail_homeward, "village": village,
    "village-more": village_more, "city": city, "homeward": homeward, "discard": discard,
    "assistants": assistants, "pay-cp": pay_cp, "disc": disc, "nation": nation, "nation-place": nation_place,
    "explore": explore, "tquest": tquest, "pay-deliver": pay_deliver, "pay-quest": pay_quest,
    "city-two-corn": city_two_corn,
    "pile": pile, "fight": fight, "combat": combat, "combat-legacy": combat_legacy, "u11": u11,
    "three": three, "pay-three": pay_three, "short": short,
    "rankup": rankup, "free": free, "draw": draw, "score": score,
    "setup-port": setup_port, "port-bonus": port_bonus, "disc-new-board": disc_new_board, "resist": resist,
    "village-resist": village_resist, "fight-uprising": fight_uprising, "against": against,
    "combat-port": combat_port, "fight-liberation": fight_liberation, "liberation": liberation,
    "legacy-space": legacy_space, "sail-passage": sail_passage, "new-city": new_city, "outpost": outpost,
    "explore-ruin": explore_ruin, "ruin-pay": ruin_pay,
}


def _port(port: str, at: str = "H", hand: tuple[int, ...] = (1, 7, 8, 24)) -> State:
    """Ana after a mode-78 setup, her home port ``port`` kept and unlocked."""
    state = _started(mode="78", at=at, hand=hand)
    p = state["seats"][0]
    p["port"], p["discs"], p["areas"] = port, {**p["discs"], "UH": 0}, [*p["areas"], "UH"]
    return state


def trade() -> tuple[State, int]:
    """Bremen's village action asked which two of Silent Priest, Old Scout, Old Deserter (tobacco) pay."""
    state = _port("HP2", hand=(1, 8, 24, 36))
    return _on(state, frame("trade", 0, cards=[8, 24, 36]))


def city_antwerp() -> tuple[State, int]:
    """Antwerp at 13 Port Royal, its market holding two discs; Silent Priest (tobacco) and Red Gunner in hand."""
    state = _port("HP1", at="13", hand=(1, 8))
    state["market"]["13"] = [1, 2]
    return _on(state, frame("main", 0, spent=1))


def again() -> tuple[State, int]:
    """Porto after delivering tobacco: Old Scout and Old Deserter (tobacco) left in hand."""
    state = _port("HP14", at="13", hand=(1, 24, 36))
    return _on(state, frame("again", 0, good="tobacco", ask=True))


def explore_panama() -> tuple[State, int]:
    """Panamá, the explorer on 7, three moves: 10 the short way or by 8 and 9."""
    state = _port("HP13")
    state["seats"][0]["explorer"] = 7
    return _on(state, frame("explore", 0, n=3))


def explore_roatan() -> tuple[State, int]:
    """Roatán, the explorer on 3 and the figure on 0, three moves to split."""
    state = _port("HP15")
    state["seats"][0]["explorer"], state["seats"][0]["explorer2"] = 3, 0
    return _on(state, frame("explore", 0, n=3))


SCENARIOS.update({"trade": trade, "city-antwerp": city_antwerp, "again": again, "explore-panama": explore_panama,
                  "explore-roatan": explore_roatan})


def _card(name: str) -> int:
    return int(next(c["id"] for c in U.CARDS if c["name"] == name))


def cost_goods() -> tuple[State, int]:
    """The Uprising (mode 78): Ana bought Sugar Broker (3 doubloons and a sugar); Pious Carpenter and Pious
    Gunner (sugar) in hand: which pays."""
    state = _started(mode="78", hand=(2, 14, 7))
    state["seats"][0]["display"] = [_card("Sugar Broker")]
    return _on(state, frame("costgoods", 0, card=_card("Sugar Broker"), cards=[2, 14]))


def mark_nation() -> tuple[State, int]:
    """The Uprising (mode 78): Ana bought Crown Purser: its figure to a nation's influence track."""
    state = _started(mode="78")
    state["seats"][0]["display"] = [_card("Crown Purser")]
    return _on(state, frame("marknation", 0, card=_card("Crown Purser")))


def token_pick() -> tuple[State, int]:
    """The Uprising (mode 78): Powder Monkey: Ana drew the tokens T3 and T5; keep one, the other to a pile's
    bottom."""
    state = _started(mode="78")
    state["seats"][0]["display"] = [_card("Powder Monkey")]
    for pile in state["piles"]:
        pile[:] = [t for t in pile if t not in ("T3", "T5")]
    return _on(state, frame("tokenpick", 0, tokens=["T3", "T5"]))


def one_of() -> tuple[State, int]:
    """The Uprising (mode 78): Generous Patron bought: 5 doubloons, 3 VP, or 1 doubloon and 2 combat points."""
    return _on(_started(mode="78"), frame("oneof", 0, gains=[{"d": 5}, {"vp": 3}, {"d": 1, "cp": 2}], source="cards"))


def trade_any() -> tuple[State, int]:
    """The Uprising (mode 78): Tobacco Factor bought; Silent Priest, Old Scout, Old Deserter (tobacco) in hand."""
    state = _started(mode="78", hand=(1, 8, 24, 36))
    return _on(state, frame("tradeany", 0, good="tobacco", gain={"d": 2}, source="cards"))


def lib_village() -> tuple[State, int]:
    """The Uprising (mode 78): Rebel Camp bought; England holds 2 Nassau, France 3 Tortuga (villages)."""
    state = _started(mode="78")
    state["markers"] = {"2": "england", "3": "france", "14": "spain"}
    return _on(state, frame("libvillage", 0, gain={"vp": 2}, source="cards"))


SCENARIOS.update({"cost-goods": cost_goods, "mark-nation": mark_nation, "token-pick": token_pick,
                  "one-of": one_of, "trade-any": trade_any, "lib-village": lib_village})


def hint() -> tuple[State, int]:
    """The Rescue (mode 193): Ana ended her movement at 3 Tortuga, where two hints lie (The Search)."""
    state = _started(mode="193", at="3")
    return _on(state, frame("main", 0, spent=3), frame("hint", 0, loc="3", ask=True))


def search_free() -> tuple[State, int]:
    """The Rescue: the red spaces hold H1 (book) and H3 (herbs); Luysa is held at 5 Santo Domingo, where
    Ana is with 8 combat points (L39's price); Ana holds 1 Red Gunner, 7 Bold Merchant, 8 Silent Priest,
    24 Old Scout."""
    state = _started(mode="193", at="5")
    s = state["search"]
    s["board"] = {loc: [h for h in hs if h not in ("H1", "H3")] for loc, hs in s["board"].items()}
    s["red"], s["found"] = ["H1", "H3"], "5"
    state["seats"][0]["combat_points"] = 8  # L39's price (search.json)
    return _on(state, frame("free", 0))


def ransom() -> tuple[State, int]:
    """The Rescue's end: Luysa held at 5, not free; Ana (20 doubloons) is asked first whether she pays the
    ransom, Carla may after her."""
    state = _started(mode="193", rounds=1)
    state["search"]["found"] = "5"
    return _on(state, frame("scoring", 0, mode="final", ransom=True), frame("ransom", 0, later=[2], ask=True))


SCENARIOS.update({"hint": hint, "search-free": search_free, "ransom": ransom})


# ---- the Uprising's card actions (card_actions.py, card_combat.py) ----------------------------------

def lose_influence() -> tuple[State, int]:
    """Turncoat used (mode 78): 1 influence lost with France (2) or Spain (1); none with England."""
    state = _started(mode="78")
    state["seats"][0]["influence"] = {"france": 2, "england": 0, "spain": 1}
    return _on(state, frame("explore", 0, n=2), frame("loseinf", 0, n=1))


def card_quest() -> tuple[State, int]:
    """Adventurer's Board (217) holds quests UQ1 (a tobacco) and UQ2 (a corn); Ana holds Silent Priest
    (tobacco), Bold Merchant (corn) and Red Gunner (cotton): fulfil one."""
    state = _started(mode="78", at="6", hand=(8, 7, 1))
    p = state["seats"][0]
    p["display"], p["cquests"] = [217], {"217": ["UQ1", "UQ2"]}
    return _on(state, frame("cardquest", 0, card=217))


def return_marker() -> tuple[State, int]:
    """Colonial Envoy bought (mode 78): France on resistance space 1, Spain on space 3; return one (7 d)."""
    state = _started(mode="78")
    state["seats"][0]["resist"] = ["france", None, "spain", None]
    return _on(state, frame("retmarker", 0, gain={"d": 7}, source="cards", ask=True))


def other_assistant() -> tuple[State, int]:
    """Dispatcher (mode 78, round II): pay 3 doubloons for Harbour Agent's (at 11) or Silent Priest's (at 14)
    assistant action."""
    state = _started(mode="78", at="6")
    p = state["seats"][0]
    p["assist"] = [{"loc": "11", "card": 225, "since": 0}, {"loc": "14", "card": 8, "since": 0}]
    state["round"] = 2
    return _on(state, frame("otherassist", 0, pay={"d": 3}, ask=True))


def village_fence() -> tuple[State, int]:
    """In San Juan (6) with Fence (227) in the display and two tobacco cards (Silent Priest, Old Scout)."""
    state = _started(mode="78", at="6", hand=(8, 24, 1, 7))
    state["seats"][0]["display"] = [227]
    return _on(state, frame("main", 0, spent=4))


SCENARIOS.update({"lose-influence": lose_influence, "card-quest": card_quest, "return-marker": return_marker,
                  "other-assistant": other_assistant, "village-fence": village_fence})


def city_tile() -> tuple[State, int]:
    """The Uprising's city tile C16 at 13 Port Royal: 2 combat points taken; Campeche's (19) or Maracaibo's
    (10) city action, a delivery there first (Ana holds corn, tobacco, cotton, corn)."""
    state = _started(mode="78", at="13", hand=(3, 8, 1, 7))
    state["tiles"]["13"] = "C16"
    return _on(state, frame("citytile", 0, tile="C16", ask=True))


def city_quest() -> tuple[State, int]:
    """The Uprising's city tile C17: the top quest UQ1 (a tobacco) may be fulfilled; Ana holds Silent Priest."""
    state = _started(mode="78", at="13", hand=(3, 8, 1, 7))
    state["tiles"]["13"] = "C17"
    state["quest_pile"] = ["UQ1", *(q for q in state["quest_pile"] if q != "UQ1")]
    return _on(state, frame("cityquest", 0, ask=True))


SCENARIOS.update({"city-tile": city_tile, "city-quest": city_quest})
