"""PostgreSQL bytes per move over whole games played by mail: as a disk holds them (heap, TOAST and
indexes), and as column bytes, before and after retention.

    python bench/storage.py [--game maretta --game caravelas --game maracaibo] [--games 10] [--players 3]
                            [--mail-mode my_turn|every] [--pg URL] [--db-name NAME]

``--games`` games of each kind are played to their end through the mail path, one mail a move: the mover's mail is
received (``do_receive_mail``: an inbound row with its raw bytes) and judged
(``do_process_inbound``), which writes the move, the state and every mail it answers with (the
next seat's turn mail, replies) as the service does; players are in ``--mail-mode`` (default:
the players' default). Sends are not run: the outbox rows are marked sent as the worker would.
Then the retention job (``pbem.mail.retention``) runs at a time past the retention.

Two measures, each per move of the game:

* on disk: ``pg_total_relation_size`` (heap, TOAST, free space map, visibility map and every
  index) of every table, after ``VACUUM FULL`` (what the space converges to as freed rows are
  reused), its growth over the games (so that an index's first pages count once, not per game);
  split into tables and their indexes, and by index. VACUUM FULL is repeated while it left dead
  row versions (pgstattuple, when the server has it): a transaction elsewhere can hold them back;
* first pages: a small table's or index's first 8 KB page counts whole, so the tables of a game's
  own rows (game, seats, players, their audit) weigh far more here than at scale (where a game's
  row in an index is about 20 bytes, a tenth of a byte a move): the figure is an upper bound;
* the second half: the disk's growth over the second half of the games (the retention run and
  ``VACUUM FULL`` after the first half too) by its moves, so that every first page counts in the
  first half: nearer what a move costs at scale, give or take a page of each table and index;
* columns: ``pg_column_size`` of the game's live rows, TOAST compression included (what the
  bench counted before: no indexes, no page overhead).

Goal: at most 2 KB a move on disk after retention. Figures are printed last.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import add_service_arguments, machine_note, scratch_database, setup_django  # noqa: E402

#: The tables that hold a game's rows, and how to find them (the column measure).
TABLES = {
    "games_game": "id = %(game)s",
    "games_seat": "game_id = %(game)s",
    "games_move": "game_id = %(game)s",
    "games_outboundmessage": "game_id = %(game)s",
    "games_inboundmessage": "game_id = %(game)s",
    "games_auditentry": "game_id = %(game)s",
    "games_moverequest": "game_id = %(game)s",
    "games_chatmessage": "game_id = %(game)s",
}
GOAL = 2048


def columns(game_id: int) -> dict[str, int]:
    from django.db import connection

    out = {}
    with connection.cursor() as cur:
        for table, where in TABLES.items():
            cur.execute(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} t WHERE {where}", {"game": game_id})
            out[table] = int(cur.fetchone()[0])
    return out


def disk() -> dict[str, tuple[int, int]]:
    """Every table of the database after VACUUM FULL: (heap + TOAST + maps, indexes) in bytes."""
    from django.db import connection

    with connection.cursor() as cur:
        for attempt in range(DEAD_TRIES):
            cur.execute("VACUUM FULL")
            if not dead_rows(cur):
                break
            # Why again: VACUUM FULL keeps the row versions some transaction might still see (one
            # starting up elsewhere on the server holds the horizon back for a moment); counted,
            # they are the retention's pruned bodies all over again (a 7.00 KB a move run).
            time.sleep(2.0 * (attempt + 1))
        else:
            raise SystemExit(f"dead row versions kept after {DEAD_TRIES} VACUUM FULL: {dead_rows(cur)}")
        cur.execute("SELECT relname, pg_table_size(relid), pg_indexes_size(relid) FROM pg_stat_user_tables")
        return {name: (int(heap), int(index)) for name, heap, index in cur.fetchall()}


DEAD_TRIES = 6


def dead_rows(cur: Any) -> dict[str, int]:
    """Dead row versions left in each table and its TOAST (pgstattuple; {} where it is not installed)."""
    try:
        cur.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")
    except Exception:  # noqa: BLE001 - not a superuser, or no contrib: the check is skipped
        return {}
    cur.execute(
        "SELECT c.relname, (pgstattuple(c.oid)).dead_tuple_count"
        " + coalesce((SELECT (pgstattuple(c.reltoastrelid)).dead_tuple_count WHERE c.reltoastrelid <> 0), 0)"
        " FROM pg_class c JOIN pg_stat_user_tables t ON t.relid = c.oid"
    )
    return {name: int(n) for name, n in cur.fetchall() if n}


def index_sizes() -> dict[str, int]:
    """Every index of the database (as of the last :func:`disk`): its bytes, by name."""
    from django.db import connection

    with connection.cursor() as cur:
        cur.execute("SELECT indexrelname, pg_relation_size(indexrelid) FROM pg_stat_user_indexes")
        return {name: int(size) for name, size in cur.fetchall()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="maretta, caravelas, maracaibo (repeatable)")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=10, help="whole games of each --game (pages amortised)")
    parser.add_argument("--mail-mode", default="", help="every player's mail mode (default: the players' default)")
    parser.add_argument("--max-moves", type=int, default=3000, help="a game stops here if it has not ended")
    parser.add_argument("--seed", default="storage-bench")
    add_service_arguments(parser)
    args = parser.parse_args(argv)
    with scratch_database(args.pg, args.db_name, args.keep_db) as db_name:
        setup_django(f"{args.pg}/{db_name}", {"CELERY_BROKER_URL": "", "REDIS_URL": ""})
        lines = run(args)
    for line in lines:
        print(line)
    return 0


def prune(games: list[int], now: Any) -> None:
    """The games' mails sent (as the worker would mark them), then the retention job run past the retention."""
    from pbem.games.models import OutboundMessage
    from pbem.mail import retention

    OutboundMessage.objects.filter(game__in=games, pruned_at__isnull=True).update(status="sent", sent_at=now)
    retention.do_prune_mail_bodies(now + retention.keep_for() + timedelta(hours=1))


