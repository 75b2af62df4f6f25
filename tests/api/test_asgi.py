"""The web service under ASGI, over real HTTP against a real server process with ONE worker.

The server is what docker-compose.yml runs (gunicorn with one uvicorn worker, ``pbem.asgi``),
on this test's PostgreSQL database, with a broker that does not answer (a closed port; the
sweeper that would hand the moves on later is not running): a posted move stays pending until
the test itself judges it (as the worker would).

A sync gunicorn worker serves one request at a time: with one open stream, nothing else
is answered until that stream ends. Here many streams and ``?wait=`` requests are held
open at once, and a plain ``GET /rules/`` and a move post are still answered; after the
move is judged, every open stream delivers it and every wait gets its decision.
No timing is asserted: the generous socket timeouts only keep a broken server from
hanging the suite.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.db import connection
from openapi_schema_validator import OAS30Validator
from referencing import Registry, Resource

from pbem.games import selectors, services
from pbem.games.models import Game, MoveRequest, Player
from tests.factories import player_at, seat_of, start_game

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 120  # seconds: only so that a server that never answers fails the test instead of hanging it


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _database_url() -> str:
    d = connection.settings_dict
    auth = quote(d["USER"] or "postgres") + (f":{quote(d['PASSWORD'])}" if d["PASSWORD"] else "")
    return f"postgres://{auth}@{d['HOST'] or '127.0.0.1'}:{d['PORT'] or 5432}/{d['NAME']}"


class Server:
    def __init__(self, port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
        self.port, self.proc, self.log = port, proc, log

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=TIMEOUT)

    def request(self, method: str, path: str, token: str | None = None, body: Any = None,
                **headers: str) -> tuple[int, dict[str, str], Any]:
        conn = self.connect()
        try:
            if token:
                headers["Authorization"] = f"Token {token}"
            data = None
            if body is not None:
                data = json.dumps(body).encode()
                headers["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=headers)
            r = conn.getresponse()
            raw = r.read()
            return r.status, dict(r.headers), json.loads(raw) if raw else None
        finally:
            conn.close()


@pytest.fixture
def asgi_server(transactional_db: None, tmp_path: Path) -> Iterator[Server]:
    """gunicorn, one uvicorn worker, on this test's database (the fixture ends it before the database goes)."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "EMAIL_HOST", "PBEM_MAILDIR")}
    broker = f"redis://127.0.0.1:{_free_port()}/0"  # nothing listens there: every move stays pending
    env.update(DATABASE_URL=_database_url(), CELERY_BROKER_URL=broker, PBEM_VAR_DIR=str(tmp_path),
               ALLOWED_HOSTS="127.0.0.1", PBEM_PUBLIC_URL=f"http://127.0.0.1:{port}", DEBUG="0",
               LOG_LEVEL="WARNING", PBEM_API_STREAM_POLL="0.1", PBEM_API_STREAM_SETTLE="0.2",
               PBEM_API_MAX_WAIT="10", PYTHONUNBUFFERED="1")
    log = tmp_path / "server.log"
    gunicorn = str(Path(sys.executable).with_name("gunicorn"))
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [gunicorn, "pbem.asgi:application", "--worker-class", "uvicorn_worker.UvicornWorker",
             "--workers", "1", "--bind", f"127.0.0.1:{port}", "--timeout", "120", "--log-level", "warning"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = Server(port, proc, log)
    try:
        deadline = time.monotonic() + TIMEOUT
        while True:
            assert proc.poll() is None, f"the server exited:\n{log.read_text()[-3000:]}"
            try:
                if server.request("GET", "/api/v1/rules/")[0] == 200:  # (/healthz: 503, no broker)
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, f"the server never answered:\n{log.read_text()[-3000:]}"
            time.sleep(0.2)
        yield server
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


class Stream:
    """One open event stream, read event by event (SSE or ndjson)."""

    def __init__(self, server: Server, path: str, token: str | None, fmt: str) -> None:
        self.fmt = fmt
        self.conn = server.connect()
        headers = {"Authorization": f"Token {token}"} if token else {}
        sep = "&" if "?" in path else "?"
        self.conn.request("GET", f"{path}{sep}format={fmt}&timeout=600", headers=headers)
        self.response = self.conn.getresponse()
        assert self.response.status == 200, self.response.read()
        self.events: list[dict[str, Any]] = []

    def next(self) -> dict[str, Any]:
        if self.fmt == "ndjson":
            while True:
                line = self.response.readline()
                assert line, "the stream ended"
                if line.strip():  # an empty line is a keep-alive
                    raw = json.loads(line)
                    event = {"id": raw["id"], "event": raw["type"], "line": raw,
                             "data": {k: v for k, v in raw.items() if k not in ("id", "type")}}
                    break
        else:
            fields: dict[str, str] = {}
            while True:
                line = self.response.readline()
                assert line, "the stream ended"
                text = line.decode().rstrip("\n")
                if not text:
                    if "event" in fields:
                        break
                    fields = {}
                    continue
                if text.startswith(":") or ": " not in text:
                    continue
                name, value = text.split(": ", 1)
                fields[name] = value
            event = {"id": fields["id"], "event": fields["event"], "data": json.loads(fields["data"])}
        self.events.append(event)
        return event

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            event = self.next()
            if event["event"] == kind:
                return event

    def close(self) -> None:
        self.conn.close()


def _schema_errors(openapi: dict[str, Any], component: str, value: Any) -> list[str]:
    registry = Registry().with_resource("urn:openapi", Resource.opaque(openapi))
    validator = OAS30Validator({"$ref": f"urn:openapi#/components/schemas/{component}"}, registry=registry,
                               format_checker=OAS30Validator.FORMAT_CHECKER)
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(value)]


