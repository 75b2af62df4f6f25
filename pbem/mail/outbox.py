"""Writing the outbox: one row per mail, in the caller's transaction.

Nothing here sends; ``sending.py`` does, after commit, through the task queue.
Each player's mail is built from their own view and their own redacted events,
never from the raw state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from django.conf import settings

import engine
from engine.core import Event, visible_events
from engine.notation import format_options
from pbem.games import dispatch
from pbem.games.models import Game, Move, OutboundMessage, Player, Seat

if TYPE_CHECKING:
    from pbem.games.services import Applied

#: Everything below this line in a reply is ignored.
REPLY_MARKER = "-- reply above this line --"


def reply_address(seat: Seat) -> str:
    return f"seat-{seat.token}@{settings.PBEM_MAIL_DOMAIN}"


def thread_id(game: Game) -> str:
    return f"<pbem.game{game.pk}@{settings.PBEM_MAIL_DOMAIN}>"


def game_url(game: Game) -> str:
    return f"{settings.PBEM_PUBLIC_URL}/games/{game.pk}/"


def _queue(*, to: Player, subject: str, body: str, game: Game | None = None, reply_to: str | None = None,
           svg: str = "", html: str = "", extra_headers: dict[str, str] | None = None) -> OutboundMessage:
    headers: dict[str, str] = {"Auto-Submitted": "auto-generated"}
    if reply_to:
        headers["Reply-To"] = reply_to
    if game is not None:
        headers["In-Reply-To"] = thread_id(game)
        headers["References"] = thread_id(game)
    headers.update(extra_headers or {})
    row = OutboundMessage.objects.create(game=game, player=to, to_email=to.email, subject=subject,
                                         body_text=body, body_html=html, headers=headers, svg=svg)
    dispatch.enqueue("pbem.send_outbound", row.pk)
    return row


def subject_for(game: Game, what: str) -> str:
    return f"[pbem #{game.pk}] {game.title}: {what}"


def queue_invitation(seat: Seat) -> OutboundMessage:
    game = seat.game
    assert seat.player is not None
    rules = engine.get(game.rules)
    body = (
        f"{game.created_by.display_name} invites you to play {rules.title} (game #{game.pk}).\n\n"
        f"Reply to this mail with the word\n\n    join\n\nto take your seat, or\n\n    decline\n\n"
        f"if you do not want to play. Options: {game.options}\n\n{REPLY_MARKER}\n"
    )
    return _queue(to=seat.player, subject=subject_for(game, "invitation"), body=body, game=game,
                  reply_to=reply_address(seat))


def _events_since(game: Game, seat: Seat) -> list[Event]:
    rows = Move.objects.filter(game=game, version__gt=seat.last_mailed_version).order_by("number")
    events: list[Event] = []
    for row in rows:
        events.extend(Event.from_dict(e) for e in row.events)
    return visible_events(events, seat.index)


def turn_mail_body(game: Game, seat: Seat, events: Sequence[Event]) -> tuple[str, str, list[Any]]:
    """Text body, SVG picture and the options of one player's update mail."""
    rules = engine.get(game.rules)
    assert game.state is not None and seat.index is not None
    view = rules.view(game.state, seat.index)
    options = rules.options(game.state, seat.index)
    parts = []
    if options:
        parts.append(f"It is your turn. Reply above the marker line with one command a line.\n\n"
                     f"Your options:\n{format_options(options)}\n")
    if events:
        parts.append("Since your last mail:\n" + "\n".join(f"  - {e.text}" for e in events) + "\n")
    parts.append(rules.render_text(view) + "\n")
    if game.status == Game.Status.FINISHED:
        parts.append(f"The game is over. Seed: {game.seed} (its SHA-256 {game.seed_hash} was shown from the start).\n")
    else:
        parts.append(f"Seed commitment (SHA-256): {game.seed_hash}\n")
    parts.append(f"Game page: {game_url(game)}\n\n{REPLY_MARKER}\n")
    return "\n".join(parts), rules.render_svg(view), options


def _wants_mail(seat: Seat, game: Game, has_options: bool) -> bool:
    assert seat.player is not None
    mode = seat.player.mail_mode
    if game.status == Game.Status.FINISHED or mode == Player.MailMode.EVERY_MOVE:
        return True
    if mode == Player.MailMode.MY_TURN:
        return has_options
    return False  # digest: the daily sweep sends it


def queue_game_update(game: Game, applied: Sequence[Applied], only_seats: Iterable[int] | None = None) -> None:
    """After a state change: each seated player's own mail."""
    wanted = set(only_seats) if only_seats is not None else None
    rules = engine.get(game.rules)
    for seat in game.seats.select_related("player").exclude(index__isnull=True):
        if seat.player is None or (wanted is not None and seat.index not in wanted):
            continue
        if seat.status == Seat.Status.RESIGNED:
            continue
        assert game.state is not None and seat.index is not None
        has_options = bool(rules.options(game.state, seat.index))
        if not _wants_mail(seat, game, has_options):
            continue
        events = _events_since(game, seat)
        body, svg, _ = turn_mail_body(game, seat, events)
        what = "game over" if game.status == Game.Status.FINISHED else ("your turn" if has_options else "update")
        _queue(to=seat.player, subject=subject_for(game, what), body=body, game=game,
               reply_to=reply_address(seat), svg=svg)
        seat.last_mailed_version = game.version
        seat.save(update_fields=["last_mailed_version"])


def queue_reminders(game: Game, seats: Sequence[int]) -> None:
    for seat in game.seats.select_related("player").filter(index__in=list(seats)):
        if seat.player is None:
            continue
        events = _events_since(game, seat)
        body, svg, _ = turn_mail_body(game, seat, events)
        _queue(to=seat.player, subject=subject_for(game, "reminder: your move"),
               body=f"Reminder: game #{game.pk} waits for your move.\n\n{body}", game=game,
               reply_to=reply_address(seat), svg=svg)


def queue_reply(to: Player, subject: str, body: str, game: Game | None = None,
                reply_to: str | None = None) -> OutboundMessage:
    """An answer to a player's own mail (rejections, account commands)."""
    return _queue(to=to, subject=subject, body=body, game=game, reply_to=reply_to)
