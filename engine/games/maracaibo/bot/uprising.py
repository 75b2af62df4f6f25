"""The bot's values of the Uprising's decisions (scenarios 78 and 79): fighting against a nation,
liberating, the resistance tile, the home ports."""

from __future__ import annotations

from .. import content as C
from .. import resistance as RES
from .. import uprising as UP
from .ctx import Ctx


def liberate_value(ctx: Ctx, code: str) -> float:
    """The Uprising's Liberate City / Village: its VP and doubloons, a resistance space, its cost."""
    if code == "cend":
        return 0.0
    st = ctx.state
    data = st["stack"][-1]["data"]
    loc = code[2:]
    if code.startswith("lc"):
        a = UP.CITY
        g = 3 * ctx.dv + UP.occupied_cities(st)
    else:
        a = UP.VILLAGE
        g = 3.0 * UP.occupied_neighbours(st, loc)
    if "resist" in ctx.p and RES.free_spaces(ctx.p, str(st["markers"][loc])):
        g += max(ctx.gain_value(RES.SPACES[n]) for n in RES.free_spaces(ctx.p, str(st["markers"][loc])))
    return g - ctx.shortfall_cost(int(a["cost"]) - int(data["value"])) - 0.05 * int(a["cost"])


def against_value(ctx: Ctx, code: str) -> float:
    st = ctx.state
    nation = next(n for n in C.NATIONS if n[0] == code[1])
    token = st["stack"][-1]["data"]["token"]
    value = UP.against_value(st, token, nation, ctx.p)
    reward = UP._against_reward(token, nation)
    targets = [loc for loc, n in st["markers"].items() if n == nation]
    best = max((6 - value if ctx.kind(loc) == "city" else 4 - value) for loc in targets) if targets else 99
    return ctx.gain_value(reward) + (4.0 - max(0, best) * 0.8 if targets else -5.0)

