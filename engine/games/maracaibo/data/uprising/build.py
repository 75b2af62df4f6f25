"""Writes the SUBSTITUTE CONTENT of Maracaibo: The Uprising as JSON beside this file.

SUBSTITUTE CONTENT, not the published expansion's: the rulebook's text
(``shared/rules/maracaibo-the-uprising.pt.txt``, the authority) names the components
and gives some numbers; what only its illustrations show is this project's own, consistent
with every number the text gives (docs/rules/maracaibo-uprising.md, "Assumptions"). Numbers
the text gives, kept here: 15 home ports and their ongoing effects as the text words them,
28 quest tiles, 36 project cards (7 of them numbered 100-106), 1 career card, 2 city tiles,
the resistance tile (4 spaces; unlock 4 doubloons; village action at combat value 3, double
reward; full: 3 doubloons and 1 VP per combat token; space 1 a disc and space 3 a figure, from
the worked examples), Liberate City 6 / Village 4 (L40), 5 / 3 and the upgrade's 3 / 2
(Liberation), the legacy tiles' numbers of page 12, the promos' 8 VP / hand +1 and 2 VP per
rank. The effects are written in the base game's effect language
(``engine/games/maracaibo/effects.py``); an effect it cannot say carries ``"ext"``, the name of
an extension listed on the rules page under "Effect language: needed extensions".

Run ``python -m engine.games.maracaibo.data.uprising.build`` after editing; the JSON files are
what ``uprising_content.py`` reads, and a test checks they match this script.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
LABEL = "SUBSTITUTE CONTENT - not the published game's (Maracaibo: The Uprising)"

NATIONS = ["france", "england", "spain"]
GOODS = ["tobacco", "corn", "sugar", "cotton"]
OBJECTS = ["book", "spyglass", "herbs", "sword"]

# What revealing a project card gives by its object (the iconography's combat action, L32's
# spaces 1 and 3, L34): "Se a carta mostra ervas curativas, você ganha 4 pontos de vitória".
BY_OBJECT: dict[str, dict[str, int]] = {"book": {"d": 4}, "spyglass": {"explore": 2}, "herbs": {"vp": 4},
                                        "sword": {"cp": 3}}


def _bonus(pay: int, gain: dict[str, int]) -> dict[str, Any]:
    """A home port's immediate bonus: pay doubloons for VP or influence, may be declined."""
    return {"t": "now", "ext": "optional_pay", "pay": {"d": pay}, "gain": gain}


# ---- home ports (15) ------------------------------------------------------------------------------
# "text": the rulebook's wording of the ongoing effect (the English translation of the Portuguese).
PORTS: list[dict[str, Any]] = [
    {"id": "HP1", "name": "Antwerp", "pt": "Antuérpia", "bonus": _bonus(4, {"vp": 4}),
     "effects": [{"t": "perm", "ext": "market_take", "gain": {"d": 3, "vp": 3}}],
     "text": "When performing a city action, you can choose not to deliver a good to the market (even if the "
             "market is already full) and instead remove a disc from the city's market. If you do, take 3 "
             "doubloons and score 3 victory points. If the market is empty, you cannot use this effect (but you "
             "can deliver as usual)."},
    {"id": "HP2", "name": "Bremen", "pt": "Bremen", "bonus": _bonus(3, {"inf": 1}),
     "effects": [{"t": "village", "ext": "village_trade", "pay": {"goods": ["tobacco", "tobacco"]},
                  "gain": {"d": 5}, "repeat": True}],
     "text": "You have a new village action available to you: Pay 2 tobacco to take 5 doubloons. You can perform "
             "this action several times (as long as you have enough tobacco and village actions available to do "
             "so)."},
    {"id": "HP3", "name": "Cayman Islands", "pt": "Ilhas Cayman", "bonus": _bonus(5, {"vp": 5}),
     "effects": [{"t": "perm", "ext": "wild_sugar"}],
     "text": "You can use cards with sugar as any good or object of your choice. You could even use a sugar card "
             "showing a book as a spyglass! You can use several cards at the same time to pay costs."},
    # "left_out": the modules whose games leave the port out of the ports dealt (homeports.set_boards). The
    # Liberation module: "os Portos de Origem que lhe dão influência obtêm 2 pontos de vitória por influência.
    # Não recomendamos o uso de 'Genova' neste caso" (followed since format 16: docs/rules/maracaibo-uprising.md,
    # A7; a game set up before deals from all 15, option port_pool "all")
    {"id": "HP4", "name": "Genova", "pt": "Genova", "bonus": _bonus(4, {"vp": 4}), "left_out": ["liberation"],
     "effects": [{"t": "income", "ext": "income_influence", "inf": 2, "nation": "fewest"}],
     "text": "This home port has no ongoing effect - instead, it has an income effect. During income, gain 2 "
             "influence with the nation that currently controls the fewest locations. If there is a tie, choose "
             "1 of them."},
]
for _i, (_name, _nation) in enumerate((("Kingstown", "england"), ("Port-au-Prince", "france"),
                                       ("Yaquimel", "spain"))):
    PORTS.append({
        "id": f"HP{5 + _i}", "name": _name, "pt": _name.replace("-au-", "-Au-"), "nation": _nation,
        "bonus": _bonus(3, {"inf": 1}),
        "effects": [{"t": "combat", "ext": "combat_nation", "cost": 2, "nation": _nation,
                     "gain": {"d": 4, "inf": 1}}],
        "text": "When you fight with the indicated nation, you have a new combat action available to you: Reduce "
                "your combat value by 2 to take 4 doubloons and gain 1 influence with this nation."})
