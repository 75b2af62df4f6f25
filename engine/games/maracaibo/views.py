"""What a seat sees: the public part of a view, built once per state version and shared by
every seat's view, and the resampling of what a seat may not know (the checker's leak test).
"""

from __future__ import annotations

import copy

from engine.core import State, View
from engine.rng import Rng

from . import campaign, homeports, jacques, jean, legacyboard, search
from . import content as C
from . import uprising_content as U
from .board import P, json_copy, multiplier
from .scoring import outcome
from .upgrade import PLAYER_KEYS

#: the player keys whose lists and dicts a view shares with the state: every apply replaces them
#: rather than change them in place (see effects.py); the hand and the setup are hidden
_SHARED = frozenset(("plan", "display", "bought", "areas", "synergy", "gated", "influence", "discs",
                     "victory_points_by_source", "assist", "careers"))


#: the player keys holding a number or a string (nothing to copy)
_SCALARS = frozenset(("at", "doubloons", "victory_points", "combat_points", "income_doubloons",
                      "income_victory_points", "figures", "figures_owned", "tokens", "quests", "delivered", "explorer"))


#: the view's names of a player's keys the state names readably (format 19's renames undone). Why the view keeps
#: the short ones: it is the public contract of the front ends (view.schema.json, the page's scripts, the
#: renderers), which the state's renaming must not break; a state's key and its view's key differ only here
_VIEW_NAMES = {readable: short for short, readable in PLAYER_KEYS.items()}


_KNOWN = _SHARED | _SCALARS | {"hand", "setup"}


_N_KNOWN = len(_KNOWN)


def _public_player(p: P) -> P:
    """A player's public part: a new dict, sharing the player's lists and dicts with the state.

    Why shared, not copied: this runs for every player at every move, and the applies replace
    those lists and dicts instead of changing them, so a view taken earlier keeps what it saw
    (``tests/engine/test_maracaibo_views.py`` plays games to check it). A view is read-only.
    Keys added later, outside that rule, are copied.
    """
    names = _VIEW_NAMES
    pub = {names.get(k, k): v for k, v in p.items()}  # (in the state's order: the view's, as before format 19)
    if len(p) != _N_KNOWN:  # (every player has every known key, from setup on)
        for k in p.keys() - _KNOWN:
            v = p[k]
            if isinstance(v, (dict, list)):
                pub[names.get(k, k)] = json_copy(v)
    del pub["setup"]
    pub["hand"] = len(p["hand"])
    pub["choosing"] = p["setup"] is not None and len(p["hand"]) < C.HAND_LIMIT  # (done: the plan kept secret)
    return pub


#: the keys of the public part of a view, in their order, with the values that never change
_PUBLIC_VIEW: View = {
    **dict.fromkeys(("game", "label", "players", "seat", "options", "round", "rounds", "turn", "turns", "trigger",
                     "step", "deck", "discard", "display", "piles", "quest_top", "quest_pile", "quests", "tquests",
                     "markers", "supply", "tiles", "market", "prestige", "first", "ended", "over", "multiplier",
                     "legacy")),
    "game": "maracaibo", "label": C.LABEL,
}


