"""The bot's values of the Uprising's project cards whose effects extend the language (docs/rules/
maracaibo-uprising.md, "Effect language: needed extensions"): what such an effect is worth when a card
is bought, and the options of the decisions these effects ask (each frame's own options).

``CardValues`` is a part of ``Ctx`` (ctx.py), as ``UprisingValues`` is: it reads the same seat's view
and values in VP. Every value reads the effect's data row, never a card's id.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import comb
from typing import Any

from engine.core import State

from .. import content as C
from .. import liberation as LIB
from .. import uprising as UP
from ..card_permanents import condition_met, token_choice
from ..card_requirements import figures, goods_ways
from ..combat import fight_value
from ..effects import good_cards

#: the combats a player starts a turn (the bot's: its fights for and against a nation a player-game over its turns a
#: player-game, 0.25-0.29 in each of 78 and 79 with 2, 3 and 4 players, seeds s1 and s2, 30 games a cell: ``nice -n
#: 15 python bench/uprising_balance.py --games 30 --modes 78 79 --players 2 3 4 --seeds s1 s2``, #20, 2026-12-07):
#: a ``token_choice`` permanent's gain a combat times this is its gain a turn left
COMBATS_A_TURN = 0.27


class CardValues:
    """The card extensions' values; the names below are Ctx's (ctx.py), declared for the type checker."""

    state: State
    p: Any
    seat: int
    dv: float
    left: int
    turns: float
    _depth: int

    def gain_value(self, g: dict[str, Any], nation: str | None = None, explore: bool = True) -> float:
        raise NotImplementedError

    def keep_value(self, cid: int) -> float:
        raise NotImplementedError

    def kind(self, loc: str) -> str:
        raise NotImplementedError

    def combat_plan(self, nation: str, value: int, used: list[str]) -> float:
        raise NotImplementedError

    def against_value(self, nation: str, token: str | None) -> float:
        raise NotImplementedError

    def resist_value(self, nation: str, times: int = 1, token: int = 0) -> float:
        raise NotImplementedError

    def denial(self, loc: str) -> float:
        raise NotImplementedError

    # ---- a card's effect, bought ----------------------------------------------------------------

    def now_ext_value(self, e: dict[str, Any]) -> float:
        """An immediate effect with an extension (extensions.now), before the card's price."""
        ext = e.get("ext")
        if ext == "one_of":
            return max(self.gain_value(g) for g in e["gains"])
        if ext == "trade_any":  # the cards of the good in hand, each paid only when worth less than the gain
            each = self.gain_value(e["gain"])
            return sum(max(0.0, each - self.keep_value(c)) for c in good_cards(self.p, str(e["pay"])))
        if ext == "liberate":
            villages = [loc for loc, n in self.state["markers"].items() if self.kind(loc) == "village"]
            best = max((self.resist_value(str(self.state["markers"][loc])) + self.denial(loc) for loc in villages),
                       default=0.0)
            return best + self.gain_value(e.get("gain", {}))
        if ext == "by_object":
            return self.by_object_value(e["by_object"])
        return self.gain_value(e["gain"]) if "gain" in e else 0.0

    def by_object_value(self, table: Mapping[str, dict[str, Any]], explore: bool = True) -> float:
        """The top project card revealed, a reward by its object: each object as likely."""
        return sum(self.gain_value(g, explore=explore) for g in table.values()) / max(1, len(C.OBJECTS))

    def combat_effect_gain(self, e: dict[str, Any], nation: str | None = None, explore: bool = True) -> float:
        """A card's combat action, before its cost (``by_object``: the reveal's expected reward)."""
        v = self.gain_value(e["gain"], nation, explore)
        return v + self.by_object_value(e["by_object"], explore) if "by_object" in e else v

    def ext_card_value(self, e: dict[str, Any]) -> float:
        """An income or permanent effect with an extension, for the rest of the game (before the price)."""
        ext, turns = e.get("ext"), self.turns
        if ext == "income_when":  # met: an income at once; else a chance of it, later
            met = condition_met(self.p, e["when"])
            return float(e["vp"]) * (self.left if met else 0.35 * max(0, self.left - 1))
        if ext == "fight_for_pays":  # anyone's fight for the nation: about one in twelve turns of each player
            return self.gain_value(e["gain"], explore=False) * turns * len(self.state["seats"]) / 12
        if ext == "token_choice":  # the better of n tokens kept, each combat to come
            return self.token_choice_gain(int(e["n"])) * COMBATS_A_TURN * turns
        if ext == "village_variety":
            return 0.25 * turns
        if ext == "wild_card":  # one good or object paid once: a card kept in hand
            return 1.5
        if ext == "empty_village_d":
            return 0.12 * turns * 3 * self.dv
        if "gain" in e:  # marker_removed: now and then
            return 0.1 * turns * self.gain_value(e["gain"], explore=False)
        return 0.0

    def requirement_cost(self, c: dict[str, Any]) -> float:
        """What a card's requirement fields cost beside its doubloons: the goods' cards, the figures placed."""
        v = 1.2 * figures(c)
        goods = c.get("cost_goods")
        if goods:
            ways = goods_ways(self.p, list(goods), but=int(c["id"]))
            v += min((sum(self.keep_value(x) for x in w) for w in ways), default=0.0)
        return v

    # ---- the frames these effects ask -----------------------------------------------------------

    def card_frame_value(self, kind: str, code: str, data: Mapping[str, Any]) -> float | None:
        """An option of a card extension's frame (None: not such a frame)."""
        if kind == "oneof":
            return self.gain_value(data["gains"][int(code[1:]) - 1])
        if kind == "tradeany":
            k = int(code[1:])
            paid = sorted(good_cards(self.p, str(data["good"])), key=lambda c: (C.CARD[c]["cost"], c))[:k]
            return k * self.gain_value(dict(data["gain"])) - sum(self.keep_value(c) for c in paid)
        if kind == "libvillage":
            loc = code[1:]
            return self.resist_value(str(self.state["markers"][loc])) + self.denial(loc)
        if kind == "costgoods":
            return -sum(self.keep_value(int(x)) for x in code[1:].split("-"))
        if kind == "marknation":  # the nation the table holds most influence with: fought for most
            nation = next(n for n in C.NATIONS if n[0] == code[1])
            return 0.1 * sum(int(o["influence"][nation]) for o in self.state["seats"])
        if kind == "tokenpick":
            token, _, pile = code[1:].partition("p")
            return self.token_value(token) - 0.01 * int(pile)
        return None

    def token_choice_gain(self, n: int) -> float:
        """One combat's gain from drawing ``n`` combat tokens and keeping the best (``token_choice``), over drawing
        one: the best of ``n`` distinct tokens' values (:meth:`token_value`) less one token's, every token of the
        data as likely (which tokens the piles hold, and in what order, is hidden)."""
        memo = self.__dict__.setdefault("_token_choice_memo", {})
        if n in memo:
            return float(memo[n])
        vals = sorted(self.token_value(t) for t in C.TOKEN)
        k = len(vals)
        v = 0.0
        if 2 <= n <= k:
            # the i-th lowest value is the best drawn when it is drawn with n - 1 of the i below it
            v = sum(x * comb(i, n - 1) for i, x in enumerate(vals)) / comb(k, n) - sum(vals) / k
        if not self._depth:  # (as Ctx's memos: none kept while a card's value is provisional)
            memo[n] = v
        return v

    def own_token_choice(self) -> float:
        """This seat's ``token_choice`` (card_permanents.token_choice), a combat's gain from it (0 without it)."""
        n = token_choice(self.p)
        return self.token_choice_gain(n) if n > 1 else 0.0

    def token_value(self, token: str) -> float:
        """A combat token kept: the best fight it offers (for a nation; against one in 78 and 79)."""
        st, p = self.state, self.p
        best = 0.0
        for n in C.NATIONS:
            if UP.playing(st) or LIB.playing(st):
                best = max(best, self.against_value(n, token))
            if LIB.playing(st):
                continue
            reward = C.TOKEN[token]["reward"][n]
            best = max(best, self.gain_value(reward, n) + self.combat_plan(n, fight_value(st, token, n, p), []))
        return best
