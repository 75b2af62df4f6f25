"""Jean, the automa of solo Maracaibo: a seat inside the engine, driven by her deck in the state.

Jean is no player of the game (``state["players"]`` holds the human alone) and
is never asked anything: when her turn comes the rules push a ``jean`` frame
whose one option the decision stack takes by itself, and :func:`play_turn`
plays her whole turn, as events in the human's move. Her cards are data
(``data/jean.json``); what she does with each part of this project's
substitute content is written there (``content_notes``) and in
``docs/rules/maracaibo.md`` (Jean).

Her part of the state, ``state["jean"]``: ``level``, ``pile`` (her face-down
deck, top last: hidden), ``box`` (her cards not in the game: hidden), ``seen``
(every card revealed so far), ``discard`` (revealed this time through the
deck), ``card`` (the card of her last turn), ``at`` (her ship), ``vp`` and
``src`` (VP by source), ``inf`` (her influence markers), ``explorer``,
``quests`` (quest tiles taken), ``cards`` (display cards she removed),
``discs`` (discs off her automa board), ``tokens`` (combat tokens she fought
with).

This module reads the rules' small helpers at call time (``rules`` imports it).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from engine.core import Event, State, new_event
from engine.rng import Rng

from . import automa
from . import content as C
from .automa import TO_END
from .board import last_round, loc_kind, markers_on_board, multiplier, take_marker
from .effects import add_vp

J = dict[str, Any]

# (the package's folder from importlib.resources, not __file__: see engine/compiled.py)
DATA: dict[str, Any] = json.loads(
    resources.files("engine.games.maracaibo").joinpath("data", "jean.json").read_text("utf-8"))
NAME: str = DATA["name"]
CARDS: dict[str, dict[str, Any]] = {c["id"]: c for c in DATA["cards"]}
LEVELS: dict[int, dict[str, int]] = {int(k): v for k, v in DATA["levels"].items()}
UPRISING: list[str] = DATA["uprising_cards"]
ROUTES: dict[str, dict[str, str]] = DATA["routes"]
#: the locations her routes lead to where two ways part
ROUTED: frozenset[str] = frozenset(to for way in ROUTES.values() for to in way.values())
DISC_CAP: int = DATA["disc_track"]["cap"]
MISSING_CP_VP: int = DATA["missing_cp_vp"]
FINAL: dict[str, Any] = DATA["final"]
NATION_ORDER: list[str] = DATA["nation_order"]


# ---- reading ---------------------------------------------------------------------------------------

def playing(state: State) -> bool:
    """A solo game: Jean sits at the table."""
    return "jean" in state


def jean(state: State) -> J:
    j: J = state["jean"]
    return j


def explorers(state: State) -> set[int]:
    """The explorer spaces Jean occupies (none without her): a player's explorer skips them."""
    return {int(state["jean"]["explorer"])} if "jean" in state else set()


def rivals(state: State) -> list[J]:
    """Jean's part of the state (its ``inf``: her influence markers) for the most-influence
    comparison of final scoring; none without her."""
    return [state["jean"]] if "jean" in state else []


def round_vp(j: J) -> int:
    """Her VP at each scoring: one per removed display card, plus the disc track."""
    discs = min(int(j["discs"]), DISC_CAP)
    track = (discs - 3) * 2 if discs > 5 else max(0, discs - 1)
    return len(j["cards"]) + track


def actions(card: dict[str, Any], rnd: int) -> list[dict[str, Any]]:
    """The card's actions for round ``rnd``, in their printed order."""
    return [a for a in card["do"] if "rounds" not in a or a["rounds"][0] <= rnd <= a["rounds"][1]]


