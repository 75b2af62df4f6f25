"""The data files, loaded once, with the lookups the rules use.

Everything here is SUBSTITUTE CONTENT (see data/build.py and docs/rules/maracaibo.md).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

# (the package's folder from importlib.resources: a module compiled with mypyc gets a __file__
# that assumes another layout, see engine/compiled.py)
_DATA = Path(str(resources.files("engine.games.maracaibo"))) / "data"


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_DATA / name).read_text(encoding="utf-8"))
    return data


MAP = _load("map.json")
EXPLORER_DATA = _load("explorer.json")
CARDS_DATA = _load("cards.json")
TILES = _load("tiles.json")
#: the rulebook's combat actions, one row each (the format: combat.py)
COMBAT_ACTIONS: list[dict[str, Any]] = _load("combat.json")["actions"]
LABEL: str = MAP["label"]

NATIONS = ("france", "england", "spain")
GOODS: list[str] = CARDS_DATA["goods"]
OBJECTS: list[str] = CARDS_DATA["objects"]
SYNERGIES: list[str] = CARDS_DATA["synergies"]

LOC: dict[str, dict[str, Any]] = {loc["id"]: loc for loc in MAP["locations"]}
LOC_ORDER: list[str] = [loc["id"] for loc in MAP["locations"]]
FLAGS: list[str] = [loc["id"] for loc in MAP["locations"] if "flag" in loc]
FLAG_SET: frozenset[str] = frozenset(FLAGS)
VILLAGES: set[str] = {loc["id"] for loc in MAP["locations"] if loc["kind"] == "village"}

SPACES: list[dict[str, Any]] = EXPLORER_DATA["spaces"]
END_SPACE: int = len(SPACES) - 1
BARRIERS: dict[int, str] = {s["id"]: s["barrier"] for s in SPACES if "barrier" in s}
QUEST_SPACES: list[int] = [s["id"] for s in SPACES if s.get("quest")]

CARD: dict[int, dict[str, Any]] = {c["id"]: c for c in CARDS_DATA["cards"]}
A_CARDS = [c["id"] for c in CARDS_DATA["cards"] if c["deck"] == "A"]
B_CARDS = [c["id"] for c in CARDS_DATA["cards"] if c["deck"] == "B" and not c["numbered"]]
NUMBERED = [c["id"] for c in CARDS_DATA["cards"] if c["numbered"]]
CARD_BY_NAME: dict[str, int] = {c["name"]: c["id"] for c in CARDS_DATA["cards"]}

QUEST: dict[str, dict[str, Any]] = {q["id"]: q for q in TILES["quests"]}
TOKEN: dict[str, dict[str, Any]] = {t["id"]: t for t in TILES["combat"]}
CITY_TILE: dict[str, dict[str, Any]] = {t["id"]: t for t in TILES["city_tiles"]}
PRESTIGE: dict[str, dict[str, Any]] = {p["id"]: p for p in TILES["prestige"]}
CAREER: dict[str, dict[str, Any]] = {c["id"]: c for c in TILES["careers"]}
UPGRADES: list[dict[str, Any]] = TILES["upgrades"]
UPGRADE: dict[str, dict[str, Any]] = {u["id"]: u for u in UPGRADES}
SCENARIOS: dict[str, dict[str, Any]] = TILES["scenarios"]
LEGACY: dict[str, dict[str, Any]] = {t["id"]: t for t in TILES["legacy"]}

#: influence track 0..15; noble ranks at the red bands
INFLUENCE_MAX = 15
RANK_AT = {3: 1, 6: 2, 9: 3, 12: 4, 15: 5}
SUPPLY_SPACES = (1, 2, 2, 2, 2, 2, 2)  # 13 markers a nation, the left-most space holds one
COMBAT_MAX = 8
INCOME_D_MIN, INCOME_D_MAX, INCOME_VP_MAX = 8, 34, 20
START_MONEY = (8, 9, 10, 11)
HAND_LIMIT, HAND_LIMIT_UPGRADED, PLAN_SLOTS = 4, 6, 3
FIGURES_MAX = 8

CITY_ACTION_TEXT = {
    "inf_village": "1 influence with a nation of your choice, then a village action",
    "cp_disc": "1 combat point, then remove a disc of your choice from your ship board",
    "cp3": "3 combat points",
    "d2_village": "2 doubloons, then a village action",
    "cp_inf": "1 combat point and 1 influence with a nation of your choice",
    "compass": "1 village action for each compass you have",
    "tokens_discard": "1 VP per combat token on your ship board; you may discard your hand for 4 doubloons",
    "assistants": "4 doubloons or 2 VP for each of your assistants in the Caribbean",
    "pay_cp": "you may pay 2 combat points for 1 influence and 6 doubloons",
    "combat": "a combat action",
    "top_quest": "fulfil the face-up top quest of the quest pile (legacy tile L1)",
    "gain": "the legacy city's own reward (legacy tiles L4, L7)",
    "new_city": "1 doubloon and 1 combat point for each assistant on the board and each figure in your supply "
                "(legacy tile L30)",
}


#: the city actions told about the player who takes them (events: each reader's story turns the
#: reader's own "their" into "your", and leaves another player's as it is)
CITY_ACTION_TOLD = {
    "inf_village": "1 influence with a nation of their choice, then a village action",
    "cp_disc": "1 combat point, then a disc of their choice off their ship board",
    "compass": "1 village action for each of their compasses",
    "tokens_discard": "1 VP per combat token on their ship board; may discard their hand for 4 doubloons",
    "assistants": "4 doubloons or 2 VP for each of their assistants in the Caribbean",
    "pay_cp": "may pay 2 combat points for 1 influence and 6 doubloons",
    "new_city": "1 doubloon and 1 combat point for each assistant on the board and each figure in their supply",
}


def told(text: str) -> str:
    """A rule's text written to the player who uses it ("ending your sailing ... or all you have"),
    told about that player instead, for an event everyone reads."""
    text = re.sub(r"\ball you have\b", "all their doubloons", text)
    text = re.sub(r"\byou may\b", "may", text)
    return re.sub(r"\byour\b", "their", text)


def rank(influence: int) -> int:
    if 0 <= influence < len(_RANKS):
        return _RANKS[influence]
    return _rank(influence)


def _rank(influence: int) -> int:
    best = 0
    for at, r in RANK_AT.items():
        if influence >= at:
            best = max(best, r)
    return best


#: the noble rank of every influence on the track (worked out once: the final scoring and the career
#: metric ask for it for every nation)
_RANKS: list[int] = [_rank(i) for i in range(INFLUENCE_MAX + 1)]


def next_rank_at(influence: int) -> int | None:
    for at in sorted(RANK_AT):
        if at > influence:
            return at
    return None


def gain_text(g: dict[str, Any]) -> str:
    """A gain bundle in words."""
    parts = []
    names = {"d": "doubloon", "vp": "VP", "cp": "combat point", "fig": "figure", "draw": "card drawn"}
    for key in ("d", "vp", "cp", "fig", "draw"):
        if key in g and "per" not in g:
            n = g[key]
            word = names[key]
            plural = "s" if abs(n) != 1 and key not in ("vp",) else ""
            parts.append(f"{n} {word}{plural}")
    if "inf" in g:
        parts.append(f"{g['inf']} influence")
    if "explore" in g:
        parts.append(f"explore {g['explore']}")
    if "disc" in g:
        parts.append(f"remove {g['disc']} disc{'s' if g['disc'] != 1 else ''}")
    if "per" in g:
        what = {"quest": "quest", "combat": "combat token", "synergy": "synergy token", "upgrade": "ship upgrade",
                "assistant": "assistant", "cp": "combat point", "figure": "figure in your supply"}[g["per"]]
        each = " and ".join(f"{g[k]} {names[k]}{'s' if k == 'd' and g[k] != 1 else ''}" for k in ("d", "vp") if k in g)
        parts.append(f"{each} per {what}")
    return ", ".join(parts) or "nothing"


#: What a prestige building counts, in words ("2 VP per 3 cards in the display").
PER_WORDS = {"quest": "quest fulfilled", "combat": "combat token", "synergy": "synergy token",
             "upgrade": "ship upgrade", "rank": "noble rank", "assistant": "assistant",
             "display": "card in the display", "display3": "3 cards in the display",
             "explorer": "explorer space", "explorer5": "5 explorer spaces", "influence": "influence"}


def counted(n: int, one: str, other: str | None = None) -> str:
    """``n`` and a noun in the English form for it: "1 doubloon", "2 doubloons" (#27: "1 doubloons")."""
    return f"{n} {one if abs(n) == 1 else (other or one + 's')}"


def cost_text(cost: dict[str, Any]) -> str:
    parts = [*cost.get("goods", []), *cost.get("objects", [])]
    if cost.get("d"):
        parts.append(counted(cost["d"], "doubloon"))
    if cost.get("cp"):
        parts.append(counted(cost["cp"], "combat point"))
    if cost.get("fig"):
        parts.append(counted(cost["fig"], "figure"))
    return " + ".join(parts) or "nothing"


#: the words of the Uprising's extensions a dealt card may carry (uprising_content.PLAYED_EXTENSIONS)
EXT_TEXT: dict[str, Callable[[dict[str, Any]], str]] = {
    "per_more": lambda e: "now: " + gain_text(e["gain"]),
    "one_of": lambda e: "now, one of: " + "; or ".join(gain_text(g) for g in e["gains"]),
    "trade_any": lambda e: f"now: pay any number of {e['pay']}, each for {gain_text(e['gain'])}",
    "marker_removed": lambda e: f"each marker you remove from a location (displace, liberate): {gain_text(e['gain'])}",
    "by_object": lambda e: (f"new combat action (value {e['cost']}): " if e["t"] == "combat" else "now: ")
    + "reveal the top project card and discard it, by its object (" + by_object_text(e["by_object"]) + ")",
    "income_when": lambda e: f"+{e['vp']} VP income once " + (
        f"your explorer passes the {e['when']['barrier']} barrier" if "barrier" in e["when"]
        else "you have " + when_text(e["when"])),
    "fight_for_pays": lambda e: f"each fight for the nation this card's figure marks (anyone's, yours too): "
    f"{gain_text(e['gain'])}",
    "token_choice": lambda e: f"starting a combat, draw {e['n']} combat tokens, keep one, the other to the bottom "
    "of a pile",
    "village_variety": lambda e: village_variety_text(e),
    "empty_village_d": lambda e: f"ending your movement in a village without a marker: 1 doubloon per movement "
    f"point spent (at most {e['max']})",
    "wild_card": lambda e: "from now on, discard this card instead of paying one good or object of your choice",
    "liberate": lambda e: "now: remove a marker from a village of your choice (to your resistance tile if you "
    "can, else out of the game)" + (f", and {gain_text(e['gain'])}" if e.get("gain") else ""),
}


def village_variety_text(e: dict[str, Any]) -> str:
    """A ``village_variety`` extension in words (``2 VP for 2 ..., 5 VP for 3+ ...``).

    A def, not a lambda in EXT_TEXT: mypyc fails with an internal error on the generator with
    its own lambda key nested in a lambda (make compile).
    """
    top = max(int(k) for k in e["vp"])
    parts = []
    for k in sorted(e["vp"], key=int):
        plus = "+" if int(k) == top else ""
        parts.append(f"{e['vp'][k]} VP for {k}{plus} different village actions this turn")
    return "at the end of your main action, " + "; ".join(parts)


def when_text(when: dict[str, Any]) -> str:
    """An ``income_when`` condition in words (``5 combat tokens``, ``the explorer past the green barrier``)."""
    parts = []
    for key, n in when.items():
        if key == "barrier":
            parts.append(f"the explorer past the {n} barrier")
        else:
            parts.append(f"{n} {'combat tokens' if key == 'combat' else 'ship upgrades'}")
    return " and ".join(parts)


def by_object_text(table: dict[str, dict[str, Any]]) -> str:
    """A ``by_object`` table in words: ``book: 4 doubloons; herbs: 4 VP ...``."""
    return "; ".join(f"{obj}: {gain_text(g)}" for obj, g in sorted(table.items()))


def effect_text(e: dict[str, Any]) -> str:
    t = e["t"]
    if e.get("ext") in EXT_TEXT:
        return str(EXT_TEXT[e["ext"]](e))
    if t == "income":
        what = f"+{e['d']} doubloon income" if "d" in e else f"+{e['vp']} VP income"
        return what + (f" (with the {e['needs']} synergy token)" if "needs" in e else "")
    if t == "now":
        return "now: " + gain_text(e["gain"])
    if t == "village":
        return "new village action: " + gain_text(e["gain"])
    if t == "combat":
        return f"new combat action (value {e['cost']}): " + gain_text(e["gain"])
    if t == "assistant":
        return "assistant action: " + gain_text(e["gain"])
    if t == "perm":
        return {
            "discount": f"cards cost {e['n']} doubloon less",
            "compass": f"+{e['n']} compass",
            "quest_vp": f"+{e['n']} VP for each quest you fulfil",
            "deliver_d": f"+{e['n']} doubloon for each delivery",
            "combat_plus": f"+{e['n']} combat value in every combat",
        }[e["k"]]
    return str(t)


def sold_before(c: dict[str, Any]) -> int | None:
    """The round from which a card is no longer sold, as its row says (the Uprising's substitute requirement
    of the Rebel Chronicler, #20: bought late, its synergy tokens paid off too well): ``"needs":
    {"before_round": N}`` sold in rounds 1 to N - 1 (card 240); ``{"before_last_round": true}`` (card 239, and
    238 of stored games) 0, the game's last round; None: sold in every round (board.window_closed)."""
    needs = c.get("needs") or {}
    if "before_round" in needs:
        return int(needs["before_round"])
    return 0 if needs.get("before_last_round") else None


def window_words(c: dict[str, Any]) -> str:
    """A card's buying window in words ('' for none): 'before the last round', 'before round 3'."""
    r = sold_before(c)
    return "" if r is None else "before the last round" if r == 0 else f"before round {r}"


def card_text(cid: int) -> str:
    """A card with its good, object, cost and effects in words."""
    c = CARD[cid]
    cost = f"{c['cost']} d"
    if c.get("figure"):
        cost += " + return a figure"
    if c.get("assist"):
        cost += f" + an assistant at {c['assist']} {LOC[c['assist']]['name']}"
    if c.get("needs"):  # (a barrier, a buying window: board.window_closed, or both)
        said = [f"explorer past the {c['needs']['barrier']} barrier"] if "barrier" in c["needs"] else []
        said += [w for w in [window_words(c)] if w]
        cost += f" ({', '.join(said)})" if said else ""
    if c.get("cost_goods"):  # the Uprising's requirement fields (card_requirements.py)
        cost += " + " + " + ".join(c["cost_goods"])
    if c.get("nation_worker"):
        cost += " + a figure to a nation's influence track"
    if c.get("token_worker"):
        cost += " + a figure beside the combat tokens"
    effects = "; ".join(effect_text(e) for e in c["effects"]) or "no effect"
    extra = f"; synergy {c['synergy']}" if c.get("synergy") else ""
    return (f"{c['name']} [{c['good']}/{c['object']}] cost {cost}: {effects}; {c['vp']} VP at the end{extra}")
