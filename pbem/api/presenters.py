"""Plain dicts for the API's output serializers, built from selectors only.

Nothing here reads a game's raw state: views come from the engine's ``view``
for the viewer's seat, log events from the redaction selector.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.urls import get_script_prefix, reverse
from rest_framework.request import Request

import engine
from engine import Option, Rules
from pbem.games import language, selectors
from pbem.games.models import AuditEntry, Game, Move, MoveRequest, Player, Seat, said_game_title

#: Stands for an id while a route is reversed once (see :func:`_url`); no real id is this large.
_ID_MARK = 987654321987


@functools.lru_cache(maxsize=512)
def _route(name: str, key: str, prefix: str) -> str:
    return reverse(name, kwargs={key: _ID_MARK})


def _url(request: Request, name: str, **kwargs: Any) -> str:
    """The absolute URL of a route.

    Why not ``reverse`` each time: a lobby page of 50 games made 350 of them (a third of its
    time); a route with one id is reversed once per script prefix and the id put in, and the
    scheme and host are worked out once per request.
    """
    base = getattr(request, "_pbem_url_base", None)
    if base is None:
        base = request.build_absolute_uri("/")[:-1]
        request._pbem_url_base = base  # type: ignore[attr-defined]  # a per-request memo
    if len(kwargs) != 1 or not isinstance(next(iter(kwargs.values())), int):
        return base + reverse(name, kwargs=kwargs)
    ((key, value),) = kwargs.items()
    return base + _route(name, key, get_script_prefix()).replace(str(_ID_MARK), str(int(value)))


#: One seat as the game's entry shows it: (index, status, player id, player's display name).
SeatRow = tuple[int | None, str, int | None, str | None]

#: The columns a game's entry shows, as ``QuerySet.values`` names them: the lobby reads a page
#: of games as plain rows (:func:`lobby_entry`), no model instances, no state.
LOBBY_COLUMNS = ("id", "title", "rules", "status", "options", "version", "created_by_id",
                 "created_by__display_name", "created_at", "started_at", "finished_at", "deadline_hours",
                 "deadline_at", "time_bank_hours", "time_bank_increment_hours", "pending_seats", "seed_hash", "seed",
                 "outcome", "seat_names")


#: A game's links: key in ``links`` and route name.
_GAME_LINKS = (("self", "api:game-detail"), ("view", "api:game-view"), ("board_svg", "api:game-board-svg"),
               ("options", "api:game-options"), ("moves", "api:game-moves"), ("log", "api:game-log"),
               ("page", "web:game"))


def _game_links(request: Request, game_id: int) -> dict[str, str]:
    """What :func:`_url` gives for each of ``_GAME_LINKS``, split around the id once per request
    (a lobby page asks for 350 of them)."""
    parts = getattr(request, "_pbem_game_links", None)
    if parts is None:
        parts = [(key, *_url(request, name, game_id=_ID_MARK).split(str(_ID_MARK), 1))
                 for key, name in _GAME_LINKS]
        request._pbem_game_links = parts  # type: ignore[attr-defined]  # a per-request memo
    text = str(int(game_id))
    return {key: head + text + tail for key, head, tail in parts}


_INVITED = Seat.Status.INVITED.value
_RUNNING = (Game.Status.RUNNING.value, Game.Status.PAUSED.value)
_FINISHED = Game.Status.FINISHED.value


def game_data(request: Request, game: Game, viewer: Player | None,
              seat_rows: list[SeatRow] | None = None) -> dict[str, Any]:
    """One game's entry. ``seat_rows``: the game's seats in seat order as
    :func:`pbem.games.selectors.lobby_seats` gives them; read from ``game`` when None."""
    if seat_rows is None:
        seat_rows = [(seat.index, seat.status, seat.player_id,
                      seat.player.display_name if seat.player is not None else None)
                     for seat in selectors.game_seats(game)]
    row = {"id": game.pk, "title": game.title, "rules": game.rules, "status": game.status,
           "options": game.options, "version": game.version, "created_by_id": game.created_by_id,
           "created_by__display_name": game.created_by.display_name, "created_at": game.created_at,
           "started_at": game.started_at, "finished_at": game.finished_at,
           "deadline_hours": game.deadline_hours, "deadline_at": game.deadline_at,
           "time_bank_hours": game.time_bank_hours, "time_bank_increment_hours": game.time_bank_increment_hours,
           "pending_seats": game.pending_seats, "seed_hash": game.seed_hash, "seed": game.seed,
           "outcome": game.outcome, "seat_names": game.seat_names}
    return lobby_entry(request, row, viewer, seat_rows)


def lobby_entry(request: Request, row: dict[str, Any], viewer: Player | None,
                seat_rows: list[SeatRow]) -> dict[str, Any]:
    """A game's entry from its ``LOBBY_COLUMNS`` row: what ``GameOut`` makes of a game (the same
    keys in the same order, JSON types; tests/api/test_query_counts.py holds them equal).

    Whom the game waits for comes from ``pending_seats``, stored with every state (see
    ``Game.save``): an entry never decodes a state. Why plain rows: building 100 model
    instances (the games and their creators) was most of a lobby page's time after the state.
    """
    game_id = row["id"]
    status = row["status"]
    pending = row["pending_seats"]
    waiting = list(pending) if pending is not None and status in _RUNNING else []
    finished = status == _FINISHED
    creator = row["created_by_id"]
    seats = []
    your_seat = None
    viewer_pk = viewer.pk if viewer is not None else None
    in_game = row.get("seat_names")
    for index, seat_status, player_id, name in seat_rows:
        you = viewer_pk is not None and player_id == viewer_pk
        if you and pending is not None:
            your_seat = index
        # An unanswered invitation's name is the creator's and the invited player's business only:
        # an address invited before it has an account is named after its local part
        # (``john.smith.1984``), which the public lobby must not publish.
        hidden = seat_status == _INVITED and (viewer_pk is None or viewer_pk not in (creator, player_id))
        if index is not None and in_game is not None and index < len(in_game):
            name = in_game[index]  # the seat's name in the game, as the view and the mails say it
        seats.append({
            "index": index,
            "name": name if player_id is not None and not hidden else None,
            "status": seat_status,
            "you": you,
            "waiting": index is not None and index in waiting,
        })
    return {
        "id": game_id,
        # The stored title (English, or as its creator wrote it) said in the reader's language (#27).
        "title": said_game_title(row["title"], row["rules"], row["options"]),
        "rules": row["rules"],
        "rules_title": said_game_title(engine.get(row["rules"]).title, row["rules"]),
        "status": status,
        # Only what the game's mode uses (QA, #20: every game listed release, automa, difficulty...).
        "options": engine.get(row["rules"]).options_in_play(row["options"] or {}, len(seat_rows)),
        "version": row["version"],
        "etag": f'"{game_id}-{row["version"]}"',
        "created_by": row["created_by__display_name"],
        "created_at": row["created_at"],
        "started_at": row["started_at"],
        "finished_at": row["finished_at"],
        "deadline_hours": row["deadline_hours"],
        "deadline_at": row["deadline_at"],
        "time_bank_hours": row["time_bank_hours"],
        "time_bank_increment_hours": row["time_bank_increment_hours"],
        "seats": seats,
        "waiting_for": waiting,
        "your_seat": your_seat,
        "seed_hash": row["seed_hash"],
        "seed": row["seed"] if finished else None,
        "outcome": row["outcome"] if finished else None,
        "links": _game_links(request, game_id),
    }


def view_data(gv: selectors.GameView) -> dict[str, Any]:
    return {
        "game": gv.game.pk,
        "version": gv.game.version,
        "etag": gv.game.etag,
        "seat": gv.seat,
        "view": gv.view,
        "text": gv.text,
    }


def options_data(game: Game, seat: int, options: list[Option]) -> dict[str, Any]:
    return {
        "game": game.pk,
        "version": game.version,
        "etag": game.etag,
        "seat": seat,
        "your_turn": bool(options),
        "options": [o.as_dict() | {"details": d}
                    for o, d in zip(options, selectors.option_details(game, seat, options), strict=True)],
    }


def log_entry_data(game: Game, row: Move, seat: int | None,
                   names: dict[int, str] | Callable[[int, datetime], str | None]) -> dict[str, Any]:
    return {
        "number": row.number,
        "seat": row.seat,
        "player": names(row.seat, row.created_at) if callable(names) else names.get(row.seat),
        "source": row.source,
        "version": row.version,
        "created_at": row.created_at,
        "move": selectors.visible_move(game, row, seat),
        "events": selectors.redacted_events(row.events, seat),
    }


def move_request_data(request: Request, req: MoveRequest) -> dict[str, Any]:
    return {
        "id": req.pk,
        "url": _url(request, "api:move-request-detail", request_id=req.pk),
        "game": req.game_id,
        "status": req.status,
        "commands": req.commands,
        "expected_version": req.expected_version,
        "reason": req.reason,
        "result_version": req.result_version,
        "created_at": req.created_at,
        "decided_at": req.decided_at,
    }


def rules_data(rules: Rules) -> dict[str, Any]:
    return {
        "name": rules.name,
        "title": said_game_title(rules.title, rules.name),
        "min_players": rules.min_players,
        "max_players": rules.max_players,
        "options": [spec.as_dict() for spec in rules.option_specs if not spec.internal],
        "notation_help": language.translate(rules.notation_help),
    }


def me_data(player: Player) -> dict[str, Any]:
    return {
        "email": player.email,
        "display_name": player.display_name,
        "mail_mode": player.mail_mode,
        "language": language.of(player),
        "vacation_until": player.vacation_until,
        "created_at": player.created_at,
    }


def audit_entry_data(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "created_at": entry.created_at,
        "action": entry.action,
        "actor": entry.actor.email if entry.actor is not None else None,
        "details": entry.details,
    }
