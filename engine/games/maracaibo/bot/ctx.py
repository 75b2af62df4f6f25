"""The bot's values: what each thing is worth to one seat now, in victory points (``Ctx``).

Read by ``choose.py`` (the choice among options) and ``uprising.py`` (the expansion's values).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core import State

from .. import citytiles as CT
from .. import content as C
from .. import homeports as HP
from .. import legacyboard as LB
from .. import uprising_content as C_U
from ..board import city_action, has_marker, last_round, loc_kind, multiplier, window_closed
from ..cards import can_buy
from ..effects import compass, count_of, perm, player
from ..exploring import explore_targets
from ..quests import can_pay_quest, quest_payments
from ..sailing import village_count
from ..ship import disc_areas
from . import cards_ext
from .cards import CardValues
from .uprising import UprisingValues

#: the value of a ship area once completed (VP now plus its use over a whole game, scaled by what is left)
_AREA_NOW = {"U3": 3.0, "U4": 0.0, "U5": 6.0, "U11": 6.0, "U12": 10.0}
_AREA_USE = {"U1": 2.2, "U2": 1.0, "U3": 0.5, "U6": 0.6, "U7": 0.3, "U8": 0.4, "U9": 0.3, "U10": 0.8}
#: an area's use on the other side of its tile, by the side shown (``p["combat_tile"]``), in place of _AREA_USE's.
#: The Liberation turns the combat action tile (U6) to its U side: one more liberation a turn (city 3 / village
#: 2), not the base game's village annex. Its use: the bot's own ``liberation_plan`` with U6 against without it,
#: at the first liberation of each turn in 79 (30 games of 2, 3, 4 players, seed m1): +2.5-2.9 VP a combat,
#: 1.3-1.4 combats a player a round, so 3.3-4.0 VP a round left. 3.3 taken: against 1.6 in self-play (bench/
#: uprising_balance.py --ab, 79, 2-4 players, 240 games each way) a seat valuing it higher won more, one valuing
#: it lower did not (docs/rules/maracaibo-uprising-balance-2.md, "The combat action tile's U side").
_AREA_USE_SIDE: dict[str, dict[str, float]] = {"liberation": {"U6": 3.3}}
#: the expected value of a card drawn blind, against which a display card is judged
_BLIND_DRAW = 2.2
#: what each kind of value is multiplied by. The explorer and quest weights were fitted by self-play
#: (``bench/maracaibo_balance.py --ab explorer=1.5,quests=1.5`` against the weights all 1: 60 % of 100
#: two-player games); the balance check scales the others to see whether leaning on one source pays
WEIGHTS: dict[str, float] = {"influence": 1.0, "cards": 1.0, "discs": 1.0, "explorer": 1.5, "quests": 1.5,
                             "uprising": 1.0, "team": 0.0}


def _reach(start: str) -> set[str]:
    """Every location ahead of ``start`` on the route this round."""
    seen: set[str] = set()
    todo = [start]
    while todo:
        for n in C.LOC[todo.pop()]["next"]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen


_AHEAD = {loc: _reach(loc) for loc in C.LOC}


def _dist_home(start: str) -> int:
    """Locations between ``start`` and the round's end space (21a/21b), the shortest way."""
    frontier, steps, seen = {start}, 0, {start}
    while frontier:
        if frontier & {"21a", "21b"}:
            return steps
        nxt = {n for loc in frontier for n in C.LOC[loc]["next"]} - seen
        seen |= nxt
        frontier = nxt
        steps += 1
    return 0


_HOME = {loc: _dist_home(loc) for loc in C.LOC}

#: every location's kind (``loc_kind``), which depends only on the legacy tiles in play and the player count
_KINDS: dict[tuple[tuple[str, ...], tuple[str, ...], int], dict[str, str]] = {}


#: flags whose bonus is only VP, doubloons and combat points: their value depends on the doubloon rate and
#: the room left on the combat track alone, and is kept by (location, rate, room) across decisions
_SIMPLE_FLAGS = {loc for loc in C.FLAGS if C.LOC[loc].get("flag") and set(C.LOC[loc]["flag"]) <= {"vp", "d", "cp"}}
_FLAG_V: dict[tuple[str, float, int], float] = {}