for _i, (_name, _nation) in enumerate((("Grand Turk", "england"), ("Port of Spain", "spain"),
                                       ("Roseau", "france"))):
    PORTS.append({
        "id": f"HP{8 + _i}", "name": _name, "pt": "Rosseau" if _name == "Roseau" else _name, "nation": _nation,
        "bonus": _bonus(5, {"vp": 5}),
        "effects": [{"t": "perm", "ext": "stop_marker", "nation": _nation, "gain": {"d": 2}}],
        "text": "Whenever you end your movement at a location (village or city) with a matching ownership marker, "
                "take 2 doubloons. If an assistant lets you move again, this effect can apply to both locations."})
PORTS += [
    {"id": "HP11", "name": "Nassau", "pt": "Nassau", "bonus": _bonus(3, {"inf": 1}),
     "effects": [{"t": "perm", "ext": "village_plus_main", "n": 1}],
     "text": "Whenever you end your movement at a village and choose the village actions as your main action, "
             "you can perform one additional village action. This effect is not triggered by village actions "
             "gained from any other actions (for example, as part of a city action, from assistants or from the "
             "last space on the explorer track)."},
    {"id": "HP12", "name": "Oranjestad", "pt": "Oranjestad", "bonus": _bonus(4, {"vp": 4}),
     "effects": [{"t": "village", "ext": "village_trade", "pay": {"goods": ["corn", "corn"]}, "gain": {"cp": 3},
                  "repeat": True}],
     "text": "You have a new village action available to you: Pay 2 corn to gain 3 combat points. You can perform "
             "this action several times (as long as you have enough corn and village actions available to do so)."},
    {"id": "HP13", "name": "Panamá", "pt": "Panamá", "bonus": _bonus(3, {"inf": 1}),
     "effects": [{"t": "perm", "ext": "explore_second_last", "min": 2}],
     "text": "When moving your explorer at least 2 spaces, you receive not only the reward for the space you moved "
             "to, but also for the second-to-last space you moved to. If that space contains a quest, you can "
             "fulfil it! Skip occupied spaces as usual."},
    {"id": "HP14", "name": "Porto", "pt": "Porto", "bonus": _bonus(5, {"vp": 5}),
     "effects": [{"t": "perm", "ext": "deliver_again_cp", "gain": {"cp": 2}}],
     "text": "After delivering a good as part of a city action, you can immediately discard an identical good to "
             "gain 2 combat points (regardless of whether the city's market is full or not). This effect only "
             "counts during city actions."},
    {"id": "HP15", "name": "Roatán", "pt": "Roatán", "bonus": _bonus(4, {"inf": 1}),
     "effects": [{"t": "now", "ext": "second_explorer", "figure": 1}],
     "text": "As soon as you unlock this ship upgrade, immediately place a worker (figure) at the start of the "
             "explorer track. You can only do this when you unlock the upgrade. From now on, you can split your "
             "exploration movement between the explorer and the worker. First you move your explorer, then the "
             "worker. You receive rewards from both (as long as both have moved at least 1 space). You also "
             "receive barrier rewards for the worker. For all Legacy Tiles (for example, L4 or L31) and the "
             "automatic scoring, always use the position of your explorer (not the worker). The worker can never "
             "be ahead of your explorer (if they are on different paths, count the number of spaces up to the "
             "next barrier). Otherwise, it moves like any explorer."},
]

