"""The explorer track (rulebook: "Explore"): where the explorer may go, its barriers,
rewards and end, and a quest on the track (frames ``explore`` and ``tquest``).
"""

from __future__ import annotations

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from . import jean
from .board import HANDLERS, opt, stack
from .careers import with_free_actions
from .effects import add_vp, gain, player, who
from .quests import can_pay_quest


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
        q = state["track_quests"].get(str(to))
        if q and can_pay_quest(p, q):
            frames.append(frame("tquest", seat, space=to, ask=True))
    return frames


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
    q = state["track_quests"].get(str(f["data"]["space"]))
    if not q or not can_pay_quest(player(state, f["seat"]), q):
        return []
    return [opt("quest", f"fulfil quest {q}: pay {C.cost_text(C.QUEST[q]['cost'])}"), opt("no", "leave the quest")]


def _tquest_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if o.code == "quest":
        stack(state).push(frame("pay", seat, what="quest", quest=state["track_quests"].pop(str(f["data"]["space"]))))
    return ev


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["explore"] = with_free_actions(FunctionHandler(_explore_options, _explore_resolve))
HANDLERS["tquest"] = with_free_actions(FunctionHandler(_tquest_options, _tquest_resolve))
