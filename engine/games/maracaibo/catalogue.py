"""Maracaibo's content for a front end: the catalogue (cards, places and routes, the explorer track,
tiles), versioned with the data, and what each option does in its terms.

Read through :meth:`engine.core.Rules.catalogue` and :meth:`~engine.core.Rules.option_details`. Only
the content module is imported: the rules read the same data, so an option's card, place or tile is
the catalogue's. An option's details come from its code (``b12``: buy card 12, ``s7``: sail to place
7; the codes are stable, see the rules) and, for the few codes that name a position instead of a
thing, from the state (``x2``: the display's second card).
"""

from __future__ import annotations

import functools
import re
from typing import Any

from engine.core import versioned
from engine.games.maracaibo import content as C
from engine.games.maracaibo import labels
from engine.games.maracaibo import uprising_content as U

#: Every kind of option, with what it does (the OpenAPI document lists them).
OPTION_KINDS: dict[str, str] = {
    "buy": "buy `card` (pay `cost`) into your display",
    "plan": "put `card` from your hand into your planning area",
    "keep": "keep `card` in your hand",
    "draw_display": "draw `card` from the display (pay `cost`)",
    "draw_pile": "draw from the pile",
    "assistant": "the assistant action of `card` (`effect`)",
    "village_card": "the village action of `card` (`effect`)",
    "village_doubloon": "the village action that takes a doubloon",
    "village_tile": "the village action of tile `tile` (`effect`)",
    "career": "a career task (`amount`: its number, `effect`: what it asks and gives; pay `cost`)",
    "sail": "sail to `place`",
    "deliver": "deliver `good` at the city you are in, then its city action",
    "city_action": "the city action without a delivery (`effect`)",
    "explore": "explore to `space` of the explorer track (`effect`)",
    "explore_action": "the explore main action",
    "combat_action": "the combat main action",
    "combat_card": "play `card` in the combat (`effect`)",
    "annex": "annex `place` in the combat",
    "displace": "displace `nation` at `place` in the combat",
    "combat_influence": "take `amount` influence with `nation` in the combat",
    "pay_combat": "pay for the combat value missing (`effect`)",
    "end_combat": "end the combat",
    "fight": "fight `nation`",
    "influence": "1 influence with `nation`",
    "invest": "invest in prestige building `tile` (pay `cost`)",
    "upgrade": "take the disc off ship area `tile` (`effect`)",
    "combat_token": "reveal a combat token from pile `amount`",
    "quest": "fulfil quest `tile`",
    "home_port": "keep home port `tile` (the Uprising: an id of the catalogue's `tiles.home_ports`, never a place)",
    "pay_with_cards": "pay with `cards` (for quest `tile`, or a delivery)",
    "score": "score `amount` VP",
    "accept": "accept what is offered (`effect`)",
    "decline": "decline what is offered",
    "pass": "no main action",
    "done": "no more village actions",
    "end_main": "end the main phase and draw cards",
    "other": "anything else (the label says it)",
}

#: The JSON Schema (2020-12) of every option's details.
OPTION_DETAILS_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "MaracaiboOptionDetails",
    "type": "object",
    "description": "what a Maracaibo option does, in the catalogue's terms (GET /api/v1/rules/maracaibo/catalogue/)",
    "required": ["kind"],
    "additionalProperties": False,
    "properties": {
        "kind": {"type": "string", "enum": list(OPTION_KINDS)},
        "card": {"type": "integer", "description": "a card id of the catalogue's `cards`"},
        "cards": {"type": "array", "items": {"type": "integer"}, "description": "card ids of the catalogue"},
        "place": {"type": "string", "description": "a place id of the catalogue's `places`"},
        "nation": {"type": "string", "enum": list(C.NATIONS)},
        "good": {"type": "string", "enum": list(C.GOODS)},
        "space": {"type": "integer", "description": "a space of the catalogue's `explorer` track"},
        "tile": {"type": "string",
                 "description": "a tile id of the catalogue's `tiles` (quest, prestige, upgrade, home port)"},
        "amount": {"type": "integer"},
        "cost": {"type": "object", "description": "what the option costs now (discounts included)",
                 "properties": {"d": {"type": "integer"}, "fig": {"type": "integer"}},
                 "additionalProperties": False},
        "effect": {"type": "string", "description": "what it gives, in words"},
    },
}


def _effects(effects: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**e, "text": C.effect_text(e)} for e in effects]


def _card(c: dict[str, Any]) -> dict[str, Any]:
    cost: dict[str, Any] = {"d": c["cost"]}
    if c.get("figure"):
        cost["figure"] = True
    if c.get("assist"):
        cost["assistant_at"] = c["assist"]
    out = {"id": c["id"], "name": c["name"], "deck": c["deck"], "numbered": c["numbered"], "cost": cost,
           "good": c["good"], "object": c["object"], "vp": c["vp"], "effects": _effects(c["effects"]),
           "text": C.card_text(c["id"])}
    if c.get("synergy"):
        out["synergy"] = c["synergy"]
    if c.get("needs"):
        out["needs"] = c["needs"]
    return out


