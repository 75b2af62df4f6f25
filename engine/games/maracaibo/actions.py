"""Phase B, the main action (rulebook: "B. Main action"): at a village, the village
actions (buy, invest, take 1 doubloon, the cards' and ship's own); at a city, the delivery and the
city action; at a home port, a combat or exploring; a quest; an assistant. Frames ``main``,
``village``, ``city``, ``yesno``, ``nation``, ``pay`` and ``three``.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from engine import i18n
from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import campaign, card_actions, citytiles, homeports, legacyboard, resistance
from . import content as C
from .board import HANDLERS, P, city_action, city_action_text, first_two, has_marker, loc_kind, opt, stack, take_marker
from .card_permanents import note_village
from .cards import buy_options_in_order, do_buy, do_invest
from .careers import do_free, free_options, free_options_in_order, with_free_actions
from .effects import (
    cheapest,
    compass,
    discard_paid,
    gain,
    gain_influence,
    given_up,
    good_cards,
    liberation,
    perm,
    player,
    said,
    who,
    wild_cards,
    wild_sugar,
)
from .quests import can_pay_quest, do_quest, pay_label, quest_payments
from .sailing import village_count
from .ship import disc_areas

#: the msgid games stored before the reward was counted by its number ("1 doubloons", #27)
_OLD_DELIVER = i18n.correct("{player} delivers {good} to {place} (discarding {card}): {reward} doubloons.",
                            "{player} delivers {good} to {place} (discarding {card}): {reward} "
                            "{reward|doubloon|doubloons}.")


def special_village_actions(state: State, seat: int, used: list[str]) -> list[Option]:
    return list(_special_village_actions_in_order(state, seat, used, ""))


#: card id -> the labels of its village actions in the base language (static data, worked out once; most
#: cards have none)
_CARD_VILLAGE: dict[int, list[str]] = {
    cid: [f"village action of {c['name']}: {C.gain_text(e['gain'])}" for e in c["effects"]
          if e["t"] == "village" and "ext" not in e]
    for cid, c in C.CARD.items() if any(e["t"] == "village" and "ext" not in e for e in c["effects"])
}
#: card id -> its village actions of an extension (the Uprising's: card_actions.py words them as they stand)
_CARD_VILLAGE_EXT: dict[int, list[dict[str, object]]] = {
    cid: [e for e in c["effects"] if e["t"] == "village" and "ext" in e]
    for cid, c in C.CARD.items() if any(e["t"] == "village" and "ext" in e for e in c["effects"])
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
        exts = _CARD_VILLAGE_EXT.get(cid)
        if exts and f"v{cid}" not in used:
            for e in exts:
                said = card_actions.village_label(state, seat, cid, e)
                if said:
                    yield opt(f"v{cid}", said + suffix)
    areas = p["areas"]
    for uid, key, label in _UPGRADE_VILLAGE:
        if uid not in areas or f"v{uid}" in used:
            continue
        if key == "three_goods" and not any(len(three_cards(p, g)) >= 3 for g in C.GOODS):
            continue
        if key == "place_marker" and (loc_kind(state, p["at"]) != "village" or p["at"] in state["markers"]
                                      or not any(has_marker(state, n) for n in C.NATIONS)
                                      or liberation(state)):  # (the Liberation ignores it, A16)
            continue
        yield opt(f"v{uid}", label + suffix)
    if "port" in p:  # the Uprising's home ports (Bremen, Oranjestad): repeatable, so never "used"
        yield from homeports.village_options(state, seat, suffix)
    if "resist" in p and "vR" not in used:  # the Uprising's resistance tile
        yield from resistance.village_options(state, seat, suffix)


def village_options(state: State, seat: int, used: list[str]) -> list[Option]:
    return list(_village_options_in_order(state, seat, used, ""))


def _village_options_in_order(state: State, seat: int, used: list[str], suffix: str) -> Iterator[Option]:
    """The village actions one at a time, each label ending in ``suffix``."""
    yield from buy_options_in_order(state, seat, suffix)
    yield opt("vd", "village action: take 1 doubloon" + suffix)
    yield from _special_village_actions_in_order(state, seat, used, suffix)
    if "story" in state:  # the campaign's disc tile in this village
        yield from campaign.village_options(state, seat, suffix)


def do_village(state: State, seat: int, code: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    note_village(p, code)  # (the Uprising's village_variety counts the different ones)
    if code.startswith("b"):
        return do_buy(state, seat, int(code[1:]), rng, ev)
    if code.startswith("i"):
        do_invest(state, seat, code[1:], ev)
        return []
    if code == "vd":
        return gain(state, seat, {"d": 1}, rng, ev, "village")
    if code.startswith("w"):
        return campaign.do_build(state, seat, code, rng, ev)
    key = code[1:]
    if key == "H":
        return homeports.do_village(state, seat, rng, ev)
    if key == "R":
        return resistance.do_village(state, seat, ev)
    # the story names whose action it was ("uses Bold Merchant's village action"), then what it gave
    if key.isdigit():
        e = next(e for e in C.CARD[int(key)]["effects"] if e["t"] == "village")
        if "ext" in e:  # the Uprising's card village actions
            return card_actions.do_village(state, seat, int(key), e, rng, ev)
        ev.append(new_event("village_use", f"{who(state, seat)} uses {C.CARD[int(key)]['name']}'s village action.",
                            {"seat": seat, "card": int(key)}))
        return gain(state, seat, e["gain"], rng, ev, "cards")
    ev.append(new_event("village_use", f"{who(state, seat)} uses the village action of ship area {key}.",
                        {"seat": seat, "area": key}))
    action = C.UPGRADE[key]["village"]
    if action == "cp_d":
        return gain(state, seat, {"cp": 1, "d": 1}, rng, ev, "upgrades")
    if action == "assist_pay":
        mine = sum(1 for a in p["assist"] if a["loc"] == p["at"])
        others = sum(1 for o in state["seats"] if o is not p for a in o["assist"] if a["loc"] == p["at"])
        return gain(state, seat, {"d": 3 * mine + others}, rng, ev, "upgrades")
    if action == "three_goods":  # which good: the player's choice (a frame; forced when one good qualifies)
        return [frame("three", seat)]
    # place_marker: a nation's marker in this empty village
    return [frame("nation", seat, n=1, place=p["at"], d=1)]


def three_cards(p: P, good: str) -> list[int]:
    """The hand cards paying ``good`` (U9's village action discards three of them; sugar cards too with
    the extension ``wild_sugar``)."""
    return good_cards(p, good)


def discard_three(state: State, seat: int, cards: list[int], rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    discard_paid(state, p, cards)  # (a wild card of the display too)
    ev.append(new_event("discard", f"{who(state, seat)} discards three {C.CARD[cards[0]]['good']} ("
                        + ", ".join(C.CARD[c]["name"] for c in cards) + ").", {"seat": seat, "cards": cards}))
    return gain(state, seat, {"d": 2, "vp": 2}, rng, ev, "upgrades")


def _main_options(state: State, f: Frame) -> list[Option]:
    return _main_real(state, f) + free_options(state, f["seat"])


def _main_settle(state: State, f: Frame) -> list[Option]:
    return first_two(itertools.chain(_main_real_in_order(state, f), free_options_in_order(state, f["seat"])))


def _main_real(state: State, f: Frame) -> list[Option]:
    """The main actions (without the free actions)."""
    return list(_main_real_in_order(state, f))


def _main_real_in_order(state: State, f: Frame) -> Iterator[Option]:
    seat = f["seat"]
    p = player(state, seat)
    loc = p["at"]
    kind = loc_kind(state, loc)
    if kind == "village":
        n = village_count(p, f["data"]["spent"]) + homeports.main_village_plus(p)
        yield from _village_options_in_order(state, seat, [], f" (1 of {C.counted(n, 'village action')})")
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
            if wild_sugar(p) and any(C.CARD[c]["good"] == "sugar" for c in p["hand"]):  # Cayman Islands
                for g in m["goods"]:
                    if g not in seen:
                        seen.add(g)
                        yield opt(f"d{g}", f"deliver {g} ({m['rewards'][len(market)]} d) with a sugar card, "
                                  "then the city action")
            wild = wild_cards(p)  # the Uprising's wild_card: the display card delivers as any good
            if wild:
                for g in m["goods"]:
                    if g not in seen:
                        seen.add(g)
                        yield opt(f"d{g}", f"deliver {g} ({m['rewards'][len(market)]} d) with "
                                  f"{C.CARD[wild[0]]['name']} from the display, then the city action")
        if "port" in p:  # the Uprising's home ports (Antwerp): a disc off the market instead of delivering
            yield from homeports.city_options(state, seat, loc)
        action = city_action(state, loc)
        if action != "top_quest" or (state["quest_pile"] and can_pay_quest(p, state["quest_pile"][0])):
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
            code = f"a{a['card']}"
            if code not in assistants:
                assistants.add(code)
                yield opt(code, f"assistant action of {C.CARD[a['card']]['name']}: "
                          f"{card_actions.assistant_text(state, a['card'])}")
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
        ev.append(said("pass", i18n.text("{player} takes no main action.", player=who(state, seat)), {"seat": seat}))
    elif code == "quest":
        frames = [frame("pay", seat, what="quest", quest=state["quests"].pop(loc))]
    elif code.startswith("a") and code[1:].isdigit():
        frames = card_actions.assistant_action(state, seat, int(code[1:]), rng, ev)
    elif code == "hfight":
        frames = [frame("pile", seat)]
    elif code == "hexplore":
        frames = [frame("explore", seat, n=2)]
    elif code.startswith("d") and code[1:] in C.GOODS:
        frames = [frame("pay", seat, what="deliver", good=code[1:]), frame("disc", seat, n=1), frame("city", seat)]
    elif code == "city":
        frames = [frame("city", seat)]
    elif code == "dH":
        frames = [*homeports.do_market_take(state, seat, rng, ev), frame("city", seat)]
    else:
        n = village_count(p, f["data"]["spent"]) + homeports.main_village_plus(p)
        frames = do_village(state, seat, code, rng, ev)
        if n > 1 and not card_actions.ends_village(state, seat, code):
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
    if left > 0 and not card_actions.ends_village(state, seat, o.code):
        used = [*f["data"]["used"], *([o.code] if o.code.startswith("v") else [])]
        frames.append(frame("village", seat, left=left, used=used))
    stack(state).push_all(frames)
    return ev


def _city_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    loc = f["data"].get("loc", p["at"])  # (the Uprising's city tile C16: another city's action)
    pile = state["quest_pile"]
    if city_action(state, loc) == "top_quest" and not (pile and can_pay_quest(p, pile[0])):
        return []  # after a delivery the top quest may no longer be payable: nothing to do
    return [opt("go", f"city action: {city_action_text(state, loc)}")]


def _city_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    loc = f["data"].get("loc", p["at"])
    action = city_action(state, loc)
    ev: list[Event] = [new_event("city", f"{who(state, seat)} takes the city action: "
                                 f"{city_action_text(state, loc, told=True)}.",
                                 {"seat": seat})]
    frames: list[Frame] = []
    if action in citytiles.ACTIONS:  # the Uprising's new city tiles
        frames = citytiles.do_action(state, seat, state["tiles"][loc], rng, ev)
    elif action == "gain":
        frames = gain(state, seat, C.LOC[loc]["gain"], rng, ev, "city")
    elif action == "top_quest":
        q = state["quest_pile"].pop(0)
        frames = [frame("pay", seat, what="quest", quest=q)]
        if state["quest_pile"]:
            ev.append(new_event("quest_top", f"The next quest of the pile is {state['quest_pile'][0]}.",
                                {"quest": state["quest_pile"][0]}, reveals=True))
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
        if p["combat_points"] >= 2:
            frames = [frame("yesno", seat, what="pay_cp", ask=True)]
    elif action == "new_city":  # the Uprising's L30
        frames = gain(state, seat, legacyboard.city_gain(p), rng, ev, "city")
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
                            + ", ".join(C.CARD[c]["name"] for c in p["hand"]) + ").", {"seat": seat},
                            reveals=True))  # (the hidden hand shown: a commit point)
        p["hand"] = []
        frames = gain(state, seat, {"d": 4}, rng, ev, "city")
    elif what == "assistants":
        n = len(p["assist"])
        frames = gain(state, seat, {"d": 4 * n} if o.code == "yes" else {"vp": 2 * n}, rng, ev, "city")
    elif what == "pay_cp" and o.code == "yes":
        p["combat_points"] -= 2
        frames = [*gain(state, seat, {"d": 6}, rng, ev, "city"), frame("nation", seat, n=1)]
    stack(state).push_all(frames)
    return ev


def _nation_options(state: State, f: Frame) -> list[Option]:
    d = f["data"]
    if "place" in d:
        return [opt("n" + n[0], f"{n.title()}: marker in {d['place']}, 1 influence, 1 doubloon")
                for n in C.NATIONS if has_marker(state, n)]
    among = d.get("among", C.NATIONS)
    gone = given_up(state, f["seat"])  # (the Uprising's new city: that nation's marker is gone for good)
    return [opt("n" + n[0], f"{d['n']} influence with {n.title()}") for n in among if n != gone or len(among) == 1]


def _nation_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    d = f["data"]
    ev: list[Event] = []
    if "place" in d:
        take_marker(state, nation)
        state["markers"][d["place"]] = nation
        ev.append(new_event("annex", f"{who(state, seat)} places a {nation.title()} marker in {d['place']}.",
                            {"seat": seat, "loc": d["place"], "nation": nation}))
        player(state, seat)["doubloons"] += d.get("d", 0)
    gain_influence(state, seat, nation, d["n"], ev)
    return ev


def deliver(state: State, seat: int, cid: int, ev: list[Event], good: str | None = None,
            loc: str | None = None) -> None:
    """Discard ``cid`` and put a disc on the market of the ship's city (``loc``: another's, the Uprising's
    city tile C16) for its doubloons (``good``: what the card is delivered as, a sugar card's other good
    with ``wild_sugar``)."""
    p = player(state, seat)
    loc = loc or p["at"]
    good = good or C.CARD[cid]["good"]
    discard_paid(state, p, [cid])  # (a wild card of the display too)
    market = state["market"][loc]
    reward = C.LOC[loc]["market"]["rewards"][len(market)] + perm(p, "deliver_d")
    state["market"][loc] = [*market, seat]  # (replaced: views share it)
    p["doubloons"] += reward
    p["delivered"] += 1
    ev.append(said("deliver", i18n.text("{player} delivers {good} to {place} (discarding {card}): {reward} "
                                        "{reward|doubloon|doubloons}.",
                                        player=who(state, seat), good=i18n.word(good),
                                        place=i18n.word(C.LOC[loc]["name"]), card=i18n.word(C.CARD[cid]["name"]),
                                        reward=reward),
                   {"seat": seat, "card": cid}))


def _pay_options(state: State, f: Frame) -> list[Option]:
    """Which hand cards pay a quest or a delivery; a frame with one way to pay resolves itself."""
    p = player(state, f["seat"])
    d = f["data"]
    if d["what"] == "deliver":
        cards = cheapest(p, good_cards(p, d["good"]))
        return [opt(f"y{c}", f"deliver {d['good']} with {pay_label([c], wild_cards(p))}") for c in cards]
    if d["what"] == "three":  # U9 with four or more cards of the good: which three are discarded
        mine = cheapest(p, three_cards(p, d["good"]))
        return [opt("y" + "-".join(map(str, sorted(cs))), f"discard {pay_label(list(cs), wild_cards(p))}; keep "
                    + ", ".join(C.CARD[c]["name"] for c in mine if c not in cs))
                for cs in itertools.combinations(mine, 3)]
    ways = quest_payments(p, C.QUEST[d["quest"]]["cost"])
    if ways == [[]]:
        return [opt("ypay", f"pay {C.cost_text(C.QUEST[d['quest']]['cost'])}")]
    return [opt("y" + "-".join(map(str, cs)), f"pay quest {d['quest']} with {pay_label(cs, wild_cards(p))}")
            for cs in ways]


def _pay_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    d = f["data"]
    cards = [int(c) for c in o.code[1:].split("-")] if o.code != "ypay" else []
    if d["what"] == "deliver":
        deliver(state, seat, cards[0], ev, d["good"], d.get("loc"))
        stack(state).push_all(homeports.after_delivery(state, seat, d["good"]))  # Porto
        return ev
    if d["what"] == "three":
        stack(state).push_all(discard_three(state, seat, cards, rng, ev))
        return ev
    stack(state).push_all(do_quest(state, seat, d["quest"], rng, ev, cards))
    return ev


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


def _three_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    g = o.code[1:]
    cards = three_cards(player(state, seat), g)
    ev: list[Event] = []
    if len(cards) > 3:  # which three of them: the `pay` frame asks
        stack(state).push(frame("pay", seat, what="three", good=g))
        return ev
    stack(state).push_all(discard_three(state, seat, cards, rng, ev))
    return ev


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["main"] = FunctionHandler(_main_options, _main_resolve, _main_settle)
HANDLERS["village"] = with_free_actions(FunctionHandler(_village_options, _village_resolve, _village_settle))
HANDLERS["city"] = with_free_actions(FunctionHandler(_city_options, _city_resolve))
HANDLERS["yesno"] = with_free_actions(FunctionHandler(_yesno_options, _yesno_resolve))
HANDLERS["nation"] = with_free_actions(FunctionHandler(_nation_options, _nation_resolve))
HANDLERS["pay"] = FunctionHandler(_pay_options, _pay_resolve)
HANDLERS["three"] = FunctionHandler(_three_options, _three_resolve)
