"""Maracaibo: The Uprising's substitute content: every row loads, every effect is read by the base
effect language or names a listed extension, and every number the rulebook gives is the data's.

Content only: no rule of the expansion plays yet (docs/rules/maracaibo-uprising.md). The
numbers asserted here are the rulebook's (``shared/rules/maracaibo-the-uprising.pt.txt``);
the rest of the data is substitute and only its shape is checked.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine.games.maracaibo import content as C
from engine.games.maracaibo import uprising_content as U
from engine.games.maracaibo.data.uprising import build as B

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "rules" / "maracaibo-uprising.md"


def _effects_of(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [e for r in rows for e in r.get("effects", [])]


def _cards_with(ext: str) -> list[dict[str, Any]]:
    return [c for c in U.CARDS if any(e.get("ext") == ext for e in c["effects"])]


def _port(name: str) -> dict[str, Any]:
    (p,) = [p for p in U.PORTS if p["name"] == name]
    return p


# ---- the files ----------------------------------------------------------------------------------


def test_it_labels_every_file_substitute() -> None:
    for name, data in U.DATA.items():
        assert "SUBSTITUTE CONTENT" in data["label"], name
    assert "SUBSTITUTE CONTENT" in (B.__doc__ or "")
    assert "SUBSTITUTE CONTENT" in (U.__doc__ or "")


def test_it_matches_the_build_script() -> None:
    built = B.build()
    assert sorted(built) == sorted(U.FILES)
    for name, content in built.items():
        # the JSON as written (a round trip makes tuples lists and keys strings, as the file has them)
        assert U.DATA[name] == json.loads(json.dumps(content)), f"{name}: run python -m " \
            "engine.games.maracaibo.data.uprising.build"


def test_it_reads_every_effect_in_the_base_language_or_a_listed_extension() -> None:
    assert U.problems() == []
    found = list(U.effects())
    assert len(found) >= 60
    base = [e for _p, e in found if U.base_language(e)]
    assert base, "some effects need no extension"
    for e in base:
        C.effect_text(e)  # the base game words every one of them
    # control cases: the check refuses what the language cannot say
    assert U.effect_problems({"t": "now", "gain": {"gold": 1}})
    assert U.effect_problems({"t": "perm", "k": "fly", "n": 1})
    assert U.effect_problems({"t": "combat", "gain": {"vp": 4}})  # no cost
    assert U.effect_problems({"t": "end", "vp": 2})  # a new kind without its extension
    assert U.effect_problems({"t": "perm", "ext": "teleport"})
    assert U.effect_problems({"t": "now", "ext": "one_of", "gains": [{"vp": 1}, {"gold": 2}]})
    assert U.effect_problems({"t": "combat", "cost": 3, "gain": {"vp": 4}}) == []
    assert U.effect_problems({"t": "now", "gain": {"per": "cp", "vp": 1}})  # only with per_more
    assert U.effect_problems({"t": "now", "ext": "per_more", "gain": {"per": "cp", "vp": 1}}) == []


def test_it_lists_every_extension_on_the_rules_page() -> None:
    page = PAGE.read_text(encoding="utf-8")
    section = page.split("## Effect language: needed extensions", 1)[1].split("\n## ", 1)[0]
    listed = set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.M))
    assert listed == set(U.EXTENSIONS)
    assert U.extensions_used() == set(U.EXTENSIONS)  # each listed one is needed by some row


def test_it_names_only_tests_that_exist_on_the_rules_page() -> None:
    page = PAGE.read_text(encoding="utf-8")
    named = set(re.findall(r"U `(test_it_[a-z0-9_]+)`", page))
    here = {name for name in globals() if name.startswith("test_it_")}
    assert named and named <= here, sorted(named - here)


def test_it_names_everything_once() -> None:
    ids = [c["id"] for c in U.CARDS]
    names = [c["name"] for c in U.CARDS]
    base_cards = C.CARDS_DATA["cards"]  # (C.CARD holds the expansion's playable cards too: they join the base's)
    assert len(set(ids)) == len(ids) and not set(ids) & {c["id"] for c in base_cards}
    assert len(set(names)) == len(names) and not set(names) & {c["name"] for c in base_cards}
    for rows in (U.PORTS, U.QUESTS, U.CITY_TILES, U.PROMOS, list(U.LEGACY.values())):
        keys = [r["id"] for r in rows]
        assert len(set(keys)) == len(keys)
    assert len({p["name"] for p in U.PORTS}) == 15
    assert not {q["id"] for q in U.QUESTS} & {q["id"] for q in C.TILES["quests"]}
    assert not {t["id"] for t in U.CITY_TILES} & {t["id"] for t in C.TILES["city_tiles"]}  # (they join C.CITY_TILE)
    assert not set(U.LEGACY) & set(C.LEGACY)
    assert U.NEW_CAREER["id"] not in {c["id"] for c in C.TILES["careers"]}  # (C.CAREER knows it: it joins them)


# ---- the rulebook's numbers ----------------------------------------------------------------------


def test_it_has_the_rulebooks_component_counts() -> None:
    assert len(U.PORTS) == 15  # "15 Portos de Origem"
    assert len(U.QUESTS) == 28  # "28 Peças de Missão"
    assert len(U.CITY_TILES) == 2  # "2 Peças de Cidade"
    assert len(U.CARDS) == 36  # "36 Cartas de Projeto"
    assert U.NEW_CAREER["tasks"] and len(U.LIBERATION_CAREERS) == 4  # "1 Carta de Carreira"; the four careers
    assert {p["name"] for p in U.PROMOS} == {"Flying Dutchman", "Own Monument"}
    # "2 Cartas Automa 'Jean'": the base game holds them already (option jean_uprising)
    jean = json.loads((ROOT / "engine/games/maracaibo/data/jean.json").read_text(encoding="utf-8"))
    assert jean["uprising_cards"] == ["B7U", "C5U"]
    # one ship board a player, 4 players at most: its three slots
    assert U.BOARDS["slots"] == ["combat_tile", "resistance", "home_port"]


def test_it_has_36_project_cards_for_the_b_deck() -> None:
    assert all(c["deck"] == "B" for c in U.CARDS)
    assert sorted(U.NUMBERED) == list(range(100, 107))  # "as cartas 90-106": 100-106 here (Assumption A3)
    assert len([c for c in U.CARDS if not c["numbered"]]) == 29
    for c in U.CARDS:
        assert c["good"] in C.GOODS and c["object"] in C.OBJECTS, c["name"]
        assert isinstance(c["cost"], int) and c["cost"] >= 0 and isinstance(c["vp"], int)
        assert set(c.get("cost_goods", [])) <= set(C.GOODS)
        assert c.get("assist") is None or c["assist"] in C.LOC
        # (a barrier to be past and a buying window: the Rebel Chronicler, card 241 with the window alone)
        assert set(c.get("needs") or {}) <= {"barrier", "before_round", "before_last_round"}, c["name"]
        assert "barrier" not in (c.get("needs") or {}) or c["needs"]["barrier"] in C.BARRIERS.values()
        assert c.get("synergy") is None or c["synergy"] in C.SYNERGIES
        assert c["effects"], c["name"]
    for scenario in ("78", "79"):
        cards = U.SCENARIOS[scenario]["cards"]
        assert cards == list(range(90, 107))  # shuffled into the B-cards before the 40 are counted out
        assert [n for n in cards if n < 100] == C.NUMBERED  # 90-99: the base game's numbered cards


def test_it_has_15_home_ports_with_a_bonus_paying_doubloons() -> None:
    for p in U.PORTS:
        bonus = p["bonus"]  # "permite pagar dobrões por pontos de vitória ou influência"; may be declined
        assert bonus["t"] == "now" and bonus["ext"] == "optional_pay", p["name"]
        assert list(bonus["pay"]) == ["d"] and bonus["pay"]["d"] > 0
        assert list(bonus["gain"]) in (["vp"], ["inf"]) and min(bonus["gain"].values()) > 0


def test_it_words_each_home_ports_effect_as_the_rulebook() -> None:
    names = {"Antwerp", "Bremen", "Cayman Islands", "Genova", "Kingstown", "Port-au-Prince", "Yaquimel",
             "Grand Turk", "Port of Spain", "Roseau", "Nassau", "Oranjestad", "Panamá", "Porto", "Roatán"}
    assert {p["name"] for p in U.PORTS} == names
    (e,) = _port("Antwerp")["effects"]
    assert e["ext"] == "market_take" and e["gain"] == {"d": 3, "vp": 3}
    (e,) = _port("Bremen")["effects"]
    assert (e["t"], e["pay"], e["gain"], e["repeat"]) == ("village", {"goods": ["tobacco"] * 2}, {"d": 5}, True)
    (e,) = _port("Oranjestad")["effects"]
    assert (e["t"], e["pay"], e["gain"], e["repeat"]) == ("village", {"goods": ["corn"] * 2}, {"cp": 3}, True)
    assert [e["ext"] for e in _port("Cayman Islands")["effects"]] == ["wild_sugar"]
    (e,) = _port("Genova")["effects"]  # no ongoing effect: an income effect
    assert (e["t"], e["inf"], e["nation"]) == ("income", 2, "fewest")
    for group, ext in ((("Kingstown", "Port-au-Prince", "Yaquimel"), "combat_nation"),
                       (("Grand Turk", "Port of Spain", "Roseau"), "stop_marker")):
        nations = set()
        for name in group:
            (e,) = _port(name)["effects"]
            assert e["ext"] == ext and e["nation"] == _port(name)["nation"]
            nations.add(e["nation"])
            if ext == "combat_nation":
                assert (e["t"], e["cost"], e["gain"]) == ("combat", 2, {"d": 4, "inf": 1})
            else:
                assert e["gain"] == {"d": 2}
        assert nations == set(C.NATIONS)  # one port of each nation (Assumption A8)
    assert _port("Nassau")["effects"] == [{"t": "perm", "ext": "village_plus_main", "n": 1}]
    (e,) = _port("Panamá")["effects"]
    assert e["ext"] == "explore_second_last" and e["min"] == 2  # "em pelo menos 2 espaços"
    (e,) = _port("Porto")["effects"]
    assert e["ext"] == "deliver_again_cp" and e["gain"] == {"cp": 2}
    (e,) = _port("Roatán")["effects"]
    assert e["ext"] == "second_explorer" and e["figure"] == 1
    for p in U.PORTS:
        assert p["text"] and p["pt"]


def test_it_has_28_quest_tiles_in_the_base_format() -> None:
    for q in U.QUESTS:
        cost = q["cost"]
        assert set(cost) <= {"goods", "objects", "d", "cp", "fig"}, q["id"]
        assert set(cost.get("goods", [])) <= set(C.GOODS) and set(cost.get("objects", [])) <= set(C.OBJECTS)
        assert U.gain_problems(q["per"]) == [] and U.gain_problems(q["fixed"]) == []
        reward = sum(q["per"].values()) + sum(q["fixed"].values())
        price = len(cost.get("goods", [])) + len(cost.get("objects", [])) + cost.get("d", 0) // 2 \
            + cost.get("cp", 0) + 2 * cost.get("fig", 0)
        assert reward > price, q["id"]  # the base data's balance rule


def test_it_describes_the_ship_board_slots() -> None:
    b = U.BOARDS
    assert b["discs_per_slot"] == 2  # "coloque dois discos em cada local de melhoria do navio"
    compass = b["compass_upgrade"]["effects"]  # "bússola e dobrões"
    assert {"t": "perm", "k": "compass", "n": 1} in compass and any(e["gain"].get("d") for e in compass
                                                                    if e["t"] == "now")
    assert b["compass_upgrade"]["replaces"] in C.UPGRADE
    tile = b["combat_tile"]
    assert tile["base"]["upgrade"] in C.UPGRADE
    lib = {a["id"]: a for a in tile["liberation"]["actions"]}
    extra = {a["id"]: a for a in tile["liberation"]["upgrade"]}
    assert (lib["LC"]["cost"], lib["LC"]["where"], lib["LC"]["flag"]) == (5, "city", True)  # "5 ou 3"
    assert (lib["LV"]["cost"], lib["LV"]["where"]) == (3, "village")
    assert (extra["LC2"]["cost"], extra["LC2"]["where"]) == (3, "city")  # "3 ou 2", once a turn
    assert (extra["LV2"]["cost"], extra["LV2"]["where"]) == (2, "village")
    assert {a["once"] for a in [*lib.values(), *extra.values()]} == {"turn"}
    assert {a["shared"] for a in extra.values()} == {"extra"}  # one extra liberation, city or village
    assert {a["nation"] for a in [*lib.values(), *extra.values()]} == {"fought"}  # Assumption A15
    res = b["resistance"]
    assert res["front"]["unlock"] == [{"t": "now", "gain": {"d": 5}}]  # "Pegue 5 dobrões"
    assert res["back"]["unlock"] == [{"t": "now", "gain": {"d": 4}}]  # "pegue imediatamente 4 dobrões"
    v = res["back"]["village"]
    assert (v["ext"], v["cost_value"], v["where"], v["double"]) == ("liberate", 3, "here", True)
    assert v["nation"] == "any"  # "um marcador de propriedade da vila em que seu navio está"


def test_it_has_four_resistance_spaces_with_the_examples_rewards() -> None:
    res = U.BOARDS["resistance"]
    spaces = {s["n"]: s["gain"] for s in res["spaces"]}
    assert sorted(spaces) == [1, 2, 3, 4]
    assert spaces[1] == {"disc": 1}  # Beth: "coloca o marcador no primeiro espaço ... e remove um disco"
    assert spaces[3] == {"fig": 1}  # Alex: "no terceiro espaço ... Ele recebe 1 trabalhador"
    assert all(U.gain_problems(g) == [] for g in spaces.values())
    adj = {int(k): v for k, v in res["adjacent"].items()}
    assert adj == {1: [2], 2: [1, 3], 3: [2, 4], 4: [3]}  # a row (Assumption A1)
    assert all(a in adj[b] for a in adj for b in adj[a])  # symmetric
    # full: 3 doubloons once and 1 VP per combat token (Assumption A2)
    assert res["full"] == [{"t": "now", "gain": {"d": 3}}, {"t": "now", "gain": {"vp": 1, "per": "combat"}}]


def test_it_has_legacy_tile_l40_with_the_rulebooks_costs() -> None:
    l40 = U.LEGACY["L40"]
    acts = {a["where"]: a for a in l40["actions"]}
    city, village = acts["city"], acts["village"]
    assert (city["cost"], city["nation"], city["gain"]) == (6, "fought", {"d": 3})  # "Reduza ... em 6"
    assert city["per_occupied"] == {"what": "city", "vp": 1, "when": "start"}
    assert "flag" not in city  # Assumption A13
    assert (village["cost"], village["nation"]) == (4, "fought")  # "Reduza o valor de combate em 4"
    assert village["per_occupied"] == {"what": "neighbour", "vp": 3}


def test_it_gives_the_worked_examples_places_on_the_substitute_map() -> None:
    # W1: Cartagena is location 14, a city; the cities W1 counts are 4, 5, 10, 11, 13, 14, 19
    assert C.LOC["14"]["name"] == "Cartagena" and C.LOC["14"]["kind"] == "city"
    cities = sorted((k for k, v in C.LOC.items() if v["kind"] == "city" and "legacy" not in v), key=int)
    assert cities == ["4", "5", "10", "11", "13", "14", "19"]
    # W2: location 2 is a village; its neighbours one arrow away (either way) are 1 and 3 here
    assert C.LOC["2"]["kind"] == "village"
    neighbours = set(C.LOC["2"]["next"]) | {k for k, v in C.LOC.items() if "2" in v["next"]}
    assert neighbours == {"1", "3"}


def test_it_has_the_scenario_tables_of_78_and_79() -> None:
    known = set(C.LEGACY) | set(U.LEGACY)
    for scenario, placed in (("78", ["L1", "L30", "L40"]), ("79", ["L1", "L30"])):
        s = U.SCENARIOS[scenario]
        assert s["legacy"] == placed
        table = s["legacy_by_object"]
        assert sorted(table) == sorted(C.OBJECTS) and all(len(col) == 3 for col in table.values())
        tiles = [t for col in table.values() for t in col]
        assert len(set(tiles)) == 12 and set(tiles) <= known
        assert not set(tiles) & {"L1", "L30", "L40", "L38", "L39"}
        for rnd, where in s["quests"].items():
            assert rnd in ("1", "2", "3", "4")
            assert all(C.LOC[loc]["kind"] == "village" for loc in where["all"] + where["three"])
    s79 = U.SCENARIOS["79"]
    assert s79["markers"] == {"france": [str(i) for i in range(2, 8)], "spain": [str(i) for i in range(8, 14)],
                              "england": [str(i) for i in range(14, 20)]}
    placed = [loc for locs in s79["markers"].values() for loc in locs]
    assert all(C.LOC[loc]["kind"] in ("village", "city") and "legacy" not in C.LOC[loc] for loc in placed)
    assert s79["set_aside"] == sum(C.SUPPLY_SPACES) - 6  # 13 markers a nation, 6 placed
    assert s79["nation_scoring"] is False  # "Não há nenhuma nação marcando no final do jogo"
    assert s79["markers_by_round"]["rounds"] == [2, 3, 4]


def test_it_derives_the_modules_from_the_mode() -> None:
    m = U.MODES
    assert m["basic"]["modules"] == [] and m["basic"]["home_port"] == "face_down"
    assert m["78"]["modules"] == ["home_ports", "uprising", "resistance"]
    assert m["79"]["modules"] == ["home_ports", "liberation", "resistance"]
    assert m["74"]["modules"] == ["home_ports", "jacques", "liberation", "resistance"]
    assert m["193"]["modules"] == ["home_ports", "jacques", "search", "liberation", "resistance"]
    for mode in m.values():
        mods = set(mode["modules"])
        assert not {"uprising", "liberation"} <= mods
        if mods & {"uprising", "liberation"}:
            assert "resistance" in mods  # "sempre jogado junto com a Peças de Resistência"
    assert not [k for k, v in m.items() if "status" in v]  # every mode plays (the campaign's: campaign.py)
    assert not m["74"]["competitive"] and not m["193"]["competitive"]
    assert {mod for mode in m.values() for mod in mode["modules"]} - {"jacques", "search"} == set(U.MODULES)


def test_it_has_each_modules_numbers() -> None:
    mods = U.MODULES
    assert (mods["home_ports"]["dealt"], mods["home_ports"]["kept"], mods["home_ports"]["discs"]) == (3, 1, 2)
    assert mods["home_ports"]["bonus_optional"] is True  # "Você não precisa usar o bônus imediato"
    res = mods["resistance"]
    assert (res["spaces"], res["unlock_d"], res["village_value"], res["village_double"]) == (4, 4, 3, True)
    assert res["full"] == {"d": 3, "vp_per_combat_token": 1}
    board = U.BOARDS["resistance"]  # the board's rows say the same
    assert len(board["spaces"]) == res["spaces"] and board["back"]["village"]["cost_value"] == res["village_value"]
    assert mods["uprising"] == {"legacy": "L40", "against_influence_vp": 2, "once": "combat"}
    lib = mods["liberation"]
    assert (lib["influence_vp"], lib["once"], lib["nation_scoring"]) == (2, "turn", False)
    assert U.SCENARIOS["79"]["nation_scoring"] is lib["nation_scoring"]


def test_it_has_the_new_career_and_the_two_city_tiles() -> None:
    names = {c["name"]: c for c in U.LIBERATION_CAREERS}
    assert set(names) == {"Society", "Valour", "Fighting Spirit", "Discovery Instinct"}
    assert {c["pt"] for c in U.LIBERATION_CAREERS} == {"Sociedade", "Valor", "Espírito de Luta",
                                                       "Instinto de Descoberta"}
    for c in U.LIBERATION_CAREERS:
        career = U.NEW_CAREER if c["career"] == U.NEW_CAREER["id"] else C.CAREER[c["career"]]
        metrics = {t["metric"] for t in career["tasks"]}
        assert not metrics & {"influence", "rank"}, c["name"]  # Assumption A14
    assert len(U.NEW_CAREER["tasks"]) == 3
    for t in U.NEW_CAREER["tasks"]:
        assert t["metric"] in {"quest", "combat", "upgrade", "liberated"} and t["upper"] < t["lower"]
    c16, c17 = U.CITY_TILES
    assert c16["gain"] == {"cp": 2} and len(c16["cities"]) == 2 and c16["deliver"] is True
    assert all(C.LOC[loc]["kind"] == "city" for loc in c16["cities"])
    assert c17["gains"] == [{"cp": 2}, {"d": 3}] and c17["then"] in C.CITY_ACTION_TEXT


def test_it_has_the_legacy_tiles_the_text_describes() -> None:
    lt = U.LEGACY
    l30 = lt["L30"]
    # a new location of the map, there only with the tile (map.json names the tile that brings it)
    assert C.LOC[l30["loc"]].get("legacy") == "L30" and l30["toll"] == "influence_marker"
    assert l30["first"] == {"d_per_rank": 5}
    each = l30["action"]["per_assistant_and_figure"]
    assert each == {"d": 1, "cp": 1}
    assert {k: v * (2 + 3) for k, v in each.items()} == {"d": 5, "cp": 5}  # W4: 2 assistants, 3 figures
    assert lt["L31"]["kind"] == "ruin" and lt["L31"]["track"] == "L32"
    assert 0 < lt["L31"]["after_space"] < C.END_SPACE
    spaces = {s["n"]: s for s in lt["L32"]["spaces"]}
    assert spaces[2]["gain"] == {"d": 5} and spaces[4]["gain"] == {"vp": 3}
    assert spaces[1]["pay"]["objects"] and spaces[3]["pay"]["objects"]
    assert spaces[1]["by_object"] == spaces[3]["by_object"] == U.BY_OBJECT
    assert lt["L32"]["end_vp"] == sorted(lt["L32"]["end_vp"], reverse=True)
    assert (lt["L33"]["loc"], lt["L33"]["then"]) == ("21a", "village")
    assert lt["L34"]["before_main"] == {"by_object": U.BY_OBJECT}
    assert lt["L35"]["before_main"] == {"pay": {"cp": 1}, "gain": {"vp": 2}}
    assert lt["L36"]["before_main"] == {"pay": {"same_goods": 2}, "gain": {"d": 2}}
    assert (lt["L37"]["loc"], lt["L37"]["then"], lt["L37"]["once"]) == ("13", {"move_to": "2"}, True)
    for tid in ("L38", "L39"):  # The Search's own tiles: played by search.py from search.json (193)
        assert (lt[tid]["kind"], lt[tid]["module"], lt[tid]["data"]) == ("search", "search", "search.json")
        assert "status" not in lt[tid]
    assert "not yet implemented" not in json.dumps(lt)
    for t in lt.values():
        if "loc" in t and t["id"] != "L30":
            assert t["loc"] in C.LOC, t["id"]


def test_it_uses_every_iconography_effect() -> None:
    assert U.BY_OBJECT["herbs"] == {"vp": 4}  # "Se a carta mostra ervas curativas, você ganha 4 pontos"
    assert sorted(U.BY_OBJECT) == sorted(C.OBJECTS)
    (c,) = _cards_with("by_object")
    assert c["effects"][0]["t"] == "combat" and c["effects"][0]["by_object"] == U.BY_OBJECT
    # barrier crossed and a worker returned: the base game's B cards (Old Surgeon, Cunning Sailor ...), dealt in
    # 78 and 79 (the Rebel Chronicler, card 241, returns a figure with no barrier to be past since #20's fifth
    # change; its retired rows 201-240 of stored games had both)
    assert any((c.get("needs") or {}).get("barrier") and c.get("figure") for c in C.CARD.values() if c["deck"] == "B")
    assert any(c.get("figure") for c in U.CARDS)
    assert any(c.get("cost_goods") for c in U.CARDS)
    (c,) = [c for c in U.CARDS if c.get("nation_worker")]
    assert c["effects"] == [{"t": "perm", "ext": "fight_for_pays", "nation": "marked", "gain": {"d": 2}}]
    (c,) = [c for c in U.CARDS if c.get("token_worker")]
    assert c["effects"] == [{"t": "perm", "ext": "token_choice", "n": 2}]
    when = sorted((e["vp"], json.dumps(e["when"])) for e in _effects_of(_cards_with("income_when")))
    assert when == [(3, '{"upgrade": 5}'), (5, '{"barrier": "green"}'), (5, '{"combat": 5}')]
    (c,) = _cards_with("village_variety")
    assert c["effects"][0]["vp"] == {"2": 2, "3": 4}
    assert len(_cards_with("wild_card")) == 1
    (c,) = _cards_with("empty_village_d")
    assert c["effects"][0]["max"] == 5
    (c,) = _cards_with("stops_collect")
    assert (c["effects"][0]["locs"], c["effects"][0]["gain"]) == (["4", "7", "13"], {"d": 5, "vp": 5})
    (c,) = _cards_with("last_pay_influence")
    e = c["effects"][0]
    assert (e["t"], e["cost"], e["pay_inf"], e["explore_upto"]) == ("combat", 1, 1, 2)
    trades = {e["pay"]: e["gain"] for e in _effects_of(_cards_with("trade_any"))}
    assert trades == {"tobacco": {"d": 2}, "corn": {"cp": 2}}
    assert all(e["where"] == "village" for e in _effects_of(_cards_with("liberate")))
    assert all(c.get("liberation_symbol") for c in _cards_with("liberate"))
    (c,) = _cards_with("card_quests")
    assert c["effects"][0]["n"] == 2
    assert all(len(e["gains"]) == 3 for e in _effects_of(_cards_with("one_of")))
    (c,) = _cards_with("return_marker")
    assert c["effects"][0]["gain"] == {"d": 7}
    per = {(e["gain"]["per"], e["gain"]["vp"]) for c in U.CARDS for e in c["effects"] if "per" in e.get("gain", {})}
    assert {("quest", 1), ("combat", 1), ("upgrade", 1), ("synergy", 3), ("cp", 1), ("figure", 1)} <= per
    (c,) = _cards_with("by_round")
    assert c["effects"][0]["rounds"] == {"1": {"d": 7}, "2": {"d": 7, "village": 1},
                                         "3": {"d": 7, "village": 1, "vp": 2}, "4": {"d": 7, "village": 1, "vp": 3}}
    (c,) = _cards_with("other_assistant")
    assert c["effects"][0]["pay"] == {"d": 3}
    fence = _effects_of(_cards_with("village_trade"))
    assert [(e["pay"], e["gain"]) for e in fence] == [({"same_goods": 2}, {"d": 5})]


def test_it_has_the_promos() -> None:
    fd, om = sorted(U.PROMOS, key=lambda p: p["name"])
    assert fd["name"] == "Flying Dutchman" and fd["kind"] == "quest" and fd["reward"] == {"vp": 8, "hand": 1}
    assert set(fd["cost"]) <= {"goods", "objects", "d", "cp", "fig"}
    assert om["name"] == "Own Monument" and om["effects"] == [{"t": "end", "ext": "end_per_rank", "vp": 2}]
    assert om["not_with"] == "liberation"  # "recomendamos não usar este cartão"


@pytest.mark.parametrize("name", U.FILES)
def test_it_loads_every_row_of(name: str) -> None:
    text = (ROOT / "engine/games/maracaibo/data/uprising" / name).read_text(encoding="utf-8")
    assert json.loads(text) == U.DATA[name]
