"""Read-only queries: what a player or a spectator may see.

Writers live in ``services.py``; everything here only reads. Every function
that returns game content takes the viewer's seat (``None`` for a spectator)
and goes through the engine's ``view`` and event redaction, never the raw
state, so no door (API, web page, admin preview) can leak hidden information
by forgetting to redact.
"""

from __future__ import annotations

import copy
import functools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils import timezone

import engine
from engine import Rules, i18n
from engine.core import Event, visible_events
from pbem.games import clocks
from pbem.games.models import AuditEntry, Game, Move, MoveRequest, Player, Seat
from pbem.games.services import Conflict, NotFound, live_moves, replay_state, rules_for

# ---- lists ---------------------------------------------------------------------------------


def game_list(*, viewer: Player | None = None, mine: bool = False, joinable: bool = False,
              status: str | None = None, rules: str | None = None) -> QuerySet[Game]:
    """Games in the lobby, newest first, optionally narrowed.

    ``mine``: games ``viewer`` holds a seat in (invitations included).
    ``joinable``: open games ``viewer`` could join now (a free seat or an invitation).
    """
    qs = Game.objects.select_related("created_by").order_by("-id")
    if mine:
        if viewer is None:
            return qs.none()
        # Why a set of ids, not EXISTS per game: newest first with EXISTS walks every newer game
        # looking for the viewer's; their seats (an index on the player) are few.
        qs = qs.filter(pk__in=Seat.objects.filter(player=viewer).values("game_id"))
    if joinable:
        qs = qs.filter(pk__in=open_games(viewer=viewer).values("pk"))
    if status:
        qs = qs.filter(status=status)
    if rules:
        qs = qs.filter(rules=rules.strip().lower())
    return qs


def games_for_player(player: Player) -> QuerySet[Game]:
    return game_list(viewer=player, mine=True)


def my_games(player: Player, *, my_turn: bool = False) -> QuerySet[Game] | list[Game]:
    """The games ``player`` holds a seat in, newest first (a query: pages read their own rows);
    ``my_turn``: only the running ones that wait for their decision now (lichess's ``isMyTurn``),
    read from each game's stored ``pending_seats``, never its state."""
    games = games_for_player(player).prefetch_related("seats__player")
    if not my_turn:
        return games
    out = []
    for game in games.filter(status=Game.Status.RUNNING).defer("state"):
        seat = next((s.index for s in game.seats.all() if s.player_id == player.pk and s.index is not None
                     and s.status != Seat.Status.RESIGNED), None)
        if seat is not None and seat in (game.pending_seats or ()):
            out.append(game)
    return out


def open_games(*, viewer: Player | None = None) -> QuerySet[Game]:
    """Games waiting for players that ``viewer`` may join: a free seat, or a seat they are invited to."""
    free = Q(Exists(Seat.objects.filter(game=OuterRef("pk"), player__isnull=True, invited_email="")),
             status=Game.Status.OPEN)
    # A running game's seat offered for a replacement (the no-move policy "replace") is joinable too.
    offered = Q(Exists(Seat.objects.filter(game=OuterRef("pk"), status=Seat.Status.OPEN)),
                status__in=(Game.Status.RUNNING, Game.Status.PAUSED))
    cond = free | offered
    seats = Q(player__isnull=True, invited_email="") | Q(status=Seat.Status.OPEN)
    if viewer is not None:
        mine = Q(player=viewer) | Q(player__isnull=True, invited_email=viewer.email)
        invited = Q(Exists(Seat.objects.filter(mine, game=OuterRef("pk"), status=Seat.Status.INVITED)),
                    status=Game.Status.OPEN)
        joined = Exists(Seat.objects.filter(game=OuterRef("pk"), player=viewer, status=Seat.Status.JOINED))
        cond = ((free | offered) & ~Q(joined)) | invited
        seats |= Q(player=viewer, status=Seat.Status.INVITED) | Q(player__isnull=True, invited_email=viewer.email)
    # Why from the seats first: open games are few among many; a walk down the games newest
    # first, testing each, read every game when none was open (issue 28). The candidates come
    # from small partial indexes (Seat's seat_free, seat_offered) and the player's seats.
    candidates = Seat.objects.filter(seats).values("game_id")
    return Game.objects.select_related("created_by").filter(pk__in=candidates).filter(cond).order_by("-id")


