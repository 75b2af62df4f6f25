"""Setup (rulebook: "Setup" and "Game start"): the table, the players' boards, and the
simultaneous choice of a starting hand and a planned card (the ``setup`` frame). Also the two
refills the round's end repeats: the card display and the quests of the round.
"""

from __future__ import annotations

from engine import i18n
from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import campaign, coop, homeports, jacques, jean, liberation, promos, scenarios
from . import content as C
from .board import HANDLERS, legacy, opt, stack, start_turn, take_marker
from .effects import player, said, who
from .upgrade import FORMAT


def set_table(state: State, rng: Rng) -> None:
    """The table as the rulebook sets it up for the players and options in ``state``."""
    n = len(state["players"])
    table = max(n, 2)  # solo is set up as a 2-player game (Jean's ship is the second)
    opts = state["options"]
    scen = scenarios.table(state) or C.SCENARIOS[str(opts["scenario"])]  # (the Uprising's 78, 79: their own)
    a_cards = [*C.A_CARDS, *campaign.start_cards(state)] if campaign.active(state) else list(C.A_CARDS)
    rng.shuffle(a_cards)
    b_cards = scenarios.b_cards(state) or [*C.B_CARDS, *scen["cards"]]
    rng.shuffle(b_cards)
    dealt = [a_cards[i * 8:(i + 1) * 8] for i in range(n)]
    deck = a_cards[n * 8:] + b_cards[:40]
    rng.shuffle(deck)
    box = sorted(b_cards[40:])
    tokens = [t["id"] for t in C.TILES["combat"]]
    rng.shuffle(tokens)
    quests = [*(scenarios.quest_ids(state) or [q["id"] for q in C.TILES["quests"]]), *promos.quests(state)]
    rng.shuffle(quests)
    tiles_helm = [t["id"] for t in C.TILES["city_tiles"] if t["helm"] and table in t["players"]]
    tiles_other = [t["id"] for t in [*C.TILES["city_tiles"], *scenarios.new_city_tiles(state)]
                   if not t["helm"] and table in t["players"]]  # (78, 79: the Uprising's two join them)
    rng.shuffle(tiles_other)
    chosen = tiles_helm + tiles_other[:2]
    rng.shuffle(chosen)
    city_locs = [loc for loc in C.LOC_ORDER if C.LOC[loc].get("tile")]
    prestige = [*(b["id"] for b in C.TILES["prestige"]), *promos.prestige(state)]  # (the Uprising's promos)
    rng.shuffle(prestige)
    careers = [c["id"] for c in C.TILES["careers"]] + scenarios.new_careers(state)
    rng.shuffle(careers)
    state.update({
        "scenario": homeports.mode(state) if scenarios.table(state) else str(opts["scenario"]),
        "round": 1, "rounds": int(opts["rounds"]), "turn": 0, "turns": 0,
        "trigger": None, "deck": deck, "discard": [], "display": [], "box": box, "returned": [],
        "piles": [tokens[:13], tokens[13:]], "quest_pile": quests, "quests": {}, "track_quests": {},
        "markers": {}, "supply": {nation: list(C.SUPPLY_SPACES) for nation in C.NATIONS},
        "tiles": dict(zip(city_locs, chosen, strict=True)),
        "prestige": [{"id": b, "up": i == 0, "investors": []} for i, b in enumerate(prestige[:4])],
        "prestige_box": sorted(prestige[4:]),
        "market": {loc: [] for loc in C.LOC_ORDER if "market" in C.LOC[loc]},
        "first": {"blue": False, "green": False}, "ended": 0, "over": False, "stack": [], "revision": 0,
        "legacy": campaign.start_legacy(state) if campaign.active(state) else list(scen.get("legacy", [])),
    })
    scenarios.set_legacy(state)  # (the Uprising's 78 and 79: L1, L30, three tiles by revealed cards)
    scenarios.set_markers(state)  # (the Uprising's scenario 79: its markers on 2-19)
    for t in legacy(state, "marker"):
        if t["loc"] in state["markers"]:
            continue  # (scenario 79 holds it already)
        take_marker(state, t["nation"])
        state["markers"][t["loc"]] = t["nation"]
    for space in C.QUEST_SPACES:
        state["track_quests"][str(space)] = state["quest_pile"].pop(0)
    ev: list[Event] = []
    place_quests(state, ev)
    refill_display(state, rng, ev)
    if table == 2 and not scenarios.places_markers(state):  # (A24: not with scenario 79's markers)
        for loc, nation in C.MAP["two_player_annexed"].items():
            take_marker(state, nation)
            state["markers"][loc] = nation
    state["seats"] = [{
        "at": "H", "doubloons": C.START_MONEY[i], "victory_points": 0, "combat_points": 1,
        "income_doubloons": C.INCOME_D_MIN, "income_victory_points": 0,
        "influence": dict.fromkeys(C.NATIONS, 0), "hand": [], "plan": [], "display": [], "bought": [],
        "figures": 2, "figures_owned": 2, "assist": [], "discs": {u["id"]: 2 for u in C.UPGRADES}, "areas": [],
        "tokens": 0, "quests": 0, "delivered": 0, "synergy": [], "gated": [], "explorer": 0,
        "careers": [{"id": careers[2 * i + k], "done": [None, None, None]} for k in range(2)],
        "setup": {"dealt": sorted(dealt[i]), "plan": None}, "victory_points_by_source": {},
    } for i in range(n)]
    if homeports.mode(state) != "base":  # the Uprising's new ship boards and home ports
        homeports.set_boards(state, rng)
    if liberation.playing(state):  # the Liberation careers, one dealt to each player
        liberation.deal_careers(state, rng)
    state["stack"] = [frame("setup", seats=range(n))]
    if coop.cooperative(state):  # the cooperative scenarios: their markers, Jacques
        coop.setup(state, rng)
    elif n == 1 and opts.get("automa", "jean") == "jacques":
        jacques.setup(state, int(opts.get("jacques_level", 2)), rng)
    elif n == 1:
        jean.setup(state, int(opts["difficulty"]), bool(opts["jean_uprising"]), rng)
    state["format"] = FORMAT  # (upgrade.py: the format this engine writes)