# ---- the new ship boards: three slots ---------------------------------------------------------------
BOARDS: dict[str, Any] = {
    "slots": ["combat_tile", "resistance", "home_port"],
    "discs_per_slot": 2,
    # "A melhoria de navio indicado dá a cada jogador bússola e dobrões" (3 doubloons: substitute); on the
    # substitute ship board it takes the place of U4 ("5 doubloons now")
    "compass_upgrade": {"id": "U4C", "replaces": "U4", "text": "a compass and 3 doubloons now",
                        "effects": [{"t": "now", "gain": {"d": 3}}, {"t": "perm", "k": "compass", "n": 1}]},
    "combat_tile": {
        # the front: the base game's options (influence, annex 4, displace 6) and, as its upgrade, the base
        # ship board's combat action U6 (a village: empty 2 / displace 5)
        "base": {"text": "the base game's combat actions; upgrade: a village, empty 2 / displace 5",
                 "upgrade": "U6"},
        # the back ("lado mostrando U"), with Liberation of the Caribbean; a marker of the nation fought, as
        # L40's Liberate City / Village say (Assumption A15)
        "liberation": {
            "actions": [
                {"t": "combat", "ext": "liberate", "id": "LC", "cost": 5, "where": "city", "nation": "fought",
                 "flag": True, "once": "turn", "gain": {}},
                {"t": "combat", "ext": "liberate", "id": "LV", "cost": 3, "where": "village", "nation": "fought",
                 "once": "turn", "gain": {}},
            ],
            "upgrade": [
                {"t": "combat", "ext": "liberate", "id": "LC2", "cost": 3, "where": "city", "nation": "fought",
                 "flag": True, "once": "turn", "shared": "extra", "gain": {}},
                {"t": "combat", "ext": "liberate", "id": "LV2", "cost": 2, "where": "village", "nation": "fought",
                 "once": "turn", "shared": "extra", "gain": {}},
            ],
        },
    },
    "resistance": {
        "front": {"text": "take 5 doubloons", "unlock": [{"t": "now", "gain": {"d": 5}}]},
        "back": {"text": "4 doubloons; village action: liberate the village you are at (value 3), double reward",
                 "unlock": [{"t": "now", "gain": {"d": 4}}],
                 "village": {"t": "village", "ext": "liberate", "cost_value": 3, "where": "here",
                             "nation": "any", "double": True, "gain": {}}},
        # space 1: a disc (Beth's example), space 3: a figure (Alex's example); 2 and 4 substitute
        "spaces": [{"n": 1, "gain": {"disc": 1}}, {"n": 2, "gain": {"cp": 2}}, {"n": 3, "gain": {"fig": 1}},
                   {"n": 4, "gain": {"d": 3}}],
        # a row: the outer spaces one neighbour each, the inner two (Assumption A1)
        "adjacent": {"1": [2], "2": [1, 3], "3": [2, 4], "4": [3]},
        # "Pegue 3 dobrões e marque 1 ponto de vitória por ficha de combate" (Assumption A2): two gains, since
        # a base gain's "per" multiplies both its doubloons and its VP
        "full": [{"t": "now", "gain": {"d": 3}}, {"t": "now", "gain": {"vp": 1, "per": "combat"}}],
    },
}

# ---- project cards (36): 29 unnumbered, 7 numbered 100-106 ---------------------------------------
_BARRIER_FIG = {"needs": {"barrier": "green"}, "figure": True}


def _card(name: str, cost: int, vp: int, effects: list[dict[str, Any]], **extra: Any) -> dict[str, Any]:
    return {"name": name, "cost": cost, "vp": vp, "effects": effects, **extra}


