"""What a player of the Uprising's competitive scenarios reads by mail (QA of #20, three players playing 78
and 79 by mail over a real SMTP socket): the refusals of two lines a player writes at the start, each
saying why and changing nothing, and scenario 78's legacy tile L40 said in the mail, whose fights against
a nation every combat offers."""

from __future__ import annotations

import pytest

from engine.games.maracaibo import uprising_content as U
from pbem.games.models import Game
from tests.mail.conftest import Persona, SmtpServer, start_game, text_of

pytestmark = [pytest.mark.django_db(transaction=True)]


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_it_answers_a_home_port_not_dealt_and_a_liberation_outside_a_fight_with_why(
        ana: Persona, bruno: Persona, carla: Persona, smtp_server: SmtpServer) -> None:
    game = start_game("maracaibo", [ana, bruno, carla], options={"mode": "79"})
    assert game.state is not None
    version, dealt = game.state["revision"], list(game.state["seats"][0]["setup"]["ports"])
    setup = ana.latest()
    assert "home port" in text_of(setup)
    # Genova is never dealt with the Liberation module: the answer names the three ports Ana was dealt
    ana.reply(setup, "home port Genova")
    said = _flat(text_of(ana.latest()))
    assert "was not accepted; nothing was changed" in said
    names = [str(U.PORT[pid]["name"]) for pid in dealt]
    assert f"you were dealt the home ports {', '.join(names)}: keep one of them ('home port {names[0]}')" in said
    # a liberation before any fight: the answer says where liberating is done
    ana.reply(ana.latest(), "liberate 3")
    said = _flat(text_of(ana.latest()))
    assert "'liberate 3' is not a legal move now: a place is liberated in a fight against a nation" in said
    assert "by your resistance tile's village action at a village" in said
    game.refresh_from_db()
    assert game.state is not None and game.state["revision"] == version, "the refused mails changed nothing"


def test_it_says_what_fighting_against_a_nation_offers_in_every_mail_of_scenario_78(
        ana: Persona, bruno: Persona, carla: Persona, smtp_server: SmtpServer) -> None:
    start_game("maracaibo", [ana, bruno, carla], options={"mode": "78"})
    for person in (ana, bruno, carla):
        said = _flat(text_of(person.latest()))
        assert ("Legacy tile L40 The Uprising: Fighting against a nation: Liberate City (value 6: 3 doubloons and "
                "1 VP per occupied city") in said
    game = Game.objects.get(rules="maracaibo")
    assert game.status == Game.Status.RUNNING
