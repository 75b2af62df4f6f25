"""Backups as docs/operations.md tells an operator to take them: pg_dump, pg_restore into a new
database, and every game replayed from its seed and move log to the state the restore holds."""

from __future__ import annotations

import glob
import os
import random
import shutil
import subprocess
from pathlib import Path

import psycopg
import pytest
from django.db import connection

import engine
from pbem.games import services
from pbem.games.models import Game
from tests.factories import make_player, play_first_options, start_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def tool(name: str) -> str:
    """The client of the server's major version when several are installed, else the one on PATH."""
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    path = found[-1] if found else shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed")
    return path


def conninfo(dbname: str) -> str:
    s = connection.settings_dict
    return f"host={s['HOST'] or '127.0.0.1'} port={s['PORT'] or 5432} user={s['USER'] or 'postgres'} dbname={dbname}"


@pytest.mark.slow
def test_it_restores_a_dump_into_a_new_database_where_every_game_replays(tmp_path: Path) -> None:
    players = [make_player(f"b{i}@example.org", f"B{i}") for i in range(4)]
    maretta = start_game("maretta", players[0], players[1:3], options={"side": "A"})
    caravelas = start_game("caravelas", players[1], [players[2], players[3]])
    play_first_options(maretta.pk, until_finished=False, limit=1)
    for _ in range(8):
        play_first_options(maretta.pk, until_finished=False, limit=1, rnd=random.Random(7))
        play_first_options(caravelas.pk, until_finished=False, limit=1, rnd=random.Random(3))
    before = {g.pk: (g.version, g.state) for g in Game.objects.all()}
    assert all(v > 5 for v, _s in before.values())

    s = connection.settings_dict
    dump = tmp_path / "pbem.dump"
    env = {**os.environ, "PGPASSWORD": s.get("PASSWORD") or ""}
    args = ["-h", s["HOST"] or "127.0.0.1", "-p", str(s["PORT"] or 5432), "-U", s["USER"] or "postgres"]
    subprocess.run([tool("pg_dump"), *args, "-Fc", "-f", str(dump), s["NAME"]], check=True, env=env)
    restored = f"{s['NAME']}_restored"[:63]
    with psycopg.connect(conninfo("postgres"), autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{restored}"')
        admin.execute(f'CREATE DATABASE "{restored}"')
    try:
        subprocess.run([tool("pg_restore"), *args, "--no-owner", "-d", restored, str(dump)], check=True, env=env)
        with psycopg.connect(conninfo(restored)) as conn:
            games = conn.execute("SELECT id, rules, options, seed, state, version FROM games_game").fetchall()
            assert {g[0] for g in games} == set(before)
            for game_id, rules_name, options, seed, state, version in games:
                assert (version, state) == before[game_id]
                moves = conn.execute("SELECT seat, move FROM games_move WHERE game_id = %s AND undone_at IS NULL "
                                     "ORDER BY number", (game_id,)).fetchall()
                rules = engine.get(rules_name)
                replayed = rules.setup(list(state["players"]), options, seed)
                for seat, move in moves:
                    rules.apply(replayed, seat, move)
                assert services._json_copy(replayed) == state, f"game {game_id} does not replay"
    finally:
        with psycopg.connect(conninfo("postgres"), autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{restored}"')
