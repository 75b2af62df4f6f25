"""A seat handed to someone else (docs/moderation.md): a moderator's replacement, a running game's open
seat taken with ``join``, and the standby list's volunteers offered an open seat. The newcomer gets a new
reply address, a full period, and a welcome telling the game so far; the others and the player replaced
are told. Each service runs under the game's row lock and writes an audit entry (moderation.py's
docstring); the doors call them through pbem.games.moderation.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop

from engine import i18n
from engine.core import Event, visible_events
from pbem.games import language
from pbem.games.models import Game, Player, Seat, Standby
from pbem.games.moderation_base import _name, _names, clean_reason, when_text
from pbem.games.services import (
    Conflict,
    NotFound,
    _reset_deadline,
    access_game_for_update,
    do_get_or_create_player,
    do_join_game,
    do_log,
    live_moves,
    unique_seat_names,
)
from pbem.mail import outbox

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

# ---- the standby list --------------------------------------------------------------------------


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
