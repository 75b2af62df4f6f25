"""A moderator per game (issue 24): assigned moderators and co-moderators, players writing to
them, and the tools by mail from the moderator's own address.

A staff account may assign a moderator to a game (the lead, or a co-moderator). An assigned
moderator hears of the game's late players and open seats instead of every staff account, may
run the game's tools (the API's moderator endpoints, and by mail), and receives what players
send with ``moderator ...`` in a reply to the game. Their command address for the game,
``mod-<token>@<domain>``, is secret like a seat's reply address and takes mail only from the
moderator's own address, as a seat's does from its player's.
"""

from __future__ import annotations

import hmac
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, ngettext

import engine
from engine import notation
from pbem.games import clocks, language, moderation, moderation_base, moderation_deadlines
from pbem.games.models import Game, GameModerator, Player, Seat, Standby
from pbem.games.services import (
    NAME_LENGTH,
    Command,
    Conflict,
    Forbidden,
    NotFound,
    ServiceError,
    access_game_for_update,
    do_get_or_create_player,
    do_log,
    normalize_email,
)
from pbem.mail import absence_commands, outbox

COMMANDS_HELP = gettext_noop(
    "Commands, one a line, to this address from your own (the rest of a line is the reason the players read):\n"
    "  pause REASON\n"
    "  resume REASON\n"
    "  extend 2d REASON            (or 12h; a number alone is hours)\n"
    "  replace 3 with a@example.org REASON  (or `... as Captain Nina -- REASON`: the name they play as)\n"
    "  rollback 41 REASON          (add `confirm` to go back past a move that revealed something)\n"
    "  message TEXT                (to every player)\n"
    "  move 2 NOTATION -- REASON   (a move for seat 2: an option code or a line of notation)\n"
    "  absence 2 until 2026-12-20 REASON  (or `absence 2 off REASON`: seat 2's player told you)\n"
    "  inspect 2 REASON            (seat 2's hidden information, for a dispute; every player is told)")
#: the moderator commands' words in Portuguese (issue 27), beside the English ones: folded (no accents)
#: -> the English verb; the help lists them (COMMANDS_WORDS)
PORTUGUESE_VERBS = {"pausar": "pause", "retomar": "resume", "prolongar": "extend", "estender": "extend",
                    "substituir": "replace", "voltar": "rollback", "mensagem": "message", "jogar": "move",
                    "ausencia": "absence", "inspecionar": "inspect"}
COMMANDS_WORDS = gettext_noop(
    "In Portuguese too: pausar, retomar, prolongar, substituir 3 por a@example.org (como NOME -- MOTIVO), "
    "voltar 41 (confirmar), mensagem, jogar 2 ... -- MOTIVO, ausência 2 até 2026-12-20 (ausência 2 fim), "
    "inspecionar 2.")


def do_moderator_profile(user: Any) -> Player | None:
    """A staff account's player profile, made for one without (``createsuperuser`` makes none),
    so that it can get an API token and the audit log names it. None for other accounts, or
    when its address belongs to another player already."""
    if not getattr(user, "is_staff", False):
        return None
    existing = Player.objects.filter(user=user).first()
    if existing is not None:
        return existing
    email = normalize_email(user.email or f"{user.get_username()}@{settings.PBEM_MAIL_DOMAIN}")
    if Player.objects.filter(email=email).exists() or "@" not in email:
        return None
    name = (user.get_username() or "moderator")[:NAME_LENGTH]
    return Player.objects.create(user=user, email=email, display_name=name)


def command_address(gm: GameModerator) -> str:
    return f"mod-{gm.token}@{settings.PBEM_MAIL_DOMAIN}"


def is_moderator_of(player: Player | None, game_id: int) -> bool:
    return player is not None and GameModerator.objects.filter(game_id=game_id, player=player).exists()


