"""The bot's choice among a decision's options: each option scored by ``Ctx`` (ctx.py), the
expansion's by uprising.py, small seeded noise breaking ties."""

from __future__ import annotations

import random
from collections.abc import Mapping

from engine.core import Option, State

from .. import campaign, coop, search
from .. import content as C
from .. import legacyboard as LB
from .. import uprising_content as C_U
from ..actions import three_cards
from ..board import hand_limit, last_round
from ..combat import fight_value
from ..effects import count_of, perm
from ..sailing import passage_targets, sail_targets, village_count
from . import cards_ext
from .ctx import _BLIND_DRAW, Ctx

# ---- choosing ---------------------------------------------------------------------------------------

def _is_free(kind: str, code: str) -> bool:
    if kind == "setup":
        return False
    return (code[:1] == "p" and code[1:].isdigit()) or (code[:1] == "k" and code[1:-1].isdigit()
                                                         and code[-1:] in ("u", "l")) or search.is_free(code)


def _search_choice(ctx: Ctx, free: list[Option]) -> Option | None:
    """The Search, played for the table: free Luysa at once; clear a red space when both are full
    (no hint can be revealed), paying the card worth least."""
    if any(o.code == "luysa" for o in free):
        return next(o for o in free if o.code == "luysa")
    clears = [o for o in free if o.code.startswith("lh")]
    if clears and None not in ctx.state["search"]["red"]:
        return min(clears, key=lambda o: (ctx.buy_net(int(o.code.split("c")[1])), o.code))
    return None


def _free_choice(ctx: Ctx, kind: str, free: list[Option]) -> Option | None:
    """A career task or a card to plan, when it is worth doing now."""
    p = ctx.p
    if "search" in ctx.state and (pick := _search_choice(ctx, free)) is not None:
        return pick
    for o in free:
        if o.code.startswith("k") and o.code.endswith("l"):
            return o
    for o in free:
        if o.code.startswith("k") and o.code.endswith("u"):
            num = int(o.code[1:-1]) - 1
            ci, ti = divmod(num, 3)
            task = C.CAREER[p["careers"][ci]["id"]]["tasks"][ti]
            have = count_of(p, task["metric"])
            if last_round(ctx.state) or (ctx.left <= 2 and have * 2 < task["lower"]):
                return o
    if kind == "free" and len(p["plan"]) < C.PLAN_SLOTS:
        plans = [o for o in free if o.code.startswith("p")]
        if plans:
            best = max(plans, key=lambda o: ctx.buy_net(int(o.code[1:])) - ctx.goods_value(int(o.code[1:])))
            cid = int(best.code[1:])
            if ctx.buy_net(cid) > max(1.0, ctx.goods_value(cid)) or len(p["hand"]) >= hand_limit(p):
                return best
    return None