def _mover(game: Game) -> tuple[Player, str]:
    """The player the game waits for, and their first option's code."""
    game.refresh_from_db()
    seat = selectors.waiting_for(game)[0]
    return player_at(game, seat), selectors.seat_options(game, seat)[0].code


def test_it_answers_rules_and_moves_while_streams_and_waits_are_held_open_by_one_worker(
        asgi_server: Server, alice: Player, bob: Player) -> None:
    game = start_game("caravelas", alice, [bob])
    mover, code = _mover(game)
    other = bob if mover == alice else alice
    mover_token, other_token = services.do_issue_api_token(mover), services.do_issue_api_token(other)

    # Fourteen open streams: a game's and an account's, SSE and ndjson, a seat's and a spectator's.
    streams: list[Stream] = []
    for fmt in ("sse", "ndjson"):
        for _ in range(3):
            streams.append(Stream(asgi_server, f"/api/v1/games/{game.pk}/stream/", other_token, fmt))
            streams.append(Stream(asgi_server, "/api/v1/me/stream/", other_token, fmt))
    streams += [Stream(asgi_server, f"/api/v1/games/{game.pk}/stream/", None, "sse") for _ in range(2)]
    try:
        for stream in streams:
            assert stream.next()["event"] in ("state", "hello")  # open, and being served

        # Three parallel ?wait= on moves no worker decides (nothing reads the broker).
        answers: list[tuple[int, dict[str, str], Any]] = []

        def wait_for_move(key: str) -> None:
            answers.append(asgi_server.request("POST", f"/api/v1/games/{game.pk}/moves/?wait=10", mover_token,
                                               {"commands": [{"code": code}]}, **{"Idempotency-Key": key}))

        waiters = [threading.Thread(target=wait_for_move, args=(f"wait-{i}",)) for i in range(3)]
        for w in waiters:
            w.start()
        deadline = time.monotonic() + TIMEOUT
        while MoveRequest.objects.filter(player=mover).count() < 3:
            assert time.monotonic() < deadline, "the move posts were never taken"
            time.sleep(0.05)

        # Meanwhile the one worker answers everyone else.
        status, _, rules = asgi_server.request("GET", "/api/v1/rules/")
        assert status == 200 and {r["name"] for r in rules} >= {"caravelas", "maretta"}
        status, headers, posted = asgi_server.request("POST", f"/api/v1/games/{game.pk}/moves/", other_token,
                                                      {"commands": [{"code": "1s1"}]})
        assert status == 202 and headers["Location"] == posted["url"] and posted["status"] == "pending"

        # The worker's part: judge the requests in order (the first is the mover's move).
        mine = list(MoveRequest.objects.filter(player=mover).order_by("pk"))
        for req in mine:
            services.do_process_move_request(req.pk)
        for w in waiters:
            w.join(TIMEOUT)
        assert len(answers) == 3
        # Each wait ends with its decision (200 or 422), or past the cap with 202 and where to look.
        assert {a[0] for a in answers} <= {200, 202, 422}, [a[2] for a in answers]
        for _, headers, body in answers:
            assert headers["Location"] == body["url"]
        decided = [asgi_server.request("GET", f"/api/v1/move-requests/{r.pk}/", mover_token)[2] for r in mine]
        assert decided[0]["status"] == "accepted"
        assert all(d["status"] in ("accepted", "rejected") for d in decided), decided
        # The same Idempotency-Key answers the first result again (kept after the wait), applying nothing.
        status, headers, again = asgi_server.request("POST", f"/api/v1/games/{game.pk}/moves/?wait=10", mover_token,
                                                     {"commands": [{"code": code}]}, **{"Idempotency-Key": "wait-0"})
        first = next(a for a in answers if a[1]["Location"].rstrip("/").rsplit("/", 1)[1] == str(again["id"]))
        assert headers["Idempotency-Replayed"] == "true" and status == first[0] and again == first[2]
        assert MoveRequest.objects.filter(player=mover).count() == 3

        # Every open stream delivers the move.
        for stream in streams:
            move = stream.until("move")
            assert move["data"]["game"] == game.pk and move["data"]["seat"] == seat_of(game, mover)

        # Every payload the streams gave is what the schema documents for its kind.
        openapi = asgi_server.request("GET", "/api/v1/schema/?format=json")[2]
        kinds = set()
        for stream in streams:
            for event in stream.events:
                kinds.add(event["event"])
                errors = _schema_errors(openapi, f"Stream{event['event'].capitalize()}Out", event["data"])
                if "line" in event:
                    errors += _schema_errors(openapi, "StreamLine", event["line"])
                assert not errors, (event, errors[:3])
        assert kinds == {"state", "hello", "game", "move"}
        assert _schema_errors(openapi, "StreamMoveOut", move["data"] | {"extra": 1})  # the shapes are closed
    finally:
        for stream in streams:
            stream.close()
        connection.close()