def action_text(a: dict[str, Any]) -> str:
    act = a["act"]
    if act == "explore":
        return f"explore {a['n']}"
    if act == "influence":
        return f"{a['n']} influence with {a['nation'].title()}"
    if act == "combat":
        return f"combat, {a['inf']} influence" + (" and an extra village" if a.get("village") else "")
    if act == "vp":
        return f"{a['n']} VP"
    if act == "quest":
        return "a quest from the pile"
    if act == "disc":
        return "a disc off her board"
    return f"you pay {a['n']} combat point{'s' if a['n'] != 1 else ''}"


def card_text(cid: str, rnd: int) -> str:
    c = CARDS[cid]
    acts = ", ".join(action_text(a) for a in actions(c, rnd)) or "nothing"
    return (f"{cid}: {c['move']} stop{'s' if c['move'] != 1 else ''} by the {c['route']} route, "
            f"display card {c['display']}; round {rnd}: {acts}")


# ---- setup -----------------------------------------------------------------------------------------

def setup(state: State, level: int, uprising: bool, rng: Rng) -> None:
    """Her deck by difficulty: (A, B, C) cards drawn at random from each level's cards."""
    pile: list[str] = []
    box: list[str] = []
    for lv in ("A", "B", "C"):
        ids = [c["id"] for c in DATA["cards"] if c["level"] == lv and (uprising or c["id"] not in UPRISING)]
        rng.shuffle(ids)
        k = LEVELS[level][lv]
        pile += ids[:k]
        box += ids[k:]
    rng.shuffle(pile)
    state["jean"] = {
        "level": level, "pile": pile, "box": sorted(box), "seen": [], "discard": [], "card": None,
        "at": "H", "victory_points": 0, "victory_points_by_source": {}, "influence": dict.fromkeys(C.NATIONS, 0),
        "explorer": 0, "quests": 0,
        "cards": [], "discs": 0, "tokens": [],
    }


def resample(state: State, rng: Rng) -> None:
    """Change what nobody may know of Jean: her pile's order and which unseen cards are in it."""
    j = state["jean"]
    seen = set(j["seen"])
    for lv in ("A", "B", "C"):
        slots = [i for i, cid in enumerate(j["pile"]) if cid not in seen and CARDS[cid]["level"] == lv]
        pool = [j["pile"][i] for i in slots] + [cid for cid in j["box"] if CARDS[cid]["level"] == lv]
        rng.shuffle(pool)
        for i in slots:
            j["pile"][i] = pool.pop()
        j["box"] = sorted([cid for cid in j["box"] if CARDS[cid]["level"] != lv] + pool)
    rng.shuffle(j["pile"])


def public(state: State) -> dict[str, Any]:
    """What everybody sees of Jean (her pile by its size only, her unused cards not at all).

    Its lists and dicts are hers, shared: her turn replaces them rather than change them in place
    (as the players' lists, see effects.py), so that a view keeps what it saw."""
    j = state["jean"]
    return {
        "name": NAME, "level": j["level"], "pile": len(j["pile"]), "discard": j["discard"],
        "card": j["card"], "at": j["at"], "vp": j["victory_points"], "src": j["victory_points_by_source"],
        "inf": j["influence"],
        "explorer": j["explorer"], "quests": j["quests"], "cards": j["cards"], "discs": j["discs"],
        "tokens": j["tokens"], "round_vp": round_vp(j),
    }


def text_line(view: dict[str, Any]) -> str:
    """Jean's line in the mail text."""
    j = view["jean"]
    inf = ", ".join(f"{n.title()} {j['inf'][n]}" for n in C.NATIONS)
    card = f"; her last card {card_text(j['card'], int(view['round']))}" if j["card"] else ""
    return (f"  {j['name']} (the automa, difficulty {j['level']}): at {j['at']} {C.LOC[j['at']]['name']}; "
            f"{j['vp']} VP; influence {inf}; explorer {j['explorer']}; quests {j['quests']}; "
            f"display cards taken {len(j['cards'])}; discs off her board {j['discs']} "
            f"({j['round_vp']} VP at each scoring); her pile {C.counted(j['pile'], 'card')}{card}")