@transaction.atomic
def do_assign_moderator(game_id: int, actor: Player | None, email: str, *, lead: bool, reason: str) -> GameModerator:
    """A staff account names the game's lead moderator (replacing the lead before, who stays a
    co-moderator) or adds a co-moderator. The moderator gets their command address; the players
    are told whom to write to."""
    reason = moderation_base._reason(reason)
    game = access_game_for_update(game_id)
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        raise Conflict(gettext("game #%(game)s is over") % {"game": game.pk})
    player = do_get_or_create_player(email)
    if game.seats.filter(player=player).exists():
        raise Conflict(gettext("%(email)s plays in game #%(game)s; a player cannot moderate their own game")
                       % {"email": player.email, "game": game.pk})
    gm, _ = GameModerator.objects.get_or_create(game=game, player=player)
    if lead:
        GameModerator.objects.filter(game=game, lead=True).exclude(pk=gm.pk).update(lead=False)
    gm.lead = lead or gm.lead
    gm.save(update_fields=["lead"])
    do_log(game, actor, "moderator-assign", {"moderator": player.email, "lead": gm.lead, "reason": reason})
    with language.speaking(language.of(player)):  # (the new moderator's language, issue 27)
        said = {"pk": game.pk, "title": game.said_title, "reason": reason, "address": command_address(gm),
                "email": player.email}
        role = (gettext("You are now the lead moderator of game #%(pk)s (%(title)s): %(reason)s") if gm.lead
                else gettext("You are now the co-moderator of game #%(pk)s (%(title)s): %(reason)s"))
        body = role % said + "\n\n" + gettext(
            "You hear when the game needs a moderator, and players' `moderator ...` mails reach you. Your command "
            "address for this game is %(address)s (keep it to yourself; it takes mail only from %(email)s)."
        ) % said
        outbox.queue_reply(player, outbox.subject_for(game),
                           f"{body}\n\n{gettext(COMMANDS_HELP)}\n{gettext(COMMANDS_WORDS)}\n", game,
                           reply_to=command_address(gm))
    if game.state is not None:
        name, lead = player.display_name, gm.lead
        outbox.queue_notice(game, lambda: (gettext(
            "%(name)s is now the lead moderator of game #%(game)s.") if lead else gettext(
            "%(name)s is now the co-moderator of game #%(game)s.")) % {"name": name, "game": game.pk} + " " + gettext(
            "To write to the moderators, reply to a game mail with a line starting `moderator`, e.g. `moderator Bob "
            "has not moved for a week`."))
    return gm


@transaction.atomic
def do_write_to_moderator(game_id: int, player: Player, text: str) -> int:
    """A player's ``moderator ...`` mail: forwarded to the game's moderators, who answer the player
    directly (the forward's Reply-To is the player's address). Returns how many were written to."""
    text = text.strip()
    if not text:
        raise ServiceError(gettext("write what the moderator should read after `moderator`"))
    game = access_game_for_update(game_id)
    seat = game.seats.filter(player=player).first()
    if seat is None or seat.index is None:
        raise Forbidden(gettext("you do not play in game #%(game)s") % {"game": game.pk})
    name = moderation_base._name(game, seat.index)
    to = moderation.moderator_emails(game)
    readers = {p.email: p for p in Player.objects.filter(email__in=to).only("email", "language")}
    for address in to:
        with language.speaking(language.of(readers.get(address))):  # (each moderator's language, issue 27)
            said = {"name": name, "email": player.email, "seat": seat.index + 1,  # (people count seats from 1)
                    "pk": game.pk, "title": game.said_title}
            body = (gettext("%(name)s (%(email)s), seat %(seat)s of game #%(pk)s (%(title)s), writes to the "
                            "moderators:") % said + f"\n\n{text[:5000]}\n\n"
                    + gettext("Reply to this mail to answer %(name)s alone.") % said + "\n"
                    + gettext("Game page: %(url)s") % {"url": outbox.game_url(game)} + "\n")
            subject = outbox.subject_for(game, gettext("from %(name)s") % said)
        outbox.queue_reply(None, subject, body, game, reply_to=player.email, to_email=address)
    do_log(game, player, "to-moderator", {"seat": seat.index, "text": text[:5000], "to": len(to)})
    return len(to)