def finished_games() -> QuerySet[Game]:
    return Game.objects.select_related("created_by").filter(status=Game.Status.FINISHED).order_by("-finished_at", "-id")


# ---- one game ------------------------------------------------------------------------------


def get_game(game_id: int) -> Game:
    """Any game, for anyone: the lobby, spectators and the game page all see every game."""
    try:
        return Game.objects.select_related("created_by").get(pk=game_id)
    except Game.DoesNotExist:
        raise NotFound(f"there is no game #{game_id}") from None


def game_seats(game: Game) -> list[Seat]:
    """Seats in seat order (unseated ones last), using prefetched rows when the caller prefetched them."""
    prefetched = getattr(game, "_prefetched_objects_cache", {})
    seats = list(game.seats.all()) if "seats" in prefetched else list(game.seats.select_related("player"))
    return sorted(seats, key=lambda s: (s.index is None, s.index or 0, s.pk))


def clock_words(game: Game, now: Any = None) -> dict[int, str]:
    """Each seat's time bank in words for the game page ("3 days left, running"), empty for a
    game without time banks. Why public: everyone's clock is shown to everyone, as on BGA and
    lichess; a vacation that stops one is told to the other players anyway."""
    if not clocks.is_banked(game) or game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        return {}
    now = now or timezone.now()
    out: dict[int, str] = {}
    for seat in game.seats.select_related("player").exclude(index__isnull=True):
        assert seat.index is not None
        how = ("stopped: on vacation" if clocks.stopped_by_vacation(game, seat, now)
               else "running" if seat.waiting_since is not None else "stopped")
        out[seat.index] = f"{clocks.words(clocks.left(game, seat, now) or 0)} left, {how}"
    return out


def lobby_seats(game_ids: list[int]) -> dict[int, list[tuple[int | None, str, int | None, str | None]]]:
    """Each game's seats as (index, status, player id, player's display name), in
    :func:`game_seats`' order: one query for a page of games, and no model rows built."""
    rows = Seat.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "id", "index", "status", "player_id", "player__display_name")
    by_game: dict[int, list[tuple[int, int | None, str, int | None, str | None]]] = {g: [] for g in game_ids}
    for game_id, pk, index, status, player_id, name in rows:
        by_game[game_id].append((pk, index, status, player_id, name))
    return {g: [(index, status, player_id, name) for pk, index, status, player_id, name
                in sorted(seats, key=lambda s: (s[1] is None, s[1] or 0, s[0]))]
            for g, seats in by_game.items()}


def movers(game: Game) -> Callable[[int, datetime], str | None]:
    """Who made a seat's move made at a moment: the seat's player then. A moderator's replacement
    (audited ``replace`` with the old holder's address) hands the seat on, so the moves before it
    were the old holder's (found by QA, #22: the log named the newcomer for moves made by the player
    replaced)."""
    in_game = game.seat_names or []  # the seat's name in the game, as the view and the mails say it
    current = {st.index: in_game[st.index] if st.index < len(in_game) else st.player.display_name
               for st in game_seats(game) if st.index is not None and st.player is not None}
    handovers = list(AuditEntry.objects.filter(game=game, action="replace").order_by("created_at", "id")
                     .values_list("created_at", "details"))
    if not handovers:
        return lambda seat, _at: current.get(seat)
    emails = {str(d.get("old")) for _at, d in handovers if (d or {}).get("old")}
    names = dict(Player.objects.filter(email__in=emails).values_list("email", "display_name"))
    by_seat: dict[int, list[tuple[datetime, str | None]]] = {}
    for at, d in handovers:
        if isinstance((d or {}).get("seat"), int):
            by_seat.setdefault(d["seat"], []).append((at, d.get("old_name") or names.get(str(d.get("old")))))

    def name(seat: int, at: datetime) -> str | None:
        for when, old in by_seat.get(seat, ()):
            if at < when:  # the first replacement after the move: its old holder made it
                return old
        return current.get(seat)

    return name


