"""Maracaibo: The Uprising, the Liberation of the Caribbean module (rulebook: "Libertação do
Caribe"; scenario 79 "Agitação", and the cooperative scenarios 74 and 193; docs/rules/maracaibo-uprising.md,
"Liberation of the Caribbean"). Always played with Resistance Tiles (resistance.py).

What the module changes (each with its rulebook words on the rules page):

- **Combat is always against a nation.** After the token, the ``fight`` frame offers only
  ``fight against <nation>`` (code ``a<n>``): the token's value for that nation without the most /
  fewest markers modifiers; its reward as usual, influence as VP (below).
- **The liberation actions** replace the base game's combat actions (frame ``liberation``), each
  once per *turn*: Liberate City (``lc<loc>``, value 5) and Liberate Village (``lv<loc>``, value 3):
  a marker of the nation fought (Assumption A15) leaves that city or village for the player's
  resistance tile (frame ``resist``), a city also gives its flag's bonus. With the combat action
  tile's upgrade unlocked (the ship area ``U6``, its U side), once per turn one more liberation of a
  city (``xc<loc>``, value 3) or a village (``xv<loc>``, value 2): up to 2 cities and a village, or
  2 villages and a city, in one combat. What the combat value lacks is paid in combat points and
  figures as in every combat. The project cards' and home ports' own combat actions may still be
  used (Assumption A16), their influence as VP.
- **Influence is VP**: influence gained (a token, a card, a city action, a barrier, a home port) is
  2 VP per influence instead (``effects.influence_vp``; the ``nation`` frame asks nothing here);
  effects that move an influence marker to its next noble rank (U11's choice) are not offered, and
  a village action placing a marker places none (Assumption A16: such effects are ignored).
- **Careers**: each player is dealt one of the four Liberation careers at random
  (:func:`deal_careers`), instead of the base game's two.
- **No nation scoring** at the end (:func:`nation_scoring`).

Entry points for other modules (Jacques and the cooperative scenarios use this module as it is):
:func:`playing` (the mode plays Liberation), :func:`fight_options` and :func:`fight_against` (the
fight against a nation, the ``liberation`` frame pushed), :func:`liberation_options` (the frame's
options, e.g. for a bot), :func:`deal_careers` (setup), :func:`nation_scoring` (final scoring).
Everything here follows from the mode's modules (``uprising_content.MODES``), never the mode's name.

State this module adds: ``p["freed"]``, ``{"turn": state["turns"], "used": [...]}``, the liberation
actions a player used this turn (``LC``, ``LV``, ``extra``): public, as every player's board is.

SUBSTITUTE CONTENT: the values 5/3 and 3/2 are the rulebook's; the flags' bonuses are the base
game's substitute map's; the careers are substitutes (Assumption A14).
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import actions, combat, homeports, ship, uprising
from . import content as C
from . import uprising_content as U
from .board import HANDLERS, P, loc_kind, opt, stack
from .careers import with_free_actions
from .combat import pay_shortfall, shortfall_splits
from .effects import add_vp, gain, influence_vp, perm, player, who
from .resistance import liberate

_TILE = U.BOARDS["combat_tile"]
#: the liberation actions of the combat action tile's U side, by id (LC city 5, LV village 3)
ACTIONS: dict[str, dict[str, Any]] = {a["id"]: a for a in _TILE["liberation"]["actions"]}
#: the tile's upgrade: one more liberation a turn (LC2 city 3, LV2 village 2), one group "extra"
EXTRA: dict[str, dict[str, Any]] = {a["id"]: a for a in _TILE["liberation"]["upgrade"]}
#: the ship area of the combat action tile (its upgrade unlocked: the extra liberation)
UPGRADE_AREA = str(_TILE["base"]["upgrade"])
#: code prefix -> the action (lc/lv the tile's, xc/xv its upgrade's)
_BY_PREFIX: dict[str, dict[str, Any]] = {
    "lc": ACTIONS["LC"], "lv": ACTIONS["LV"], "xc": EXTRA["LC2"], "xv": EXTRA["LV2"]}
_CAREERS = [str(c["career"]) for c in U.LIBERATION_CAREERS]


def playing(state: State) -> bool:
    """The mode plays the Liberation module (79, 74, 193)."""
    return "liberation" in homeports.modules(state)


def nation_scoring(state: State) -> bool:
    """Whether the final scoring scores the nations (not in scenario 79: "Não há nenhuma nação
    marcando no final do jogo"; the scenario's data says so, ``nation_scoring``)."""
    scen = U.SCENARIOS.get(homeports.mode(state))
    return not scen or bool(scen.get("nation_scoring", True))


def deal_careers(state: State, rng: Rng) -> None:
    """The module's setup: each player's combat action tile turned to its U side (``p["combat_tile"]``:
    the ship area U6's words say so), and one of the four Liberation careers dealt to each player at
    random; the other careers are unused."""
    careers = list(_CAREERS)
    rng.shuffle(careers)
    for i, p in enumerate(state["seats"]):
        p["careers"] = [{"id": careers[i], "done": [None, None, None]}]
        p["combat_tile"] = "liberation"


# ---- the fight: always against a nation ------------------------------------------------------

def _reward(token: str | None, nation: str, state: State) -> dict[str, Any]:
    """The token's reward for ``nation``, its influence as VP."""
    if token is None:
        return {}
    got = dict(C.TOKEN[token]["reward"][nation])
    if "inf" in got:
        got["vp"] = got.get("vp", 0) + influence_vp(state) * got.pop("inf")
    return got


def value(token: str | None, nation: str, p: P) -> int:
    """The token's value for ``nation`` without the most / fewest markers modifiers."""
    base = 3 if token is None else int(C.TOKEN[token]["value"][nation])
    return base + perm(p, "combat_plus")


def fight_options(state: State, seat: int, token: str | None) -> list[Option]:
    """The ``fight`` frame's options: against each nation (one whose token costs more doubloons
    than the player has is not offered, as in the base game)."""
    p = player(state, seat)
    out = []
    for n in C.NATIONS:
        reward = _reward(token, n, state)
        if reward.get("d", 0) < 0 and p["doubloons"] < -reward["d"]:
            continue
        out.append(opt(f"a{n[0]}", f"fight against {n} (value {value(token, n, p)}"
                       + (f"; the combat token: {C.gain_text(reward)}" if reward else "") + ")"))
    return out


def fight_against(state: State, seat: int, nation: str, token: str | None, rng: Rng) -> list[Event]:
    """The token's reward, then the ``liberation`` frame (the liberation actions)."""
    p = player(state, seat)
    ev = [new_event("fight", f"{who(state, seat)} fights against {nation.title()}.",
                    {"seat": seat, "nation": nation, "against": True})]
    frames: list[Frame] = []
    reward = _reward(token, nation, state)
    if reward:
        frames = gain(state, seat, reward, rng, ev, "nations")
    frames.append(frame("liberation", seat, nation=nation, value=value(token, nation, p), used=[], token=token))
    stack(state).push_all(frames)
    return ev


def _fight_options(state: State, f: Frame) -> list[Option]:
    if not playing(state):
        return uprising._fight_options(state, f)
    return fight_options(state, f["seat"], f["data"]["token"])


def _fight_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    if not playing(state):
        return uprising._fight_resolve(state, f, seat, o, rng)
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    return fight_against(state, seat, nation, f["data"]["token"], rng)


# ---- the liberation actions --------------------------------------------------------------------

def used_this_turn(state: State, p: P) -> list[str]:
    """The liberation actions (``LC``, ``LV``, ``extra``) the player used this turn."""
    freed = p.get("freed")
    return list(freed["used"]) if freed and freed["turn"] == state["turns"] else []


def _note(state: State, p: P, group: str) -> None:
    p["freed"] = {"turn": state["turns"], "used": [*used_this_turn(state, p), group]}


def targets(state: State, nation: str, where: str) -> list[str]:
    """The locations of that kind (``city`` or ``village``, as the game has them) holding a marker
    of ``nation``, in board order."""
    markers = state["markers"]
    return [loc for loc in C.LOC_ORDER if markers.get(loc) == nation and loc_kind(state, loc) == where]


def _row_gain(state: State, row: dict[str, Any]) -> dict[str, Any]:
    """A card's or port's combat action's gain, its influence as VP."""
    g = dict(combat._GAINS[row["id"]])
    if "inf" in g:
        g["vp"] = g.get("vp", 0) + influence_vp(state) * g.pop("inf")
    return g


def _other_rows(state: State, p: P, nation: str) -> list[dict[str, Any]]:
    """The project cards' combat actions of the player's display and the unlocked home port's for
    ``nation`` (Assumption A16: usable against a nation in this module)."""
    rows = [row for cid in p["display"] for row in combat._CARD_ROWS.get(cid, ())
            if combat._may(state, p, row, nation)]  # (Turncoat's influence: never here, A61)
    port = p.get("port")
    if port and homeports.PORT_AREA in p["areas"]:
        rows += [r for r in combat._PORT_ROWS.get(port, ()) if r["needs"]["nation"] == nation]
    return rows


def liberation_options(state: State, seat: int, data: dict[str, Any]) -> list[Option]:
    """The ``liberation`` frame's options: each liberation action still free this turn at each
    target the combat value (with combat points and figures) pays for, the cards' and port's
    combat actions, and the end of the combat."""
    p = player(state, seat)
    nation = data["nation"]
    budget = int(data["value"]) + p["combat_points"] + p["figures"]
    done = used_this_turn(state, p)
    extra = UPGRADE_AREA in p["areas"] and "extra" not in done
    out = []
    for prefix, a in _BY_PREFIX.items():
        if (a["id"] in done if prefix[0] == "l" else not extra) or budget < a["cost"]:
            continue
        city = a["where"] == "city"
        for loc in targets(state, nation, a["where"]):
            what = f"liberate {'city' if city else 'village'} {loc} {C.LOC[loc]['name']}"
            more = f", the flag's {C.gain_text(C.LOC[loc]['flag'])}" if city and a.get("flag") else ""
            up = " with the ship upgrade" if prefix[0] == "x" else ""
            out.append(opt(f"{prefix}{loc}", f"{what}{up} (value {a['cost']}{more})"))
    for row in _other_rows(state, p, nation):
        if row["once"] not in data["used"] and row["cost"] <= budget:
            words = row["label"].split(": ", 1)[1] if "by_object" in row["effect"] else \
                C.gain_text(_row_gain(state, row))  # (a reveal: the row's own words)
            out.append(opt(row["code"], f"{row['label'].split(':')[0]}: {words} (value {row['cost']})"))
    out.append(opt("cend", "end the combat"))
    return out


def _options(state: State, f: Frame) -> list[Option]:
    return liberation_options(state, f["seat"], f["data"])


def _resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    d = f["data"]
    ev: list[Event] = []
    if o.code == "cend":
        p["tokens"] += 1 if d["token"] else 0
        ev.append(new_event("combat_end", f"{who(state, seat)} ends the combat.", {"seat": seat}))
        return ev
    used = list(d["used"])
    a = _BY_PREFIX.get(o.code[:2])
    frames: list[Frame] = []
    if a is not None:
        loc = o.code[2:]
        _note(state, p, "extra" if o.code[0] == "x" else a["id"])
        frames += liberate(state, seat, loc, ev)
        if a.get("flag"):
            ev.append(new_event("flag", f"{who(state, seat)} takes the flag's bonus of {C.LOC[loc]['name']}.",
                                {"seat": seat, "loc": loc}))
            frames = gain(state, seat, C.LOC[loc]["flag"], rng, ev, "liberation") + frames
        cost = int(a["cost"])
    else:
        row = combat._BY_CODE[o.code]
        kind, told = row["event"]
        ev.append(new_event(kind, f"{who(state, seat)} {told}.", {"seat": seat}))
        used.append(row["once"])
        frames += gain(state, seat, _row_gain(state, row), rng, ev, row.get("source", "cards"))
        frames += combat.row_reveal(state, seat, row, rng, ev)
        cost = int(row["cost"])
    left = int(d["value"])
    short: list[Frame] = []
    if cost > left:
        need = cost - left
        if len(shortfall_splits(p, need)) > 1:
            short = [frame("short", seat, need=need)]
        else:
            pay_shortfall(p, need)
        left = 0
    else:
        left -= cost
    stack(state).push_all([*short, *frames, frame("liberation", seat, nation=d["nation"], value=left, used=used,
                                                   token=d["token"])])
    return ev


# ---- influence is VP: the nation frame asks nothing, no rank moves, no marker placed ------------

def _nation_options(state: State, f: Frame) -> list[Option]:
    if not playing(state):
        return actions._nation_options(state, f)
    d = f["data"]
    vp = influence_vp(state) * int(d["n"])
    if "place" in d:
        return [opt("nv", f"no marker is placed (Liberation); {vp} VP for the influence, "
                          f"{d.get('d', 0)} doubloon")]
    return [opt("nv", f"{vp} VP for {d['n']} influence (Liberation)")]


def _nation_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    if o.code != "nv":
        return actions._nation_resolve(state, f, seat, o, rng)
    d = f["data"]
    p = player(state, seat)
    vp = influence_vp(state) * int(d["n"])
    add_vp(p, vp, "nations")
    p["doubloons"] += int(d.get("d", 0)) if "place" in d else 0
    return [new_event("influence", f"{who(state, seat)} scores {vp} VP for {d['n']} influence.", {"seat": seat})]


def _u11_options(state: State, f: Frame) -> list[Option]:
    out = ship._u11_options(state, f)
    return [o for o in out if o.code != "rank"] if playing(state) else out


HANDLERS["fight"] = with_free_actions(FunctionHandler(_fight_options, _fight_resolve))
HANDLERS["liberation"] = with_free_actions(FunctionHandler(_options, _resolve))
HANDLERS["nation"] = with_free_actions(FunctionHandler(_nation_options, _nation_resolve))
HANDLERS["u11"] = with_free_actions(FunctionHandler(_u11_options, ship._u11_resolve))
