"""The Uprising's project cards' own actions (docs/rules/maracaibo-uprising.md, "Effect language: needed
extensions"): each a general reading of a card's data row by its ``"ext"`` name, never a branch on a
card's id. SUBSTITUTE CONTENT: the cards that carry them are this project's (``data/uprising/cards.json``).

- ``stops_collect`` (a permanent effect): each stop at one of the row's ``locs`` covers that space of the
  card with a disc from the ship board (the ``disc`` frame: it leaves a ship area as a delivery's does);
  all covered, the row's gain once (:func:`on_stop`, called by the sailing);
- ``last_pay_influence`` (a combat action): card_combat.py (combat.py reads its row);
- ``card_quests`` (a village action): the first ``n`` quests of the pile are put on the card when it is
  bought (:func:`on_buy`); the player's last village action of a turn may fulfil one of them (frame
  ``cardquest``), the other on another turn;
- ``return_marker`` (immediate): a marker removed from the game back to its nation's supply (the
  influence track's spaces), and the row's gain; with the Resistance Tiles the marker is one of the
  player's resistance tile (or the effect is ignored), with the Liberation it then leaves the game
  (frame ``retmarker``, Assumption A60);
- ``other_assistant`` (a village action or immediate): the row's ``pay`` for one of the player's assistant
  actions, wherever the assistant is (frame ``otherassist``);
- ``by_round`` (an assistant action): :func:`assistant_action` plays every assistant action, this one
  by the round (extensions.by_round);
- ``village_trade`` on a card (a village action): the home ports' trade (homeports.py), its cards chosen
  in the frame ``trade`` that names the card.

The words of each (``content.effect_text``) are registered below in ``content.EXT_TEXT``.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import extensions, homeports, resistance
from .board import HANDLERS, P, opt, stack
from .careers import with_free_actions
from .effects import gain, liberation, player, who
from .quests import can_pay_quest

#: the card village actions this module plays (the others are the base language's gains)
VILLAGE_EXTS = ("card_quests", "other_assistant", "village_trade")
#: the immediate effects this module plays (:func:`now`; cards.do_buy calls it for them)
NOW = ("return_marker", "other_assistant")


def card_effects(p: P, ext: str) -> list[tuple[int, dict[str, Any]]]:
    """(card id, effect) of each effect of extension ``ext`` in the player's display."""
    return [(cid, e) for cid in p["display"] for e in C.CARD[cid]["effects"] if e.get("ext") == ext]


# ---- stops_collect ---------------------------------------------------------------------------------

