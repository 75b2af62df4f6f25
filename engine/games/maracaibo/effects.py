"""The effect language: gain bundles, card effects, incomes, figures, influence, drawing.

A *gain bundle* is a small dict: ``d`` doubloons (negative pays), ``vp``, ``cp``
combat points, ``fig`` figures, ``draw`` cards, ``inf`` influence (the player
chooses the nation unless the caller names it), ``explore`` explorer moves,
``disc`` discs to remove from the ship board, and ``per`` (quest, combat,
synergy, upgrade, assistant) which multiplies ``d``/``vp`` by a count.
:func:`gain` applies what needs no decision and returns the frames that need
one, in the order they are to be asked. Card effects (``income``, ``now``,
``perm``, ``village``, ``combat``, ``assistant``) are interpreted here and in
the rules; see ``content.effect_text`` for their wording.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import i18n
from engine.core import Event, State, new_event
from engine.rng import Rng
from engine.stack import Frame, frame

from . import content as C
from . import uprising_content as U

P = dict[str, Any]

# Why a player's lists and dicts are replaced, never changed in place (the hand excepted): a view
# shares them with the state (views._public_player), and a view taken before a move must not
# change with it. The same holds for the lists of the markets and the supply, the investors of a
# prestige building, and Jean's discard, cards, tokens, influence and sources.


def said(kind: str, text: tuple[str, dict[str, Any]], data: dict[str, Any], to: tuple[int, ...] | None = None,
         reveals: bool = False) -> Event:
    """An event from ``i18n.text``: its text in the context's language and its message (issue 27)."""
    return new_event(kind, text[0], data, to, reveals, text[1])


# (texts the catalogue needs that xgettext does not see: a counted word's forms)
_PLURALS = (i18n.ngettext("{n} figure", "{n} figures", 1), i18n.ngettext("{n} doubloon", "{n} doubloons", 1),
            i18n.ngettext("{n} VP", "{n} VP", 1), i18n.ngettext("{n} combat point", "{n} combat points", 1))
#: the words and texts of games stored before they were counted (issue 27: "1 dobrões"): their events
#: still name the old msgids, rendered as these, each counted noun by its own number
_STORED = (i18n.correct("{n} doubloons", i18n.N_("{n} {n|doubloon|doubloons}")),
           i18n.correct("{n} combat points", i18n.N_("{n} {n|combat point|combat points}")),
           i18n.correct("{player} pays {paid} doubloons and gets {what}.",
                        i18n.N_("{player} pays {paid} {paid|doubloon|doubloons} and gets {what}.")),
           i18n.correct("{player} pays {paid} doubloons.", i18n.N_("{player} pays {paid} {paid|doubloon|doubloons}.")),
           i18n.correct("{player}'s income is now {d} doubloons and {vp} VP.",
                        i18n.N_("{player}'s income is now {d} {d|doubloon|doubloons} and {vp} VP.")),
           i18n.correct("{player} receives {d} doubloons and {vp} VP.",
                        i18n.N_("{player} receives {d} {d|doubloon|doubloons} and {vp} VP.")))


def doubloons(n: int) -> dict[str, Any]:
    """``n`` doubloons as a counted word: "1 doubloon", "2 doubloons" ("1 dobrão", "2 dobrões")."""
    return {"n": n, "one": "{n} doubloon", "other": "{n} doubloons"}


def victory_points(n: int) -> dict[str, Any]:
    """``n`` VP as a counted word ("1 ponto de vitória", "2 pontos de vitória")."""
    return {"n": n, "one": "{n} VP", "other": "{n} VP"}


def combat_points(n: int) -> dict[str, Any]:
    return {"n": n, "one": "{n} combat point", "other": "{n} combat points"}


def without(items: list[Any], x: Any) -> list[Any]:
    """A copy of ``items`` without its first ``x`` (what ``items.remove(x)`` leaves)."""
    i = items.index(x)
    return items[:i] + items[i + 1:]


