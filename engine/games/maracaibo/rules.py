"""Maracaibo for 2 to 4 players, without the story (scenario cards 75, 76, 77), on the shared decision stack.

SUBSTITUTE CONTENT: the cards, map, tiles and tokens are this project's own
(``data/``), not the published game's. The rules follow the rulebook guide in
``shared/rules/maracaibo.txt``; ``docs/rules/maracaibo.md`` lists every rule
with its test and every assumption.

State (plain JSON): ``round``/``rounds``, ``turn`` (seat playing), ``trigger``
(the seat whose ship ended the round this turn), ``deck`` (top last),
``discard``, ``display``, ``box`` (unused cards, hidden), ``piles`` (two
face-down combat-token piles), ``qpile`` (quest pile, top first, only the top
is face up), ``quests`` (location -> quest), ``tquests`` (explorer space ->
quest), ``markers`` (location -> nation), ``supply`` (nation -> markers left
per supply space), ``tiles`` (city -> city tile), ``prestige`` (four buildings,
``up`` when face up), ``pbox`` (unused buildings, hidden), ``market`` (city ->
seats with a disc there), ``first`` (explorer barrier firsts), ``ended`` (how
many explorers reached the end), ``p`` (per player) and ``stack`` (the
decision frames, see ``engine.stack``).

A turn is the frames ``sail``, ``main``, ``free``, ``draw``, ``next``; effects
push more on top (``village``, ``disc``, ``nation``, ``explore``, ``pile``,
``fight``, ``combat``, ``city``, ``tquest``, ``u11``, ``three``, ``short``, ``rankup``, ``yesno``),
and a round's end pushes ``score`` for each seat and ``scoring``. Setup is one
simultaneous ``setup`` frame.
"""

from __future__ import annotations

import copy
import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from engine import notation
from engine.core import Event, Move, Option, OptionSpec, Outcome, Rules, State, View, new_event, new_option
from engine.errors import IllegalMove
from engine.rng import Rng
from engine.stack import DecisionStack, Frame, FunctionHandler, frame

from . import content as C
from . import jean
from . import notation as N
from .effects import (
    add_vp,
    apply_income,
    compass,
    count_of,
    counter,
    draw_cards,
    gain,
    gain_figure,
    gain_influence,
    perm,
    player,
    take_synergy,
    who,
    without,
)

P = dict[str, Any]


def _copy(v: Any) -> Any:
    """A deep copy of JSON data, quicker than copy.deepcopy (no memo: JSON has no cycles)."""
    if isinstance(v, dict):
        return {k: _copy(x) for k, x in v.items()}
    if isinstance(v, list):
        return [_copy(x) for x in v]
    return v


#: the player keys whose lists and dicts a view shares with the state: every apply replaces them
#: rather than change them in place (see effects.py); the hand and the setup are hidden
_SHARED = frozenset(("plan", "display", "bought", "areas", "synergy", "gated", "inf", "discs", "src", "assist",
                     "careers"))
#: the player keys holding a number or a string (nothing to copy)
_SCALARS = frozenset(("at", "d", "vp", "cp", "inc_d", "inc_vp", "fig", "figs", "tokens", "quests", "delivered",
                      "explorer"))
_KNOWN = _SHARED | _SCALARS | {"hand", "setup"}
_N_KNOWN = len(_KNOWN)


def _public_player(p: P) -> P:
    """A player's public part: a new dict, sharing the player's lists and dicts with the state.

    Why shared, not copied: this runs for every player at every move, and the applies replace
    those lists and dicts instead of changing them, so a view taken earlier keeps what it saw
    (``tests/engine/test_maracaibo_views.py`` plays games to check it). A view is read-only.
    Keys added later, outside that rule, are copied.
    """
    pub = p.copy()
    if len(p) != _N_KNOWN:  # (every player has every known key, from setup on)
        for k in p.keys() - _KNOWN:
            v = p[k]
            if isinstance(v, (dict, list)):
                pub[k] = _copy(v)
    del pub["setup"]
    pub["hand"] = len(p["hand"])
    pub["choosing"] = p["setup"] is not None
    return pub


def opt(code: str, label: str) -> Option:
    """The option of this code and label, made once, then the same object in every listing.

    Why shared: a move lists a dozen options and making one costs about as much as a small dict
    of state; the codes and labels come from a bounded set (the static data and small numbers).
    An option is a value: frozen, and nothing changes its move (apply takes a copy)."""
    found = _OPTIONS.get((code, label))
    if found is None:
        if len(_OPTIONS) >= _MAX_OPTIONS:
            _OPTIONS.clear()
        found = _OPTIONS[(code, label)] = new_option(code, label, {"code": code})
    return found


_OPTIONS: dict[tuple[str, str], Option] = {}
#: a bound on the options kept (a whole game makes a few thousand)
_MAX_OPTIONS = 50_000


def first_two(options: Iterator[Option]) -> list[Option]:
    """What the stack's settle needs of a frame's options (engine.stack.FunctionHandler.settle_fn):
    the first two when there are two or more, else all of them; the rest are never worked out."""
    return list(itertools.islice(options, 2))


# ---- small reads --------------------------------------------------------------------------------

def hand_limit(p: P) -> int:
    return C.HAND_LIMIT_UPGRADED if "U2" in p["areas"] else C.HAND_LIMIT


def last_round(state: State) -> bool:
    return int(state["round"]) >= int(state["rounds"])


def legacy(state: State, kind: str) -> list[dict[str, Any]]:
    """The legacy tiles of this kind in play (scenarios 76, 77): a list shared by every call, not
    to be changed (the tiles in play never change after the setup)."""
    key = (tuple(state.get("legacy", ())), kind)
    found = _LEGACY.get(key)
    if found is None:
        found = _LEGACY[key] = [C.LEGACY[t] for t in key[0] if C.LEGACY[t]["kind"] == kind]
    return found


_LEGACY: dict[tuple[tuple[str, ...], str], list[dict[str, Any]]] = {}


def loc_kind(state: State, loc: str) -> str:
    """village, city, home or start; "off" for a legacy location whose tile is not in play.

    Why a table: the kind depends only on the legacy tiles in play and on whether two players
    or fewer play, which never change during a game; a move asks for it several times."""
    key = (tuple(state.get("legacy", ())), len(state["players"]) <= 2)
    kinds = _LOC_KINDS.get(key)
    if kinds is None:
        kinds = _LOC_KINDS[key] = {loc: _loc_kind(state, loc) for loc in C.LOC}
    return kinds[loc]


_LOC_KINDS: dict[tuple[tuple[str, ...], bool], dict[str, str]] = {}


def _loc_kind(state: State, loc: str) -> str:
    info = C.LOC[loc]
    if "legacy" in info and info["legacy"] not in state.get("legacy", ()):
        return "off"
    kind = str(info["kind"])
    if kind == "city" and info.get("two_player") and len(state["players"]) <= 2:  # solo: as with 2
        return "village"  # the 2-player Maracaibo city tile covers the city
    if kind == "village" and any(t["loc"] == loc for t in legacy(state, "city")):
        return "city"  # legacy tile L1: Puerto Cabezas becomes a city
    return kind


def open_to(state: State, p: P, loc: str) -> bool:
    """A legacy city may be entered (and annexed) once the player's explorer has got far enough."""
    return loc_kind(state, loc) != "off" and p["explorer"] >= C.LOC[loc].get("explorer", 0)


def city_action(state: State, loc: str) -> str:
    if loc in state["tiles"]:
        return str(C.CITY_TILE[state["tiles"][loc]]["action"])
    for t in legacy(state, "city"):
        if t["loc"] == loc:
            return str(t["action"])
    return str(C.LOC[loc]["action"])


def city_action_text(state: State, loc: str, *, told: bool = False) -> str:
    """The city action at ``loc``, to the player who may take it, or (``told``) about them."""
    action = city_action(state, loc)
    if action == "gain":
        return C.gain_text(C.LOC[loc]["gain"])
    if told:
        return C.CITY_ACTION_TOLD.get(action) or C.told(C.CITY_ACTION_TEXT[action])
    return C.CITY_ACTION_TEXT[action]


def markers_on_board(state: State) -> dict[str, int]:
    on_board = list(state["markers"].values())
    return {n: on_board.count(n) for n in C.NATIONS}


def take_marker(state: State, nation: str) -> bool:
    spaces = state["supply"][nation]
    for i, left in enumerate(spaces):
        if left > 0:
            state["supply"][nation] = [*spaces[:i], left - 1, *spaces[i + 1:]]  # (replaced: views share it)
            return True
    return False


def has_marker(state: State, nation: str) -> bool:
    return any(state["supply"][nation])


def multiplier(state: State) -> dict[str, int]:
    """Each nation's multiplier: its empty supply spaces, plus 2 for the most markers on the board
    (ties: all of them), or 1 for the second most when a single nation has more."""
    on_board = list(state["markers"].values())
    counts = [on_board.count(n) for n in C.NATIONS]
    ordered = sorted(counts)
    top = ordered[-1]
    # second most, when a single nation has the most: the highest count below it
    second = ordered[-2] if len(ordered) > 1 and ordered[-2] != top else None
    supply = state["supply"]
    out = {}
    for n, c in zip(C.NATIONS, counts):
        out[n] = supply[n].count(0) + (2 if c == top else 1 if c == second else 0)
    return out


def pay_shortfall(p: P, need: int, cp: int | None = None) -> None:
    """Combat value raised by paying ``cp`` combat points and figures for the rest (by default
    combat points first, then figures)."""
    if cp is None:
        cp = min(p["cp"], need)
    p["cp"] -= cp
    need -= cp
    p["fig"] -= need
    p["figs"] -= need


def shortfall_splits(p: P, need: int) -> list[int]:
    """How many of ``need`` combat value the player may pay in combat points (figures pay the rest),
    most combat points first: the rulebook lets the player mix them."""
    return list(range(min(p["cp"], need), max(0, need - p["fig"]) - 1, -1))


# ---- cards: buying --------------------------------------------------------------------------------

def _buy_needs(c: dict[str, Any]) -> tuple[int, int, int]:
    """What buying a card takes: its printed cost, the figures it uses (its own figure, an
    assistant), and the explorer space its barrier needs reached (0: none)."""
    needs = c.get("needs")
    at = {v: k for k, v in C.BARRIERS.items()}[needs["barrier"]] if needs and "barrier" in needs else 0
    return int(c["cost"]), (1 if c.get("figure") else 0) + (1 if c.get("assist") else 0), at


#: card id -> _buy_needs (static data, worked out once)
_BUY_NEEDS: dict[int, tuple[int, int, int]] = {cid: _buy_needs(c) for cid, c in C.CARD.items()}


def card_cost(p: P, cid: int) -> int:
    return max(0, _BUY_NEEDS[cid][0] - perm(p, "discount"))


def can_buy(state: State, p: P, cid: int, cost: int | None = None) -> bool:
    """Whether the player can buy the card now (``cost``: its card_cost, when the caller has it)."""
    _, figs, at = _BUY_NEEDS[cid]
    if (card_cost(p, cid) if cost is None else cost) > p["d"]:
        return False
    return bool(p["fig"] >= figs and p["explorer"] >= at)


