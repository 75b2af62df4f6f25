"""Time banks (issue 24): a clock per player, as BGA and lichess keep, instead of a fixed
deadline per move.

A game with ``Game.time_bank_hours`` set gives each seat that many hours for the whole game
(``Seat.bank_seconds``). A seat's clock runs while the game waits on it (``Seat.waiting_since``)
and stops when it no longer does; each move it makes adds ``Game.time_bank_increment_hours``.
A vacation stops the seat's own clock while it runs (from the clock's start or the vacation's,
to the vacation's end, within the game's vacation cap and absence limits),
and nobody else's: what it stopped is charged to the seat's allowance as the clock is charged.
Why no record of when a vacation began: setting or ending one charges the clock up to that
moment first (:func:`checkpoint`), so a clock that runs from ``waiting_since`` under a vacation
is stopped from ``waiting_since`` on. The game's deadline is the earliest moment a waiting
seat's bank runs out; the deadline sweep (warning, reminder, no-move policy) works on it, for the
seats whose own clock ran out (:func:`late`). A pause stops every clock. Why a
module of its own: the services restart the deadline after every change and moderation pauses
and resumes it; both call :func:`settle` and neither may import the other.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta
from typing import Any

from pbem.games import wording
from pbem.games.models import AuditEntry, Game, Move, Seat

# ---- a vacation's hold on a clock ---------------------------------------------------------------


def _ceil_hours(seconds: int) -> int:
    return -(-max(0, seconds) // 3600)


def clock_hold(seat: Seat, since: datetime) -> dict[str, Any] | None:
    """The seat's clock hold that is still the same absence at ``since`` (its vacation had not
    ended then); None when there is none (a vacation that ended before is a new absence)."""
    hold = seat.vacation_hold
    if not hold or not hold.get("clock") or datetime.fromisoformat(hold["until"]) <= since:
        return None
    return hold


def clock_allowance(game: Game, seat: Seat, since: datetime) -> int:
    """Seconds a vacation may still stop the seat's clock from ``since``: what is left of the
    game's vacation cap, of this absence's longest (``absence_max_days``), and none when the
    seat has taken all its absences and this is a new one."""
    hold = clock_hold(seat, since)
    if hold is None and game.absences_allowed is not None and seat.absences_taken >= game.absences_allowed:
        return 0
    left = game.vacation_cap_days * 86400 - seat.vacation_hours_used * 3600
    if game.absence_max_days is not None:
        left = min(left, game.absence_max_days * 86400 - int((hold or {}).get("seconds", 0)))
    return max(0, left)


def charge_clock_hold(seat: Seat, stopped: int, since: datetime, until: datetime) -> None:
    """A vacation stopped the seat's clock for ``stopped`` seconds from ``since``: the hold (and
    the seat's absences, when it is a new one) and the allowance spent (whole hours, rounded up)
    record it. The caller saves the seat (``CLOCK_FIELDS``)."""
    hold = clock_hold(seat, since)
    if hold is None:
        seat.absences_taken += 1
    before = int((hold or {}).get("seconds", 0))
    seat.vacation_hours_used += _ceil_hours(before + stopped) - _ceil_hours(before)
    seat.vacation_hold = {"clock": True, "until": until.isoformat(), "seconds": before + stopped}


#: The seat's fields a clock's charge writes.
CLOCK_FIELDS = ["bank_seconds", "waiting_since", "vacation_hold", "vacation_hours_used", "absences_taken"]


def end_clock_hold(game: Game, seat: Seat) -> None:
    """The player is back (``vacation off``): the clock hold ends (the caller charged the clock up
    to now first, so it holds exactly what stopped the clock; nothing is given back)."""
    hold = seat.vacation_hold
    if not hold or not hold.get("clock"):
        return
    seat.vacation_hold = None
    seat.save(update_fields=["vacation_hold"])
    AuditEntry.objects.create(game=game, actor=None, action="vacation-end",
                              details={"seat": seat.index, "used_hours": _ceil_hours(int(hold.get("seconds", 0))),
                                       "refunded_hours": 0, "clock": True})



# ---- the clocks -----------------------------------------------------------------------------------


def is_banked(game: Game) -> bool:
    return game.time_bank_hours is not None


def _bank(game: Game, seat: Seat) -> int:
    if seat.bank_seconds is None:
        return int((game.time_bank_hours or 0) * 3600)
    return seat.bank_seconds


def _seats(game: Game) -> list[Seat]:
    return list(game.seats.exclude(index__isnull=True).select_related("player").order_by("index"))


def _stoppable(game: Game, seat: Seat, since: datetime) -> int:
    """Seconds from ``since`` (when its clock started) that the seat's vacation stops its clock."""
    until = seat.away_until  # their vacation, or an absence a moderator entered for this game
    if until is None or until <= since:
        return 0
    return min(int((until - since).total_seconds()), clock_allowance(game, seat, since))


