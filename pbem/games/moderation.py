"""Moderating long games: deadlines, absence, and the moderator's tools.

Every function here is a service (the admin, the API, the mail commands and the
beat schedule only call them), runs under the game's row lock, writes an audit
entry with its actor and reason, and tells the players by mail in the same
transaction. See docs/moderation.md for what each tool does and what players read.

This module holds the moderator's tools (pause, resume, abort; a move for a seat, a
message, a rollback, the game's time rules) and hands out the services of its parts,
so that every door calls ``pbem.games.moderation``: moderation_base.py (what they
share), moderation_seats.py (a seat handed to someone else: replacement, open seats,
the standby list) and moderation_deadlines.py (deadlines, extensions, vacations and
the deadline sweep, whose steps its docstring lists).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from pbem.games import clocks
from pbem.games.models import Game, Move, Player, Seat, Source
from pbem.games.moderation_base import _reason, clean_reason, moderator_emails, policy_text, when_text
from pbem.games.moderation_deadlines import (
    WHOLE_TURN_LIMIT,
    Extension,
    do_extend_deadline,
    do_request_extension,
    do_set_vacation,
    do_sweep_deadlines,
    warn_hours,
)
from pbem.games.moderation_seats import (
    do_join,
    do_replace_player,
    do_replace_player_by_address,
    do_take_open_seat,
    hand_seat_over,
)
from pbem.games.services import (
    Applied,
    BatchResult,
    Command,
    Conflict,
    NotFound,
    ServiceError,
    _autoplay,
    _finish_if_over,
    _hand_on_campaign,
    _record,
    _reset_deadline,
    access_game_for_update,
    do_log,
    do_submit_moves,
    live_moves,
    replay_state,
    rules_for,
)
from pbem.mail import outbox

__all__ = [  # the services of the parts, handed out here (the doors call pbem.games.moderation)
    "POLICY_FIELDS", "WHOLE_TURN_LIMIT", "Extension", "clean_reason", "do_abort_game", "do_extend_deadline",
    "do_join", "do_message_players", "do_move_for_seat", "do_pause_game", "do_replace_player",
    "do_replace_player_by_address", "do_request_extension", "do_resume_game", "do_rollback", "do_set_game_policy",
    "do_set_vacation", "do_sweep_deadlines", "do_take_open_seat", "hand_seat_over", "moderator_emails",
    "policy_text", "warn_hours", "when_text",
]


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
    _hand_on_campaign(game)
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