def _place(loc: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in loc.items() if k != "next"}
    if "flag" in loc:
        out["flag_text"] = C.gain_text(loc["flag"])
    return out


def _home_port(hp: dict[str, Any]) -> dict[str, Any]:
    """A home port of the Uprising (SUBSTITUTE CONTENT): its id (``HP11``) names it, never a place's
    (the home port Nassau and the place 2 Nassau share a name: ``kind`` and the id tell them apart)."""
    return {"id": hp["id"], "kind": "home port", "name": hp["name"], "name_pt": hp["pt"],
            "label": f"home port {hp['name']}", "bonus": hp["bonus"], "effects": hp["effects"], "text": hp["text"],
            **({"nation": hp["nation"]} if "nation" in hp else {})}


def _quest(q: dict[str, Any]) -> dict[str, Any]:
    words = {"cost": C.cost_text(q["cost"])}
    for key in ("fixed", "per"):
        if key in q:
            words[key] = C.gain_text(q[key])
    return {**q, "text": words}


def _uprising() -> dict[str, Any]:
    """The Uprising's other components (SUBSTITUTE CONTENT): its city tiles, legacy tiles (with their
    location or explorer space: a page can draw what ``legacy_board`` holds), quest tiles, career, promos
    and modes; its home ports are in ``tiles.home_ports``, its cards in ``cards``."""
    return {
        "label": U.DATA["tiles.json"]["label"],
        "city_tiles": [{**t, "text": t.get("text") or C.CITY_ACTION_TEXT.get(t["action"], t["action"])}
                       for t in U.CITY_TILES],
        "legacy": [dict(t) for t in U.LEGACY.values()],
        "quests": [_quest(q) for q in U.QUESTS],
        "career": dict(U.NEW_CAREER),
        "promos": [dict(p) for p in U.PROMOS] if isinstance(U.PROMOS, list) else dict(U.PROMOS),
        "modes": {k: dict(v) for k, v in U.MODES.items()},
    }


def _build() -> dict[str, Any]:
    tiles = C.TILES
    body: dict[str, Any] = {
        "game": "maracaibo",
        "label": C.LABEL,
        "nations": list(C.NATIONS),
        "goods": list(C.GOODS),
        "objects": list(C.OBJECTS),
        "synergies": list(C.SYNERGIES),
        # (the Uprising's 36 project cards too, "expansion": "uprising": a page shows any card dealt, and the
        # retired ones a game set up before their numbers changed deals: scenarios.RENUMBERED)
        "cards": [*(_card(c) for c in C.CARDS_DATA["cards"]),
                  *({**_card(C.CARD[int(c["id"])]), "expansion": "uprising", "number": c.get("number")}
                    for c in [*U.CARDS, *U.RETIRED_CARDS])],
        "places": [_place(loc) for loc in C.MAP["locations"]],
        "routes": [{"from": loc["id"], "to": nxt} for loc in C.MAP["locations"] for nxt in loc.get("next", [])],
        "two_player_annexed": dict(C.MAP.get("two_player_annexed", {})),
        "explorer": list(C.SPACES),
        "tiles": {
            "quests": [_quest(q) for q in tiles["quests"]],
            "combat": list(tiles["combat"]),
            "city_tiles": [{**t, "text": C.CITY_ACTION_TEXT.get(t["action"], t["action"])}
                           for t in tiles["city_tiles"]],
            "city_actions": {a: C.CITY_ACTION_TEXT.get(a, a) for a in tiles["city_actions"]},
            "prestige": [{**p, "text": f"{p['vp']} VP per {C.PER_WORDS.get(p['per'], p['per'])}"}
                         for p in tiles["prestige"]],
            "careers": list(tiles["careers"]),
            "upgrades": list(tiles["upgrades"]),
            "legacy": list(tiles["legacy"]),
            "home_ports": [_home_port(hp) for hp in U.PORTS],
        },
        "uprising": _uprising(),
        "option_kinds": dict(OPTION_KINDS),
    }
    return versioned(body)


@functools.cache
def catalogue() -> dict[str, Any]:
    """The catalogue (built once; callers get the same dict and must not change it)."""
    return _build()


_EXACT = {"pass": "pass", "end": "end_main", "done": "done", "no": "decline", "yes": "accept",
          "pile": "draw_pile", "city": "city_action", "hexplore": "explore_action", "hfight": "combat_action",
          "cend": "end_combat", "quest": "quest", "vd": "village_doubloon"}
