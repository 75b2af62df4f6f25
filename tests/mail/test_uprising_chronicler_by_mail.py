"""The Rebel Chronicler (#20: card 241, cost 13, 0 VP, past the blue barrier, only before the last round) by
mail over a real SMTP socket, in English and in Brazilian Portuguese.

Ana (English) and Bruno (Portuguese) set up a 78 game by mail and answer their turn mails with the bot's
choices until a turn begins in the first round; the turn's player is then given the card in hand, the
explorer on the blue barrier and two synergy tokens (the state changed as an administrator would, the only
way to reach the card without playing half a game), and writes the turn in a mail: sail to a village, buy
the card. Bought with 13 doubloons it scores 6 VP (3 a token) and the answer says it; with 12 the refusal
says its price, and in round 4 (of 4: the last) that it is sold only before the last round, each in the
reader's language.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.games.maracaibo import content as C
from pbem.games import services
from pbem.games.models import Game, InboundMessage, Player
from tests.mail.conftest import Persona, SmtpServer, seat_of, text_of

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

GENERAL = "pbem@pbem.localhost"
CHRONICLER = 241
BLUE = next(s for s, colour in C.BARRIERS.items() if colour == "blue")


def _flat(text: str) -> str:
    return " ".join(text.split())


def _to_a_turn(game: Game, by_seat: dict[int, Persona], rnd: random.Random) -> int:
    """Turn mails answered with the bot's choices until a player's turn begins (a sail offered): its seat."""
    rules = services.rules_for(game)
    for _ in range(200):
        game.refresh_from_db()
        state = game.state
        assert state is not None
        seat = rules.pending(state)[0]
        options = rules.options(state, seat)
        if any(o.code[1:] in C.LOC and o.code.startswith("s") and C.LOC[o.code[1:]]["kind"] == "village"
               for o in options) and int(state["round"]) < 3:
            return int(seat)
        pick = rules.bot_choice(state, seat, options, rnd)  # type: ignore[attr-defined]
        person = by_seat[seat]
        person.reply(person.latest(), pick.code)
    raise AssertionError("no turn began")


def _given_the_card(game: Game, seat: int, d: int, rounds: tuple[int, int]) -> str:
    """The seat holds the Chronicler, its explorer on the blue barrier, two synergy tokens, ``d`` doubloons, in
    round ``rounds[0]`` of ``rounds[1]``: the code of the nearest village it may sail to."""
    state: dict[str, Any] = dict(game.state or {})
    p = state["seats"][seat]
    p["hand"] = [CHRONICLER, *[c for c in p["hand"] if c != CHRONICLER][1:]]
    p["explorer"], p["synergy"], p["doubloons"] = BLUE, ["anchor", "cross"], d
    state["round"], state["rounds"] = rounds
    game.state = state
    game.save(update_fields=["state"])
    options = services.rules_for(game).options(state, seat)
    return next(o.code for o in options if o.code.startswith("s") and o.code[1:] in C.LOC
                and C.LOC[o.code[1:]]["kind"] == "village")


#: what the answer says, by the reader's language: a doubloon short, in the last round, bought
SAID = {
    "en": ("Rebel Chronicler costs 13 doubloons and you have 12",
           "Rebel Chronicler is sold only before the last round (Rebel Chronicler stays in your hand)",
           "You buy Rebel Chronicler for 13 doubloons, returning a figure. - You get 6 VP."),
    "pt": ("Cronista Rebelde custa 13 dobrões e você tem 12",
           "Cronista Rebelde só se vende antes da última rodada (Cronista Rebelde fica na sua mão)",
           # (a Portuguese reader's own events say "Você", as English says "You": #27)
           "Você compra Cronista Rebelde por 13 dobrões, devolvendo uma figura. - Você recebe 6 pontos de vitória."),
}


def test_the_rebel_chronicler_by_mail_in_english_and_portuguese(ana: Persona, bruno: Persona,
                                                              smtp_server: SmtpServer) -> None:
    ana.send_to(GENERAL, f"new maracaibo with {bruno.email} mode=78")
    bruno.reply(bruno.latest(), "join")
    Player.objects.filter(email=bruno.email).update(language="pt")
    game = Game.objects.get(rules="maracaibo")
    by_seat = {seat_of(game, p).index: p for p in (ana, bruno)}
    rnd = random.Random(240)
    told: set[str] = set()
    while len(told) < 2:
        seat = _to_a_turn(game, by_seat, rnd)
        person = by_seat[seat]
        lang = "pt" if person is bruno else "en"
        buy = "comprar Cronista Rebelde" if lang == "pt" else "buy rebel chronicler"
        now = (int(game.state["round"]), int(game.state["rounds"])) if game.state else (1, 4)
        assert now[1] == 4 and now[0] < 3
        for d, rounds, said in zip((12, 20, 13), (now, (now[1], now[1]), now), SAID[lang], strict=True):
            sail = _given_the_card(game, seat, d, rounds)
            person.reply(person.latest(), f"{sail}\n{buy}")
            answer = _flat(text_of(person.latest()))
            print(f"---- {person.name} ({lang}), {d} doubloons, round {rounds[0]} of {rounds[1]}:\n"
                  f"{text_of(person.latest())}")
            assert said in answer, answer
            game.refresh_from_db()
            assert game.state is not None
            p = game.state["seats"][seat]
            if d < 13 or rounds[0] >= rounds[1]:  # refused: nothing changed
                assert CHRONICLER in p["hand"] and p["doubloons"] == d
                assert InboundMessage.objects.order_by("-id")[0].status == InboundMessage.Status.REJECTED
            else:
                assert CHRONICLER in p["display"] and p["doubloons"] == 0
        told.add(lang)
