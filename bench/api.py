"""The API under gunicorn on PostgreSQL, against a DRF endpoint reading 10 KB of JSONB, same run;
every list of games at a few games and again at ``--bulk-games`` (100,000 by default).

    python bench/api.py [--games 100] [--small-bulk 100] [--bulk-games 100000] [--rounds 3] [--seconds 3] [--slice 0.5]
                        [--clients 4] [--gunicorn-workers 2] [--pg URL] [--db-name NAME] [--redis URL] [--cache-db N]

It fills its own scratch database (see ``bench/common.py``: created under a name of this
run, refused if it exists, dropped at the end) with ``--games`` running three-player
Maretta games a few moves in, each player with an API token, starts gunicorn
(``pbem.wsgi``, sync workers, pbem's settings with one extra URL: ``bench/api_settings.py``)
on a free port with the shared cache in a claimed Redis database, and then, in each round,
drives each endpoint for ``--seconds`` with ``--clients`` concurrent clients, the endpoints
taking turns of ``--slice`` seconds (every request with a player's token, so authentication is
paid alike):

* baseline: ``GET /bench/blob/``, a DRF ``APIView`` that reads one 10 KB JSONB value;
* view: ``GET /api/v1/games/<id>/view/``, the player's own view of one of their games;
* lobby: ``GET /api/v1/games/``, the first page (50 games);
* deep: the lobby's page that continues from the middle of the list (its ``cursor``);
* mine: ``GET /api/v1/games/?mine=1``; me: ``GET /api/v1/me/games/``; open: ``?status=open&limit=10``;
* web: ``GET /games/``, the web lobby (four lists of 50: open, running, finished; as a visitor).

Games in bulk are added in one statement (copies of a game of three other players, with their
seats: a tenth running, a tenth open, the rest finished a minute apart): ``--small-bulk`` before the first pass
(so that every list fills its page), up to ``--bulk-games`` in all before the second.

Ratios are requests/s of an endpoint over the baseline's in the same round; the median of the
rounds is the figure (goals: view >= 0.5, lobby >= 0.25). Flat: each list's ratio with the bulk
over its ratio without (goal: at least 0.9, every list flat from a hundred games to a million).
Figures are printed last.
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.common import (  # noqa: E402
    add_service_arguments,
    free_port,
    machine_note,
    redis_databases,
    scratch_database,
    setup_django,
)

GOALS = {"view": 0.5, "lobby": 0.25}
LISTS = ("lobby", "deep", "mine", "me", "open", "web")
FLAT_GOAL = 0.9


def fill(n_games: int, moves: int) -> tuple[list[tuple[str, int]], int]:
    """Running games and a token per player: [(token, one of their game ids)], the blob's size."""
    import json as _json

    from django.contrib.auth import get_user_model
    from django.db import connection, transaction

    import engine
    from pbem.games import services
    from pbem.games.models import Game
    from pbem.games.services import Command
    from pbem.tokens import services as tokens

    rules = engine.get("maretta")
    rng = random.Random(1)
    users = get_user_model()
    clients: list[tuple[str, int]] = []
    for g in range(n_games):
        players = [services.do_create_player(f"a{g}-{i}@bench.example", f"A{g}{i}") for i in range(3)]
        game = services.do_create_game(players[0], "maretta", options={"side": "A"},
                                       invite=[p.email for p in players[1:]])
        for p in players[1:]:
            services.do_join_game(game.pk, p)
        for _ in range(moves):
            game = Game.objects.get(pk=game.pk)
            if game.state is None or game.status != Game.Status.RUNNING:
                break
            seat = rules.pending(game.state)[0]
            code = rng.choice(rules.options(game.state, seat)).code
            services.do_submit_moves(game.pk, players[seat], [Command(code=code)], source="web")
        for p in players:
            p.refresh_from_db()
            user = p.user if p.user_id else users.objects.create_user(username=p.email, email=p.email)
            if not p.user_id:
                p.user = user
                p.save(update_fields=["user"])
            with transaction.atomic():
                clients.append((tokens.do_issue_account_token(user), game.pk))
    blob = {f"k{i:04d}": {"n": i, "text": "x" * 60, "flags": [i % 2 == 0, i % 3 == 0]} for i in range(100)}
    payload = _json.dumps(blob)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE bench_blob (id int PRIMARY KEY, data jsonb NOT NULL)")
        cursor.execute("INSERT INTO bench_blob VALUES (1, %s::jsonb)", [payload])
    return clients, len(payload)


_TEMPLATE: list[int] = []  # the game the bulk copies, made once


