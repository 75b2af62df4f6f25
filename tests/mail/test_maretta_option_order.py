"""A Maretta player's options are listed as their hand is shown (play-test of #20): in the mail, in
its answers and on the page, by the game's presented order (``Rules.presented``); the codes are the
engine's, so a reply to a mail listed in the older order is read as before."""

from __future__ import annotations

import re

import pytest
from django.test import Client

import engine
from pbem.games import services
from pbem.games.models import Game, Move
from tests.factories import token_client
from tests.mail.conftest import Persona, html_of, seat_of, start_game, text_of
from tests.mail.test_maretta_by_mail import listed_options
from tests.mail.test_personal_page import link_in

pytestmark = pytest.mark.django_db(transaction=True)

#: a deal where every seat's hand, as shown, is not in the engine's order of its options
SEED = "option-order-2"


def hand_of(body: str) -> list[str]:
    """The cards of "Your hand: 1 Wood, 1 Rope, 3 Fire." as the mail shows them, each once."""
    found = re.search(r"^Your hand: (.*)\.$", body, re.M)
    assert found, "a seat's mail shows its hand"
    return list(dict.fromkeys(found.group(1).split(", ")))


def cards_in(labels: list[str], verb: str) -> list[str]:
    """The cards the labels name in order ("give 1 Wood to Bruno": 1 Wood), each once, named as the
    hand names them (the hand's "Steamship" is "the Steamship card" in a label)."""
    named = [re.match(rf"{verb} (\d \w+|the Steamship card)", label) for label in labels]
    assert all(named), labels
    return list(dict.fromkeys("Steamship" if m.group(1) == "the Steamship card" else m.group(1)
                              for m in named if m))


@pytest.fixture
def dealt(monkeypatch: pytest.MonkeyPatch, ana: Persona, bruno: Persona, carla: Persona) -> Game:
    monkeypatch.setattr(services, "new_seed", lambda: SEED)
    return start_game("maretta", [ana, bruno, carla], options={"side": "A"})


def test_the_deal_is_one_the_engine_lists_in_another_order(dealt: Game) -> None:
    rules = engine.get("maretta")
    assert dealt.state is not None
    for seat in range(3):
        engine_order = [o.code for o in rules.options(dealt.state, seat)]
        shown = [o.code for o in rules.presented(dealt.state, seat, rules.options(dealt.state, seat))]
        assert shown != engine_order and sorted(shown) == sorted(engine_order), "the same codes, another order"


def test_the_mail_and_the_page_list_the_options_as_the_hand_is_shown(dealt: Game, ana: Persona, bruno: Persona,
                                                                     carla: Persona) -> None:
    for person in (ana, bruno, carla):
        body = text_of(person.latest())
        listed = listed_options(body)
        assert cards_in([label for _code, label in listed], "play") == hand_of(body)
        html = html_of(person.latest())
        assert [html.index(f"<code>{code}</code>") for code, _label in listed] == sorted(
            html.index(f"<code>{code}</code>") for code, _label in listed), "the HTML part lists them so too"
        page = Client().get(link_in(person)).content.decode()
        at = [page.find(f'name="code" value="{code}"') for code, _label in listed]
        assert all(i > 0 for i in at) and at == sorted(at), "the page lists them in the mail's order"


def test_a_give_step_follows_the_hand_and_each_cards_rafts_keep_their_order(dealt: Game, ana: Persona,
                                                                          bruno: Persona, carla: Persona) -> None:
    for person in (ana, bruno, carla):  # phase one: each plays their first listed card face down
        code, _label = listed_options(text_of(person.latest()))[0]
        person.reply(person.latest(), code)
    dealt.refresh_from_db()
    assert dealt.state is not None and dealt.state["todo"][-1]["t"] == "place"
    giver = [p for p in (ana, bruno, carla) if seat_of(dealt, p).index == dealt.state["todo"][-1]["s"]][0]
    body = text_of(giver.latest())
    labels = [label for _code, label in listed_options(body)]
    assert labels and cards_in([la.replace("put ", "give ") for la in labels], "give") == hand_of(body)
    rules = engine.get("maretta")
    seat = seat_of(dealt, giver).index
    assert seat is not None
    by_engine = [o.label for o in rules.options(dealt.state, seat)]
    for card in hand_of(body):  # whose raft, for one card: in the engine's order still
        assert [la for la in labels if f" {card} " in la] == [la for la in by_engine if f" {card} " in la]


def test_a_code_is_read_whatever_order_the_mail_listed_it_in(dealt: Game, ana: Persona) -> None:
    rules = engine.get("maretta")
    assert dealt.state is not None
    seat = seat_of(dealt, ana).index
    assert seat is not None
    first_by_engine = rules.options(dealt.state, seat)[0]
    ana.reply(ana.latest(), first_by_engine.code)  # as an older mail listed it: first
    move = Move.objects.get(game=dealt, seat=seat)
    assert {k: v for k, v in move.move.items() if k != "code"} == first_by_engine.move


def test_a_refused_mail_lists_the_options_as_the_hand_is_shown(dealt: Game, ana: Persona) -> None:
    ana.reply(ana.latest(), "play 9 gold")
    answer = text_of(ana.latest())
    assert "Your options now:" in answer, answer
    assert cards_in([label for _code, label in listed_options(answer)], "play") == hand_of(text_of(ana.inbox()[0]))


def test_the_rest_api_lists_a_seats_options_in_the_mails_order(dealt: Game, ana: Persona, bruno: Persona,
                                                             carla: Persona) -> None:
    # (a front end shows what the player's mail shows: the API listed the engine's order before)
    for person in (ana, bruno, carla):
        seat = seat_of(dealt, person)
        assert seat.player is not None
        listed = [code for code, _label in listed_options(text_of(person.latest()))]
        got = token_client(seat.player).get(f"/api/v1/games/{dealt.pk}/options/").json()["options"]
        assert [o["code"] for o in got] == listed