def run(args: argparse.Namespace) -> list[str]:
    from django.conf import settings
    from django.utils import timezone

    import engine
    from engine.testing import choose
    from pbem.games import dispatch, services
    from pbem.games.models import Game, InboundMessage, OutboundMessage, Seat
    from pbem.mail import services as mail_services
    from pbem.mail.outbox import reply_address

    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"
    dispatch.enqueue = lambda name, *a: None  # tasks are not run: the mail is judged right here
    lines = [f"machine: {machine_note()}"]
    results = []
    for name in args.game or ["maretta", "caravelas", "maracaibo"]:
        rules = engine.get(name)
        empty = disk()
        empty_indexes = index_sizes()
        games: list[int] = []
        moves = 0
        half: tuple[int, int] | None = None  # (moves, bytes on disk) after the first half of the games
        written: dict[str, int] = {}
        for g in range(args.games):
            if g == args.games // 2 and g > 0:
                OutboundMessage.objects.filter(game__in=games).update(status="sent", sent_at=timezone.now())
                written = {t: sum(columns(k)[t] for k in games) for t in TABLES}  # as written, before pruning
                prune(games, timezone.now())
                half = (moves, sum(h + i for h, i in disk().values()))
            players = [services.do_create_player(f"{name}{g}-{i}@bench.example", f"P{i}") for i in range(args.players)]
            if args.mail_mode:
                for p in players:
                    services.do_update_preferences(p, mail_mode=args.mail_mode)
            game = services.do_create_game(players[0], name, invite=[p.email for p in players[1:]])
            for p in players[1:]:
                services.do_join_game(game.pk, p)
            games.append(game.pk)
            rnd = random.Random(f"{args.seed}-{name}-{g}")
            played = refused = 0
            while played < args.max_moves:
                game = Game.objects.get(pk=game.pk)
                if game.status != Game.Status.RUNNING or game.state is None:
                    break
                index = rules.pending(game.state)[0]
                opt = choose(rules, game.state, index, rules.options(game.state, index), rnd)
                seat = Seat.objects.select_related("player").get(game=game, index=index)
                assert seat.player is not None
                msg = EmailMessage()
                msg["From"], msg["To"] = seat.player.email, reply_address(seat)
                msg["Subject"] = f"Re: game {game.pk}"
                msg["Message-ID"] = f"<storage-{game.pk}-{played}-{refused}@bench.example>"
                msg.set_content(opt.code)
                row = mail_services.do_receive_mail(msg.as_bytes(), seat.player.email, [reply_address(seat)])
                if mail_services.do_process_inbound(row.pk) == "applied":
                    played += 1
                else:
                    refused += 1
                    if refused > 20:
                        lines.append(f"error: {name}: mails refused: {InboundMessage.objects.get(pk=row.pk).result}")
                        break
            moves += played
        OutboundMessage.objects.filter(game__in=games, pruned_at__isnull=True).update(
            status="sent", sent_at=timezone.now()
        )
        before = {
            t: written.get(t, 0) + sum(columns(g)[t] for g in games[len(games) // 2 if half else 0 :]) for t in TABLES
        }
        prune(games, timezone.now())
        after = {t: sum(columns(g)[t] for g in games) for t in TABLES}
        end = disk()
        grown = {t: (h - empty.get(t, (0, 0))[0], i - empty.get(t, (0, 0))[1]) for t, (h, i) in end.items()}
        if half is not None and moves > half[0]:
            marginal = (sum(h + i for h, i in end.values()) - half[1]) / (moves - half[0])
            lines.append(
                f"{name}: the second half of the games, {moves - half[0]} moves, grew the disk "
                f"{marginal:,.0f} bytes a move (every first page counted in the first half: nearer a move's cost at "
                "scale, give or take a page of each table and index)"
            )
        indexes = {n: b - empty_indexes.get(n, 0) for n, b in index_sizes().items()}
        finished = Game.objects.filter(pk__in=games, status=Game.Status.FINISHED).count()
        results.append(
            (
                name,
                moves,
                f"{finished} of {len(games)} games finished",
                OutboundMessage.objects.filter(game__in=games).count(),
                InboundMessage.objects.filter(game__in=games).count(),
                before,
                after,
                grown,
                indexes,
            )
        )

    for name, moves, status, mails, inbound, before, after, grown, indexes in results:
        per = max(moves, 1)
        heap = sum(h for h, _i in grown.values())
        index = sum(i for _h, i in grown.values())
        split = ", ".join(
            f"{t.removeprefix('games_')} {(h + i) / per:.0f} ({i / per:.0f} indexes)"
            for t, (h, i) in sorted(grown.items(), key=lambda kv: -sum(kv[1]))
            if h + i > 0
        )
        by_index = ", ".join(f"{n} {b / per:.0f}" for n, b in sorted(indexes.items(), key=lambda kv: -kv[1]) if b > 0)
        by_column = ", ".join(
            f"{t.removeprefix('games_')} {b / per:.0f}"
            for t, b in sorted(after.items(), key=lambda kv: -kv[1])
            if b > 0
        )
        lines.append(
            f"{name}: {moves} moves ({status}), {inbound} mails in, {mails} mails out; on disk after "
            f"retention {(heap + index) / per:,.0f} bytes a move: tables {heap / per:,.0f} + indexes "
            f"{index / per:,.0f} [{split}]; columns {sum(before.values()) / per:,.0f} as written, "
            f"{sum(after.values()) / per:,.0f} after retention [{by_column}]"
        )
        lines.append(f"{name}: indexes, bytes a move: {by_index}")
    for name, moves, _status, _mails, _inbound, _before, _after, grown, _indexes in results:
        per_move = sum(h + i for h, i in grown.values()) / max(moves, 1)
        lines.append(
            f"storage {name}: {per_move / 1024:.2f} KB a move on disk after retention  goal <= 2 KB: "
            f"{'met' if per_move <= GOAL else 'not met'}"
        )
    return lines


if __name__ == "__main__":
    sys.exit(main())