def bulk(n: int) -> float:
    """``n`` more games in one statement: copies of a game of three players of their own (with
    fresh seat tokens), most finished, a tenth running, a tenth open; the seconds it took."""
    from django.db import connection

    from pbem.games import services
    from pbem.games.models import Game, Seat

    if not _TEMPLATE:
        players = [services.do_create_player(f"bulk-{i}@bench.example", f"Bulk{i}") for i in range(3)]
        template = services.do_create_game(players[0], "maretta", options={"side": "A"},
                                           invite=[p.email for p in players[1:]])
        for p in players[1:]:
            services.do_join_game(template.pk, p)
        _TEMPLATE.append(template.pk)
    template_id = _TEMPLATE[0]
    status = "CASE WHEN i %% 10 = 0 THEN 'running' WHEN i %% 10 = 1 THEN 'open' ELSE 'finished' END"
    game_cols = [str(f.column) for f in Game._meta.concrete_fields if f.column != "id"]
    finished = "CASE WHEN i %% 10 > 1 THEN now() - i * interval '1 minute' END"
    game_exprs = [status if c == "status" else finished if c == "finished_at" else f"g.{c}" for c in game_cols]
    seat_cols = [str(f.column) for f in Seat._meta.concrete_fields
                 if f.column not in ("id", "game_id", "token", "page_key")]
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH new AS (INSERT INTO {Game._meta.db_table} ({', '.join(game_cols)}) "
            f"SELECT {', '.join(game_exprs)} FROM {Game._meta.db_table} g, generate_series(1, %s) i "
            f"WHERE g.id = %s RETURNING id) "
            f"INSERT INTO {Seat._meta.db_table} ({', '.join(seat_cols)}, game_id, token, page_key) "
            f"SELECT {', '.join('s.' + c for c in seat_cols)}, new.id, md5(s.id || '-' || new.id || random()::text), "
            f"md5(new.id || '-' || s.id || random()::text) FROM new CROSS JOIN {Seat._meta.db_table} s "
            f"WHERE s.game_id = %s", [n, template_id, template_id])
        cursor.execute(f"ANALYZE {Game._meta.db_table}")
        cursor.execute(f"ANALYZE {Seat._meta.db_table}")
    return time.perf_counter() - started


def middle_cursor() -> str:
    """The lobby's cursor from the middle of the list (a page as deep as any)."""
    from pbem.games.models import Game

    ids = Game.objects.order_by("-id").values_list("id", flat=True)
    n = Game.objects.count()  # the bench's own figure, not the API's
    return f"b{ids[n // 2]}"


def get(port: int, path: str, token: str) -> tuple[int, int]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.request("GET", path, headers={"Authorization": f"Token {token}", "Accept": "application/json"})
        response = conn.getresponse()
        return response.status, len(response.read())
    finally:
        conn.close()


