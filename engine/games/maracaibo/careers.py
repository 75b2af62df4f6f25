"""Free actions (rulebook: "Free actions"): plan a card, complete a career task; and
:func:`with_free_actions`, which lets a sub-decision of a turn offer them while it asks. The
``free`` frame is the step after the main action where only free actions remain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from engine import i18n
from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler

from . import content as C
from . import search
from .board import HANDLERS, P, first_two, opt, stack
from .card_permanents import end_of_main
from .effects import add_vp, counter, gain_figure, player, said, who

_Task = tuple[int, Callable[[P], int], int, int, Option, Option]


def _career_tasks(cid: str, ci: int) -> list[_Task]:
    """A career card's tasks in slot ``ci``: (task, how its metric counts, lower, upper, then its lower
    and upper options), worked out once per card and slot (static data)."""
    key = (cid, ci)
    known = _CAREER_TASKS.get(key)
    if known is None:
        known = []
        for ti, task in enumerate(C.CAREER[cid]["tasks"]):
            num = ci * 3 + ti + 1
            known.append((ti, counter(task["metric"]), task["lower"], task["upper"],
                          opt(f"k{num}l", f"career {num} lower: {task['metric']} {task['lower']} for "
                                            f"{task['d']} d, a figure and {task['vp']} VP"),
                          opt(f"k{num}u", f"career {num} upper: {task['metric']} {task['upper']} for "
                                            f"{task['d']} d and a figure")))
        _CAREER_TASKS[key] = known
    return known


_CAREER_TASKS: dict[tuple[str, int], list[_Task]] = {}


def career_options(state: State, seat: int) -> list[Option]:
    return list(_career_options_in_order(state, seat))


def _career_options_in_order(state: State, seat: int) -> Iterator[Option]:
    p = player(state, seat)
    for ci, c in enumerate(p["careers"]):
        done = c["done"]
        for ti, count, lower, upper, opt_lower, opt_upper in (_CAREER_TASKS.get((c["id"], ci))
                                                              or _career_tasks(c["id"], ci)):
            if done[ti]:
                continue
            have = count(p)
            if have >= lower:
                yield opt_lower
            if have >= upper:
                yield opt_upper


def do_career(state: State, seat: int, code: str, ev: list[Event]) -> None:
    p = player(state, seat)
    num = int(code[1:-1]) - 1
    ci, ti = divmod(num, 3)
    careers = p["careers"][:]
    c = careers[ci]
    task = C.CAREER[c["id"]]["tasks"][ti]
    lower = code.endswith("l")
    done = c["done"][:]
    done[ti] = "lower" if lower else "upper"
    careers[ci] = c = {**c, "done": done}
    p["careers"] = careers
    p["doubloons"] += task["d"]
    got = gain_figure(p)
    text = f"{who(state, seat)} completes career task {num + 1} ({'lower' if lower else 'upper'}): {task['d']} d"
    text += ", a figure" if got else ""
    if lower:
        add_vp(p, task["vp"], "careers")
        text += f", {task['vp']} VP"
    ev.append(new_event("career", text + ".", {"seat": seat}))
    if all(c["done"]):
        p["doubloons"] += 2
        add_vp(p, 2, "careers")
        ev.append(said("admiral", i18n.text("{player} completes a career card: 2 d and 2 VP, Admiral!",
                                            player=who(state, seat)), {"seat": seat}))


def free_options(state: State, seat: int) -> list[Option]:
    return list(free_options_in_order(state, seat))


def free_options_in_order(state: State, seat: int) -> Iterator[Option]:
    p = player(state, seat)
    if len(p["plan"]) < C.PLAN_SLOTS:
        for cid in p["hand"]:
            yield _PLAN.get(cid) or _plan(cid)
    yield from _career_options_in_order(state, seat)
    if "search" in state:  # The Search: clear a red space, free Luysa
        yield from search.free_options(state, seat)


def _plan(cid: int) -> Option:
    """The option of planning a card, made once per card."""
    _PLAN[cid] = found = opt(f"p{cid}", f"plan {C.CARD[cid]['name']}")
    return found


_PLAN: dict[int, Option] = {}


def _is_free(code: str) -> bool:
    """A free action's code: plan a card (p12) or a career task (k2u)."""
    return (code[:1] == "p" and code[1:].isdigit()) or (code[:1] == "k" and code[1:-1].isdigit()
                                                         and code[-1:] in ("u", "l")) or search.is_free(code)


def do_free(state: State, seat: int, code: str, ev: list[Event]) -> bool:
    p = player(state, seat)
    if code.startswith("p") and code[1:].isdigit():
        cid = int(code[1:])
        p["hand"].remove(cid)
        p["plan"] = [*p["plan"], cid]
        ev.append(said("plan", i18n.text("{player} puts {card} in the planning area.", player=who(state, seat),
                                         card=i18n.word(C.CARD[cid]["name"])), {"seat": seat, "card": cid}))
        return True
    if code.startswith("k"):
        do_career(state, seat, code, ev)
        return True
    return search.do_free(state, seat, code, ev)


def with_free_actions(h: FunctionHandler) -> FunctionHandler:
    """A sub-decision that also offers the free actions (plan a card, a career task) while it asks.

    The rulebook allows free actions "before, during, or after your main action". A frame that
    resolves itself (one forced choice) does not stop for them: the next asking step offers them.
    """
    def options(state: State, f: Frame) -> list[Option]:
        real = h.options(state, f)
        if len(real) >= 2 or (real and f.get("ask")):
            return real + free_options(state, f["seat"])
        return real

    def resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
        ev: list[Event] = []
        if do_free(state, seat, o.code, ev):
            stack(state).push(f)  # the same decision again, after the free action
            return ev
        return h.resolve(state, f, seat, o, rng)

    def settle(state: State, f: Frame) -> list[Option]:
        real = h.settle_options(state, f)
        if len(real) >= 2:
            return real  # a prefix of options(): the frame asks
        if real and f.get("ask"):
            return real + free_options(state, f["seat"])
        return real

    return FunctionHandler(options, resolve, settle)


def _free_options(state: State, f: Frame) -> list[Option]:
    return list(_free_frame_in_order(state, f))


def _free_settle(state: State, f: Frame) -> list[Option]:
    return first_two(_free_frame_in_order(state, f))


def _free_frame_in_order(state: State, f: Frame) -> Iterator[Option]:
    yield from free_options_in_order(state, f["seat"])
    yield opt("end", "end the main phase and draw cards")


def _free_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    ev: list[Event] = []
    if do_free(state, seat, o.code, ev):
        stack(state).push(f)
    elif o.code == "end":  # the main action is over (the Uprising's village_variety scores then)
        stack(state).push_all(end_of_main(state, seat, rng, ev))
    return ev


# ---- the frames of this part (sub-decisions of a turn also offer the free actions) ----

HANDLERS["free"] = FunctionHandler(_free_options, _free_resolve, _free_settle)
