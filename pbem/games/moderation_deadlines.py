"""Deadlines and absence (docs/moderation.md): a moderator's extension, a player's own (``extend``), a
player's vacation (or a moderator's absence for one game), and the deadline sweep the beat schedule runs,
with the game's no-move policy at the second deadline. Each service runs under the game's row lock, writes
an audit entry and tells the players in the same transaction; the doors call them through
pbem.games.moderation.

The deadline sweep, in order, for a running game whose deadline is near or past:

1. a late seat whose player is on vacation: the deadline moves to the end of the
   vacation plus a day, as long as the seat's vacation allowance in this game lasts;
2. ``PBEM_WARN_HOURS`` before the deadline: "N hours left" to the seats to move;
3. at the deadline: a reminder, and one more period;
4. at the second deadline: the game's no-move policy (wait, default move, bot, open seat).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from pbem.games import absence, clocks, language
from pbem.games.absence import VACATION_GRACE
from pbem.games.models import AuditEntry, Game, MailAddress, Player, Seat, Source
from pbem.games.moderation_base import _name, _reason, moderator_emails, policy_text, when_text
from pbem.games.moderation_seats import _offer_to_standby
from pbem.games.services import (
    Applied,
    Conflict,
    Forbidden,
    ServiceError,
    _autoplay,
    _finish_if_over,
    _hand_on_campaign,
    _record,
    _reset_deadline,
    access_game_for_update,
    access_seat,
    do_log,
    rules_for,
)
from pbem.mail import due, outbox

# ---- deadlines: moderators, players, vacations -------------------------------------------------


def warn_hours(game: Game) -> float:
    """How long before its deadline a seat hears "N hours left" (half a short period)."""
    return float(min(settings.PBEM_WARN_HOURS, game.deadline_hours / 2))


@transaction.atomic
def do_extend_deadline(game_id: int, moderator: Player | None, hours: int, reason: str) -> Game:
    reason = _reason(reason)
    if not 1 <= hours <= 24 * 90:
        raise ServiceError(gettext("an extension is between 1 hour and 90 days"))
    game = access_game_for_update(game_id)
    if game.status != Game.Status.RUNNING or game.deadline_at is None:
        raise Conflict(gettext("game #%(game)s has no running deadline") % {"game": game.pk})
    if clocks.is_banked(game) and game.state is not None:
        # Why the banks: the deadline is where the first clock runs out, worked out again at every
        # move; the hours go into the banks of the seats the game waits on, counted from now.
        waiting = rules_for(game).pending(game.state)
        clocks.give(game, waiting, hours * 3600, timezone.now())
        _restart_clocks(game, waiting)
        names = ", ".join(_name(game, i) for i in waiting)
        do_log(game, moderator, "extend", {"hours": hours, "reason": reason, "seats": list(waiting),
                                           "until": game.deadline_at.isoformat() if game.deadline_at else None})
        outbox.queue_notice(game, lambda: gettext(
            "A moderator gave %(names)s %(hours)s more hours on their time bank in game #%(game)s: %(reason)s") % {
                "names": names, "hours": hours, "game": game.pk, "reason": reason})
        return game
    game.deadline_at = max(game.deadline_at, timezone.now()) + timedelta(hours=hours)
    game.warned_at = None
    game.save(update_fields=["deadline_at", "warned_at"])
    do_log(game, moderator, "extend", {"hours": hours, "reason": reason, "until": game.deadline_at.isoformat()})
    until = game.deadline_at
    outbox.queue_notice(game, lambda: gettext(
        "A moderator extended the deadline of game #%(game)s by %(hours)s hours, until %(when)s: %(reason)s") % {
            "game": game.pk, "hours": hours, "when": when_text(until), "reason": reason})
    return game


def _restart_clocks(game: Game, pending: Collection[int]) -> None:
    """After time was given (an extension): the game's deadline is where the first clock runs out
    again, and the warnings and the reminder start over, unless a seat reminded is still out of time."""
    if game.reminded_at is not None and clocks.still_reminded(game, pending, timezone.now()):
        clocks.settle(game, pending, timezone.now())
        return
    game.deadline_at = clocks.settle(game, pending, timezone.now())
    game.reminded_at = game.warned_at = game.moderator_told_at = None
    game.save(update_fields=["deadline_at", "reminded_at", "warned_at", "moderator_told_at"])


@dataclass(frozen=True)
class Extension:
    game: Game
    until: datetime
    left: int


@transaction.atomic
def do_request_extension(game_id: int, player: Player, *, via: str = "") -> Extension:
    """A player asks for more time on their own turn (``extend``), a few times per game."""
    game = access_game_for_update(game_id)
    seat = access_seat(game, player)
    if game.status != Game.Status.RUNNING or game.deadline_at is None or game.state is None:
        raise Conflict(gettext("game #%(game)s has no running deadline") % {"game": game.pk})
    if seat.index not in rules_for(game).pending(game.state):
        raise Conflict(gettext("the game is not waiting for you, so your deadline does not run"))
    if seat.extensions_used >= game.extensions_allowed:
        raise Forbidden(gettext("you have used all %(game_extensions_allowed)s extensions of game #%(game)s; a "
                                "moderator can still give more time")
                        % {"game_extensions_allowed": game.extensions_allowed, "game": game.pk})
    seat.extensions_used += 1
    seat.save(update_fields=["extensions_used"])
    if clocks.is_banked(game):  # the time goes into the seat's bank; the deadline is the first clock to run out
        clocks.give(game, [seat.index or 0], game.extension_hours * 3600, timezone.now())
        _restart_clocks(game, rules_for(game).pending(game.state))
        seat.refresh_from_db()
    else:
        game.deadline_at = max(game.deadline_at, timezone.now()) + timedelta(hours=game.extension_hours)
        game.warned_at = None
        game.save(update_fields=["deadline_at", "warned_at"])
    left = game.extensions_allowed - seat.extensions_used
    until = clocks.end_of(game, seat) or game.deadline_at  # with time banks: the seat's own clock
    assert until is not None
    do_log(game, player, "extension", {"seat": seat.index, "hours": game.extension_hours, "via": via,
                                       "until": until.isoformat()})
    others = [s.index for s in game.seats.exclude(pk=seat.pk) if s.index is not None]
    said = {"name": _name(game, seat.index or 0), "hours": game.extension_hours, "game": game.pk}
    banked = clocks.is_banked(game)
    outbox.queue_notice(game, lambda: (gettext(
        "%(name)s took %(hours)s more hours in game #%(game)s; %(name)s's time bank runs out now %(when)s.")
        if banked else gettext("%(name)s took %(hours)s more hours in game #%(game)s; the deadline is now %(when)s."))
        % {**said, "when": when_text(until)}, seats=others)
    return Extension(game, until, left)


@transaction.atomic
def do_set_vacation(player: Player, until: datetime | None, *, via: str = "") -> list[Game]:
    """Start (or end, with None) a player's vacation. Their running games are told; a game
    that waits on them now moves its deadline at once (within the game's allowance)."""
    now = timezone.now()
    if until is not None and until <= now:
        raise ServiceError(gettext("a vacation must end in the future"))
    if until is not None and until > now + timedelta(days=365):
        raise ServiceError(gettext("a vacation can last a year at most"))
    seat_ids = list(player.seats.filter(game__status=Game.Status.RUNNING, status__in=[
        Seat.Status.JOINED, Seat.Status.OPEN]).order_by("game_id").values_list("pk", flat=True))
    for seat_id in seat_ids:  # time banks: each clock charged under the vacation as it was till now
        seat = Seat.objects.get(pk=seat_id)
        clocks.checkpoint(access_game_for_update(seat.game_id), [seat.index or 0], now)
    player.vacation_until = until
    player.save(update_fields=["vacation_until"])
    if until is None:  # back: an absence a moderator entered for one game ends with it
        Seat.objects.filter(pk__in=seat_ids).update(absent_until=None)
    games: list[Game] = []
    for seat_id in seat_ids:
        seat = Seat.objects.select_related("player").get(pk=seat_id)
        game = access_game_for_update(seat.game_id)
        seat.refresh_from_db()
        games.append(game)
        do_log(game, player, "vacation", {"seat": seat.index, "until": until.isoformat() if until else None,
                                          "via": via})
        _away_in_game(game, seat, until, now)
    return games


def _away_in_game(game: Game, seat: Seat, until: datetime | None, now: datetime) -> None:
    """One game's part of a vacation or an absence starting (or ending, ``until`` None): the
    others are told, and the deadline (or the seat's clock) waits when it waits on the seat."""
    name = _name(game, seat.index or 0)
    others = [s.index for s in game.seats.exclude(pk=seat.pk) if s.index is not None]
    if clocks.is_banked(game):
        _vacation_on_clock(game, seat, until, now, others)
        return
    if until is None:
        refund = absence.end_hold(game, seat, now, back=True)
        game.save(update_fields=["deadline_at", "warned_at", "reminded_at"])
        held = game.deadline_at if refund else None
        outbox.queue_notice(game, functools.partial(_back_text, name, held, refund), seats=others)
        return
    cap = game.vacation_cap_days
    outbox.queue_notice(game, functools.partial(_away_text, name, until, cap), seats=others)
    late = _late_seats(game, rules_for(game))
    if any(s.pk == seat.pk for s in late):
        _postpone_for_vacation(game, late, now)


def _back_text(name: str, held: datetime | None, refund: int) -> str:
    said = gettext("%(name)s is back from vacation.") % {"name": name}
    if held is None:
        return said
    return said + " " + gettext("The deadline held for %(name)s is now %(when)s (%(hours)s hours of %(name)s's "
                                "vacation allowance were not used and are given back).") % {
        "name": name, "when": when_text(held), "hours": refund}


def _away_text(name: str, until: datetime, cap: int) -> str:
    return gettext("%(name)s is on vacation until %(when)s. When the game waits on %(name)s alone, the deadline "
                   "waits for %(name)s (up to %(cap)s days in this game); nobody else's deadline moves.") % {
        "name": name, "when": when_text(until), "cap": cap}


def _vacation_on_clock(game: Game, seat: Seat, until: datetime | None, now: datetime, others: list[int]) -> None:
    """A vacation in a game with time banks stops the seat's own clock while the game waits on it
    (its clock was charged up to now by the caller); the game's deadline follows the clocks."""
    name = _name(game, seat.index or 0)
    if until is None:
        hold = seat.vacation_hold or {}
        clocks.end_clock_hold(game, seat)
        stopped = int(hold.get("seconds", 0)) if hold.get("clock") else 0
        outbox.queue_notice(game, lambda: (gettext(
            "%(name)s is back from vacation: %(name)s's time bank runs again whenever the game waits on %(name)s "
            "(the vacation stopped it for %(time)s).") if stopped >= 3600 else gettext(
            "%(name)s is back from vacation: %(name)s's time bank runs again whenever the game waits on %(name)s."))
            % {"name": name, "time": clocks.words(stopped)}, seats=others)
    else:
        outbox.queue_notice(game, lambda: gettext(
            "%(name)s is on vacation until %(when)s. %(name)s's time bank stops while the game waits on %(name)s "
            "(up to %(cap)s days in this game); nobody else's clock stops.") % {
                "name": name, "when": when_text(until), "cap": game.vacation_cap_days}, seats=others)
    if game.state is not None:
        game.deadline_at = clocks.settle(game, rules_for(game).pending(game.state), now)
        game.save(update_fields=["deadline_at"])


def _away(game: Game, seat: Seat, now: datetime) -> bool:
    """On vacation now, with some of the game's vacation allowance left."""
    until = seat.away_until  # their vacation, or an absence a moderator entered for this game
    if until is None or until <= now or seat.vacation_hours_used >= game.vacation_cap_days * 24:
        return False
    # a hold under way goes on; a new one needs an absence left in this game
    return bool(seat.vacation_hold) or game.absences_allowed is None or seat.absences_taken < game.absences_allowed


def _postpone_for_vacation(game: Game, late: Sequence[Seat], now: datetime) -> bool:
    """Move the deadline past the vacations of the late seats, within each one's allowance, when
    every seat the game waits on is away (one seat's vacation never gives the others more time).
    Each seat is charged the hours the deadline moved for it (given back if it returns early).
    True if moved."""
    if game.deadline_at is None or not late or not all(_away(game, s, now) for s in late):
        return False
    before = game.deadline_at
    best: datetime | None = None
    for seat in late:
        away = seat.away_until
        assert away is not None
        wanted = away + VACATION_GRACE
        if wanted <= before:
            continue
        allowance = timedelta(days=game.vacation_cap_days) - timedelta(hours=seat.vacation_hours_used)
        if game.absence_max_days is not None:  # one absence holds the deadline this long at most
            held = int((seat.vacation_hold or {}).get("hours", 0))
            allowance = min(allowance, timedelta(days=game.absence_max_days) - timedelta(hours=held))
        extra = min(wanted - before, allowance)
        hours = int(extra.total_seconds() // 3600)
        if hours <= 0:
            continue
        moved = before + timedelta(hours=hours)
        absence.start_hold(seat, before, moved, hours)
        best = moved if best is None or moved > best else best
    if best is None:
        return False
    do_log(game, None, "vacation-wait", {"until": best.isoformat()})
    game.deadline_at = best
    game.warned_at = None
    game.reminded_at = None
    game.save(update_fields=["deadline_at", "warned_at", "reminded_at"])
    return True


def _late_seats(game: Game, rules: Any) -> list[Seat]:
    assert game.state is not None
    pending = set(rules.pending(game.state))
    # an open seat is already offered for a replacement: its deadline is over, the others' runs on
    return list(game.seats.select_related("player").filter(index__in=list(pending))
            .exclude(status__in=[Seat.Status.RESIGNED, Seat.Status.OPEN]))


def do_sweep_deadlines(now: Any = None) -> int:
    """Warnings, reminders, vacations and the no-move policy (see the module docstring).
    Returns how many games were touched. Safe to run twice: each game is judged under its lock."""
    now = now or timezone.now()
    horizon = now + timedelta(hours=float(settings.PBEM_WARN_HOURS))
    touched = 0
    candidates = Game.objects.filter(status=Game.Status.RUNNING, deadline_at__lte=horizon)
    for game_id in candidates.values_list("pk", flat=True):
        with transaction.atomic():
            game = access_game_for_update(game_id)
            if game.status != Game.Status.RUNNING or game.deadline_at is None or game.state is None:
                continue
            if _sweep_one(game, now):
                touched += 1
    return touched + _sweep_standby_offers(now)


def _sweep_standby_offers(now: datetime) -> int:
    """An open seat whose last standby offer got no answer within the game's deadline period is
    offered to the next volunteer (one not offered it yet since it opened); the moderators are
    told. Returns how many seats were offered again."""
    offered_again = 0
    games = (Seat.objects.filter(status=Seat.Status.OPEN, game__status__in=[Game.Status.RUNNING, Game.Status.PAUSED])
             .values_list("game_id", flat=True).distinct())
    for game_id in list(games):
        with transaction.atomic():
            game = access_game_for_update(game_id)
            for seat in game.seats.filter(status=Seat.Status.OPEN).exclude(index__isnull=True):
                offers = AuditEntry.objects.filter(game=game, action="standby-offer", details__seat=seat.index)
                if seat.joined_at is not None:
                    offers = offers.filter(created_at__gt=seat.joined_at)
                last = offers.order_by("-created_at", "-pk").first()
                if last is None or last.created_at > now - timedelta(hours=game.deadline_hours):
                    continue
                if offers.filter(details__to=None).exists():
                    continue  # the list ran out before: nothing more to offer
                tried = {str(o.details.get("to")) for o in offers}
                offered = _offer_to_standby(game, [seat], skip=tried)
                name = _name(game, seat.index or 0)
                if not offered:
                    do_log(game, None, "standby-offer", {"seat": seat.index, "to": None})
                before = last.details.get("to")
                outbox.queue_to_moderators(
                    game, moderator_emails(game),
                    lambda: gettext(  # (said at once, for each moderator in their language)
                        "Game #%(pk)s (%(title)s): %(to)s did not take %(name)s's open seat within %(hours)s hours, "
                        "so it was offered to %(offered)s. (`join %(pk)s` takes it; you may also hand it to someone "
                        "from the moderator page.)") % {
                        "pk": game.pk, "title": game.said_title, "to": before, "name": name,  # noqa: B023
                        "hours": game.deadline_hours,  # noqa: B023
                        "offered": ", ".join(offered) or gettext("nobody: the standby list has nobody else")})  # noqa: B023
                offered_again += 1
    return offered_again


def _sweep_one(game: Game, now: datetime) -> bool:
    assert game.deadline_at is not None
    rules = rules_for(game)
    late = _late_seats(game, rules)
    if not late:
        return False
    if game.deadline_at - timedelta(hours=warn_hours(game)) > now:
        return False
    if clocks.is_banked(game):
        # Why: each seat has its own clock (a vacation stops it): only those whose clock runs out
        # are warned, reminded or played for, not everyone the game waits on. After the reminder
        # (the game's deadline is then its grace), those that were reminded.
        assert game.state is not None
        if game.reminded_at is not None and not clocks.still_reminded(game, rules.pending(game.state), now):
            _restart_clocks(game, rules.pending(game.state))  # the reminded seats moved or got more time
            return True
        by = game.reminded_at or (now + timedelta(hours=warn_hours(game)) if game.deadline_at > now else now)
        late = clocks.late(game, late, by)
        if not late:
            return False
    elif _postpone_for_vacation(game, late, now):
        return True
    else:
        # Why: a seat on vacation is not warned, reminded or played for while others are late too;
        # the deadline runs for them, and waits for it once it is the only one left.
        late = [s for s in late if not _away(game, s, now)] or late
    seats = [s.index for s in late if s.index is not None]
    if game.deadline_at > now:
        if game.warned_at is not None or game.reminded_at is not None:
            return False
        game.warned_at = now
        game.save(update_fields=["warned_at"])
        left = game.deadline_at - now
        deadline = game.deadline_at
        outbox.queue_updates(game, seats, intro=lambda: gettext(
            "%(left)s left to move in game #%(game)s: the deadline is %(when)s.") % {
                "left": _duration(left), "game": game.pk, "when": when_text(deadline)} + " " + policy_text(game))
        do_log(game, None, "warn", {"seats": seats})
        return True
    if game.reminded_at is None and _mail_reaches(late):
        game.reminded_at = now
        game.deadline_at = now + timedelta(hours=game.deadline_hours)
        game.save(update_fields=["reminded_at", "deadline_at"])
        deadline = game.deadline_at
        outbox.queue_updates(game, seats, intro=lambda: gettext(
            "Reminder: game #%(game)s waits for your move since its deadline passed. New deadline: %(when)s.") % {
                "game": game.pk, "when": when_text(deadline)} + " " + policy_text(game))
        do_log(game, None, "remind", {"seats": seats})
        return True
    _apply_policy(game, rules, late, now)
    return True


def _mail_reaches(late: Sequence[Seat]) -> bool:
    """Whether a reminder can reach any late seat. Why: a seat whose mail bounces (pbem.mail.bounces
    stopped it) is treated as absent, so its deadline goes straight to the no-move policy."""
    emails = [s.player.email.lower() for s in late if s.player is not None]
    off = set(MailAddress.objects.filter(email__in=emails, disabled_at__isnull=False).values_list("email", flat=True))
    return len(off) < len(emails) or not emails


def _duration(delta: timedelta) -> str:
    hours = max(0, int(delta.total_seconds() // 3600))
    if hours == 0:
        return gettext("Less than an hour")
    days, hours = divmod(hours, 24)
    parts = ([ngettext("%(n)s day", "%(n)s days", days) % {"n": days}] if days else []) + \
        ([ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}] if hours or not days else [])
    return " ".join(parts)


def _apply_policy(game: Game, rules: Any, late: list[Seat], now: datetime) -> None:
    policy = game.no_move_policy
    seats = [s.index for s in late if s.index is not None]
    if policy in (Game.NoMovePolicy.DEFAULT, Game.NoMovePolicy.BOT):
        applied = _play_for(game, rules, seats, bot=policy == Game.NoMovePolicy.BOT)
        if applied:
            # Why autoplay before recording: the moves it plays for resigned seats go into the
            # same log rows, or the stored state would run ahead of its replay.
            _autoplay(game, rules, applied)
            _record(game, applied, Source.BOT if policy == Game.NoMovePolicy.BOT else Source.DEADLINE)
            _reset_deadline(game, movers={a.seat for a in applied})
            game.warned_at = None
            _finish_if_over(game, rules)
            game.save()
            do_log(game, None, "deadline", {"policy": policy, "seats": seats, "moves": [a.label for a in applied]})
            # Why a full mail to everyone, with the reason first: the moves are told in the story
            # like any other ("Bob plays ..."), and nobody must take them for the player's choice.
            outbox.queue_updates(game, None, intro=_civil_disorder_text(game, applied, seats, policy))
            _hand_on_campaign(game)
            return
        policy = Game.NoMovePolicy.WAIT  # the game declares no default here: a person must decide
    names = ", ".join(_name(game, i) for i in seats)
    if policy == Game.NoMovePolicy.REPLACE:
        for seat in late:
            seat.status = Seat.Status.OPEN
            seat.save(update_fields=["status"])
        # Why a deadline still: the seats the game waits on besides the open ones (a simultaneous
        # decision, a vacation, a clock with time left) keep theirs; none left, none runs
        assert game.state is not None
        others = [i for i in rules.pending(game.state) if i not in seats]
        if clocks.is_banked(game):
            game.deadline_at = clocks.settle(game, rules.pending(game.state), now)
        else:
            game.deadline_at = now + timedelta(hours=game.deadline_hours) if others else None
        game.reminded_at = game.warned_at = None
        game.version += 1
        game.save(update_fields=["deadline_at", "reminded_at", "warned_at", "version"])
        do_log(game, None, "open-seat", {"seats": seats})
        outbox.queue_notice(game, lambda: gettext(
            "%(names)s missed two deadlines in game #%(game)s, so the seat is open for a replacement: anyone may "
            "take it by mailing %(address)s the line `join %(game)s` (or POST /api/v1/games/%(game)s/join/). Until "
            "then %(names)s may still move, which closes the offer.") % {
                "names": names, "game": game.pk, "address": outbox.general_address()})
        offered = _offer_to_standby(game, late)
        outbox.queue_to_moderators(game, moderator_emails(game), lambda: gettext(
            "Game #%(pk)s (%(title)s): the seat of %(names)s is open for a replacement (offered to %(offered)s) "
            "after two missed deadlines (`join %(pk)s` takes it). You may also hand it to someone yourself from "
            "the moderator page.") % {"pk": game.pk, "title": game.said_title, "names": names,
                                      "offered": ", ".join(offered) or gettext("nobody on the standby list")})
        return
    # Why the clock keeps running: a moderator extends it or hands the seat to a newcomer, who
    # gets a full period; each period that passes tells the moderators again.
    game.deadline_at = now + timedelta(hours=game.deadline_hours)
    game.moderator_told_at = now
    game.save(update_fields=["deadline_at", "moderator_told_at"])
    do_log(game, None, "late", {"seats": seats})
    deadline = game.deadline_at
    outbox.queue_to_moderators(game, moderator_emails(game), lambda: gettext(
        "Game #%(pk)s (%(title)s) waits for %(names)s, who missed two deadlines. Its no-move policy is to wait: "
        "replace the player, move for the seat, extend the deadline or pause the game from its moderator page. "
        "The deadline runs on to %(when)s; you will be told again then.") % {
            "pk": game.pk, "title": game.said_title, "names": names, "when": when_text(deadline)})


def _civil_disorder_text(game: Game, applied: list[Applied], seats: list[int], policy: str) -> Callable[[], str]:
    """What every player reads first after a deadline played for absent seats (said in each
    reader's language: the moves' labels too, where the game can say them again)."""
    names = ", ".join(_name(game, i) for i in seats)
    played = [(_name(game, a.seat), a.label) for a in applied if a.seat in seats]

    def said() -> str:
        lines = [(gettext("Civil disorder in game #%(game)s: %(names)s missed the deadline twice, so the game's bot "
                          "played their whole turn. These moves were not their choice:")
                  if policy == Game.NoMovePolicy.BOT else
                  gettext("Civil disorder in game #%(game)s: %(names)s missed the deadline twice, so the game's "
                          "safe default moves played their whole turn. These moves were not their choice:"))
                 % {"game": game.pk, "names": names}]
        lines += ["  - " + gettext("for %(name)s: %(move)s") % {"name": name, "move": language.said_label(game.rules,
                                                                                                       label)}
                  for name, label in played]
        return "\n".join(lines)

    return said


#: At most this many decisions are played for one absent seat at one deadline.
WHOLE_TURN_LIMIT = 60


def _play_for(game: Game, rules: Any, seats: list[int], *, bot: bool) -> list[Applied]:
    state = game.state
    assert state is not None
    applied: list[Applied] = []
    # Why a Random seeded from the game: the bot's choice is recorded in the log anyway, but a
    # seeded one makes a sweep that is re-run after a crash choose the same way.
    rnd = random.Random(f"{game.pk}:{game.version}")
    chooser = getattr(rules, "bot_choice", None) if bot else None
    before = set(rules.pending(state))
    for seat in seats:
        # The seat's whole turn: its decisions one after another, until the game waits on it no
        # more, a new turn or round is announced, or the game waits on someone who was not late
        # (a new round of simultaneous decisions: the others decide too).
        for _ in range(WHOLE_TURN_LIMIT):
            pending = rules.pending(state)
            if seat not in pending or set(pending) - before:
                break
            options = rules.options(state, seat)
            opt = chooser(state, seat, options, rnd) if chooser is not None else rules.default_move(state, seat)
            if opt is None:
                break
            events = rules.apply(state, seat, opt.move)
            applied.append(Applied(seat, opt.move, opt.label, events))
            if any(e.kind in due.ROUND_EVENTS for e in events):
                break
    return applied