# ---- her turn --------------------------------------------------------------------------------------

def _is_city(state: State, loc: str) -> bool:
    return bool(loc_kind(state, loc) == "city")


def open_to_her(state: State, loc: str) -> bool:
    """A legacy city (L4 at 9a, L7 at 16a) only when its tile is in play and her explorer has
    reached its space; a legacy location her routes never name (the Uprising's new city L30 at 10a:
    its toll is an influence marker given up, which she has not) never; every other location always."""
    info = C.LOC[loc]
    if "legacy" not in info:
        return True
    if loc not in ROUTED:
        return False
    return loc_kind(state, loc) != "off" and int(state["jean"]["explorer"]) >= int(info.get("explorer", 0))


def counts_as_stop(state: State, loc: str) -> bool:
    """Jean counts cities and locations with a quest; every other village is not counted."""
    return _is_city(state, loc) or loc in state["quests"]


def destination(state: State, steps: int, route: str) -> str:
    """Where her ship stops: ``steps`` counted locations on, by the card's route; a hand-symbol
    (homeward) space is never skipped, and no location past the round's last space is reached."""
    loc = str(state["jean"]["at"])
    counted = 0
    while True:
        nxt = [n for n in C.LOC[loc]["next"] if (n != "22" or last_round(state)) and open_to_her(state, n)]
        if not nxt:
            return loc
        loc = ROUTES[loc][route] if len(nxt) > 1 else nxt[0]
        if C.LOC[loc]["kind"] == "home":
            return loc
        if counts_as_stop(state, loc):
            counted += 1
            if counted >= steps:
                return loc


def draw(state: State, rng: Rng, ev: list[Event]) -> str:
    j = state["jean"]
    if not j["pile"]:
        j["pile"] = list(j["discard"])
        j["discard"] = []
        rng.shuffle(j["pile"])
        ev.append(Event("jean_reshuffle", f"{NAME} shuffles her discarded cards into a new pile.", reveals=True))
    cid: str = j["pile"].pop()
    j["discard"] = [*j["discard"], cid]  # (replaced: views share it)
    if cid not in j["seen"]:
        j["seen"].append(cid)
    j["card"] = cid
    ev.append(new_event("jean_card", f"{NAME} reveals her card {card_text(cid, int(state['round']))}.",
                        {"card": cid}, reveals=True))
    return cid


def play_turn(state: State, rng: Rng, ev: list[Event]) -> bool:
    """Jean's whole turn; True when she ended the round (her ship reached its last space)."""
    j = state["jean"]
    cid = draw(state, rng, ev)
    card = CARDS[cid]
    loc = destination(state, int(card["move"]), str(card["route"]))
    j["at"] = loc
    name = C.LOC[loc]["name"]
    ev.append(new_event("jean_sail", f"{NAME} sails to {loc} {name}.", {"to": loc}))
    quest = state["quests"].pop(loc, None)
    if quest is not None:
        j["quests"] += 1
        ev.append(new_event("jean_quest", f"{NAME} takes quest {quest} at {loc} {name}; her turn ends.",
                            {"quest": quest, "loc": loc}))
    else:
        if _is_city(state, loc):
            city_step(state, loc, int(card["display"]), ev)
        for a in actions(card, int(state["round"])):
            do_action(state, a, rng, ev)
    home = C.LOC[loc].get("home")
    return home == 3 or (home == 2 and not last_round(state))


