"""Event streams: one per game, one per account, as server-sent events or ndjson.

What they carry, for the viewer only (the same redaction as ``/log/``: a seat sees its own
private events and moves, a spectator the public ones):

* ``move``: a log entry (number, seat, player, version, the move if visible, its events);
* ``game``: something happened to a game (``action``: start, join, pause, undo, finish...)
  with its status, version and whose decision it waits for now; never an audit entry's
  details or actor (they name addresses);
* ``state`` (first event of a game stream) and ``hello`` (first of an account stream):
  where things stand now.

Every event's id is a cursor, ``<move row id>.<audit row id>``: the rows seen so far. A
client that reconnects with ``Last-Event-ID`` (or ``?last_event_id=``) gets exactly what
it missed. A stream lives ``PBEM_API_STREAM_SECONDS`` at most (300 s by default) and then
ends; EventSource reconnects by itself after the ``retry`` it was told; ``?timeout=0``
answers the backlog and closes (a poll).

Two ways to serve the same events: :func:`arun`, an async iterator, under ASGI (what the
web service runs: an open stream holds no worker and no database connection while it
waits, see :mod:`pbem.api.aio`); :func:`run`, a sync one, under WSGI (the test client,
``runserver``), where a stream holds its thread for its whole life.

Why a settle window on the account stream: rows of different games are written by
concurrent transactions, so a row with a smaller id can commit after one with a larger
id; the account stream only hands out rows older than ``PBEM_API_STREAM_SETTLE`` seconds,
so the cursor never jumps over a row still being committed. A game's own rows are written
under its row lock, in id order, so the game stream needs no window.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import Q
from django.utils import timezone
from rest_framework.exceptions import ValidationError

from pbem.api import aio, presenters
from pbem.games import selectors
from pbem.games.models import AuditEntry, Game, Move, Player, Seat

#: Audit actions a stream reports (by name only); the others are private (reminders, vacations...).
PUBLIC_ACTIONS = frozenset({
    "create", "join", "decline", "leave", "start", "finish", "pause", "resume", "replace", "resign", "undo",
    "rollback", "abort", "open-seat", "take-seat", "deadline", "extend", "extension", "policy", "message",
})
CURSOR_PATTERN = r"^[0-9]{1,18}\.[0-9]{1,18}$"
_CURSOR = re.compile(CURSOR_PATTERN)
BATCH = 100
HEARTBEAT_SECONDS = 10.0
RETRY_MS = 1000


@dataclass(frozen=True)
class Cursor:
    move: int
    audit: int

    def __str__(self) -> str:
        return f"{self.move}.{self.audit}"

    @staticmethod
    def recognised(header: str | None) -> str | None:
        """The header's id when it is one of ours; else None (ignored, as an unknown id must be)."""
        return header.strip() if header and _CURSOR.match(header.strip()) else None

    @classmethod
    def parse(cls, raw: str) -> Cursor:
        if not _CURSOR.match(raw.strip()):
            raise ValidationError({"last_event_id": ["an event id from this stream, like 12.3"]})
        move, audit = raw.strip().split(".")
        return cls(int(move), int(audit))


@dataclass(frozen=True)
class StreamEvent:
    id: str
    type: str
    data: dict[str, Any]


def lifetime(asked: float | None) -> float:
    cap = float(getattr(settings, "PBEM_API_STREAM_SECONDS", 300.0))
    return cap if asked is None else min(asked, cap)


def _game_status(game: Game, player: Player | None) -> dict[str, Any]:
    seat = selectors.viewer_seat(game, player)
    waiting = selectors.waiting_for(game)
    return {"game": game.pk, "status": game.status, "version": game.version, "etag": game.etag,
            "waiting_for": waiting, "your_seat": seat, "your_turn": seat is not None and seat in waiting}


class _Source:
    """The rows one stream may see, fetched after a cursor."""

    settle = 0.0

    def games(self) -> Q:
        raise NotImplementedError

    def fetch(self, cursor: Cursor, player: Player | None) -> tuple[list[StreamEvent], Cursor]:
        games = self.games()
        moves = Move.objects.filter(games, pk__gt=cursor.move)
        audits = AuditEntry.objects.filter(games, pk__gt=cursor.audit, game__isnull=False)
        if self.settle:
            before = timezone.now() - timedelta(seconds=self.settle)
            moves, audits = moves.filter(created_at__lte=before), audits.filter(created_at__lte=before)
        # Why a merge and not a sort: each kind stays in id order, so every event's id (the
        # largest row id of each kind so far) never jumps over a row not yet handed out.
        pending_moves = list(moves.order_by("pk")[:BATCH])
        pending_audits = list(audits.order_by("pk")[:BATCH])
        out: list[StreamEvent] = []
        games_seen: dict[int, Game] = {}
        movers: dict[int, Callable[[int, datetime], str | None]] = {}
        move_at, audit_at = cursor.move, cursor.audit
        while pending_moves or pending_audits:
            take_move = bool(pending_moves) and (
                not pending_audits or pending_moves[0].created_at <= pending_audits[0].created_at)
            row: Any = pending_moves.pop(0) if take_move else pending_audits.pop(0)
            if take_move:
                move_at = row.pk
            else:
                audit_at = row.pk
            game = games_seen.get(row.game_id) or Game.objects.select_related("created_by").get(pk=row.game_id)
            games_seen[row.game_id] = game
            if isinstance(row, Move) and row.game_id not in movers:
                movers[row.game_id] = selectors.movers(game)
            data = self._event(row, game, player, movers.get(row.game_id))
            if data is not None:
                out.append(StreamEvent(str(Cursor(move_at, audit_at)), *data))
        return out, Cursor(move_at, audit_at)

    def _event(self, row: Any, game: Game, player: Player | None,
               movers: Callable[[int, datetime], str | None] | None = None) -> tuple[str, dict[str, Any]] | None:
        if isinstance(row, Move):
            if row.undone_at is not None:
                return None  # taken back before this stream read it: as in /log/, it never happened
            seat = selectors.viewer_seat(game, player)
            # Who held the seat when the move was made, as /log/ says (QA, #22: a replay with
            # Last-Event-ID named the seat's current player for the moves of the one replaced).
            entry = presenters.log_entry_data(game, row, seat, movers or selectors.movers(game))
            status = _game_status(game, player)
            return "move", {"game": game.pk, **entry, "created_at": entry["created_at"].isoformat(),
                            "your_turn": status["your_turn"]}
        if row.action not in PUBLIC_ACTIONS:
            return None
        return "game", {"action": row.action, "at": row.created_at.isoformat(), **_game_status(game, player)}