def viewer_seat(game: Game, player: Player | None) -> int | None:
    """The engine seat whose view ``player`` gets: their own once the game is dealt, else None.

    A player who resigned gets the spectator's view (None) until the game is over: what their
    seat learns after they left (the cards autoplay draws, a hand it looks at) is not theirs.
    A replaced player no longer holds the seat, so they are a spectator too.
    """
    if player is None or game.state is None:
        return None
    row = game.seats.filter(player=player, index__isnull=False).values_list("index", "status").first()
    if row is None:
        return None
    index, status = row
    if status == Seat.Status.RESIGNED and game.status != Game.Status.FINISHED:
        return None
    return index


@functools.lru_cache(maxsize=4)
def _game_for_viewer_sql(vendor: str) -> str:
    """The SQL of :func:`get_game_for_viewer`: the game's columns and the viewer's seat (index
    and status) as two scalar subqueries. ``vendor`` keys it per database backend."""
    qn = connection.ops.quote_name
    game, seat = qn(Game._meta.db_table), qn(Seat._meta.db_table)
    columns = ", ".join(f"g.{qn(f.column)}" for f in Game._meta.concrete_fields if f.column)
    mine = (f"FROM {seat} s WHERE s.{qn('game_id')} = g.{qn('id')} AND s.{qn('player_id')} = %s "
            f"AND s.{qn('index')} IS NOT NULL")
    return (f"SELECT {columns}, (SELECT s.{qn('index')} {mine}) AS _viewer_index, "
            f"(SELECT s.{qn('status')} {mine}) AS _viewer_status FROM {game} g WHERE g.{qn('id')} = %s")


def get_game_for_viewer(game_id: int, player: Player | None) -> tuple[Game, int | None]:
    """:func:`get_game` (without its creator) and :func:`viewer_seat` in one query (the seat as
    two subqueries; a player holds at most one seat of a game, ``seat_player_unique``).

    Why: ``GET /view/`` is read more than anything; its game and seat were two round trips.
    Why raw SQL: building and compiling the same ORM query with two subqueries on every
    request cost as much as the rest of the view (issue 12); the text is made once per backend.
    """
    if player is None:
        return get_game(game_id), None
    sql = _game_for_viewer_sql(connection.vendor)
    game = next(iter(Game.objects.raw(sql, [player.pk, player.pk, game_id])), None)
    if game is None:
        raise NotFound(f"there is no game #{game_id}")
    index, status = getattr(game, "_viewer_index"), getattr(game, "_viewer_status")  # noqa: B009 - the subqueries above
    if game.state is None or index is None:
        return game, None
    if status == Seat.Status.RESIGNED and game.status != Game.Status.FINISHED:
        return game, None
    return game, index


def player_seat(game: Game, player: Player | None) -> Seat | None:
    """``player``'s seat row in ``game`` (before or after the start), or None."""
    if player is None:
        return None
    return game.seats.filter(player=player).first()


def waiting_for(game: Game) -> list[int]:
    """Seats whose decision the game waits for (public: the table sees who has not played).

    Read from ``Game.pending_seats``, written with every state (see ``Game.save``): the
    lobby never loads a state for this.
    """
    if game.pending_seats is None or game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        return []
    return list(game.pending_seats)


def is_dealt(game: Game) -> bool:
    """Whether the game has a state (it started), without loading the state."""
    return game.pending_seats is not None