def on_stop(state: State, seat: int, loc: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    """``stops_collect``: the stop at ``loc`` covers the card's space with a ship disc; all covered, the gain."""
    p = player(state, seat)
    frames: list[Frame] = []
    for cid, e in card_effects(p, "stops_collect"):
        covered = list(p.get("stops", {}).get(str(cid), []))
        if loc not in e["locs"] or loc in covered:
            continue
        covered.append(loc)
        p["stops"] = {**p.get("stops", {}), str(cid): covered}  # (replaced: views share it)
        name = C.CARD[cid]["name"]
        ev.append(new_event("stops", f"{who(state, seat)} covers space {loc} of {name} with a disc of the ship "
                            f"({len(covered)} of {len(e['locs'])}).", {"seat": seat, "card": cid, "loc": loc}))
        frames.append(frame("disc", seat, n=1))  # (none left on the board: the space is covered all the same)
        if len(covered) == len(e["locs"]):
            frames += gain(state, seat, e["gain"], rng, ev, "cards")
    return frames


# ---- card_quests ------------------------------------------------------------------------------------

def on_buy(state: State, seat: int, cid: int, ev: list[Event]) -> None:
    """``card_quests``: the first quests of the pile onto the card just bought (public, face up)."""
    p = player(state, seat)
    for e in C.CARD[cid]["effects"]:
        if e.get("ext") != "card_quests":
            continue
        took = state["quest_pile"][:int(e["n"])]
        if not took:
            continue
        state["quest_pile"] = state["quest_pile"][len(took):]
        p["cquests"] = {**p.get("cquests", {}), str(cid): took}
        ev.append(new_event("cquests", f"{who(state, seat)} puts quests {' and '.join(took)} on "
                            f"{C.CARD[cid]['name']}.", {"seat": seat, "card": cid, "quests": took},
                            reveals=True))  # (the second was face down in the pile)
        if state["quest_pile"]:
            ev.append(new_event("quest_top", f"The next quest of the pile is {state['quest_pile'][0]}.",
                                {"quest": state["quest_pile"][0]}, reveals=True))


def _card_quests_ready(p: P, cid: int) -> list[str]:
    return [q for q in p.get("cquests", {}).get(str(cid), []) if can_pay_quest(p, q)]


def ends_village(state: State, seat: int, code: str) -> bool:
    """The village action ``code`` is the last of the turn (``card_quests``: "como sua última ação de vila")."""
    if not code.startswith("v") or not code[1:].isdigit():
        return False
    return any(e.get("ext") == "card_quests" for e in C.CARD[int(code[1:])]["effects"])


def _cardquest_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    return [opt(f"q{q}", f"fulfil quest {q} from {C.CARD[f['data']['card']]['name']}: pay "
                f"{C.cost_text(C.QUEST[q]['cost'])}") for q in _card_quests_ready(p, int(f["data"]["card"]))]


def _cardquest_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    q = o.code[1:]
    key = str(f["data"]["card"])
    left = [x for x in p["cquests"][key] if x != q]
    p["cquests"] = {**p["cquests"], key: left}
    stack(state).push(frame("pay", seat, what="quest", quest=q))
    return []


# ---- return_marker ------------------------------------------------------------------------------------

def out_of_game(state: State, nation: str) -> int:
    """The nation's markers removed from the game: neither in its supply, nor on the map, nor on a
    resistance tile (coop.py's stacks under the map's markers are on the map too)."""
    total = sum(C.SUPPLY_SPACES)
    supply = sum(state["supply"][nation])
    on_map = sum(1 for n in state["markers"].values() if n == nation)
    on_map += sum(int(k) for loc, k in state.get("garrison", {}).items() if state["markers"].get(loc) == nation)
    on_tiles = sum(1 for o in state["seats"] for n in o.get("resist", ()) if n == nation)
    return int(max(0, total - supply - on_map - on_tiles))


def return_to_supply(state: State, nation: str) -> None:
    """A marker back to the nation's supply: on the last space emptied (take_marker empties them in order)."""
    spaces = list(state["supply"][nation])
    emptied = [k for k, left in enumerate(spaces) if left < C.SUPPLY_SPACES[k]]
    if not emptied:  # (never in play: a marker out of the supply left a space)
        return
    spaces[emptied[-1]] += 1
    state["supply"][nation] = spaces  # (replaced: views share it)


def now(state: State, seat: int, e: dict[str, Any], rng: Rng, ev: list[Event], source: str) -> list[Frame]:
    """The immediate effects of this module: ``return_marker``, ``other_assistant``."""
    p = player(state, seat)
    if e["ext"] == "return_marker":
        if not _return_options(state, seat, e):
            return []
        return [frame("retmarker", seat, gain=dict(e["gain"]), source=source, ask=True)]
    if e["ext"] == "other_assistant":
        if not _other_assistant_ready(state, p, e):
            return []
        return [frame("otherassist", seat, pay=dict(e["pay"]), ask=True)]
    raise KeyError(f"no immediate effect of card_actions reads the extension {e['ext']!r}")


def _return_options(state: State, seat: int, e: dict[str, Any]) -> list[Option]:
    p = player(state, seat)
    got = C.gain_text(e["gain"])
    if resistance.playing(p):  # the marker is one of the tile's
        where = "out of the game" if liberation(state) else "to its supply"
        return [opt(f"r{i + 1}", f"return the {str(n).title()} marker of resistance space {i + 1} {where}: {got}")
                for i, n in enumerate(p["resist"]) if n]
    return [opt("n" + n[0], f"return a {n.title()} marker removed from the game to its supply: {got}")
            for n in C.NATIONS if out_of_game(state, n)]


def _retmarker_options(state: State, f: Frame) -> list[Option]:
    found = _return_options(state, f["seat"], {"gain": f["data"]["gain"]})
    return [*found, opt("r0", "ignore the effect: no marker back, no gain")] if found else []


def _retmarker_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "r0":
        return ev
    p = player(state, seat)
    if o.code.startswith("r"):
        i = int(o.code[1:]) - 1
        nation = str(p["resist"][i])
        p["resist"] = [None if k == i else n for k, n in enumerate(p["resist"])]
        if liberation(state):
            text = f"removes the {nation.title()} marker of resistance space {i + 1} from the game"
        else:
            return_to_supply(state, nation)
            text = f"returns the {nation.title()} marker of resistance space {i + 1} to its supply"
    else:
        nation = next(n for n in C.NATIONS if n[0] == o.code[1])
        return_to_supply(state, nation)
        text = f"returns a {nation.title()} marker to its supply"
    ev.append(new_event("retmarker", f"{who(state, seat)} {text}.", {"seat": seat, "nation": nation}))
    stack(state).push_all(gain(state, seat, f["data"]["gain"], rng, ev, f["data"]["source"]))
    return ev


# ---- other_assistant, by_round: the assistant actions --------------------------------------------

def _assistants(p: P) -> list[int]:
    """The cards of the player's assistants on the board, once each, in the order they were placed."""
    seen: list[int] = []
    for a in p["assist"]:
        if a["card"] not in seen:
            seen.append(int(a["card"]))
    return seen


def _other_assistant_ready(state: State, p: P, e: dict[str, Any]) -> bool:
    """``other_assistant`` may be paid now: an assistant on the board, the price, and not yet this turn
    (Assumption A62: an assistant action giving a village action would else buy the same action again)."""
    return bool(_assistants(p)) and p["doubloons"] >= int(e["pay"].get("d", 0)) and p.get("oa_turn") != state["turns"]


def assistant_effect(cid: int) -> dict[str, Any]:
    return next(e for e in C.CARD[cid]["effects"] if e["t"] == "assistant")


def assistant_text(state: State, cid: int) -> str:
    """What the card's assistant action gives now (``by_round``: this round's)."""
    e = assistant_effect(cid)
    g = dict(extensions.round_gain(state, e)) if e.get("ext") == "by_round" else dict(e["gain"])
    village = int(g.pop("village", 0))
    words = C.gain_text(g)
    return words + (f", {village} village action{'s' if village != 1 else ''}" if village else "")


def assistant_action(state: State, seat: int, cid: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The card's assistant action (the main action's, or ``other_assistant``'s)."""
    e = assistant_effect(cid)
    ev.append(new_event("assistant", f"{who(state, seat)} uses the assistant of {C.CARD[cid]['name']}.",
                        {"seat": seat}))
    if e.get("ext") == "by_round":
        return extensions.by_round(state, seat, e, rng, ev)
    return gain(state, seat, e["gain"], rng, ev, "cards")


def _otherassist_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    pay = C.gain_text(f["data"]["pay"])
    out = [opt(f"a{cid}", f"pay {pay} to use the assistant action of {C.CARD[cid]['name']}: "
               f"{assistant_text(state, cid)}") for cid in _assistants(p)]
    return [*out, opt("a0", "no assistant action")] if out else []


def _otherassist_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    cid = int(o.code[1:])
    if not cid:
        return ev
    p = player(state, seat)
    d = int(f["data"]["pay"].get("d", 0))
    p["doubloons"] -= d
    p["oa_turn"] = state["turns"]
    ev.append(new_event("pay", f"{who(state, seat)} pays {C.counted(d, 'doubloon')}.", {"seat": seat}))
    stack(state).push_all(assistant_action(state, seat, cid, rng, ev))
    return ev


# ---- the card village actions of this module ---------------------------------------------------

def village_label(state: State, seat: int, cid: int, e: dict[str, Any]) -> str | None:
    """The option's words for the card's village action ``e``, or None when it cannot be taken now."""
    p = player(state, seat)
    name = C.CARD[cid]["name"]
    ext = e["ext"]
    if ext == "card_quests":
        ready = _card_quests_ready(p, cid)
        return f"village action of {name}, the last: fulfil quest {' or '.join(ready)}" if ready else None
    if ext == "other_assistant":
        if not _other_assistant_ready(state, p, e):
            return None
        return f"village action of {name}: pay {C.gain_text(e['pay'])} for one of your assistant actions"
    if ext == "village_trade":
        if not homeports.trade_ways(p, e["pay"]):
            return None
        return f"village action of {name}: pay {homeports.trade_words(e['pay'])} for {C.gain_text(e['gain'])}"
    return None


def do_village(state: State, seat: int, cid: int, e: dict[str, Any], rng: Rng, ev: list[Event]) -> list[Frame]:
    """The card's village action ``e`` of this module."""
    ev.append(new_event("village_use", f"{who(state, seat)} uses {C.CARD[cid]['name']}'s village action.",
                        {"seat": seat, "card": cid}))
    ext = e["ext"]
    if ext == "card_quests":
        return [frame("cardquest", seat, card=cid)]
    if ext == "other_assistant":
        return now(state, seat, e, rng, ev, "cards")
    return homeports.do_trade(state, seat, e, rng, ev, card=cid)


# ---- Own Monument's scoring is extensions.end_per_rank; words of this module's extensions ----------

def _stops_text(e: dict[str, Any]) -> str:
    return (f"each stop at {', '.join(e['locs'])} covers its space with a ship disc; all three: "
            f"{C.gain_text(e['gain'])}")


C.EXT_TEXT.update({
    "stops_collect": _stops_text,
    "card_quests": lambda e: f"the first {e['n']} quests of the pile onto this card; new village action, the "
                             "last: fulfil one of them",
    "return_marker": lambda e: "now: a marker removed from the game (with the resistance tiles: one of "
                               f"your tile's) back to its supply, and {C.gain_text(e['gain'])}",
    "other_assistant": lambda e: f"new village action: pay {C.gain_text(e['pay'])} for one of your assistant "
                                 "actions",
    "by_round": lambda e: "assistant action by the round: " + "; ".join(
        f"{r}: {C.gain_text({k: v for k, v in g.items() if k != 'village'})}"
        + (f", {g['village']} village action" if g.get("village") else "") for r, g in sorted(e["rounds"].items())),
    "village_trade": lambda e: f"new village action: pay {homeports.trade_words(e['pay'])} for "
                               f"{C.gain_text(e['gain'])}",
})

HANDLERS["cardquest"] = with_free_actions(FunctionHandler(_cardquest_options, _cardquest_resolve))
HANDLERS["retmarker"] = with_free_actions(FunctionHandler(_retmarker_options, _retmarker_resolve))
HANDLERS["otherassist"] = with_free_actions(FunctionHandler(_otherassist_options, _otherassist_resolve))