def city_step(state: State, loc: str, display: int, ev: list[Event]) -> None:
    """A disc into the city's next free market space (one more off her board), else the display card removed."""
    j = state["jean"]
    market = state["market"].get(loc, [])  # a legacy city has no market: as a full one
    name = C.LOC[loc]["name"]
    if len(market) < len(C.LOC[loc].get("market", {"rewards": []})["rewards"]):
        state["market"][loc] = [*market, "jean"]  # (replaced: views share it)
        j["discs"] += 1
        ev.append(new_event("jean_disc", f"{NAME} puts a disc from her automa board on the market of {name} "
                            f"({C.counted(j['discs'], 'disc')} off her board).", {"loc": loc}))
        return
    shown = state["display"]
    if not shown:
        ev.append(new_event("jean_display", f"The market of {name} is full and the display is empty: {NAME} takes "
                            "nothing.", {"loc": loc}))
        return
    i = min(display, len(shown)) - 1
    taken = shown.pop(i)
    j["cards"] = [*j["cards"], taken]  # (replaced: views share it)
    ev.append(new_event("jean_display", f"The market of {name} is full: {NAME} removes card {i + 1} of the display, "
                        f"{C.CARD[taken]['name']} ({C.counted(len(j['cards']), 'card')} taken).", {"card": taken}))


def do_action(state: State, a: dict[str, Any], rng: Rng, ev: list[Event]) -> None:
    j = state["jean"]
    act = a["act"]
    if act == "vp":
        add_vp(j, int(a["n"]), "cards")
        ev.append(new_event("jean_vp", f"{NAME} scores {a['n']} VP.", {"vp": a["n"]}))
    elif act == "influence":
        gain_influence(state, str(a["nation"]), int(a["n"]), ev)
    elif act == "explore":
        explore(state, int(a["n"]), ev)
    elif act == "quest":
        if not state["quest_pile"]:
            ev.append(new_event("jean_quest", f"The quest pile is empty: {NAME} takes no quest.", {}))
            return
        q = state["quest_pile"].pop(0)
        j["quests"] += 1
        top = state["quest_pile"][0] if state["quest_pile"] else None
        ev.append(new_event("jean_quest", f"{NAME} takes quest {q} from the pile" +
                            (f"; the pile now shows {top}." if top else "; the pile is empty."),
                            {"quest": q, "top": top}, reveals=True))
    elif act == "disc":
        j["discs"] += 1
        ev.append(new_event("jean_disc", f"{NAME} removes a disc from her automa board ({j['discs']} off it).", {}))
    elif act == "pay_cp":
        pay_cp(state, int(a["n"]), ev)
    else:
        combat(state, int(a["inf"]), bool(a.get("village")), ev)


def gain_influence(state: State, nation: str, n: int, ev: list[Event]) -> None:
    j = state["jean"]
    before = j["influence"][nation]
    after = min(C.INFLUENCE_MAX, before + n)
    j["influence"] = {**j["influence"], nation: after}  # (replaced: views share it)
    extra = before + n - after
    text = f"{NAME} gains {n} influence with {nation.title()} ({after})"
    if extra > 0:
        add_vp(j, 2 * extra, "nations")
        text += f", {2 * extra} VP past the end of the track"
    ev.append(new_event("jean_influence", text + ".", {"nation": nation, "to": after}))


def pay_cp(state: State, n: int, ev: list[Event]) -> None:
    """The player pays n combat points (never figures); Jean scores for each one missing."""
    p = state["seats"][0]
    paid = min(int(p["combat_points"]), n)
    p["combat_points"] -= paid
    missing = n - paid
    text = f"{state['players'][0]} pays {NAME} {paid} combat point{'s' if paid != 1 else ''}"
    if missing:
        add_vp(state["jean"], MISSING_CP_VP * missing, "combat points")
        text += f"; {missing} missing: {NAME} scores {MISSING_CP_VP * missing} VP"
    ev.append(new_event("jean_pay", text + ".", {"paid": paid, "missing": missing}))


# ---- her explorer -----------------------------------------------------------------------------------

