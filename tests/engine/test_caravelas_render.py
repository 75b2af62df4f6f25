"""Caravelas II text and SVG renderings: readable, complete, built from the view only."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from engine.games.caravelas import RULES
from engine.games.caravelas import board as B
from tests.engine.test_caravelas_rules import game, play, put

NS = "{http://www.w3.org/2000/svg}"


def classes(svg: str, name: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [el for el in root.iter() if name in (el.get("class") or "").split()]


def test_it_renders_a_plain_text_board_for_a_mail() -> None:
    state = put(game(3), 0, cargo=["red"], disc=["guine", "natal"], hand=[1, 2, 3, 5])
    text = RULES.render_text(RULES.view(state, 0))
    assert "It is your turn" in text and "It is Ana's turn" not in text
    for name in ("Ana", "Bruno", "Carla"):
        assert name in text
    assert "Your movement cards: 1, 2, 3, 5" in text
    assert "Guiné (yellow, 1 point)" in text and "Natal (green, 5 points)" in text
    assert "cargo: red (4)" in text and "Jeronimos Monastery: 0 of 4" in text
    assert all(line.isprintable() for line in text.splitlines())


def test_the_turn_line_says_your_turn_to_its_player_alone_in_both_languages() -> None:
    from engine import i18n

    state = game(3)
    for seat, expected in ((0, "It is your turn ("), (1, "It is Ana's turn ("), (None, "It is Ana's turn (")):
        assert expected in RULES.render_text(RULES.view(state, seat))
    with i18n.language("pt"):
        own, other = (RULES.render_text(RULES.view(state, seat)) for seat in (0, 1))
    assert "É a sua vez (" in own and "Ana" not in own.split("É a sua vez")[1].splitlines()[0]
    assert "É a vez de Ana (" in other


def test_it_keeps_other_players_cards_out_of_the_text() -> None:
    state = game(2)
    text = RULES.render_text(RULES.view(state, 1))
    for c in state["fleets"][0]["disc"]:
        assert B.name(c) + " (" not in text.split("Your discovery cards")[1]
    assert "Your movement cards" not in RULES.render_text(RULES.view(state, None))


def test_it_renders_the_final_ranking() -> None:
    state = game(2)
    put(state, 0, score=61, disc=[])
    put(state, 1, score=40, disc=["guine"])
    state["over"], state["ending"] = True, "points"
    state["v"] += 1
    text = RULES.render_text(RULES.view(state, None))
    assert "GAME OVER" in text and "1. Ana 61; 2. Bruno 38" in text


def test_it_draws_an_svg_map_with_routes_arrows_cubes_monastery_and_fleets() -> None:
    state = game(4)
    put(state, 1, at="guine")
    put(state, 2, at="guine")
    state["monastery"] = 2
    state["v"] += 1
    svg = RULES.render_svg(RULES.view(state, None))
    assert len(classes(svg, "route")) == len(B.MAP["lines"])
    assert len(classes(svg, "arrows")) == len(B.MAP["arrows"])
    assert len(classes(svg, "fleet")) == 4
    assert len(classes(svg, "cube")) == sum(state["cubes"].values())
    assert len(classes(svg, "monastery")) == 5 and len(classes(svg, "full")) == 2
    for node in B.MAP["nodes"]:
        if node["kind"] not in ("white", "blue"):
            assert node["name"] in svg


def test_it_shows_the_cubes_left_on_the_map() -> None:
    state = game(2)
    state["cubes"]["red"] = 1
    state["v"] += 1
    svg = RULES.render_svg(RULES.view(state, 0))
    assert len(classes(svg, "red")) == 1


def test_it_marks_the_viewers_own_discovery_targets_only() -> None:
    state = game(2)
    mine = RULES.render_svg(RULES.view(state, 0))
    theirs = RULES.render_svg(RULES.view(state, 1))
    spectator = RULES.render_svg(RULES.view(state, None))
    assert len(classes(mine, "target")) == 4 == len(classes(theirs, "target"))
    assert len(classes(spectator, "target")) == 0
    xy = {(B.NODES[c]["x"], B.NODES[c]["y"]) for c in state["fleets"][0]["disc"]}
    assert {(int(float(e.get("cx") or 0)), int(float(e.get("cy") or 0))) for e in classes(mine, "target")} == xy


def test_it_renders_every_step_of_a_turn() -> None:
    state = put(game(2), 0, disc=[])
    play(state, 0, "draw")
    view = RULES.view(state, 0)
    assert "You drew:" in RULES.render_text(view) and "choosing discovery cards" in RULES.render_text(view)
    RULES.render_svg(view)


def test_it_says_none_by_the_nouns_gender_in_portuguese() -> None:
    # issue 27: nothing discovered is "nenhum" (lugares, masculine), no sunk caravela "nenhuma"
    from engine import i18n

    state = game(2)
    english = RULES.render_text(RULES.view(state, 0))
    assert "sunk caravelas: none" in english and "discovered: none; holds" in english
    with i18n.language("pt"):
        text = RULES.render_text(RULES.view(state, 0))
    assert "descobertos: nenhum; tem" in text and "descobertos: nenhuma" not in text
    assert "caravelas afundadas: nenhuma" in text
    put(state, 0, found=[next(iter(B.DISCOVERIES))])
    with i18n.language("pt"):
        assert f"descobertos: {B.name(next(iter(B.DISCOVERIES)))}; tem" in RULES.render_text(RULES.view(state, 0))
