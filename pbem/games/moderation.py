"""Moderating long games: deadlines, absence, and the moderator's tools.

Every function here is a service (the admin, the API, the mail commands and the
beat schedule only call them), runs under the game's row lock, writes an audit
entry with its actor and reason, and tells the players by mail in the same
transaction. See docs/moderation.md for what each tool does and what players read.

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
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import dateformat, timezone
from django.utils.translation import gettext, gettext_noop, ngettext

from engine import i18n
from engine.core import Event, visible_events
from pbem.games import absence, clocks, language
from pbem.games.absence import VACATION_GRACE
from pbem.games.models import AuditEntry, Game, GameModerator, MailAddress, Move, Player, Seat, Source, Standby
from pbem.games.services import (
    Applied,
    BatchResult,
    Command,
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    _autoplay,
    _finish_if_over,
    _record,
    _reset_deadline,
    access_game_for_update,
    access_seat,
    do_get_or_create_player,
    do_join_game,
    do_log,
    do_submit_moves,
    live_moves,
    replay_state,
    rules_for,
    unique_seat_names,
)
from pbem.mail import due, outbox


def warn_hours(game: Game) -> float:
    """How long before its deadline a seat hears "N hours left" (half a short period)."""
    return float(min(settings.PBEM_WARN_HOURS, game.deadline_hours / 2))


def when_text(moment: datetime) -> str:
    """'Sun 20 Dec 2026 00:00 UTC', the day and month in the active language ('Dom 20 Dez 2026')."""
    return f"{dateformat.format(moment.astimezone(UTC), 'D d M Y H:i')} UTC"


def _names(game: Game) -> list[str]:
    return [str(n) for n in (game.state or {}).get("players", [])]


def _name(game: Game, index: int) -> str:
    names = _names(game)
    return names[index] if 0 <= index < len(names) else f"seat {index + 1}"  # (people count seats from 1)


def moderator_emails(game: Game | None = None) -> list[str]:
    """Who hears that a game needs a moderator: ``PBEM_MODERATOR_EMAILS``, and the game's assigned
    moderators, or every staff account when it has none."""
    emails = [e for e in settings.PBEM_MODERATOR_EMAILS if e]
    assigned = list(GameModerator.objects.filter(game=game).values_list("player__email", flat=True)) if game else []
    if assigned:
        return sorted(set(emails + assigned))
    staff = get_user_model().objects.filter(is_staff=True, is_active=True).exclude(email="")
    emails += [u.email for u in staff]
    return sorted(set(emails))


def clean_reason(reason: str) -> str:
    """A moderator's reason on one line: control characters (a bell, an escape, a line break that
    would forge a line of the players' mail) become spaces, runs of spaces one."""
    return " ".join("".join(ch if ch.isprintable() else " " for ch in (reason or "")).split())[:500]


def _reason(reason: str) -> str:
    reason = clean_reason(reason)
    if not reason:
        raise ServiceError(gettext("a moderator's action needs a reason (players and the audit log see it)"))
    return reason


# ---- pause, resume, abort --------------------------------------------------------------------


@transaction.atomic
def do_pause_game(game_id: int, moderator: Player | None, reason: str) -> Game:
    game = access_game_for_update(game_id)
    reason = clean_reason(reason)
    if game.status != Game.Status.RUNNING:
        raise Conflict(gettext("game #%(game)s is not running") % {"game": game.pk})
    game.status = Game.Status.PAUSED
    if clocks.is_banked(game):
        clocks.settle(game, [], timezone.now(), stop=True)  # a pause stops every clock
    game.deadline_at = None
    game.version += 1  # the game's public state changed: ETags and pages must see it
    game.save(update_fields=["status", "deadline_at", "version"])
    do_log(game, moderator, "pause", {"reason": reason})
    outbox.queue_notice(game, lambda: gettext(
        "A moderator paused game #%(game)s: %(reason)s\n\nNo moves are taken and no deadline runs until it "
        "resumes; you will get a mail with your options then.") % {"game": game.pk, "reason": reason})
    return game


