"""A vacation's hold on a seat's deadline, shared by the moves (services) and moderation.

A vacation stops only the clock of a seat the game waits on, and only when the game waits on
nobody else (moderation_deadlines._postpone_for_vacation moves the deadline then and charges the
seat the hours it moved). The hold is kept on the seat (``Seat.vacation_hold``) so that what was not used
is given back: when the player moves during the hold, or comes back early (``vacation off``).
Why a module of its own: the services (a move ends a hold) and moderation (a vacation starts
and ends one) both need it, and neither may import the other's way round.

In a game with time banks (pbem.games.clocks) a vacation holds the seat's own clock instead:
the hold is ``{"clock": True, "until": the vacation's end, "seconds": how long it stopped the
clock}``, charged as the clock runs (``clocks.charge_clock_hold``), so only the time that actually
stopped the clock is spent, and nothing is left to give back when the player returns.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone
from django.utils.translation import gettext

from pbem.games.models import AuditEntry, Game, Seat
from pbem.mail import outbox

#: A vacation that covers a deadline moves it to the vacation's end plus this much.
VACATION_GRACE = timedelta(hours=24)


def _hours(delta: timedelta) -> int:
    return max(0, int(delta.total_seconds() // 3600))


def start_hold(seat: Seat, before: datetime, until: datetime, hours: int) -> None:
    """Record that the seat's vacation moved the deadline from ``before`` to ``until`` (a longer
    vacation during a hold keeps the first ``before`` and adds its hours)."""
    hold = seat.vacation_hold or {}
    if not hold:
        seat.absences_taken += 1
    seat.vacation_hold = {"from": hold.get("from", before.isoformat()), "until": until.isoformat(),
                          "hours": int(hold.get("hours", 0)) + hours}
    seat.vacation_hours_used += hours
    seat.save(update_fields=["vacation_hold", "vacation_hours_used", "absences_taken"])


def end_hold(game: Game, seat: Seat, now: datetime, *, back: bool) -> int:
    """End the seat's hold, if any, and give back the hours it did not use. Returns them.

    ``back`` (the player ended the vacation): the seat gets the later of its deadline before the
    hold and now plus a day, if the deadline is still the one the hold set (the caller saves the
    game). A move ends the hold too (``back`` False): the move restarts the deadline anyway, so
    the hold used only the time up to the move."""
    hold = seat.vacation_hold
    if not hold or hold.get("clock"):  # a clock hold lasts as long as the vacation (clocks.end_clock_hold)
        return 0
    before = datetime.fromisoformat(hold["from"])
    until = datetime.fromisoformat(hold["until"])
    end = max(before, now + VACATION_GRACE) if back else max(before, now)
    end = min(end, until)
    used = min(int(hold["hours"]), _hours(end - before))
    refund = int(hold["hours"]) - used
    if back and game.deadline_at == until:
        game.deadline_at = before + timedelta(hours=used)
        game.warned_at = None
        game.reminded_at = None
    seat.vacation_hold = None
    seat.vacation_hours_used = max(0, seat.vacation_hours_used - refund)
    seat.save(update_fields=["vacation_hold", "vacation_hours_used"])
    AuditEntry.objects.create(game=game, actor=None, action="vacation-end",
                              details={"seat": seat.index, "used_hours": used, "refunded_hours": refund,
                                       "deadline": game.deadline_at.isoformat() if game.deadline_at else None})
    return refund


def back_in_play(game: Game, seat: Seat) -> None:
    """A player who moves is present: a vacation's hold on their deadline ends (what it did not
    use is given back), and their seat, if it was offered for a replacement, is theirs again
    (the others are told it is no longer open)."""
    end_hold(game, seat, timezone.now(), back=False)
    if seat.status != Seat.Status.OPEN:
        return
    seat.status = Seat.Status.JOINED
    seat.save(update_fields=["status"])
    assert game.state is not None and seat.index is not None
    name = game.state["players"][seat.index]
    AuditEntry.objects.create(game=game, actor=seat.player, action="seat-closed", details={"seat": seat.index})
    others = [s.index for s in game.seats.exclude(pk=seat.pk) if s.index is not None]
    outbox.queue_notice(game, lambda: gettext("%(name)s moved in game #%(game)s, so %(name)s's seat is no longer "
                                              "open for a replacement.") % {"name": name, "game": game.pk},
                        seats=others)
