"""A move's SQL does not grow with the game's log (issue 12): rows read and statements are counted,
never timed."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from pbem.games import services
from pbem.games.models import Game, Move
from pbem.games.services import Command
from tests.factories import player_at, start_game

pytestmark = pytest.mark.postgres

ROWS_READ = """SELECT coalesce(sum(seq_tup_read), 0) + coalesce(sum(idx_tup_fetch), 0)
               FROM pg_stat_xact_user_tables WHERE relname = 'games_move'"""


def _pad_log(game: Game, rows: int) -> None:
    """Old moves in front of the game's log, as a long game has them (numbers and versions
    before every real move, so the game's own moves come after them)."""
    Move.objects.bulk_create(
        Move(game=game, seat=0, move={"code": "old"}, source="mail", version=1, number=1 + i,
             events=[{"kind": "old", "text": "an old move", "data": {}, "to": None, "reveals": False}])
        for i in range(rows))
    Game.objects.filter(pk=game.pk).update(moves_recorded=rows)  # as the moves' own recording keeps it


def _move_rows_read(game: Game) -> tuple[int, int]:
    """(rows of the move log read, SQL statements) by one move of the first pending seat."""
    game.refresh_from_db()
    import engine

    rules = engine.get(game.rules)
    assert game.state is not None
    seat = rules.pending(game.state)[0]
    player = player_at(game, seat)
    code = rules.options(game.state, seat)[0].code
    with transaction.atomic(), connection.cursor() as cur:
        # Why no sequential scans: on a big table the planner takes the indexes; the test's
        # tiny table would be scanned whole whatever the query, which would hide nothing.
        cur.execute("SET LOCAL enable_seqscan = off")
        cur.execute(ROWS_READ)
        before = int(cur.fetchone()[0])
        queries_before = len(connection.queries)
        services.do_submit_moves(game.pk, player, [Command(code=code)], source="mail")
        statements = len(connection.queries) - queries_before
        cur.execute(ROWS_READ)
        return int(cur.fetchone()[0]) - before, statements


def test_it_reads_as_many_log_rows_at_a_thousand_moves_as_at_ten(fake_game, alice, bob, carol, settings):
    settings.DEBUG = True  # connection.queries counts the statements
    short = start_game(fake_game, alice, [bob], options={"rounds": 5})
    long = start_game(fake_game, carol, [bob], options={"rounds": 5})
    _pad_log(long, 1000)
    with connection.cursor() as cur:
        cur.execute("ANALYZE games_move")
    short_rows, short_statements = _move_rows_read(short)
    long_rows, long_statements = _move_rows_read(long)
    assert short_statements == long_statements
    # A whole-log read (a COUNT(*), an unindexed "since" query) would add a thousand rows.
    assert long_rows <= short_rows + 2, (short_rows, long_rows)


def test_it_tells_a_seat_back_from_a_long_absence_only_the_latest_versions(fake_game, alice, bob):
    from pbem.mail import outbox

    game = start_game(fake_game, alice, [bob], options={"rounds": 5})
    game.version = outbox.MAX_SINCE_VERSIONS + 50
    game.save(update_fields=["version"])
    Move.objects.bulk_create(
        Move(game=game, seat=0, move={"code": "x"}, source="mail", version=v, number=v,
             events=[{"kind": "k", "text": f"happened at {v}", "data": {}, "to": None, "reveals": False}])
        for v in range(1, game.version + 1))
    Game.objects.filter(pk=game.pk).update(moves_recorded=game.version)
    seat = game.seats.get(player=bob)
    seat.last_mailed_version = 0
    events = outbox._events_since(game, seat)
    texts = [e.text for e in events]
    assert texts[0].startswith("Older moves are not repeated here")
    assert texts[1] == "happened at 51" and texts[-1] == f"happened at {game.version}"
    assert len(texts) == outbox.MAX_SINCE_VERSIONS + 1
