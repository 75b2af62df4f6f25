"""Time banks (issue 24): a clock per player, as BGA and lichess keep, instead of a fixed
deadline per move.

A game with ``Game.time_bank_hours`` set gives each seat that many hours for the whole game
(``Seat.bank_seconds``). A seat's clock runs while the game waits on it (``Seat.waiting_since``)
and stops when it no longer does; each move it makes adds ``Game.time_bank_increment_hours``.
The game's deadline is the earliest moment a waiting seat's bank runs out, so the deadline sweep
(warning, reminder, no-move policy) works unchanged on it. A pause stops every clock. Why a
module of its own: the services restart the deadline after every change and moderation pauses
and resumes it; both call :func:`settle` and neither may import the other.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from pbem.games.models import Game, Seat


def is_banked(game: Game) -> bool:
    return game.time_bank_hours is not None


def _bank(game: Game, seat: Seat) -> int:
    if seat.bank_seconds is None:
        return int((game.time_bank_hours or 0) * 3600)
    return seat.bank_seconds


def settle(game: Game, pending: Collection[int], now: datetime, *, stop: bool = False,
           movers: Collection[int] = ()) -> datetime | None:
    """Charge the clocks of the seats that moved or are no longer waited on (every clock when
    ``stop``), start those of the seats now waited on, and return the game's deadline (None when
    stopped or nobody waits). A mover waited on again (its turn goes on, or a new round) starts
    a new clock from now with what it has left plus the increment."""
    increment = int((game.time_bank_increment_hours or 0) * 3600)
    ends: list[datetime] = []
    for seat in game.seats.exclude(index__isnull=True):
        waiting = seat.index in pending and not stop
        bank = _bank(game, seat)
        if seat.waiting_since is not None and (not waiting or seat.index in movers):
            spent = int((now - seat.waiting_since).total_seconds())
            bank = max(0, bank - spent) + (increment if seat.index in movers and not stop else 0)
            seat.bank_seconds, seat.waiting_since = bank, (now if waiting else None)
            seat.save(update_fields=["bank_seconds", "waiting_since"])
        elif waiting and seat.waiting_since is None:
            seat.bank_seconds, seat.waiting_since = bank, now
            seat.save(update_fields=["bank_seconds", "waiting_since"])
        if waiting and seat.waiting_since is not None:
            ends.append(seat.waiting_since + timedelta(seconds=bank))
    return min(ends) if ends else None


def words(seconds: int) -> str:
    """'9 days 4 hours', '3 hours', 'less than an hour'."""
    hours = max(0, seconds) // 3600
    if hours == 0:
        return "less than an hour"
    days, hours = divmod(hours, 24)
    parts = [f"{days} day{'s' if days != 1 else ''}"] if days else []
    parts += [f"{hours} hour{'s' if hours != 1 else ''}"] if hours or not days else []
    return " ".join(parts)


def left(game: Game, seat: Seat, now: datetime) -> int | None:
    """The seconds left on the seat's clock now (None: the game keeps no time banks)."""
    if not is_banked(game):
        return None
    bank = _bank(game, seat)
    if seat.waiting_since is not None:
        bank -= int((now - seat.waiting_since).total_seconds())
    return max(0, bank)


def snapshot(game: Game, now: datetime) -> dict[str, int] | None:
    """What each seat's clock has left now, kept with a batch of moves (``Move.banks_before``)."""
    if not is_banked(game):
        return None
    return {str(seat.index): left(game, seat, now) or 0 for seat in game.seats.exclude(index__isnull=True)}


def restore(game: Game, banks: dict[str, int] | None, seats: Collection[int] | None = None) -> None:
    """Put the banks back as a snapshot had them, every clock stopped (the caller's settle starts
    those of the seats waited on from now). Nothing for a game without banks, or moves made
    before snapshots were kept."""
    if not is_banked(game) or not banks:
        return
    for seat in game.seats.exclude(index__isnull=True):
        if str(seat.index) in banks and (seats is None or seat.index in seats):
            seat.bank_seconds, seat.waiting_since = int(banks[str(seat.index)]), None
            seat.save(update_fields=["bank_seconds", "waiting_since"])