_CARDS: list[dict[str, Any]] = [
    # requirements (the iconography's "novos requisitos de construção")
    # (its numbers changed five times by the balance runs of #20: card 237 in card 201's place, card 238 in
    # 237's, sold past the blue barrier and only before the last round, card 239 in 238's: cost 12 and 0 VP,
    # card 240 in 239's: sold only in rounds 1 and 2, before round 3, then card 241 in 240's: card 239's window
    # again, before the last round, at cost 13 and with no barrier to be past; 201, 237, 238, 239, 240 retired)
    _card("Rebel Chronicler", 13, 0, [{"t": "now", "gain": {"per": "synergy", "vp": 3}}], id=241,
          needs={"before_last_round": True}, figure=True),
    _card("Sugar Broker", 3, 2, [{"t": "income", "d": 3}], cost_goods=["sugar"]),
    _card("Crown Purser", 4, 1, [{"t": "perm", "ext": "fight_for_pays", "nation": "marked", "gain": {"d": 2}}],
          nation_worker=True),
    # (its numbers changed once by the balance runs of #20: card 242 in card 204's place, cost 2 and 2 VP; 204
    # retired)
    _card("Powder Monkey", 2, 2, [{"t": "perm", "ext": "token_choice", "n": 2}], id=242, token_worker=True),
    # new combat action: reveal a project card, a reward by its object
    _card("Fortune Teller", 4, 2, [{"t": "combat", "ext": "by_object", "cost": 3, "by_object": BY_OBJECT,
                                    "gain": {}}]),
    # income effects once a condition holds
    _card("Master Shipwright", 5, 1, [{"t": "income", "ext": "income_when", "vp": 3, "when": {"upgrade": 5}}]),
    _card("War Veteran", 6, 1, [{"t": "income", "ext": "income_when", "vp": 5, "when": {"combat": 5}}]),
    _card("Jungle Guide", 6, 1, [{"t": "income", "ext": "income_when", "vp": 5, "when": {"barrier": "green"}}]),
    # permanent effects and additional actions
    _card("Village Elder", 5, 2, [{"t": "perm", "ext": "village_variety", "vp": {"2": 2, "3": 4}}]),
    _card("Quartermaster's Mate", 2, 1, [{"t": "perm", "ext": "wild_card"}]),
    _card("Coastal Pilot", 4, 1, [{"t": "perm", "ext": "empty_village_d", "max": 5}]),
    _card("Letter Carrier", 4, 2, [{"t": "perm", "ext": "stops_collect", "locs": ["4", "7", "13"],
                                    "gain": {"d": 5, "vp": 5}}]),
    _card("Turncoat", 3, 1, [{"t": "combat", "ext": "last_pay_influence", "cost": 1, "pay_inf": 1,
                              "gain": {}, "explore_upto": 2}]),
    # immediate effects
    _card("Tobacco Factor", 3, 1, [{"t": "now", "ext": "trade_any", "pay": "tobacco", "gain": {"d": 2}}]),
    _card("Corn Quartermaster", 3, 1, [{"t": "now", "ext": "trade_any", "pay": "corn", "gain": {"cp": 2}}]),
    _card("Maroon Leader", 5, 2, [{"t": "now", "ext": "liberate", "where": "village", "nation": "any",
                                   "choice": "any_village", "gain": {}}], liberation_symbol=True),
    _card("Adventurer's Board", 4, 1, [{"t": "village", "ext": "card_quests", "n": 2}]),
    _card("Generous Patron", 4, 1, [{"t": "now", "ext": "one_of",
                                     "gains": [{"d": 5}, {"vp": 3}, {"cp": 2, "d": 1}]}]),
    _card("Colonial Envoy", 3, 1, [{"t": "now", "ext": "return_marker", "gain": {"d": 7}}]),
    _card("Ship's Log", 3, 2, [{"t": "now", "gain": {"per": "quest", "vp": 1}}], figure=True),
    _card("Trophy Room", 3, 2, [{"t": "now", "gain": {"per": "combat", "vp": 1}}], figure=True),
    _card("Drill Sergeant", 3, 2, [{"t": "now", "ext": "per_more", "gain": {"per": "cp", "vp": 1}}], figure=True),
    _card("Crew Mess", 3, 2, [{"t": "now", "ext": "per_more", "gain": {"per": "figure", "vp": 1}}]),
    _card("Dry Dock", 3, 2, [{"t": "now", "gain": {"per": "upgrade", "vp": 1}}], figure=True),
    # assistant actions
    _card("Harbour Agent", 3, 1, [{"t": "assistant", "ext": "by_round", "rounds": {
        "1": {"d": 7}, "2": {"d": 7, "village": 1}, "3": {"d": 7, "village": 1, "vp": 2},
        "4": {"d": 7, "village": 1, "vp": 3}}}], assist="11"),
    _card("Dispatcher", 4, 1, [{"t": "village", "ext": "other_assistant", "pay": {"d": 3}}]),
    _card("Fence", 4, 1, [{"t": "village", "ext": "village_trade", "pay": {"same_goods": 2}, "gain": {"d": 5}}]),
    # the Gravedigger ("Coveiro"): its effect whenever its owner removes a marker from a location, the
    # base game's displace and (Resistance Tiles) every liberation (Assumption A11)
    _card("Gravedigger", 4, 1, [{"t": "perm", "ext": "marker_removed", "gain": {"vp": 2}}]),
    # in the base effect language only
    _card("Hidden Cove", 5, 2, [{"t": "village", "gain": {"d": 1, "cp": 1}}]),
    # the numbered cards 100-106 (with the scenarios' "cards 90-106")
    _card("Insurgent Captain", 5, 2, [{"t": "combat", "cost": 4, "gain": {"vp": 4}}], number=100),
    _card("Free Port", 5, 2, [{"t": "income", "vp": 1}], number=101),
    _card("Smuggled Muskets", 4, 2, [{"t": "now", "gain": {"cp": 4}}], number=102),
    _card("Runaway Guide", 6, 2, [{"t": "now", "gain": {"explore": 3}}], number=103),
    _card("Mission Herbalist", 6, 2, [{"t": "perm", "k": "quest_vp", "n": 2}], number=104),
    _card("Rebel Camp", 5, 2, [{"t": "now", "ext": "liberate", "where": "village", "nation": "any",
                                "choice": "any_village", "gain": {"vp": 2}}], number=105, liberation_symbol=True),
    _card("Plantation Revolt", 7, 3, [{"t": "now", "gain": {"vp": 3, "disc": 1}}], number=106),
]

SYNERGY_EVERY = ["anchor", "cross", "crown", "scroll", "flag"]