@transaction.atomic
def do_resume_game(game_id: int, moderator: Player | None, reason: str) -> Game:
    game = access_game_for_update(game_id)
    reason = clean_reason(reason)
    if game.status != Game.Status.PAUSED:
        raise Conflict(gettext("game #%(game)s is not paused") % {"game": game.pk})
    game.status = Game.Status.RUNNING
    _reset_deadline(game)
    game.warned_at = None
    rules = rules_for(game)
    # Why: a seat resigned while paused would otherwise wait two deadlines for its autoplay.
    applied: list[Applied] = []
    _autoplay(game, rules, applied)
    if applied:
        _record(game, applied, Source.BOT)
        _finish_if_over(game, rules)
    game.version += 0 if applied else 1
    game.save()
    do_log(game, moderator, "resume", {"reason": reason})
    outbox.queue_updates(game, None, intro=lambda: gettext("A moderator resumed game #%(game)s: %(reason)s") % {
        "game": game.pk, "reason": reason})
    return game


@transaction.atomic
def do_abort_game(game_id: int, moderator: Player | None, reason: str) -> Game:
    reason = _reason(reason)
    game = access_game_for_update(game_id)
    if game.status not in (Game.Status.OPEN, Game.Status.RUNNING, Game.Status.PAUSED):
        raise Conflict(gettext("game #%(game)s is %(status)s already")
                       % {"game": game.pk, "status": game.get_status_display()})
    game.status = Game.Status.ABORTED
    game.deadline_at = None
    game.finished_at = timezone.now()
    game.version += 1
    game.save()
    do_log(game, moderator, "abort", {"reason": reason})
    if game.state is not None:
        outbox.queue_notice(game, lambda: gettext(
            "A moderator ended game #%(game)s without a result: %(reason)s\n\nNo more moves are taken. The seed "
            "was %(seed)s, so anyone can replay and check the moves made.") % {
                "game": game.pk, "reason": reason, "seed": game.seed})
    return game


# ---- replacement -----------------------------------------------------------------------------


def _unique_name(game: Game, wanted: str, index: int) -> str:
    """The newcomer's name, unique in the game by the same rule as at the start (Anna, Anna B)."""
    names = _names(game)
    others = [n for i, n in enumerate(names) if i != index]
    return unique_seat_names([*others, (wanted or "player").strip() or "player"])[-1]


def _story_so_far(game: Game, limit: int = 40) -> list[str]:
    """What a spectator saw of the game so far, in the third person, newest last."""
    lines: list[str] = []
    for row in live_moves(game):
        # (each event in the active language: its text was made in the mover's)
        lines.extend(e.text for e in visible_events([Event.from_dict(i18n.told(d)) for d in row.events], None))
    lines = _grouped(lines)
    if len(lines) > limit:
        lines = [gettext("(%(n)s earlier events are on the game page)") % {"n": len(lines) - limit}] + lines[-limit:]
    return lines


def _grouped(lines: list[str]) -> list[str]:
    """A line said several times in a row, once with how many times (QA, #23: a replacement player's
    story read "Jacques draws 1 card." six times over), as a player's own story does (wording.story)."""
    out: list[tuple[str, int]] = []
    for line in lines:
        if out and out[-1][0] == line:
            out[-1] = (line, out[-1][1] + 1)
        else:
            out.append((line, 1))
    return [line if n == 1 else gettext("%(line)s (%(n)s times)") % {"line": line, "n": n} for line, n in out]


def _welcome_text(game: Game, said: dict[str, Any]) -> str:
    """The newcomer's welcome, in their language: whose seat, the deadline, the game so far."""
    intro = gettext("Welcome to game #%(game)s (%(title)s): you take over %(old)s's seat (%(why)s). "
                    "You play as %(new)s.") % said
    if game.status == Game.Status.PAUSED:
        intro += " " + gettext("The game is paused by a moderator; you will get a mail when it resumes.")
    elif game.deadline_at is not None:
        intro += " " + gettext("The deadline for the seats to move is %(when)s.") % {
            "when": when_text(game.deadline_at)}
    story = _story_so_far(game)
    if story:
        intro += "\n\n" + gettext("The game so far:") + "\n" + "\n".join(f"  - {line}" for line in story)
    return intro


