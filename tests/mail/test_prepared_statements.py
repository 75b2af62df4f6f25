"""Prepared statements on PostgreSQL (issue 28): a worker's connection prepares the statements every
judged mail repeats, and ``PBEM_DB_PREPARE=0`` (for a transaction-pooling PgBouncer) prepares none.

Why a child process: the switch is read from the environment when ``pbem.settings`` is imported,
and ``pg_prepared_statements`` shows only the asking session's own statements; so the child
imports the settings with the switch as a deployment sets it, plays a game by mail on its one
connection as a worker does (no broker: the judging task runs in it at the mail's commit), and
lists its own prepared statements.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
MOVES = 8  # more than psycopg's threshold (5): each judged mail runs the same statements once


def play(moves: int) -> None:
    """In the child: a game of Maretta, ``moves`` moves by mail judged on this process's one
    connection; prints that connection's prepared statements (JSON) and the moves judged."""
    import django

    django.setup()
    from pbem.games.models import Move

    game_id = _play(None, moves)
    print(json.dumps({"moves": Move.objects.filter(game_id=game_id).count(), "prepared": _prepared()}))


def _prepared() -> list[str]:
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        return [row[0] for row in cur.fetchall()]


def _play(game_id: int | None, moves: int) -> int:
    """``moves`` moves by mail of a game of Maretta (a new one when ``game_id`` is None), each
    mail stored as the ingress does and judged at its commit as a worker does (no broker)."""
    import random

    from pbem.games import services
    from pbem.games.models import Game
    from pbem.mail import services as mail_services
    from tests.mail.test_query_counts_mail import _move_mail

    if game_id is None:
        people = [services.do_create_player(f"p{i}@example.org", f"P{i}") for i in range(3)]
        game_id = services.do_create_game(people[0], "maretta", options={"side": "A"},
                                          invite=[p.email for p in people[1:]]).pk
        for p in people[1:]:
            services.do_join_game(game_id, p)
    rnd = random.Random(f"{game_id}-{moves}")
    for _ in range(moves):
        raw, sender, to = _move_mail(Game.objects.get(pk=game_id), rnd)
        mail_services.do_receive_mail(raw, sender, [to])
    return game_id


def _child(tmp_path: Path, **switches: str) -> dict[str, Any]:
    from django.db import connection

    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PBEM_", "CELERY_", "REDIS_"))}
    env.update(DATABASE_URL=f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
               DJANGO_SETTINGS_MODULE="pbem.settings", PYTHONPATH=str(ROOT), PBEM_VAR_DIR=str(tmp_path),
               **switches)
    out = subprocess.run([sys.executable, "-c", f"from tests.mail.test_prepared_statements import play; "
                          f"play({MOVES})"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-3000:]
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["moves"] >= MOVES, result  # every mail was judged into a move
    return result


def _touching(prepared: list[str], table: str, verb: str) -> list[str]:
    return [s for s in prepared if table in s and s.lstrip().upper().startswith(verb)]


def test_a_workers_connection_prepares_the_statements_every_judged_mail_repeats(tmp_path: Path) -> None:
    prepared = _child(tmp_path)["prepared"]
    # The judged mail's own statements, the same text once a move each: the inbound row locked,
    # the move written, the game saved. (Not the mails': their statements list the move's rows,
    # one to three, so a random deal may repeat no one of them five times in eight moves.)
    assert _touching(prepared, '"games_inboundmessage"', "SELECT"), prepared
    assert _touching(prepared, '"games_move"', "INSERT"), prepared
    assert _touching(prepared, '"games_game"', "UPDATE"), prepared
    # Bound on the server: the parameters are $n, not values quoted into the text.
    assert all("$1" in s for s in _touching(prepared, '"games_move"', "INSERT")), prepared


def test_the_switch_off_prepares_nothing(tmp_path: Path) -> None:
    assert _child(tmp_path, PBEM_DB_PREPARE="0")["prepared"] == []


def test_a_column_a_migration_adds_under_a_running_worker_breaks_none_of_its_prepared_statements() -> None:
    """A deployment migrates while the old workers run: their prepared statements must still
    answer (PostgreSQL refuses a prepared ``*`` whose table grew a column)."""
    import psycopg
    from django.db import connection

    from pbem.games.models import InboundMessage, Move, OutboundMessage

    if connection.settings_dict["OPTIONS"].get("prepare_threshold") is None:
        pytest.skip("PBEM_DB_PREPARE=0: nothing is prepared")
    game_id = _play(None, MOVES)
    assert any('"games_inboundmessage"' in s for s in _prepared())
    tables = [connection.ops.quote_name(m._meta.db_table) for m in (InboundMessage, OutboundMessage)]
    db = connection.settings_dict
    with psycopg.connect(dbname=db["NAME"], user=db["USER"], host=db["HOST"], port=db["PORT"],
                         autocommit=True) as other:
        for table in tables:
            other.execute(f"ALTER TABLE {table} ADD COLUMN prepared_probe integer")
        try:
            _play(game_id, 4)
        finally:
            for table in tables:
                other.execute(f"ALTER TABLE {table} DROP COLUMN prepared_probe")
    assert Move.objects.filter(game_id=game_id).count() >= MOVES + 4
    assert not OutboundMessage.objects.exclude(status=OutboundMessage.Status.SENT).exists()