# ---- the tools by mail --------------------------------------------------------------------------


@dataclass(frozen=True)
class LineResult:
    line: str
    ok: bool
    text: str


_DURATION = re.compile(r"^(\d{1,4})([dh]?)$", re.IGNORECASE)
_REPLACE = re.compile(r"^(\d{1,2})\s+(?:with|by|to|por|com|para)\s+(\S+@\S+)\s*(.*)$", re.IGNORECASE)
#: the words that end an absence (``absence 2 off``), in English and Portuguese
_OFF = ("off", "back", "none", "end", "fim", "volta", "voltou")


def access_moderator_by_token(token: str, sender: str) -> GameModerator:
    """The assignment behind a command address, if the mail comes from its moderator's address."""
    gm = GameModerator.objects.select_related("game", "player").filter(token=token).first()
    if gm is None or not hmac.compare_digest(gm.token.encode(), token.encode()):
        raise NotFound(gettext("this moderator address is no longer valid"))
    if sender != gm.player.email:
        raise Forbidden(gettext("a moderator's commands are taken only from the moderator's own address"))
    return gm


def run_line(gm: GameModerator, line: str) -> LineResult:
    """One moderator command; each line is independent, like the account commands."""
    verb, _, rest = line.strip().partition(" ")
    verb, rest = verb.lower().rstrip(":"), rest.strip()
    verb = PORTUGUESE_VERBS.get(notation.fold(verb), verb)
    reason = rest or "(no reason given)"
    game_id, me = gm.game_id, gm.player
    try:
        if verb == "pause":
            moderation.do_pause_game(game_id, me, reason)
            return LineResult(line, True, gettext("paused; the players were told"))
        if verb == "resume":
            moderation.do_resume_game(game_id, me, reason)
            return LineResult(line, True, gettext("resumed; the players got their options"))
        if verb == "extend":
            amount, _, why = rest.partition(" ")
            m = _DURATION.match(amount)
            if m is None:
                return LineResult(line, False, gettext("write how long: `extend 2d REASON` or `extend 12h REASON`"))
            hours = int(m.group(1)) * (24 if m.group(2).lower() == "d" else 1)
            game = moderation.do_extend_deadline(game_id, me, hours, why.strip() or "(no reason given)")
            assert game.deadline_at is not None
            when = moderation.when_text(game.deadline_at)
            deadline = gettext("the deadline is now %(when)s") % {"when": when}
            if clocks.is_banked(game):  # the hours went into the banks of the players the game waits on
                deadline = gettext("%(hours)s hours more on the time bank of each player the game waits on; the "
                                   "first clock to run out now runs out %(when)s") % {"hours": hours, "when": when}
            return LineResult(line, True, deadline)
        if verb == "replace":
            r = _REPLACE.match(rest)
            if r is None:
                return LineResult(line, False, gettext("write `replace SEAT with ADDRESS REASON`, e.g. "
                                                       "`replace 3 with a@example.org Bob left`"))
            why, name = r.group(3).strip(), ""
            said_as = re.match(r"(?:as|como)\s+", why, re.IGNORECASE)
            if said_as:  # `as Captain Nina -- Bob left`: the name the newcomer plays as
                name, dashes, why = why[said_as.end():].partition("--")
                name, why = name.strip(), why.strip()
                if not dashes or not name:
                    return LineResult(line, False, gettext(
                        "write `replace SEAT with ADDRESS as NAME -- REASON`, e.g. "
                        "`replace 3 with a@example.org as Captain Nina -- Bob left`"))
            moderation.do_replace_player_by_address(game_id, me, seat_index(game_id, r.group(1)), r.group(2),
                                                    why or "(no reason given)", name=name)
            said = {"seat": r.group(1), "address": r.group(2), "name": name}
            return LineResult(line, True, (gettext(
                "seat %(seat)s handed to %(address)s, who plays as %(name)s; everyone was told") if name else gettext(
                "seat %(seat)s handed to %(address)s; everyone was told")) % said)
        if verb == "rollback":
            words = rest.split()
            if not words or not words[0].isdigit():
                return LineResult(line, False, gettext("write `rollback MOVE REASON` with the move number of the log"))
            confirm = any(w.lower() in ("confirm", "confirmar") for w in words[1:])
            why = " ".join(w for w in words[1:] if w.lower() not in ("confirm", "confirmar")) or "(no reason given)"
            moderation.do_rollback(game_id, me, int(words[0]), why, confirm_reveals=confirm)
            return LineResult(line, True, gettext("taken back to move %(move)s; every player got a mail")
                              % {"move": words[0]})
        if verb == "message":
            moderation.do_message_players(game_id, me, rest)
            return LineResult(line, True, gettext("sent to every player"))
        if verb in ("move", "absence", "inspect"):
            return _seat_line(gm, line, verb, rest)
    except ServiceError as exc:
        return LineResult(line, False, exc.message)
    return LineResult(line, False, gettext(
        "%(word)s is not a moderator command: pause, resume, extend, replace, rollback, message, move, absence or "
        "inspect (in Portuguese: pausar, retomar, prolongar, substituir, voltar, mensagem, jogar, ausência, "
        "inspecionar)") % {"word": repr(verb)})