def _run(game: Game, seat: Seat, now: datetime) -> tuple[int, int]:
    """Since the seat's clock started: (the seconds it ran, the seconds a vacation stopped it)."""
    assert seat.waiting_since is not None
    elapsed = max(0, int((now - seat.waiting_since).total_seconds()))
    stopped = min(elapsed, _stoppable(game, seat, seat.waiting_since))
    return elapsed - stopped, stopped


def _charge(game: Game, seat: Seat, now: datetime) -> int:
    """The seconds the seat's clock ran until now; what a vacation stopped goes to its allowance."""
    ran, stopped = _run(game, seat, now)
    away = seat.away_until
    if stopped and away is not None:
        assert seat.waiting_since is not None
        charge_clock_hold(seat, stopped, seat.waiting_since, away)
    return ran


def _end(game: Game, seat: Seat, bank: int) -> datetime:
    """When the running clock of the seat runs out (a vacation's stop pushes it back)."""
    assert seat.waiting_since is not None
    return seat.waiting_since + timedelta(seconds=bank + _stoppable(game, seat, seat.waiting_since))


def settle(game: Game, pending: Collection[int], now: datetime, *, stop: bool = False,
           movers: Collection[int] = ()) -> datetime | None:
    """Charge the clocks of the seats that moved or are no longer waited on (every clock when
    ``stop``), start those of the seats now waited on, and return the game's deadline (None when
    stopped or nobody waits). A mover waited on again (its turn goes on, or a new round) starts
    a new clock from now with what it has left plus the increment."""
    increment = int((game.time_bank_increment_hours or 0) * 3600)
    ends: list[datetime] = []
    for seat in _seats(game):
        waiting = seat.index in pending and not stop
        bank = _bank(game, seat)
        if seat.waiting_since is not None and (not waiting or seat.index in movers):
            spent = _charge(game, seat, now)
            bank = max(0, bank - spent) + (increment if seat.index in movers and not stop else 0)
            seat.bank_seconds, seat.waiting_since = bank, (now if waiting else None)
            seat.save(update_fields=CLOCK_FIELDS)
        elif waiting and seat.waiting_since is None:
            seat.bank_seconds, seat.waiting_since = bank, now
            seat.save(update_fields=["bank_seconds", "waiting_since"])
        if waiting and seat.waiting_since is not None and seat.status != Seat.Status.OPEN:
            ends.append(_end(game, seat, bank))  # an open seat's clock is the leaver's: no deadline
    return min(ends) if ends else None


def checkpoint(game: Game, seats: Collection[int] | None, now: datetime) -> None:
    """Charge the running clocks of ``seats`` (None: all) up to now and start them again from now,
    before something changes how they run from now on (a vacation set or ended, the vacation
    rules changed); the caller settles the game's deadline afterwards."""
    if not is_banked(game):
        return
    for seat in _seats(game):
        if seat.waiting_since is None or (seats is not None and seat.index not in seats):
            continue
        seat.bank_seconds = max(0, _bank(game, seat) - _charge(game, seat, now))
        seat.waiting_since = now
        seat.save(update_fields=CLOCK_FIELDS)


def give(game: Game, seats: Collection[int], seconds: int, now: datetime) -> None:
    """Add ``seconds`` to the banks of ``seats`` (an extension), counted from now: a clock that ran
    out is charged up to now first, so the time given is time from now."""
    checkpoint(game, seats, now)
    for seat in _seats(game):
        if seat.index in seats:
            seat.bank_seconds = _bank(game, seat) + seconds
            seat.save(update_fields=["bank_seconds"])


def still_reminded(game: Game, pending: Collection[int], now: datetime, but: Collection[int] = ()) -> bool:
    """Whether a seat the game waits on (not in ``but``) ran out of time by the game's reminder, so
    the reminder's grace (the game's deadline then) still runs for it."""
    if game.reminded_at is None:
        return False
    seats = [s for s in _seats(game) if s.index in pending and s.index not in but and s.status != Seat.Status.OPEN]
    return bool(late(game, seats, game.reminded_at))


