"""Combat (rulebook: "Combat"): the token revealed, the nation fought for, its combat value, and
the combat actions it pays for (frames ``pile``, ``fight``, ``combat``, ``short``).

Every combat action is one row of data, read by one :func:`do_combat_action`. The rulebook's are
in ``data/combat.json``; a project card's ``{"t": "combat", "cost", "gain"}`` effect and a legacy
tile's ``actions`` become rows of the same format when they load (:data:`ROWS`). A row::

    {"id": "annex", "code": "ca", "cost": 4, "once": "annex",
     "needs": {"supply": true},
     "where": {"kinds": ["village", "city"], "held": "none", "open": true},
     "label": "annex {loc}", "effect": {"marker": true, "inf": 1, "flag": true},
     "source": "nations", "event": ["combat_card", "uses Galleon"]}

``id``
    the row's name, unique.
``code``
    the option's code; with ``where``, the code of each target is this plus the location
    (``ca14``). Codes never change: a game's log replays by them.
``cost``
    the combat value it takes; what the combat value lacks is paid in combat points and figures.
``once``
    the once-per-combat group: a row is offered only while no row of its group was used in this
    combat (both influence rows share ``inf``; annex and displace share ``annex``).
``needs`` (when it may be used; all must hold)
    ``supply``: the fought nation has a marker left; ``area``: that ship upgrade is complete;
    ``display``: that project card is in the player's display; ``legacy``: that legacy tile is in
    play.
``where`` (a row with a target location, among the map's flag locations in board order)
    ``kinds``: the location kinds it may target (as the game has them: ``loc_kind``);
    ``held``: ``none`` (no marker there) or ``other`` (another nation's marker); ``open``: the
    player's explorer must have opened it (a legacy city). Consecutive rulebook rows with a
    ``where`` and the same ``once`` are offered location by location.
``label``
    the option's words; ``{Nation}``, ``{loc}`` (number and name) and ``{Held}`` (the nation
    there) are filled in, and `` (value <cost>)`` is added.
``effect``
    a gain bundle of the effect language (``effects.gain``: ``d``, ``vp``, ``cp``, ``inf`` for the
    fought nation, ``draw``, ``explore``, ``disc``, ``per``) plus the keys only a combat action
    has: ``marker`` (the fought nation's marker to the target, from its supply: annex, or
    displace the one there) and ``flag`` (the target's flag reward).
``source``
    where its VP are counted (``nations`` unless given); ``event``: the event's kind and the words
    after the player's name, told before the effect.

Rows to come (the Uprising, issue 20) fit this format with new ``needs`` (``against``: fighting
against a nation; ``tile``: a resistance tile's village action unlocked), a ``once`` scope per turn,
``held: "fought"`` and new effect keys (``liberate``: the marker to the resistance tile), each
added here once, never a code of its own per action.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import card_combat
from . import content as C
from . import uprising_content as U
from .board import (
    HANDLERS,
    P,
    first_two,
    has_marker,
    legacy,
    loc_kind,
    markers_on_board,
    open_to,
    opt,
    stack,
    take_marker,
)
from .card_permanents import draw_tokens, fought_for
from .careers import with_free_actions
from .effects import gain, perm, player, who
from .removal import removed
from .reveal import by_object, table_text


def pay_shortfall(p: P, need: int, cp: int | None = None) -> None:
    """Combat value raised by paying ``cp`` combat points and figures for the rest (by default
    combat points first, then figures)."""
    if cp is None:
        cp = min(p["combat_points"], need)
    p["combat_points"] -= cp
    need -= cp
    p["figures"] -= need
    p["figures_owned"] -= need


def shortfall_splits(p: P, need: int) -> list[int]:
    """How many of ``need`` combat value the player may pay in combat points (figures pay the rest),
    most combat points first: the rulebook lets the player mix them."""
    return list(range(min(p["combat_points"], need), max(0, need - p["figures"]) - 1, -1))


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


# ---- combat actions: one row of data each --------------------------------------------------------

Row = dict[str, Any]


def _card_row(cid: int, e: dict[str, Any]) -> Row:
    """A project card's combat action (its ``{"t": "combat"}`` effect), as a row (the Uprising's
    ``by_object``: the effect key of that name, the reveal's table)."""
    if e.get("ext") == "last_pay_influence":  # the Uprising's: its row from card_combat.py
        return card_combat.combat_row(cid, e)
    name = C.CARD[cid]["name"]
    effect = dict(e["gain"])
    words = C.gain_text(e["gain"])
    if e.get("ext") == "by_object":
        effect["by_object"] = e["by_object"]
        words = "reveal the top project card, by its object (" + table_text(e["by_object"]) + ")"
    return {"id": f"c{cid}", "code": f"cc{cid}", "cost": e["cost"], "once": f"c{cid}", "needs": {"display": cid},
            "label": f"{name}: {words}", "effect": effect, "source": "cards",
            "event": ["combat_card", f"uses {name}"]}


