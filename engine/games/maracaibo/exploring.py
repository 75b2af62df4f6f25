"""The explorer track (rulebook: "Explore"): where the explorer may go, its barriers,
rewards and end, and a quest on the track (frames ``explore`` and ``tquest``).

The Uprising adds two extensions of the effect language here (docs/rules/maracaibo-uprising.md):
``explore_second_last`` (Panamá: the second-to-last space's reward too, :func:`explore_ways`) and
``second_explorer`` (Roatán: a figure on the track, ``p["explorer2"]``, moving with the explorer's
moves split between them, :func:`split_ways`).
"""

from __future__ import annotations

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import automa, jacques, jean, ruin
from . import content as C
from .board import HANDLERS, opt, stack
from .careers import with_free_actions
from .effects import add_vp, ext_effects, gain, player, who
from .quests import can_pay_quest


def explore_targets(state: State, seat: int, n: int) -> list[int]:
    """Spaces the explorer may stop on moving up to n counted spaces (occupied spaces are skipped)."""
    p = player(state, seat)
    if p["explorer"] == C.END_SPACE:
        return []
    occupied = _occupied(state, seat)
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


def _occupied(state: State, seat: int) -> set[int]:
    """The spaces the other explorers hold (and the other players' second explorer figures, Roatán:
    "pode ser ignorado por outros"): skipped, not counted."""
    occupied = ({o["explorer"] for i, o in enumerate(state["seats"]) if i != seat} | jean.explorers(state)
                | jacques.explorers(state))
    for i, o in enumerate(state["seats"]):
        if "explorer2" in o and i != seat:
            occupied.add(int(o["explorer2"]))
    return occupied


def _reach(start: int, n: int, occupied: set[int]) -> dict[int, int]:
    """Each space a piece at ``start`` may stop on in up to ``n`` counted spaces, with the fewest it counts."""
    found: dict[int, int] = {}

    def walk(space: int, steps: int) -> None:
        for nx in C.SPACES[space]["next"]:
            if nx in occupied and nx != C.END_SPACE:
                walk(nx, steps)
                continue
            if steps + 1 > n:
                continue
            if steps + 1 < found.get(nx, n + 1):
                found[nx] = steps + 1
            if nx != C.END_SPACE:
                walk(nx, steps + 1)

    if start != C.END_SPACE:
        walk(start, 0)
    return found


def split_ways(state: State, seat: int, n: int) -> list[tuple[int, int]]:
    """``second_explorer`` (Roatán): the moves of ``n`` spaces split between the explorer and the figure,
    as (explorer's space, figure's space), -1 for a piece that stays: the explorer first, then the
    figure, each like an explorer (occupied spaces skipped, the explorer's own too), the figure never
    ahead of the explorer (fewer spaces left to the end by the shortest way, Assumption A36). The
    explorer's moves alone are the frame's other options."""
    p = player(state, seat)
    if "explorer2" not in p:
        return []
    occupied = _occupied(state, seat)
    start = int(p["explorer"])
    out: list[tuple[int, int]] = []
    for a, k in [(-1, 0), *sorted(_reach(start, n - 1, occupied).items())]:
        at = start if a < 0 else a
        for b in sorted(_reach(int(p["explorer2"]), n - k, occupied | {at})):
            if automa.TO_END[b] >= automa.TO_END[at]:
                out.append((a, b))
    return out


def ruin_ways(state: State, seat: int, n: int) -> list[tuple[int, int]]:
    """The Uprising's ruin track (L32): the moves of ``n`` spaces split between the explorer and the figure on
    the ruin track, as (explorer's space or -1, the figure's space): the explorer first (up to n - 1), the
    figure the rest ("dividir esse movimento entre o seu explorador e o trabalhador")."""
    if not ruin.can_move(state, seat):
        return []
    p = player(state, seat)
    out: list[tuple[int, int]] = []
    if p["explorer"] == C.END_SPACE:
        return [(-1, b) for b in sorted(ruin.reach(state, seat, n))]
    for a, k in [(-1, 0), *sorted(_reach(int(p["explorer"]), n - 1, _occupied(state, seat)).items())]:
        out += [(a, b) for b in sorted(ruin.reach(state, seat, n - k))]
    return out