def _seat_line(gm: GameModerator, line: str, verb: str, rest: str) -> LineResult:
    """``move``, ``absence`` and ``inspect``: a seat number, then what the API takes."""
    seat_word, _, rest = rest.partition(" ")
    if not seat_word.isdigit():
        return LineResult(line, False, gettext("write the seat number after `%(verb)s`, e.g. `%(verb)s 2 ...`")
                          % {"verb": verb})
    seat, rest, me = int(seat_word), rest.strip(), gm.player
    index = seat_index(gm.game_id, seat_word)  # (the moderator writes the seat as people count it, from 1)
    if verb == "move":
        move, _, why = rest.partition(" -- ")
        if not move.strip():
            return LineResult(line, False, gettext("write `move SEAT NOTATION -- REASON`"))
        moderation.do_move_for_seat(gm.game_id, me, index, [Command(text=move.strip())],
                                    why.strip() or "(no reason given)")
        return LineResult(line, True, gettext("moved for seat %(seat)s; the player and the others were told")
                          % {"seat": seat})
    if verb == "absence":
        first = notation.fold(rest.split()[0]) if rest.split() else ""
        when, _, why = rest.partition(" ") if first in _OFF else _split_date(rest)
        try:
            until = absence_commands.parse_until(when)
        except ValueError as exc:
            return LineResult(line, False, str(exc))
        do_enter_absence(gm.game_id, me, index, until, why.strip() or "(no reason given)")
        if until is None:
            return LineResult(line, True, gettext("seat %(seat)s's player is back: their absence is over; they were "
                                                  "told") % {"seat": seat})
        said = {"seat": seat, "when": moderation.when_text(until)}
        return LineResult(line, True, (gettext(
            "seat %(seat)s's player is away until %(when)s in all their running games; they were told") if _is_admin(
            me) else gettext("seat %(seat)s's player is away until %(when)s in this game; they were told")) % said)
    seen = do_inspect_seat(gm.game_id, me, index, rest or "(no reason given)")
    shown = "\n".join(f"    {t}" for t in seen.text.splitlines())
    return LineResult(line, True, gettext("what %(name)s sees (every player was told you looked):")
                      % {"name": seen.name} + f"\n{shown}")