def hand_seat_over(game: Game, seat: Seat, new_player: Player, *, why: str, reason: str = "",
                   name: str = "") -> Player | None:
    """Give ``seat`` to ``new_player``: a new reply address, the seat renamed in the game state
    (the board, the mails and the result name the newcomer, as ``name`` or their own name), a
    full period to move, a welcome telling the game so far and the deadline, a notice to the
    others, and a last mail to the player replaced. The caller holds the row lock and writes
    the audit entry. ``why``: the catalogue's words (a msgid, with ``reason`` as %(reason)s),
    said to each reader in their language."""
    assert game.state is not None and seat.index is not None
    old = seat.player
    old_name = _name(game, seat.index)
    new_name = _unique_name(game, name.strip()[:60] or new_player.display_name, seat.index)
    game.state["players"][seat.index] = new_name
    game.version += 1
    seat.player = new_player
    seat.status = Seat.Status.JOINED
    seat.token = Seat._meta.get_field("token").get_default()  # the old reply address stops working
    seat.page_key = Seat._meta.get_field("page_key").get_default()  # and the old personal page link
    seat.joined_at = timezone.now()
    seat.extensions_used = 0
    seat.vacation_hours_used = 0
    seat.vacation_hold = None
    seat.absent_until = None  # an absence entered for the player replaced is not the newcomer's
    seat.bank_seconds = seat.waiting_since = None  # a full time bank, not the leaver's remainder
    seat.save()
    if game.status == Game.Status.RUNNING:
        _reset_deadline(game)  # the newcomer gets a whole period (or bank), whatever the policy left
    game.save()
    said = {"game": game.pk, "title": game.title, "old": old_name, "new": new_name}

    def told() -> dict[str, Any]:  # why, in the reader's language
        return {**said, "title": game.said_title, "why": gettext(why) % {"reason": reason}}

    outbox.queue_welcome(game, seat, lambda: _welcome_text(game, told()))
    others = [s.index for s in game.seats.exclude(pk=seat.pk).exclude(index__isnull=True) if s.index is not None]
    outbox.queue_notice(game, lambda: gettext("%(new)s takes over %(old)s's seat in game #%(game)s (%(why)s).")
                        % told(), seats=others)
    if old is not None and old != new_player:
        with language.speaking(language.of(old)):
            outbox.queue_reply(old, outbox.subject_for(game), gettext(
                "You no longer play in game #%(game)s (%(title)s): %(new)s takes over your seat (%(why)s). Your "
                "reply address and your page link for this game stop working; the game's public page stays open: "
                "%(url)s") % {**told(), "url": outbox.game_url(game)} + "\n", game)
    return old


@transaction.atomic
def do_replace_player(game_id: int, moderator: Player | None, seat_index: int, new_player: Player,
                      reason: str, *, name: str = "") -> Seat:
    """A new person takes over a seat; the old reply address stops working."""
    reason = clean_reason(reason)
    game = access_game_for_update(game_id)
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED) or game.state is None:
        raise Conflict(gettext("game #%(game)s is not running") % {"game": game.pk})
    seat = game.seats.filter(index=seat_index).first()
    if seat is None:
        raise NotFound(gettext("game #%(game)s has no seat %(seat_index)s")
                       % {"game": game.pk, "seat_index": seat_index})
    if game.seats.filter(player=new_player).exclude(pk=seat.pk).exists():
        raise Conflict(gettext("%(new_player_email)s plays in game #%(game)s already")
                       % {"new_player_email": new_player.email, "game": game.pk})
    old_name = _name(game, seat_index)  # the seat's name in the game before (the log names its moves so)
    old = hand_seat_over(game, seat, new_player, why=gettext_noop("a moderator's replacement: %(reason)s"),
                         reason=reason, name=name)
    do_log(game, moderator, "replace", {"seat": seat_index, "old": old.email if old else None,
                                        "new": new_player.email, "reason": reason, "old_name": old_name})
    return seat


@transaction.atomic
def do_replace_player_by_address(game_id: int, moderator: Player | None, seat_index: int, email: str,
                                 reason: str, *, name: str = "") -> Seat:
    """A moderator hands a seat to whoever has ``email`` (a new player account if none has it yet),
    playing as ``name`` if given (a new account is named so too)."""
    return do_replace_player(game_id, moderator, seat_index, do_get_or_create_player(email, name), reason,
                             name=name)


