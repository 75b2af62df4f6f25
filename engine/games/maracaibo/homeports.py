"""Maracaibo: The Uprising, the game mode, the new ship boards and the Home Ports module
(rulebook: "Alterações na configuração do jogo", "Portos de Origem"; docs/rules/maracaibo-uprising.md).

SUBSTITUTE CONTENT: the ports' bonuses and numbers are this project's (``data/uprising/``).

One option, ``mode``, picks the game: ``base`` (the base game, nothing of this module runs and no
random draw is added), ``basic`` (the basic game on the new boards, the home port face down),
``78`` or ``79`` (the scenarios; their modules follow from the mode, :func:`modules`).

The state this module adds, only when the mode is not ``base`` (every read of it is here):

- ``p["board"]``: ``"uprising"``, the new ship board: its resistance tile's slot is the ship area
  ``UR`` (two discs; its front side: 5 doubloons when completed), its home port the area ``UH``
  (two discs once the port is kept), and its indicated upgrade ``U4`` gives a compass and
  3 doubloons instead of the base board's 5 doubloons;
- ``p["port"]``: the home port kept (public once every player has chosen), or None;
- ``p["setup"]["ports"]``: while choosing, the ports dealt and not yet kept (hidden);
- ``state["ports_kept"]``: seat -> the port kept, hidden until every player has chosen;
- ``state["ports_box"]``: the ports out of the game, never seen (hidden).

A home port is unlocked like any ship upgrade (its two discs); its immediate bonus is then offered
once (frame ``portbonus``: pay, or decline and lose it) and its ongoing effect counts from then on
(Assumption A6). Every port's effect is a row of ``data/uprising/ports.json`` read by the name of
its extension (effects.ext_effects): Grand Turk, Port of Spain, Roseau (``stop_marker``), Bremen and
Oranjestad (``village_trade``, the cards paid chosen in frame ``trade``), Genova
(``income_influence``), Kingstown, Port-au-Prince, Yaquimel (``combat_nation``, a row of combat.py),
Nassau (``village_plus_main``), Antwerp (``market_take``), Porto (``deliver_again_cp``, frame
``again``), Cayman Islands (``wild_sugar``, effects.pays_as), Panamá (``explore_second_last``) and
Roatán (``second_explorer``, its figure placed here, its moves in exploring.py).
"""

from __future__ import annotations

from typing import Any

from engine import i18n
from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import resistance
from . import uprising_content as U
from .board import HANDLERS, P, markers_on_board, opt, stack
from .effects import add_vp, discard_paid, ext_effects, gain, gain_influence, good_cards, player, said, who, wild_cards

MODES = ("base", "basic", "78", "79")
#: the help of the ``mode`` option (what each mode plays today, said plainly)
MODE_HELP = ("game mode: base (the base game), basic (the basic game on the Uprising's new ship boards, "
             "home port face down), 78 (All Included: Home Ports, Resistance Tiles, Uprising) or 79 (Unrest: Home "
             "Ports, Resistance Tiles, Liberation, the scenario's markers); each scenario with its card's legacy "
             "tiles, cards and quests")

#: the new board's slots as ship areas: the resistance tile and the home port
RESISTANCE_AREA, PORT_AREA = "UR", "UH"
#: the base board's area that the new board's indicated upgrade replaces (compass and doubloons)
INDICATED = str(U.BOARDS["compass_upgrade"]["replaces"])
_INDICATED_GAIN: dict[str, int] = next(e["gain"] for e in U.BOARDS["compass_upgrade"]["effects"] if e["t"] == "now")
_RESISTANCE_FRONT: dict[str, int] = U.BOARDS["resistance"]["front"]["unlock"][0]["gain"]
_DISCS = int(U.BOARDS["discs_per_slot"])
#: VP per influence a home port would give, with the Liberation module
_LIBERATION_VP = int(U.MODULES["liberation"]["influence_vp"])
_HP = U.MODULES["home_ports"]


def mode(state: State) -> str:
    """The game mode (a state saved before the option existed is a base game)."""
    return str(state["options"].get("mode", "base"))


def modules(state: State) -> list[str]:
    """The expansion's modules the mode plays (the rulebook: they follow from the mode)."""
    m = mode(state)
    if m in ("campaign", "campaign_base"):  # a campaign: the Home Ports and what its story added (campaign.py)
        return ["home_ports", *state.get("story", {}).get("modules", ())]
    return [] if m == "base" else list(U.MODES[m]["modules"])