def player(state: State, seat: int) -> P:
    p: P = state["seats"][seat]
    return p


def who(state: State, seat: int) -> str:
    return str(state["players"][seat])


def add_vp(p: P, n: int, source: str) -> None:
    p["victory_points"] += n
    src = p["victory_points_by_source"]
    p["victory_points_by_source"] = {**src, source: src.get(source, 0) + n}


def scorings_left(state: State) -> int:
    """Interim scorings still to come (this round's included) plus the final one."""
    return int(state["rounds"]) - int(state["round"]) + 1


def add_income_vp(state: State, p: P, n: int, ev: list[Event], seat: int) -> None:
    p["income_victory_points"] += n
    while p["income_victory_points"] >= C.INCOME_VP_MAX:
        # the rulebook: at 20, score 20 VP for each remaining scoring and go back to 0 (the excess carries)
        bonus = 20 * scorings_left(state)
        add_vp(p, bonus, "income")
        p["income_victory_points"] -= C.INCOME_VP_MAX
        ev.append(new_event("income20", f"{who(state, seat)}'s VP income reaches 20: {bonus} VP, back to "
                            f"{p['income_victory_points']}.", {"seat": seat}))


def add_income_d(state: State, p: P, n: int, ev: list[Event], seat: int) -> None:
    room = C.INCOME_D_MAX - p["income_doubloons"]
    p["income_doubloons"] += min(n, room)
    if n > room:
        add_income_vp(state, p, n - room, ev, seat)  # doubloon income past 34 becomes VP income


#: card id -> {permanent effect kind: amount}, for the cards that have one
_PERMS: dict[int, dict[str, int]] = {
    cid: {e["k"]: int(e["n"]) for e in c["effects"] if e["t"] == "perm" and "k" in e}
    for cid, c in C.CARD.items() if any(e["t"] == "perm" and "k" in e for e in c["effects"])
}


#: permanent effect kind -> {card id: amount}
_PERMS_BY_KIND: dict[str, dict[int, int]] = {}
for _cid, _kinds in _PERMS.items():
    for _kind, _n in _kinds.items():
        _PERMS_BY_KIND.setdefault(_kind, {})[_cid] = _n


def perm(p: P, kind: str) -> int:
    """The sum of the player's permanent effects of this kind (the cards in their display)."""
    cards = _PERMS_BY_KIND.get(kind)
    if cards is None:
        return 0
    total = 0
    for cid in p["display"]:
        if cid in cards:
            total += cards[cid]
    return total


def compass(p: P) -> int:
    # (the Uprising's new ship board: its indicated upgrade U4 gives a compass, homeports.py)
    return 1 + perm(p, "compass") + (1 if "board" in p and "U4" in p["areas"] else 0)


def take_synergy(state: State, seat: int, symbol: str | None, ev: list[Event]) -> None:
    p = player(state, seat)
    if symbol is None or symbol in p["synergy"]:
        return
    p["synergy"] = [*p["synergy"], symbol]
    ev.append(said("synergy", i18n.text("{player} takes the {symbol} synergy token.", player=who(state, seat),
                                        symbol=i18n.word(symbol)), {"seat": seat}))
    for cid in p["display"]:  # retroactive income
        for e in C.CARD[cid]["effects"]:
            if e["t"] == "income" and e.get("needs") == symbol and cid not in p["gated"]:
                p["gated"] = [*p["gated"], cid]
                apply_income(state, seat, e, ev)


def apply_income(state: State, seat: int, e: dict[str, Any], ev: list[Event]) -> None:
    p = player(state, seat)
    if "d" in e:
        add_income_d(state, p, e["d"], ev, seat)
    else:
        add_income_vp(state, p, e["vp"], ev, seat)
    ev.append(said("income", i18n.text("{player}'s income is now {d} and {vp}.", player=who(state, seat),
                                       d=doubloons(p["income_doubloons"]),
                                       vp=victory_points(p["income_victory_points"])),
                        {"seat": seat, "d": p["income_doubloons"], "vp": p["income_victory_points"]}))