@transaction.atomic
def do_join(game_id: int, player: Player) -> Seat:
    """``join`` by mail or API: a seat of an open game, or a running game's seat offered for replacement."""
    if Seat.objects.filter(game_id=game_id, status=Seat.Status.OPEN).exists():
        return do_take_open_seat(game_id, player)
    return do_join_game(game_id, player)


@transaction.atomic
def do_take_open_seat(game_id: int, player: Player) -> Seat:
    """Someone joins a running game whose seat was offered for replacement."""
    game = access_game_for_update(game_id)
    seat = game.seats.filter(status=Seat.Status.OPEN).order_by("index").first()
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED) or seat is None:
        raise Conflict(gettext("game #%(game)s has no seat open for a replacement") % {"game": game.pk})
    if game.seats.filter(player=player).exclude(pk=seat.pk).exists():
        raise Conflict(gettext("you play in game #%(game)s already") % {"game": game.pk})
    old = hand_seat_over(game, seat, player, why=gettext_noop("the seat was open after missed deadlines"))
    Standby.objects.filter(player=player).filter(Q(game=game) | Q(game__isnull=True)).delete()
    do_log(game, player, "take-seat", {"seat": seat.index, "old": old.email if old else None})
    return seat


# ---- deadlines: moderators, players, vacations -------------------------------------------------


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


def policy_text(game: Game) -> str:
    """What happens to a seat that lets its reminded deadline pass, in the players' words."""
    p = Game.NoMovePolicy
    return {
        p.WAIT: gettext("If you still do not move, the game waits and a moderator is told."),
        p.DEFAULT: gettext("If you still do not move by then, civil disorder: the game plays your whole turn with "
                           "its safe default move for you."),
        p.BOT: gettext("If you still do not move by then, civil disorder: the game's bot plays your whole turn."),
        p.REPLACE: gettext("If you still do not move by then, your seat is offered to a replacement player."),
    }[Game.NoMovePolicy(game.no_move_policy)]


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


def _offer_to_standby(game: Game, opened: list[Seat], skip: Collection[str] = ()) -> list[str]:
    """Offer each open seat to the next volunteer of the standby list (this game's first, then any
    game's, in the order they signed up; never an address in ``skip``), with the game so far.
    Returns the addresses offered."""
    seated = set(game.seats.exclude(player__isnull=True).values_list("player_id", flat=True))
    already: set[int] = set()
    offered: list[str] = []
    queue = [*Standby.objects.filter(game=game).select_related("player"),
             *Standby.objects.filter(game__isnull=True).select_related("player")]
    for seat in opened:
        volunteer = next((v for v in queue if v.player_id not in seated and v.pk not in already
                          and v.player.email not in skip), None)
        if volunteer is None:
            break
        already.add(volunteer.pk)
        seated.add(volunteer.player_id)
        name = _name(game, seat.index or 0)
        with language.speaking(language.of(volunteer.player)):  # (the volunteer's language: issue 27)
            text = gettext("A seat is open in game #%(game)s (%(title)s): %(name)s missed two deadlines, and you are "
                           "on the standby list. To take %(name)s's seat, send the line `join %(game)s` to "
                           "%(address)s (the first to answer takes it).") % {
                "game": game.pk, "title": game.said_title, "name": name, "address": outbox.general_address()}
            story = _story_so_far(game)
            if story:
                text += "\n\n" + gettext("The game so far:") + "\n" + "\n".join(f"  - {line}" for line in story)
            subject = outbox.subject_for(game, gettext("a seat for you"))
        outbox.queue_reply(volunteer.player, subject, text + "\n", game)
        do_log(game, None, "standby-offer", {"seat": seat.index, "to": volunteer.player.email})
        offered.append(volunteer.player.email)
    return offered


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


# ---- acting for players -------------------------------------------------------------------------