class GameSource(_Source):
    def __init__(self, game: Game) -> None:
        self.game = game

    def games(self) -> Q:
        return Q(game_id=self.game.pk)


class AccountSource(_Source):
    def __init__(self, player: Player) -> None:
        self.player = player
        self.settle = float(getattr(settings, "PBEM_API_STREAM_SETTLE", 1.0))

    def games(self) -> Q:
        seated = Seat.objects.filter(player=self.player).values("game_id")
        return Q(game_id__in=seated)


def latest_cursor() -> Cursor:
    move = Move.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    audit = AuditEntry.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    return Cursor(move, audit)


def first_events(source: _Source, player: Player | None, cursor: Cursor) -> list[StreamEvent]:
    if isinstance(source, GameSource):
        game = selectors.get_game(source.game.pk)
        return [StreamEvent(str(cursor), "state", _game_status(game, player))]
    assert isinstance(source, AccountSource)
    turn = [g.pk for g in selectors.my_games(source.player, my_turn=True)]
    return [StreamEvent(str(cursor), "hello", {"my_turn": turn})]


def sse(event: StreamEvent) -> str:
    data = json.dumps(event.data, ensure_ascii=False, default=str)
    return f"id: {event.id}\nevent: {event.type}\ndata: {data}\n\n"


def ndjson(event: StreamEvent) -> str:
    return json.dumps({"id": event.id, "type": event.type, **event.data}, ensure_ascii=False, default=str) + "\n"


def run(source: _Source, player: Player | None, cursor: Cursor, seconds: float, fmt: str) -> Iterator[str]:
    """The stream's text: the first event, the backlog after ``cursor``, then new rows until ``seconds``."""
    write = sse if fmt == "sse" else ndjson
    poll = float(getattr(settings, "PBEM_API_STREAM_POLL", 0.5))
    ends = time.monotonic() + seconds
    if fmt == "sse":
        yield f"retry: {RETRY_MS}\n\n"
    for event in first_events(source, player, cursor):
        yield write(event)
    quiet_since = time.monotonic()
    while True:
        events, cursor = source.fetch(cursor, player)
        for event in events:
            yield write(event)
        if events:
            quiet_since = time.monotonic()
            continue  # drain a long backlog before sleeping
        now = time.monotonic()
        if now >= ends:
            break
        if now - quiet_since >= HEARTBEAT_SECONDS:
            yield ": keep-alive\n\n" if fmt == "sse" else "\n"
            quiet_since = now
        time.sleep(min(poll, max(ends - now, 0.0)))
    if fmt == "sse":
        yield f": the stream ends here; reconnect with Last-Event-ID: {cursor}\n\n"


async def arun(source: _Source, player: Player | None, cursor: Cursor, seconds: float,
               fmt: str) -> AsyncIterator[str]:
    """:func:`run` on the event loop: the same events, waiting with ``await`` instead of ``sleep``.

    A stream reads its rows when the process's :class:`~pbem.api.aio.Ticker` saw new ones
    (or while an account stream's settle window may still hold some), so a thousand idle
    streams cost one small query per poll interval, not a thousand.
    """
    write = sse if fmt == "sse" else ndjson
    ends = time.monotonic() + seconds
    if fmt == "sse":
        yield f"retry: {RETRY_MS}\n\n"
    for event in await aio.db(first_events, source, player, cursor):
        yield write(event)
    with aio.ticker(latest_cursor).subscribed() as ticks:
        window = source.settle + 2 * ticks.every
        seen: Any = object()  # no mark yet: read once at once
        changed_at = quiet_since = time.monotonic()
        more = True
        while True:
            mark = ticks.mark
            if more or mark != seen or time.monotonic() - changed_at <= window:
                if mark != seen:
                    seen, changed_at = mark, time.monotonic()
                events, cursor = await aio.db(source.fetch, cursor, player)
                for event in events:
                    yield write(event)
                more = bool(events)  # a long backlog: drain it before waiting
                if more:
                    quiet_since = time.monotonic()
                    continue
            now = time.monotonic()
            if now >= ends:
                break
            if now - quiet_since >= HEARTBEAT_SECONDS:
                yield ": keep-alive\n\n" if fmt == "sse" else "\n"
                quiet_since = now
            await ticks.wait(min(ticks.every, HEARTBEAT_SECONDS, ends - now))
    if fmt == "sse":
        yield f": the stream ends here; reconnect with Last-Event-ID: {cursor}\n\n"