def gain_figure(p: P, n: int = 1) -> int:
    got = int(max(0, min(n, C.FIGURES_MAX - p["figures_owned"])))
    p["figures_owned"] += got
    p["figures"] += got
    return got


#: mode -> VP per influence gained, for the modes playing the Uprising's Liberation module (the
#: influence is scored as VP instead: liberation.py)
_INFLUENCE_VP: dict[str, int] = {m: int(U.MODULES["liberation"]["influence_vp"]) for m, d in U.MODES.items()
                                 if "liberation" in d["modules"]}


def liberation(state: State) -> bool:
    """The mode plays the Uprising's Liberation module (liberation.py; the rules of it that the other
    parts keep: influence as VP, no marker placed by an effect)."""
    return str(state["options"].get("mode", "base")) in _INFLUENCE_VP


def influence_vp(state: State) -> int:
    """VP per influence gained instead of the influence (the Liberation module), else 0."""
    return _INFLUENCE_VP.get(str(state["options"].get("mode", "base")), 0)


def given_up(state: State, seat: int) -> str | None:
    """The nation whose influence marker this player gave to the Uprising's new city (L30), if any."""
    board = state.get("legacy_board")
    if not board:
        return None
    for tile in board.values():
        if isinstance(tile, dict) and str(seat) in tile and isinstance(tile[str(seat)], str):
            return str(tile[str(seat)])
    return None


def gain_influence(state: State, seat: int, nation: str, n: int, ev: list[Event]) -> None:
    p = player(state, seat)
    if nation == given_up(state, seat):  # the marker is on the new city's Dutch flag: nothing to move
        ev.append(new_event("influence", f"{who(state, seat)} gains no influence with {nation.title()}: their "
                            "marker was given up for the new city.", {"seat": seat, "nation": nation}))
        return
    as_vp = influence_vp(state)
    if as_vp:
        add_vp(p, as_vp * n, "nations")
        ev.append(said("influence", i18n.text("{player} scores {vp} VP for {n} influence.", player=who(state, seat),
                                              vp=as_vp * n, n=n), {"seat": seat}))
        return
    before = p["influence"][nation]
    after = min(C.INFLUENCE_MAX, before + n)
    p["influence"] = {**p["influence"], nation: after}
    extra = before + n - after
    if extra > 0:
        add_vp(p, 2 * extra, "nations")  # the right-most space: 2 VP for each space it would have moved
        told = i18n.text("{player} gains {n} influence with {nation} ({after}), {vp} VP past the end of the track.",
                         player=who(state, seat), n=n, nation=i18n.word(nation.title()), after=after, vp=2 * extra)
    else:
        told = i18n.text("{player} gains {n} influence with {nation} ({after}).", player=who(state, seat), n=n,
                         nation=i18n.word(nation.title()), after=after)
    ev.append(said("influence", told, {"seat": seat, "nation": nation, "to": after}))


#: how each career metric counts a player's things
_COUNTS: dict[str, Callable[[P], int]] = {
    "quest": lambda p: int(p["quests"]),
    "combat": lambda p: int(p["tokens"]),
    "synergy": lambda p: len(p["synergy"]),
    "upgrade": lambda p: len(p["areas"]),
    "assistant": lambda p: len(p["assist"]),
    "display": lambda p: len(p["display"]),
    "explorer": lambda p: int(p["explorer"]),
    "influence": lambda p: sum(p["influence"].values()),
    "rank": lambda p: sum(C.rank(v) for v in p["influence"].values()),
    "explorer5": lambda p: int(p["explorer"]) // 5,
    "display3": lambda p: len(p["display"]) // 3,
    "liberated": lambda p: int(p.get("liberated", 0)),  # (the Uprising: markers put on the resistance tile)
    # the Uprising's per_more: combat points, and figures in the supply (Assumption A20)
    "cp": lambda p: int(p["combat_points"]),
    "figure": lambda p: int(p["figures"]),
}