def drive(port: int, paths: list[tuple[str, str]], clients: int, seconds: float) -> tuple[float, int, int, float]:
    """Requests over ``paths`` [(path, token)] for ``seconds``; (requests, bytes of one, errors, seconds taken)."""
    stop = time.monotonic() + seconds
    counts = [0] * clients
    errors = [0]
    size = [0]

    def client(i: int) -> None:
        r = random.Random(i)
        while time.monotonic() < stop:
            path, token = r.choice(paths)
            code, n = get(port, path, token)
            if code != 200:
                errors[0] += 1
            size[0] = n
            counts[i] += 1

    threads = [threading.Thread(target=client, args=(i,)) for i in range(clients)]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts), size[0], errors[0], time.monotonic() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100, help="running games (the lobby shows 50)")
    parser.add_argument("--bulk-games", type=int, default=100_000,
                        help="games in bulk before the second pass (0: none): every list flat?")
    parser.add_argument("--small-bulk", type=int, default=100,
                        help="games in bulk before the first pass (full pages of every list)")
    parser.add_argument("--moves", type=int, default=4, help="moves played into each game")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0, help="per endpoint and round")
    parser.add_argument("--slice", type=float, default=0.5,
                        help="endpoints take turns of this many seconds within a round")
    parser.add_argument("--clients", type=int, default=4, help="concurrent HTTP clients")
    parser.add_argument("--gunicorn-workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=0, help="gunicorn's port (0: a free one)")
    add_service_arguments(parser)
    args = parser.parse_args(argv)
    with (redis_databases(args.redis, args.cache_db, None, args.flush_redis) as (cache_db, _spare),
          scratch_database(args.pg, args.db_name, args.keep_db) as db_name):
        database_url = f"{args.pg}/{db_name}"
        cache_url = f"{args.redis.rstrip('/')}/{cache_db}"
        setup_django(database_url, {"CELERY_BROKER_URL": "", "REDIS_URL": cache_url})
        lines = run(args, database_url, cache_url)
    for line in lines:
        print(line)
    return 1 if any(line.startswith("error") for line in lines) else 0


def run(args: argparse.Namespace, database_url: str, cache_url: str) -> list[str]:
    from django.conf import settings

    settings.EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"  # filling sends nothing
    clients, blob_size = fill(args.games, args.moves)
    port = args.port or free_port()
    # Why a file: a pipe nobody reads fills up and then blocks gunicorn's workers on their logging.
    log = open(os.environ.get("BENCH_API_LOG", os.devnull), "a")  # noqa: SIM115 - lives with gunicorn
    env = {**os.environ, "DATABASE_URL": database_url, "REDIS_URL": cache_url, "CELERY_BROKER_URL": "",
           "DJANGO_SETTINGS_MODULE": "bench.api_settings", "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT)}
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "pbem.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(args.gunicorn_workers),
         "--log-level", "warning"], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=log)
    lines = [f"machine: {machine_note()}"]
    errors: list[str] = []
    sizes: dict[str, int] = {}
    phases: dict[str, list[dict[str, float]]] = {}
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                get(port, "/bench/blob/", clients[0][0])
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise SystemExit("api bench: gunicorn did not start") from None
                time.sleep(0.3)
        from pbem.games.models import Game

        sizes_of = {}
        for phase, more in (("small", args.small_bulk), ("bulk", args.bulk_games - args.small_bulk)):
            if more <= 0 and phase == "bulk":
                break
            if more > 0:
                took = bulk(more)
                lines.append(f"{phase}: {more} games with their seats inserted in {took:.1f} s")
            sizes_of[phase] = Game.objects.count()
            deep = middle_cursor()
            endpoints = {
                "baseline": [("/bench/blob/", token) for token, _g in clients],
                "view": [(f"/api/v1/games/{game}/view/", token) for token, game in clients],
                "lobby": [("/api/v1/games/", token) for token, _g in clients],
                "deep": [(f"/api/v1/games/?cursor={deep}", token) for token, _g in clients],
                "mine": [("/api/v1/games/?mine=1", token) for token, _g in clients],
                "me": [("/api/v1/me/games/", token) for token, _g in clients],
                "open": [("/api/v1/games/?status=open&limit=10", token) for token, _g in clients],
                "web": [("/games/", token) for token, _g in clients],
            }
            phases[phase] = measure(port, endpoints, args, sizes, errors)
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()
    for phase, rounds in phases.items():
        for i, r in enumerate(rounds, 1):
            lines.append(f"{phase} ({sizes_of[phase]} games) round {i} (load {r['load']:.1f}): baseline "
                         f"{r['baseline']:.0f} req/s; " + ", ".join(
                             f"{name} {r[name]:.0f} ({r[name] / r['baseline']:.3f})" for name in ("view", *LISTS)))
    lines.append(f"answers: baseline {sizes.get('baseline', 0)} bytes (JSONB value {blob_size} bytes), "
                 f"view {sizes.get('view', 0)} bytes, lobby {sizes.get('lobby', 0)} bytes (page of 50); "
                 f"gunicorn {args.gunicorn_workers} sync workers, {args.clients} clients")

    def figure(phase: str, name: str) -> float:
        ratios = [r[name] / r["baseline"] for r in phases.get(phase, []) if r["baseline"]]
        return statistics.median(ratios) if ratios else 0.0

    for name, goal in GOALS.items():
        value = figure("small", name)
        lines.append(f"ratio {name}/baseline (median of {len(phases['small'])} rounds, {sizes_of['small']} games): "
                     f"{value:.3f}  goal >= {goal}: {'met' if value >= goal else 'not met'}")
    if "bulk" in phases:
        for name in LISTS:
            small, big = figure("small", name), figure("bulk", name)
            flat = big / small if small else 0.0
            verdict = "met" if flat >= FLAT_GOAL else "not met"
            lines.append(f"flat {name}: {sizes_of['bulk']} games against {sizes_of['small']}: {big:.3f}/{small:.3f} "
                         f"of the baseline = {flat:.3f}  goal >= {FLAT_GOAL}: {verdict}")
    return lines + [f"error: {e}" for e in errors]


def measure(port: int, endpoints: dict[str, list[tuple[str, str]]], args: argparse.Namespace,
            sizes: dict[str, int], errors: list[str]) -> list[dict[str, float]]:
    for paths in endpoints.values():  # warm every worker
        drive(port, paths, args.clients, 0.3)
    # Why slices: on a shared machine the load moves within seconds; each endpoint runs in
    # turns of ``--slice`` seconds (the order rotating) until it had ``--seconds``, so the
    # endpoints of one round see the same machine and their ratio is not a load swing.
    slices = max(1, round(args.seconds / args.slice))
    names = list(endpoints)
    rounds = []
    for _ in range(args.rounds):
        load = os.getloadavg()[0]
        done = {name: [0, 0.0] for name in names}
        for k in range(slices):
            for name in names[k % len(names):] + names[:k % len(names)]:
                count, size, failed, took = drive(port, endpoints[name], args.clients, args.seconds / slices)
                done[name][0] += count
                done[name][1] += took
                sizes[name] = size
                if failed:
                    errors.append(f"{name}: {failed} answers were not 200")
        rates: dict[str, float] = {"load": load}
        rates.update({name: count / took for name, (count, took) in done.items()})
        rounds.append(rates)
    return rounds


if __name__ == "__main__":
    sys.exit(main())