def do_figure(state: State, seat: int, to: int, rng: Rng, ev: list[Event]) -> list[Frame]:
    """Roatán's figure to ``to``: the barriers it crosses and the space's reward (no quest, no end VP:
    the track's end and its order belong to the explorer, Assumption A35)."""
    p = player(state, seat)
    start = int(p["explorer2"])
    p["explorer2"] = to
    ev.append(new_event("explore2", f"{who(state, seat)}'s home port figure moves to space {to} of the explorer "
                        "track.", {"seat": seat, "to": to}))
    frames = _barriers(state, seat, start, to, ev)
    if to != C.END_SPACE:
        frames += gain(state, seat, C.SPACES[to]["reward"], rng, ev, "explorer")
    return frames


def explore_ways(state: State, seat: int, n: int, least: int) -> dict[int, list[int]]:
    """Each space the explorer may stop on (as :func:`explore_targets`) with the second-to-last space
    moved to on each way there that counts ``least`` spaces or more; -1 for a way shorter than that
    (``explore_second_last``, Panamá: the track forks, so one target may be reached two ways)."""
    p = player(state, seat)
    if p["explorer"] == C.END_SPACE:
        return {}
    occupied = _occupied(state, seat)
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
    ruin.on_explore(state, seat, int(start), to, ev)  # (the Uprising's L31: a figure to the ruin track)
    frames = _barriers(state, seat, start, to, ev)
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


def _barriers(state: State, seat: int, start: int, to: int, ev: list[Event]) -> list[Frame]:
    """The barriers crossed moving from ``start`` to ``to``: red, 3 influence; blue and green, 4 VP for
    the first to cross, else 2."""
    p = player(state, seat)
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
        return out + _ruin_options(state, f)
    for to in explore_targets(state, f["seat"], f["data"]["n"]):
        out.append(opt(f"e{to}", f"explore to space {to} ({_space_text(to)})"))
    for a, b in split_ways(state, f["seat"], f["data"]["n"]):  # Roatán: the moves split with its figure
        explorer = f"explore to space {a} ({_space_text(a)}) and " if a >= 0 else "the explorer stays; "
        figure = "nothing" if b == C.END_SPACE else _space_text(b)
        out.append(opt(f"e{a}w{b}" if a >= 0 else f"w{b}",
                       f"{explorer}the home port's figure to space {b} ({figure})"))
    return out + _ruin_options(state, f)


def _ruin_options(state: State, f: Frame) -> list[Option]:
    """The ruin track (L32): the moves split with its figure."""
    out = []
    for a, b in ruin_ways(state, f["seat"], f["data"]["n"]):
        explorer = f"explore to space {a} ({_space_text(a)}) and " if a >= 0 else "the explorer stays; "
        out.append(opt(f"e{a}r{b}" if a >= 0 else f"r{b}",
                       f"{explorer}the ruin track's figure to space {b} ({ruin.space_text(b)})"))
    return out


def _explore_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if "r" in o.code:  # the ruin track (L32): the explorer (e<space>, or staying), then the figure (r<space>)
        a, _, b = o.code.partition("r")
        frames = do_explore(state, seat, int(a[1:]), rng, ev) if a else []
        stack(state).push_all([*frames, *ruin.do_figure(state, seat, int(b), rng, ev)])
        return ev
    if "w" in o.code:  # Roatán: the explorer (e<space>, or staying), then the figure (w<space>)
        a, _, b = o.code.partition("w")
        frames = do_explore(state, seat, int(a[1:]), rng, ev) if a else []
        stack(state).push_all([*frames, *do_figure(state, seat, int(b), rng, ev)])
        return ev
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
