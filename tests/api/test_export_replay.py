"""A finished game of every game, played to its end through the service with random legal moves,
fetched through the export endpoint, replays with ``python -m engine replay`` (outcome and its
score breakdown included)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.games.models import Game, Move
from tests.factories import make_player, play_first_options, start_game, token_client

ROOT = Path(__file__).resolve().parents[2]

GAMES = {
    "maretta-A": ("maretta", 3, {"side": "A"}),
    "maretta-B": ("maretta", 3, {"side": "B"}),
    "caravelas": ("caravelas", 2, {"target": 10}),
    "maracaibo": ("maracaibo", 2, {"rounds": 1}),
    "maracaibo-solo": ("maracaibo", 1, {"rounds": 1}),
}


@pytest.mark.django_db
@pytest.mark.parametrize("case", sorted(GAMES))
def test_it_exports_a_real_finished_game_that_replays_with_the_engine(case, tmp_path):
    rules, count, options = GAMES[case]
    players = [make_player(f"p{i}@example.org", f"Player {'ABCD'[i]}") for i in range(count)]
    game = start_game(rules, players[0], players[1:], options=options)
    play_first_options(game.pk, rnd=random.Random(25))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED, f"{case} did not finish"

    r = token_client().get(f"/api/v1/games/{game.pk}/export/")
    assert r.status_code == 200, r.json()
    export = r.json()
    assert export["outcome"] == game.outcome and len(export["moves"]) == Move.objects.filter(game=game).count()
    assert game.outcome.get("breakdown"), game.outcome  # what the replay used to fail on
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    done = subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(export['moves'])} moves replayed; finished" in done.stdout

    export["outcome"]["breakdown"] = {"0": {"forged": 99}}  # a changed record is still caught
    path.write_text(json.dumps(export))
    assert subprocess.run([sys.executable, "-m", "engine", "replay", str(path)], capture_output=True,
                          timeout=120, cwd=ROOT).returncode == 1
