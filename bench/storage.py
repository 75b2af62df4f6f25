"""PostgreSQL bytes per move over a whole game, mail bodies included, before and after retention.

    python bench/storage.py [--game maretta --game caravelas] [--players 3] [--pg URL] [--db-name NAME]

Each game is played to its end through the service (seeded random choices; every player in
"every move" mail mode, so each move writes an outbox row per seat). Sends are not run: the
rows are marked sent as the worker would. Then the bytes the service keeps for that game are
summed from the live rows (``pg_column_size`` of each row, TOAST compression included) of
every table that holds it, once as written and once after the retention job
(``pbem.mail.retention``) ran at a time past the retention. Target: at most 2 KB per move
after retention. Figures and the per-table split are printed last.
"""

from __future__ import annotations

import argparse
import random
import sys
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import add_service_arguments, machine_note, scratch_database, setup_django  # noqa: E402

TABLES = {
    "games_game": "id = %(game)s",
    "games_seat": "game_id = %(game)s",
    "games_move": "game_id = %(game)s",
    "games_outboundmessage": "game_id = %(game)s",
    "games_inboundmessage": "game_id = %(game)s",
    "games_auditentry": "game_id = %(game)s",
}


def sizes(game_id: int) -> dict[str, int]:
    from django.db import connection

    out = {}
    with connection.cursor() as cur:
        for table, where in TABLES.items():
            cur.execute(f"SELECT coalesce(sum(pg_column_size(t.*)), 0) FROM {table} t WHERE {where}",
                        {"game": game_id})
            out[table] = int(cur.fetchone()[0])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="maretta, caravelas, ... (repeatable)")
    parser.add_argument("--players", type=int, default=3)
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


def run(args: argparse.Namespace) -> list[str]:
    from django.utils import timezone

    import engine
    from engine.testing import choose
    from pbem.games import dispatch, services
    from pbem.games.models import Game, OutboundMessage, Seat
    from pbem.mail import retention

    dispatch.enqueue = lambda name, *a: None  # sends are not run; rows are marked sent below
    lines = [f"machine: {machine_note()}"]
    results = []
    for n, name in enumerate(args.game or ["maretta", "caravelas"]):
        rules = engine.get(name)
        players = [services.do_create_player(f"s{n}-{i}@bench.example", f"P{i}") for i in range(args.players)]
        for p in players:  # as the docstring says: the most mail (the default mode mails only turns)
            services.do_update_preferences(p, mail_mode="every")
        game = services.do_create_game(players[0], name, invite=[p.email for p in players[1:]])
        for p in players[1:]:
            services.do_join_game(game.pk, p)
        rnd = random.Random(f"{args.seed}-{name}")
        moves = 0
        while moves < args.max_moves:
            game = Game.objects.get(pk=game.pk)
            if game.status != Game.Status.RUNNING or game.state is None:
                break
            seat = rules.pending(game.state)[0]
            opt = choose(rules, game.state, seat, rules.options(game.state, seat), rnd)
            player = Seat.objects.select_related("player").get(game=game, index=seat).player
            services.do_submit_moves(game.pk, player, [services.Command(code=opt.code)], source="mail")
            moves += 1
        OutboundMessage.objects.filter(game=game).update(status="sent", sent_at=timezone.now())
        before = sizes(game.pk)
        retention.do_prune_mail_bodies(timezone.now() + retention.keep_for() + timedelta(hours=1))
        after = sizes(game.pk)
        mails = OutboundMessage.objects.filter(game=game).count()
        results.append((name, moves, Game.objects.get(pk=game.pk).status, mails, before, after))

    for name, moves, status, mails, before, after in results:
        per = max(moves, 1)
        split = ", ".join(f"{t.removeprefix('games_')} {after[t] / per:.0f}" for t in TABLES if after[t])
        lines.append(f"{name}: {moves} moves ({status}), {mails} mails; bytes per move as written "
                     f"{sum(before.values()) / per:,.0f} (outbox {before['games_outboundmessage'] / per:,.0f}); "
                     f"after retention {sum(after.values()) / per:,.0f} [{split}]")
    for name, moves, _status, _mails, _before, after in results:
        per_move = sum(after.values()) / max(moves, 1)
        lines.append(f"storage {name}: {per_move / 1024:.2f} KB per move after retention  target <= 2 KB  "
                     f"{'ok' if per_move <= 2048 else 'over'}")
    return lines


if __name__ == "__main__":
    sys.exit(main())
