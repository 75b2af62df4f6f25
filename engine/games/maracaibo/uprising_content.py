"""Maracaibo: The Uprising's data files, loaded once, with the check of their effects.

Everything here is SUBSTITUTE CONTENT (``data/uprising/build.py``, docs/rules/maracaibo-uprising.md).
The rules read it where a module is played (homeports.py, resistance.py, uprising.py,
liberation.py, scenarios.py); the new career, the quest tiles and the project cards the rules play
(:data:`PLAYABLE_CARDS`: effects in the base language or in an extension of :data:`PLAYED_EXTENSIONS`)
are added to the base game's lookups (``C.CARD``, ``C.QUEST``, ``C.CAREER``) below, and dealt only in
the expansion's modes (scenarios.b_cards: 78, 79, 74, 193 and a campaign's games with it).

An effect (a dict with ``"t"``) is either in the base game's effect language (the kinds and gain
keys ``effects.py`` interprets and ``content.effect_text`` words) or carries ``"ext"``, the name
of an extension the rules page lists under "Effect language: needed extensions"
(:data:`EXTENSIONS`). :func:`problems` lists every row that is neither.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from . import content as C

# (the package's folder from importlib.resources, as content.py does: see engine/compiled.py)
_DATA = Path(str(resources.files("engine.games.maracaibo"))) / "data" / "uprising"

FILES = ("ports.json", "boards.json", "cards.json", "tiles.json")


def _load(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((_DATA / name).read_text(encoding="utf-8"))
    return data


DATA: dict[str, dict[str, Any]] = {name: _load(name) for name in FILES}
PORTS: list[dict[str, Any]] = DATA["ports.json"]["ports"]
PORT: dict[str, dict[str, Any]] = {p["id"]: p for p in PORTS}
BOARDS: dict[str, Any] = DATA["boards.json"]
CARDS: list[dict[str, Any]] = DATA["cards.json"]["cards"]
#: cards whose substitute numbers changed, as they were, under their old ids (build.py's _RETIRED): dealt only
#: in a game set up before the change (scenarios.RENUMBERED), never counted among the 36
RETIRED_CARDS: list[dict[str, Any]] = DATA["cards.json"]["retired_cards"]
CARD: dict[int, dict[str, Any]] = {c["id"]: c for c in [*CARDS, *RETIRED_CARDS]}
NUMBERED: dict[int, int] = {c["number"]: c["id"] for c in CARDS if c["numbered"]}
NEW_CAREER: dict[str, Any] = DATA["cards.json"]["new_career"]
LIBERATION_CAREERS: list[dict[str, Any]] = DATA["cards.json"]["liberation_careers"]
CITY_TILES: list[dict[str, Any]] = DATA["cards.json"]["city_tiles"]
PROMOS: list[dict[str, Any]] = DATA["cards.json"]["promos"]
QUESTS: list[dict[str, Any]] = DATA["tiles.json"]["quests"]
LEGACY: dict[str, dict[str, Any]] = {t["id"]: t for t in DATA["tiles.json"]["legacy"]}
MODES: dict[str, dict[str, Any]] = DATA["tiles.json"]["modes"]
MODULES: dict[str, dict[str, Any]] = DATA["tiles.json"]["modules"]
SCENARIOS: dict[str, dict[str, Any]] = DATA["tiles.json"]["scenarios"]
BY_OBJECT: dict[str, dict[str, int]] = DATA["tiles.json"]["by_object"]
# The new career card joins the base game's careers (the rulebook: "Adicione a nova carta de
# carreira ... às do jogo base"): its id is known to every career lookup (it is dealt only in the
# expansion's modes).
C.CAREER.setdefault(str(NEW_CAREER["id"]), NEW_CAREER)

# ---- the base effect language (what effects.py interprets and content.effect_text words) ----------
EFFECT_KINDS = frozenset({"income", "now", "perm", "village", "combat", "assistant"})
GAIN_KEYS = frozenset({"d", "vp", "cp", "fig", "draw", "inf", "explore", "disc", "per"})
PER_KINDS = frozenset({"quest", "combat", "synergy", "upgrade", "assistant"})
PERM_KINDS = frozenset({"discount", "compass", "quest_vp", "deliver_d", "combat_plus"})
#: the effect kinds an extension may add (Own Monument's end-of-game effect)
EXTENSION_KINDS = frozenset({"end"})

#: the extensions the rules page lists ("Effect language: needed extensions"), with which are played
EXTENSIONS = frozenset({
    "liberate", "combat_nation", "market_take", "village_trade", "wild_sugar", "income_influence", "stop_marker",
    "village_plus_main", "explore_second_last", "deliver_again_cp", "second_explorer", "optional_pay",
    "cost_goods", "nation_worker", "token_worker", "by_object", "income_when", "fight_for_pays", "token_choice",
    "village_variety", "wild_card", "empty_village_d", "stops_collect", "last_pay_influence", "trade_any",
    "card_quests", "one_of", "return_marker", "per_more", "by_round", "other_assistant", "city_tile_cities",
    "hand_plus", "end_per_rank", "legacy_space", "new_city", "liberation_metric", "marker_removed",
})

#: card fields that are themselves extensions of the card format (a requirement the base cards lack)
CARD_FIELD_EXTENSIONS = {"cost_goods": "cost_goods", "nation_worker": "nation_worker",
                         "token_worker": "token_worker"}


def gain_problems(g: Any, per_more: bool = False) -> list[str]:
    """Why ``g`` is not a gain bundle of the base language (empty when it is)."""
    if not isinstance(g, dict):
        return [f"a gain must be a dict, not {g!r}"]
    out = [f"unknown gain key {k!r}" for k in g if k not in GAIN_KEYS]
    out += [f"gain {k!r} is not a whole number" for k, v in g.items() if k != "per" and not isinstance(v, int)]
    if "per" in g and g["per"] not in PER_KINDS and not per_more:
        out.append(f"unknown 'per' {g['per']!r}")
    return out


def effect_problems(e: dict[str, Any]) -> list[str]:
    """Why ``e`` is neither a base-language effect nor one naming a listed extension."""
    t = e.get("t")
    ext = e.get("ext")
    if ext is not None:
        out = [] if ext in EXTENSIONS else [f"unlisted extension {ext!r}"]
        if t not in EFFECT_KINDS | EXTENSION_KINDS:
            out.append(f"unknown effect kind {t!r}")
        for g in ([e["gain"]] if "gain" in e else []) + list(e.get("gains", [])):
            out += gain_problems(g, per_more=ext == "per_more")
        return out
    if t not in EFFECT_KINDS:
        return [f"unknown effect kind {t!r} without an extension"]
    out = []
    if t == "income":
        known = {"t", "d", "vp", "needs"}
        out += [f"unknown income key {k!r}" for k in e if k not in known]
        if ("d" in e) == ("vp" in e):
            out.append("an income gives doubloons or VP")
    elif t == "perm":
        if e.get("k") not in PERM_KINDS:
            out.append(f"unknown permanent effect {e.get('k')!r}")
        out += [f"unknown perm key {k!r}" for k in e if k not in {"t", "k", "n"}]
    else:
        out += gain_problems(e.get("gain"))
        known = {"t", "gain", "cost"} if t == "combat" else {"t", "gain"}
        out += [f"unknown {t} key {k!r}" for k in e if k not in known]
        if t == "combat" and not isinstance(e.get("cost"), int):
            out.append("a combat action needs a whole-number cost")
    if not out:
        try:
            C.effect_text(e)  # the base game's words for it: the base language reads it
        except (KeyError, TypeError) as exc:
            out.append(f"the base wording fails: {exc!r}")
    return out


def walk(node: Any, path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every dict in the data with where it is."""
    if isinstance(node, dict):
        yield path, node
        for k, v in node.items():
            yield from walk(v, f"{path}.{k}")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from walk(v, f"{path}[{i}]")


