"""The bot's values of the Uprising's decisions (modes 78 and 79): fighting against a nation,
liberating a city or a village, the resistance tile and its village action, the home ports.

``UprisingValues`` is a part of ``Ctx`` (ctx.py): it reads the same seat's view and values in VP.
Its values are multiplied by the weight ``uprising`` (``WEIGHTS``); ``bench/uprising_balance.py
--ab uprising=0`` plays a seat that ignores the expansion against the bot, to show that using it pays.

How it plays the expansion:

- **Against a nation** (78): the token's reward (influence as 2 VP each) plus the best liberations
  the combat value pays for: Liberate City (3 doubloons, 1 VP per occupied city) and Liberate
  Village (3 VP per occupied neighbour), each once, at the target worth most; a liberated marker is
  worth the best free space of the resistance tile (with the full tile's bonus when it fills it),
  and what the nation's multiplier loses, weighed by this seat's rank against the others'.
- **The resistance tile's village action** (``vR``): at an occupied village, paid with 3 combat
  value, the marker to the tile with double reward; a village where it can be used is worth that
  much more when the route is planned.
- **Liberation** (79): every combat is against a nation; Liberate City (5: the flag's bonus) and
  Village (3), each once a turn, and the combat tile upgrade's one more (3 or 2), planned together
  at the targets worth most; influence is 2 VP each (``inf_value``), no nation scoring (no denial).
- **Home ports**: the port kept at setup by its gain measured in games where the port kept was drawn at
  random (``PORT_GAIN``), its bonus paid when worth the price, its village action when the goods are in hand.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from engine.core import State

from .. import combat as CB
from .. import content as C
from .. import coop
from .. import legacyboard as LB
from .. import liberation as LIB
from .. import resistance as RES
from .. import ruin as RUIN
from .. import search as SEARCH
from .. import uprising as UP
from .. import uprising_content as C_U
from ..board import multiplier
from ..effects import influence_vp, perm

_FULL_D = int(C_U.MODULES["resistance"]["full"]["d"])
_FULL_VP = int(C_U.MODULES["resistance"]["full"]["vp_per_combat_token"])
#: the resistance tile's spaces' rewards, in order
RESIST_SPACES: list[dict[str, int]] = [s["gain"] for s in C_U.BOARDS["resistance"]["spaces"]]
#: the home ports, learned by measurement (issue 20): a port's gain is its keepers' mean margin (their score minus
#: the mean of the table's others) against the average port's, in VP a game, in bot games where the port kept was
#: one of the three dealt at random (the bot played the rest): `nice -n 15 python bench/uprising_balance.py
#: --ports random --games 300 --modes M --players 2 3 4 --seeds ports-a ports-b` (1,800 games and 315-387 keepers
#: a port a mode; a standard error of 1.0 VP a port in 78 and 1.1 in 79, from the two seeds' difference;
#: 2026-12-07), each gain shrunk toward 0 by the share of the ports' spread that is noise (kept: 0.48 in 78, 0.72
#: in 79). By module: "liberation" (79, and 74 and 193) and "uprising" (78, and the campaigns). Porto's is for the
#: average hand: ``porto_value`` moves it with the seat's cards.
PORT_GAIN: dict[str, dict[str, float]] = {
    "uprising": {"HP1": -0.4, "HP2": -1.3, "HP3": 1.0, "HP4": 0.9, "HP5": -0.3, "HP6": -0.2, "HP7": 0.2, "HP8": 0.3,
                 "HP9": 0.0, "HP10": 0.1, "HP11": 0.4, "HP12": -0.5, "HP13": 0.9, "HP14": -0.2, "HP15": -1.0},
    "liberation": {"HP1": -0.2, "HP2": -2.0, "HP3": -0.1, "HP4": 4.2, "HP5": -0.1, "HP6": -0.7, "HP7": -0.1,
                   "HP8": 0.7, "HP9": 0.2, "HP10": -0.7, "HP11": -1.4, "HP12": -0.3, "HP13": -0.3, "HP14": 2.3,
                   "HP15": -1.4},
}
#: what the average port's ongoing effect is worth a scoring left (the home port area's value, ctx.py, reads it;
#: not measured: the mean of the guesses the gains replaced), and the VP a game of gain that one unit of it is
#: (chosen, not measured: every measured port stays above nothing; the setup choice reads only the order)
PORT_BASE = 2.2
PORT_VP = 1.5
#: ``porto_value``'s mean over the seats of 150 setups of 3 players in 78 (and 79, the same), seeds porto-0 ...:
#: Porto's gain is for a seat of that hand
PORTO_MEAN = 1.7
#: what one combat point is worth where combat points raise a fight against a nation (78, 79): a liberation
#: pays about a VP a point of its combat value (Liberate City 6: 3 doubloons, a VP an occupied city, a
#: resistance space, the nation's loss), against 0.4 (``gain_value``) where they only top up a fight for one
CP_AGAINST = 1.0
#: the cooperative scenarios (74, 193), for a bot playing as a table (weight ``team``, choose.COOP_WEIGHTS):
#: the card's goals beyond what a seat scores. One ownership marker off the board (before the weight
#: ``uprising``: every marker left loses the table the game), a location where a hint may be revealed (The
#: Search: Luysa found the sooner), Luysa's prison while she can be freed there. Chosen by bench/coop.py
#: (40-60 games a cell, levels 1-2, seed coop; docs/rules/maracaibo-cooperative.md)
COOP_MARKER = 8.0
HINT_SAIL = 8.0
LUYSA_SAIL = 20.0
#: a combat point gained by a player alone in a cooperative game, against 0.4 elsewhere: solo, the markers are
#: all on cities (Liberate City: 5 combat value) and Luysa's prison costs 5 more, all paid by one seat. With two
#: or more players it is 0.4 (measured, seed coop, 30 games a cell: 0.4 left no more markers and kept each
#: seat about 8 VP more, so more tables above Jacques at levels 2 and 3)
COOP_CP = 4.0


class UprisingValues:
    """The expansion's values; the names below are Ctx's (ctx.py), declared for the type checker."""

    state: State
    p: Any
    seat: int
    dv: float
    left: int
    w: Mapping[str, float]

    def kind(self, loc: str) -> str:
        raise NotImplementedError

    def gain_value(self, g: dict[str, Any], nation: str | None = None, explore: bool = True) -> float:
        raise NotImplementedError

    def shortfall_cost(self, need: int) -> float:
        raise NotImplementedError

    # ---- the home ports --------------------------------------------------------------------------

    def cp_worth(self) -> float:
        """What one combat point is worth to this seat in this mode (see ``CP_AGAINST``)."""
        return CP_AGAINST if UP.playing(self.state) or LIB.playing(self.state) else 0.4

    def port_value(self, pid: str) -> float:
        """A home port kept at setup: its ongoing effect a scoring left, from its measured gain (``PORT_GAIN``, by
        the mode's module; Porto's moved by the seat's cards, ``porto_value``), never below nothing."""
        gains = PORT_GAIN["liberation" if LIB.playing(self.state) else "uprising"]
        v = PORT_BASE + gains.get(pid, 0.0) / PORT_VP
        if pid == "HP14":
            v += self.porto_value() - PORTO_MEAN
        return max(0.0, v)

    def porto_value(self) -> float:
        """Porto (``deliver_again_cp``): the effect's combat points (``cp_worth``) a delivery with an identical
        good to spare, which the seat's cards (dealt at setup, and its hand) make likelier the more of them pay
        one same good (a quarter a card of the good they pay most). In the basic mode, where combat points
        only top up a fight for a nation, it is worth less than every other port; in 78 and 79 it is worth
        most when four or five of the eight cards pay one good."""
        e = C_U.PORT["HP14"]["effects"][0]
        setup = self.p.get("setup") or {}
        goods: dict[str, int] = {}
        for c in [*self.p["hand"], *setup.get("dealt", [])]:
            g = C.CARD[c].get("good")
            if g:
                goods[g] = goods.get(g, 0) + 1
        same = min(5, max(goods.values(), default=0))
        return int(e["gain"].get("cp", 0)) * self.cp_worth() * 0.25 * same

    def again_value(self, code: str) -> float:
        """An option of Porto's ``again`` frame: ``y<card>`` discards that card for the combat points."""
        if code == "no":
            return 0.0
        e = C_U.PORT["HP14"]["effects"][0]
        cp, room = int(e["gain"].get("cp", 0)), C.COMBAT_MAX - int(self.p["combat_points"])
        return min(cp, room) * self.cp_worth() - self.keep_value(int(code[1:]))

    # ---- the resistance tile -----------------------------------------------------------------

    def resist_value(self, nation: str, times: int = 1, token: int = 0) -> float:
        """A liberated ``nation`` marker on the best free space of the tile (the full tile's bonus when
        it fills it; ``token``: a combat token this combat will add before the tile is full)."""
        p = self.p
        if "resist" not in p:
            return 0.0
        free = RES.free_spaces(p, nation)
        if not free:
            return 0.0
        v = max(self.gain_value({k: n * times for k, n in RES.SPACES[s].items()}) for s in free)
        if sum(1 for x in p["resist"] if x) == len(RES.SPACES) - 1:
            v += _FULL_D * self.dv + _FULL_VP * (int(p["tokens"]) + token)
        return v

    def denial(self, loc: str) -> float:
        """What the marker at ``loc`` leaving the board is worth to this seat: each nation's multiplier
        change times this seat's rank less the best other's (a rival's nation loses its bonus)."""
        memo = self.__dict__.setdefault("_denial_memo", {})
        if loc not in memo:
            memo[loc] = self._denial(loc)
        return float(memo[loc])

    def _denial(self, loc: str) -> float:
        st = self.state
        if not LIB.nation_scoring(st):
            return 0.0
        before = multiplier(st)
        after = multiplier({"markers": {k: n for k, n in st["markers"].items() if k != loc}, "supply": st["supply"]})
        v = 0.0
        for n in C.NATIONS:
            d = after[n] - before[n]
            if d:
                mine = C.rank(int(self.p["influence"][n]))
                best = max((C.rank(int(o["influence"][n])) for i, o in enumerate(st["seats"]) if i != self.seat),
                           default=0)
                v += 0.5 * d * (mine - best)
        return v

    def liberation_gain(self, loc: str, token: int = 0) -> float:
        """Liberating ``loc`` (a city: Liberate City; a village: Liberate Village), before its cost."""
        st = self.state
        nation = str(st["markers"][loc])
        if self.kind(loc) == "city":
            g = 3 * self.dv + UP.occupied_cities(st)
        else:
            g = 3.0 * sum(1 for n in UP.NEIGHBOURS[loc] if n in st["markers"] and n != loc)
        return g + self.resist_value(nation, token=token) + self.denial(loc)

    def against_plan(self, nation: str, value: int, used: list[str], token: int = 1) -> float:
        """The best liberations a combat against ``nation`` with ``value`` can still pay for."""
        st = self.state
        acts: list[tuple[float, int]] = []
        for a, key in ((UP.CITY, "city"), (UP.VILLAGE, "village")):
            if a["id"] in used:
                continue
            targets = [loc for loc, n in st["markers"].items() if n == nation and self.kind(loc) == key]
            if targets:
                acts.append((max(self.liberation_gain(loc, token) for loc in targets), int(a["cost"])))
        best = 0.0
        for order in itertools.permutations(acts):
            left, total = value, 0.0
            for g, cost in order:
                net = g - self.shortfall_cost(cost - left) - 0.05 * cost
                if net > 0:
                    total += net
                    left = max(0, left - cost)
            best = max(best, total)
        return best

    def against_value(self, nation: str, token: str | None) -> float:
        """Fighting against ``nation`` with ``token``: its reward and the liberations it pays for."""
        if LIB.playing(self.state):
            value = LIB.value(token, nation, self.p)
            return self.w["uprising"] * (self.gain_value(LIB._reward(token, nation, self.state))
                                         + self.liberation_plan(nation, value, [], 1 if token else 0))
        reward = UP._against_reward(token, nation)
        value = UP.against_value(self.state, token, nation, self.p)
        return self.w["uprising"] * (self.gain_value(reward) + self.against_plan(nation, value, [],
                                                                                   1 if token else 0))

    def against_estimate(self) -> float:
        """A combat before its token is seen, against the nation worth most (78, 79; else 0)."""
        if not self.state["markers"]:
            return 0.0
        value = 4 + perm(self.p, "combat_plus")
        if LIB.playing(self.state):
            return self.w["uprising"] * max(self.liberation_plan(n, value, []) for n in C.NATIONS)
        if not UP.playing(self.state):
            return 0.0
        return self.w["uprising"] * max(self.against_plan(n, value, []) for n in C.NATIONS)

    # ---- Liberation (79) ------------------------------------------------------------------------

    def freed_gain(self, loc: str, token: int = 0) -> float:
        """Liberate City or Village at ``loc`` in the Liberation module, before its cost."""
        g = self.resist_value(str(self.state["markers"][loc]), token=token) + self.coop_marker()
        if self.kind(loc) == "city":
            g += self.gain_value(C.LOC[loc].get("flag") or {})
        return g

    def cp_gain_worth(self) -> float:
        """A combat point gained (``gain_value``): ``COOP_CP`` for a player alone (weight ``team``, a
        cooperative game) while a marker is left or Luysa waits to be freed (a liberation or her prison costs
        combat points), else 0.4."""
        st = self.state
        if not self.w["team"] or not coop.cooperative(st):
            return 0.4
        s = st.get("search")
        if len(st["seats"]) == 1 and (coop.markers_left(st) or (s and s["freed"] is None)):
            return COOP_CP
        return 0.4

    def coop_marker(self) -> float:
        """A marker off the board, for a table (weight ``team``, a cooperative game: ``COOP_MARKER``; else 0)."""
        return COOP_MARKER if self.w["team"] and coop.cooperative(self.state) else 0.0

    def search_sail(self, loc: str) -> float:
        """Ending the movement at ``loc`` in The Search, for a table (weight ``team``; 0 elsewhere): a hint to
        reveal while Luysa is not found; her location, with her price in combat points, while she is not
        freed."""
        s = self.state.get("search")
        if not s or not self.w["team"]:
            return 0.0
        if s["found"] is None:
            return HINT_SAIL if SEARCH.can_reveal(self.state, loc) else 0.0
        if s["freed"] is None and loc == s["found"] and int(self.p["combat_points"]) >= int(SEARCH.LUYSA["cp"]):
            return LUYSA_SAIL
        return 0.0

    def liberation_plan(self, nation: str, value: int, planned: list[str], token: int = 1) -> float:
        """The best liberations left this turn (LC, LV, and the upgrade's ``extra``) that a combat
        against ``nation`` with ``value`` pays for, each at a different target (``planned``: groups
        already taken in this combat, beside those the turn used)."""
        st, p = self.state, self.p
        done = {*LIB.used_this_turn(st, p), *planned}
        cities = sorted((self.freed_gain(loc, token) for loc in LIB.targets(st, nation, "city")), reverse=True)
        villages = sorted((self.freed_gain(loc, token) for loc in LIB.targets(st, nation, "village")),
                          reverse=True)
        acts: list[tuple[float, int, str, str]] = []  # (gain, cost, group, kind of place)
        for aid, where, group in (("LC", "city", "LC"), ("LV", "village", "LV")):
            if group not in done and (cities if where == "city" else villages):
                pool = cities if where == "city" else villages
                acts.append((pool[0], int(LIB.ACTIONS[aid]["cost"]), group, where))
        if LIB.UPGRADE_AREA in p["areas"] and "extra" not in done:
            for a in LIB.EXTRA.values():
                pool = cities if a["where"] == "city" else villages
                taken = 1 if any(w == a["where"] for _, _, _, w in acts) else 0
                if len(pool) > taken:
                    acts.append((pool[taken], int(a["cost"]), "extra", str(a["where"])))
        best = 0.0
        for order in itertools.permutations(acts, min(3, len(acts))):
            left, total, groups = value, 0.0, set()
            for g, cost, group, _ in order:
                if group in groups:
                    continue
                net = g - self.shortfall_cost(cost - left) - 0.05 * cost
                if net > 0:
                    total += net
                    groups.add(group)
                    left = max(0, left - cost)
            best = max(best, total)
        return best

    def liberation_option(self, code: str, data: Mapping[str, Any]) -> float:
        """An option of the ``liberation`` frame: a liberation (then what is left this turn), a card's or
        port's combat action, or ``cend``."""
        if code == "cend":
            return 0.0
        value = int(data["value"])
        token = 1 if data.get("token") else 0
        nation = str(data["nation"])
        if code[:2] in ("lc", "lv", "xc", "xv"):
            loc = code[2:]
            a = {"lc": LIB.ACTIONS["LC"], "lv": LIB.ACTIONS["LV"], "xc": LIB.EXTRA["LC2"], "xv": LIB.EXTRA["LV2"]}[
                code[:2]]
            group = "extra" if code[0] == "x" else str(a["id"])
            cost = int(a["cost"])
            g = self.freed_gain(loc, token) - self.shortfall_cost(cost - value) - 0.05 * cost
            rest = self.liberation_plan(nation, max(0, value - cost), [group], token)
            return self.w["uprising"] * (g + 0.8 * rest) - (0.0 if self.w["uprising"] else 1.0)
        row = CB._BY_CODE.get(code)
        if row is None:
            return -1.0
        cost = int(row["cost"])
        return (self.gain_value(LIB._row_gain(self.state, row)) - self.shortfall_cost(cost - value) - 0.05 * cost
                + 0.8 * self.liberation_plan(nation, max(0, value - cost), [], token))

    def influence_as_vp(self, k: int) -> float | None:
        """Influence gained is VP in the Liberation module (None: it is influence)."""
        vp = influence_vp(self.state)
        return float(vp * k) if vp else None

    def liberate_option(self, code: str, data: Mapping[str, Any]) -> float:
        """An option of the ``against`` frame: ``lc<loc>``/``lv<loc>`` (then what is left), or ``cend``."""
        if not code.startswith(("lc", "lv")):
            return 0.0
        loc = code[2:]
        a = UP.CITY if code.startswith("lc") else UP.VILLAGE
        value = int(data["value"])
        token = 1 if data.get("token") else 0
        g = self.liberation_gain(loc, token) - self.shortfall_cost(int(a["cost"]) - value) - 0.05 * int(a["cost"])
        rest = self.against_plan(str(data["nation"]), max(0, value - int(a["cost"])), [*data["used"], a["id"]], token)
        return self.w["uprising"] * (g + rest) - (0.0 if self.w["uprising"] else 1.0)

    def resist_village_value(self, loc: str) -> float:
        """The resistance tile's village action at ``loc`` (0 where it cannot be used)."""
        p = self.p
        st = self.state
        if ("UR" not in p["areas"] or "resist" not in p or loc not in st["markers"]
                or self.kind(loc) != "village"):
            return 0.0
        cost = self.shortfall_cost(RES.VILLAGE_VALUE)
        if cost >= 1e8:
            return 0.0
        nation = str(st["markers"][loc])
        return self.w["uprising"] * (self.resist_value(nation, times=2) + self.denial(loc) - cost)

    def resist_space(self, n: int, times: int) -> float:
        """An option of the ``resist`` frame: space ``n`` (0: the marker leaves the game)."""
        if n == 0:
            return -0.5
        v = self.gain_value({k: x * times for k, x in RES.SPACES[n].items()})
        p = self.p
        if sum(1 for x in p["resist"] if x) == len(RES.SPACES) - 1:
            v += _FULL_D * self.dv + _FULL_VP * int(p["tokens"])
        # a space left free for a nation the board still holds many markers of is worth keeping open
        return v

    # ---- the new legacy tiles (legacyboard.py, ruin.py) ----------------------------------------------

    def mult(self, nation: str) -> float:
        raise NotImplementedError

    def village_plan(self, n: int, money: int | None = None, loc: str | None = None) -> float:
        raise NotImplementedError

    def disc_value(self) -> float:
        raise NotImplementedError

    def give_up_value(self, nation: str) -> float:
        """The new city's toll (L30): this nation's marker given up for good, for 5 doubloons a rank; what the
        nation would still score at the end is lost, and its influence to come."""
        inf = int(self.p["influence"][nation])
        rank = C.rank(inf)
        got = int(LB.CITY["first"]["d_per_rank"]) * rank * self.dv if LB.CITY else 0.0
        if not LIB.nation_scoring(self.state):  # (the Liberation: influence is VP as it comes)
            return got - 0.5 * self.left
        best = max((int(o["influence"][nation]) for i, o in enumerate(self.state["seats"]) if i != self.seat),
                   default=0)
        return got - rank * self.mult(nation) - (3.0 if inf >= best and inf else 0.0) - 0.4 * self.left

    def toll_value(self) -> float:
        """What ending the movement at the new city costs this seat the first time (the best nation to give up)."""
        return max(self.give_up_value(n) for n in C.NATIONS)

    def outpost_value(self) -> float:
        """The 21a outpost (L33): a disc off the ship board, then a village action."""
        return self.disc_value() + self.village_plan(1)

    def keep_value(self, cid: int) -> float:
        raise NotImplementedError

    def reveal_value(self) -> float:
        """A project card revealed for its object's reward (L32's spaces 1 and 3): the rewards' mean."""
        table = RUIN.SPACES[1]["by_object"] if RUIN.SPACES else {}
        return sum(self.gain_value(g, explore=False) for g in table.values()) / max(1, len(table))

    def ruin_value(self, to: int) -> float:
        """The ruin track's figure stopping on ``to``: its gain, a reveal paid with the cheapest card that has
        the object, or the end's VP by order of arrival."""
        at = RUIN.position(self.state, self.seat) or 0
        return self._ruin_stop(to) + 1.0 * (to - at)  # (each space nearer the end's VP)

    def _ruin_stop(self, to: int) -> float:
        if to == RUIN.END:
            vps = RUIN.TRACK["end_vp"] if RUIN.TRACK else [0]
            return float(vps[min(len(self.state["legacy_board"]["order"]), len(vps) - 1)])
        s = RUIN.SPACES[to]
        if "gain" in s:
            return self.gain_value(s["gain"])
        ways = RUIN.ways(self.state, self.seat, s)
        return max(0.0, self.reveal_value() - min(sum(self.keep_value(c) for c in cs) for cs in ways)) if ways else 0.0