def do_move_for_seat(game_id: int, moderator: Player | None, seat_index: int, commands: Sequence[Command],
                     reason: str) -> BatchResult:
    """A moderator makes a move for a seat (a player who sent it another way, say)."""
    reason = _reason(reason)
    with transaction.atomic():
        if not Seat.objects.filter(game_id=game_id, index=seat_index).exists() and \
                Game.objects.filter(pk=game_id).exists():  # an unknown game: do_submit_moves's 404
            raise NotFound(gettext("game #%(game)s has no seat %(seat_index)s")
                           % {"game": game_id, "seat_index": seat_index})
        result = do_submit_moves(game_id, None, commands, source=Source.MODERATOR, seat_index=seat_index)
        game = result.game
        do_log(game, moderator, "move-for-seat", {"seat": seat_index, "reason": reason,
                                                  "moves": [a.label for a in result.applied]})
        moved = "; ".join(a.label for a in result.applied if a.seat == seat_index)
        outbox.queue_notice(game, lambda: gettext("A moderator moved for you in game #%(game)s (%(moves)s): "
                                                  "%(reason)s") % {"game": game.pk, "moves": moved, "reason": reason},
                            seats=[seat_index])
    return result


@transaction.atomic
def do_message_players(game_id: int, moderator: Player | None, text: str) -> Game:
    text = (text or "").strip()
    if not text or len(text) > 5000:
        raise ServiceError(gettext("a message to the players needs between 1 and 5,000 characters"))
    game = access_game_for_update(game_id)
    if game.state is None:
        raise Conflict(gettext("game #%(game)s has not started") % {"game": game.pk})
    do_log(game, moderator, "message", {"text": text})
    outbox.queue_notice(game, lambda: gettext("A message from the moderator of game #%(game)s:") % {
        "game": game.pk} + f"\n\n{text}")
    return game


@transaction.atomic
def do_rollback(game_id: int, moderator: Player | None, to_move: int, reason: str, *,
                confirm_reveals: bool = False) -> Game:
    """Take the game back to just after move ``to_move`` (0: the start), replayed from the seed.

    The later moves stay in the log, marked undone like an undo's. Finished games are not
    rolled back: their seed is public, so every later draw would be known. A rollback past a
    move that revealed something (a card drawn, a barrel looked at) is refused unless the
    moderator confirms it: the same seed deals the same hidden cards again, which the players
    have seen; when confirmed, the players are told so (docs/moderation.md)."""
    reason = _reason(reason)
    game = access_game_for_update(game_id)
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED) or game.state is None:
        raise Conflict(gettext("game #%(game)s is %(status)s; only a running or paused game "
                               "rolls back") % {"game": game.pk, "status": game.get_status_display()})
    rows = list(live_moves(game))
    keep = [r for r in rows if r.number <= to_move]
    drop = [r for r in rows if r.number > to_move]
    if to_move < 0 or not drop:
        raise ServiceError(gettext("move %(to_move)s is not before the last move of game #%(game)s")
                           % {"to_move": to_move, "game": game.pk})
    if keep and keep[-1].version == drop[0].version:
        raise ServiceError(gettext("move %(to_move)s is inside a batch; roll back to move "
                                   "%(batch_start_rows_drop_0)s")
                           % {"to_move": to_move, "batch_start_rows_drop_0": _batch_start(rows, drop[0]) - 1})
    revealed = [r.number for r in drop if any(e.get("reveals") for e in r.events)]
    if revealed and not confirm_reveals:
        raise Conflict(gettext("moves %(join_map_str_revealed_10)s after move %(to_move)s revealed hidden "
                               "information; the replay deals the same hidden cards again, which the players "
                               "have seen. Confirm the rollback to do it anyway (the players are told)")
                       % {"join_map_str_revealed_10": ', '.join(map(str, revealed[:10])), "to_move": to_move})
    state = replay_state(game, keep)
    state["players"] = list(game.state["players"])  # replacements keep their names
    game.state = state
    game.version += 1
    now = timezone.now()
    Move.objects.filter(pk__in=[r.pk for r in drop]).update(undone_at=now, undone_version=game.version)
    clocks.take_back(game, drop, now)  # the banks as they were when the first move undone was made
    if game.status == Game.Status.RUNNING:
        _reset_deadline(game)
        game.warned_at = None
    game.save()
    do_log(game, moderator, "rollback", {"to_move": to_move, "moves": [r.number for r in drop], "reason": reason,
                                         "revealed": revealed})
    # Why: "since your last mail" would tell the undone moves as each player's own undo; the
    # intro says what happened instead, and the story starts again from here.
    game.seats.update(last_mailed_version=game.version)
    undone = len(drop)

    def intro() -> str:  # in each reader's language
        said = ngettext("A moderator took game #%(game)s back to move %(to_move)s (%(n)s later move is undone): "
                        "%(reason)s", "A moderator took game #%(game)s back to move %(to_move)s (%(n)s later moves "
                        "are undone): %(reason)s", undone) % {
            "game": game.pk, "to_move": to_move, "n": undone, "reason": reason}
        if revealed:
            said += "\n\n" + gettext("The undone moves revealed hidden information. The game replays from the same "
                                      "seed, so the same hidden cards come out again in the same order: what you saw "
                                      "stays true.")
        return said

    outbox.queue_updates(game, None, intro=intro)
    return game