def effects() -> Iterator[tuple[str, dict[str, Any]]]:
    """Every effect (a dict with ``"t"``) in the four files."""
    for name, data in DATA.items():
        for path, node in walk(data, name):
            if "t" in node:
                yield path, node


def extensions_used() -> set[str]:
    """Every extension the data needs (effects, tiles and card fields)."""
    used: set[str] = set()
    for name, data in DATA.items():
        for _path, node in walk(data, name):
            if isinstance(node.get("ext"), str):
                used.add(node["ext"])
    for c in CARDS:
        used |= {ext for field, ext in CARD_FIELD_EXTENSIONS.items() if field in c}
    return used


def problems() -> list[str]:
    """Every effect that the base language cannot read and that names no listed extension."""
    out = [f"{path}: {p}" for path, e in effects() for p in effect_problems(e)]
    out += [f"unlisted extension {x!r}" for x in sorted(extensions_used() - EXTENSIONS)]
    return out


def base_language(e: dict[str, Any]) -> bool:
    """The effect is in the base language as it is (no extension)."""
    return "ext" not in e and not effect_problems(e)


# ---- what of the content the rules play (scenarios.py deals it in modes 78 and 79) -----------------

#: The extensions the rules PLAY on a dealt project card (docs/rules/maracaibo-uprising.md, "Effect
#: language: needed extensions"): a name plays every form of it; ``"name@kind"`` only the effect of that
#: kind (``"liberate@now"``: a card's immediate liberation, not the combat actions); a card field's name
#: (``CARD_FIELD_EXTENSIONS``) that requirement; ``"liberation_symbol"`` a card showing the symbol. One a
#: line: the engineers of the extensions add theirs here, and only once the rule plays, is worded
#: (content.effect_text) and the bot can choose among its options.
PLAYED_EXTENSIONS: frozenset[str] = frozenset({
    "marker_removed",
    "per_more",
    "one_of",
    "trade_any",
    "liberate@now",
    "liberation_symbol",
    "by_object@now",
    "by_object@combat",
    "cost_goods",
    "nation_worker",
    "token_worker",
    "income_when",
    "fight_for_pays",
    "token_choice",
    "village_variety",
    "empty_village_d",
    "wild_card",
    "stops_collect",
    "last_pay_influence",
    "card_quests",
    "return_marker",
    "other_assistant",
    "by_round",
    "village_trade",
})