def counter(what: str) -> Callable[[P], int]:
    """The function that counts a metric (KeyError for an unknown one)."""
    return _COUNTS[what]


def count_of(p: P, what: str) -> int:
    return _COUNTS[what](p)


def refill_deck(state: State, rng: Rng, ev: list[Event]) -> bool:
    """The discards shuffled into a new draw pile when the pile is empty; whether a card is left to draw."""
    if not state["deck"] and state["discard"]:
        state["deck"] = state["discard"]
        state["discard"] = []
        rng.shuffle(state["deck"])
        ev.append(Event("reshuffle", "The discard pile is shuffled into a new draw pile.", reveals=True))
    return bool(state["deck"])


def draw_cards(state: State, seat: int, n: int, rng: Rng, ev: list[Event]) -> int:
    """Draw from the pile (reshuffling the discards); the cards are told to their drawer only."""
    p = player(state, seat)
    got = []
    for _ in range(n):
        if not refill_deck(state, rng, ev):
            break
        got.append(state["deck"].pop())
    p["hand"].extend(got)
    if got:
        ev.append(said("draw", i18n.text("{player} draws {cards}.", player=who(state, seat), cards={
            "n": len(got), "one": "{n} card", "other": "{n} cards"}), {"seat": seat, "n": len(got)}, reveals=True))
        ev.append(said("drawn", i18n.text("You draw {cards}.", cards=[i18n.word(C.CARD[c]["name"]) for c in got]),
                       {"cards": got}, to=(seat,), reveals=True))
    return len(got)


def gain(state: State, seat: int, g: dict[str, Any], rng: Rng, ev: list[Event], source: str,
         nation: str | None = None) -> list[Frame]:
    """Apply a gain bundle; return the frames still to decide (nation, explore, discs), in asking order."""
    p = player(state, seat)
    frames: list[Frame] = []
    mult = count_of(p, g["per"]) if "per" in g else 1
    words: list[Any] = []
    paid = 0
    if g.get("d"):
        before = p["doubloons"]
        p["doubloons"] = max(0, before + g["d"] * mult)
        if g["d"] > 0:
            words.append(doubloons(g["d"] * mult))
        else:
            paid = before - p["doubloons"]  # a cost (a token's, Belize's): never more than the player has
    if g.get("vp"):
        add_vp(p, g["vp"] * mult, source)
        words.append(victory_points(g["vp"] * mult))
    if g.get("cp"):
        p["combat_points"] = min(C.COMBAT_MAX, p["combat_points"] + g["cp"])
        words.append(combat_points(g["cp"]))
    if g.get("fig"):
        got = gain_figure(p, g["fig"])
        words.append({"n": got, "one": "{n} figure", "other": "{n} figures"})
    if words or paid:
        if words and paid:
            told = i18n.text("{player} pays {paid} and gets {what}.", player=who(state, seat), paid=doubloons(paid),
                             what=words)
        elif paid:
            told = i18n.text("{player} pays {paid}.", player=who(state, seat), paid=doubloons(paid))
        else:
            told = i18n.text("{player} gets {what}.", player=who(state, seat), what=words)
        ev.append(said("gain", told, {"seat": seat}))
    if g.get("draw"):
        draw_cards(state, seat, g["draw"], rng, ev)
    if g.get("inf"):
        if nation is not None or influence_vp(state):
            gain_influence(state, seat, nation or C.NATIONS[0], g["inf"], ev)  # (Liberation: VP, any nation)
        else:
            frames.append(frame("nation", seat, n=g["inf"]))
    if g.get("explore"):
        frames.append(frame("explore", seat, n=g["explore"]))
    if g.get("disc"):
        frames.append(frame("disc", seat, n=g["disc"]))
    return frames


# ---- the expansion's extensions of the language (docs/rules/maracaibo-uprising.md, "Effect language") ----

