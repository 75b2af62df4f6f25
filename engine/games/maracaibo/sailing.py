"""Phase A, sailing (rulebook: "A. Move your ship"): where the ship may go and what the
movement spent leaves for village actions; the legacy stops and the homeward track's VP.
"""

from __future__ import annotations

from engine import i18n
from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler

from . import card_actions, card_permanents, homeports, legacyboard, legacytiles, search
from . import content as C
from .board import HANDLERS, P, last_round, legacy, open_to, opt, stack
from .careers import do_free, free_options
from .effects import add_vp, gain, player, said, who


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
    return reach(state, p, p["at"], 7)


def reach(state: State, p: P, start: str, budget: int) -> list[tuple[str, int]]:
    """(location, movement spent) for every location a ship at ``start`` reaches with ``budget``."""
    out: list[tuple[str, int]] = []
    seen: set[str] = set()
    levels: dict[int, list[str]] = {0: [start]}
    for steps in range(budget + 1):
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
                if cost <= budget and n not in levels.setdefault(cost, []):
                    levels[cost].append(n)
    return out


def village_count(p: P, spent: int) -> int:
    if "U1" in p["areas"]:
        return 3 if spent >= 5 else (2 if spent >= 2 else 1)
    return 3 if spent >= 7 else (2 if spent >= 4 else 1)


def _sail_options(state: State, f: Frame) -> list[Option]:
    return _sail_real(state, f) + free_options(state, f["seat"])


def _sail_real(state: State, f: Frame) -> list[Option]:
    seat = f["seat"]
    direct = sail_targets(state, seat)
    found = [_SAIL_OPTIONS.get(target) or _sail_option(target) for target in direct]
    stops = legacy(state, "stop")
    found = [_with_stop(o, stops) for o in found] if stops else found
    if "legacy_board" in state:  # the Uprising's new city (its toll) and the 13-2 passage (legacyboard.py)
        found = [_with_note(state, seat, o) for o in found]
        found += [opt(f"x{loc}", legacyboard.passage_label(state, loc, steps) + legacyboard.sail_note(state, seat, loc))
                  for loc, steps in passage_targets(state, seat, direct)]
    return found


def _with_note(state: State, seat: int, option: Option) -> Option:
    note = legacyboard.sail_note(state, seat, option.code[1:])
    return opt(option.code, option.label + note) if note else option


def passage_targets(state: State, seat: int, direct: list[tuple[str, int]] | None = None) -> list[tuple[str, int]]:
    """(location, movement spent) by the Uprising's 13-2 passage (L37): the ship reaches the passage, is
    moved to its other end for nothing and goes on with the movement left."""
    ends = legacyboard.passage(state, seat)
    if ends is None:
        return []
    at = dict(direct if direct is not None else sail_targets(state, seat)).get(ends[0])
    if at is None:
        return []
    return [(ends[1], at), *((loc, at + k) for loc, k in reach(state, player(state, seat), ends[1], 7 - at))]


def _with_stop(option: Option, stops: list[dict[str, object]]) -> Option:
    """A sail option that says what ending there costs or gives (issue 21: Belize takes 2
    doubloons in scenario 77, Tortuga gives a combat point): the legacy tile's own words."""
    loc = option.code[1:]
    said = [f"legacy tile {t['id']}: {t['text']}" for t in stops if t["loc"] == loc]
    return opt(option.code, f"{option.label} ({'; '.join(said)})") if said else option


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
    via = o.code[0] == "x"  # the Uprising's 13-2 passage (L37)
    steps = dict(passage_targets(state, seat) if via else sail_targets(state, seat))[loc]
    frames = legacyboard.do_passage(state, seat, ev) if via else []
    p["at"] = loc
    ev.append(said("sail", i18n.text("{player} sails {steps} to {loc} {place} by the passage." if via
                                     else "{player} sails {steps} to {loc} {place}.", player=who(state, seat),
                                     steps=steps, loc=loc, place=i18n.word(C.LOC[loc]["name"])),
                   {"seat": seat, "to": loc, "steps": steps}))
    top = stack(state).top()
    assert top is not None and top["kind"] == "main"
    top["data"]["spent"] = steps
    stack(state).push_all(frames)
    for t in legacy(state, "stop"):
        if t["loc"] == loc:
            ev.append(new_event("legacy", f"{who(state, seat)} stops at {C.LOC[loc]['name']}: {C.told(t['text'])}.",
                                {"seat": seat, "tile": t["id"]}))
            stack(state).push_all(gain(state, seat, t["gain"], rng, ev, "city"))
    if "port" in p:  # the Uprising's home ports (Grand Turk, Port of Spain, Roseau), cards (Coastal Pilot)
        stack(state).push_all(homeports.on_stop(state, seat, loc, rng, ev))
        stack(state).push_all(card_permanents.on_stop(state, seat, loc, steps, rng, ev))
    if p["display"]:  # the Uprising's stops_collect (card_actions.py)
        stack(state).push_all(card_actions.on_stop(state, seat, loc, rng, ev))
    if search.playing(state):  # The Search: a hint may be revealed before the main action
        stack(state).push_all(search.on_stop(state, seat, loc))
    if "legacy_new" in state:  # the Uprising's new legacy spaces (L34-L36), before the main action
        stack(state).push_all(legacytiles.on_stop(state, seat, loc))
    if "legacy_board" in state:  # the Uprising's new city (L30) and 21a outpost (L33)
        stack(state).push_all(legacyboard.on_stop(state, seat, loc, ev))
    home = C.LOC[loc].get("home")
    if home == 2:
        add_vp(p, 3, "homeward")
        ev.append(said("home", i18n.text("{player} scores 3 VP on the way home.", player=who(state, seat)),
                       {"seat": seat}))
        if not last_round(state):
            state["trigger"] = seat
    elif home == 3:
        add_vp(p, 5, "homeward")
        ev.append(said("home", i18n.text("{player} scores 5 VP at the end of the voyage.", player=who(state, seat)),
                       {"seat": seat}))
        state["trigger"] = seat
    return ev


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["sail"] = FunctionHandler(_sail_options, _sail_resolve, _sail_settle)
