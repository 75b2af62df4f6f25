"""Players: addresses, names, preferences, tokens. Split from ``services`` (which re-exports
every name here) to keep each module short."""

from __future__ import annotations

import logging
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext

from engine import notation
from engine.core import Rules
from pbem.games import language as languages
from pbem.games.models import Game, Player, Seat
from pbem.games.service_types import Conflict, ServiceError, access_game_for_update
from pbem.mail.parsing import deliverable_address

log = logging.getLogger(__name__)


# ---- players ----------------------------------------------------------------------------


def normalize_email(email: str) -> str:
    return email.strip().lower()


#: Longest display name kept.
NAME_LENGTH = 60


def default_name(email: str) -> str:
    """The name of a player who never chose one: their address's local part."""
    return normalize_email(email).split("@", 1)[0][:NAME_LENGTH]


def check_display_name(name: str) -> str:
    """A name a player chose (or their mail program's ``From`` name), cleaned; raises ServiceError.

    Why no digits: moves name cards and places by number ("give 1 water to anna"), so a
    name holding a number would make such a line ambiguous.
    """
    cleaned = " ".join("".join(ch if ch.isprintable() else " " for ch in name).split()).strip(" \"'<>,;")
    if not cleaned:
        raise ServiceError(gettext("the display name cannot be empty"))
    if len(cleaned) > NAME_LENGTH:
        raise ServiceError(gettext("a name has at most %(name_length)s characters") % {"name_length": NAME_LENGTH})
    if "@" in cleaned:
        raise ServiceError(gettext("a name cannot be an address"))
    if any(ch.isdigit() for ch in cleaned):
        raise ServiceError(gettext("a name cannot hold digits (moves name cards and places by number)"))
    return cleaned


def _usable_name(name: str) -> str | None:
    try:
        return check_display_name(name) if name else None
    except ServiceError:
        return None