def late(game: Game, seats: Collection[Seat], by: datetime) -> list[Seat]:
    """Of ``seats``, those whose running clock runs out by ``by`` (a vacation's stop counted)."""
    out = []
    for seat in seats:
        if seat.waiting_since is not None and _end(game, seat, _bank(game, seat)) <= by:
            out.append(seat)
    return out


def end_of(game: Game, seat: Seat) -> datetime | None:
    """When the seat's running clock runs out (None: no time banks, or its clock is stopped)."""
    if not is_banked(game) or seat.waiting_since is None:
        return None
    return _end(game, seat, _bank(game, seat))


def stopped_by_vacation(game: Game, seat: Seat, now: datetime) -> bool:
    """Whether the seat's clock would run now but a vacation stops it."""
    if not is_banked(game) or seat.waiting_since is None:
        return False
    return _stoppable(game, seat, seat.waiting_since) > int((now - seat.waiting_since).total_seconds())


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
        bank -= _run(game, seat, now)[0]
    return max(0, bank)


def snapshot(game: Game, now: datetime) -> dict[str, int] | None:
    """What each seat's clock has left now, kept with a batch of moves (``Move.banks_before``)."""
    if not is_banked(game):
        return None
    return {str(seat.index): left(game, seat, now) or 0 for seat in _seats(game)}


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


def _given_since(game: Game, since: datetime) -> dict[str, int]:
    """The seconds extensions gave each seat's bank after ``since`` (the audit log: a player's
    ``extension``, a moderator's ``extend`` with the seats it gave to)."""
    given: dict[str, int] = {}
    for entry in AuditEntry.objects.filter(game=game, action__in=["extend", "extension"], created_at__gt=since):
        seats = entry.details.get("seats") if entry.action == "extend" else [entry.details.get("seat")]
        for seat in seats or []:
            given[str(seat)] = given.get(str(seat), 0) + int(entry.details.get("hours") or 0) * 3600
    return given


def take_back(game: Game, undone: Sequence[Move], now: datetime, seats: Collection[int] | None = None) -> None:
    """Put the banks of ``seats`` (None: every seat) back as they were when the first of the
    ``undone`` moves was made (an undo, a rollback): that batch's snapshot (``Move.banks_before``).

    Moves made before snapshots were kept (before migration 0018) have none. Then, from the
    first undone batch that has one (or each clock as it stands now, when none has), each seat
    loses the increment each earlier undone batch earned it as a mover: the increments of the
    moves taken back go with them, and the time the players spent on those moves stays spent
    (it is recorded nowhere). Hours given by extensions after the snapshot stay given. Every
    clock is stopped; the caller's settle starts those waited on."""
    if not is_banked(game) or not undone:
        return
    batches: list[list[Move]] = []
    for row in sorted(undone, key=lambda r: r.number):
        if batches and batches[-1][0].version == row.version:
            batches[-1].append(row)
        else:
            batches.append([row])
    kept = next((i for i, b in enumerate(batches) if b[0].banks_before is not None), None)
    banks = dict(batches[kept][0].banks_before or {}) if kept is not None else snapshot(game, now) or {}
    if kept is not None:  # hours given since that snapshot (extensions) are not taken back
        for seat, seconds in _given_since(game, batches[kept][0].created_at).items():
            if seat in banks:
                banks[seat] = int(banks[seat]) + seconds
    increment = int((game.time_bank_increment_hours or 0) * 3600)
    for batch in batches[:kept]:
        for mover in {r.seat for r in batch}:
            if str(mover) in banks:
                banks[str(mover)] = max(0, int(banks[str(mover)]) - increment)
    restore(game, banks, seats)


def bank_words(game: Game, seat: Seat, now: datetime) -> str | None:
    """The seat's own deadline in a game with time banks, for its mails and its page (None: no
    time banks): what is left, and when it runs out if the clock runs; the game's deadline only
    once the bank is empty (the reminder's grace), since the others' clocks are not the reader's."""
    bank = left(game, seat, now)
    if bank is None:
        return None
    text = f"your time bank: {words(bank)} left for the whole game"
    end = end_of(game, seat)
    if stopped_by_vacation(game, seat, now):
        return text + " (stopped while you are on vacation)"
    if bank == 0 and game.deadline_at is not None:
        return text + f" (the game's deadline: {wording.deadline_words(game.deadline_at, now)})"
    if end is not None:
        return text + f", until {wording.when(end)} if you do not move"
    return text