def new_board(p: P) -> bool:
    return "board" in p


def port_of(p: P) -> dict[str, Any] | None:
    """The player's home port, once every player has chosen (face down in the basic game: None)."""
    pid = p.get("port")
    return U.PORT[pid] if pid else None


def unlocked_port(p: P) -> dict[str, Any] | None:
    """The player's home port once unlocked (its ongoing effect counts from then on, A6)."""
    return port_of(p) if PORT_AREA in p["areas"] else None


def area_text(p: P, uid: str) -> str:
    """A ship area's words on this player's board."""
    if uid == RESISTANCE_AREA:
        return "resistance tile: " + str(U.BOARDS["resistance"]["back" if resistance.playing(p) else "front"]["text"])
    if uid == PORT_AREA:
        hp = port_of(p)
        return f"home port {hp['name']}: {port_text(hp, p.get('combat_tile') == 'liberation')}" if hp else "home port"
    if uid == INDICATED and new_board(p):
        return str(U.BOARDS["compass_upgrade"]["text"])
    if p.get("combat_tile") == "liberation" and uid == U.BOARDS["combat_tile"]["base"]["upgrade"]:
        return "combat action tile, U side: once a turn in combat one more liberation, a city (value 3) or a " \
            "village (value 2)"  # (the Liberation module, liberation.py)
    return str(C.UPGRADE[uid]["text"])


def extra_areas(p: P) -> list[str]:
    """The new board's slots that still hold discs (in the board's order)."""
    discs = p["discs"]
    return [uid for uid in (RESISTANCE_AREA, PORT_AREA) if discs.get(uid, 0) > 0]


def compass_bonus(p: P) -> int:
    """The indicated upgrade's compass, once completed on the new board."""
    return 1 if "board" in p and INDICATED in p["areas"] else 0


# ---- setup ----------------------------------------------------------------------------------

def set_boards(state: State, rng: Rng) -> None:
    """The new ship boards, and (Home Ports) three ports dealt to each player. Only for a mode
    other than ``base`` (the base game draws nothing more from the rng). A port whose row says a module it
    is ``left_out`` of (Genova with Liberation, as the rulebook advises) is not among them, unless the game
    was set up before (option ``port_pool`` "all": :func:`dealt_pool`)."""
    ports = dealt_pool(state)
    rng.shuffle(ports)
    dealing = "home_ports" in modules(state)
    for p in state["seats"]:
        p["board"] = "uprising"
        p["port"] = None
        p["discs"] = {**p["discs"], RESISTANCE_AREA: _DISCS}
        if dealing:
            p["setup"]["ports"] = sorted(ports[:_HP["dealt"]], key=_port_order)
            del ports[:_HP["dealt"]]
    state["ports_box"] = sorted(ports, key=_port_order)
    state["ports_kept"] = {}
    if "resistance" in modules(state):
        resistance.set_tiles(state)


def dealt_pool(state: State) -> list[str]:
    """The ports the setup shuffles and deals from (then the box): every port but those whose row's
    ``left_out`` names a module the game plays; all 15 in a game set up before format 16 (option
    ``port_pool`` "all", stamped by upgrade.py on a stored game that holds a port left out today)."""
    if str(state["options"].get("port_pool", "current")) == "all":
        return [hp["id"] for hp in U.PORTS]
    playing = set(modules(state))
    return [hp["id"] for hp in U.PORTS if not playing & set(hp.get("left_out", ()))]


def _port_order(pid: str) -> int:
    return int(pid[2:])


def setup_options(state: State, seat: int) -> list[Option] | None:
    """The ports to keep while the player has not kept one (None: nothing to choose here)."""
    s = player(state, seat)["setup"]
    if not s.get("ports"):
        return None
    lib = _liberation(state)
    return [opt(f"h{pid}", f"home port {U.PORT[pid]['name']}: {port_text(U.PORT[pid], lib)}") for pid in s["ports"]]


def keep_port(state: State, seat: int, pid: str, ev: list[Event]) -> None:
    """The player keeps ``pid``; the two others leave the game unseen (hidden until all chose)."""
    s = player(state, seat)["setup"]
    s["ports"].remove(pid)
    state["ports_box"] = sorted(state["ports_box"] + s["ports"], key=_port_order)
    s["ports"] = []
    state["ports_kept"] = {**state["ports_kept"], str(seat): pid}
    ev.append(new_event("setup_port", f"You keep the home port {U.PORT[pid]['name']}.", {"port": pid},
                        to=(seat,)))