def check_title(title: str) -> None:
    """A game title goes into every mail's subject: no control characters (tab, line breaks...)."""
    bad = sorted({f"U+{ord(c):04X}" for c in title if unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp")})
    if bad:
        raise ServiceError(gettext("the title holds control characters (%(chars)s); use letters, digits, spaces "
                                   "and punctuation only") % {"chars": ', '.join(bad)})


def compose_title(rules: Rules, options: Mapping[str, Any], *, campaign: bool = False) -> str:
    """The title a game gets when its creator gives none (``campaign``: the name a campaign gets):
    the game and the mode or scenario its options play (``Rules.game_title``: "Maracaibo: The
    Uprising, Unrest (79)"), so that a mail's subject, the page and the API tell
    a player's games apart; a campaign's game adds its number to the campaign's name
    (campaigns._game_title). Stored in English, said in the reader's language where shown."""
    name = rules.game_title(options)
    if campaign and not options.get("campaign"):  # a series of games without a story of their own
        name = f"{name} campaign"
    return name.strip()[:100]


def check_address(email: str) -> str:
    """``email`` normalised if mail can be sent to it; else a ServiceError saying why.

    Why at the door: an invitation to an address over 254 characters failed with "internal
    error: DataError" (the column is 254 long), and one with a line break in its local part
    made a game that waited for ever for an invitee who could never be mailed."""
    email = normalize_email(email)
    shown = repr(email[:60] + ("..." if len(email) > 60 else ""))
    if len(email) > 254:
        raise ServiceError(gettext("%(shown)s is not an email address we can send to: it is %(length)s characters "
                                   "long, and an address has 254 at most") % {"shown": shown, "length": len(email)})
    if any(ord(c) < 32 or ord(c) == 127 for c in email):
        raise ServiceError(gettext("%(shown)s is not an email address we can send to: it holds a line break or "
                                   "another control character") % {"shown": shown})
    if "@" not in email or not deliverable_address(email):
        raise ServiceError(gettext("%(shown)s is not an email address we can send to") % {"shown": shown})
    return email


def do_create_player(email: str, display_name: str = "") -> Player:
    email = check_address(email)
    if Player.objects.filter(email=email).exists():
        raise Conflict(gettext("a player with address %(email)s exists already") % {"email": email})
    name = (display_name or default_name(email)).strip()[:NAME_LENGTH]
    user = get_user_model().objects.create_user(username=email[:150], email=email)
    # Why the active language: a mail's door speaks its sender's (Content-Language), so a
    # new player takes the language their first answer is written in (issue 27).
    return Player.objects.create(user=user, email=email, display_name=name, language=languages.current())


def do_get_or_create_player(email: str, mail_name: str = "") -> Player:
    """The player of ``email``; a new one is named ``mail_name`` (the From name of their mail) if usable."""
    existing = Player.objects.filter(email=normalize_email(email)).first()
    return existing or do_create_player(email, _usable_name(mail_name) or "")


def do_adopt_mail_name(email: str, mail_name: str, *, known: Player | None = None) -> Player | None:
    """A player who never chose a name (still their address's local part) takes their mail's From name.

    Why only then: a name chosen with ``name ...``, the API or the admin is never overwritten
    by whatever a mail program puts in From. ``known``: the player already read (the seat's),
    used when it is the one with this address, which saves a read of every judged mail (#28).
    """
    address = normalize_email(email)
    if known is not None and known.email == address:
        player: Player | None = known
    else:
        player = Player.objects.filter(email=address).first()
    name = _usable_name(mail_name)
    if player is None or name is None or player.display_name != default_name(player.email):
        return player
    player.display_name = name
    player.save(update_fields=["display_name"])
    return player


def unique_seat_names(names: Sequence[str]) -> list[str]:
    """The names of a game's seats, unique within it (ignoring case and accents).

    A repeated name gets a letter, like a surname initial: Anna, Anna B, Anna C. Why a letter
    and not a number: moves name cards by number ("give 1 water to anna 2" would be read as a
    card). Why it matters: options such as "give 1 water to Anna" must name one seat.
    """
    taken: set[str] = set()
    out: list[str] = []
    for name in names:
        candidate, letter = name, ord("B")
        while notation.fold(candidate) in taken:
            candidate = f"{name} {chr(letter)}"
            letter += 1
        taken.add(notation.fold(candidate))
        out.append(candidate)
    return out


@transaction.atomic
def do_update_preferences(player: Player, *, display_name: str | None = None, mail_mode: str | None = None,
                          vacation_until: Any = ..., language: str | None = None) -> Player:
    """Change a player's name, mail mode, language or vacation. A new name also shows in their running games."""
    if display_name is not None:
        player.display_name = check_display_name(display_name)
        _rename_in_running_games(player)
    if mail_mode is not None:
        if mail_mode not in Player.MailMode.values:
            raise ServiceError(gettext("mail mode must be one of %(choices)s")
                               % {"choices": ', '.join(Player.MailMode.values)})
        player.mail_mode = mail_mode
    if vacation_until is not ...:
        player.vacation_until = vacation_until
    if language is not None:
        code = languages.normalize(language)
        if code is None:
            raise ServiceError(gettext("language must be one of %(choices)s")
                               % {"choices": ', '.join(languages.codes())})
        player.language = code
    player.save()
    return player


def _rename_in_running_games(player: Player) -> None:
    """The player's seats in games under way take the new name (unique within each game).

    Why this is safe: the rules keep names only in ``state["players"]``, and a replay starts
    from the stored names; mails already sent keep the old name, as history does.
    """
    seats = Seat.objects.filter(player=player, index__isnull=False,
                                game__status__in=[Game.Status.RUNNING, Game.Status.PAUSED])
    for game_id, index in seats.values_list("game_id", "index"):
        game = access_game_for_update(game_id)
        assert game.state is not None and index is not None
        names = list(game.state["players"])
        others = [n for i, n in enumerate(names) if i != index]
        names[index] = unique_seat_names([*others, player.display_name])[-1]
        if names[index] != game.state["players"][index]:
            game.state["players"] = names
            game.save(update_fields=["state"])


def do_issue_api_token(player: Player, *, rotate: bool = False) -> str:
    """The player's REST API account token (every scope), created on first use; ``rotate``
    replaces it. Stored hashed: see pbem.tokens.services."""
    from pbem.tokens.services import do_issue_account_token

    return do_issue_account_token(player.user, rotate=rotate)


def do_set_password(player: Player, password: str) -> None:
    """Lets the player log in to the web pages and obtain a token with email and password."""
    if len(password) < 8:
        raise ServiceError(gettext("a password needs at least 8 characters"))
    player.user.set_password(password)
    player.user.save(update_fields=["password"])
