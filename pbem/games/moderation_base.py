"""What the moderation services share: a seat's name in the game, a moment in the reader's words, who the
moderators are, a moderator's reason, and what the no-move policy does to a late seat, in the players' words.

Moderation is read top-down in four modules, each importing only those before it (no import circle:
import-linter contract ``pbem-acyclic``): this one; moderation_seats.py (a seat handed to someone else: a
moderator's replacement, an open seat taken, the standby list); moderation_deadlines.py (deadlines,
extensions, vacations and the deadline sweep); moderation.py (the moderator's tools, and the one module the
doors call: it hands out the services of the others).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import dateformat
from django.utils.translation import gettext

from pbem.games.models import Game, GameModerator
from pbem.games.services import ServiceError


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
