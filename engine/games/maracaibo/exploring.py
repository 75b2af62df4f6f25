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
from .effects import add_vp, ext_effects, gain, player, who
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


def explore_ways(state: State, seat: int, n: int, least: int) -> dict[int, list[int]]:
    """Each space the explorer may stop on (as :func:`explore_targets`) with the second-to-last space
    moved to on each way there that counts ``least`` spaces or more; -1 for a way shorter than that
    (``explore_second_last``, Panamá: the track forks, so one target may be reached two ways)."""
    p = player(state, seat)
    if p["explorer"] == C.END_SPACE:
        return {}
    occupied = {o["explorer"] for i, o in enumerate(state["p"]) if i != seat} | jean.explorers(state)
    found: dict[int, set[int]] = {}

    def walk(space: int, steps: int, prev: int) -> None:
        for nx in C.SPACES[space]["next"]:
            if nx in occupied and nx != C.END_SPACE:
                walk(nx, steps, prev)  # skipped, not counted
                continue
            if steps + 1 > n:
                continue
            found.setdefault(nx, set()).add(prev if steps + 1 >= least else -1)
            if nx != C.END_SPACE:
                walk(nx, steps + 1, nx)

    walk(p["explorer"], 0, -1)
    return {to: sorted(ways) for to, ways in sorted(found.items())}


def second_last(state: State, seat: int) -> int:
    """``explore_second_last`` (Panamá): the fewest spaces a move must count to pay the second-to-last
    space's reward too; 0 without the effect."""
    found = ext_effects(player(state, seat), "explore_second_last")
    return int(found[0]["min"]) if found else 0


def do_explore(state: State, seat: int, to: int, rng: Rng, ev: list[Event], also: int = -1) -> list[Frame]:
    """The explorer to ``to``: barriers, the space's reward or the track's end, its quest; ``also``: a
    second-to-last space whose reward (and quest) is paid too (Panamá)."""
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
    if also >= 0:
        ev.append(new_event("explore_also", f"{who(state, seat)}'s home port: the reward of space {also} too.",
                            {"seat": seat, "space": also}))
        frames += gain(state, seat, C.SPACES[also]["reward"], rng, ev, "explorer")
        q = state["track_quests"].get(str(also))
        if q and can_pay_quest(p, q):
            frames.append(frame("tquest", seat, space=also, ask=True))
    return frames


def _space_text(to: int) -> str:
    return "the end of the track" if to == C.END_SPACE else C.gain_text(C.SPACES[to]["reward"])


def _explore_options(state: State, f: Frame) -> list[Option]:
    out = []
    least = second_last(state, f["seat"])
    if least:  # Panamá: a way there and its second-to-last space; a code per way when they differ
        for to, ways in explore_ways(state, f["seat"], f["data"]["n"], least).items():
            for prev in ways:
                code = f"e{to}" if len(ways) == 1 or prev < 0 else f"e{to}b{prev}"
                also = f", and space {prev} ({_space_text(prev)})" if prev >= 0 else ""
                out.append(opt(code, f"explore to space {to} ({_space_text(to)}){also}"))
        return out
    for to in explore_targets(state, f["seat"], f["data"]["n"]):
        out.append(opt(f"e{to}", f"explore to space {to} ({_space_text(to)})"))
    return out


def _explore_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    to, _, by = o.code[1:].partition("b")
    also = int(by) if by else -1
    least = second_last(state, seat)
    if least and not by:  # the one way there (or the short way, when there are two)
        ways = explore_ways(state, seat, f["data"]["n"], least)[int(to)]
        also = ways[0] if len(ways) == 1 else -1
    stack(state).push_all(do_explore(state, seat, int(to), rng, ev, also))
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