#: RETIRED CARDS: a card whose substitute numbers changed keeps its old numbers under its old id (its place
#: in the list: its id, good, object and symbol), for the games set up before the change, which deal it
#: (scenarios.RENUMBERED); today's card takes a new id ("id") in the same place, so that the B deck's
#: order, and a new game's draws, are the old ones' but for it. Never edited: a later change retires again.
_RETIRED: dict[int, list[dict[str, Any]]] = {  # (a place's retired cards, oldest first)
    0: [
        # the 10,000-game runs (#20): its buyers won above 1.5 x the even share on both seeds with 2-4 players
        _card("Rebel Chronicler", 4, 2, [{"t": "now", "gain": {"per": "synergy", "vp": 3}}], **_BARRIER_FIG),
        # 6a0f3d2 to the next change (#20): its buyers still won 5-17 points above what their position at the
        # buy predicts, bought in the last turns with 3-4 synergy tokens
        _card("Rebel Chronicler", 8, 1, [{"t": "now", "gain": {"per": "synergy", "vp": 3}}], id=237,
              **_BARRIER_FIG),
        # 52a3425 to the third change (#20): bought at mid-game by players holding 4 synergy tokens (12 VP for
        # 10 doubloons), its buyers won 15-36 points above what their position at the buy predicts with 3-4
        # players, on both seeds
        _card("Rebel Chronicler", 10, 0, [{"t": "now", "gain": {"per": "synergy", "vp": 3}}], id=238,
              needs={"barrier": "blue", "before_last_round": True}, figure=True),
        # d8e1100 to the fourth change (#20): bought at mid-game by players holding 4-5 synergy tokens (12-13
        # VP for 12 doubloons), its buyers won 13-37 points above what their position, tokens and doubloons at
        # the buy predict with 3-4 players, on seeds s3 and s4 (and s1)
        _card("Rebel Chronicler", 12, 0, [{"t": "now", "gain": {"per": "synergy", "vp": 3}}], id=239,
              needs={"barrier": "blue", "before_last_round": True}, figure=True),
        # 9c5edb3 to the fifth change (#20): sold only in rounds 1 and 2, it was bought by nobody in 14,400 bot
        # games on four seeds (no holder's explorer was past the blue barrier before round 3)
        _card("Rebel Chronicler", 12, 0, [{"t": "now", "gain": {"per": "synergy", "vp": 3}}], id=240,
              needs={"barrier": "blue", "before_round": 3}, figure=True),
    ],
    3: [
        # every release to the Powder Monkey's change (#20): never bought by the bot (0 of 2,614 player-games that
        # held it), its two tokens' choice worth 0.1-1.2 VP a combat against 5 doubloons and a figure for 1 VP
        _card("Powder Monkey", 5, 1, [{"t": "perm", "ext": "token_choice", "n": 2}], token_worker=True),
    ],
}