def _port_row(hp: dict[str, Any], e: dict[str, Any]) -> Row:
    """A home port's combat action (the Uprising: Kingstown, Port-au-Prince, Yaquimel), as a row: only
    for its owner once unlocked, fighting with its nation."""
    return {"id": hp["id"], "code": f"ch{hp['id'][2:]}", "cost": e["cost"], "once": hp["id"],
            "needs": {"port": hp["id"], "nation": e["nation"]}, "label": f"{hp['name']}: {C.gain_text(e['gain'])}",
            "effect": e["gain"], "source": "upgrades", "event": ["combat_port", f"uses the home port {hp['name']}"]}


def _legacy_row(t: dict[str, Any], a: dict[str, Any]) -> Row:
    """A legacy tile's combat action, as a row."""
    return {"id": a["id"], "code": f"cx{a['id']}", "cost": a["cost"], "once": a["id"], "needs": {"legacy": t["id"]},
            "label": f"{t['name']}: {C.gain_text(a['gain'])}", "effect": a["gain"], "source": "nations",
            "event": ["combat_legacy", a["told"]]}


#: every combat action, in the order they are offered: the rulebook's (data/combat.json), then the
#: project cards' (in the display's order when offered) and the legacy tiles'
ROWS: list[Row] = [
    *C.COMBAT_ACTIONS,
    *(_card_row(cid, e) for cid, c in C.CARD.items() for e in c["effects"] if e["t"] == "combat"),
    *(_legacy_row(t, a) for t in C.LEGACY.values() if t["kind"] == "combat" for a in t["actions"]),
    *(_port_row(hp, e) for hp in U.PORTS for e in hp["effects"] if e["t"] == "combat"),
]
_ROW_KEYS = frozenset(("id", "code", "cost", "once", "needs", "where", "label", "effect", "source", "event",
                       "last"))
_NEEDS = frozenset(("supply", "area", "display", "legacy", "port", "nation", "influence"))
_HELD = frozenset(("none", "other"))
_EFFECT_KEYS = frozenset(("d", "vp", "cp", "fig", "draw", "inf", "explore", "disc", "per", "marker", "flag",
                          "by_object", "lose_inf"))


def check_row(row: Row) -> Row:
    """The row, or ValueError saying what is wrong with it (every row is checked when it loads)."""
    name = row.get("id", row)
    unknown = set(row) - _ROW_KEYS
    if unknown or not {"id", "code", "cost", "once", "label", "effect"} <= set(row):
        raise ValueError(f"combat action {name}: keys {sorted(row)} (known: {sorted(_ROW_KEYS)})")
    if not isinstance(row["cost"], int) or row["cost"] < 0:
        raise ValueError(f"combat action {name}: cost {row['cost']!r} is not a number of 0 or more")
    if set(row.get("needs", {})) - _NEEDS:
        raise ValueError(f"combat action {name}: needs {sorted(row['needs'])} (known: {sorted(_NEEDS)})")
    if set(row["effect"]) - _EFFECT_KEYS:
        raise ValueError(f"combat action {name}: effect {sorted(row['effect'])} (known: {sorted(_EFFECT_KEYS)})")
    where = row.get("where")
    if where is not None and (where.get("held") not in _HELD or not where.get("kinds") or len(row["code"]) != 2):
        raise ValueError(f"combat action {name}: where {where!r} needs kinds, held in {sorted(_HELD)} "
                         "and a two-letter code")
    if (row["effect"].get("marker") or row["effect"].get("flag")) and where is None:
        raise ValueError(f"combat action {name}: a marker or flag effect needs a target (where)")
    return row


for _row in ROWS:
    check_row(_row)
if len({r["code"] for r in ROWS}) != len(ROWS) or len({r["id"] for r in ROWS}) != len(ROWS):
    raise ValueError("combat actions: two rows share a code or an id")
#: the effect keys only a combat action has (the rest of its effect is a gain bundle of effects.py)
_COMBAT_KEYS = ("marker", "flag", "by_object", "lose_inf")
#: the row of each code (a row with a location: of each code prefix)
_BY_CODE: dict[str, Row] = {r["code"]: r for r in ROWS}
#: the rulebook's rows, in groups listed together: consecutive rows with a location and the same
#: ``once`` are offered location by location (the annex or the displace of each flag in turn)
_BASE_GROUPS: list[list[Row]] = []
for _row in C.COMBAT_ACTIONS:
    if _BASE_GROUPS and "where" in _row and "where" in _BASE_GROUPS[-1][-1] and \
            _BASE_GROUPS[-1][-1]["once"] == _row["once"]:
        _BASE_GROUPS[-1].append(_row)
    else:
        _BASE_GROUPS.append([_row])
