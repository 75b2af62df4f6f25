"""Through the API, a command's text is read whole or refused, as in a mail: never acted on by a
prefix, and a refused line changes nothing (no draw, no move)."""

from __future__ import annotations

from typing import Any

import pytest

import engine
from pbem.games.models import Game, Move
from tests.factories import player_at, start_game, token_client


@pytest.fixture
def post(django_capture_on_commit_callbacks: Any) -> Any:
    def send(game: Game, seat: int, commands: list[dict[str, Any]]) -> dict[str, Any]:
        client = token_client(player_at(game, seat))
        with django_capture_on_commit_callbacks(execute=True):
            r = client.post(f"/api/v1/games/{game.pk}/moves/", {"commands": commands}, format="json")
        assert r.status_code == 202, r.json()
        body: dict[str, Any] = client.get(r["Location"]).json()
        return body

    return send


def test_it_refuses_a_caravelas_line_with_words_its_move_does_not_account_for(alice, bob, post):
    rules = engine.get("caravelas")
    # a deal whose first player can move to a named place (some deals offer only sea circles)
    for _ in range(30):
        game = start_game("caravelas", alice, [bob])
        seat = rules.pending(game.state)[0]
        opt = next((o for o in rules.options(game.state, seat)
                    if o.code[0].isdigit() and not o.code[1:].startswith("s") and " via " not in o.label), None)
        if opt is not None:
            break
    assert opt is not None, "30 deals without a move to a named place"
    value, place = opt.label.removeprefix("move ").split(" to ", 1)
    state_before = dict(game.state)
    for text in (f"{opt.label} end", f"{opt.label} not", f"pick {value} to {place}",
                 f"stop at {place} with the {value}", f"end and {opt.label}", f"{opt.label} and draw"):
        body = post(game, seat, [{"text": text}])
        assert body["status"] == "rejected", (text, body)
        assert body["reason"]["line"] == 1 and body["reason"]["applied"] == []
    game.refresh_from_db()
    assert game.version == 1 and game.state == state_before and not Move.objects.filter(game=game).exists()
    assert post(game, seat, [{"text": f"{opt.label} please"}])["status"] == "accepted"