def _made(k: int, row: dict[str, Any]) -> dict[str, Any]:
    c = dict(row)
    number = c.pop("number", None)
    card = {"id": 201 + k, "deck": "B", "numbered": number is not None, "number": number,
            "good": GOODS[(k * 3 + 1) % 4], "object": OBJECTS[(k * 5 + k // 4 + 2) % 4], **c}
    if k % 4 == 2:
        card["synergy"] = SYNERGY_EVERY[(k * 7) % 5]
    return card


def _cards() -> list[dict[str, Any]]:
    return [_made(k, row) for k, row in enumerate(_CARDS)]


def _retired() -> list[dict[str, Any]]:
    """The retired cards (:data:`_RETIRED`), each with ``retired_for``: the id of the card that took its place
    (the next retired one of its place, or today's)."""
    out = []
    for k, rows in sorted(_RETIRED.items()):
        made = [_made(k, row) for row in rows]
        ids = [c["id"] for c in made[1:]] + [_made(k, _CARDS[k])["id"]]
        out += [{**c, "retired_for": nxt} for c, nxt in zip(made, ids, strict=True)]
    return out


# ---- careers: the new card, and the four of Liberation of the Caribbean ------------------------------
NEW_CAREER: dict[str, Any] = {
    "id": "K9", "name": "Fighting Spirit", "pt": "Espírito de Luta",
    "tasks": [{"metric": "combat", "upper": 2, "lower": 4, "d": 2, "vp": 3},
              {"metric": "liberated", "ext": "liberation_metric", "upper": 2, "lower": 4, "d": 3, "vp": 4},
              {"metric": "upgrade", "upper": 2, "lower": 4, "d": 4, "vp": 5}],
}
# the four careers dealt at random with Liberation (Assumption A14: names given to base substitute careers)
LIBERATION_CAREERS = [
    {"name": "Society", "pt": "Sociedade", "career": "K1"},
    {"name": "Valour", "pt": "Valor", "career": "K2"},
    {"name": "Fighting Spirit", "pt": "Espírito de Luta", "career": "K9"},
    {"name": "Discovery Instinct", "pt": "Instinto de Descoberta", "career": "K5"},
]

# ---- the two city tiles ---------------------------------------------------------------------------
CITY_TILES = [
    {"id": "C16", "helm": False, "players": [2, 3, 4], "action": "cities", "ext": "city_tile_cities",
     "cities": ["10", "19"], "gain": {"cp": 2}, "deliver": True,
     "text": "Gain 2 combat points and immediately perform one of the two city actions mentioned. You may also "
             "deliver in the chosen city, if the market is not full."},
    {"id": "C17", "helm": False, "players": [2, 3, 4], "action": "choice_quest", "ext": "one_of",
     "gains": [{"cp": 2}, {"d": 3}], "then": "top_quest",
     "text": "Gain 2 combat points or take 3 doubloons. You may fulfil the top quest tile of the pile (following "
             "the usual rules)."},
]

# ---- promos ----------------------------------------------------------------------------------------
PROMOS = [
    {"id": "FD", "name": "Flying Dutchman", "pt": "Holandês Voador", "kind": "quest", "ext": "hand_plus",
     "cost": {"objects": ["spyglass", "sword"], "d": 2}, "reward": {"vp": 8, "hand": 1},
     "text": "If you fulfil this quest, score 8 victory points and increase your hand limit by 1."},
    {"id": "OM", "name": "Own Monument", "pt": "Monumento Próprio", "kind": "end",
     "effects": [{"t": "end", "ext": "end_per_rank", "vp": 2}], "not_with": "liberation",
     # SUBSTITUTE: played as a prestige building (promos.py, Assumption A65), its price like the base
     # game's 2-VP-per-count buildings (Governor's Palace, Library: 10)
     "prestige_cost": 10,
     "text": "Score 2 victory points at the end of the game for each noble rank you have reached."},
]

# ---- quest tiles (28), the base format: cost, reward per compass, fixed reward --------------------------
_QCOSTS: list[dict[str, Any]] = [
    {"goods": ["tobacco"]}, {"goods": ["corn"]}, {"goods": ["sugar"]}, {"goods": ["cotton"]},
    {"objects": ["book"]}, {"objects": ["spyglass"]}, {"objects": ["herbs"]}, {"objects": ["sword"]},
    {"goods": ["tobacco", "sugar"]}, {"goods": ["corn", "cotton"]}, {"objects": ["book", "herbs"]},
    {"objects": ["spyglass", "sword"]}, {"d": 4}, {"d": 6}, {"cp": 2}, {"cp": 3}, {"fig": 1},
    {"goods": ["cotton"], "d": 2}, {"objects": ["herbs"], "cp": 1}, {"goods": ["corn"], "objects": ["sword"]},
    {"d": 2, "cp": 1}, {"goods": ["tobacco"], "fig": 1}, {"objects": ["book"], "d": 2},
    {"goods": ["sugar"], "cp": 1}, {"goods": ["tobacco", "corn", "sugar"]}, {"objects": ["book", "spyglass"],
                                                                            "cp": 1},
    {"cp": 2, "d": 2}, {"goods": ["cotton"], "objects": ["herbs"]},
]
_QPER: list[dict[str, int]] = [{"vp": 3}, {"d": 3}, {"vp": 2, "d": 1}, {"cp": 1, "vp": 2}]
_QFIXED: list[dict[str, int]] = [{"inf": 1}, {"d": 3}, {"explore": 3}, {"vp": 3}, {"disc": 1}, {"explore": 2},
                                 {"cp": 2}]


def _quests() -> list[dict[str, Any]]:
    out = []
    for i, cost in enumerate(_QCOSTS):
        heavy = len(cost.get("goods", [])) + len(cost.get("objects", [])) + cost.get("d", 0) // 2 \
            + cost.get("cp", 0) + 2 * cost.get("fig", 0)
        per = dict(_QPER[i % 4])
        if heavy >= 3:
            per = {k: v + 1 for k, v in per.items()}
        out.append({"id": f"UQ{i + 1}", "cost": cost, "per": per, "fixed": _QFIXED[i % 7]})
    return out


# ---- legacy tiles ------------------------------------------------------------------------------------
LEGACY: list[dict[str, Any]] = [
    {"id": "L30", "name": "Willemstad", "kind": "place", "ext": "new_city", "loc": "10a", "after": "10",
     "next": ["11"], "toll": "influence_marker", "first": {"d_per_rank": 5},
     "action": {"per_assistant_and_figure": {"d": 1, "cp": 1}},
     "text": "A new city has developed! You may end your movement here only by permanently giving up one of your "
             "three influence markers (the first time: it goes to the Dutch flag, 5 doubloons per noble rank "
             "reached with that nation, and the city action; later rounds free; no final VP for that nation's "
             "influence; one marker a player). City action: 1 doubloon and 1 combat point per assistant on the "
             "board and per worker in your supply."},
    {"id": "L31", "name": "The ruin", "kind": "ruin", "ext": "legacy_space", "after_space": 11, "track": "L32",
     "text": "When you move your explorer past the ruin, immediately place a worker from your supply at the start "
             "of the ruin track on L32 (not later if you had none). The ruin is not a space of the explorer track."},
    {"id": "L32", "name": "The ruin track", "kind": "ruin_track", "ext": "second_explorer",
     "spaces": [{"n": 1, "pay": {"objects": ["book"]}, "by_object": BY_OBJECT},
                {"n": 2, "gain": {"d": 5}},
                {"n": 3, "pay": {"objects": ["spyglass"]}, "by_object": BY_OBJECT},
                {"n": 4, "gain": {"vp": 3}}],
     "end_vp": [7, 5, 3, 1],
     "text": "From your next turn on, split any explorer movement between your explorer and this worker; rewards "
             "for both end spaces; occupied spaces skipped. Spaces 1 and 3 reward only when you pay the objects "
             "shown (reveal the top project card, the reward for its object, discard it). Space 2: 5 doubloons; "
             "space 4: 3 VP; the end: VP by order of arrival. At most one of your workers on this tile."},
    {"id": "L33", "name": "The 21a outpost", "kind": "discs", "ext": "legacy_space", "loc": "21a",
     "then": "village",
     "text": "Moving your ship to 21a (ending round I-III) with the space of your colour empty: move a disc from "
             "your ship to the tile and perform a village action. The discs stay at the end of a round."},
    {"id": "L34", "name": "Informant's cove", "kind": "space", "ext": "by_object", "loc": "6",
     "before_main": {"by_object": BY_OBJECT},
     "text": "Ending your movement here: before your main action you may reveal the top project card, take the "
             "reward for its object, then discard it."},
    {"id": "L35", "name": "Powder store", "kind": "space", "ext": "legacy_space", "loc": "15",
     "before_main": {"pay": {"cp": 1}, "gain": {"vp": 2}},
     "text": "Ending your movement here: before your main action you may pay 1 combat point to score 2 VP."},
    {"id": "L36", "name": "Smugglers' beach", "kind": "space", "ext": "legacy_space", "loc": "8",
     "before_main": {"pay": {"same_goods": 2}, "gain": {"d": 2}},
     "text": "Ending your movement here: before your main action you may pay 2 identical goods for 2 doubloons."},
    {"id": "L37", "name": "The 13-2 passage", "kind": "discs", "ext": "legacy_space", "loc": "13",
     "then": {"move_to": "2"}, "once": True,
     "text": "Moving your ship to 13 with the space of your colour empty: you may move a disc there and your ship "
             "from 13 to 2; movement left goes on from 2 (from 11 you may reach 6). Once a player; the discs stay."},
    # The Search's own tiles (scenario 193): played by search.py from search.json (hints, prison), not from here
    {"id": "L38", "name": "Hints (The Search)", "kind": "search", "module": "search", "data": "search.json",
     "text": "22 hint tiles of The Search (cooperative scenario 193)."},
    {"id": "L39", "name": "Luysa's prison (The Search)", "kind": "search", "module": "search", "data": "search.json",
     "text": "Placed where Luysa is found; freed by its combat points or 15 doubloons at the end."},
    {"id": "L40", "name": "The Uprising", "kind": "combat", "module": "uprising",
     "actions": [
         {"t": "combat", "ext": "liberate", "id": "L40c", "cost": 6, "where": "city", "nation": "fought",
          "gain": {"d": 3}, "per_occupied": {"what": "city", "vp": 1, "when": "start"}},
         {"t": "combat", "ext": "liberate", "id": "L40v", "cost": 4, "where": "village", "nation": "fought",
          "gain": {}, "per_occupied": {"what": "neighbour", "vp": 3}},
     ],
     "text": "Fighting against a nation: Liberate City (value 6: 3 doubloons and 1 VP per occupied city, a marker "
             "of that nation from a city to your resistance tile) and Liberate Village (value 4: a marker of that "
             "nation from a village to your tile, 3 VP per neighbouring location with a marker), each once."},
]

# ---- game modes and the scenarios 78, 79 -------------------------------------------------------------
MODES = {
    "basic": {"name": "Basic game on the new boards", "modules": [], "home_port": "face_down", "competitive": True},
    "78": {"name": "All Included", "pt": "Tudo incluído",
           "modules": ["home_ports", "uprising", "resistance"], "competitive": True},
    "79": {"name": "Unrest", "pt": "Agitação",
           "modules": ["home_ports", "liberation", "resistance"], "competitive": True},
    "74": {"name": "Cooperative in the Caribbean", "pt": "Cooperativa no Caribe",
           "modules": ["home_ports", "jacques", "liberation", "resistance"], "competitive": False},
    "193": {"name": "The Rescue", "pt": "O Resgate",
            "modules": ["home_ports", "jacques", "search", "liberation", "resistance"], "competitive": False},
    "campaign": {"name": "The Uprising's campaign", "modules": ["home_ports"], "competitive": True},
}

# the numbers each module's text gives (the rules will read them from here)
MODULES = {
    "home_ports": {"dealt": 3, "kept": 1, "discs": 2, "bonus_optional": True},
    "resistance": {"spaces": 4, "unlock_d": 4, "village_value": 3, "village_double": True,
                   "full": {"d": 3, "vp_per_combat_token": 1}},
    # "Se você ganharia influência com a peça de combate, marque 2 pontos de vitória" (fighting against)
    "uprising": {"legacy": "L40", "against_influence_vp": 2, "once": "combat"},
    # "os Portos de Origem que lhe dão influência obtêm 2 pontos de vitória por influência"
    "liberation": {"influence_vp": 2, "once": "turn", "careers": "deal_one_of_four", "nation_scoring": False},
}

_BLOCKS = {"france": [str(i) for i in range(2, 8)], "spain": [str(i) for i in range(8, 14)],
           "england": [str(i) for i in range(14, 20)]}

SCENARIOS = {
    "78": {"name": "All Included", "cards": list(range(90, 107)), "legacy": ["L1", "L30", "L40"],
           "legacy_by_object": {"book": ["L33", "L5", "L31"], "spyglass": ["L34", "L4", "L37"],
                                "herbs": ["L35", "L6", "L7"], "sword": ["L36", "L8", "L9"]},
           "quests": {"1": {"all": ["3", "12"], "three": ["16"]}, "2": {"all": ["7", "17"], "three": ["9"]},
                      "3": {"all": ["2", "15"], "three": ["18"]}, "4": {"all": ["6", "16"], "three": ["1"]}}},
    "79": {"name": "Unrest", "cards": list(range(90, 107)), "legacy": ["L1", "L30"],
           "legacy_by_object": {"book": ["L34", "L6", "L37"], "spyglass": ["L35", "L5", "L31"],
                                "herbs": ["L36", "L4", "L7"], "sword": ["L33", "L8", "L9"]},
           # L9's Spanish marker on 12 is there already (Spain holds 8-13): it adds nothing in 79
           "markers": _BLOCKS, "set_aside": 7, "nation_scoring": False,
           # Assumption A17: before rounds II-IV, one marker a nation on the lowest-numbered empty location of
           # its block, while the set-aside markers last
           "markers_by_round": {"rule": "lowest_empty_in_block", "rounds": [2, 3, 4], "each": 1},
           "quests": {"1": {"all": ["6", "12"], "three": ["16"]}, "2": {"all": ["3", "9"], "three": ["17"]},
                      "3": {"all": ["7", "15"], "three": ["2"]}, "4": {"all": ["1", "18"], "three": ["8"]}}},
    # the cooperative scenarios (coop.py places their markers from data/uprising/coop.json, by player count)
    "74": {"name": "Cooperative in the Caribbean", "cards": list(range(90, 107)), "legacy": ["L1"],
           "legacy_by_object": {"book": ["L35", "L4", "L31"], "spyglass": ["L33", "L6", "L37"],
                                "herbs": ["L34", "L5", "L7"], "sword": ["L36", "L8", "L9"]},
           "nation_scoring": False,
           "quests": {"1": {"all": ["3", "15"], "three": ["12"]}, "2": {"all": ["6", "16"], "three": ["9"]},
                      "3": {"all": ["2", "18"], "three": ["7"]}, "4": {"all": ["8", "17"], "three": ["1"]}}},
    "193": {"name": "The Rescue", "cards": list(range(90, 107)), "legacy": ["L1"],
            "legacy_by_object": {"book": ["L36", "L5", "L37"], "spyglass": ["L34", "L4", "L31"],
                                 "herbs": ["L33", "L6", "L7"], "sword": ["L35", "L8", "L9"]},
            "nation_scoring": False,
            "quests": {"1": {"all": ["7", "12"], "three": ["1"]}, "2": {"all": ["9", "15"], "three": ["3"]},
                       "3": {"all": ["6", "17"], "three": ["18"]}, "4": {"all": ["2", "16"], "three": ["8"]}}},
}


def build() -> dict[str, Any]:
    return {
        "ports.json": {"label": LABEL, "ports": PORTS},
        "boards.json": {"label": LABEL, **BOARDS},
        "cards.json": {"label": LABEL, "cards": _cards(), "retired_cards": _retired(), "new_career": NEW_CAREER,
                       "liberation_careers": LIBERATION_CAREERS, "city_tiles": CITY_TILES, "promos": PROMOS},
        "tiles.json": {"label": LABEL, "quests": _quests(), "legacy": LEGACY, "modes": MODES, "modules": MODULES,
                       "scenarios": SCENARIOS, "by_object": BY_OBJECT},
    }


def main() -> None:
    for name, content in build().items():
        (HERE / name).write_text(json.dumps(content, indent=1, sort_keys=True, ensure_ascii=False) + "\n",
                                 encoding="utf-8")


if __name__ == "__main__":
    main()