def _score(ctx: Ctx, kind: str, o: Option, steps: dict[str, int], village: dict[str, float]) -> float:
    st = ctx.state
    p = ctx.p
    code = o.code
    if kind == "sail":  # (the Uprising: x<loc> by the 13-2 passage, a disc off the ship; the new city's toll)
        loc = code[1:]
        v = ctx.sail_value(loc, steps[loc]) if code[0] == "s" else \
            ctx.sail_value(loc, dict(passage_targets(st, ctx.seat))[loc]) + ctx.disc_value()
        return v + ctx.toll_value() if loc == LB.city_loc(st) and LB.toll_due(st, ctx.seat) else v
    if kind == "newcity":  # the Uprising's L30: which influence marker to give up
        return ctx.give_up_value(next(n for n in C.NATIONS if n[0] == code[1]))
    if kind == "legacydisc":  # the Uprising's L33: a disc to the 21a outpost, then a village action
        return ctx.outpost_value() if code == "yes" else 0.0
    if kind == "setup" and code.startswith("h"):  # the Uprising: the home port to keep
        return ctx.port_value(code[1:])
    if kind == "again":  # the Uprising: Porto's identical good discarded for combat points
        return ctx.again_value(code)
    if kind in cards_ext.KINDS:  # the Uprising's card actions, city tiles and promos
        return cards_ext.score(ctx, kind, code, st["stack"][-1]["data"])
    if kind == "resist":  # the Uprising: a liberated marker to the resistance tile
        d = st["stack"][-1]["data"]
        return ctx.resist_space(int(code[1:]), int(d["times"]))
    if kind == "portbonus":  # the Uprising: pay for the home port's bonus, or lose it
        hp = C_U.PORT[p["port"]]
        got = hp["bonus"]["gain"]
        worth = got.get("vp", 0) + (ctx.best_inf(got["inf"]) if "inf" in got else 0.0)
        return worth - hp["bonus"]["pay"]["d"] * ctx.dv if code == "yes" else 0.0
    if kind == "setup":
        cid = int(code[1:])
        if code.startswith("p"):
            return ctx.card_gain(cid) - 0.3 * ctx.cost(cid) * ctx.dv
        return ctx.keep_value(cid)
    if kind in ("main", "village", "score"):
        if code in village:
            return village[code]
        if code.startswith("d") and code[1:] in C.GOODS:
            value, good, reward = ctx.delivery(p["at"])
            if good != code[1:]:
                m = C.LOC[p["at"]]["market"]
                reward = m["rewards"][len(st["market"][p["at"]])] + perm(p, "deliver_d")
                card = min(three_cards(p, code[1:]), key=ctx.keep_value)  # (its cards: sugar too, Cayman)
                value = reward * ctx.dv + ctx.disc_value() - ctx.keep_value(card)
            return value + ctx.city_value(p["at"], int(p["doubloons"]) + reward)
        if code == "city":
            return ctx.city_value(p["at"])
        if code == "quest":
            return ctx.quest_value(st["quests"][p["at"]])
        if code.startswith("a") and code[1:].isdigit():
            return ctx.gain_value(cards_ext.assistant_gain(st, int(code[1:])))
        if code == "hfight":
            return ctx.fight_estimate()
        if code == "hexplore":
            return ctx.best_explore(2)
        if code == "vp2":
            return 2.0
        if code.startswith("w"):  # a campaign disc tile: its gain for its doubloons, and the story's progress
            return ctx.gain_value(campaign.DISC_TILE[code[1:]]["gain"]) - ctx.dv + 3.0
        if code in ("pass", "done"):
            return 0.0
        return 0.1
    if kind == "disc":
        return ctx.disc_choice_value("U" + code[1:])
    if kind == "nation":
        nation = next(n for n in C.NATIONS if n[0] == code[1])
        v = ctx.inf_value(nation, int(st["stack"][-1]["data"]["n"]))
        if "place" in st["stack"][-1]["data"]:
            v += ctx.marker_value(nation)
        return v
    if kind == "explore" and "r" in code:  # the Uprising's ruin track (L32): e10r2 / r2, its figure to 2
        head, _, to = code.partition("r")
        return (ctx.explore_value(int(head[1:])) if head else 0.0) + ctx.ruin_value(int(to))
    if kind == "ruinpay":  # the Uprising's ruin track: which cards pay its space's objects for a revealed card
        return 0.0 if code == "no" else ctx.reveal_value() - sum(ctx.keep_value(int(c)) for c in code[1:].split("-"))
    if kind == "explore":  # (the Uprising: e10b9 Panamá's way by space 9; e10w8 / w8 Roatán's figure to 8)
        head, _, fig = code.partition("w")
        to, _, by = head[1:].partition("b")
        v = ctx.explore_value(int(to)) if to else 0.0
        for extra in (by, fig):
            if extra and int(extra) != C.END_SPACE:
                v += ctx.gain_value(C.SPACES[int(extra)]["reward"])
        return v
    if kind == "tquest":
        return ctx.quest_value(st["track_quests"][str(st["stack"][-1]["data"]["space"])]) if code == "quest" else 0.0
    if kind == "trade":  # the Uprising: the cards that pay the home port's village trade
        return -sum(ctx.keep_value(int(c)) for c in code[1:].split("-"))
    if kind == "pay":
        if code == "ypay":
            return 0.0
        return -sum(ctx.keep_value(int(c)) for c in code[1:].split("-"))
    if kind == "fight" and code.startswith("a"):  # the Uprising: against a nation, to liberate
        return ctx.against_value(next(n for n in C.NATIONS if n[0] == code[1]), st["stack"][-1]["data"]["token"])
    if kind == "against":
        return ctx.liberate_option(code, st["stack"][-1]["data"])
    if kind == "liberation":  # the Liberation module (79)
        return ctx.liberation_option(code, st["stack"][-1]["data"])
    if kind == "fight":
        nation = next(n for n in C.NATIONS if n[0] == code[1])
        token = st["stack"][-1]["data"]["token"]
        reward = C.TOKEN[token]["reward"][nation] if token else {}
        value = fight_value(st, token, nation, p)
        return ctx.gain_value(reward, nation) + ctx.combat_plan(nation, value, [])
    if kind == "combat":
        data = st["stack"][-1]["data"]
        if code == "cend":
            return 0.0
        for c, cost, g in ctx.combat_gains(data["nation"], data["used"]):
            if c == code or (c == "cv" and code.startswith("cv")):
                return g - ctx.shortfall_cost(cost - int(data["value"])) - 0.05 * cost
        if code[:2] in ("ca", "cd", "cv", "cw"):  # another place than the best: its own flag
            loc = code[2:]
            cost = {"ca": 4, "cd": 6, "cv": 2, "cw": 5}[code[:2]]
            nation = data["nation"]
            g = ctx.inf_value(nation, 1) + ctx.marker_value(nation)
            if code[:2] in ("ca", "cd"):
                g += ctx.flag_value(loc)
            return g - ctx.shortfall_cost(cost - int(data["value"])) - 0.05 * cost - 0.01 * int(loc.rstrip("ab"))
        if code.startswith("ch"):  # the Uprising: a home port's combat action
            e = C_U.PORT["HP" + code[2:]]["effects"][0]
            g = ctx.gain_value({k: v for k, v in e["gain"].items() if k != "inf"}) + ctx.inf_value(
                str(e["nation"]), int(e["gain"].get("inf", 0)))
            return g - ctx.shortfall_cost(int(e["cost"]) - int(data["value"])) - 0.05 * int(e["cost"])
        return -1.0
    if kind == "short":  # the combat value missing: combat points are cheaper to give than figures
        figs = int(st["stack"][-1]["data"]["need"]) - int(code[2:])
        return -(0.3 * int(code[2:]) + 2.5 * figs)
    if kind == "three":  # U9: discard the three cards of the good worth least kept
        return -sum(sorted(ctx.keep_value(c) for c in three_cards(p, code[1:]))[:3])
    if kind == "u11":
        if code == "explore":
            return ctx.best_explore(3)
        if code == "money":
            return 4 + 4 * ctx.dv
        return max(ctx.inf_value(n, (C.next_rank_at(int(p["influence"][n])) or 99) - int(p["influence"][n]))
                   for n in C.NATIONS if C.next_rank_at(int(p["influence"][n])) is not None)
    if kind == "rankup":
        nation = next(n for n in C.NATIONS if n[0] == code[1])
        at = C.next_rank_at(int(p["influence"][nation])) or int(p["influence"][nation])
        return ctx.inf_value(nation, at - int(p["influence"][nation]))
    if kind == "yesno":
        what = st["stack"][-1]["data"]["what"]
        if what == "discard":
            return 4 * ctx.dv - sum(ctx.keep_value(c) for c in p["hand"]) if code == "yes" else 0.0
        if what == "assistants":
            return 4 * ctx.dv if code == "yes" else 2.0
        return 6 * ctx.dv + ctx.best_inf(1) - 0.8 if code == "yes" else 0.0
    if kind == "draw":
        if code == "pile":
            return _BLIND_DRAW
        cid = st["display"][int(code[1:]) - 1]
        return ctx.keep_value(cid) - (0.0 if "U3" in p["areas"] else ctx.dv)
    if kind == "pile":
        return float(len(st["piles"][int(code[1]) - 1])) if code.startswith("t") else 0.0
    ext = ctx.card_frame_value(kind, code, st["stack"][-1]["data"])  # the Uprising's card extensions
    return 0.0 if ext is None else ext