def _require_state(game: Game) -> dict[str, Any]:
    if game.state is None:
        raise Conflict(f"game #{game.pk} has not started yet: it waits for its seats to fill")
    return game.state


@dataclass(frozen=True)
class GameView:
    game: Game
    seat: int | None
    view: dict[str, Any]
    text: str


def game_view(game: Game, seat: int | None) -> GameView:
    """The engine's view for ``seat`` (None: a spectator) and its text rendering."""
    state = _require_state(game)
    rules = rules_for(game)
    view = rules.view(state, seat)
    return GameView(game, seat, view, rules.render_text(view))


def game_view_svg(game: Game, seat: int | None) -> str:
    state = _require_state(game)
    rules = rules_for(game)
    return rules.render_svg(rules.view(state, seat))


def seat_options(game: Game, seat: int) -> list[engine.Option]:
    """The legal choices of ``seat`` now, in the game's presented order (as the mails and the page
    list them: Maretta's as the hand is shown); empty when the game does not wait for it."""
    state = _require_state(game)
    if game.status != Game.Status.RUNNING:
        return []
    rules = rules_for(game)
    return rules.presented(state, seat, rules.options(state, seat))


# ---- the move log ------------------------------------------------------------------------------


def move_log(game: Game) -> QuerySet[Move]:
    """The moves that count, oldest first: moves taken back by an undo are left out (their
    rows stay in the database, append-only, for moderators)."""
    return Move.objects.filter(game=game, undone_at__isnull=True).order_by("number")


def audit_log(game: Game) -> QuerySet[AuditEntry]:
    """The moderation log of one game, newest first (staff only: it names addresses)."""
    return AuditEntry.objects.filter(game=game).select_related("actor").order_by("-id")