def public(state: State) -> View:
    """What everybody sees, the same for every seat."""
    top = state["stack"][-1] if state["stack"] else None
    # Why a template: filling a copy of it (its keys already in order) costs less than a literal
    view: View = _PUBLIC_VIEW.copy()
    view["players"] = list(state["players"])
    view["options"] = dict(state["options"])
    view["round"] = state["round"]
    view["rounds"] = state["rounds"]
    view["turn"] = state["turn"]
    view["turns"] = state["turns"]
    view["trigger"] = state["trigger"]
    if top is not None:
        view["step"] = {"kind": top["kind"], "seat": top.get("seat"), "seats": top.get("seats")}
    view["deck"] = len(state["deck"])
    view["discard"] = list(state["discard"])
    view["display"] = list(state["display"])
    view["piles"] = list(map(len, state["piles"]))
    qpile = state["quest_pile"]
    view["quest_top"] = qpile[0] if qpile else None
    view["quest_pile"] = len(qpile)
    view["quests"] = dict(state["quests"])
    view["tquests"] = dict(state["track_quests"])
    view["markers"] = dict(state["markers"])
    view["supply"] = dict(state["supply"])  # (the lists of the supply and the markets: replaced, shared)
    view["tiles"] = dict(state["tiles"])
    view["market"] = dict(state["market"])
    view["prestige"] = [{"id": b["id"] if b["up"] else None, "up": b["up"], "investors": b["investors"]}
                        for b in state["prestige"]]
    view["first"] = dict(state["first"])
    view["ended"] = state["ended"]
    view["over"] = state["over"]
    view["multiplier"] = multiplier(state)
    view["legacy"] = list(state.get("legacy", ()))
    if "legacy_new" in state:  # the Uprising's scenarios: the new tiles on the board, played or not yet
        view["uprising_legacy"] = [{"id": t, "name": U.LEGACY[t]["name"], "text": U.LEGACY[t]["text"],
                                    "played": t in state["legacy_new"]}
                                   for t in [*state["legacy_new"], *state.get("legacy_unplayed", ())]]
    if "legacy_board" in state:  # what lies on them: the new city's markers, the discs, the ruin track
        view["legacy_board"] = legacyboard.public(state)
    if top is not None and top["kind"] in ("combat", "fight", "village", "explore", "disc", "nation"):
        view["step"]["data"] = json_copy(top["data"])
    view["p"] = list(map(_public_player, state["seats"]))
    if jean.playing(state):
        view["jean"] = jean.public(state)
    if jacques.playing(state):
        view["jacques"] = jacques.public(state)
    if "garrison" in state:
        view["garrison"] = dict(state["garrison"])
    if campaign.active(state):
        view["story"] = campaign.public(state)
    if search.playing(state):
        view["search"] = search.public(state)
    if state["over"]:
        out = outcome(state)
        assert out is not None
        view["outcome"] = out.as_dict()
    return view


def resample_hidden(state: State, seat: int | None, rng: Rng) -> State:
    s = copy.deepcopy(state)
    n = len(s["players"])
    others = [o for o in range(n) if o != seat]
    # cards: the pile, the box, other players' hands and the cards they were dealt
    holders: list[tuple[list[int], int]] = [(s["deck"], len(s["deck"])), (s["box"], len(s["box"]))]
    for o in others:
        p = s["seats"][o]
        holders.append((p["hand"], len(p["hand"])))
        if p["setup"]:
            holders.append((p["setup"]["dealt"], len(p["setup"]["dealt"])))
    if "returned" in s:
        holders.append((s["returned"], len(s["returned"])))
    pool = [c for lst, _ in holders for c in lst]
    # a planned card in setup is the planner's secret too
    for o in others:
        p = s["seats"][o]
        if p["setup"] and p["setup"]["plan"] is not None:
            pool.append(p["setup"]["plan"])
    rng.shuffle(pool)
    for lst, k in holders:
        lst[:] = pool[:k]
        del pool[:k]
    for o in others:
        p = s["seats"][o]
        if p["setup"] and p["setup"]["plan"] is not None:
            p["setup"]["plan"] = pool.pop()
    # combat tokens, face-down prestige buildings, the quest pile under its top
    # (the Uprising's token_choice: the tokens another player drew to keep one are theirs to see)
    drawn = [f["data"] for f in s["stack"] if f["kind"] == "tokenpick" and f["seat"] != seat]
    tokens = s["piles"][0] + s["piles"][1] + [t for d in drawn for t in d["tokens"]]
    rng.shuffle(tokens)
    k = len(s["piles"][0])
    s["piles"] = [tokens[:k], tokens[k:len(s["piles"][1]) + k]]
    rest = tokens[len(s["piles"][0]) + len(s["piles"][1]):]
    for d in drawn:
        d["tokens"], rest = rest[:len(d["tokens"])], rest[len(d["tokens"]):]
    down = [b for b in s["prestige"] if not b["up"]]
    ids = [b["id"] for b in down] + s["prestige_box"]
    rng.shuffle(ids)
    for b in down:
        b["id"] = ids.pop()
    s["prestige_box"] = sorted(ids)
    rest = s["quest_pile"][1:]
    rng.shuffle(rest)
    s["quest_pile"] = s["quest_pile"][:1] + rest
    homeports.resample(s, others, rng)
    if campaign.active(s):
        campaign.resample(s, others, rng)
    if jean.playing(s):
        jean.resample(s, rng)
    if jacques.playing(s):
        jacques.resample(s, rng)
    if search.playing(s):
        search.resample(s, rng)
    return s