def seat_index(game_id: int, number: str | int) -> int:
    """The index (from 0, as the engine and the API's ``seat`` fields have it) of the seat a person names
    by its number (from 1, as the game page, the mails and the moderator page count), or NotFound naming
    the game's seats: ``replace 0 with ...`` or a seat beyond the last is refused, never taken as another."""
    seats = Seat.objects.filter(game_id=game_id, index__isnull=False).count()
    n = int(number)
    if not 1 <= n <= seats:
        raise NotFound(gettext("game #%(game)s has seats 1 to %(last)s, not %(seat)s")
                       % {"game": game_id, "last": seats, "seat": n})
    return n - 1


def _split_date(rest: str) -> tuple[str, str, str]:
    """``until 2026-12-20 18:00 Bob phoned`` -> the date words and the reason: the longest run of
    leading words that reads as a date."""
    words = rest.split()
    for n in range(min(len(words), 5), 0, -1):
        try:
            absence_commands.parse_until(" ".join(words[:n]))
        except ValueError:
            continue
        return " ".join(words[:n]), " ", " ".join(words[n:])
    return rest, " ", ""


def do_moderator_mail(token: str, sender: str, lines: list[str]) -> tuple[GameModerator, list[LineResult]]:
    """Every command line of a moderator's mail to their command address (raises NotFound or
    Forbidden for a wrong address or sender), audited by each service with the moderator as actor."""
    gm = access_moderator_by_token(token, sender)
    return gm, [run_line(gm, line) for line in lines[:20]]


# ---- inspect: a seat's hidden information, for a dispute -----------------------------------------


@dataclass(frozen=True)
class Inspection:
    game: Game
    seat: int
    name: str
    view: dict[str, object]
    text: str


@transaction.atomic
def do_inspect_seat(game_id: int, moderator: Player | None, seat_index: int, reason: str) -> Inspection:
    """What one seat may see (its hand, its hidden cards), for a moderator settling a dispute.

    A moderator's pages and mails show the spectator's view; this is the one way past it. It
    needs a reason, is audited (``inspect``), and every player is told that it happened, whose
    seat and why, so a moderator who plays favourites cannot do it unseen."""
    reason = moderation_base._reason(reason)
    game = access_game_for_update(game_id)
    if game.state is None:
        raise Conflict(gettext("game #%(game)s has not started") % {"game": game.pk})
    if not game.seats.filter(index=seat_index).exists():
        raise NotFound(gettext("game #%(game)s has no seat %(seat_index)s")
                       % {"game": game.pk, "seat_index": seat_index})
    rules = engine.get(game.rules)
    view = rules.view(game.state, seat_index)
    name = moderation_base._name(game, seat_index)
    do_log(game, moderator, "inspect", {"seat": seat_index, "reason": reason})
    outbox.queue_notice(game, lambda: gettext("A moderator looked at %(name)s's hidden information in game #%(game)s "
                                              "(what only %(name)s sees): %(reason)s") % {
        "name": name, "game": game.pk, "reason": reason})
    return Inspection(game, seat_index, name, view, rules.render_text(view))


# ---- the standby list ------------------------------------------------------------------------------


@transaction.atomic
def do_volunteer(player: Player, game_id: int | None, *, on: bool = True) -> str:
    """Put ``player`` on the standby list of one game (or of any game, ``game_id`` None), or take
    them off it (``on`` False: off every list). Returns the answer for them."""
    if not on:
        n, _ = Standby.objects.filter(player=player).delete()
        return ngettext("You are off the standby list (%(n)s entry).", "You are off the standby lists (%(n)s entries).",
                        n) % {"n": n}
    game: Game | None = None
    if game_id is not None:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise NotFound(gettext("there is no game #%(game)s") % {"game": game_id})
        if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
            raise Conflict(gettext("game #%(game)s is over") % {"game": game.pk})
        if game.seats.filter(player=player).exists():
            raise Conflict(gettext("you play in game #%(game)s already") % {"game": game.pk})
    _, created = Standby.objects.get_or_create(player=player, game=game)
    where = gettext("game #%(game)s") % {"game": game_id} if game is not None else gettext("any game")
    ahead = Standby.objects.filter(game=game).count()
    do_log(game, player, "standby", {"game": game_id})
    said = {"where": where, "ahead": ahead}
    return (gettext("You are now on the standby list for %(where)s (%(ahead)s on it).") % said if created else gettext(
        "You are already on the standby list for %(where)s (%(ahead)s on it).") % said) + " " + gettext(
        "When a seat opens for a replacement, volunteers are offered it in the order they signed up, with the game "
        "so far. `standby off` takes you off.")


