"""Maretta's text and SVG pictures: readable, complete, and built from the view only."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import pytest

from engine import figure, get
from engine.games.maretta import render
from tests.engine.test_maretta_hidden import random_states, resample
from tests.engine.test_maretta_rules import PINK, PURPLE, barrel_game, game, side_a_turn

R = get("maretta")


def test_it_writes_a_text_board_with_positions_hand_stocks_rafts_barrels_and_whose_turn() -> None:
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     pos=[3, 0, 9], stock=[["1wo", "2fi"], [], []])
    R.apply(st, PURPLE, {"code": "3fi"})
    text = R.render_text(R.view(st, PURPLE))
    assert "MARETTA, side A: Escape from Maretta. Turn 1" in text
    assert "Purple  space 3 (starting player, you)" in text and "Pink    Island of Maretta" in text
    assert "stock: 1 Wood, 2 Fire (2 resource types)" in text
    assert "(*) 3 Fire (face down)" in text
    assert "Your hand: 3 Wood, 2 Rope, 4 Food." in text
    assert "Waiting for: Pink, Yellow." in text
    other = R.render_text(R.view(st, PINK))
    assert "3 Fire" not in other and "(*) face-down card" in other
    assert "Your hand: 5 Rope, 2 Fire, 1 Water, 2 Water." in other


def test_it_writes_side_b_stacks_lava_and_caught_players() -> None:
    st = game("B", 3)
    st["stock"][PURPLE] = ["2wa", "3wa", "1fi"]
    st["out"][PINK] = 2
    st["v"] += 1
    text = R.render_text(R.view(st, None))
    assert "Lava: 3 behind the village, flowing 3 spaces a turn." in text
    assert "stock: 2 stacks: Fire 1=1; Water 2+3=5" in text
    assert "caught by the lava on turn 2" in text
    assert "Your hand" not in text


def test_it_shows_known_barrels_and_pelican_knowledge_in_text() -> None:
    st = barrel_game("pe", up=False)
    text = R.render_text(R.view(st, PURPLE))
    assert "Barrels: 4: face down, Anchor." in text
    R.apply(st, PURPLE, {"code": "b1"})
    R.apply(st, PURPLE, {"code": "look-2"})
    assert "You know (pelican) that Pink holds: 1 Wood, 2 Wood, 3 Wood, 4 Wood." in R.render_text(R.view(st, PURPLE))
    assert "pelican" not in R.render_text(R.view(st, PINK))


@pytest.mark.parametrize("side", ["A", "B"])
def test_it_draws_a_well_formed_svg_board_for_each_side(side: str) -> None:
    for st in random_states(side, 4, 21, every=15):
        for seat in (None, 0):
            doc = R.render_svg(R.view(st, seat))
            root = ET.fromstring(doc)
            assert root.tag.endswith("svg")
            circles = [e for e in root.iter() if e.tag.endswith("circle")]
            assert len(circles) >= st["end"] + 1  # every route space
            words = " ".join(e.text or "" for e in root.iter())
            assert ("Steamship" in words) == (side == "A") and ("LAVA" in words) == (side == "B")
            # built from the view only: a resampled state with the same view draws the same board
            assert R.render_svg(R.view(resample(st, seat), seat)) == doc


def test_it_marks_face_down_barrels_with_a_question_mark_in_the_svg() -> None:
    st = barrel_game("sx", up=False)
    doc = R.render_svg(R.view(st, None))
    assert ">?<" in doc and ">An<" in doc and ">Sx<" not in doc


@pytest.mark.parametrize("side", ["A", "B"])
def test_it_writes_the_board_and_draws_the_picture_in_portuguese_for_a_portuguese_reader(side: str) -> None:
    """Issue 27: the text board, the picture's labels and legend and its symbols' key (<desc>)
    all in the catalogue: nothing shown to a Portuguese reader is left in English."""
    from engine import i18n

    missed: set[str] = set()
    for st in random_states(side, 4, 21, every=4):
        for seat in (None, 0):
            view = R.view(st, seat)
            english = (R.render_text(view), R.render_svg(view), R.render_mail_svg(view))
            with i18n.language("pt"), i18n.on_miss(lambda msgid, _code: missed.add(msgid)):
                text, wide, mail = R.render_text(view), R.render_svg(view), R.render_mail_svg(view)
            assert (R.render_text(view), R.render_svg(view), R.render_mail_svg(view)) == english
            assert text.startswith(f"MARETTA, lado {side}: Fuga de {'Maretta' if side == 'A' else 'Vulcano'}. Turno ")
            assert "Pilha de compra: " in text and "Draw pile" not in text
            assert ("A sua mão: " in text) == (seat is not None) and "Your hand" not in text
            assert ("Agora: " in text or "O jogo terminou" in text) and "Waiting for" not in text
            words = " ".join(e.text or "" for e in ET.fromstring(wide).iter())
            assert f"Maretta lado {side}: " in words and "barril virado para baixo" in words
            assert ("Ilha" in words) == (side == "A") and ("Aldeia" in words) == (side == "B")
            assert "face-down" not in words and "between two spaces" not in words
            desc = next(e.text or "" for e in ET.fromstring(mail).iter() if e.tag.endswith("desc"))
            assert "Fichas marrons (?): barris virados para baixo" in desc and "chips" not in desc
    assert missed == set()


def test_it_says_an_empty_stock_with_the_word_agreeing_with_it_in_portuguese() -> None:
    """QA (#27): "estoque: vazia" (the shared "empty" of a hand, "mão", feminine); an empty stock is
    "estoque: vazio", and English still "stock: empty"."""
    from engine import i18n

    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]],
                     pos=[3, 0, 9], stock=[["1wo", "2fi"], [], []])
    view = R.view(st, PURPLE)
    assert "stock: empty" in R.render_text(view)
    with i18n.language("pt"):
        text = R.render_text(view)
    assert "estoque: vazio" in text and "vazia" not in text, text


@pytest.mark.parametrize("in_desc", [True, False])
def test_its_players_key_never_draws_a_wrapped_line_over_the_next_players(in_desc: bool) -> None:
    # names long enough to wrap over three lines on a phone, with the starting player's mark
    st = game("B", 3)
    st["players"] = ["Maria Aparecida da Conceição Albuquerque dos Santos Pereira de Souza Lima",
                     "Bartholomew Fitzgerald-Montgomery of Westminster", "Li"]
    doc = render.render_svg(R.view(st, None), narrow=True, key_in_desc=in_desc)  # the mail's picture, the phone's page
    drawn = figure.read(doc)
    assert drawn is not None
    key = sorted((t for t in drawn.items if isinstance(t, figure.Text) and t.anchor == "start"
                  and t.y > max(c.cy for c in drawn.items if isinstance(c, figure.Circle) and c.r > 12)),
                 key=lambda t: t.y)
    assert len(key) >= 6  # three players, the first over three lines
    for above, below in itertools.pairwise(key):
        assert below.y - above.y >= above.size, (above.text, below.text)
    assert key[-1].y < drawn.height


def test_a_positions_mail_picture_is_drawn_once_for_every_seat_and_is_the_picture_drawn_afresh() -> None:
    """Issue 28, pipe session: the mail picture is the public board, so the seats' mails of one
    position get the one drawing kept from the first; it is what a fresh drawing gives, in the
    reader's language, and a later position is drawn anew."""
    from engine import i18n

    states = random_states("A", 3, 5, every=5)
    assert len(states) >= 3
    for st in states[:3]:
        views = [R.view(st, seat) for seat in (0, 1, 2, None)]
        fresh = render.render_mail_svg(views[0])
        # kept: the very string drawn for the first seat (each seat's view is another dict)
        assert all(render.render_mail_svg(v) is fresh for v in views[1:])
        mailed = R.render_mail_svg(views[1])
        render._MAIL_SVGS.clear()
        assert render.render_mail_svg(views[2]) == fresh and R.render_mail_svg(views[3]) == mailed
        with i18n.language("pt"):
            portuguese = render.render_mail_svg(views[1])
            assert render.render_mail_svg(views[0]) is portuguese
        assert portuguese != fresh and "Maretta lado A" in portuguese and "Maretta side A" in fresh
    pictures = {render.render_mail_svg(R.view(st, 0)) for st in states}
    assert len(pictures) == len(states)  # each position its own
    assert len(render._MAIL_SVGS) <= render.MAIL_SVGS_KEPT


def test_a_mail_picture_is_drawn_again_while_untranslated_texts_are_watched() -> None:
    """While the catalogue's completeness is watched (``on_miss``), the picture is drawn again
    rather than kept, so every text it shows goes through the catalogue and a missing one is told."""
    from engine import i18n

    view = R.view(random_states("B", 3, 8, every=6)[1], 0)
    with i18n.language("pt"):
        kept = render.render_mail_svg(view)
        assert render.render_mail_svg(view) is kept
        told: list[str] = []
        with i18n.on_miss(lambda msgid, _code: told.append(msgid)):
            redrawn = render.render_mail_svg(view)
    assert redrawn == kept and redrawn is not kept
    assert told == []  # the catalogue has every text of it (the completeness test above)


@pytest.mark.parametrize("narrow", [False, True])
def test_a_pawn_is_drawn_centred_above_its_space_alone_or_beside_others(narrow: bool) -> None:
    # Play-test: a pawn alone on space 4 was drawn a step to the left, about halfway to space 3, and
    # read as on 3 (the slots were fixed at -1, 0, +1 steps whatever the number of pawns there).
    st = side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"],
                      ["2wo", "4ro", "3ro", "1wo"]], pos=[3, 3, 9, 4], n=4)
    root = ET.fromstring(render.render_svg(R.view(st, None), narrow=narrow))
    pawns = {int(e.get("class", "").split("seat")[1]): int(e.get("cx", 0)) for e in root.iter()
             if e.tag.endswith("circle") and "pawn" in e.get("class", "").split()}
    lay = render.NARROW if narrow else render.WIDE
    centre = {p: render._xy(lay, p, 0)[0] for p in (3, 4, 9)}
    assert abs(pawns[2] - centre[9]) <= 1 and abs(pawns[3] - centre[4]) <= 1  # alone: above its space
    assert abs((pawns[0] + pawns[1]) / 2 - centre[3]) <= 1  # two: one each side of it
    assert abs(pawns[1] - pawns[0] - (2 * lay.pawn_r + 1)) <= 1  # (a space's centre may fall on a half pixel)