#: ``disc_areas`` by (which areas still hold discs, the areas completed): it depends on nothing else
_DISC_AREAS: dict[tuple[tuple[bool, ...], tuple[str, ...], bool, bool], list[str]] = {}


def _kinds(state: State) -> dict[str, str]:
    key = (tuple(state.get("legacy", ())), tuple(state.get("legacy_new", ())), len(state["players"]))
    kinds = _KINDS.get(key)
    if kinds is None:
        kinds = _KINDS[key] = {loc: loc_kind(state, loc) for loc in C.LOC}
    return kinds



class Ctx(UprisingValues, CardValues):
    """What one decision needs, computed once: the seat's own part and the public board."""

    def __init__(self, state: State, seat: int, weights: Mapping[str, float] | None = None) -> None:
        self.w = WEIGHTS if weights is None else {**WEIGHTS, **weights}
        self.state = state
        self.seat = seat
        self.p = p = player(state, seat)
        rounds, rnd = int(state["rounds"]), int(state["round"])
        self.left = rounds - rnd + 1          # scorings still to come, the final one included
        self.interims = rounds - rnd          # interim scorings (doubloon income) still to come
        # a round is about five or six turns; the rest of this one is guessed from how far the leader is
        others = [o["at"] for i, o in enumerate(state["seats"]) if i != seat] or [p["at"]]
        lead = min(_HOME.get(at, 0) for at in [*others, p["at"]])
        self.lead = lead
        self.round_turns = max(1.0, lead / 3.5)
        self.turns = self.interims * 5.5 + self.round_turns
        self.dv = (0.75, 0.7, 0.62, 0.5)[min(3, max(0, 4 - self.left))] if self.turns > 1.5 else 0.3
        self._cards: dict[int, float] = {}
        self._disc: float | None = None
        self._mult: dict[str, int] | None = None
        self._flags: list[tuple[float, str]] | None = None
        self._inf: dict[tuple[str, int], float] = {}
        self._fight: float | None = None
        self._buyable: list[tuple[float, int, int, int]] | None = None
        self._gains: dict[str, list[tuple[str, int, float, str]]] = {}
        self._special: dict[str, float] | None = None
        # per-decision memos (the state does not change while one decision is made). Values that may be
        # asked for while a card's value is still provisional (see card_gain) are kept only when no
        # card_gain is under way (``_depth`` 0), so that every memo holds what a fresh computation gives
        self._depth = 0
        self._kinds = _kinds(state)
        self._flag_v: dict[str, float] = {}
        self._best_other: dict[str, int] = {}
        self._discount = perm(p, "discount")
        self._disp: list[tuple[float, str, str]] | None = None
        self._areas: list[str] | None = None
        self._net: dict[int, float] = {}
        self._goods: dict[int, float] = {}
        self._keep: dict[int, float] = {}
        self._explore: dict[int, float] = {}
        self._quest: dict[tuple[str, bool], float] = {}
        self._plans: dict[tuple[int, int, str | None], float] = {}
        self._city: dict[tuple[str, int], float] = {}
        self._delivery: dict[str, tuple[float, str | None, int]] = {}
        self._combat: dict[tuple[str, int, tuple[str, ...]], float] = {}
        self.markets = {loc: C.LOC[loc]["market"] for loc in _AHEAD[p["at"]]
                        if "market" in C.LOC[loc] and self.kind(loc) == "city"
                        and len(state["market"][loc]) < len(C.LOC[loc]["market"]["rewards"])}

    # ---- basic rates ----------------------------------------------------------------------------

    def cost(self, cid: int) -> int:
        """``card_cost`` with the player's discount read once."""
        return max(0, int(C.CARD[cid]["cost"]) - self._discount)

    def kind(self, loc: str) -> str:
        return self._kinds[loc]

    def flag_value(self, loc: str) -> float:
        """What a location's flag bonus is worth (doubloons, VP or combat points: no card values in it)."""
        v = self._flag_v.get(loc)
        if v is None:
            if loc in _SIMPLE_FLAGS:
                key = (loc, self.dv, C.COMBAT_MAX - int(self.p["combat_points"]))
                v = _FLAG_V.get(key)
                if v is None:
                    v = _FLAG_V[key] = self.gain_value(C.LOC[loc]["flag"])
            else:
                v = self.gain_value(C.LOC[loc]["flag"])
            self._flag_v[loc] = v
        return v

    def open(self, loc: str) -> bool:
        """``open_to`` with the location's kind memoised."""
        return self.kind(loc) != "off" and self.p["explorer"] >= C.LOC[loc].get("explorer", 0)

    def disc_areas(self) -> list[str]:
        if self._areas is None:
            p = self.p
            discs = p["discs"]
            key = (tuple(discs[u["id"]] == 0 for u in C.UPGRADES), tuple(p["areas"]),
                   discs.get("UR", 0) > 0, discs.get("UH", 0) > 0)  # (the Uprising's new board's slots)
            areas = _DISC_AREAS.get(key)
            if areas is None:
                areas = _DISC_AREAS[key] = disc_areas(p)
            self._areas = areas
        return self._areas

    def mult(self, nation: str) -> float:
        if self._mult is None:
            self._mult = multiplier(self.state)
        return min(9.0, self._mult[nation] + 0.8 * self.interims + 0.4)

    def inf_value(self, nation: str, k: int) -> float:
        key = (nation, k)
        if key not in self._inf:
            as_vp = self.influence_as_vp(k)  # the Liberation module: influence is VP
            self._inf[key] = (self._inf_value(nation, k) if as_vp is None else as_vp) * self.w["influence"]
        return self._inf[key]

    def _inf_value(self, nation: str, k: int) -> float:
        p = self.p
        inf = int(p["influence"][nation])
        new = min(C.INFLUENCE_MAX, inf + k)
        m = self.mult(nation)
        v = 2.0 * (inf + k - new) + m * (0.65 * (new - inf) / 3 + 0.35 * (C.rank(new) - C.rank(inf)))
        best_other = self._best_other.get(nation)
        if best_other is None:
            best_other = self._best_other[nation] = max(
                (int(o["influence"][nation]) for i, o in enumerate(self.state["seats"]) if i != self.seat), default=0)
        if inf <= best_other < new:
            v += 1.5
        elif inf > best_other:
            v += 0.2
        return v

    def best_inf(self, k: int) -> float:
        return max(self.inf_value(n, k) for n in C.NATIONS)

    def explore_value(self, to: int) -> float:
        return self.w["explorer"] * self._explore_value(to)

    def _explore_value(self, to: int) -> float:
        p = self.p
        start = int(p["explorer"])
        v = 0.45 * (to - start)
        for at, colour in C.BARRIERS.items():
            if start < at <= to:
                v += self.best_inf(3) if colour == "red" else (4.0 if not self.state["first"][colour] else 2.0)
        if to == C.END_SPACE:
            vps = C.EXPLORER_DATA["end_vp"]
            v += vps[min(self.state["ended"], len(vps) - 1)] + 1.0
        else:
            v += self.gain_value(C.SPACES[to]["reward"], explore=False)
            q = self.state["track_quests"].get(str(to))
            if q and can_pay_quest(p, q):
                v += max(0.0, 0.8 * self.quest_value(q, deep=False))
        return v

    def best_explore(self, n: int) -> float:
        v = self._explore.get(n)
        if v is None:
            targets = explore_targets(self.state, self.seat, n)
            v = max((self.explore_value(t) for t in targets), default=0.0)
            if not self._depth:
                self._explore[n] = v
        return v

    def area_value(self, uid: str) -> float:
        """A ship area's value once completed (a weight named by the area's id, for the balance check's
        self-play only, adds that many VP to it; none is set by default)."""
        v = self._area_value(uid) * self.w["discs"]
        return v + self.w[uid] if uid in self.w else v

    def _area_value(self, uid: str) -> float:
        use = _AREA_USE_SIDE.get(str(self.p.get("combat_tile")), _AREA_USE).get(uid, _AREA_USE.get(uid, 0.0))
        v = _AREA_NOW.get(uid, 0.0) + use * self.left
        if uid == "U4":
            v += (3 * self.dv + 0.5 * self.left) if "board" in self.p else 5 * self.dv  # the Uprising's: a compass
        if uid == "UR":  # the Uprising's resistance tile: 5 doubloons, or 4 and its village action
            v += (4 * self.dv + 0.8 * self.left) if "resist" in self.p else 5 * self.dv
        if uid == "UH":  # the Uprising's home port: its bonus and its ongoing effect
            v += 2.0 + self.port_value(str(self.p.get("port"))) * 0.5 * self.left
        if uid == "U7":
            v += 0.3 * self.left * len(self.p["assist"])
        if uid == "U3" and "U5" not in self.p["areas"]:
            v += 2.0  # it opens U5
        v += 1.0  # one more area: U11, U12, careers and the Shipyard count them
        return v

    def disc_choice_value(self, uid: str) -> float:
        left = int(self.p["discs"][uid])
        v = self.area_value(uid)
        return v if left == 1 else 0.45 * v

    def disc_value(self) -> float:
        """What removing one disc is worth now (the best area it can come from)."""
        if self._disc is None:
            areas = self.disc_areas()
            self._disc = max((self.disc_choice_value(u) for u in areas), default=0.0)
        return self._disc

    def gain_value(self, g: dict[str, Any], nation: str | None = None, explore: bool = True) -> float:
        mult = count_of(self.p, g["per"]) if "per" in g else 1
        v: float = g.get("vp", 0) * mult + g.get("d", 0) * mult * self.dv
        cp, room = g.get("cp", 0), C.COMBAT_MAX - int(self.p["combat_points"])
        if cp or room < 0:  # (adding 0.0 changes nothing)
            v += self.cp_gain_worth() * min(cp, room)
        if g.get("fig"):
            v += 2.0 * min(g["fig"], C.FIGURES_MAX - int(self.p["figures_owned"]))
        if "draw" in g:
            v += 1.0 * g["draw"]
        if g.get("inf"):
            v += self.inf_value(nation, g["inf"]) if nation else self.best_inf(g["inf"])
        if g.get("explore"):
            v += self.best_explore(g["explore"]) if explore else 0.8 * g["explore"]
        if g.get("disc"):
            v += self.disc_value() * min(g["disc"], 2) * 0.9
        return v

    # ---- cards ----------------------------------------------------------------------------------

    def card_gain(self, cid: int) -> float:
        """What owning a card is worth, before its price."""
        if cid in self._cards:
            return self._cards[cid]
        self._depth += 1
        try:
            return self._card_gain(cid)
        finally:
            self._depth -= 1

    def _card_gain(self, cid: int) -> float:
        p = self.p
        c = C.CARD[cid]
        turns = self.turns
        v = float(c["vp"])
        self._cards[cid] = v  # a provisional value: a quest reached by exploring may ask for this card again
        for e in c["effects"]:
            t = e["t"]
            ext = cards_ext.card_value(self, cid, e) if "ext" in e else None
            if ext is not None:  # the Uprising's card actions (cards_ext.py)
                v += ext
            elif "ext" in e and t in ("income", "perm"):  # the Uprising's extensions (bot/cards.py)
                v += self.ext_card_value(e)
            elif t == "income":
                factor = 1.0 if not e.get("needs") or e["needs"] in p["synergy"] else 0.35
                if "d" in e:
                    v += factor * e["d"] * (self.interims * self.dv + 0.5)
                else:
                    v += factor * e["vp"] * self.left
            elif t == "now" and "ext" in e:  # the Uprising's extensions (bot/cards.py)
                v += self.now_ext_value(e)
            elif t == "now":
                v += self.gain_value(e["gain"])
            elif t == "village":
                v += max(0.0, self.gain_value(e["gain"], explore=False) - self.dv) * turns * 0.45
            elif t == "combat":
                v += max(0.0, self.combat_effect_gain(e, explore=False) - 0.3 * e["cost"]) * turns / 7
            elif t == "assistant":
                uses = self.interims * 0.6 + (0.3 if c["assist"] in _AHEAD[p["at"]] else 0.0)
                v += self.gain_value(e["gain"], explore=False) * uses + 0.5
            elif t == "perm":
                k, n = e["k"], e["n"]
                v += n * {"discount": 0.6 * turns * self.dv, "compass": 0.45 * turns, "quest_vp": 0.2 * turns,
                          "deliver_d": 0.3 * turns * self.dv, "combat_plus": 0.12 * turns}[k]
        syn = c.get("synergy")
        if syn and syn not in p["synergy"]:
            v += 1.0
            for own in p["display"]:
                for e in C.CARD[own]["effects"]:
                    if e["t"] == "income" and e.get("needs") == syn:
                        v += e.get("d", 0) * (self.interims * self.dv + 0.5) + e.get("vp", 0) * self.left
        if c.get("figure"):
            v -= 1.8
        if "cost_goods" in c or "nation_worker" in c or "token_worker" in c:  # the Uprising's requirements
            v -= self.requirement_cost(c)
        if c.get("assist"):
            v -= 1.2
        self._cards[cid] = v
        return v

    def buy_net(self, cid: int) -> float:
        v = self._net.get(cid)
        if v is None:
            # (a card whose buying window has closed, board.window_closed, gains nothing: kept for its good or
            # object alone, never planned, discarded first)
            gain = 0.0 if window_closed(self.state, cid) else self.card_gain(cid) * self.w["cards"]
            v = gain - self.cost(cid) * self.dv
            if not self._depth:
                self._net[cid] = v
        return v

    def goods_value(self, cid: int) -> float:
        """What a hand card is worth as a good or an object: a delivery or a quest on the route."""
        v = self._goods.get(cid)
        if v is None:
            v = self._goods[cid] = self._goods_value(cid)  # no card values in it: always kept
        return v

    def _goods_value(self, cid: int) -> float:
        c = C.CARD[cid]
        v = 0.6
        if any(c["good"] in m["goods"] for m in self.markets.values()):
            v = 0.55 * (2.5 * self.dv + self.disc_value())
        for loc, q in self.state["quests"].items():
            if loc in _AHEAD[self.p["at"]]:
                cost = C.QUEST[q]["cost"]
                if c["good"] in cost.get("goods", ()) or c["object"] in cost.get("objects", ()):
                    v += 1.0
                    break
        return v

    def keep_value(self, cid: int) -> float:
        v = self._keep.get(cid)
        if v is None:
            v = max(self.buy_net(cid), self.goods_value(cid))
            if not self._depth:
                self._keep[cid] = v
        return v

    # ---- main actions -------------------------------------------------------------------------

    def quest_value(self, qid: str, deep: bool = True) -> float:
        key = (qid, deep)
        v = self._quest.get(key)
        if v is None:
            v = self.w["quests"] * self._quest_value(qid, deep)
            if not self._depth:
                self._quest[key] = v
        return v

    def _quest_value(self, qid: str, deep: bool = True) -> float:
        p = self.p
        q = C.QUEST[qid]
        k = compass(p)
        v: float = self.gain_value({key: n * k for key, n in q["per"].items()}, explore=deep)
        v += self.gain_value(q["fixed"], explore=deep)
        v += perm(p, "quest_vp") + 1.0
        cost = q["cost"]
        v -= cost.get("d", 0) * self.dv + cost.get("cp", 0) * 0.4 + cost.get("fig", 0) * 2.0
        ways = quest_payments(p, cost)
        if ways and ways[0]:
            v -= min(sum(self.keep_value(c) for c in cs) for cs in ways)
        return v

    def buyable(self) -> list[tuple[float, int, int, int]]:
        """(value net of price, card, price, figures it needs) for the cards in hand and plan, best first."""
        if self._buyable is None:
            p = self.p
            rich = p if p["doubloons"] >= 0 else {**p, "doubloons": 10 ** 6}  # with the price given as 0: money aside
            out = []
            for c in [*p["hand"], *p["plan"]]:
                if can_buy(self.state, rich, c, 0):
                    need = (1 if C.CARD[c].get("figure") else 0) + (1 if C.CARD[c].get("assist") else 0)
                    out.append((self.buy_net(c), c, self.cost(c), need))
            self._buyable = sorted(out, reverse=True)
        return self._buyable

    def village_plan(self, n: int, money: int | None = None, loc: str | None = None) -> float:
        """The value of ``n`` village actions at ``loc`` (None: none that depends on the place): the best
        buys it can afford, else doubloons."""
        money = int(self.p["doubloons"]) if money is None else money
        key = (n, money, loc)
        v = self._plans.get(key)
        if v is None:
            v = self._village_plan(n, money, loc)
            if not self._depth:
                self._plans[key] = v
        return v

    def _village_plan(self, n: int, money: int, loc: str | None) -> float:
        p = self.p
        figs = int(p["figures"])
        cards = list(self.buyable())
        used: set[str] = set()
        specials = self.special_village()
        here = self.resist_village_value(loc) if loc is not None else 0.0
        if here > 0:  # the Uprising: the resistance tile's village action, where the place allows it
            specials = {**specials, "vR": here}
        total = 0.0
        for _ in range(n):
            best, pick, cost, fig = self.dv, "vd", -1, 0
            for net, c, price, need in cards:
                if net <= best:
                    break
                if price <= money and need <= figs:
                    best, pick, cost, fig = net, f"b{c}", price, need
                    break
            for code, val in specials.items():
                if code not in used and val > best:
                    best, pick, cost, fig = val, code, 0, 0
            total += best
            if pick.startswith("b"):
                cid = int(pick[1:])
                cards = [x for x in cards if x[1] != cid]
                money -= cost
                figs -= fig
            elif pick == "vd":
                money += 1
            else:
                used.add(pick)
        return total

    def special_village(self) -> dict[str, float]:
        if self._special is None:
            self._special = self._special_village()
        return self._special

    def _special_village(self) -> dict[str, float]:
        p = self.p
        out = {}
        for cid in p["display"]:
            for e in C.CARD[cid]["effects"]:
                if e["t"] == "village":  # (the Uprising's card village actions: cards_ext.py)
                    out[f"v{cid}"] = cards_ext.village_value(self, cid, e) if "ext" in e else self.gain_value(e["gain"])
        for u in C.UPGRADES:
            key = u.get("village")
            if key and u["id"] in p["areas"]:
                out[f"v{u['id']}"] = self.upgrade_village_value(u["id"])
        if "UH" in p["areas"]:  # the Uprising: the home port's village trade, with the cards that pay it
            for e in C_U.PORT[str(p["port"])]["effects"]:
                ways = HP.trade_ways(p, e["pay"]) if e.get("ext") == "village_trade" else []
                if ways:
                    out["vH"] = self.gain_value(e["gain"]) - min(sum(self.keep_value(c) for c in cs) for cs in ways[:9])
        return out

    def upgrade_village_value(self, uid: str) -> float:
        key = C.UPGRADE[uid]["village"]
        p = self.p
        if key == "cp_d":
            return self.gain_value({"cp": 1, "d": 1})
        if key == "assist_pay":
            mine = sum(1 for a in p["assist"] if a["loc"] == p["at"])
            others = sum(1 for o in self.state["seats"] if o is not p for a in o["assist"] if a["loc"] == p["at"])
            return (3 * mine + others) * self.dv
        if key == "three_goods":
            return 2 * self.dv + 2 - 1.5
        return self.best_inf(1) + self.dv + 0.5  # place a marker

    def fight_estimate(self) -> float:
        """A combat before its token is seen: a middling token value for the best nation."""
        if self._fight is None:
            value = 5 + perm(self.p, "combat_plus")
            # (with ``token_choice``: the better of the tokens drawn, over one)
            self._fight = 1.0 + max(max(self.combat_plan(n, value, []) for n in C.NATIONS),
                                    self.against_estimate()) + self.own_token_choice()
        return self._fight

    def flags(self) -> list[tuple[float, str]]:
        """Empty flag locations this player may annex, best first (the flag's bonus)."""
        if self._flags is None:
            st = self.state
            out = []
            for loc in C.FLAGS:
                if self.kind(loc) in ("village", "city") and self.open(loc) and loc not in st["markers"]:
                    out.append((self.flag_value(loc), loc))
            self._flags = sorted(out, reverse=True)
        return self._flags

    def marker_value(self, nation: str) -> float:
        """Taking a marker from a nation's supply: a supply space emptied raises its multiplier."""
        spaces = self.state["supply"][nation]
        first = next((left for left in spaces if left > 0), 0)
        if first != 1:
            return 0.2
        return 0.3 + 0.6 * C.rank(min(C.INFLUENCE_MAX, int(self.p["influence"][nation]) + 2))

    def combat_gains(self, nation: str, used: list[str]) -> list[tuple[str, int, float]]:
        """(code, value it costs, what it gains) for the combat actions still open."""
        gains = self._gains.get(nation)
        if gains is None:
            gains = self._gains[nation] = [(*g, _group(g[0])) for g in self._combat_gains(nation)]
        return [(code, cost, g) for code, cost, g, group in gains if group not in used]

    def _combat_gains(self, nation: str) -> list[tuple[str, int, float]]:
        used: list[str] = []
        p = self.p
        st = self.state
        out: list[tuple[str, int, float]] = []
        if "inf" not in used:
            out.append(("ci1", 2, self.inf_value(nation, 1)))
            out.append(("ci2", 5, self.inf_value(nation, 2)))
        if has_marker(st, nation):
            extra = self.inf_value(nation, 1) + self.marker_value(nation)
            if "annex" not in used:
                fl = self.flags()
                if fl:
                    out.append((f"ca{fl[0][1]}", 4, fl[0][0] + extra))
                if self._disp is None:
                    self._disp = [(self.flag_value(loc), loc, n) for loc, n in st["markers"].items()
                                  if C.LOC[loc].get("flag") and self.open(loc)
                                  and self.kind(loc) in ("village", "city")]
                disp = [(v, loc) for v, loc, n in self._disp if n != nation]
                if disp:
                    best = max(disp)
                    out.append((f"cd{best[1]}", 6, best[0] + extra))
            if "U6" in p["areas"] and "vil" not in used:
                out.append(("cv", 2, extra))
        for cid in p["display"]:
            for e in C.CARD[cid]["effects"]:
                if e["t"] == "combat" and f"c{cid}" not in used:
                    out.append((f"cc{cid}", e["cost"], self.combat_effect_gain(e, nation)))
        for t in [C.LEGACY[x] for x in st.get("legacy", ()) if C.LEGACY[x]["kind"] == "combat"]:
            for a in t["actions"]:
                if a["id"] not in used:
                    out.append((f"cx{a['id']}", a["cost"], self.gain_value(a["gain"])))
        return out

    def shortfall_cost(self, need: int) -> float:
        """Paying ``need`` combat value beyond the token: combat points first, then figures."""
        if need <= 0:
            return 0.0
        cp = min(int(self.p["combat_points"]), need)
        figs = need - cp
        if figs > int(self.p["figures"]):
            return 1e9
        return 0.3 * cp + 2.5 * figs

    def combat_plan(self, nation: str, value: int, used: list[str]) -> float:
        """The greedy value of a combat for ``nation`` with ``value`` to spend."""
        key = (nation, value, tuple(used))
        v = self._combat.get(key)
        if v is None:
            v = self._combat_plan(nation, value, used)
            if not self._depth:
                self._combat[key] = v
        return v

    def _combat_plan(self, nation: str, value: int, used: list[str]) -> float:
        total = 0.0
        done = set(used)
        self.combat_gains(nation, used)  # fills self._gains[nation]
        gains = self._gains[nation]
        for _ in range(4):
            best, pick, cost = 0.0, None, 0
            for _code, c, g, group in gains:
                if group in done:
                    continue
                net = g - self.shortfall_cost(c - value) - 0.05 * c
                if net > best:
                    best, pick, cost = net, group, c
            if pick is None:
                break
            total += best
            done.add(pick)
            value = max(0, value - cost)
        return total

    def city_value(self, loc: str, money: int | None = None) -> float:
        money = int(self.p["doubloons"]) if money is None else money
        key = (loc, money)
        v = self._city.get(key)
        if v is None:
            v = self._city_value(loc, money)
            if not self._depth:
                self._city[key] = v
        return v

    def _city_value(self, loc: str, money: int) -> float:
        action = city_action(self.state, loc)
        p = self.p
        if action in CT.ACTIONS:  # the Uprising's new city tiles (cards_ext.py)
            return cards_ext.city_tile_value(self, loc)
        if action == "inf_village":
            return self.best_inf(1) + self.village_plan(1, money)
        if action == "cp_disc":
            return self.gain_value({"cp": 1}) + self.disc_value()
        if action == "cp3":
            return self.gain_value({"cp": 3})
        if action == "d2_village":
            return 2 * self.dv + self.village_plan(1, money + 2)
        if action == "cp_inf":
            return self.gain_value({"cp": 1}) + self.best_inf(1)
        if action == "compass":
            return self.village_plan(compass(p), money)
        if action == "tokens_discard":
            return float(p["tokens"])
        if action == "assistants":
            return max(4 * self.dv, 2.0) * len(p["assist"])
        if action == "pay_cp":
            return 6 * self.dv + self.best_inf(1) - 0.8 if p["combat_points"] >= 2 else 0.0
        if action == "combat":
            return self.fight_estimate()
        if action == "new_city":  # the Uprising's L30
            return self.gain_value(LB.city_gain(p))
        if action == "top_quest":
            q = self.state["quest_pile"][0] if self.state["quest_pile"] else None
            return self.quest_value(q) if q and can_pay_quest(p, q) else -5.0
        return self.gain_value(C.LOC[loc]["gain"])

    def delivery(self, loc: str) -> tuple[float, str | None, int]:
        """(value, good, doubloons) of the best delivery here, or (0, None, 0)."""
        d = self._delivery.get(loc)
        if d is None:
            d = self._deliver(loc)
            if not self._depth:
                self._delivery[loc] = d
        return d

    def _deliver(self, loc: str) -> tuple[float, str | None, int]:
        st = self.state
        m = C.LOC[loc].get("market")
        if not m or len(st["market"][loc]) >= len(m["rewards"]) or not self.disc_areas():
            return 0.0, None, 0
        reward = m["rewards"][len(st["market"][loc])] + perm(self.p, "deliver_d")
        cards = [c for c in self.p["hand"] if C.CARD[c]["good"] in m["goods"]]
        if not cards:
            return 0.0, None, 0
        card = min(cards, key=lambda c: (self.keep_value(c), c))
        return reward * self.dv + self.disc_value() - self.keep_value(card), C.CARD[card]["good"], reward

    def main_value(self, loc: str, steps: int) -> float:
        """The best main action at ``loc`` after sailing ``steps``."""
        st = self.state
        p = self.p
        kind = self.kind(loc)
        best = 0.0
        if kind == "village":
            best = self.village_plan(village_count(p, steps), loc=loc)
        elif kind == "city":
            value, good, reward = self.delivery(loc)
            city = self.city_value(loc)
            best = city
            if good is not None:
                best = max(best, value + self.city_value(loc, int(p["doubloons"]) + reward))
        elif C.LOC[loc].get("home") == 1:
            best = max(self.fight_estimate(), self.best_explore(2))
        q = st["quests"].get(loc)
        if q and can_pay_quest(p, q):
            best = max(best, self.quest_value(q))
        for a in p["assist"]:
            if a["loc"] == loc:
                best = max(best, self.gain_value(cards_ext.assistant_gain(self.state, a["card"])))
        return best

    def sail_value(self, loc: str, steps: int) -> float:
        home = C.LOC[loc].get("home")
        if home == 2:
            return 3.0 + (1.5 if not last_round(self.state) else 0.0)
        if home == 3:
            return 6.0
        v = self.main_value(loc, steps) + self.search_sail(loc)
        if self.lead > 7:  # the round goes on: every location skipped is one not visited
            v -= 0.35 * max(0, steps - 2)
        return v


def _group(code: str) -> str:
    """The "once per combat" group a combat action's code belongs to (as the rules' ``used`` list names it)."""
    if code.startswith("ci"):
        return "inf"
    if code[:2] in ("ca", "cd"):
        return "annex"
    if code[:2] in ("cv", "cw"):
        return "vil"
    if code.startswith("cx"):
        return code[2:]
    return f"c{code[2:]}"