#: extension name -> {card id: its effects of that extension} (the cards that carry one; the base cards none)
_EXT_CARDS: dict[str, dict[int, list[dict[str, Any]]]] = {}
for _card in {**{c["id"]: c for c in U.CARDS}, **C.CARD}.values():  # (the dealt expansion cards are in both)
    for _e in _card["effects"]:
        if isinstance(_e.get("ext"), str):
            _EXT_CARDS.setdefault(_e["ext"], {}).setdefault(_card["id"], []).append(_e)


#: the cards of ``wild_card`` (a display card that pays as any one good or object)
_WILD = frozenset(_EXT_CARDS.get("wild_card", {}))


def ext_effects(p: P, ext: str) -> list[dict[str, Any]]:
    """The effects of the extension ``ext`` the player holds: their home port's once unlocked (its ship
    area ``UH``, Assumption A6) and their display cards'. Every extension is looked up here, by name,
    never by a port's or a card's id."""
    out: list[dict[str, Any]] = []
    pid = p.get("port")
    if pid and "UH" in p["areas"]:
        out += [e for e in U.PORT[pid]["effects"] if e.get("ext") == ext]
    cards = _EXT_CARDS.get(ext)
    if cards:
        for cid in p["display"]:
            out += cards.get(cid, ())
    return out


def ext_cards(p: P, ext: str) -> list[tuple[int, dict[str, Any]]]:
    """The player's display cards with an effect of the extension ``ext``: (card id, effect), in the
    display's order (the card's own state, e.g. the nation its figure marks, is read by its id)."""
    cards = _EXT_CARDS.get(ext)
    if not cards:
        return []
    return [(cid, e) for cid in p["display"] for e in cards.get(cid, ())]


def wild_sugar(p: P) -> bool:
    """``wild_sugar`` (Cayman Islands): a sugar card pays as any good or object, several at once."""
    return bool(ext_effects(p, "wild_sugar")) if "port" in p else False


def pays_as(p: P, cid: int, kind: str, want: str, wild: bool | None = None) -> bool:
    """Card ``cid`` pays ``want``, a good (``kind`` "good") or an object ("object"): it shows it, or
    it is a sugar card and the player has ``wild_sugar``, or it is a ``wild_card`` of the display."""
    card = C.CARD[cid]
    if card[kind] == want:
        return True
    if card["good"] == "sugar" and (wild_sugar(p) if wild is None else wild):
        return True
    return cid in _WILD and cid in p["display"]


def wild_cards(p: P) -> list[int]:
    """``wild_card`` (Quartermaster's Mate): the display cards that may be discarded instead of one good
    or object of the player's choice (each pays exactly one; it leaves the display for the discards)."""
    return [cid for cid in p["display"] if cid in _WILD] if _WILD else []


def paying_cards(p: P) -> list[int]:
    """The cards that may pay goods and objects: the hand, then the display's wild cards."""
    wild = wild_cards(p)
    return [*p["hand"], *wild] if wild else p["hand"]


def cheapest(p: P, cards: list[int]) -> list[int]:
    """``cards`` cheapest first, a wild card of the display last (used only when nothing else pays)."""
    wild = wild_cards(p)
    return sorted(cards, key=lambda c: (c in wild, C.CARD[c]["cost"], c))


def discard_paid(state: State, p: P, cards: list[int]) -> None:
    """The cards paid to the discard pile: from the hand, or a wild card from the display."""
    for c in cards:
        if c in p["hand"]:
            p["hand"].remove(c)
        else:
            p["display"] = without(p["display"], c)
        state["discard"].append(c)


def good_cards(p: P, good: str) -> list[int]:
    """The cards that pay ``good``: its own hand cards, sugar cards with ``wild_sugar``, and the display's
    ``wild_card`` (last)."""
    wild = wild_sugar(p)
    found = [c for c in p["hand"] if pays_as(p, c, "good", good, wild)]
    extra = wild_cards(p)
    return [*found, *extra] if extra else found