#: card id -> its combat action rows; legacy tile id -> its rows
_CARD_ROWS: dict[int, list[Row]] = {}
_LEGACY_ROWS: dict[str, list[Row]] = {}
_PORT_ROWS: dict[str, list[Row]] = {}  # home port id -> its rows (the Uprising)
for _row in ROWS:
    _needs = _row.get("needs", {})
    if "port" in _needs:
        _PORT_ROWS.setdefault(str(_needs["port"]), []).append(_row)
    elif "display" in _needs:
        _CARD_ROWS.setdefault(int(_needs["display"]), []).append(_row)
    elif "legacy" in _needs:
        _LEGACY_ROWS.setdefault(str(_needs["legacy"]), []).append(_row)


def _may(state: State, p: P, row: Row, nation: str) -> bool:
    """Whether the row's ``needs`` hold (all but ``display`` and ``legacy``, which choose the rows)."""
    needs = row.get("needs")
    if not needs:
        return True
    if needs.get("supply") and not has_marker(state, nation):
        return False
    if needs.get("influence") and not card_combat.has_influence(p, int(needs["influence"])):
        return False
    area = needs.get("area")
    return area is None or area in p["areas"]


def _label(row: Row, nation: str, loc: str | None = None, held: str | None = None) -> str:
    text: str = row["label"]
    if "{" in text:
        text = text.replace("{Nation}", nation.title())
        if loc is not None:
            text = text.replace("{loc}", f"{loc} {C.LOC[loc]['name']}")
        if held is not None:
            text = text.replace("{Held}", held.title())
    return f"{text} (value {row['cost']})"


def _targets(state: State, p: P, row: Row, nation: str, loc: str) -> str | None:
    """Whether ``loc`` is a target of the row: the nation holding it ("" when empty), else None."""
    where = row["where"]
    if loc_kind(state, loc) not in where["kinds"] or (where.get("open") and not open_to(state, p, loc)):
        return None
    here: str = state["markers"].get(loc, "")
    if where["held"] == "none":
        return "" if not here else None
    return here if here and here != nation else None  # "other" (check_row allows no third)


def combat_options(state: State, seat: int, data: dict[str, Any]) -> list[Option]:
    return list(_combat_options_in_order(state, seat, data))


def _combat_options_in_order(state: State, seat: int, data: dict[str, Any]) -> Iterator[Option]:
    """combat_options one at a time (the stack's settle asks for the first two only)."""
    p = player(state, seat)
    nation, value, used = data["nation"], data["value"], data["used"]
    budget = value + p["combat_points"] + p["figures"]
    for group in _BASE_GROUPS:
        first = group[0]
        if first["once"] in used or not _may(state, p, first, nation):
            continue
        if "where" not in first:
            for row in group:
                if row["cost"] <= budget:
                    yield opt(row["code"], _label(row, nation))
            continue
        for loc in C.FLAGS:
            for row in group:
                held = _targets(state, p, row, nation, loc)
                if held is not None and row["cost"] <= budget:
                    yield opt(row["code"] + loc, _label(row, nation, loc, held))
    for cid in p["display"]:
        for row in _CARD_ROWS.get(cid, ()):
            if row["once"] not in used and row["cost"] <= budget and _may(state, p, row, nation):
                yield opt(row["code"], _label(row, nation))
    for t in legacy(state, "combat"):
        for row in _LEGACY_ROWS[t["id"]]:
            if row["once"] not in used and row["cost"] <= budget:
                yield opt(row["code"], _label(row, nation))
    port = p.get("port")
    if port and "UH" in p["areas"]:  # the Uprising: an unlocked home port's combat action, for its nation
        for row in _PORT_ROWS.get(port, ()):
            if row["once"] not in used and row["cost"] <= budget and row["needs"]["nation"] == nation:
                yield opt(row["code"], _label(row, nation))
    yield opt("cend", "end the combat")


