"""Sub-decisions on one line (issue 21): ``buy Pious Gunner, explore 2``, ``deliver corn with card 3,
disc U3`` are read as a mail's line is (``engine.batch``), each part where the one before it left
the game, all applied or the line refused whole; a part that draws or reveals must end its line."""

from __future__ import annotations

import copy
from typing import Any

import engine
from engine.batch import Command, apply_batch
from engine.games.maracaibo import content as C
from tests.engine import maracaibo_scenarios as S

RULES = engine.get("maracaibo")


def _applied(state: dict, seat: int, codes: list[str]) -> dict:
    after = copy.deepcopy(state)
    for code in codes:
        RULES.apply(after, seat, next(o.move for o in RULES.options(after, seat) if o.code == code))
    return after


def test_it_applies_a_buy_and_the_explorer_choice_it_asks_written_on_one_line() -> None:
    st, seat = S.village()
    result = apply_batch(RULES, st, seat, [Command(text="buy Pious Gunner, explore 2")])
    assert result.refused is None
    assert [(s.number, s.shown) for s in result.steps] == [(1, "buy Pious Gunner"), (1, "explore 2")]
    assert st == _applied(S.village()[0], seat, ["b14", "e2"])


def test_it_applies_a_delivery_its_payment_card_and_its_disc_written_on_one_line() -> None:
    st, seat = S.city_two_corn()
    result = apply_batch(RULES, st, seat, [Command(text="deliver corn with card 7, disc U3")])
    assert [s.move["code"] for s in result.steps] == ["dcorn", "y7", "u3"]
    assert 7 not in st["seats"][seat]["hand"] and 3 in st["seats"][seat]["hand"], "card 7 paid, card 3 kept"


def test_it_refuses_the_whole_line_when_a_later_part_is_wrong_and_says_where_it_stands() -> None:
    st, seat = S.city_two_corn()
    before = copy.deepcopy(st)
    result = apply_batch(RULES, st, seat, [Command(text="deliver corn with card 3, disc U99")])
    assert result.refused is not None and not result.steps
    assert st == before, "nothing of the line applied"
    message = result.refused.error.message
    assert '"disc U99"' in message and 'after "deliver corn, with card 3"' in message
    # the options listed are those where the line failed: the disc to take, after the payment
    assert {o.code for o in result.refused.options} >= {"u1", "u3"}
    assert not any(o.code.startswith("d") for o in result.refused.options)


def test_it_refuses_a_line_whose_draw_is_not_its_last_part_without_drawing() -> None:
    st, seat = S.draw()
    before = copy.deepcopy(st)
    result = apply_batch(RULES, st, seat, [Command(text="draw from the pile, vd")])
    assert result.refused is not None and not result.steps
    assert st == before, "no card drawn, the random numbers untouched"
    message = result.refused.error.message
    assert "must end its line" in message
    # the reason quotes what was typed, never a card the draw would have shown
    drawn = _applied(before, seat, ["pile"])
    new = set(drawn["seats"][seat]["hand"]) - set(before["seats"][seat]["hand"])
    assert new and not any(str(C.CARD[c]["name"]) in message for c in new)
    # written one a line, the same draws are taken
    again = apply_batch(RULES, copy.deepcopy(before), seat, [Command(text="draw from the pile")])
    assert again.refused is None


def test_it_keeps_the_whole_line_reading_before_any_split() -> None:
    # a line that is one move is never split (a Caravelas keep names two cards with a comma)
    st, seat = S.city_two_corn()
    result = apply_batch(RULES, st, seat, [Command(text="deliver corn")])
    assert [s.shown for s in result.steps] == ["deliver corn"]
    assert RULES.line_parts("deliver corn with card 3, disc U3") == ["deliver corn", "with card 3", "disc U3"]
    assert RULES.line_parts("a, b; c then d") == ["a", "b", "c", "d"]