def redacted_events(events: Iterable[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """A log row's events as ``seat`` may see them (public ones only for a spectator)."""
    visible = visible_events([Event.from_dict(i18n.told(e)) for e in events], seat)
    return [{"kind": e.kind, "text": e.text, "data": dict(e.data), "reveals": e.reveals} for e in visible]


def visible_move(game: Game, row: Move, seat: int | None) -> dict[str, Any] | None:
    """The move itself, as the viewer may see it.

    A seat's own moves are always shown. Other seats' moves can carry hidden
    choices (a card played face down), so they appear only once the game is
    finished, when the seed is revealed and the whole log is public for audits.
    """
    if game.status == Game.Status.FINISHED or (seat is not None and row.seat == seat):
        return row.move
    return None


def game_export(game_id: int) -> dict[str, Any]:
    """A finished game in the standard ``pbem-game/1`` JSON that ``python -m engine replay`` reads:
    players, options, seed and every move that counts, in order. Only once it is finished:
    before that the seed and other seats' moves are secret."""
    game = get_game(game_id)
    if game.status != Game.Status.FINISHED or game.state is None:
        raise Conflict(f"game #{game.pk} is not finished; it can be exported once it is")
    if game.archive is not None and game.campaign is not None and game.campaign.status != "finished":
        # Why: the archive it was set up from holds the story still to come (a story pile's order)
        raise Conflict(f"game #{game.pk} is game {game.campaign_number} of campaign #{game.campaign_id}, which goes "
                       "on: its export (with the archive it was set up from, which holds the story still to "
                       "come) waits for the campaign's end")
    return {
        "format": "pbem-game/1",
        "game": game.pk,
        "rules": game.rules,
        "title": game.title,
        # (a game of an older release says it, as its replay reads it: Rules.replay_options)
        "options": rules_for(game).replay_options(game.options or {}, game.state),
        "seed": game.seed,
        "seed_hash": game.seed_hash,
        # Why the names from the state: setup was called with them (a replacement renames no seat).
        "players": [{"seat": i, "name": name} for i, name in enumerate(game.state["players"])],
        "moves": [{"number": m.number, "seat": m.seat, "move": m.move, "source": m.source}
                  for m in move_log(game)],
        "outcome": game.outcome,
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
        "archive": game.archive,
    }


# ---- the catalogue -------------------------------------------------------------------------------


def rules_catalog() -> list[Rules]:
    """Every registered game whose module is installed, by name."""
    out = []
    for name in engine.names():
        try:
            out.append(engine.get(name))
        except ModuleNotFoundError:
            # Why: a game listed in the registry but not shipped in this build is
            # simply not offered; it must not break the lobby.
            continue
    return out


def rules_by_name(name: str) -> Rules:
    try:
        return engine.get(name)
    except (engine.UnknownGame, ModuleNotFoundError):
        known = ", ".join(r.name for r in rules_catalog())
        raise NotFound(f"no game called {name!r}; the games are: {known}") from None


def rules_catalogue(name: str) -> dict[str, Any]:
    """The game's content for a front end (``Rules.catalogue``, versioned); NotFound when it has none."""
    rules = rules_by_name(name)
    catalogue = rules.catalogue()
    if catalogue is None:
        raise NotFound(f"{rules.title} has no catalogue: its views and options name no content beyond their labels")
    return catalogue


def option_details(game: Game, seat: int, options: list[Any]) -> list[dict[str, Any] | None]:
    """What each option does, in the terms of the game's catalogue (None for a game that says nothing)."""
    rules = engine.get(game.rules)
    return [rules.option_details(game.state or {}, seat, o) for o in options]


# ---- move requests ----------------------------------------------------------------------------------


def get_move_request(request_id: int, player: Player) -> MoveRequest:
    """A move request, only for the player who posted it."""
    req = MoveRequest.objects.filter(pk=request_id, player=player).first()
    if req is None:
        raise NotFound(f"there is no move request #{request_id} of yours")
    return req


def move_request_decided(request_id: int) -> bool:
    """Whether a worker has decided this move request (one small query: what an async wait polls)."""
    return not MoveRequest.objects.filter(pk=request_id, status=MoveRequest.Status.PENDING).exists()


def wait_for_decision(request_id: int, timeout: float, poll: float = 0.05) -> MoveRequest:
    """Re-read a move request until a worker has decided it or ``timeout`` seconds passed."""
    deadline = time.monotonic() + max(timeout, 0.0)
    req = MoveRequest.objects.get(pk=request_id)
    while req.status == MoveRequest.Status.PENDING and time.monotonic() < deadline:
        time.sleep(poll)
        poll = min(poll * 1.5, 0.5)
        req = MoveRequest.objects.get(pk=request_id)
    return req


# ---- moderation ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class LateSeat:
    seat: int
    name: str
    email: str
    #: When the game started waiting for this seat (its last move, or the game's start).
    waiting_since: Any
    deadline_at: Any
    reminded: bool
    on_vacation_until: Any
    extensions_used: int
    status: str
    #: With time banks: the seconds left on the seat's clock, and the clock in words ("2 days
    #: left, stopped: on vacation"); None and "" for a game with a fixed deadline.
    bank_left_seconds: int | None = None
    clock: str = ""


def late_seats(game: Game, now: Any = None) -> list[LateSeat]:
    """The seats the game waits on, oldest wait first, with their deadline and absence."""
    now = now or timezone.now()
    if game.state is None or game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        return []
    rules = engine.get(game.rules)
    pending = rules.pending(game.state)
    last = Move.objects.filter(game=game, undone_at__isnull=True).order_by("-number").first()
    since = last.created_at if last is not None else game.started_at
    words = clock_words(game, now)
    out = []
    for seat in game.seats.select_related("player").filter(index__in=pending).order_by("index"):
        assert seat.index is not None
        player = seat.player
        back = seat.away_until  # their vacation, or an absence a moderator entered for this game
        away = back if back is not None and back > now else None
        # with time banks each seat's deadline is where its own clock runs out
        own = clocks.end_of(game, seat) if game.status == Game.Status.RUNNING else None
        out.append(LateSeat(seat.index, rules.seat_name(game.state, seat.index), player.email if player else "",
                            since, own or game.deadline_at, game.reminded_at is not None, away, seat.extensions_used,
                            seat.status, clocks.left(game, seat, now), words.get(seat.index, "")))
    return sorted(out, key=lambda s: (s.waiting_since or now, s.seat))


def overdue_games(now: Any = None) -> QuerySet[Game]:
    """Games a moderator should look at, for the admin's list: running ones past a deadline,
    waiting on a moderator or with a seat open, and paused ones (only a moderator resumes them)."""
    now = now or timezone.now()
    running = Q(status=Game.Status.RUNNING) & (
        Q(deadline_at__lte=now) | Q(moderator_told_at__isnull=False) | Q(seats__status=Seat.Status.OPEN))
    return Game.objects.filter(running | Q(status=Game.Status.PAUSED)).distinct()


def recent_moves(game: Game, limit: int = 20) -> list[Move]:
    return list(Move.objects.filter(game=game, undone_at__isnull=True).order_by("-number")[:limit])[::-1]


@dataclass(frozen=True)
class GameCheck:
    """What replaying one stored game with the running engine found (``problems`` empty: all well)."""

    game_id: int
    rules: str
    moves: int
    problems: tuple[str, ...]


def check_stored_game(game: Game) -> GameCheck:
    """Replay the game's live log with the running engine, compare with the stored state, and
    read the stored state as the service will (every seat's view and options, who is pending).

    For an operator before an engine upgrade (a new build, the compiled rules: engine/compiled.py
    checks its types at run time, and a state written long ago may hold what today's engine no
    longer writes). Read-only: nothing is saved, whatever it finds.
    """
    problems: list[str] = []
    rows = list(live_moves(game))
    if game.state is None:
        return GameCheck(game.pk, game.rules, 0, ())
    rules = rules_for(game)
    # A state stored by an older release is compared as this engine reads it: upgraded to its
    # format (Rules.upgrade; on a copy, nothing is saved), as the rules do when they first read it.
    state = copy.deepcopy(game.state)
    try:
        rules.upgrade(state)
    except Exception as exc:  # noqa: BLE001 - any failure is the finding, reported with its kind
        problems.append(f"its stored state cannot be upgraded: {type(exc).__name__}: {exc}")
        return GameCheck(game.pk, game.rules, len(rows), tuple(problems))
    try:
        replayed = replay_state(game, rows)
    except Exception as exc:  # noqa: BLE001 - any failure is the finding, reported with its kind
        problems.append(f"its log does not replay: {type(exc).__name__}: {exc}")
    else:
        if replayed != state:
            differ = sorted(k for k in set(replayed) | set(state) if replayed.get(k) != state.get(k))
            problems.append(f"the stored state differs from the replay of its {len(rows)} moves "
                            f"(keys: {', '.join(differ[:8])}{' ...' if len(differ) > 8 else ''})")
    try:
        rules.pending(state)
        rules.outcome(state)
        for seat in [*range(len(state["players"])), None]:
            rules.view(state, seat)
            if seat is not None:
                rules.options(state, seat)
    except Exception as exc:  # noqa: BLE001
        problems.append(f"the engine fails on its stored state: {type(exc).__name__}: {exc}")
    return GameCheck(game.pk, game.rules, len(rows), tuple(problems))


def check_stored_games(game_ids: Iterable[int] = ()) -> Iterable[GameCheck]:
    """check_stored_game for the given games, or every game that has started, oldest first."""
    games = Game.objects.exclude(state__isnull=True).order_by("pk")
    wanted = list(game_ids)
    if wanted:
        games = games.filter(pk__in=wanted)
    for game in games.iterator(chunk_size=50):
        yield check_stored_game(game)
