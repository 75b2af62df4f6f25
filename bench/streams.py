"""Open event streams and ?wait= against ONE web worker: does everyone else still get answered?

    python bench/streams.py [--streams 200] [--waits 20] [--requests 30] [--sync]

Self-contained: a scratch SQLite database in a temporary folder (the embedded default), migrated
and seeded with one running Caravelas game, then gunicorn with one worker: a uvicorn worker
serving ``pbem.asgi`` (what the image runs), or with ``--sync`` one sync worker serving
``pbem.wsgi`` (what it ran before). It times ``--requests`` sequential ``GET /api/v1/rules/``
with nothing else open, then again while ``--streams`` event streams (half SSE game streams,
half ndjson account streams) and ``--waits`` ``?wait=10`` move posts are held open (the broker
does not answer, so every move stays pending until its wait ends). Figures: the median and the
worst of each, and their ratio. A sync worker serves one request at a time: there the first
open stream holds it, and ``GET /rules/`` gets no answer within ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable

SEED = """
from pbem.games import selectors, services
alice = services.do_create_player("alice@example.org", "Alice")
bob = services.do_create_player("bob@example.org", "Bob")
game = services.do_create_game(alice, "caravelas", invite=[bob.email])
services.do_join_game(game.pk, bob)
game.refresh_from_db()
seat = selectors.waiting_for(game)[0]
mover = alice if game.seats.get(player=alice).index == seat else bob
other = bob if mover == alice else alice
code = selectors.seat_options(game, seat)[0].code
print(game.pk, services.do_issue_api_token(mover), services.do_issue_api_token(other), code)
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def timed_get(port: int, path: str, timeout: float) -> float | None:
    """Seconds for one answered GET, or None when there was no answer within ``timeout``."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path)
        r = conn.getresponse()
        r.read()
        return time.perf_counter() - started if r.status == 200 else None
    except OSError:
        return None
    finally:
        conn.close()


def figures(name: str, times: list[float | None]) -> tuple[float, float] | None:
    answered = [t for t in times if t is not None]
    if not answered:
        print(f"{name}: no answer to any of {len(times)} requests")
        return None
    median, worst = statistics.median(answered), max(answered)
    print(f"{name}: {len(answered)}/{len(times)} answered, median {median * 1000:.1f} ms, "
          f"worst {worst * 1000:.1f} ms")
    return median, worst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--streams", type=int, default=200)
    ap.add_argument("--waits", type=int, default=20)
    ap.add_argument("--requests", type=int, default=30)
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds a GET /rules/ may take")
    ap.add_argument("--sync", action="store_true", help="one sync gunicorn worker (pbem.wsgi) instead")
    args = ap.parse_args()

    var = Path(tempfile.mkdtemp(prefix="pbem-bench-streams-"))
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "EMAIL_HOST")}
    env.update(PBEM_VAR_DIR=str(var), DJANGO_SETTINGS_MODULE="pbem.settings", LOG_LEVEL="ERROR", DEBUG="0",
               ALLOWED_HOSTS="127.0.0.1", PBEM_API_STREAM_POLL="0.5", PBEM_API_MAX_WAIT="10")
    manage = [PY, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
    seeded = subprocess.run([*manage, "shell", "-v", "0", "-c", SEED], cwd=ROOT, env=env, check=True,
                            capture_output=True, text=True).stdout.split()[-4:]
    game, mover_token, other_token, code = seeded
    # From now on moves wait for a worker that never comes: the broker's port is closed (the discard port),
    # so nothing of this bench ever reaches a real Redis.
    env["CELERY_BROKER_URL"] = "redis://127.0.0.1:9/0"

    app = ["pbem.wsgi:application"] if args.sync else [
        "pbem.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker"]
    server = subprocess.Popen([str(Path(PY).with_name("gunicorn")), *app, "--workers", "1", "--bind",
                               f"127.0.0.1:{port}", "--timeout", "300", "--log-level", "error"],
                              cwd=ROOT, env=env, stdin=subprocess.DEVNULL)
    held: list[http.client.HTTPConnection] = []
    try:
        while timed_get(port, "/api/v1/rules/", 2) is None:
            if server.poll() is not None:
                print("the server did not start")
                return 1
            time.sleep(0.2)
        kind = "sync worker (pbem.wsgi)" if args.sync else "uvicorn worker (pbem.asgi)"
        print(f"gunicorn, 1 {kind}; SQLite; {args.streams} streams, {args.waits} waits, "
              f"{args.requests} GET /api/v1/rules/ each time")
        quiet = figures("nothing else open", [timed_get(port, "/api/v1/rules/", args.timeout)
                                              for _ in range(args.requests)])

        def open_stream(i: int) -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            path = (f"/api/v1/games/{game}/stream/?timeout=600" if i % 2 == 0
                    else "/api/v1/me/stream/?format=ndjson&timeout=600")
            conn.request("GET", path, headers={"Authorization": f"Token {other_token}"})
            held.append(conn)

        def post_wait() -> None:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
            conn.request("POST", f"/api/v1/games/{game}/moves/?wait=10",
                         body=json.dumps({"commands": [{"code": code}]}).encode(),
                         headers={"Authorization": f"Token {mover_token}", "Content-Type": "application/json"})
            held.append(conn)

        for i in range(args.streams):
            open_stream(i)
        answers = [conn.getresponse() for conn in held]  # kept: a dropped answer would close its socket
        for answer in answers:  # each stream answered and sent its first line: it is open and being served
            answer.readline()
        for _ in range(args.waits):
            threading.Thread(target=post_wait, daemon=True).start()
        time.sleep(3.0)  # the posts are taken (each tries the broker for up to 2.5 s) and now wait
        busy = figures(f"{args.streams} streams and {args.waits} waits open",
                       [timed_get(port, "/api/v1/rules/", args.timeout) for _ in range(args.requests)])
        if quiet and busy:
            print(f"ratio (open / nothing open): median {busy[0] / quiet[0]:.2f}, worst {busy[1] / quiet[1]:.2f}")
        return 0
    finally:
        for conn in held:
            conn.close()
        server.terminate()
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        import shutil

        shutil.rmtree(var, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