def _paid_once_the_delivery_is_chosen(line: str) -> tuple[dict[str, Any], int]:
    """At a city with two corn, "deliver corn" chosen, then ``line`` applied whole: Bold Merchant's payment (y7)
    and disc U3, as the two moves applied one by one would. Returns the state before ``line``, and the seat."""
    st, seat = S.city_two_corn()
    apply_batch(RULES, st, seat, [Command(text="deliver corn")])
    chosen = copy.deepcopy(st)
    result = apply_batch(RULES, st, seat, [Command(text=line)])
    assert result.refused is None, result.refused
    assert [s.move["code"] for s in result.steps] == ["y7", "u3"]
    assert st == _applied(chosen, seat, ["y7", "u3"])
    return chosen, seat

def test_it_applies_the_payment_and_disc_written_as_the_whole_delivery_once_the_delivery_is_chosen() -> None:
    # QA, #20: "deliver cotton" alone, then the answer to the payment's question written as the mail's
    # worked line says ("deliver cotton with Red Gunner, disc UH"), was refused: its first part, the
    # delivery, was chosen already; the line is read again split at its comma only
    chosen, seat = _paid_once_the_delivery_is_chosen("deliver corn with Bold Merchant, disc U3")
    # a wrong part after it is still refused after the payment, the line as a whole, nothing applied
    st = copy.deepcopy(chosen)
    refused = apply_batch(RULES, st, seat, [Command(text="deliver corn with Bold Merchant, disc U99")]).refused
    assert refused is not None and st == chosen
    assert 'after "deliver corn with Bold Merchant": "disc U99"' in refused.error.message
    # and at the city, before the delivery, the same line is still the delivery, its payment and its disc
    st, seat = S.city_two_corn()
    result = apply_batch(RULES, st, seat, [Command(text="deliver corn with Bold Merchant, disc U3")])
    assert [s.move["code"] for s in result.steps] == ["dcorn", "y7", "u3"]


def test_it_reads_the_one_card_that_pays_named_on_the_delivery_line_and_never_plans_another() -> None:
    # QA, #20: with one sugar card in hand the delivery is paid without asking, so in "deliver sugar with
    # Lucky Navigator, disc UH" the part "with Lucky Navigator" was no move and the line was refused; and
    # "with Swift Deserter" (a cotton card) was read as planning Swift Deserter
    st, seat = S.city_two_corn()
    st["seats"][seat]["hand"] = [7, 2, 8]  # Bold Merchant, the one corn card
    before = copy.deepcopy(st)
    result = apply_batch(RULES, st, seat, [Command(text="deliver corn with Bold Merchant, disc U3")])
    assert result.refused is None, result.refused
    assert [s.move["code"] for s in result.steps] == ["dcorn", "u3"]
    assert 7 not in st["seats"][seat]["hand"]
    other = str(C.CARD[8]["name"])
    st = copy.deepcopy(before)
    refused = apply_batch(RULES, st, seat, [Command(text=f"deliver corn with {other}, disc U3")]).refused
    assert refused is not None and st == before, "nothing applied, nothing planned"
    assert f"'with {other}' names a card to pay with, but no payment is asked now" in refused.error.message


def test_it_keeps_a_copied_labels_parenthesised_group_whole() -> None:
    # QA, #20: a label copied with its own commas, "(corn, book)" of "deliver corn with Bold Merchant
    # (corn, book)", was split at them: "book)" read as a move and the line refused
    assert RULES.line_parts("deliver corn with Bold Merchant (corn, book), disc U3") == [
        "deliver corn", "with Bold Merchant (corn, book)", "disc U3"]
    assert engine.core.Rules.line_parts(RULES, "a (b, c; d then e), f [g, h]; i") == ["a (b, c; d then e)",
                                                                                     "f [g, h]", "i"]
    assert RULES.line_parts("a, b; c then d") == ["a", "b", "c", "d"]
    assert RULES.line_parts("a (b, c") == ["a (b", "c"], "an unclosed bracket splits as before"
    _paid_once_the_delivery_is_chosen("deliver corn with Bold Merchant (corn, book), disc U3")