# ---- absences entered by a moderator ---------------------------------------------------------------


def _is_admin(player: Player | None) -> bool:
    """A staff account (or the system, None): an admin, whose absence is the player's vacation."""
    return player is None or bool(player.user_id and player.user.is_staff)


@transaction.atomic
def do_enter_absence(game_id: int, moderator: Player | None, seat_index: int, until: datetime | None,
                     reason: str) -> Game:
    """A moderator enters (or ends, ``until`` None) the absence of a seat's player, who told them
    another way, within the game's limits, and the player is told who entered it and why.

    A game's moderator acts on that game only: the absence holds the seat in this game (QA, #23:
    it became the player's vacation in all their running games, whose players were mailed). An
    admin (a staff account) enters it as the player's own ``vacation``, in all their games."""
    reason = moderation_base._reason(reason)
    game = access_game_for_update(game_id)
    seat = game.seats.select_related("player").filter(index=seat_index).first()
    if seat is None or seat.player is None:
        raise NotFound(gettext("game #%(game)s has no player in seat %(seat)s") % {"game": game.pk, "seat": seat_index})
    everywhere = _is_admin(moderator)
    do_log(game, moderator, "absence", {"seat": seat_index, "until": until.isoformat() if until else None,
                                        "reason": reason, "games": "all" if everywhere else "this"})
    if everywhere:
        moderation.do_set_vacation(seat.player, until, via="moderator")
    else:
        _set_seat_absence(game, seat, until)
    with language.speaking(language.of(seat.player)):  # (the player's language: issue 27)
        said = (gettext("until %(when)s") % {"when": moderation.when_text(until)} if until is not None
                else gettext("ended"))
        scope = gettext(
            "It works as your own `vacation` in all your running games; reply `vacation off` to the general address "
            "(%(address)s) when you are back early.") if everywhere else gettext(
            "It holds your deadline in game #%(game)s only, as a `vacation` would; reply `vacation off` to the "
            "general address (%(address)s) when you are back early.")
        outbox.queue_reply(seat.player, outbox.subject_for(game), gettext(
            "A moderator of game #%(game)s entered your absence (%(said)s): %(reason)s") % {
            "game": game.pk, "said": said, "reason": reason} + "\n\n" + scope % {
            "address": outbox.general_address(), "game": game.pk} + "\n", game)
    game.refresh_from_db()
    return game


def _set_seat_absence(game: Game, seat: Seat, until: datetime | None) -> None:
    """Start (or end, with None) the absence of the seat's player in this game only; the game's
    deadline (or the seat's clock) waits for it as for a vacation, within the game's limits."""
    now = timezone.now()
    if until is not None and until <= now:
        raise ServiceError(gettext("a vacation must end in the future"))
    if until is not None and until > now + timedelta(days=365):
        raise ServiceError(gettext("a vacation can last a year at most"))
    running = game.status == Game.Status.RUNNING
    if running:  # time banks: the clock charged under the absence as it was till now
        clocks.checkpoint(game, [seat.index or 0], now)
    seat.absent_until = until
    seat.save(update_fields=["absent_until"])
    seat.refresh_from_db()
    away = seat.away_until
    if running and (until is not None or away is None or away <= now):  # (still on their own vacation: away)
        moderation_deadlines._away_in_game(game, seat, away if until is not None else None, now)
