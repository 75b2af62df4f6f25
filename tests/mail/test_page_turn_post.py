"""A whole turn sent from the personal page (issue #21) through Django's test client: one batch with
a mail's rules (a refused step refuses the steps since the last reveal, and says which and why), a stale
plan refused whole, htmx's requests answered with the page's live part and, out of band, its history."""

from __future__ import annotations

import re

import pytest
from django.test import Client

import engine
from pbem.games.models import Game, Move
from tests.factories import play_first_options
from tests.mail.conftest import Persona, start_game, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def _ana_sails(game: Game) -> list[str]:
    rules = engine.get("maracaibo")
    for _ in range(80):
        game.refresh_from_db()
        assert game.state is not None
        if 0 in rules.pending(game.state):
            sails = [o.code for o in rules.options(game.state, 0)
                     if rules.option_details(game.state, 0, o).get("kind") == "sail"]
            if sails:
                return sails
        play_first_options(game.pk, until_finished=False, limit=1)
    raise AssertionError("Ana never got to sail")


def test_it_sends_a_planned_turn_as_one_batch_and_refuses_a_bad_step_with_its_reason(
        ana: Persona, bruno: Persona) -> None:
    game = start_game("maracaibo", [ana, bruno])
    sails = _ana_sails(game)
    url = re.search(r"http://pbem\.test(/p/[^/\s]+/)", text_of(ana.latest()))
    assert url
    page = url.group(1)
    client = Client()
    game.refresh_from_db()
    moves = Move.objects.filter(game=game).count()
    refused = client.post(page + "turn/", {"plan": [sails[0], "zz-not-an-option"], "version": game.version})
    body = refused.content.decode()
    assert refused.status_code == 409 and "Step 2 of your plan was refused" in body
    assert "Nothing of the plan was taken." in body and "zz-not-an-option" in body
    assert Move.objects.filter(game=game).count() == moves, "the sail before it was rolled back with it"
    stale = client.post(page + "turn/", {"plan": [sails[0]], "version": game.version - 1})
    assert stale.status_code == 409 and "moved on while you planned" in stale.content.decode()
    assert client.post(page + "turn/", {"version": game.version}).status_code == 409, "an empty plan"
    # htmx asks for the planning page: the live part and the history, not the whole page
    planning = client.get(page + f"?plan={sails[0]}", HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in planning
    assert 'id="live"' in planning and 'id="history" aria-labelledby="history-title" hx-swap-oob="true"' in planning
    assert f'data-code="{sails[0]}"' in planning.split('id="plan-steps"', 1)[1].split("</ol>", 1)[0]
    sent = client.post(page + "turn/", {"plan": [sails[0]], "version": game.version}, HTTP_HX_REQUEST="true")
    assert sent.status_code == 200 and "Your turn was sent and taken." in sent.content.decode()
    row = Move.objects.filter(game=game).order_by("-number").first()
    assert row is not None and row.seat == 0 and row.source == "web"
    state = Game.objects.get(pk=game.pk).state
    assert state is not None and state["seats"][0]["at"] == sails[0][1:]
