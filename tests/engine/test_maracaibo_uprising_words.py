"""What the Uprising's competitive scenarios say to a player in words (QA of #20, played by mail as 78 and
79 with three players): the home port's combat action as the mode plays it, the nation its rulebook words
call "the indicated nation", and scenario 78's legacy tile L40, which no mail named while every fight offered
"fight against ..." (docs/rules/maracaibo-uprising.md, Home Ports and Uprising)."""

from __future__ import annotations

import re
from typing import Any

from engine import i18n
from engine.games.maracaibo import RULES, homeports, labels
from engine.stack import frame
from engine.testing import player_names
from tests.engine.maracaibo_scenarios import _on, _started

State = dict[str, Any]


def _flat(text: str) -> str:
    return " ".join(text.split())


def _with_port(mode: str, port: str) -> State:
    """Ana (seat 0) after the setup, her home port ``port`` kept and unlocked."""
    state = _started(mode=mode)
    p = state["seats"][0]
    p["port"], p["discs"], p["areas"] = port, {**p["discs"], "UH": 0}, [*p["areas"], "UH"]
    state["revision"] += 1
    return state


def _text(state: State, language: str = "en") -> str:
    with i18n.language(language):
        return _flat(RULES.render_mail_text(RULES.view(state, 0)))


def test_it_words_a_home_ports_combat_action_against_its_nation_for_vp_in_liberation() -> None:
    # 79 fights only against a nation, and influence is 2 VP there: the mail offered Yaquimel
    # "fighting for Spain: ... 4 doubloons, 1 influence", a fight and a gain scenario 79 does not have
    state = RULES.setup(player_names(3), {"mode": "79"}, "words")
    state["seats"][0]["setup"]["ports"] = ["HP5", "HP7", "HP9"]
    offered = {o.code: o.label for o in RULES.options(state, 0)}
    assert offered["hHP7"] == ("home port Yaquimel: fighting against Spain: combat action (value 2) for 4 doubloons, "
                               "2 VP now")
    assert offered["hHP5"].startswith("home port Kingstown: fighting against England:")
    assert not [label for label in offered.values() if "fighting for" in label or "influence" in label], offered
    assert RULES.read("home port yaquimel", state, 0).move == {"code": "hHP7"}  # still read by its name
    with i18n.language("pt"):
        said = [o.label for o in labels.in_language(RULES.options(state, 0))]
    assert ("Porto de Origem Yaquimel: lutando contra Espanha: ação de combate (valor 2) por 4 dobrões, "
            "2 PV agora") in said, said
    # on the ship board (the delivery's disc areas, the page's UH slot) as the option said it
    p = _with_port("79", "HP7")["seats"][0]
    assert homeports.area_text(p, "UH") == ("home port Yaquimel: fighting against Spain: combat action (value 2) "
                                            "for 4 doubloons, 2 VP")
    # scenario 78 fights for a nation as the base game does: its words stay
    p = _with_port("78", "HP7")["seats"][0]
    assert homeports.area_text(p, "UH") == ("home port Yaquimel: fighting for Spain: combat action (value 2) "
                                            "for 4 doubloons, 1 influence")


def test_it_names_the_nation_of_a_home_port_whose_rulebook_words_say_the_indicated_nation() -> None:
    state = _with_port("78", "HP7")
    words = _text(state)
    assert "home port Yaquimel (Spain, unlocked): When you fight with the indicated nation" in words
    assert "Porto de Origem Yaquimel (Espanha, desbloqueado): lutando por Espanha" in _text(state, "pt")
    assert "home port Nassau (unlocked): Whenever you end your movement" in _text(_with_port("78", "HP11"))
    # another player's port in a mail: in a few words (the rulebook's, Roatán's 700 characters for one,
    # left a 3-player mail of 78 no room for its picture); the reader's own in the rulebook's words
    state["seats"][1]["port"] = "HP15"
    words = _text(state)
    assert "home port Roatán (locked): at the unlock a figure to the explorer track's start" in words
    assert "As soon as you unlock" not in words and "When you fight with the indicated nation" in words


def test_it_says_what_fighting_against_a_nation_offers_in_scenario_78_only() -> None:
    l40 = ("Legacy tile L40 The Uprising: Fighting against a nation: Liberate City (value 6: 3 doubloons and 1 VP "
           "per occupied city, a marker of that nation from a city to your resistance tile) and Liberate Village "
           "(value 4: a marker of that nation from a village to your tile, 3 VP per neighbouring location with a "
           "marker), each once.")
    state = _started(mode="78")
    assert l40 in _text(state)
    pt = _text(state, "pt")
    assert "Peça Legacy L40 A Revolta: Lutando contra uma nação: Libertar Cidade (valor 6: 3 dobrões e 1 PV" in pt
    assert "Fighting against" not in pt
    assert "L40" not in _text(_started(mode="79"))  # Liberation's fights are its own module's, not L40's


def test_it_says_no_nation_scores_at_the_end_of_79_instead_of_a_multiplier() -> None:
    # scenario 79 scores no nation at the end: its mails said "France 6, 7; x5" as a scoring multiplier
    words = _text(_started(mode="79"))
    assert "NATIONS (markers on the map, in supply; no nation scores at the end of this scenario) France 6, 7;" in words
    assert "scoring multiplier" not in words and "; x" not in words.partition("NATIONS")[2].partition("PRESTIGE")[0]
    pt = _text(_started(mode="79"), "pt")
    assert "NAÇÕES (marcadores no mapa, na reserva; nenhuma nação pontua no fim deste cenário) França 6, 7;" in pt
    nations = _text(_started(mode="78")).partition("NATIONS (markers on the map, in supply; scoring multiplier) ")[2]
    assert re.match(r"France \d+, \d+; x\d; England", nations), nations[:80]


def test_it_says_when_a_fight_against_a_nation_has_nothing_to_liberate() -> None:
    # QA, #20: in 78's first round no marker stands anywhere; Ana fought against France, paid the token's
    # 2 doubloons and the combat ended: the option had not said that nothing could be liberated
    state = _started(mode="78")
    state["markers"] = {"14": "spain"}
    state = _on(state, frame("fight", 0, token="T3", ask=True))[0]
    offered = {o.code: o.label for o in RULES.options(state, 0)}
    assert offered["af"] == "fight against france (value 6; the combat token: 2 VP now; no France marker to liberate)"
    assert offered["as"].startswith("fight against spain (value ") and "to liberate" not in offered["as"]
    assert RULES.read("fight against france", state, 0).move == {"code": "af"}
    with i18n.language("pt"):
        said = {o.code: o.label for o in labels.in_language(RULES.options(state, 0))}
    assert said["af"] == ("lutar contra França (valor 6; a ficha de combate: 2 PV agora; nenhum marcador de França "
                          "para libertar)"), said["af"]