def buy_options(state: State, seat: int) -> list[Option]:
    return list(_buy_options_in_order(state, seat, ""))


def _buy_options_in_order(state: State, seat: int, suffix: str) -> Iterator[Option]:
    """buy_options one at a time, each label ending in ``suffix`` (which village action it is)."""
    p = player(state, seat)
    discount = perm(p, "discount")  # (card_cost's, once for every card)
    for cid in [*p["hand"], *p["plan"]]:
        cost = max(0, _BUY_NEEDS[cid][0] - discount)
        if can_buy(state, p, cid, cost):
            where = " from the planning area" if cid in p["plan"] else ""
            yield opt(f"b{cid}", f"buy {C.CARD[cid]['name']} ({cost} d){where}{suffix}")
    for b in state["prestige"]:
        pb = C.PRESTIGE[b["id"]]
        if b["up"] and seat not in b["investors"] and p["d"] >= pb["cost"] and p["fig"] >= 1:
            yield opt(f"i{b['id']}", f"invest in the {pb['name']} ({pb['cost']} d and a figure){suffix}")


def do_buy(state: State, seat: int, cid: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    c = C.CARD[cid]
    cost = card_cost(p, cid)
    if cid in p["plan"]:
        p["plan"] = without(p["plan"], cid)
    else:
        p["hand"].remove(cid)
    p["d"] -= cost
    p["display"] = [*p["display"], cid]
    p["bought"] = [*p["bought"], cid]
    text = f"{who(state, seat)} buys {c['name']} for {cost} doubloons"
    if c.get("figure"):
        p["fig"] -= 1
        p["figs"] -= 1
        text += ", returning a figure"
    if c.get("assist"):
        p["fig"] -= 1
        p["assist"] = [*p["assist"], {"loc": c["assist"], "card": cid, "since": state["turns"]}]
        text += f", with an assistant at {c['assist']} {C.LOC[c['assist']]['name']}"
    ev.append(new_event("buy", text + ".", {"seat": seat, "card": cid}))
    frames: list[Frame] = []
    take_synergy(state, seat, c.get("synergy"), ev)
    for e in c["effects"]:
        if e["t"] == "income":
            if e.get("needs") and e["needs"] not in p["synergy"]:
                continue
            if e.get("needs"):
                p["gated"] = [*p["gated"], cid]
            apply_income(state, seat, e, ev)
        elif e["t"] == "now":
            frames += gain(state, seat, e["gain"], rng, ev, "cards")
    return frames


def do_invest(state: State, seat: int, bid: str, ev: list[Event]) -> None:
    p = player(state, seat)
    b = next(x for x in state["prestige"] if x["id"] == bid)
    pb = C.PRESTIGE[bid]
    p["d"] -= pb["cost"]
    p["fig"] -= 1
    first = not b["investors"]
    b["investors"] = [*b["investors"], seat]  # (replaced: views share it)
    ev.append(new_event("invest", f"{who(state, seat)} invests in the {pb['name']}" + (" first: 2 VP" if first else "")
                        + ".", {"seat": seat, "building": bid}))
    if first:
        add_vp(p, 2, "prestige")
    take_synergy(state, seat, pb["synergy"], ev)


# ---- village actions ------------------------------------------------------------------------------

def special_village_actions(state: State, seat: int, used: list[str]) -> list[Option]:
    return list(_special_village_actions_in_order(state, seat, used, ""))


#: card id -> the labels of its village actions (static data, worked out once; most cards have none)
_CARD_VILLAGE: dict[int, list[str]] = {
    cid: [f"village action of {c['name']}: {C.gain_text(e['gain'])}" for e in c["effects"] if e["t"] == "village"]
    for cid, c in C.CARD.items() if any(e["t"] == "village" for e in c["effects"])
}
#: (ship area, its village action, the label) of the ship areas that have one, in the board's order
_UPGRADE_VILLAGE: list[tuple[str, str, str]] = [
    (u["id"], u["village"], f"village action {u['id']}: {u['text'].split(': ', 1)[-1]}")
    for u in C.UPGRADES if u.get("village")
]


def _special_village_actions_in_order(state: State, seat: int, used: list[str], suffix: str) -> Iterator[Option]:
    p = player(state, seat)
    for cid in p["display"]:
        labels = _CARD_VILLAGE.get(cid)
        if labels and f"v{cid}" not in used:
            for label in labels:
                yield opt(f"v{cid}", label + suffix)
    areas = p["areas"]
    for uid, key, label in _UPGRADE_VILLAGE:
        if uid not in areas or f"v{uid}" in used:
            continue
        if key == "three_goods" and not any(sum(1 for c in p["hand"] if C.CARD[c]["good"] == g) >= 3
                                            for g in C.GOODS):
            continue
        if key == "place_marker" and (loc_kind(state, p["at"]) != "village" or p["at"] in state["markers"]
                                      or not any(has_marker(state, n) for n in C.NATIONS)):
            continue
        yield opt(f"v{uid}", label + suffix)


def village_options(state: State, seat: int, used: list[str]) -> list[Option]:
    return list(_village_options_in_order(state, seat, used, ""))


def _village_options_in_order(state: State, seat: int, used: list[str], suffix: str) -> Iterator[Option]:
    """The village actions one at a time, each label ending in ``suffix``."""
    yield from _buy_options_in_order(state, seat, suffix)
    yield opt("vd", "village action: take 1 doubloon" + suffix)
    yield from _special_village_actions_in_order(state, seat, used, suffix)


def do_village(state: State, seat: int, code: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    if code.startswith("b"):
        return do_buy(state, seat, int(code[1:]), rng, ev)
    if code.startswith("i"):
        do_invest(state, seat, code[1:], ev)
        return []
    if code == "vd":
        return gain(state, seat, {"d": 1}, rng, ev, "village")
    key = code[1:]
    if key.isdigit():
        e = next(e for e in C.CARD[int(key)]["effects"] if e["t"] == "village")
        return gain(state, seat, e["gain"], rng, ev, "cards")
    action = C.UPGRADE[key]["village"]
    if action == "cp_d":
        return gain(state, seat, {"cp": 1, "d": 1}, rng, ev, "upgrades")
    if action == "assist_pay":
        mine = sum(1 for a in p["assist"] if a["loc"] == p["at"])
        others = sum(1 for o in state["p"] if o is not p for a in o["assist"] if a["loc"] == p["at"])
        return gain(state, seat, {"d": 3 * mine + others}, rng, ev, "upgrades")
    if action == "three_goods":  # which good: the player's choice (a frame; forced when one good qualifies)
        return [frame("three", seat)]
    # place_marker: a nation's marker in this empty village
    return [frame("nation", seat, n=1, place=p["at"], d=1)]


# ---- the ship board -------------------------------------------------------------------------------

#: (ship area, the areas it needs completed first, how many other areas it needs completed)
_DISC_RULES: list[tuple[str, tuple[str, ...], int]] = [
    (u["id"], tuple(u.get("needs", ())), int(u.get("needs_count", 0))) for u in C.UPGRADES
]


def disc_areas(p: P) -> list[str]:
    """The ship areas a disc may be taken from now, in the board's order."""
    discs, areas = p["discs"], p["areas"]
    out = []
    for uid, needs, count in _DISC_RULES:
        if discs[uid] == 0:
            continue
        if needs and any(n not in areas for n in needs):
            continue
        if count and len(areas) - areas.count(uid) < count:
            continue
        out.append(uid)
    return out


def remove_disc(state: State, seat: int, uid: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    p["discs"] = {**p["discs"], uid: p["discs"][uid] - 1}
    if p["discs"][uid] > 0:
        ev.append(new_event("disc", f"{who(state, seat)} removes a disc from ship area {uid}.", {"seat": seat}))
        return []
    p["areas"] = [*p["areas"], uid]
    u = C.UPGRADE[uid]
    ev.append(new_event("upgrade", f"{who(state, seat)} completes ship upgrade {uid}: {u['text']}.", {"seat": seat}))
    if "now" in u:
        return gain(state, seat, u["now"], rng, ev, "upgrades")
    if u.get("choice"):
        return [frame("u11", seat)]
    return []


# ---- explorer -------------------------------------------------------------------------------------

def explore_targets(state: State, seat: int, n: int) -> list[int]:
    """Spaces the explorer may stop on moving up to n counted spaces (occupied spaces are skipped)."""
    p = player(state, seat)
    if p["explorer"] == C.END_SPACE:
        return []
    occupied = {o["explorer"] for i, o in enumerate(state["p"]) if i != seat} | jean.explorers(state)
    found: set[int] = set()

    def walk(space: int, steps: int) -> None:
        for nx in C.SPACES[space]["next"]:
            if nx in occupied and nx != C.END_SPACE:
                walk(nx, steps)  # skipped, not counted
                continue
            if steps + 1 > n:
                continue
            found.add(nx)
            if nx != C.END_SPACE:
                walk(nx, steps + 1)

    walk(p["explorer"], 0)
    return sorted(found)


def do_explore(state: State, seat: int, to: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    start = p["explorer"]
    p["explorer"] = to
    ev.append(new_event("explore", f"{who(state, seat)}'s explorer moves to space {to}.", {"seat": seat, "to": to}))
    frames: list[Frame] = []
    for at, colour in sorted(C.BARRIERS.items()):
        if start < at <= to:
            if colour == "red":
                frames.append(frame("nation", seat, n=3))
            else:
                first = not state["first"][colour]
                state["first"][colour] = True
                vp = 4 if first else 2
                add_vp(p, vp, "explorer")
                ev.append(new_event("barrier", f"{who(state, seat)} crosses the {colour} barrier: {vp} VP.",
                                    {"seat": seat}))
    if to == C.END_SPACE:
        vps = C.EXPLORER_DATA["end_vp"]
        vp = vps[min(state["ended"], len(vps) - 1)]
        state["ended"] += 1
        add_vp(p, vp, "explorer")
        ev.append(new_event("explorer_end", f"{who(state, seat)}'s explorer reaches the end: {vp} VP and a village "
                            "action.", {"seat": seat}))
        frames.append(frame("village", seat, left=1, used=[], ask=True))
    else:
        frames += gain(state, seat, C.SPACES[to]["reward"], rng, ev, "explorer")
        q = state["tquests"].get(str(to))
        if q and can_pay_quest(p, q):
            frames.append(frame("tquest", seat, space=to, ask=True))
    return frames


# ---- quests ---------------------------------------------------------------------------------------

def quest_cards(p: P, cost: dict[str, Any]) -> list[int] | None:
    """The cheapest hand cards paying a quest's goods and objects, or None."""
    ways = quest_payments(p, cost)
    return ways[0] if ways else None


def quest_payments(p: P, cost: dict[str, Any]) -> list[list[int]]:
    """Every set of hand cards that pays a quest's goods and objects, each sorted, cheapest first.

    Why sets: two assignments of the same cards to the wanted goods are one payment.
    """
    wanted = [("good", w) for w in cost.get("goods", [])] + [("object", w) for w in cost.get("objects", [])]
    found: set[tuple[int, ...]] = set()

    def walk(i: int, chosen: list[int]) -> None:
        if i == len(wanted):
            found.add(tuple(sorted(chosen)))
            return
        kind, w = wanted[i]
        for c in p["hand"]:
            if C.CARD[c][kind] == w and c not in chosen:
                walk(i + 1, [*chosen, c])

    walk(0, [])
    return sorted((list(t) for t in found), key=lambda cs: (sum(C.CARD[c]["cost"] for c in cs), cs))


def pay_label(cards: list[int]) -> str:
    return ", ".join(f"{C.CARD[c]['name']} ({C.CARD[c]['good']}, {C.CARD[c]['object']})" for c in cards)


def can_pay_quest(p: P, qid: str) -> bool:
    cost = C.QUEST[qid]["cost"]
    return (p["d"] >= cost.get("d", 0) and p["cp"] >= cost.get("cp", 0) and p["fig"] >= cost.get("fig", 0)
            and quest_cards(p, cost) is not None)


def do_quest(state: State, seat: int, qid: str, rng: Rng, ev: list[Event],
             cards: list[int] | None = None) -> list[Frame]:
    """Fulfil a quest paying with ``cards`` (by default the cheapest matching hand cards)."""
    p = player(state, seat)
    q = C.QUEST[qid]
    cost = q["cost"]
    if cards is None:
        cards = quest_cards(p, cost) or []
    for c in cards:
        p["hand"].remove(c)
        state["discard"].append(c)
    p["d"] -= cost.get("d", 0)
    p["cp"] -= cost.get("cp", 0)
    p["fig"] -= cost.get("fig", 0)
    p["figs"] -= cost.get("fig", 0)
    p["quests"] += 1
    k = compass(p)
    ev.append(new_event("quest", f"{who(state, seat)} fulfils quest {qid} paying {C.cost_text(cost)}"
                        + (f" (discarding {', '.join(C.CARD[c]['name'] for c in cards)})" if cards else "")
                        + f", reward x{k} compass.", {"seat": seat, "quest": qid}))
    per = {key: v * k for key, v in q["per"].items()}
    frames = gain(state, seat, per, rng, ev, "quests")
    frames += gain(state, seat, q["fixed"], rng, ev, "quests")
    bonus = perm(p, "quest_vp")
    if bonus:
        add_vp(p, bonus, "cards")
    return frames


# ---- combat ---------------------------------------------------------------------------------------

def fight_value(state: State, token: str | None, nation: str, p: P) -> int:
    if token is None:
        return 3 + perm(p, "combat_plus")
    t = C.TOKEN[token]
    value = int(t["value"][nation]) + perm(p, "combat_plus")
    counts = markers_on_board(state)
    others = [counts[m] for m in C.NATIONS if m != nation]
    if t["mod"] == "most" and counts[nation] > max(others):
        value -= 2
    if t["mod"] == "fewest" and counts[nation] < min(others):
        value += 3
    return value


#: card id -> (cost, label) of each of its combat actions (static data, worked out once; most cards have none)
_CARD_COMBAT: dict[int, list[tuple[int, str]]] = {
    cid: [(e["cost"], f"{c['name']}: {C.gain_text(e['gain'])} (value {e['cost']})") for e in c["effects"]
          if e["t"] == "combat"]
    for cid, c in C.CARD.items() if any(e["t"] == "combat" for e in c["effects"])
}


def combat_options(state: State, seat: int, data: dict[str, Any]) -> list[Option]:
    return list(_combat_options_in_order(state, seat, data))


def _combat_options_in_order(state: State, seat: int, data: dict[str, Any]) -> Iterator[Option]:
    """combat_options one at a time (the stack's settle asks for the first two only)."""
    p = player(state, seat)
    nation, value, used = data["nation"], data["value"], data["used"]
    budget = value + p["cp"] + p["fig"]
    if "inf" not in used:
        for n, cost in ((1, 2), (2, 5)):
            if cost <= budget:
                yield opt(f"ci{n}", f"influence {n} with {nation.title()} (value {cost})")
    if "annex" not in used and has_marker(state, nation):
        for loc in C.FLAGS:
            if loc_kind(state, loc) not in ("village", "city") or not open_to(state, p, loc):
                continue
            here = state["markers"].get(loc)
            name = f"{loc} {C.LOC[loc]['name']}"
            if here is None and budget >= 4:
                yield opt(f"ca{loc}", f"annex {name} (value 4)")
            elif here is not None and here != nation and budget >= 6:
                yield opt(f"cd{loc}", f"displace {here.title()} at {name} (value 6)")
    if "U6" in p["areas"] and "vil" not in used and has_marker(state, nation):
        for loc in C.LOC_ORDER:  # the villages as this game has them (L1 makes 17 a city; 2 players, 10 a village)
            if loc not in C.FLAG_SET or loc_kind(state, loc) != "village":
                continue
            here = state["markers"].get(loc)
            name = f"{loc} {C.LOC[loc]['name']}"
            if here is None and budget >= 2:
                yield opt(f"cv{loc}", f"ship action: annex village {name} (value 2)")
            elif here is not None and here != nation and budget >= 5:
                yield opt(f"cw{loc}", f"ship action: displace {here.title()} at village {name} (value 5)")
    for cid in p["display"]:
        for cost, label in _CARD_COMBAT.get(cid, ()):
            if f"c{cid}" not in used and cost <= budget:
                yield opt(f"cc{cid}", label)
    for t in legacy(state, "combat"):
        for a in t["actions"]:
            if a["id"] not in used and a["cost"] <= budget:
                yield opt(f"cx{a['id']}", f"{t['name']}: {C.gain_text(a['gain'])} (value {a['cost']})")
    yield opt("cend", "end the combat")


def do_combat_action(state: State, seat: int, code: str, data: dict[str, Any], rng: Rng,
                     ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    nation = data["nation"]
    used = list(data["used"])
    frames: list[Frame] = []
    if code == "cend":
        p["tokens"] += 1 if data["token"] else 0
        ev.append(new_event("combat_end", f"{who(state, seat)} ends the combat.", {"seat": seat}))
        return []
    if code.startswith("ci"):
        n = int(code[2:])
        cost = 2 if n == 1 else 5
        used.append("inf")
        gain_influence(state, seat, nation, n, ev)
    elif code[:2] in ("ca", "cd", "cv", "cw"):
        loc = code[2:]
        cost = {"ca": 4, "cd": 6, "cv": 2, "cw": 5}[code[:2]]
        used.append("annex" if code[:2] in ("ca", "cd") else "vil")
        old = state["markers"].get(loc)
        take_marker(state, nation)
        state["markers"][loc] = nation
        text = f"{who(state, seat)} " + (f"displaces {old.title()} at" if old else "annexes") + \
            f" {loc} {C.LOC[loc]['name']} for {nation.title()}."
        ev.append(new_event("annex", text, {"seat": seat, "loc": loc, "nation": nation}))
        gain_influence(state, seat, nation, 1, ev)
        if code[:2] in ("ca", "cd"):
            frames += gain(state, seat, C.LOC[loc]["flag"], rng, ev, "nations")
    elif code.startswith("cx"):
        a = next(a for t in legacy(state, "combat") for a in t["actions"] if a["id"] == code[2:])
        cost = a["cost"]
        used.append(a["id"])
        ev.append(new_event("combat_legacy", f"{who(state, seat)} raids the treasure fleet.", {"seat": seat}))
        frames += gain(state, seat, a["gain"], rng, ev, "nations")
    else:
        cid = int(code[2:])
        e = next(e for e in C.CARD[cid]["effects"] if e["t"] == "combat")
        cost = e["cost"]
        used.append(f"c{cid}")
        ev.append(new_event("combat_card", f"{who(state, seat)} uses {C.CARD[cid]['name']}.", {"seat": seat}))
        frames += gain(state, seat, e["gain"], rng, ev, "cards", nation=nation)
    value = data["value"]
    short: list[Frame] = []
    if cost > value:
        if len(shortfall_splits(p, cost - value)) > 1:  # combat points or figures: the player's mix, asked
            short = [frame("short", seat, need=cost - value)]
        else:
            pay_shortfall(p, cost - value)
        value = 0
    else:
        value -= cost
    return [*short, *frames, frame("combat", seat, nation=nation, value=value, used=used, token=data["token"])]


# ---- careers ----------------------------------------------------------------------------------------

_Task = tuple[int, Callable[[P], int], int, int, Option, Option]


def _career_tasks(cid: str, ci: int) -> list[_Task]:
    """A career card's tasks in slot ``ci``: (task, how its metric counts, lower, upper, then its lower
    and upper options), worked out once per card and slot (static data)."""
    key = (cid, ci)
    known = _CAREER_TASKS.get(key)
    if known is None:
        known = []
        for ti, task in enumerate(C.CAREER[cid]["tasks"]):
            num = ci * 3 + ti + 1
            known.append((ti, counter(task["metric"]), task["lower"], task["upper"],
                          opt(f"k{num}l", f"career {num} lower: {task['metric']} {task['lower']} for "
                                            f"{task['d']} d, a figure and {task['vp']} VP"),
                          opt(f"k{num}u", f"career {num} upper: {task['metric']} {task['upper']} for "
                                            f"{task['d']} d and a figure")))
        _CAREER_TASKS[key] = known
    return known


_CAREER_TASKS: dict[tuple[str, int], list[_Task]] = {}


def career_options(state: State, seat: int) -> list[Option]:
    return list(_career_options_in_order(state, seat))


def _career_options_in_order(state: State, seat: int) -> Iterator[Option]:
    p = player(state, seat)
    for ci, c in enumerate(p["careers"]):
        done = c["done"]
        for ti, count, lower, upper, opt_lower, opt_upper in (_CAREER_TASKS.get((c["id"], ci))
                                                              or _career_tasks(c["id"], ci)):
            if done[ti]:
                continue
            have = count(p)
            if have >= lower:
                yield opt_lower
            if have >= upper:
                yield opt_upper


def do_career(state: State, seat: int, code: str, ev: list[Event]) -> None:
    p = player(state, seat)
    num = int(code[1:-1]) - 1
    ci, ti = divmod(num, 3)
    careers = p["careers"][:]
    c = careers[ci]
    task = C.CAREER[c["id"]]["tasks"][ti]
    lower = code.endswith("l")
    done = c["done"][:]
    done[ti] = "lower" if lower else "upper"
    careers[ci] = c = {**c, "done": done}
    p["careers"] = careers
    p["d"] += task["d"]
    got = gain_figure(p)
    text = f"{who(state, seat)} completes career task {num + 1} ({'lower' if lower else 'upper'}): {task['d']} d"
    text += ", a figure" if got else ""
    if lower:
        add_vp(p, task["vp"], "careers")
        text += f", {task['vp']} VP"
    ev.append(new_event("career", text + ".", {"seat": seat}))
    if all(c["done"]):
        p["d"] += 2
        add_vp(p, 2, "careers")
        ev.append(new_event("admiral", f"{who(state, seat)} completes a career card: 2 d and 2 VP, Admiral!",
                            {"seat": seat}))


def free_options(state: State, seat: int) -> list[Option]:
    return list(_free_options_in_order(state, seat))


def _free_options_in_order(state: State, seat: int) -> Iterator[Option]:
    p = player(state, seat)
    if len(p["plan"]) < C.PLAN_SLOTS:
        for cid in p["hand"]:
            yield _PLAN.get(cid) or _plan(cid)
    yield from _career_options_in_order(state, seat)


def _plan(cid: int) -> Option:
    """The option of planning a card, made once per card."""
    _PLAN[cid] = found = opt(f"p{cid}", f"plan {C.CARD[cid]['name']}")
    return found


_PLAN: dict[int, Option] = {}


def _is_free(code: str) -> bool:
    """A free action's code: plan a card (p12) or a career task (k2u)."""
    return (code[:1] == "p" and code[1:].isdigit()) or (code[:1] == "k" and code[1:-1].isdigit()
                                                         and code[-1:] in ("u", "l"))


def do_free(state: State, seat: int, code: str, ev: list[Event]) -> bool:
    p = player(state, seat)
    if code.startswith("p") and code[1:].isdigit():
        cid = int(code[1:])
        p["hand"].remove(cid)
        p["plan"] = [*p["plan"], cid]
        ev.append(new_event("plan", f"{who(state, seat)} puts {C.CARD[cid]['name']} in the planning area.",
                            {"seat": seat, "card": cid}))
        return True
    if code.startswith("k"):
        do_career(state, seat, code, ev)
        return True
    return False


# ---- sailing ------------------------------------------------------------------------------------------

def sail_targets(state: State, seat: int) -> list[tuple[str, int]]:
    """(location, movement spent) for every location the ship may sail to, nearest first.

    Every step costs 1 movement, except entering a legacy city (its "enter"); a location
    reached two ways counts the cheaper one.

    Why remembered: the map is static data, so the targets depend only on where the ship is,
    whether this is the last round (space 22) and which legacy locations are open to the
    player; a turn asks for them several times (options, apply, the bot).
    """
    p = player(state, seat)
    key = (p["at"], last_round(state), tuple(loc for loc in _LEGACY_LOCS if open_to(state, p, loc)))
    found = _SAIL_TARGETS.get(key)
    if found is None:
        found = _SAIL_TARGETS[key] = _sail_targets(state, p)
    return list(found)


#: the map's legacy locations (open or not by the legacy tiles in play and the explorer)
_LEGACY_LOCS = tuple(loc for loc in C.LOC_ORDER if "legacy" in C.LOC[loc])
_SAIL_TARGETS: dict[tuple[str, bool, tuple[str, ...]], list[tuple[str, int]]] = {}


def _sail_targets(state: State, p: P) -> list[tuple[str, int]]:
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    levels: dict[int, list[str]] = {0: [p["at"]]}
    for steps in range(8):
        for loc in levels.get(steps, ()):
            if steps:
                if loc in seen:
                    continue
                seen.add(loc)
                out.append((loc, steps))
                if C.LOC[loc]["kind"] == "home":
                    continue  # homeward-bound spaces cannot be skipped
            for n in C.LOC[loc]["next"]:
                if n == "22" and not last_round(state):
                    continue
                info = C.LOC[n]
                if "legacy" in info and not open_to(state, p, n):
                    continue
                cost = steps + int(info.get("enter", 1))
                if cost <= 7 and n not in levels.setdefault(cost, []):
                    levels[cost].append(n)
    return out


def village_count(p: P, spent: int) -> int:
    if "U1" in p["areas"]:
        return 3 if spent >= 5 else (2 if spent >= 2 else 1)
    return 3 if spent >= 7 else (2 if spent >= 4 else 1)


# ---- frames -------------------------------------------------------------------------------------------

def _setup_options(state: State, f: Frame) -> list[Option]:
    seat = f["seat"]
    s = player(state, seat)["setup"]
    if s is None:
        return []
    if s["plan"] is None:
        return [opt(f"p{c}", f"plan {C.CARD[c]['name']}") for c in s["dealt"]]
    return [opt(f"k{c}", f"keep {C.CARD[c]['name']}") for c in s["dealt"]]


def _setup_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    s = p["setup"]
    cid = int(o.code[1:])
    s["dealt"].remove(cid)
    ev: list[Event] = []
    if o.code.startswith("p"):
        s["plan"] = cid
        ev.append(new_event("setup_pick", f"You plan {C.CARD[cid]['name']}.", {"card": cid}, to=(seat,)))
    else:
        p["hand"].append(cid)
        ev.append(new_event("setup_pick", f"You keep {C.CARD[cid]['name']}.", {"card": cid}, to=(seat,)))
    if len(p["hand"]) < C.HAND_LIMIT:
        return ev
    p["plan"] = [*p["plan"], s["plan"]]
    # Why sorted now: the state may not depend on the order in which the seats finish choosing.
    state["returned"] = sorted(state["returned"] + s["dealt"])
    p["setup"] = None
    ev.append(new_event("setup_done", f"{who(state, seat)} has chosen a starting hand and a planned card.",
                        {"seat": seat, "plan": p["plan"][0]}))
    stack(state).done_for(seat)
    if not state["stack"]:
        returned = sorted(state.pop("returned"))
        state["deck"].extend(returned)
        rng.shuffle(state["deck"])  # the unkept cards go into the draw pile
        ev.append(Event("setup_end", "Every player has chosen; the unkept cards are shuffled into the draw pile.",
                        reveals=True))
        start_turn(state, state["turn"], ev)
    return ev


def start_turn(state: State, seat: int, ev: list[Event]) -> None:
    state["turn"] = seat
    ev.append(new_event("turn", f"{who(state, seat)}'s turn (round {state['round']}).", {"seat": seat}))
    stack(state).push_all([frame("sail", seat, ask=True), frame("main", seat, spent=0), frame("free", seat),
                           frame("draw", seat), frame("next", seat)])


def _sail_options(state: State, f: Frame) -> list[Option]:
    return _sail_real(state, f) + free_options(state, f["seat"])


def _sail_real(state: State, f: Frame) -> list[Option]:
    return [_SAIL_OPTIONS.get(target) or _sail_option(target) for target in sail_targets(state, f["seat"])]


def _sail_settle(state: State, f: Frame) -> list[Option]:
    targets = sail_targets(state, f["seat"])
    if len(targets) >= 2:  # the first two options: the frame asks
        return [_SAIL_OPTIONS.get(target) or _sail_option(target) for target in targets[:2]]
    return _sail_options(state, f)


def _sail_option(target: tuple[str, int]) -> Option:
    """The option of sailing to a location for so much movement, made once."""
    loc, steps = target
    _SAIL_OPTIONS[target] = found = opt(f"s{loc}", f"sail {steps} to {loc} {C.LOC[loc]['name']}")
    return found


_SAIL_OPTIONS: dict[tuple[str, int], Option] = {}


def _sail_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if do_free(state, seat, o.code, ev):
        stack(state).push(f)
        return ev
    p = player(state, seat)
    loc = o.code[1:]
    steps = dict(sail_targets(state, seat))[loc]
    p["at"] = loc
    ev.append(new_event("sail", f"{who(state, seat)} sails {steps} to {loc} {C.LOC[loc]['name']}.",
                        {"seat": seat, "to": loc, "steps": steps}))
    top = stack(state).top()
    assert top is not None and top["kind"] == "main"
    top["data"]["spent"] = steps
    for t in legacy(state, "stop"):
        if t["loc"] == loc:
            ev.append(new_event("legacy", f"{who(state, seat)} stops at {C.LOC[loc]['name']}: {C.told(t['text'])}.",
                                {"seat": seat, "tile": t["id"]}))
            stack(state).push_all(gain(state, seat, t["gain"], rng, ev, "city"))
    home = C.LOC[loc].get("home")
    if home == 2:
        add_vp(p, 3, "homeward")
        ev.append(new_event("home", f"{who(state, seat)} scores 3 VP on the way home.", {"seat": seat}))
        if not last_round(state):
            state["trigger"] = seat
    elif home == 3:
        add_vp(p, 5, "homeward")
        ev.append(new_event("home", f"{who(state, seat)} scores 5 VP at the end of the voyage.", {"seat": seat}))
        state["trigger"] = seat
    return ev


def _main_options(state: State, f: Frame) -> list[Option]:
    return _main_real(state, f) + free_options(state, f["seat"])


def _main_settle(state: State, f: Frame) -> list[Option]:
    return first_two(itertools.chain(_main_real_in_order(state, f), _free_options_in_order(state, f["seat"])))


def _main_real(state: State, f: Frame) -> list[Option]:
    """The main actions (without the free actions)."""
    return list(_main_real_in_order(state, f))


def _main_real_in_order(state: State, f: Frame) -> Iterator[Option]:
    seat = f["seat"]
    p = player(state, seat)
    loc = p["at"]
    kind = loc_kind(state, loc)
    if kind == "village":
        n = village_count(p, f["data"]["spent"])
        yield from _village_options_in_order(state, seat, [], f" (1 of {n} village actions)")
    elif kind == "city":
        market = state["market"].get(loc, [])
        m = C.LOC[loc].get("market", {"goods": [], "rewards": []})
        if len(market) < len(m["rewards"]) and disc_areas(p):
            seen = set()
            for cid in p["hand"]:
                g = C.CARD[cid]["good"]
                if g in m["goods"] and g not in seen:
                    seen.add(g)
                    yield opt(f"d{g}", f"deliver {g} ({m['rewards'][len(market)]} d), then the city action")
        action = city_action(state, loc)
        if action != "top_quest" or (state["qpile"] and can_pay_quest(p, state["qpile"][0])):
            yield opt("city", f"city action without delivery: {city_action_text(state, loc)}")
    elif C.LOC[loc].get("home") == 1:
        yield opt("hfight", "combat action")
        yield opt("hexplore", "explore 2")
    q = state["quests"].get(loc)
    if q and can_pay_quest(p, q):
        yield opt("quest", f"fulfil quest {q}: pay {C.cost_text(C.QUEST[q]['cost'])}")
    assistants: set[str] = set()  # (no other main action's code starts with "a")
    for a in p["assist"]:
        if a["loc"] == loc and a["since"] < state["turns"]:
            e = next(e for e in C.CARD[a["card"]]["effects"] if e["t"] == "assistant")
            code = f"a{a['card']}"
            if code not in assistants:
                assistants.add(code)
                yield opt(code, f"assistant action of {C.CARD[a['card']]['name']}: {C.gain_text(e['gain'])}")
    yield opt("pass", "no main action")


def _main_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    st = stack(state)
    if do_free(state, seat, o.code, ev):
        st.push(f)
        return ev
    p = player(state, seat)
    code = o.code
    loc = p["at"]
    frames: list[Frame] = []
    if code == "pass":
        ev.append(new_event("pass", f"{who(state, seat)} takes no main action.", {"seat": seat}))
    elif code == "quest":
        frames = [frame("pay", seat, what="quest", quest=state["quests"].pop(loc))]
    elif code.startswith("a") and code[1:].isdigit():
        cid = int(code[1:])
        e = next(e for e in C.CARD[cid]["effects"] if e["t"] == "assistant")
        ev.append(new_event("assistant", f"{who(state, seat)} uses the assistant of {C.CARD[cid]['name']}.",
                            {"seat": seat}))
        frames = gain(state, seat, e["gain"], rng, ev, "cards")
    elif code == "hfight":
        frames = [frame("pile", seat)]
    elif code == "hexplore":
        frames = [frame("explore", seat, n=2)]
    elif code.startswith("d") and code[1:] in C.GOODS:
        frames = [frame("pay", seat, what="deliver", good=code[1:]), frame("disc", seat, n=1), frame("city", seat)]
    elif code == "city":
        frames = [frame("city", seat)]
    else:
        n = village_count(p, f["data"]["spent"])
        frames = do_village(state, seat, code, rng, ev)
        if n > 1:
            frames.append(frame("village", seat, left=n - 1, used=[code] if code.startswith("v") else []))
    st.push_all(frames)
    return ev


def _village_options(state: State, f: Frame) -> list[Option]:
    return list(_village_frame_in_order(state, f))


def _village_settle(state: State, f: Frame) -> list[Option]:
    return first_two(_village_frame_in_order(state, f))


def _village_frame_in_order(state: State, f: Frame) -> Iterator[Option]:
    yield from _village_options_in_order(state, f["seat"], f["data"]["used"], f" ({f['data']['left']} left)")
    yield opt("done", "no more village actions")


def _village_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "done":
        return ev
    frames = do_village(state, seat, o.code, rng, ev)
    left = f["data"]["left"] - 1
    if left > 0:
        used = [*f["data"]["used"], *([o.code] if o.code.startswith("v") else [])]
        frames.append(frame("village", seat, left=left, used=used))
    stack(state).push_all(frames)
    return ev


def _city_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    if city_action(state, p["at"]) == "top_quest" and not (state["qpile"] and can_pay_quest(p, state["qpile"][0])):
        return []  # after a delivery the top quest may no longer be payable: nothing to do
    return [opt("go", f"city action: {city_action_text(state, p['at'])}")]


def _city_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    action = city_action(state, p["at"])
    ev: list[Event] = [new_event("city", f"{who(state, seat)} takes the city action: "
                                 f"{city_action_text(state, p['at'], told=True)}.",
                                 {"seat": seat})]
    frames: list[Frame] = []
    if action == "gain":
        frames = gain(state, seat, C.LOC[p["at"]]["gain"], rng, ev, "city")
    elif action == "top_quest":
        q = state["qpile"].pop(0)
        frames = [frame("pay", seat, what="quest", quest=q)]
        if state["qpile"]:
            ev.append(new_event("quest_top", f"The next quest of the pile is {state['qpile'][0]}.",
                                {"quest": state["qpile"][0]}, reveals=True))
    elif action == "inf_village":
        frames = [frame("nation", seat, n=1), frame("village", seat, left=1, used=[])]
    elif action == "cp_disc":
        frames = [*gain(state, seat, {"cp": 1}, rng, ev, "city"), frame("disc", seat, n=1)]
    elif action == "cp3":
        frames = gain(state, seat, {"cp": 3}, rng, ev, "city")
    elif action == "d2_village":
        frames = [*gain(state, seat, {"d": 2}, rng, ev, "city"), frame("village", seat, left=1, used=[])]
    elif action == "cp_inf":
        frames = [*gain(state, seat, {"cp": 1}, rng, ev, "city"), frame("nation", seat, n=1)]
    elif action == "compass":
        frames = [frame("village", seat, left=compass(p), used=[])]
    elif action == "tokens_discard":
        frames = gain(state, seat, {"vp": p["tokens"]}, rng, ev, "city")
        if p["hand"]:
            frames.append(frame("yesno", seat, what="discard", ask=True))
    elif action == "assistants":
        if p["assist"]:
            frames = [frame("yesno", seat, what="assistants", ask=True)]
    elif action == "pay_cp":
        if p["cp"] >= 2:
            frames = [frame("yesno", seat, what="pay_cp", ask=True)]
    else:  # combat
        frames = [frame("pile", seat)]
    stack(state).push_all(frames)
    return ev


YESNO = {
    "discard": ("discard your hand for 4 doubloons", "keep your hand"),
    "assistants": ("4 doubloons for each assistant", "2 VP for each assistant"),
    "pay_cp": ("pay 2 combat points for 1 influence and 6 doubloons", "do not pay"),
}


def _yesno_options(state: State, f: Frame) -> list[Option]:
    yes, no = YESNO[f["data"]["what"]]
    return [opt("yes", yes), opt("no", no)]


def _yesno_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    what = f["data"]["what"]
    ev: list[Event] = []
    frames: list[Frame] = []
    if what == "discard" and o.code == "yes":
        state["discard"].extend(p["hand"])
        ev.append(new_event("discard", f"{who(state, seat)} discards the hand ("
                            + ", ".join(C.CARD[c]["name"] for c in p["hand"]) + ").", {"seat": seat}))
        p["hand"] = []
        frames = gain(state, seat, {"d": 4}, rng, ev, "city")
    elif what == "assistants":
        n = len(p["assist"])
        frames = gain(state, seat, {"d": 4 * n} if o.code == "yes" else {"vp": 2 * n}, rng, ev, "city")
    elif what == "pay_cp" and o.code == "yes":
        p["cp"] -= 2
        frames = [*gain(state, seat, {"d": 6}, rng, ev, "city"), frame("nation", seat, n=1)]
    stack(state).push_all(frames)
    return ev


def _disc_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    return [opt(f"u{uid[1:]}", f"disc from ship area {uid}: {C.UPGRADE[uid]['text']}"
                + (" (completes it)" if p["discs"][uid] == 1 else "")) for uid in disc_areas(p)]


def _disc_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    frames = remove_disc(state, seat, "U" + o.code[1:], rng, ev)
    if f["data"]["n"] > 1:
        frames.append(frame("disc", seat, n=f["data"]["n"] - 1))
    stack(state).push_all(frames)
    return ev


def _nation_options(state: State, f: Frame) -> list[Option]:
    d = f["data"]
    if "place" in d:
        return [opt("n" + n[0], f"{n.title()}: marker in {d['place']}, 1 influence, 1 doubloon")
                for n in C.NATIONS if has_marker(state, n)]
    return [opt("n" + n[0], f"{d['n']} influence with {n.title()}") for n in C.NATIONS]


def _nation_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    d = f["data"]
    ev: list[Event] = []
    if "place" in d:
        take_marker(state, nation)
        state["markers"][d["place"]] = nation
        ev.append(new_event("annex", f"{who(state, seat)} places a {nation.title()} marker in {d['place']}.",
                            {"seat": seat, "loc": d["place"], "nation": nation}))
        player(state, seat)["d"] += d.get("d", 0)
    gain_influence(state, seat, nation, d["n"], ev)
    return ev


def _explore_options(state: State, f: Frame) -> list[Option]:
    out = []
    for to in explore_targets(state, f["seat"], f["data"]["n"]):
        r = C.SPACES[to]
        what = "the end of the track" if to == C.END_SPACE else C.gain_text(r["reward"])
        out.append(opt(f"e{to}", f"explore to space {to} ({what})"))
    return out


def _explore_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    stack(state).push_all(do_explore(state, seat, int(o.code[1:]), rng, ev))
    return ev


def _tquest_options(state: State, f: Frame) -> list[Option]:
    q = state["tquests"].get(str(f["data"]["space"]))
    if not q or not can_pay_quest(player(state, f["seat"]), q):
        return []
    return [opt("quest", f"fulfil quest {q}: pay {C.cost_text(C.QUEST[q]['cost'])}"), opt("no", "leave the quest")]


def _tquest_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "quest":
        stack(state).push(frame("pay", seat, what="quest", quest=state["tquests"].pop(str(f["data"]["space"]))))
    return ev


def deliver(state: State, seat: int, cid: int, ev: list[Event]) -> None:
    """Discard ``cid`` and put a disc on the market of the ship's city for its doubloons."""
    p = player(state, seat)
    loc = p["at"]
    good = C.CARD[cid]["good"]
    p["hand"].remove(cid)
    state["discard"].append(cid)
    market = state["market"][loc]
    reward = C.LOC[loc]["market"]["rewards"][len(market)] + perm(p, "deliver_d")
    state["market"][loc] = [*market, seat]  # (replaced: views share it)
    p["d"] += reward
    p["delivered"] += 1
    ev.append(new_event("deliver", f"{who(state, seat)} delivers {good} to {C.LOC[loc]['name']} "
                        f"(discarding {C.CARD[cid]['name']}): {reward} doubloons.", {"seat": seat, "card": cid}))


def _pay_options(state: State, f: Frame) -> list[Option]:
    """Which hand cards pay a quest or a delivery; a frame with one way to pay resolves itself."""
    p = player(state, f["seat"])
    d = f["data"]
    if d["what"] == "deliver":
        cards = sorted((c for c in p["hand"] if C.CARD[c]["good"] == d["good"]),
                       key=lambda c: (C.CARD[c]["cost"], c))
        return [opt(f"y{c}", f"deliver {d['good']} with {pay_label([c])}") for c in cards]
    if d["what"] == "three":  # U9 with four or more cards of the good: which three are discarded
        mine = sorted(three_cards(p, d["good"]), key=lambda c: (C.CARD[c]["cost"], c))
        return [opt("y" + "-".join(map(str, sorted(cs))), f"discard {pay_label(list(cs))}; keep "
                    + ", ".join(C.CARD[c]["name"] for c in mine if c not in cs))
                for cs in itertools.combinations(mine, 3)]
    ways = quest_payments(p, C.QUEST[d["quest"]]["cost"])
    if ways == [[]]:
        return [opt("ypay", f"pay {C.cost_text(C.QUEST[d['quest']]['cost'])}")]
    return [opt("y" + "-".join(map(str, cs)), f"pay quest {d['quest']} with {pay_label(cs)}") for cs in ways]


def _pay_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    d = f["data"]
    cards = [int(c) for c in o.code[1:].split("-")] if o.code != "ypay" else []
    if d["what"] == "deliver":
        deliver(state, seat, cards[0], ev)
        return ev
    if d["what"] == "three":
        stack(state).push_all(discard_three(state, seat, cards, rng, ev))
        return ev
    stack(state).push_all(do_quest(state, seat, d["quest"], rng, ev, cards))
    return ev


def _pile_options(state: State, f: Frame) -> list[Option]:
    piles = state["piles"]
    if not piles[0] and not piles[1]:
        return [opt("x", "fight with no token (every nation's value is 3)")]
    return [opt(f"t{i + 1}", f"reveal a combat token from pile {i + 1}") for i in range(2) if piles[i]]


def _pile_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    token = None
    ev: list[Event] = []
    if o.code != "x":
        token = state["piles"][int(o.code[1]) - 1].pop()
        t = C.TOKEN[token]
        vals = ", ".join(f"{n.title()} {t['value'][n]} ({C.gain_text(t['reward'][n])})" for n in C.NATIONS)
        ev.append(new_event("token", f"{who(state, seat)} reveals combat token {token}: {vals}"
                            + (f"; modifier: {t['mod']}" if t["mod"] else "") + ".", {"seat": seat, "token": token},
                            reveals=True))
    stack(state).push(frame("fight", seat, token=token, ask=True))
    return ev


def _fight_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    token = f["data"]["token"]
    out = []
    for n in C.NATIONS:
        reward = C.TOKEN[token]["reward"][n] if token else {}
        if reward.get("d", 0) < 0 and p["d"] < -reward["d"]:
            continue
        out.append(opt(f"f{n[0]}", f"fight {n} (value {fight_value(state, token, n, p)}"
                       + (f", {C.gain_text(reward)}" if reward else "") + ")"))
    return out


def _fight_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    token = f["data"]["token"]
    ev = [new_event("fight", f"{who(state, seat)} fights for {nation.title()}.", {"seat": seat, "nation": nation})]
    frames: list[Frame] = []
    if token:
        frames = gain(state, seat, C.TOKEN[token]["reward"][nation], rng, ev, "nations", nation=nation)
    frames.append(frame("combat", seat, nation=nation, value=fight_value(state, token, nation, p), used=[],
                        token=token))
    stack(state).push_all(frames)
    return ev


def _combat_options(state: State, f: Frame) -> list[Option]:
    return combat_options(state, f["seat"], f["data"])


def _combat_settle(state: State, f: Frame) -> list[Option]:
    return first_two(_combat_options_in_order(state, f["seat"], f["data"]))


def _combat_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    stack(state).push_all(do_combat_action(state, seat, o.code, f["data"], rng, ev))
    return ev


def _u11_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    out = []
    if explore_targets(state, f["seat"], 3):
        out.append(opt("explore", "explore up to 3"))
    out.append(opt("money", "4 doubloons and 4 VP"))
    if any(C.next_rank_at(v) is not None for v in p["inf"].values()):
        out.append(opt("rank", "one influence marker up to its next noble rank"))
    return out


def _u11_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "explore":
        stack(state).push(frame("explore", seat, n=3))
    elif o.code == "money":
        stack(state).push_all(gain(state, seat, {"d": 4, "vp": 4}, rng, ev, "upgrades"))
    else:
        stack(state).push(frame("rankup", seat))
    return ev


def three_cards(p: P, good: str) -> list[int]:
    """The hand cards showing ``good`` (U9's village action discards three of them)."""
    return [c for c in p["hand"] if C.CARD[c]["good"] == good]


def _three_options(state: State, f: Frame) -> list[Option]:
    """U9: one option per good the hand holds three of (the rulebook lets the player choose)."""
    p = player(state, f["seat"])
    out = []
    for g in C.GOODS:
        cards = three_cards(p, g)
        if len(cards) == 3:
            names = ", ".join(C.CARD[c]["name"] for c in cards)
            out.append(opt(f"g{g}", f"discard three {g} ({names}): 2 doubloons and 2 VP"))
        elif len(cards) > 3:
            out.append(opt(f"g{g}", f"discard three of your {len(cards)} {g} cards (which next): "
                                    "2 doubloons and 2 VP"))
    return out


def discard_three(state: State, seat: int, cards: list[int], rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    for c in cards:
        p["hand"].remove(c)
        state["discard"].append(c)
    ev.append(new_event("discard", f"{who(state, seat)} discards three {C.CARD[cards[0]]['good']} ("
                        + ", ".join(C.CARD[c]["name"] for c in cards) + ").", {"seat": seat, "cards": cards}))
    return gain(state, seat, {"d": 2, "vp": 2}, rng, ev, "upgrades")


def _three_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    g = o.code[1:]
    cards = three_cards(player(state, seat), g)
    ev: list[Event] = []
    if len(cards) > 3:  # which three of them: the `pay` frame asks
        stack(state).push(frame("pay", seat, what="three", good=g))
        return ev
    stack(state).push_all(discard_three(state, seat, cards, rng, ev))
    return ev


def _short_options(state: State, f: Frame) -> list[Option]:
    """The combat value a combat action lacks, paid in combat points and figures as the player mixes them."""
    p = player(state, f["seat"])
    need = f["data"]["need"]
    out = []
    for cp in shortfall_splits(p, need):
        figs = need - cp
        words = [f"{cp} combat point{'s' if cp != 1 else ''}"] if cp else []
        words += [f"{figs} figure{'s' if figs != 1 else ''}"] if figs else []
        out.append(opt(f"cp{cp}", f"pay {' and '.join(words)} for the {need} combat value missing"))
    return out


def _short_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    need, cp = f["data"]["need"], int(o.code[2:])
    pay_shortfall(p, need, cp)
    return [new_event("shortfall", f"{who(state, seat)} pays {cp} combat points and {need - cp} figures for "
                      "the combat value missing.", {"seat": seat, "cp": cp, "figures": need - cp})]


def _rankup_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    out = []
    for n in C.NATIONS:
        at = C.next_rank_at(p["inf"][n])
        if at is not None:
            out.append(opt("r" + n[0], f"{n.title()} up to {at} (rank {C.RANK_AT[at]})"))
    return out


def _rankup_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    at = C.next_rank_at(p["inf"][nation])
    ev: list[Event] = []
    assert at is not None
    gain_influence(state, seat, nation, at - p["inf"][nation], ev)
    return ev


def _free_options(state: State, f: Frame) -> list[Option]:
    return list(_free_frame_in_order(state, f))


def _free_settle(state: State, f: Frame) -> list[Option]:
    return first_two(_free_frame_in_order(state, f))


def _free_frame_in_order(state: State, f: Frame) -> Iterator[Option]:
    yield from _free_options_in_order(state, f["seat"])
    yield opt("end", "end the main phase and draw cards")


def _free_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if do_free(state, seat, o.code, ev):
        stack(state).push(f)
    return ev


def _draw_options(state: State, f: Frame) -> list[Option]:
    return list(_draw_options_in_order(state, f))


def _draw_settle(state: State, f: Frame) -> list[Option]:
    return first_two(_draw_options_in_order(state, f))


def _draw_options_in_order(state: State, f: Frame) -> Iterator[Option]:
    p = player(state, f["seat"])
    if len(p["hand"]) >= hand_limit(p):
        return
    if state["deck"] or state["discard"]:
        yield opt("pile", "draw from the pile")
    free = "U3" in p["areas"]
    for i, cid in enumerate(state["display"]):
        if free or p["d"] >= 1:
            yield opt(f"x{i + 1}", f"draw {i + 1} from the display: {C.CARD[cid]['name']}"
                        + ("" if free else " (1 d)"))


def _draw_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    ev: list[Event] = []
    if o.code == "pile":
        draw_cards(state, seat, 1, rng, ev)
    else:
        cid = state["display"].pop(int(o.code[1:]) - 1)
        p["hand"].append(cid)
        paid = "U3" not in p["areas"]
        if paid:
            p["d"] -= 1
        ev.append(new_event("take", f"{who(state, seat)} takes {C.CARD[cid]['name']} from the display"
                            + (" for 1 doubloon." if paid else "."), {"seat": seat, "card": cid}))
    stack(state).push(f)
    return ev


def _next_options(state: State, f: Frame) -> list[Option]:
    return [opt("next", "end the turn")]


def _next_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    state["turns"] += 1
    n = len(state["players"])
    trigger = state["trigger"]
    if trigger is None:
        if jean.playing(state):
            stack(state).push(frame("jean", seat))  # her turn, resolved by the stack itself
        else:
            start_turn(state, (seat + 1) % n, ev)
        return ev
    kind = "final" if last_round(state) else "interim"
    ev.append(new_event("round_end", f"{who(state, trigger)} ended round {state['round']}: "
                        f"{'final' if kind == 'final' else 'interim'} scoring.", {"seat": trigger}))
    order = [(trigger + i) % n for i in range(n)]
    stack(state).push_all([*(frame("score", s, mode=kind, ask=True) for s in order), frame("scoring", trigger,
                                                                                             mode=kind)])
    return ev


def _score_options(state: State, f: Frame) -> list[Option]:
    return [*buy_options(state, f["seat"]), opt("vp2", "score 2 VP")]


def _score_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    p = player(state, seat)
    if o.code == "vp2":
        add_vp(p, 2, "scoring")
        ev.append(new_event("score2", f"{who(state, seat)} scores 2 VP.", {"seat": seat}))
        return ev
    frames = do_village(state, seat, o.code, rng, ev)
    if f["data"]["mode"] == "interim":
        frames.append(frame("draw", seat))  # redraw as in phase C
    stack(state).push_all(frames)
    return ev


def _scoring_options(state: State, f: Frame) -> list[Option]:
    return [opt("go", "scoring")]


def _scoring_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if f["data"]["mode"] == "final":
        final_scoring(state, ev)
        return ev
    for i, p in enumerate(state["p"]):
        p["d"] += p["inc_d"]
        add_vp(p, p["inc_vp"], "income")
        ev.append(new_event("income", f"{who(state, i)} receives {p['inc_d']} doubloons and {p['inc_vp']} VP.",
                            {"seat": i}))
    if jean.playing(state):
        jean.interim(state, ev)
    for loc in state["market"]:
        state["market"][loc] = []
    state["discard"].extend(state["display"])
    state["display"] = []
    refill_display(state, rng, ev)
    for b in state["prestige"]:
        if not b["up"]:
            b["up"] = True
            ev.append(new_event("prestige", f"The {C.PRESTIGE[b['id']]['name']} is revealed.", {"building": b["id"]},
                                reveals=True))
            break
    state["round"] += 1
    place_quests(state, ev)
    for p in state["p"]:
        p["at"] = "H"
    state["trigger"] = None
    ev.append(new_event("round", f"Round {state['round']} begins; every ship is back in Havana.",
                        {"round": state["round"]}))
    if jean.playing(state) and not f["data"].get("jean"):
        stack(state).push(frame("jean", seat))  # the player ended the round: Jean begins the next
    else:
        start_turn(state, (seat + 1) % len(state["players"]), ev)
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
    table = C.SCENARIOS[state["scenario"]]["quests"][str(state["round"])]
    locs = list(table["all"]) + (list(table["three"]) if len(state["players"]) >= 3 else [])
    placed = []
    for loc in locs:
        if loc in state["quests"] or not state["qpile"]:
            continue
        state["quests"][loc] = state["qpile"].pop(0)
        placed.append(f"{state['quests'][loc]} at {loc}")
    if placed:
        ev.append(new_event("quests", "New quests: " + ", ".join(placed) + ".", {"at": locs}, reveals=True))


def final_scores(state: State) -> list[dict[str, int]]:
    """Every scoring source of final scoring steps 2-5, per seat (not yet added)."""
    mult = multiplier(state)
    out = []
    most = {n: max(p["inf"][n] for p in [*state["p"], *jean.rivals(state)]) for n in C.NATIONS}
    for p in state["p"]:
        s: dict[str, int] = {}
        s["income"] = p["inc_vp"] + (p["inc_d"] - C.INCOME_D_MIN) // 2
        s["cards"] = sum(C.CARD[c]["vp"] for c in p["display"])
        pv = 0
        for b in state["prestige"]:
            if state["p"].index(p) in b["investors"]:
                pb = C.PRESTIGE[b["id"]]
                pv += pb["vp"] * count_of(p, pb["per"])
        s["prestige"] = pv
        s["nations"] = sum(3 for n in C.NATIONS if most[n] > 0 and p["inf"][n] == most[n]) + sum(
            C.rank(p["inf"][n]) * mult[n] for n in C.NATIONS)
        out.append(s)
    return out


def final_scoring(state: State, ev: list[Event]) -> None:
    for i, s in enumerate(final_scores(state)):
        p = state["p"][i]
        for src, v in s.items():
            add_vp(p, v, src)
        ev.append(new_event("final", f"{who(state, i)} scores " + ", ".join(f"{v} for {k}" for k, v in s.items())
                            + f": {p['vp']} VP.", {"seat": i}))
    if jean.playing(state):
        jean.final(state, ev)
    state["over"] = True


def with_free_actions(h: FunctionHandler) -> FunctionHandler:
    """A sub-decision that also offers the free actions (plan a card, a career task) while it asks.

    The rulebook allows free actions "before, during, or after your main action". A frame that
    resolves itself (one forced choice) does not stop for them: the next asking step offers them.
    """
    def options(state: State, f: Frame) -> list[Option]:
        real = h.options(state, f)
        if len(real) >= 2 or (real and f.get("ask")):
            return real + free_options(state, f["seat"])
        return real

    def resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
        ev: list[Event] = []
        if do_free(state, seat, o.code, ev):
            stack(state).push(f)  # the same decision again, after the free action
            return ev
        return h.resolve(state, f, seat, o, rng)

    def settle(state: State, f: Frame) -> list[Option]:
        real = h.settle_options(state, f)
        if len(real) >= 2:
            return real  # a prefix of options(): the frame asks
        if real and f.get("ask"):
            return real + free_options(state, f["seat"])
        return real

    return FunctionHandler(options, resolve, settle)


#: the sub-decisions of a turn that offer the free actions too
SUB_DECISIONS = ("village", "city", "yesno", "disc", "nation", "explore", "tquest", "pile", "fight", "combat", "u11",
                 "rankup")


def _jean_options(state: State, f: Frame) -> list[Option]:
    return [opt("jean", f"{jean.NAME}'s turn")]


def _jean_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    """Jean's whole turn; then the player's turn, or the end of the round she triggered."""
    ev: list[Event] = [new_event("jean_turn", f"{jean.NAME}'s turn (round {state['round']}).", {})]
    if not jean.play_turn(state, rng, ev):
        start_turn(state, seat, ev)
        return ev
    kind = "final" if last_round(state) else "interim"
    ev.append(new_event("round_end", f"{jean.NAME} ended round {state['round']}: {kind} scoring.", {"jean": True}))
    stack(state).push_all([frame("score", seat, mode=kind, ask=True), frame("scoring", seat, mode=kind, jean=True)])
    return ev


HANDLERS = {
    "setup": FunctionHandler(_setup_options, _setup_resolve),
    "sail": FunctionHandler(_sail_options, _sail_resolve, _sail_settle),
    "main": FunctionHandler(_main_options, _main_resolve, _main_settle),
    "village": FunctionHandler(_village_options, _village_resolve, _village_settle),
    "city": FunctionHandler(_city_options, _city_resolve),
    "yesno": FunctionHandler(_yesno_options, _yesno_resolve),
    "disc": FunctionHandler(_disc_options, _disc_resolve),
    "nation": FunctionHandler(_nation_options, _nation_resolve),
    "explore": FunctionHandler(_explore_options, _explore_resolve),
    "tquest": FunctionHandler(_tquest_options, _tquest_resolve),
    "pay": FunctionHandler(_pay_options, _pay_resolve),
    "pile": FunctionHandler(_pile_options, _pile_resolve),
    "fight": FunctionHandler(_fight_options, _fight_resolve),
    "combat": FunctionHandler(_combat_options, _combat_resolve, _combat_settle),
    "u11": FunctionHandler(_u11_options, _u11_resolve),
    "three": FunctionHandler(_three_options, _three_resolve),
    "short": FunctionHandler(_short_options, _short_resolve),
    "rankup": FunctionHandler(_rankup_options, _rankup_resolve),
    "free": FunctionHandler(_free_options, _free_resolve, _free_settle),
    "draw": FunctionHandler(_draw_options, _draw_resolve, _draw_settle),
    "next": FunctionHandler(_next_options, _next_resolve),
    "score": FunctionHandler(_score_options, _score_resolve),
    "scoring": FunctionHandler(_scoring_options, _scoring_resolve),
    "jean": FunctionHandler(_jean_options, _jean_resolve),
}


for _kind in SUB_DECISIONS:
    HANDLERS[_kind] = with_free_actions(HANDLERS[_kind])


# (compiled: a native subclass of the native DecisionStack; a Python class may not subclass one)
class _Stack(DecisionStack):
    """The shared decision stack, its reads of the top written out for Maracaibo's frames in
    ``state["stack"]``: the same results in fewer calls (one move reads the top a dozen times)."""

    def top(self) -> Frame | None:
        frames: list[Frame] = self.state["stack"]
        return frames[-1] if frames else None

    def pending(self) -> list[int]:
        return _pending_seats(self.state)

    def pop(self) -> Frame:
        frames: list[Frame] = self.state["stack"]
        if not frames:
            return super().pop()  # (the error)
        return frames.pop()


def _pending_seats(state: State) -> list[int]:
    """DecisionStack.pending, read from the state."""
    frames = state["stack"]
    if not frames:
        return []
    top = frames[-1]
    if "seats" in top:
        return list(top["seats"])
    return [int(top["seat"])]


def stack(state: State) -> DecisionStack:
    return _Stack(state, HANDLERS)


#: the keys of the public part of a view, in their order, with the values that never change
_PUBLIC_VIEW: View = {
    **dict.fromkeys(("game", "label", "players", "seat", "options", "round", "rounds", "turn", "turns", "trigger",
                     "step", "deck", "discard", "display", "piles", "quest_top", "quest_pile", "quests", "tquests",
                     "markers", "supply", "tiles", "market", "prestige", "first", "ended", "over", "multiplier",
                     "legacy")),
    "game": "maracaibo", "label": C.LABEL,
}


# ---- the rules object ----------------------------------------------------------------------------

class Maracaibo(Rules):
    name = "maracaibo"
    title = "Maracaibo (substitute content)"
    view_schema_file = "view.schema.json"
    min_players = 1  # one player plays against Jean, the automa (jean.py)
    max_players = 4
    option_specs = (
        OptionSpec("scenario", "choice", "75", "scenario card without story: 75 easy, 76 medium, 77 hard",
                   choices=("75", "76", "77")),
        OptionSpec("rounds", "int", 4, "rounds to play (4 in the rulebook; fewer for a short game)", min=1, max=4),
        OptionSpec("difficulty", "int", 3, "solo only: Jean's difficulty, 1 very easy to 5 very hard", min=1, max=5,
                   solo_only=True),
        OptionSpec("jean_uprising", "bool", True, "solo only: Jean's deck may hold the Uprising cards B7U and C5U",
                   solo_only=True),
    )
    notation_help = (
        "One step per line, a whole turn in one mail: 'sail 5' (5 locations) or 'sail to 9', then "
        "'buy <card name>', 'deliver tobacco', 'quest', 'fight france', 'influence 2', 'annex 6', "
        "'explore 3' (to space 3), 'done'; free actions 'plan <card>' and 'career 2 upper'; draw with "
        "'draw pile' or 'draw 2 display'. Option codes work too."
    )

    def _setup(self, state: State, rng: Rng) -> None:
        n = len(state["players"])
        table = max(n, 2)  # solo is set up as a 2-player game (Jean's ship is the second)
        opts = state["options"]
        scen = C.SCENARIOS[str(opts["scenario"])]
        a_cards = list(C.A_CARDS)
        rng.shuffle(a_cards)
        b_cards = [*C.B_CARDS, *scen["cards"]]
        rng.shuffle(b_cards)
        dealt = [a_cards[i * 8:(i + 1) * 8] for i in range(n)]
        deck = a_cards[n * 8:] + b_cards[:40]
        rng.shuffle(deck)
        box = sorted(b_cards[40:])
        tokens = [t["id"] for t in C.TILES["combat"]]
        rng.shuffle(tokens)
        quests = [q["id"] for q in C.TILES["quests"]]
        rng.shuffle(quests)
        tiles_helm = [t["id"] for t in C.TILES["city_tiles"] if t["helm"] and table in t["players"]]
        tiles_other = [t["id"] for t in C.TILES["city_tiles"] if not t["helm"] and table in t["players"]]
        rng.shuffle(tiles_other)
        chosen = tiles_helm + tiles_other[:2]
        rng.shuffle(chosen)
        city_locs = [loc for loc in C.LOC_ORDER if C.LOC[loc].get("tile")]
        prestige = [b["id"] for b in C.TILES["prestige"]]
        rng.shuffle(prestige)
        careers = [c["id"] for c in C.TILES["careers"]]
        rng.shuffle(careers)
        state.update({
            "scenario": str(opts["scenario"]), "round": 1, "rounds": int(opts["rounds"]), "turn": 0, "turns": 0,
            "trigger": None, "deck": deck, "discard": [], "display": [], "box": box, "returned": [],
            "piles": [tokens[:13], tokens[13:]], "qpile": quests, "quests": {}, "tquests": {},
            "markers": {}, "supply": {nation: list(C.SUPPLY_SPACES) for nation in C.NATIONS},
            "tiles": dict(zip(city_locs, chosen, strict=True)),
            "prestige": [{"id": b, "up": i == 0, "investors": []} for i, b in enumerate(prestige[:4])],
            "pbox": sorted(prestige[4:]),
            "market": {loc: [] for loc in C.LOC_ORDER if "market" in C.LOC[loc]},
            "first": {"blue": False, "green": False}, "ended": 0, "over": False, "stack": [], "v": 0,
            "legacy": list(scen.get("legacy", [])),
        })
        for t in legacy(state, "marker"):
            take_marker(state, t["nation"])
            state["markers"][t["loc"]] = t["nation"]
        for space in C.QUEST_SPACES:
            state["tquests"][str(space)] = state["qpile"].pop(0)
        ev: list[Event] = []
        place_quests(state, ev)
        refill_display(state, rng, ev)
        if table == 2:
            for loc, nation in C.MAP["two_player_annexed"].items():
                take_marker(state, nation)
                state["markers"][loc] = nation
        state["p"] = [{
            "at": "H", "d": C.START_MONEY[i], "vp": 0, "cp": 1, "inc_d": C.INCOME_D_MIN, "inc_vp": 0,
            "inf": dict.fromkeys(C.NATIONS, 0), "hand": [], "plan": [], "display": [], "bought": [],
            "fig": 2, "figs": 2, "assist": [], "discs": {u["id"]: 2 for u in C.UPGRADES}, "areas": [],
            "tokens": 0, "quests": 0, "delivered": 0, "synergy": [], "gated": [], "explorer": 0,
            "careers": [{"id": careers[2 * i + k], "done": [None, None, None]} for k in range(2)],
            "setup": {"dealt": sorted(dealt[i]), "plan": None}, "src": {},
        } for i in range(n)]
        state["stack"] = [frame("setup", seats=range(n))]
        if n == 1:
            jean.setup(state, int(opts["difficulty"]), bool(opts["jean_uprising"]), rng)

    def _pending(self, state: State) -> list[int]:
        if state["over"]:
            return []
        return _pending_seats(state)

    #: (state object, its version, seat, options): the last options listed, which the next apply
    #: of that very state and seat takes instead of listing them again (and forgets)
    _ocache: tuple[Any, int, int, list[Option] | None] = (None, -1, -1, None)

    def _options(self, state: State, seat: int) -> list[Option]:
        # (DecisionStack.options, read from the state: the top frame's handler lists them)
        frames = state["stack"]
        top = frames[-1] if frames else None
        if top is None or seat not in (top["seats"] if "seats" in top else (top["seat"],)):
            opts: list[Option] = []
        else:
            handler = HANDLERS.get(top["kind"]) or stack(state).handler(top)  # (an unknown kind: its error)
            opts = handler.options(state, DecisionStack._for_seat(top, seat))
        self._ocache = (state, state["v"], seat, opts)
        return opts

    #: per frame kind, the safe code a missed deadline plays (docs/rules/maracaibo.md, Assumptions)
    DEFAULTS: ClassVar[dict[str, str]] = {"main": "pass", "free": "end", "village": "done", "combat": "cend",
                                          "tquest": "no", "yesno": "no", "u11": "money", "score": "vp2",
                                          "draw": "pile"}

    def _default_move(self, state: State, seat: int, options: list[Option]) -> Option | None:
        """The least committal choice: no main action, no more village actions, end the combat,
        leave a quest, keep the hand, 2 VP at scoring, draw from the pile; sail the shortest way;
        where something must be chosen (a disc, a nation, a space, the cards that pay), the first
        listed (the cheapest payment, the nearest space). Never a free action; in the setup choice,
        plan and keep the cards in the order dealt."""
        top = state["stack"][-1]
        kind = top["kind"]
        if kind == "setup":
            return options[0]
        real = [o for o in options if not _is_free(o.code)]
        by_code = {o.code: o for o in real}
        wanted = self.DEFAULTS.get(kind)
        if wanted in by_code:
            return by_code[wanted]
        return real[0] if real else None

    def _apply(self, state: State, seat: int, move: Move, rng: Rng) -> list[Event]:
        cached = self._ocache
        listed = cached[3] if cached[0] is state and cached[1] == state["v"] and cached[2] == seat else None
        self._ocache = (None, -1, -1, None)
        events = stack(state).choose(seat, move, rng, listed)
        state["v"] += 1
        for i, e in enumerate(events):
            if e.reveals:
                # what follows a reveal in the same move may depend on it: it commits too
                events[i + 1:] = [new_event(x.kind, x.text, x.data, x.to, True) for x in events[i + 1:]]
                break
        return events

    # ---- outcome ----------------------------------------------------------------------------

    #: the order the results table lists Maracaibo's sources of victory points in
    SOURCES = ("scoring", "nations", "careers", "explorer", "homeward", "income", "cards", "prestige")

    def score_breakdown(self, state: State) -> dict[int, dict[str, float]]:
        if not state["over"]:
            return {}
        out: dict[int, dict[str, float]] = {}
        for i, p in enumerate(state["p"]):
            src = p.get("src") or {}
            known = [k for k in self.SOURCES if k in src] + sorted(k for k in src if k not in self.SOURCES)
            parts = {k: float(src[k]) for k in known}
            rest = float(p["vp"]) - sum(parts.values())
            if rest:
                parts["other"] = rest
            out[i] = parts
        return out

    def _outcome(self, state: State) -> Outcome | None:
        if not state["over"]:
            return None
        if jean.playing(state):
            won, reason = jean.outcome_reason(state)
            return Outcome(scores={0: float(state["p"][0]["vp"])}, ranking=((0,),), reason=reason,
                           automa={jean.NAME: float(state["jean"]["vp"])}, seats_won=won)
        scores = {i: float(p["vp"]) for i, p in enumerate(state["p"])}
        # tie-break (an assumption): more doubloons, then shared
        keyed = sorted(range(len(scores)), key=lambda i: (-scores[i], -state["p"][i]["d"]))
        ranking: list[tuple[int, ...]] = []
        for i in keyed:
            if ranking and (scores[ranking[-1][0]], state["p"][ranking[-1][0]]["d"]) == (scores[i],
                                                                                          state["p"][i]["d"]):
                ranking[-1] = (*ranking[-1], i)
            else:
                ranking.append((i,))
        return Outcome(scores=scores, ranking=tuple(ranking), reason="final scoring")

    # ---- views ------------------------------------------------------------------------------

    #: (state object, its version "v", the public part of its views), swapped as one tuple. Only
    #: apply changes a state in play (and bumps "v"), so a cached part is never stale; code that
    #: edits a state by hand must bump "v" itself. Views share the public part: treat them as read-only.
    _vcache: tuple[Any, int, Any] = (None, -1, None)

    def _view(self, state: State, seat: int | None) -> View:
        cached = self._vcache
        if cached[0] is state and cached[1] == state["v"]:
            public = cached[2]
        else:
            public = self._public(state)
            self._vcache = (state, state["v"], public)
        view = dict(public)
        view["seat"] = seat
        if seat is not None:
            me = state["p"][seat]
            view["me"] = {"hand": list(me["hand"]),
                          "setup": _copy(me["setup"]) if me["setup"] else None}
        return view

    def _public(self, state: State) -> View:
        """What everybody sees, the same for every seat."""
        top = state["stack"][-1] if state["stack"] else None
        # Why a template: filling a copy of it (its keys already in order) costs less than a literal
        view: View = _PUBLIC_VIEW.copy()
        view["players"] = list(state["players"])
        view["options"] = dict(state["options"])
        view["round"] = state["round"]
        view["rounds"] = state["rounds"]
        view["turn"] = state["turn"]
        view["turns"] = state["turns"]
        view["trigger"] = state["trigger"]
        if top is not None:
            view["step"] = {"kind": top["kind"], "seat": top.get("seat"), "seats": top.get("seats")}
        view["deck"] = len(state["deck"])
        view["discard"] = list(state["discard"])
        view["display"] = list(state["display"])
        view["piles"] = list(map(len, state["piles"]))
        qpile = state["qpile"]
        view["quest_top"] = qpile[0] if qpile else None
        view["quest_pile"] = len(qpile)
        view["quests"] = dict(state["quests"])
        view["tquests"] = dict(state["tquests"])
        view["markers"] = dict(state["markers"])
        view["supply"] = dict(state["supply"])  # (the lists of the supply and the markets: replaced, shared)
        view["tiles"] = dict(state["tiles"])
        view["market"] = dict(state["market"])
        view["prestige"] = [{"id": b["id"] if b["up"] else None, "up": b["up"], "investors": b["investors"]}
                            for b in state["prestige"]]
        view["first"] = dict(state["first"])
        view["ended"] = state["ended"]
        view["over"] = state["over"]
        view["multiplier"] = multiplier(state)
        view["legacy"] = list(state.get("legacy", ()))
        if top is not None and top["kind"] in ("combat", "fight", "village", "explore", "disc", "nation"):
            view["step"]["data"] = _copy(top["data"])
        view["p"] = list(map(_public_player, state["p"]))
        if jean.playing(state):
            view["jean"] = jean.public(state)
        if state["over"]:
            out = self._outcome(state)
            assert out is not None
            view["outcome"] = out.as_dict()
        return view

    def resample_hidden(self, state: State, seat: int | None, rng: Rng) -> State:
        s = copy.deepcopy(state)
        n = len(s["players"])
        others = [o for o in range(n) if o != seat]
        # cards: the pile, the box, other players' hands and the cards they were dealt
        holders: list[tuple[list[int], int]] = [(s["deck"], len(s["deck"])), (s["box"], len(s["box"]))]
        for o in others:
            p = s["p"][o]
            holders.append((p["hand"], len(p["hand"])))
            if p["setup"]:
                holders.append((p["setup"]["dealt"], len(p["setup"]["dealt"])))
        if "returned" in s:
            holders.append((s["returned"], len(s["returned"])))
        pool = [c for lst, _ in holders for c in lst]
        # a planned card in setup is the planner's secret too
        for o in others:
            p = s["p"][o]
            if p["setup"] and p["setup"]["plan"] is not None:
                pool.append(p["setup"]["plan"])
        rng.shuffle(pool)
        for lst, k in holders:
            lst[:] = pool[:k]
            del pool[:k]
        for o in others:
            p = s["p"][o]
            if p["setup"] and p["setup"]["plan"] is not None:
                p["setup"]["plan"] = pool.pop()
        # combat tokens, face-down prestige buildings, the quest pile under its top
        tokens = s["piles"][0] + s["piles"][1]
        rng.shuffle(tokens)
        k = len(s["piles"][0])
        s["piles"] = [tokens[:k], tokens[k:]]
        down = [b for b in s["prestige"] if not b["up"]]
        ids = [b["id"] for b in down] + s["pbox"]
        rng.shuffle(ids)
        for b in down:
            b["id"] = ids.pop()
        s["pbox"] = sorted(ids)
        rest = s["qpile"][1:]
        rng.shuffle(rest)
        s["qpile"] = s["qpile"][:1] + rest
        if jean.playing(s):
            jean.resample(s, rng)
        return s

    # ---- notation ---------------------------------------------------------------------------
    # The shared layer (engine.notation) reads whole lines; notation.py gives it this game's words,
    # the texts that name each option and the reasons for a refusal.

    vocabulary = N.VOCABULARY

    def _vocabulary(self, state: State, seat: int) -> notation.Vocabulary:
        return N.vocabulary(super()._vocabulary(state, seat), state)

    def _readings(self, state: State, seat: int, option: Option) -> list[str]:
        return N.readings(state, seat, option)

    def _read_line(self, text: str, state: State, seat: int, options: list[Option]) -> notation.Reading:
        reading = super()._read_line(text, state, seat, options)
        N.check(text, reading, self._vocabulary(state, seat), options)
        return reading

    def _explain(self, state: State, seat: int, line: notation.Line, options: list[Option]) -> str | None:
        return N.explain(state, seat, line, options)

    def describe_move(self, state: State, seat: int, move: Move) -> str:
        for o in self.options(state, seat):
            if o.code == move.get("code"):
                return o.label
        raise IllegalMove(f"{move.get('code')} is not a legal choice now")

    # ---- bot and rendering ------------------------------------------------------------------

    def bot_choice(self, state: State, seat: int, options: list[Option], rnd: random.Random) -> Option:
        from .bot import choose

        return choose(state, seat, options, rnd)

    def _render_text(self, view: View) -> str:
        from .render import text

        return text(view)

    def _render_mail_text(self, view: View) -> str:
        # Why brief: with 4 players the whole text was 7-11 KB and the HTML part repeats it, so a
        # third of the turn mails had no room for their picture; the other players' careers and
        # cards in full are on the reader's game page.
        from .render import text

        return text(view, brief=True)

    def _render_svg(self, view: View) -> str:
        from .render import svg

        return svg(view)

    def _render_phone_svg(self, view: View) -> list[str]:
        from .render import phone_svgs

        return phone_svgs(view)

    def _render_mail_svg(self, view: View) -> str:
        # Why the map near the reader's ship: the whole board is 20 KB as PNG at a mail's width,
        # and its text part (7-9 KB, repeated in the HTML) leaves a mail 4-10 KB for the picture;
        # the map with the ships is what a reader looks at, the rest is in the mail's text.
        from .render import mail_svg

        return mail_svg(view)


RULES = Maracaibo()