def do_combat_action(state: State, seat: int, code: str, data: dict[str, Any], rng: Rng,
                     ev: list[Event]) -> list[Frame]:
    """Carry out the combat action of ``code`` (a code listed by combat_options): its row's effect,
    then its cost from the combat value (the shortfall in combat points and figures)."""
    p = player(state, seat)
    nation = data["nation"]
    if code == "cend":
        p["tokens"] += 1 if data["token"] else 0
        ev.append(new_event("combat_end", f"{who(state, seat)} ends the combat.", {"seat": seat}))
        return []
    row = _BY_CODE.get(code)
    loc = None
    if row is None:  # a row with a location: its code, then the location's
        row, loc = _BY_CODE[code[:2]], code[2:]
    used = [*data["used"], row["once"]]
    effect = row["effect"]
    frames: list[Frame] = []
    if "event" in row:
        kind, told = row["event"]
        ev.append(new_event(kind, f"{who(state, seat)} {told}.", {"seat": seat}))
    if effect.get("marker"):
        assert loc is not None
        old = state["markers"].get(loc)
        take_marker(state, nation)
        state["markers"][loc] = nation
        text = f"{who(state, seat)} " + (f"displaces {old.title()} at" if old else "annexes") + \
            f" {loc} {C.LOC[loc]['name']} for {nation.title()}."
        ev.append(new_event("annex", text, {"seat": seat, "loc": loc, "nation": nation}))
        if old:  # a displace: the marker removed (the Gravedigger)
            frames += removed(state, seat, loc, "displace")
    if effect.get("lose_inf"):  # (card_combat.py: the influence lost comes before the row's gain)
        frames += card_combat.lose_influence(state, seat, int(effect["lose_inf"]))
    source = row.get("source", "nations")
    frames += gain(state, seat, _GAINS[row["id"]], rng, ev, source, nation=nation)
    if effect.get("flag"):
        assert loc is not None
        frames += gain(state, seat, C.LOC[loc]["flag"], rng, ev, "nations")
    frames += row_reveal(state, seat, row, rng, ev)
    cost = int(row["cost"])
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
    if row.get("last"):  # the combat's last action (card_combat.py): the combat ends with it
        p["tokens"] += 1 if data["token"] else 0
        ev.append(new_event("combat_end", f"{who(state, seat)} ends the combat.", {"seat": seat}))
        return [*short, *frames]
    return [*short, *frames, frame("combat", seat, nation=nation, value=value, used=used, token=data["token"])]


def row_reveal(state: State, seat: int, row: Row, rng: Rng, ev: list[Event]) -> list[Frame]:
    """A row's ``by_object`` (the Uprising's card combat action): the top project card revealed, the reward
    its object names (nothing for a row without it)."""
    table = row["effect"].get("by_object")
    return by_object(state, seat, table, rng, ev, row.get("source", "cards")) if table else []


#: each row's effect without the combat-only keys: the gain bundle effects.gain applies
_GAINS: dict[str, dict[str, Any]] = {r["id"]: {k: v for k, v in r["effect"].items() if k not in _COMBAT_KEYS}
                                     for r in ROWS}


def _pile_options(state: State, f: Frame) -> list[Option]:
    piles = state["piles"]
    if not piles[0] and not piles[1]:
        return [opt("x", "fight with no token (every nation's value is 3)")]
    return [opt(f"t{i + 1}", f"reveal a combat token from pile {i + 1}") for i in range(2) if piles[i]]


def _pile_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    token = None
    ev: list[Event] = []
    if o.code != "x":
        choice = draw_tokens(state, seat, int(o.code[1]) - 1, ev)  # the Uprising's token_choice: keep one of 2
        if choice:
            stack(state).push_all(choice)
            return ev
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
        if reward.get("d", 0) < 0 and p["doubloons"] < -reward["d"]:
            continue
        out.append(opt(f"f{n[0]}", f"fight {n} (value {fight_value(state, token, n, p)}"
                       + (f"; the combat token: {C.gain_text(reward)}" if reward else "") + ")"))
    return out


def _fight_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    token = f["data"]["token"]
    ev = [new_event("fight", f"{who(state, seat)} fights for {nation.title()}.", {"seat": seat, "nation": nation})]
    frames: list[Frame] = []
    if token:
        frames = gain(state, seat, C.TOKEN[token]["reward"][nation], rng, ev, "nations", nation=nation)
    frames += fought_for(state, nation, rng, ev)  # the Uprising's fight_for_pays: any fight for the nation
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
    return [new_event("shortfall", f"{who(state, seat)} pays {C.counted(cp, 'combat point')} and "
                      f"{C.counted(need - cp, 'figure')} for the combat value missing.",
                      {"seat": seat, "cp": cp, "figures": need - cp})]


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["pile"] = with_free_actions(FunctionHandler(_pile_options, _pile_resolve))
HANDLERS["fight"] = with_free_actions(FunctionHandler(_fight_options, _fight_resolve))
HANDLERS["combat"] = with_free_actions(FunctionHandler(_combat_options, _combat_resolve, _combat_settle))
HANDLERS["short"] = FunctionHandler(_short_options, _short_resolve)