def played(e: dict[str, Any], registry: frozenset[str] = PLAYED_EXTENSIONS) -> bool:
    """The effect is in the base language, or names an extension the rules play in its form."""
    ext = e.get("ext")
    if ext is None:
        return base_language(e)
    return (ext in registry or f"{ext}@{e.get('t')}" in registry) and not effect_problems(e)


def playable_card(c: dict[str, Any], registry: frozenset[str] = PLAYED_EXTENSIONS) -> bool:
    """A project card the rules play: every effect played (:func:`played`), every requirement field of an
    extension registered, and its liberation symbol handled."""
    return (all(played(e, registry) for e in c["effects"])
            and all(ext in registry for f, ext in CARD_FIELD_EXTENSIONS.items() if f in c)
            and (not c.get("liberation_symbol") or "liberation_symbol" in registry))


#: the expansion's project cards the rules play now, dealt in the expansion's modes (scenarios.b_cards; the others
#: need an extension not yet played: not dealt, docs/rules/maracaibo-uprising.md)
PLAYABLE_CARDS: list[dict[str, Any]] = [c for c in CARDS if playable_card(c)]
# Why registered in the base lookups: every rule reads a card, a quest or a career by its id there
# (the ids do not clash: tests/engine/test_uprising_content.py); only the expansion's modes deal them.
for _c in PLAYABLE_CARDS:
    C.CARD.setdefault(int(_c["id"]), _c)
    C.CARD_BY_NAME.setdefault(str(_c["name"]), int(_c["id"]))
for _c in RETIRED_CARDS:  # (a stored game plays them; a name means today's card)
    C.CARD.setdefault(int(_c["id"]), _c)
for _q in QUESTS:
    C.QUEST.setdefault(str(_q["id"]), _q)