def _policy_text(game: Game, reason: str) -> str:
    """The players' notice of a moderator's new time rules, in the reader's language."""
    said = {"game": game.pk, "reason": reason, "bank": game.time_bank_hours, "more": game.time_bank_increment_hours,
            "hours": game.deadline_hours, "cap": game.vacation_cap_days, "absences": game.absences_allowed,
            "days": game.absence_max_days, "extensions": game.extensions_allowed, "extension": game.extension_hours}
    if clocks.is_banked(game):
        clock = (gettext("a time bank: %(bank)s hours for each player's whole game, %(more)s more with each move "
                         "(your clock runs only while the game waits for you)") if game.time_bank_increment_hours
                 else gettext("a time bank: %(bank)s hours for each player's whole game (your clock runs only while "
                              "the game waits for you)")) % said
    else:
        clock = gettext("deadline: %(hours)s hours a turn") % said
    vacations = gettext("vacations may hold your deadlines for up to %(cap)s days") % said
    if game.absences_allowed is not None:
        vacations += gettext(", %(absences)s absences at most") % said
    if game.absence_max_days is not None:
        vacations += gettext(", %(days)s days each at most") % said
    lines = [gettext("A moderator changed how game #%(game)s treats time (%(reason)s):") % said, clock,
             policy_text(game), vacations,
             gettext("you may ask for %(extensions)s extensions of %(extension)s hours (reply `extend`)") % said]
    return "\n".join([lines[0], *(f"  - {line}" for line in lines[1:])])


def _batch_start(rows: list[Move], row: Move) -> int:
    return min(r.number for r in rows if r.version == row.version)


POLICY_FIELDS = ("no_move_policy", "deadline_hours", "vacation_cap_days", "extensions_allowed", "extension_hours",
                 "absences_allowed", "absence_max_days", "time_bank_hours", "time_bank_increment_hours")


@transaction.atomic
def do_set_game_policy(game_id: int, moderator: Player | None, changes: dict[str, Any], reason: str) -> Game:
    """A moderator sets how the game treats time: the no-move policy, the deadline period, the
    vacation cap and the players' extensions. The players are told what changed."""
    reason = _reason(reason)
    unknown = sorted(set(changes) - set(POLICY_FIELDS))
    if unknown or not changes:
        raise ServiceError(gettext("nothing to change (known: %(join_policy_fields)s)")
                           % {"join_policy_fields": ', '.join(POLICY_FIELDS)})
    if "no_move_policy" in changes and changes["no_move_policy"] not in Game.NoMovePolicy.values:
        raise ServiceError(gettext("no_move_policy is one of %(join_game_nomovepolicy_v)s")
                           % {"join_game_nomovepolicy_v": ', '.join(Game.NoMovePolicy.values)})
    game = access_game_for_update(game_id)
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(gettext("game #%(game)s is over") % {"game": game.pk})
    before = {f: getattr(game, f) for f in changes}
    if {"vacation_cap_days", "absences_allowed", "absence_max_days"} & set(changes):
        clocks.checkpoint(game, None, timezone.now())  # vacations stopped the clocks by the old rules till now
    for field_name, value in changes.items():
        setattr(game, field_name, value)
    game.save(update_fields=list(changes))
    if {"time_bank_hours", "time_bank_increment_hours"} & set(changes) and game.status == Game.Status.RUNNING:
        _reset_deadline(game)  # the clocks start (or the fixed deadline returns) now
        game.save(update_fields=["deadline_at", "reminded_at", "warned_at", "moderator_told_at"])
    do_log(game, moderator, "policy", {"before": before, "after": changes, "reason": reason})
    if game.state is not None:
        outbox.queue_notice(game, functools.partial(_policy_text, game, reason))
    return game