def setup_done(p: P) -> bool:
    """The player's home port is chosen (or none is dealt)."""
    return not p["setup"].get("ports")


def reveal_ports(state: State, ev: list[Event]) -> None:
    """Every player has chosen: the kept ports go on the boards with two discs each, face up."""
    kept = state.get("ports_kept")
    if not kept:
        return
    for seat, p in enumerate(state["seats"]):
        pid = kept.get(str(seat))
        if pid:
            p["port"] = pid
            p["discs"] = {**p["discs"], PORT_AREA: _DISCS}
    state["ports_kept"] = {}
    ports = [i18n.word("{player} {port}", player=who(state, s), port=i18n.word(U.PORT[kept[str(s)]]["name"]))
             for s in range(len(state["seats"])) if str(s) in kept]
    ev.append(said("ports", i18n.text("Home ports: {ports}.", ports={"items": ports, "sep": ", "}),
                   {"ports": dict(kept)}))


def my_kept_port(state: State, seat: int) -> str | None:
    """The port ``seat`` kept and the others do not know yet (for that seat's view)."""
    kept = state.get("ports_kept")
    return kept.get(str(seat)) if kept else None


def resample(s: State, others: list[int], rng: Rng) -> None:
    """The ports a seat may not know (the box, the others' dealt and kept ports) dealt anew."""
    if "ports_box" not in s:
        return
    kept = s["ports_kept"]
    pool = list(s["ports_box"])
    holders: list[list[str]] = []
    for o in others:
        st = s["seats"][o]["setup"]
        if st and st.get("ports"):
            holders.append(st["ports"])
            pool += st["ports"]
        if str(o) in kept:
            pool.append(kept[str(o)])
    rng.shuffle(pool)
    for lst in holders:
        k = len(lst)
        lst[:] = sorted(pool[:k], key=_port_order)
        del pool[:k]
    for o in others:
        if str(o) in kept:
            kept[str(o)] = pool.pop()
    s["ports_box"] = sorted(pool, key=_port_order)


# ---- the slots unlocked ---------------------------------------------------------------------

def completed(state: State, seat: int, uid: str, rng: Rng, ev: list[Event]) -> list[Frame] | None:
    """What completing a new board's area gives (None: a base area, the base rule)."""
    p = player(state, seat)
    if uid == RESISTANCE_AREA:  # the tile's village-action side with Resistance Tiles, else its front
        return gain(state, seat, resistance.UNLOCK if resistance.playing(p) else _RESISTANCE_FRONT, rng, ev,
                    "upgrades")
    if uid == PORT_AREA:
        hp = port_of(p)
        assert hp is not None
        ev.append(new_event("port", f"{who(state, seat)} unlocks the home port {hp['name']}.",
                            {"seat": seat, "port": hp["id"]}))
        for e in hp["effects"]:
            if e["t"] == "now" and e.get("ext") == "second_explorer":
                place_figure(state, seat, int(e["figure"]), ev)
        return [frame("portbonus", seat, ask=True)]
    if uid == INDICATED and new_board(p):
        return gain(state, seat, _INDICATED_GAIN, rng, ev, "upgrades")
    return None


def place_figure(state: State, seat: int, n: int, ev: list[Event]) -> None:
    """``second_explorer`` (Roatán), at the unlock only: a figure of the player's supply to the explorer
    track's start (Assumption A35: none in the supply, none placed, never later)."""
    p = player(state, seat)
    if p["figures"] < n or "explorer2" in p:
        ev.append(new_event("explore2", f"{who(state, seat)} has no figure in the supply for the home port's "
                            "explorer track: none is placed.", {"seat": seat}))
        return
    p["figures"] -= n
    p["explorer2"] = 0
    ev.append(new_event("explore2", f"{who(state, seat)} places a figure at the start of the explorer track "
                        "(home port).", {"seat": seat, "to": 0}))


def bonus_text(hp: dict[str, Any], liberation: bool = False) -> str:
    b = hp["bonus"]
    got = b["gain"]
    if "inf" in got and liberation:
        what = f"{2 * got['inf']} VP"
    elif "inf" in got:
        what = f"{got['inf']} influence"
    else:
        what = f"{got['vp']} VP"
    return f"pay {C.counted(b['pay']['d'], 'doubloon')} for {what}"


def _liberation(state: State) -> bool:
    return "liberation" in modules(state)