_NATION_LETTER = {"e": "england", "f": "france", "s": "spain"}
#: (pattern, kind, what the number is) in the order tried; the first that matches the whole code wins
_PATTERNS: list[tuple[re.Pattern[str], str, str]] = [
    (re.compile(r"cc(\d+)"), "combat_card", "card"),
    (re.compile(r"ca(.+)"), "annex", "place"),
    (re.compile(r"cd(.+)"), "displace", "place"),
    (re.compile(r"ci(\d+)"), "combat_influence", "amount"),
    (re.compile(r"cp(\d+)"), "pay_combat", "amount"),
    (re.compile(r"vp(\d+)"), "score", "amount"),
    (re.compile(r"f([efs])"), "fight", "nation"),
    (re.compile(r"n([efs])"), "influence", "nation"),
    (re.compile(r"d([a-z]+)"), "deliver", "good"),
    (re.compile(r"b(\d+)"), "buy", "card"),
    (re.compile(r"p(\d+)"), "plan", "card"),
    (re.compile(r"k(\d+)[ul]"), "career", "amount"),
    (re.compile(r"k(\d+)"), "keep", "card"),
    (re.compile(r"a(\d+)"), "assistant", "card"),
    (re.compile(r"v(\d+)"), "village_card", "card"),
    (re.compile(r"v([A-Z]+\d+)"), "village_tile", "tile"),
    (re.compile(r"x(\d+)"), "draw_display", "position"),
    (re.compile(r"e(\d+)"), "explore", "space"),
    (re.compile(r"i(P\d+)"), "invest", "tile"),
    (re.compile(r"h(HP\d+)"), "home_port", "tile"),
    (re.compile(r"u(\d+)"), "upgrade", "upgrade"),
    (re.compile(r"t(\d+)"), "combat_token", "amount"),
    (re.compile(r"y([\d-]+)"), "pay_with_cards", "cards"),
    (re.compile(r"s(.+)"), "sail", "place"),
]
#: a cost in a label: "(4 d)", "(6 d and a figure)", "... for 2 d and a figure" (a career task)
_DOUBLOONS = re.compile(r"\((\d+) d( and a figure)?\)|\bfor (\d+) d( and a figure)?$")
_TILE = re.compile(r"\b(Q\d+)\b")
_WITH_EFFECT = {"assistant", "village_card", "village_tile", "career", "combat_card", "city_action", "pay_combat",
                "accept", "upgrade", "explore"}


def _what(kind: str, what: str, value: str, state: Any) -> dict[str, Any]:
    if what == "card":
        return {"card": int(value)}
    if what == "amount":
        return {"amount": int(value)}
    if what == "space":
        return {"space": int(value)}
    if what == "nation":
        return {"nation": _NATION_LETTER[value]}
    if what == "good":
        return {"good": value} if value in C.GOODS else {}
    if what == "place":
        return {"place": value} if value in C.LOC else {}
    if what == "tile":
        return {"tile": value}
    if what == "upgrade":
        return {"tile": f"U{value}"}
    if what == "cards":
        return {"cards": [int(x) for x in value.split("-") if x]}
    if what == "position":
        display = state.get("display") if isinstance(state, dict) else None
        n = int(value)
        if isinstance(display, list) and 1 <= n <= len(display) and isinstance(display[n - 1], int):
            return {"card": display[n - 1]}
    return {}


def option_details(state: Any, seat: int, option: Any) -> dict[str, Any]:
    """What ``option`` does (a dict matching OPTION_DETAILS_SCHEMA)."""
    code, label = str(option.code), labels.english(option)  # (read from the English label, any language)
    out: dict[str, Any] = {"kind": _EXACT.get(code, "")}
    if not out["kind"]:
        out["kind"] = "other"
        for pattern, kind, what in _PATTERNS:
            m = pattern.fullmatch(code)
            if m:
                found = _what(kind, what, m.group(1), state)
                if what in ("place", "good", "position") and not found:
                    continue  # not this kind after all (a code of another form)
                out = {"kind": kind, **found}
                break
    kind = out["kind"]
    if kind in ("combat_influence", "displace") or (kind == "annex" and "nation" not in out):
        nation = next((n for n in C.NATIONS if n in label.lower()), None)
        if nation:
            out["nation"] = nation
    if kind in ("quest", "pay_with_cards"):
        m = _TILE.search(label)
        if m:
            out["tile"] = m.group(1)
    if kind in ("buy", "draw_display", "invest", "career"):
        m = _DOUBLOONS.search(label)
        if m:
            out["cost"] = {"d": int(m.group(1) or m.group(3)), **({"fig": 1} if m.group(2) or m.group(4) else {})}
    if kind in ("buy", "plan", "keep") and "card" in out and out["card"] in C.CARD:
        out["effect"] = "; ".join(C.effect_text(e) for e in C.CARD[out["card"]]["effects"]) or "no effect"
    elif kind in _WITH_EFFECT and ": " in label:
        out["effect"] = label.split(": ", 1)[1]
    elif kind in ("accept", "explore"):
        out["effect"] = label
    return out
