"""Run by test_sqlite_writers.py in a fresh process on a SQLite file (the embedded default).

Three players commit their face-down Maretta cards at the same moment, from three
threads, each through the service. Prints one JSON line with what happened.
"""

from __future__ import annotations

import json
import os
import sys
import threading

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pbem.settings")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402

from pbem.games import services  # noqa: E402
from pbem.games.models import Move  # noqa: E402


def main() -> None:
    call_command("migrate", verbosity=0)
    players = [services.do_create_player(f"p{i}@example.org", f"P{i}") for i in range(3)]
    game = services.do_create_game(players[0], "maretta", invite=[p.email for p in players[1:]])
    for p in players[1:]:
        services.do_join_game(game.pk, p)
    game.refresh_from_db()
    assert game.state is not None
    start_version = game.version
    import engine

    rules = engine.get("maretta")
    codes = {s: rules.options(game.state, s)[0].code for s in rules.pending(game.state)}
    seats = {s.index: s.player for s in game.seats.all()}
    barrier = threading.Barrier(len(codes))
    errors: list[str] = []

    def play(seat: int) -> None:
        try:
            barrier.wait()
            services.do_submit_moves(game.pk, seats[seat], [services.Command(code=codes[seat])], source="web")
        except Exception as exc:  # noqa: BLE001 - reported to the test
            errors.append(f"{type(exc).__name__}: {exc}")
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(s,)) for s in codes]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    game.refresh_from_db()
    print(json.dumps({
        "vendor": connection.vendor,
        "errors": errors,
        "writers": len(codes),
        "versions": game.version - start_version,
        "moves": Move.objects.filter(game=game).count(),
        "still_pending": rules.pending(game.state),
    }))


if __name__ == "__main__":
    sys.exit(main())
