"""The Uprising's card combat action ``last_pay_influence`` (docs/rules/maracaibo-uprising.md, "Effect
language: needed extensions"): a general reading of the card's row, never a branch on its id. The
combat's last action ("Como sua última ação de combate"): its cost from the combat value, 1 influence
lost with a nation of the player's choice (frame ``loseinf``), then the explorer up to ``explore_upto``
spaces; never offered without an influence marker that may move back (with the Liberation the markers
never leave 0: Assumption A61). combat.py turns the row into one of its combat action rows
(:func:`combat_row`) and plays its ``last`` and ``lose_inf``.
"""

from __future__ import annotations

from typing import Any

from engine.core import Event, Option, State, new_event
from engine.rng import Rng
from engine.stack import Frame, FunctionHandler, frame

from . import content as C
from .board import HANDLERS, P, opt
from .careers import with_free_actions
from .effects import influence_vp, player, who


def combat_row(cid: int, e: dict[str, Any]) -> dict[str, Any]:
    """The combat action row of a card's extension (combat.py's format): ``last_pay_influence`` ends the
    combat, takes 1 influence (``lose_inf``) and moves the explorer up to ``explore_upto``."""
    name = C.CARD[cid]["name"]
    assert e["ext"] == "last_pay_influence", e
    effect = {"lose_inf": int(e["pay_inf"]), "explore": int(e["explore_upto"])}
    return {"id": f"c{cid}", "code": f"cc{cid}", "cost": e["cost"], "once": f"c{cid}",
            "needs": {"display": cid, "influence": int(e["pay_inf"])}, "last": True,
            "label": f"{name}, the last combat action: lose {e['pay_inf']} influence, explore up to "
                     f"{e['explore_upto']}", "effect": effect, "source": "cards",
            "event": ["combat_card", f"uses {name}"]}


def usable_in_mode(state: State, e: dict[str, Any]) -> bool:
    """Whether the card's combat action may ever be used in this game's mode: the influence it costs
    needs a marker that may move back, and where influence gained is scored as VP (the mode's data,
    ``influence_vp``: the Liberation) the markers never leave 0 (Assumption A61)."""
    return not (int(e.get("pay_inf", 0)) and influence_vp(state))


def has_influence(p: P, n: int) -> bool:
    """Some influence marker may move ``n`` spaces back (with the Liberation the markers stay at 0)."""
    return any(int(v) >= n for v in p["influence"].values())


def lose_influence(state: State, seat: int, n: int) -> list[Frame]:
    """The nation whose influence the player loses (frame ``loseinf``; one nation: taken at once)."""
    return [frame("loseinf", seat, n=n)]


def _loseinf_options(state: State, f: Frame) -> list[Option]:
    p = player(state, f["seat"])
    n = int(f["data"]["n"])
    return [opt("n" + nat[0],
                f"lose {n} influence with {nat.title()} ({p['influence'][nat]} to {p['influence'][nat] - n})")
            for nat in C.NATIONS if int(p["influence"][nat]) >= n]


def _loseinf_resolve(state: State, f: Frame, seat: int, o: Option, rng: Rng) -> list[Event]:
    p = player(state, seat)
    nation = next(n for n in C.NATIONS if n[0] == o.code[1])
    n = int(f["data"]["n"])
    p["influence"] = {**p["influence"], nation: int(p["influence"][nation]) - n}
    return [new_event("influence", f"{who(state, seat)} loses {n} influence with {nation.title()} "
                      f"({p['influence'][nation]}).", {"seat": seat, "nation": nation, "to": p["influence"][nation]})]


C.EXT_TEXT["last_pay_influence"] = lambda e: (f"new combat action, the last (value {e['cost']}): lose "
                                              f"{e['pay_inf']} influence, explore up to {e['explore_upto']}")
HANDLERS["loseinf"] = with_free_actions(FunctionHandler(_loseinf_options, _loseinf_resolve))