def _setup_options(state: State, f: Frame) -> list[Option]:
    seat = f["seat"]
    s = player(state, seat)["setup"]
    if s is None:
        return []
    if "ports" in s and (ports := homeports.setup_options(state, seat)) is not None:
        return ports  # the Uprising's home ports: one of three kept first
    if s["plan"] is None:
        return [opt(f"p{c}", f"plan {C.CARD[c]['name']}") for c in s["dealt"]]
    return [opt(f"k{c}", f"keep {C.CARD[c]['name']}") for c in s["dealt"]]


def _setup_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    s = p["setup"]
    ev: list[Event] = []
    if o.code.startswith("h"):
        homeports.keep_port(state, seat, o.code[1:], ev)
        return ev
    cid = int(o.code[1:])
    s["dealt"].remove(cid)
    if o.code.startswith("p"):
        s["plan"] = cid
        ev.append(new_event("setup_pick", f"You plan {C.CARD[cid]['name']}.", {"card": cid}, to=(seat,)))
    else:
        p["hand"].append(cid)
        ev.append(new_event("setup_pick", f"You keep {C.CARD[cid]['name']}.", {"card": cid}, to=(seat,)))
    if len(p["hand"]) < C.HAND_LIMIT:
        return ev
    # Why sorted now: the state may not depend on the order in which the seats finish choosing.
    state["returned"] = sorted(state["returned"] + s["dealt"])
    # The planned card stays the seat's secret (in its ``setup``, with nothing left dealt) until every
    # seat has chosen: a public planning area, or this event, would show it to those still choosing.
    p["setup"] = {"dealt": [], "plan": s["plan"]}
    ev.append(new_event("setup_done", f"{who(state, seat)} has chosen a starting hand and a planned card.",
                        {"seat": seat}))
    stack(state).done_for(seat)
    if not state["stack"]:
        planned = []
        for i, q in enumerate(state["seats"]):
            if q["setup"] is not None:  # (a state saved before this rule has the plan moved already)
                q["plan"] = [*q["plan"], q["setup"]["plan"]]
                q["setup"] = None
            card = i18n.word(C.CARD[q["plan"][0]]["name"]) if q["plan"] else None
            planned.append(i18n.word("{player}: {card}", player=who(state, i), card=card) if card else who(state, i))
        returned = sorted(state.pop("returned"))
        state["deck"].extend(returned)
        rng.shuffle(state["deck"])  # the unkept cards go into the draw pile
        # (a message, so that each reader is told it in their language: QA, issue 27)
        ev.append(said("setup_end", i18n.text("Every player has chosen; the unkept cards are shuffled into the draw "
                                              "pile. Planned: {planned}.", planned={"items": planned, "sep": "; "}),
                       {}, reveals=True))
        homeports.reveal_ports(state, ev)
        start_turn(state, state["turn"], ev)
    return ev


def refill_display(state: State, rng: Rng, ev: list[Event]) -> None:
    got = []
    while len(state["display"]) < 4:
        if not state["deck"] and state["discard"]:
            state["deck"] = state["discard"]
            state["discard"] = []
            rng.shuffle(state["deck"])
        if not state["deck"]:
            break
        cid = state["deck"].pop()
        state["display"].append(cid)
        got.append(cid)
    if got:
        ev.append(new_event("display", "New display: " + ", ".join(C.CARD[c]["name"] for c in got) + ".",
                            {"cards": got}, reveals=True))


def place_quests(state: State, ev: list[Event]) -> None:
    if campaign.active(state):
        return  # the campaign's quests come with its story cards (campaign.py)
    table = (scenarios.table(state) or C.SCENARIOS[state["scenario"]])["quests"][str(state["round"])]
    locs = list(table["all"]) + (list(table["three"]) if len(state["players"]) >= 3 else [])
    placed = []
    for loc in locs:
        if loc in state["quests"] or not state["quest_pile"]:
            continue
        state["quests"][loc] = state["quest_pile"].pop(0)
        placed.append(f"{state['quests'][loc]} at {loc}")
    if placed:
        ev.append(new_event("quests", "New quests: " + ", ".join(placed) + ".", {"at": locs}, reveals=True))


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["setup"] = FunctionHandler(_setup_options, _setup_resolve)