def _bonus_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    hp = port_of(p)
    assert hp is not None
    out = []
    if p["doubloons"] >= hp["bonus"]["pay"]["d"]:
        out.append(opt("yes", f"home port bonus: {bonus_text(hp, _liberation(state))}"))
    out.append(opt("no", "decline the home port bonus (it is lost)"))
    return out


def _bonus_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "no":
        ev.append(new_event("port_bonus", f"{who(state, seat)} declines the home port's bonus.", {"seat": seat}))
        return ev
    p = player(state, seat)
    hp = port_of(p)
    assert hp is not None
    got = dict(hp["bonus"]["gain"])
    if "inf" in got and _liberation(state):
        got = {"vp": _HP_INF_VP * got.pop("inf")}
    stack(state).push_all(gain(state, seat, {"d": -hp["bonus"]["pay"]["d"], **got}, rng, ev, "upgrades"))
    return ev


_HP_INF_VP = int(U.MODULES["liberation"]["influence_vp"])


# ---- the ongoing effects ---------------------------------------------------------------------

def _effect(p: P, ext: str) -> dict[str, Any] | None:
    """The player's first effect of extension ``ext`` (effects.ext_effects: the unlocked port's, the cards')."""
    found = ext_effects(p, ext)
    return found[0] if found else None


def port_text(hp: dict[str, Any], liberation: bool = False) -> str:
    """The port's ongoing effect in a few words (its full wording: the data's ``text``). ``liberation``:
    as the Liberation module plays it, where every fight is against a nation and influence is VP (QA,
    #20: scenario 79's mails offered Yaquimel "fighting for Spain ... 1 influence", a fight 79 has not)."""
    e = hp["effects"][0]
    ext = e.get("ext")
    if ext == "stop_marker":
        return f"ending a movement where {str(e['nation']).title()} holds a marker: {C.gain_text(e['gain'])}"
    if ext == "village_trade":
        return f"village action: pay {trade_words(e['pay'])} for {C.gain_text(e['gain'])}, repeatable"
    if ext == "village_plus_main":
        return f"{e['n']} more village action when the village actions are the main action"
    if ext == "income_influence":
        return f"income: {e['inf']} influence with the nation holding the fewest locations"
    if ext == "combat_nation":
        if liberation:  # (liberation.py: a home port's combat action only against its own nation)
            got = {k: v for k, v in e["gain"].items() if k != "inf"}
            got["vp"] = got.get("vp", 0) + _LIBERATION_VP * int(e["gain"].get("inf", 0))
            return (f"fighting against {str(e['nation']).title()}: combat action (value {e['cost']}) for "
                    f"{C.gain_text(got)}")
        return (f"fighting for {str(e['nation']).title()}: combat action (value {e['cost']}) for "
                f"{C.gain_text(e['gain'])}")
    if ext == "market_take":
        return (f"in a city action, instead of delivering, a disc off the city's market (not an empty one): "
                f"{C.gain_text(e['gain'])}")
    if ext == "deliver_again_cp":
        return f"after delivering in a city action, discard an identical good for {C.gain_text(e['gain'])}"
    if ext == "wild_sugar":
        return "sugar cards pay as any good or object, several at once"
    if ext == "explore_second_last":
        return (f"moving the explorer {e['min']} or more spaces, also the reward (and quest) of the "
                "second-to-last space reached")
    if ext == "second_explorer":
        return ("at the unlock a figure to the explorer track's start; explorer moves split between the "
                "explorer and it, rewards for both")
    return "its ongoing effect is not played yet"


def main_village_plus(p: P) -> int:
    """Nassau: one more village action when the main action is the village actions (never those of a
    city action, an assistant or the explorer track, which do not come through here)."""
    if "port" not in p:
        return 0
    e = _effect(p, "village_plus_main")
    return int(e["n"]) if e else 0