def explore(state: State, n: int, ev: list[Event]) -> None:
    """n spaces on: to the first quest within reach (stopping there), else by the shortest way.

    Spaces another explorer holds are skipped and not counted; she takes no reward, but the
    barriers she crosses first and the end she reaches count against the player's bonuses.
    """
    j = state["jean"]
    start = int(j["explorer"])
    if start == C.END_SPACE:
        ev.append(new_event("jean_explore", f"{NAME}'s explorer is at the end of the track already.", {}))
        return
    occupied = {int(p["explorer"]) for p in state["seats"]}
    to = automa.quest_in_reach(state, start, n, occupied)
    quest = to is not None
    if to is None:
        to = automa.shortest_way(start, n, occupied)
    j["explorer"] = to
    ev.append(new_event("jean_explore", f"{NAME}'s explorer moves to space {to}.", {"to": to}))
    for at, colour in sorted(C.BARRIERS.items()):
        if start < at <= to and colour != "red" and not state["first"][colour]:
            state["first"][colour] = True
            ev.append(new_event("jean_barrier", f"{NAME} crosses the {colour} barrier first (she scores nothing).", {}))
    if to == C.END_SPACE:
        state["ended"] += 1
        ev.append(new_event("jean_explorer_end", f"{NAME}'s explorer reaches the end (she scores nothing).", {}))
    if quest:
        q = state["track_quests"].pop(str(to))
        j["quests"] += 1
        ev.append(new_event("jean_quest", f"{NAME} takes quest {q} on the explorer track.", {"quest": q}))


def explorer_ahead(state: State) -> int:
    """How many spaces Jean's explorer is ahead of the player's (negative: behind), by the
    spaces each still has to the end by the shortest way (explorers on different branches
    compare how far each is from where the branches meet)."""
    return TO_END[int(state["seats"][0]["explorer"])] - TO_END[int(state["jean"]["explorer"])]


# ---- her combat -------------------------------------------------------------------------------------

def combat_values(state: State, token: str | None) -> dict[str, int]:
    """Each nation's modified combat value for Jean: the token's value, plus her noble rank,
    minus the player's, with the token's most/fewest modifier."""
    j = state["jean"]
    p = state["seats"][0]
    counts = markers_on_board(state)
    out = {}
    for n in C.NATIONS:
        if token is None:
            out[n] = 3 + C.rank(j["influence"][n]) - C.rank(p["influence"][n])
            continue
        t = C.TOKEN[token]
        value = int(t["value"][n]) + C.rank(j["influence"][n]) - C.rank(p["influence"][n])
        others = [counts[m] for m in C.NATIONS if m != n]
        if t["mod"] == "most" and counts[n] > max(others):
            value -= 2
        if t["mod"] == "fewest" and counts[n] < min(others):
            value += 3
        out[n] = value
    return out


def choose_nation(state: State, token: str | None) -> str:
    """The highest modified value; ties to the higher printed value, then France, Spain, England."""
    values = combat_values(state, token)

    def printed(n: str) -> int:
        return 3 if token is None else int(C.TOKEN[token]["value"][n])

    return max(C.NATIONS, key=lambda n: (values[n], printed(n), -NATION_ORDER.index(n)))


def annex_target(state: State, *, villages_only: bool = False) -> str | None:
    """The lowest-numbered empty city, else the lowest-numbered empty village (None: all are held)."""
    # a legacy city (9a, 16a) only in play and once her explorer has reached its space
    empty = sorted((loc for loc in C.FLAGS if loc not in state["markers"] and open_to_her(state, loc)),
                   key=lambda loc: (int(loc.rstrip("ab")), loc))
    if not villages_only:
        cities = [loc for loc in empty if _is_city(state, loc)]
        if cities:
            return cities[0]
    villages = [loc for loc in empty if not _is_city(state, loc)]
    return villages[0] if villages else None


def _annex(state: State, nation: str, ev: list[Event], *, villages_only: bool = False) -> None:
    if not take_marker(state, nation):
        ev.append(new_event("jean_annex", f"{nation.title()} has no marker left: {NAME} annexes nothing.", {}))
        return
    loc = annex_target(state, villages_only=villages_only)
    if loc is None:
        ev.append(new_event("jean_annex", f"Every location is held: {NAME} removes a {nation.title()} marker from the "
                            "game.", {"nation": nation}))
        return
    state["markers"][loc] = nation
    ev.append(new_event("jean_annex", f"{NAME} annexes {loc} {C.LOC[loc]['name']} for {nation.title()} "
                        "(no flag bonus).", {"loc": loc, "nation": nation}))