def _village_scores(ctx: Ctx, kind: str, options: list[Option]) -> dict[str, float]:
    """For the village actions among ``options``: the value of the best sequence that starts with each."""
    p = ctx.p
    st = ctx.state
    if kind == "main":
        n = village_count(p, int(st["stack"][-1]["data"]["spent"])) if ctx.kind(p["at"]) == "village" else 1
    elif kind == "village":
        n = int(st["stack"][-1]["data"]["left"])
    else:
        n = 1
    used = st["stack"][-1]["data"].get("used", []) if kind == "village" else []
    here = p["at"] if "vR" not in used else None  # the resistance tile's village action, once
    specials = {**ctx.special_village(), "vR": ctx.resist_village_value(p["at"])}
    out: dict[str, float] = {}
    for o in options:
        code = o.code
        if code.startswith("b") and code[1:].isdigit():
            cid = int(code[1:])
            own = ctx.buy_net(cid)
            out[code] = own + (ctx.village_plan(n - 1, int(p["doubloons"]) - ctx.cost(cid), here) if n > 1 else 0.0)
        elif code.startswith("i"):
            pb = C.PRESTIGE[code[1:]]
            b = next(x for x in st["prestige"] if x["id"] == code[1:])
            count = count_of(p, pb["per"])
            growth = {"quest": 1.0, "combat": 1.0, "synergy": 0.8, "upgrade": 1.5, "display": 2.0, "rank": 0.8,
                      "assistant": 0.5, "explorer5": 0.8, "display3": 0.7}[pb["per"]] * ctx.interims
            own = (pb["vp"] * (count + growth) + (2 if not b["investors"] else 0) + 1.0
                   - pb["cost"] * ctx.dv - 2.0)
            out[code] = own + (ctx.village_plan(n - 1, int(p["doubloons"]) - pb["cost"], here) if n > 1 else 0.0)
        elif code == "vd":
            out[code] = ctx.dv + (ctx.village_plan(n - 1, int(p["doubloons"]) + 1, here) if n > 1 else 0.0)
        elif code.startswith("v") and code not in used:
            out[code] = specials.get(code, 0.0) + (
                ctx.village_plan(n - 1, loc=None if code == "vR" else here) if n > 1 else 0.0)
    return out