def test_a_wait_whose_client_went_away_still_keeps_its_answer_for_the_idempotency_key(
        asgi_server: Server, alice: Player, bob: Player) -> None:
    game = start_game("caravelas", alice, [bob])
    mover, code = _mover(game)
    token = services.do_issue_api_token(mover)
    path, body = f"/api/v1/games/{game.pk}/moves/?wait=10", {"commands": [{"code": code}]}
    conn = asgi_server.connect()
    conn.request("POST", path, body=json.dumps(body).encode(),
                 headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                          "Idempotency-Key": "gone-1"})
    deadline = time.monotonic() + TIMEOUT
    while not MoveRequest.objects.filter(player=mover).exists():
        assert time.monotonic() < deadline, "the move post was never taken"
        time.sleep(0.05)
    conn.close()  # gone while its move waits for a worker

    # The same key again: "still running" (409) until the server has seen the client go, then the
    # first answer; never a second request.
    while True:
        status, headers, again = asgi_server.request("POST", path, token, body, **{"Idempotency-Key": "gone-1"})
        if status != 409:
            break
        assert time.monotonic() < deadline, "the first request never finished"
        time.sleep(0.1)
    assert status == 202 and headers["Idempotency-Replayed"] == "true" and again["status"] == "pending"
    assert MoveRequest.objects.filter(player=mover).count() == 1
    connection.close()


def test_it_answers_304s_without_a_body_and_keeps_the_connection_alive(
        asgi_server: Server, alice: Player, bob: Player, carol: Player) -> None:
    """A 304 of the SVG and text renderers once carried ``None`` with ``Content-Length: 4``: uvicorn
    failed it, and the next request on that keep-alive connection died."""
    game = start_game("maretta", alice, [bob, carol])
    token = services.do_issue_api_token(alice)
    paths = [f"/api/v1/games/{game.pk}/board.svg", f"/api/v1/games/{game.pk}/view/?format=svg",
             f"/api/v1/games/{game.pk}/view/?format=txt", f"/api/v1/games/{game.pk}/view/",
             "/api/v1/games/", "/api/v1/me/games/", "/api/v1/rules/", "/api/v1/rules/maretta/"]
    conn = asgi_server.connect()  # one connection for every request: HTTP/1.1 keeps it alive
    try:
        for path in paths:
            auth = {"Authorization": f"Token {token}"}
            conn.request("GET", path, headers=auth)
            r = conn.getresponse()
            first = r.read()
            assert r.status == 200 and first, (path, r.status)
            tag = r.headers["ETag"]
            assert tag and tag.startswith('"'), (path, tag)
            conn.request("GET", path, headers=auth | {"If-None-Match": tag})
            r = conn.getresponse()
            assert r.status == 304 and r.read() == b"", path
            assert r.headers.get("Content-Length") in (None, "0"), (path, r.headers.get("Content-Length"))
            assert r.headers["ETag"] == tag
            conn.request("GET", path, headers=auth | {"If-None-Match": '"other"'})
            r = conn.getresponse()
            assert r.status == 200 and r.read() == first, path
    finally:
        conn.close()
    assert "Exception" not in asgi_server.log.read_text()