def combat(state: State, inf: int, village: bool, ev: list[Event]) -> None:
    j = state["jean"]
    token = None
    for pile in state["piles"]:
        if pile:
            token = pile.pop()
            break
    if token is not None:
        j["tokens"] = [*j["tokens"], token]  # (replaced: views share it)
        t = C.TOKEN[token]
        vals = ", ".join(f"{n.title()} {t['value'][n]}" for n in C.NATIONS)
        ev.append(new_event("jean_token", f"{NAME} reveals combat token {token}: {vals}"
                            + (f"; modifier: {t['mod']}" if t["mod"] else "") + ".", {"token": token}, reveals=True))
    values = combat_values(state, token)
    nation = choose_nation(state, token)
    shown = ", ".join(f"{n.title()} {values[n]}" for n in C.NATIONS)
    ev.append(new_event("jean_fight", f"{NAME} fights for {nation.title()} (modified values {shown}).",
                        {"nation": nation}))
    _annex(state, nation, ev)
    if village:
        _annex(state, nation, ev, villages_only=True)
    gain_influence(state, nation, inf, ev)


# ---- scoring ------------------------------------------------------------------------------------------

def interim(state: State, ev: list[Event]) -> None:
    """Interim scoring: her VP from the removed display cards and the disc track; her ship home."""
    j = state["jean"]
    vp = round_vp(j)
    add_vp(j, vp, "income")
    j["at"] = "H"
    ev.append(new_event("jean_income", f"{NAME} scores {vp} VP ({C.counted(len(j['cards']), 'display card')}, "
                        f"{C.counted(j['discs'], 'disc')} off her board).", {"vp": vp}))


def _bonus(margin: int, table: list[list[int]]) -> int:
    best = 0
    for at, vp in table:
        if margin >= at:
            best = vp
    return best


def final_bonuses(state: State, multiplier: dict[str, int]) -> dict[str, int]:
    """Every source of her final score (not yet added)."""
    j = state["jean"]
    p = state["seats"][0]
    upgrades = min(int(j["discs"]), DISC_CAP) // 2
    most = {n: max(j["influence"][n], p["influence"][n]) for n in C.NATIONS}
    return {
        "income": round_vp(j),
        "quests": FINAL["vp_per_quest"] * j["quests"] + _bonus(j["quests"] - p["quests"], FINAL["ahead"]),
        "upgrades": _bonus(upgrades - len(p["areas"]), FINAL["ahead"]),
        "explorer": _bonus(explorer_ahead(state), FINAL["explorer_ahead"]),
        "nations": sum(3 for n in C.NATIONS if most[n] > 0 and j["influence"][n] == most[n])
        + sum(C.rank(j["influence"][n]) * multiplier[n] for n in C.NATIONS),
    }


def final(state: State, ev: list[Event]) -> None:
    j = state["jean"]
    s = final_bonuses(state, multiplier(state))
    for src, v in s.items():
        add_vp(j, v, src)
    ev.append(new_event("jean_final", f"{NAME} scores " + ", ".join(f"{v} for {k}" for k, v in s.items())
                        + f": {j['victory_points']} VP.", {}))


def outcome_reason(state: State) -> tuple[bool, str]:
    """Whether the player beat Jean (more VP; a tie is hers), and the reason the outcome gives
    (the scores are in the outcome itself)."""
    me, her = int(state["seats"][0]["victory_points"]), int(state["jean"]["victory_points"])
    if me > her:
        return True, f"final scoring: {state['players'][0]} beats {NAME}"
    return False, f"final scoring: {NAME} wins" + (" the tie" if me == her else "")