#: the bot playing as a table in the cooperative scenarios (74, 193): the liberations, the table's goal,
#: weigh most (measured by bench/coop.py: 12 against 1 leaves about 2 markers instead of 16 with three players);
#: ``team`` plays for the card's conditions beyond what a seat scores (bot/uprising.py: a marker off the board,
#: combat points while markers or Luysa wait, the hints and Luysa's prison; 0, the competitive bot's, ignores them)
COOP_WEIGHTS: dict[str, float] = {"uprising": 12.0, "team": 1.0}


def choose(state: State, seat: int, options: list[Option], rnd: random.Random,
           weights: Mapping[str, float] | None = None) -> Option:
    """The bot's choice among ``options`` (``weights``: some of WEIGHTS changed, for self-play tests;
    by default in a cooperative game the table's, :data:`COOP_WEIGHTS`)."""
    if weights is None and coop.cooperative(state):
        weights = COOP_WEIGHTS
    kind = state["stack"][-1]["kind"] if state["stack"] else ""
    free: list[Option] = []
    real: list[Option] = []
    for o in options:
        (free if _is_free(kind, o.code) else real).append(o)
    if not free and len(real) == 1:
        return real[0]
    ctx = Ctx(state, seat, weights)
    if free:
        pick = _free_choice(ctx, kind, free)
        if pick is not None or not real:
            return pick or free[0]
    if len(real) == 1:
        return real[0]
    if kind == "free":
        return next(o for o in real if o.code == "end")
    if kind == "vote":  # the campaign's votes (campaign.py): the bot has no opinion on the story
        return real[rnd.randrange(len(real))]
    if kind == "hint":  # The Search: the table always looks
        return next(o for o in real if o.code == "hint")
    if kind == "ransom":  # The Search: the first player who can pays (doubloons score nothing at the end)
        return next(o for o in real if o.code == "ransom")
    if kind in ("short", "three"):  # a payment: its cheapest way, without noise (the bot's random draws unchanged)
        return max(real, key=lambda o: _score(ctx, kind, o, {}, {}))
    steps = dict(sail_targets(state, seat)) if kind == "sail" else {}
    village = _village_scores(ctx, kind, real) if kind in ("main", "village", "score") else {}
    return max(real, key=lambda o: _score(ctx, kind, o, steps, village) + rnd.random() * 0.3)