def on_stop(state: State, seat: int, loc: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    """Grand Turk, Port of Spain, Roseau: ending the movement at a location holding a marker of the
    port's nation."""
    p = player(state, seat)
    e = _effect(p, "stop_marker")
    if e is None or state["markers"].get(loc) != e["nation"]:
        return []
    ev.append(new_event("port", f"{who(state, seat)}'s home port: a {str(e['nation']).title()} marker at "
                        f"{C.LOC[loc]['name']}.", {"seat": seat}))
    return gain(state, seat, e["gain"], rng, ev, "upgrades")


def trade_ways(p: P, pay: dict[str, Any]) -> list[list[int]]:
    """Every set of hand cards that pays a ``village_trade``'s goods, each sorted, cheapest first:
    ``{"goods": [...]}`` names them (sugar cards count as any good with ``wild_sugar``),
    ``{"same_goods": n}`` asks ``n`` cards of one good."""
    same = int(pay.get("same_goods", 0))
    wanted = [[g] * same for g in C.GOODS] if same else [list(pay["goods"])]
    found: set[tuple[int, ...]] = set()
    for goods in wanted:
        found |= {tuple(sorted(cs)) for cs in _assign(p, goods)}
    jokers = wild_cards(p)  # (a wild card last: used when nothing else pays)
    return sorted((list(t) for t in found), key=lambda cs: (sum(c in jokers for c in cs),
                                                            sum(C.CARD[c]["cost"] for c in cs), cs))


def _assign(p: P, goods: list[str]) -> list[list[int]]:
    """The ways to give each of ``goods`` its own hand card."""
    out: list[list[int]] = []

    def walk(i: int, chosen: list[int]) -> None:
        if i == len(goods):
            out.append(chosen)
            return
        for c in good_cards(p, goods[i]):
            if c not in chosen:
                walk(i + 1, [*chosen, c])

    walk(0, [])
    return out


def trade_words(pay: dict[str, Any]) -> str:
    if "same_goods" in pay:
        return f"{pay['same_goods']} identical goods"
    goods = list(pay["goods"])
    return f"{len(goods)} {goods[0]}" if len(set(goods)) == 1 else " and ".join(goods)


def _port_trade(p: P) -> dict[str, Any] | None:
    """The unlocked home port's ``village_trade`` (a card's is a village action of its own: card_actions.py)."""
    pid = p.get("port")
    if not pid or "UH" not in p["areas"]:
        return None
    return next((e for e in U.PORT[pid]["effects"] if e.get("ext") == "village_trade"), None)


def _trade_effect(p: P, f: Frame) -> dict[str, Any] | None:
    """The trade the frame ``trade`` pays: the card's it names, else the home port's."""
    card = f["data"].get("card")
    if card is None:
        return _port_trade(p)
    found: dict[str, Any] = next(e for e in C.CARD[int(card)]["effects"] if e.get("ext") == "village_trade")
    return found


def village_options(state: State, seat: int, suffix: str) -> list[Option]:
    """Bremen, Oranjestad (``village_trade``): the port's village action, repeatable while the goods last."""
    p = player(state, seat)
    e = _port_trade(p)
    if e is None or not trade_ways(p, e["pay"]):
        return []
    return [opt("vH", f"village action of the home port: pay {trade_words(e['pay'])} for "
                + C.gain_text(e["gain"]) + suffix)]


def do_village(state: State, seat: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The trade: the cards paid, asked when there is a choice (frame ``trade``), then the gain."""
    e = _port_trade(player(state, seat))
    assert e is not None
    return do_trade(state, seat, e, rng, ev)


def do_trade(state: State, seat: int, e: dict[str, Any], rng: Rng, ev: list[Event],
             card: int | None = None) -> list[Frame]:
    """A ``village_trade`` (the home port's, or ``card``'s): the cards paid, asked when there is a choice
    (frame ``trade``), then the gain."""
    ways = trade_ways(player(state, seat), e["pay"])
    if len(ways) > 1:  # which cards: asked, the cards that could pay named in the frame (for the notation)
        f = frame("trade", seat, cards=sorted({c for cs in ways for c in cs}))
        if card is not None:
            f["data"]["card"] = card
        return [f]
    return _trade(state, seat, ways[0], e, rng, ev, card)


def _trade(state: State, seat: int, cards: list[int], e: dict[str, Any], rng: Rng, ev: list[Event],
           card: int | None = None) -> list[Frame]:
    p = player(state, seat)
    discard_paid(state, p, cards)  # (a wild card of the display too)
    whose = "the home port's" if card is None else f"{C.CARD[card]['name']}'s"
    ev.append(new_event("discard", f"{who(state, seat)} discards " + ", ".join(C.CARD[c]["name"] for c in cards)
                        + f" for {whose} village action.", {"seat": seat, "cards": cards}))
    return gain(state, seat, e["gain"], rng, ev, "upgrades" if card is None else "cards")


def trade_label(cards: list[int], could: list[int]) -> str:
    kept = [c for c in could if c not in cards]
    return ("discard " + ", ".join(f"{C.CARD[c]['name']} ({C.CARD[c]['good']})" for c in cards)
            + ("; keep " + ", ".join(C.CARD[c]["name"] for c in kept) if kept else ""))


def _trade_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    e = _trade_effect(p, f)
    if e is None:
        return []
    return [opt("y" + "-".join(map(str, cs)), trade_label(cs, f["data"]["cards"])) for cs in trade_ways(p, e["pay"])]


def _trade_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    e = _trade_effect(player(state, seat), f)
    assert e is not None
    cards = [int(c) for c in o.code[1:].split("-")]
    card = f["data"].get("card")
    stack(state).push_all(_trade(state, seat, cards, e, rng, ev, None if card is None else int(card)))
    return ev


def city_options(state: State, seat: int, loc: str) -> list[Option]:
    """Antwerp (``market_take``): in the city action, instead of delivering (even to a full market), a
    disc off the city's market; never from an empty one."""
    e = _effect(player(state, seat), "market_take")
    if e is None or not state["market"].get(loc):
        return []
    return [opt("dH", f"take a disc off the market of {C.LOC[loc]['name']} instead of delivering "
                f"({C.gain_text(e['gain'])}), then the city action")]


def do_market_take(state: State, seat: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """The market's last disc leaves it (Assumption A44: to the box; the space's reward is free again)."""
    p = player(state, seat)
    e = _effect(p, "market_take")
    assert e is not None
    loc = p["at"]
    market = state["market"][loc]
    state["market"][loc] = market[:-1]  # (replaced: views share it)
    ev.append(new_event("market_take", f"{who(state, seat)} takes a disc off the market of {C.LOC[loc]['name']} "
                        "(home port).", {"seat": seat, "loc": loc}))
    return gain(state, seat, e["gain"], rng, ev, "upgrades")


def after_delivery(state: State, seat: int, good: str) -> list[Frame]:
    """Porto (``deliver_again_cp``): after a delivery in a city action, an identical good may be discarded
    (full market or not): asked when the hand holds one (frame ``again``)."""
    p = player(state, seat)
    if "port" not in p or _effect(p, "deliver_again_cp") is None or not good_cards(p, good):
        return []
    return [frame("again", seat, good=good, ask=True)]


def _again_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    e = _effect(p, "deliver_again_cp")
    good = f["data"]["good"]
    if e is None:
        return []
    cards = sorted(good_cards(p, good), key=lambda c: (C.CARD[c]["cost"], c))
    return [*(opt(f"y{c}", f"discard {C.CARD[c]['name']} ({good}) for {C.gain_text(e['gain'])} (home port)")
              for c in cards), opt("no", f"discard no {good} (home port)")]


def _again_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "no":
        return ev
    p = player(state, seat)
    e = _effect(p, "deliver_again_cp")
    assert e is not None
    cid = int(o.code[1:])
    discard_paid(state, p, [cid])  # (a wild card of the display too)
    ev.append(new_event("discard", f"{who(state, seat)} discards {C.CARD[cid]['name']} for the home port.",
                        {"seat": seat, "cards": [cid]}))
    stack(state).push_all(gain(state, seat, e["gain"], rng, ev, "upgrades"))
    return ev


def income(state: State, seat: int, ev: list[Event]) -> list[Frame]:
    """Genova: at income, influence with the nation controlling the fewest locations (a tie: the
    player chooses among the tied, frame ``nation`` with ``among``)."""
    e = _effect(player(state, seat), "income_influence")
    if e is None:
        return []
    counts = markers_on_board(state)
    low = min(counts.values())
    tied = [n for n in C.NATIONS if counts[n] == low]
    if _liberation(state):
        add_vp(player(state, seat), _HP_INF_VP * int(e["inf"]), "upgrades")
        ev.append(new_event("port", f"{who(state, seat)} scores {_HP_INF_VP * int(e['inf'])} VP (Genova).",
                            {"seat": seat}))
        return []
    if len(tied) == 1:
        gain_influence(state, seat, tied[0], int(e["inf"]), ev)
        return []
    return [frame("nation", seat, n=int(e["inf"]), among=tied)]


HANDLERS["portbonus"] = FunctionHandler(_bonus_options, _bonus_resolve)
HANDLERS["trade"] = FunctionHandler(_trade_options, _trade_resolve)
HANDLERS["again"] = FunctionHandler(_again_options, _again_resolve)
