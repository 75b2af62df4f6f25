"""The ship board: which upgrade areas a disc may leave, what completing one gives
(``disc`` frame), and the choices of U11 (``u11``) and of a rank-up (``rankup``).
"""

from __future__ import annotations

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import homeports
from .board import HANDLERS, P, opt, stack
from .careers import with_free_actions
from .effects import gain, gain_influence, player, who
from .exploring import explore_targets

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
    if "board" in p:  # the Uprising's new ship board: its resistance tile and home port slots
        out += homeports.extra_areas(p)
    return out


def remove_disc(state: State, seat: int, uid: str, rng: Rng, ev: list[Event]) -> list[Frame]:
    p = player(state, seat)
    p["discs"] = {**p["discs"], uid: p["discs"][uid] - 1}
    if p["discs"][uid] > 0:
        ev.append(new_event("disc", f"{who(state, seat)} removes a disc from ship area {uid}.", {"seat": seat}))
        return []
    p["areas"] = [*p["areas"], uid]
    if "board" in p:  # the Uprising's new ship board
        ev.append(new_event("upgrade", f"{who(state, seat)} completes ship upgrade {uid}: "
                            f"{homeports.area_text(p, uid)}.", {"seat": seat}))
        frames = homeports.completed(state, seat, uid, rng, ev)
        if frames is not None:
            return frames
        u = C.UPGRADE[uid]
    else:
        u = C.UPGRADE[uid]
        ev.append(new_event("upgrade", f"{who(state, seat)} completes ship upgrade {uid}: {u['text']}.",
                            {"seat": seat}))
    if "now" in u:
        return gain(state, seat, u["now"], rng, ev, "upgrades")
    if u.get("choice"):
        return [frame("u11", seat)]
    return []


def _base_text(p: P, uid: str) -> str:
    return str(C.UPGRADE[uid]["text"])


def _disc_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    text = homeports.area_text if "board" in p else _base_text
    return [opt(f"u{uid[1:]}", f"disc from ship area {uid}: {text(p, uid)}"
                + (" (completes it)" if p["discs"][uid] == 1 else "")) for uid in disc_areas(p)]


def areas_line(p: P) -> str:
    """The ship areas a delivery's disc may come from now, with what each gives, for the mail before a
    delivery is chosen (so that `deliver sugar ..., disc U3` can be written in one line; #21)."""
    text = homeports.area_text if "board" in p else _base_text
    return "; ".join(f"{uid} ({text(p, uid)}" + (", completes it)" if p["discs"][uid] == 1 else ")")
                     for uid in disc_areas(p))


def _disc_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    frames = remove_disc(state, seat, "U" + o.code[1:], rng, ev)
    if f["data"]["n"] > 1:
        frames.append(frame("disc", seat, n=f["data"]["n"] - 1))
    stack(state).push_all(frames)
    return ev


def _u11_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    out = []
    if explore_targets(state, f["seat"], 3):
        out.append(opt("explore", "explore up to 3"))
    out.append(opt("money", "4 doubloons and 4 VP"))
    if any(C.next_rank_at(v) is not None for v in p["influence"].values()):
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


def _rankup_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    out = []
    for n in C.NATIONS:
        at = C.next_rank_at(p["influence"][n])
        if at is not None:
            out.append(opt("r" + n[0], f"{n.title()} up to {at} (rank {C.RANK_AT[at]})"))
    return out


def _rankup_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    at = C.next_rank_at(p["influence"][nation])
    ev: list[Event] = []
    assert at is not None
    gain_influence(state, seat, nation, at - p["influence"][nation], ev)
    return ev


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["disc"] = with_free_actions(FunctionHandler(_disc_options, _disc_resolve))
HANDLERS["u11"] = with_free_actions(FunctionHandler(_u11_options, _u11_resolve))
HANDLERS["rankup"] = with_free_actions(FunctionHandler(_rankup_options, _rankup_resolve))
