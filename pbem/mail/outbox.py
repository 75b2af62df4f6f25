"""Writing the outbox: one row per mail, in the caller's transaction.

Nothing here sends; ``sending.py`` does, after commit, through the task queue.
Each player's mail is built from their own view and their own redacted events,
never from the raw state, and names players by display name only: no mail
carries another player's address or another seat's token.

Threading: every mail of a game carries ``References`` to the game's root id
``<pbem.gameN@domain>`` and ``Thread-Topic: [pbem #N] Title``; its subject is that topic and
what the mail is (``[pbem #N] Title: your turn, round II``, ``...: Bob moved``, ``...: game over``),
see docs/mail.md "Threading and subjects". Each of our Message-IDs carries the game version the
mail showed, so a late reply can be told that the game moved on.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import secrets
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

from django.conf import settings
from django.db import connection
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

import engine
from engine.core import Event, Option, visible_events
from engine.notation import format_options
from pbem.games import campaign_selectors, clocks, dispatch, language, pages, wording
from pbem.games.links import seat_page_url
from pbem.games.models import (
    ChatMessage,
    Game,
    InboundMessage,
    MailAddress,
    Move,
    OutboundMessage,
    Player,
    Seat,
    Source,
    said_game_title,
)
from pbem.mail import compose, due, seatrow
from pbem.mail.parsing import REPLY_MARKER, deliverable_address, reply_marker, without_controls

__all__ = [
    "REPLY_MARKER",
    "game_url",
    "queue_digest",
    "queue_game_update",
    "queue_invitation",
    "queue_postmaster_copy",
    "queue_reminders",
    "queue_reply",
    "queue_step_answer",
    "reply_address",
    "subject_for",
    "thread_id",
]

_VERSION_ID = re.compile(r"<pbem\.g(?P<game>\d+)\.v(?P<version>\d+)\.[0-9a-f]+@", re.IGNORECASE)


def reply_address(seat: Seat) -> str:
    return f"seat-{seat.token}@{settings.PBEM_MAIL_DOMAIN}"


def general_address() -> str:
    return settings.PBEM_FROM_EMAIL


def thread_id(game: Game) -> str:
    return f"<pbem.game{game.pk}@{settings.PBEM_MAIL_DOMAIN}>"


def new_message_id(game: Game | None = None) -> str:
    rand = secrets.token_hex(6)
    if game is None:
        return f"<pbem.m.{rand}@{settings.PBEM_MAIL_DOMAIN}>"
    return f"<pbem.g{game.pk}.v{game.version}.{rand}@{settings.PBEM_MAIL_DOMAIN}>"


def version_answered(references: str, game_id: int) -> int | None:
    """The game version shown by the mail of ours that a reply answers, if it says."""
    found = [int(m.group("version")) for m in _VERSION_ID.finditer(references or "")
             if int(m.group("game")) == game_id]
    return max(found) if found else None


def game_url(game: Game) -> str:
    return f"{settings.PBEM_PUBLIC_URL}/games/{game.pk}/"


def subject_for(game: Game, what: str = "") -> str:
    """``[pbem #N] Title``, the game's thread topic, then what the mail is when ``what`` says it
    (``[pbem #N] Title: your turn, round II``): an inbox tells a game's mails apart, and clients
    that thread by References (Thunderbird, Apple Mail, mutt) or Thread-Topic (Outlook) keep them
    in one thread. Answers to a player's own mail keep the bare topic after ``Re:``."""
    topic = f"[pbem #{game.pk}] {' '.join(without_controls(game.said_title).split())}"
    what = " ".join(without_controls(what).split())
    return f"{topic}: {what}" if what else topic


_ROMAN = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def roman(n: int) -> str:
    """A round as the rulebooks number them (round II); 0 or less as digits."""
    if n <= 0 or n > 39:
        return str(n)
    out = ""
    for value, letters in _ROMAN:
        while n >= value:
            out, n = out + letters, n - value
    return out


def update_what(game: Game, seat: Seat, content: dict[str, Any], log: tuple[int, list[Move]] | None = None) -> str:
    """What an update mail is, for its subject: "game over", "paused", "your turn, round II",
    "Bob moved" (the other seats whose moves it tells), "waiting for Bob"."""
    if content["finished"]:
        return _("game over")
    if content["options"]:
        if game.status == Game.Status.PAUSED:
            return _("paused")
        rnd = (content.get("view") or {}).get("round")
        if isinstance(rnd, int) and not isinstance(rnd, bool):
            return _("your turn, round %(round)s") % {"round": roman(rnd)}
        return _("your turn")
    assert game.state is not None and seat.index is not None
    if log is not None and log[0] <= seat.last_mailed_version:  # the moves read already hold these
        movers = sorted({m.seat for m in log[1] if m.undone_at is None and m.version > seat.last_mailed_version
                         and m.seat != seat.index})
    else:
        movers = sorted(set(Move.objects.filter(game=game, version__gt=seat.last_mailed_version,
                                                undone_at__isnull=True).exclude(seat=seat.index)
                            .values_list("seat", flat=True)))
    names = _names(game, [m for m in movers if 0 <= m < len(game.state.get("players", []))])
    if names:
        joined = names[0] if len(names) == 1 else _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]),
                                                                                 "last": names[-1]}
        return ngettext("%(names)s moved", "%(names)s moved", len(names)) % {"names": joined}
    return _("waiting for %(names)s") % {"names": ", ".join(content["waiting"])} if content["waiting"] else ""


def _thread_headers(game: Game) -> dict[str, str]:
    """Every mail of a game answers the game's root id, so clients thread them together.

    Why the root is never a sent mail itself: each of our Message-IDs carries the
    game version it showed, which is how a late reply is told the game moved on.
    """
    root = thread_id(game)
    return {"Message-ID": new_message_id(game), "In-Reply-To": root, "References": root,
            "Thread-Topic": subject_for(game)}


def _queue(*, to: Player | None, subject: str, body: str = "", game: Game | None = None, reply_to: str | None = None,
           content: dict[str, Any] | None = None, extra_headers: dict[str, str] | None = None,
           to_email: str | None = None, thread: bool = True, send: bool = True) -> OutboundMessage:
    """One outbox row; ``send`` False: the caller hands it to the queue with others (see _send_batch).

    ``body``: a plain-text mail's text. ``content``: an update mail's content, from which its
    text, HTML and picture are composed when it is sent (see pbem.mail.compose)."""
    row = _row(to=to, subject=subject, body=body, game=game, reply_to=reply_to, content=content,
               extra_headers=extra_headers, to_email=to_email, thread=thread)
    row.save(force_insert=True)
    if send and row.status == OutboundMessage.Status.PENDING:
        dispatch.enqueue("pbem.send_outbound", row.pk)
    return row


def _row(*, to: Player | None, subject: str, body: str = "", game: Game | None = None, reply_to: str | None = None,
         content: dict[str, Any] | None = None, extra_headers: dict[str, str] | None = None,
         to_email: str | None = None, thread: bool = True) -> OutboundMessage:
    """The outbox row of a mail, not saved yet (:func:`_queue` saves one; a change's mails are
    saved together, in one statement: :func:`queue_game_update`)."""
    address = to_email or (to.email if to is not None else "")
    assert address, "a mail needs a recipient"
    # Why cleaned here as well as where the text comes from: a control character in any
    # header (a game title, an echoed subject) makes the mail unsendable at the relay.
    subject = " ".join(without_controls(subject).split())
    # Why not the headers every mail carries (compose.STANDARD_HEADERS): the sender adds them;
    # stored in each row they were a tenth of what a row keeps for ever.
    headers: dict[str, str] = {}
    if game is not None and thread:
        # (the topic in the reader's language, whatever the caller speaks now: it was English in a
        # Portuguese player's mails where the row was made after the text, issue 27)
        with language.speaking(language.of(to) if to is not None else language.current()):
            headers.update(_thread_headers(game))
    else:
        headers["Message-ID"] = new_message_id(game)
    if reply_to:
        headers["Reply-To"] = reply_to
    headers.update(extra_headers or {})
    headers = {k: " ".join(without_controls(str(v)).split()) for k, v in headers.items()}
    if not deliverable_address(address):
        # Why recorded, not queued: no relay will ever take it; retrying would only delay the
        # rest. The row says what happened (an operator sees it as failed, never retried).
        return OutboundMessage(
            game=game, player=to, to_email=re.sub(r"[\x00-\x1f\x7f]", " ", address)[:254], subject=subject[:255],
            body_text=body, content=content, headers=headers, status=OutboundMessage.Status.FAILED,
            last_error="undeliverable: the address cannot be sent to; dropped before queueing")
    return OutboundMessage(game=game, player=to, to_email=address, subject=subject[:255],
                           body_text=body, content=content, headers=headers)


def _send_batch(rows: Sequence[OutboundMessage]) -> None:
    """The mails of one change as one task over one SMTP connection, instead of one task each.

    Why it keeps reliability: every row is still claimed, counted and retried on its own by
    the send service, and the outbox sweeper requeues any row a lost batch left pending.
    """
    rows = [r for r in rows if r.status == OutboundMessage.Status.PENDING]
    if len(rows) == 1:
        dispatch.enqueue("pbem.send_outbound", rows[0].pk)
    elif rows:
        dispatch.enqueue("pbem.send_outbound_batch", [r.pk for r in rows])


# ---- invitations -------------------------------------------------------------------------------


def _options_text(game: Game, n_players: int) -> str:
    """The game's options that mean something for this many players (no solo-only ones for three)."""
    shown = engine.get(game.rules).options_in_play(game.options or {}, n_players)
    if not shown:
        return "  " + _("(none)")

    def written(value: object) -> str:
        # as a player writes it in ``new ... key=value`` (QA: "promos = False", Python's words, in any language)
        return ("yes" if value else "no") if isinstance(value, bool) else str(value)

    return "\n".join(f"  {k} = {written(v)}" for k, v in sorted(shown.items()))


def _continued(game: Game) -> str:
    """For a game that goes on from earlier games of its campaign (an imported archive's first game here,
    QA #23: its invitation said nothing of it): that it continues the campaign, and the story so far, as
    a newcomer to a seat is told it (campaigns.do_hand_over_seat)."""
    if game.campaign_id is None or (game.campaign_number or 0) <= 1:
        return ""
    campaign = game.campaign
    assert campaign is not None
    said = {"campaign": campaign.pk, "name": campaign.name, "number": game.campaign_number}
    return "\n" + _("This game continues campaign #%(campaign)s (%(name)s): it is its game %(number)s. Here is the "
                    "story so far.") % said + f"\n\n{campaign_selectors.story_so_far(campaign)}\n"


def queue_invitation(seat: Seat) -> OutboundMessage:
    game = seat.game
    assert seat.player is not None or seat.invited_email
    rules = engine.get(game.rules)
    n = game.seats.count()
    with language.speaking(language.of(seat.player)):
        body = f"{reply_marker()}\n\n" + _(
            "%(who)s invites you to play %(rules)s: game #%(pk)s, \"%(title)s\", for %(n)s players.\n\n"
            "To take your seat, reply to this mail with the word\n\n    join\n\n"
            "or, if you do not want to play,\n\n    decline\n\n"
            "The game starts as soon as every seat is taken; then each of you gets a mail with the board, "
            "and your options whenever it is your turn.\n\n"
            "Game options:\n%(options)s\n\n"
            "Game page: %(url)s\n"
            "Account commands (help, games, new, join, decline, resign, extend, vacation): mail %(general)s\n") % {
            "who": game.created_by.display_name, "rules": said_game_title(rules.title, game.rules), "pk": game.pk,
            "title": game.said_title, "n": n,
            "options": _options_text(game, n), "url": game_url(game), "general": general_address()}
        body += _continued(game)
        subject = subject_for(game, _("invitation"))
    return _queue(to=seat.player, subject=subject, body=body, game=game,
                  reply_to=reply_address(seat), to_email=seat.invited_email or None)


# ---- game updates ------------------------------------------------------------------------------


#: At most this many game versions are told in one mail; older ones are on the game page.
#: Why a bound: a mail (a digest, a seat back from a long absence) must not read a log that grows.
MAX_SINCE_VERSIONS = 200


def _floor(game: Game, seat: Seat) -> int:
    """The version a seat's next mail tells the story from (at most MAX_SINCE_VERSIONS back)."""
    return max(seat.last_mailed_version, game.version - MAX_SINCE_VERSIONS)


def _log_since(game: Game, floor: int) -> list[Move]:
    """The moves after ``floor`` and those taken back after it: what a story from ``floor`` reads.

    One statement, two index range scans, (game, version) and the partial (game, undone_version):
    each reads only the rows after ``floor``, not the whole log. The rows of a lower floor hold
    those of every higher one, so one read serves the mails of several seats (#28). Why written
    out (issue 28, perf): the ORM built this filter anew for every move's mails, about 1 ms of CPU."""
    table = connection.ops.quote_name(Move._meta.db_table)
    return seatrow.read_models(Move, f"SELECT {', '.join(_LOG_COLUMNS)} FROM {table} WHERE game_id = %s AND "
                               "((version > %s AND undone_at IS NULL) OR undone_version > %s) ORDER BY number",
                               [game.pk, floor, floor], _LOG_COLUMNS)


_LOG_COLUMNS = ("id", "version", "number", "events", "seat", "source", "undone_at", "undone_version")


def _events_since(game: Game, seat: Seat, log: tuple[int, list[Move]] | None = None) -> list[Event]:
    """What happened after the seat's last mail, in order; moves taken back are not shown as
    having happened: an undo after that mail is mentioned instead, at the version it happened.
    ``log``: the moves read from a floor at or below this seat's (:func:`_log_since`), if read."""
    since = seat.last_mailed_version
    floor = _floor(game, seat)
    rows = log[1] if log is not None and log[0] <= floor else _log_since(game, floor)
    live = [r for r in rows if r.undone_at is None and r.version > floor]
    undone = [r for r in rows if r.undone_version is not None and r.undone_version > floor]
    timeline: list[tuple[int, int, Event]] = []
    names = list((game.state or {}).get("players", []))
    code = language.current()
    played_for: set[tuple[int, int]] = set()
    for row in sorted(live, key=lambda r: r.number):
        said = _played_for(row, names)
        if said is not None and (row.version, row.seat) not in played_for:
            # Why: the story tells these moves like any other ("You plan ..."), which reads as the
            # player's own choice; a line before them says who chose them
            played_for.add((row.version, row.seat))
            timeline.append((row.version, row.number, said))
        timeline.extend((row.version, row.number, _told(e, code)) for e in row.events)
    undos: dict[int, int] = {}  # version of the undo -> seat that took its move back
    for row in sorted(undone, key=lambda r: r.number):
        if row.undone_version is not None:
            undos.setdefault(row.undone_version, row.seat)
    for version, who in undos.items():
        name = str(names[who]) if 0 <= who < len(names) else f"seat {who + 1}"
        timeline.append((version, 0, Event("undo", _("%(name)s took back their last move") % {"name": name})))
    timeline.sort(key=lambda t: (t[0], t[1]))
    if floor > since:
        timeline.insert(0, (floor, -1, Event("omitted", _("Older moves are not repeated here: "
                                                          "the game page has the whole log."))))
    # Why a resigned player reads the spectator's events: from the moment they left, what their
    # seat's autoplay saw (its new cards, a hand it looked at) is no longer theirs to know.
    return visible_events([e for _v, _n, e in timeline], _viewer(seat))


def _told(event: dict[str, Any], code: str) -> Event:
    """A stored event, its text in the reader's language (issue 27: rendered again from its message)."""
    # (in English too: the text was made in the language of whoever moved)
    if event.get("msg"):
        event = {**event, "text": language.event_text(event, code)}
    return Event.from_dict(event)


def _played_for(row: Move, names: list[Any]) -> Event | None:
    """The story's line before moves that were not their player's choice (a missed deadline, a
    bot, a moderator), or None for a player's own move."""
    name = str(names[row.seat]) if 0 <= row.seat < len(names) else f"seat {row.seat + 1}"
    text = {Source.DEADLINE: gettext_noop("Civil disorder: %(name)s missed the deadline, so the game played for "
                                          "%(name)s (not %(name)s's own choice):"),
            Source.BOT: gettext_noop("The game's bot played for %(name)s (not %(name)s's own choice):"),
            Source.MODERATOR: gettext_noop("A moderator moved for %(name)s:")}.get(Source(row.source))
    return Event("played-for", _(text) % {"name": name}) if text else None


def _viewer(seat: Seat) -> int | None:
    """The seat whose events a seat's player is shown: their own, or the spectator's once they resigned."""
    return None if seat.status == Seat.Status.RESIGNED else seat.index


def _names(game: Game, seats: Iterable[int]) -> list[str]:
    rules = engine.get(game.rules)
    assert game.state is not None
    return [rules.seat_name(game.state, s) for s in seats]


def _outcome_lines(game: Game) -> list[str]:
    """The result in a text mail: the winner first, then each place with its score's parts."""
    out = game.outcome or {}
    names = [str(n) for n in (game.state or {}).get("players", [])]
    rows, heads = pages.results(out, names)
    winners = [r.name for r in rows if r.winner]
    lines: list[str] = []
    team = out.get("team")
    if winners and not team:
        lines.append(ngettext("Winner: %(names)s", "Winners: %(names)s", len(winners)) % {"names": ", ".join(winners)})
    for r in rows:
        parts = "; ".join(f"{h} {v}" for h, v in zip(heads, r.parts, strict=True) if v != "-")
        # "whole game": the points by source over the game, not the final scoring's lines above them (QA, #22)
        said = _("whole game: %(parts)s") % {"parts": parts} if parts else ""
        # a cooperative table is no ranking: no places (its result follows)
        lines.append(f"  {'' if team else f'{r.place}. '}{r.name}: {r.score}" + (f" ({said})" if said else ""))
    if team:  # a cooperative game: one result for the whole table, and why
        lines.append(_("The table won together.") if team["won"] else _("The table lost together."))
        if team["met"]:
            lines.append(_("Conditions met: %(list)s.") % {"list": "; ".join(team["met"])})
        if team["missed"]:
            lines.append(_("Conditions missed: %(list)s.") % {"list": "; ".join(team["missed"])})
    if out.get("reason"):
        lines.append(_("Why it ended: %(reason)s") % {"reason": language.translate(str(out["reason"]))})
    return lines


MODE_NOTE = {  # (translated where they are used: gettext_noop only marks them)
    Player.MailMode.MY_TURN: gettext_noop(
        "Mail mode: turns. You get a mail when the game waits for you and when it ends; "
                              "what the others did is told in your next mail. Reply with mail all to hear "
                              "after every turn, or mail digest for one mail a day."),
    Player.MailMode.EVERY_MOVE: gettext_noop(
        "Mail mode: all. You get a mail when the game waits for you and after every "
                                 "turn. Reply with mail turns for fewer mails."),
    Player.MailMode.DIGEST: gettext_noop(
        "Mail mode: digest. You get one mail a day with everything that happened, and "
                             "one when the game ends. Reply with mail turns to hear whenever it is your turn."),
}



def _chat_since(game: Game, seat: Seat, *, keep: bool = False) -> list[ChatMessage]:
    """The chat after the seat's last mail. ``keep``: kept on the seat object for the next read
    only, which takes it (the mail's content, then its mark, read the same rows in one
    transaction; the second read was one statement more for every mail, #28)."""
    kept = seat.__dict__.pop("_pbem_chat_read", None)
    if kept is not None and kept[0] == (game.pk, seat.last_mailed_chat):
        if keep:
            seat.__dict__["_pbem_chat_read"] = kept
        return list(kept[1])
    rows = list(ChatMessage.objects.filter(game=game, pk__gt=seat.last_mailed_chat).order_by("pk"))
    if keep:
        seat.__dict__["_pbem_chat_read"] = ((game.pk, seat.last_mailed_chat), rows)
    return rows


#: At most this many codes are named where a mail points to the options of the mail before it.
AGAIN_CODES = 12


def options_again(options: Sequence[Option]) -> str:
    """What a mail says instead of listing the options of the mail before it again: the player
    moved, and their next decision offers the very same choices (a second card of one kind to
    discard, a second card to draw): "never two mails in a row with the same options"."""
    codes = [o.code for o in options]
    named = ", ".join(codes[:AGAIN_CODES]) + (_(" and %(n)d more") % {"n": len(codes) - AGAIN_CODES}
                                               if len(codes) > AGAIN_CODES else "")
    return "  " + _("The same as in my last mail (%(codes)s): your move was applied, and you choose again "
                    "from the same options.") % {"codes": named}


def _mail_content(game: Game, seat: Seat, events: Sequence[Event], *, intro: str = "",
                  compact: bool = False, again: bool = False) -> tuple[dict[str, Any], list[Option]]:
    """Everything one player's update mail shows, from their own view only, as the outbox row
    stores it (JSON; pbem.mail.compose makes the text, HTML and picture of it when the mail is
    sent), and the options it lists.

    ``compact``: the answer to their own mail within their turn (:func:`queue_step_answer`).
    ``again``: a mail about a change (not a reminder or a moderator's): when its options are
    those of the seat's last mail, it says so instead of listing them again (:func:`options_again`).
    """
    rules = engine.get(game.rules)
    assert game.state is not None and seat.index is not None and seat.player is not None
    finished = game.status == Game.Status.FINISHED
    gone = _viewer(seat) is None
    # A resigned player sees the spectator's view while the game runs, their own seat's at the end.
    view = rules.view(game.state, None if gone and not finished else seat.index)
    # listed in the game's presented order (Maretta: as the hand is shown); the codes are the engine's
    kept = _options_kept(game, seat)
    options: list[Option] = [] if gone else kept if kept is not None else rules.presented(
        game.state, seat.index, rules.options(game.state, seat.index))
    pending = rules.pending(game.state)
    deadline = "" if finished else wording.deadline_words(game.deadline_at, timezone.now())
    bank = None if finished else clocks.bank_words(game, seat, timezone.now())
    if bank is not None:
        deadline = bank
    you = rules.seat_name(game.state, seat.index)
    names = [str(n) for n in game.state.get("players", [])]
    if finished:
        winners = [r.name for r in pages.results(game.outcome or {}, names)[0] if r.winner]
        g = {"pk": game.pk, "title": game.said_title}
        headline = (ngettext("Game #%(pk)s (%(title)s) is over: %(winners)s wins.",
                             "Game #%(pk)s (%(title)s) is over: %(winners)s win.", len(winners))
                    % {**g, "winners": _(" and ").join(winners)} if winners
                    else _("Game #%(pk)s (%(title)s) is over.") % g)
    elif options and game.status == Game.Status.PAUSED:
        # Why not "your turn": nothing is taken until a moderator resumes the game (a rollback
        # or a replacement during a pause still shows the board and the options to come).
        headline = _("Game #%(pk)s (%(title)s) is paused by a moderator: your options when it resumes "
                     "are below; moves are not taken until then.") % {"pk": game.pk, "title": game.said_title}
    elif options and compact:
        headline = _("Your mail was applied; your turn in game #%(pk)s (%(title)s) goes on.") % {
            "pk": game.pk, "title": game.said_title}
    elif options:
        headline = _("It is your turn in game #%(pk)s (%(title)s).") % {"pk": game.pk, "title": game.said_title}
    else:
        waiting = ", ".join(_names(game, pending)) or _("nobody")
        headline = _("Game #%(pk)s (%(title)s): waiting for %(waiting)s.") % {
            "pk": game.pk, "title": game.said_title, "waiting": waiting}
    others_waiting = [s for s in pending if s != seat.index]
    first = seat.last_mailed_version == 0
    same = bool(again and options and not first and due.options_signature(options) == seat.last_mailed_options)
    chat = [[rules.seat_name(game.state, m.seat) if m.seat != seat.index else _("You"), m.text]
            for m in _chat_since(game, seat, keep=True)]
    rows, heads = pages.results(game.outcome or {}, names) if finished else ([], [])
    content = {
        "v": compose.CONTENT_VERSION,
        # the language its fixed texts are made in when it is sent (issue 27; made in it here too)
        "lang": language.current(),
        "rules": game.rules,
        # Why the seed only once finished: until then it is the game's secret.
        "game": {"pk": game.pk, "title": game.said_title, "seed": game.seed if finished else "",
                 "seed_hash": game.seed_hash, "outcome": {"reason": (game.outcome or {}).get("reason")}},
        # The seat's own view: its text and the mail's picture are made of it when it is sent.
        "view": view,
        # Why only then: the picture is the heaviest part of a mail; it goes with a mail that
        # asks for a decision (and the first one), every other mail links the page instead.
        "picture": bool((options or first) and not finished and not compact),
        "intro": intro,
        "headline": headline,
        "deadline": deadline if options or first else "",
        "options": [{"code": o.code, "label": o.label} for o in options],
        "options_text": options_again(options) if same else format_options(options) if options else "",
        "same_options": same,
        "examples": wording.notation_examples(options),
        # one worked whole turn from these options (the game's, on a copy: engine Rules.example_turn)
        "example_turn": rules.example_turn(game.state, seat.index) if options and not compact else [],
        "events": wording.story(events, seat.index, you),
        "chat": chat,
        "compact": compact,
        "waiting": _names(game, others_waiting),
        "players": _names(game, range(len(names))),
        "you": you,
        "finished": finished,
        "outcome": _outcome_lines(game) if finished else [],
        "results": [[dataclasses.asdict(r) for r in rows], heads],
        "url": seat_page_url(seat),
        "marker": reply_marker(),
        "mode_note": _(MODE_NOTE.get(Player.MailMode(seat.player.mail_mode), "")) if first and not compact else "",
        # the first mail says how to choose the language (issue 27)
        "language_note": _("Your mails are in English; to change the language, mail %(general)s with: "
                           "language pt") % {"general": general_address()} if first and not compact else "",
        "general": general_address(),
    }
    return content, options


#: A text for a mail of several readers: a catalogue's msgid (said by ``_``), or a function that says
#: it, called once a reader in the reader's language (a text with its own figures: issue 27).
Said = str | Callable[[], str]


def _say(text: Said) -> str:
    return text() if callable(text) else _(text)


def _queue_update_for(game: Game, seat: Seat, *, intro: Said = "", send: bool = True,
                      again: bool = False, kind: str = "") -> OutboundMessage:
    """``kind``: said before what the mail is in its subject ("reminder", "digest")."""
    row, options = _update_row(game, seat, intro=intro, again=again, kind=kind)
    row.save(force_insert=True)
    if send and row.status == OutboundMessage.Status.PENDING:
        dispatch.enqueue("pbem.send_outbound", row.pk)
    _mark_mailed(game, seat, options)
    return row


def _update_row(game: Game, seat: Seat, *, intro: Said = "", again: bool = False, kind: str = "",
                log: tuple[int, list[Move]] | None = None) -> tuple[OutboundMessage, list[Option]]:
    """A seat's update mail as an unsaved row, and the options it lists. ``log``: see _events_since."""
    assert seat.player is not None
    with language.speaking(language.of(seat.player)):
        content, options = _mail_content(game, seat, _events_since(game, seat, log), intro=_say(intro) if intro else "",
                                         again=again)
        what = update_what(game, seat, content, log)  # (the subject in the reader's language too: issue 27)
        what = f"{kind}, {what}" if kind and what else kind or what
        subject = subject_for(game, what)  # (the game's title said for the reader too)
    return _row(to=seat.player, subject=subject, game=game, reply_to=reply_address(seat),
                content=content), options


def story_since(game: Game, seat: Seat) -> list[str]:
    """What happened since the seat's last mail, told to its player (:func:`wording.story`)."""
    assert game.state is not None and seat.index is not None
    you = engine.get(game.rules).seat_name(game.state, seat.index)
    return wording.story(_events_since(game, seat), seat.index, you)


def mark_told(game: Game, seat: Seat) -> None:
    """An answer told the seat's player everything up to now and listed their options now
    (the answer to a mail applied in part): their next mail starts after it, so no move is told twice."""
    assert game.state is not None and seat.index is not None
    rules = engine.get(game.rules)
    options = [] if _viewer(seat) is None else rules.presented(game.state, seat.index,
                                                               rules.options(game.state, seat.index))
    _mark_mailed(game, seat, options)


#: The annotation :func:`with_chat_flag` adds to a seat: whether chat came after its last mail.
NEW_CHAT = seatrow.NEW_CHAT


def with_chat_flag(seats: QuerySet[Seat]) -> QuerySet[Seat]:
    """``seats`` with :data:`NEW_CHAT` on each: whether the game has chat its mails have not told.
    Why: the read of a change's seats says it, and the mails of the change skip the chat's read
    when no seat has any (one statement less a change, #28)."""
    return seats.annotate(**{NEW_CHAT: Exists(ChatMessage.objects.filter(game=OuterRef("game"),
                                                                         pk__gt=OuterRef("last_mailed_chat")))})


#: A seat's marks: what its mails told it last (_mark_mailed).
MARKS = ["last_mailed_version", "last_mailed_options", "last_mailed_chat"]


def _mark_mailed(game: Game, seat: Seat, options: Sequence[Option], *, save: bool = True) -> None:
    """The seat's mails have told it everything up to now: the next one starts after this.
    ``save`` False: the caller saves the marks of several seats in one statement."""
    seat.last_mailed_version = game.version
    seat.last_mailed_options = due.options_signature(options)
    seat.last_mailed_chat = max([seat.last_mailed_chat] + [m.pk for m in _chat_since(game, seat)])
    if save:
        seat.save(update_fields=MARKS)
    # Kept on the game object: which seats were mailed at this version in this change, so the
    # step's answer knows without reading the seat again (#28).
    game.__dict__.setdefault("_pbem_mailed", {})[seat.pk] = game.version


def _options_as_mailed(rules: engine.Rules, game: Game, seat: Seat) -> list[Option]:
    """The seat's options in its player's language, as its mails list them: their signature is
    compared with the one of the seat's last mail (a Portuguese player's labels read in the mover's
    English never matched hers, and every step of another's sent her a mail: #22, #27)."""
    assert game.state is not None and seat.index is not None and seat.player is not None
    with language.speaking(language.of(seat.player)):
        return rules.presented(game.state, seat.index, rules.options(game.state, seat.index))


def queue_game_update(game: Game, *, only_seats: Iterable[int] | None = None,
                      waited: Collection[int] | None = None, seats: Sequence[Seat] | None = None,
                      change: Sequence[tuple[int, Sequence[Event]]] | None = None) -> None:
    """After a state change: each seated player's own mail, when they need one (:func:`pbem.mail.due.mail_due`).

    Called by the game services inside the transaction of the change, so the outbox rows
    commit with it or not at all. Why no list of the moves just applied: each mail is made
    of the move log since that seat's last mail (:func:`_events_since`), which also covers
    the moves of the changes it was not mailed about. That is also why this module never
    imports the services: the services call down into the outbox, never the other way.

    ``only_seats``: those seats get a mail whatever their mode (an undo, a moderator's act).
    ``waited``: the seats the game waited on before the change (``rules.pending`` then).
    ``seats``: the game's seats with their players, when the caller read them in this
    transaction already (one statement less a move, #28). ``change``: the moves just recorded
    (seat, events), when the caller has them, instead of reading them back (#28).
    """
    wanted = set(only_seats) if only_seats is not None else None
    rules = engine.get(game.rules)
    assert game.state is not None
    pending = set(rules.pending(game.state)) if game.status != Game.Status.FINISHED else set()
    # Who moved in the change just made (its moves carry the game's new version), and whose
    # new turn its events announced.
    movers: set[int] = set()
    told: list[Event] = []
    if change is None:
        change = [(seat_no, [Event.from_dict(e) for e in events]) for seat_no, events in
                  Move.objects.filter(game=game, version=game.version, undone_at__isnull=True)
                  .values_list("seat", "events")]
    for seat_no, happened in change:
        movers.add(seat_no)
        told += [e for e in happened if e.kind in due.ROUND_EVENTS]
    turns, new_round = due.new_turns(told)
    before = set(waited) if waited is not None else None
    to_mail: list[Seat] = []
    if seats is None:
        seats = list(with_chat_flag(game.seats.select_related("player").exclude(index__isnull=True)))
    _keep_seats(game, seats)
    for seat in seats:
        if seat.index is None:
            continue
        if seat.player is None or (wanted is not None and seat.index not in wanted):
            continue
        if seat.status == Seat.Status.RESIGNED and game.status != Game.Status.FINISHED:
            continue  # a resigned player still hears how the game ended
        assert seat.index is not None
        if wanted is None:
            options = _options_as_mailed(rules, game, seat)
            if not due.mail_due(game, seat, options, movers, pending, before, turns, new_round):
                continue
            seat.__dict__[_OPTIONS] = (game.version, options)  # (its mail lists them: not computed again)
        to_mail.append(seat)
    _queue_updates_together(game, to_mail, again=wanted is None)


#: Kept on a seat by :func:`queue_game_update`: (the game's version, the seat's options as its mail
#: lists them), so that its mail does not compute them again (#28).
_OPTIONS = "_pbem_options"
#: Kept on the game by :func:`queue_game_update`: (its version, the seats of the change by id).
_SEATS = "_pbem_seats"


def _keep_seats(game: Game, seats: Sequence[Seat]) -> None:
    """The change's seats kept on the game for the step's answer (:func:`queue_step_answer`).

    Why (#28): they were read after the game's lock, in this transaction, and this change's mails
    set their marks on these very objects; the answer read its seat's status and marks again."""
    game.__dict__[_SEATS] = (game.version, {seat.pk: seat for seat in seats})


def _options_kept(game: Game, seat: Seat) -> list[Option] | None:
    kept = seat.__dict__.pop(_OPTIONS, None)
    return kept[1] if kept is not None and kept[0] == game.version else None


def _queue_updates_together(game: Game, seats: Sequence[Seat], *, again: bool) -> list[OutboundMessage]:
    """The update mails of ``seats`` for one change, in a fixed number of statements whatever
    their number (#28: they were four a mail): the moves since the earliest of their last mails
    and the chat since then (one read each; the chat only when a seat has some untold), the rows
    and the seats' marks (one INSERT that also updates the marks, :func:`_insert_marking`); then
    one task sends them all."""
    if not seats:
        return []
    floor = min(_floor(game, seat) for seat in seats)
    log = (floor, _log_since(game, floor))
    since_chat = min(seat.last_mailed_chat for seat in seats)
    # Why a flag: a game's chat is mostly quiet, and the seats' read said so (with_chat_flag)
    quiet = all(seat.__dict__.get(NEW_CHAT) is False for seat in seats)
    chat = [] if quiet else list(ChatMessage.objects.filter(game=game, pk__gt=since_chat).order_by("pk"))
    rows: list[OutboundMessage] = []
    for seat in seats:
        # what _chat_since would read for this seat, kept for its mail and its mark
        seat.__dict__["_pbem_chat_read"] = ((game.pk, seat.last_mailed_chat),
                                            [m for m in chat if m.pk > seat.last_mailed_chat])
        row, options = _update_row(game, seat, again=again, log=log)
        _mark_mailed(game, seat, options, save=False)
        rows.append(row)
    born = _born_claimed(rows)
    _insert_marking(rows, seats, mail_off=bool(born))
    if born:
        dispatch.run_here("pbem.send_born_claimed", born)
    else:
        _send_batch(rows)
    return rows


def _born_claimed(rows: Sequence[OutboundMessage]) -> list[OutboundMessage]:
    """When the deciding task sends its mails itself (:func:`dispatch.sends_here`, PostgreSQL): its rows
    to send, claimed by it before their INSERT (``sending``, the claim's time, one attempt), as a send
    task's claim sets them after the commit; else none (pending, for a send task's claim). Why (issue
    28): that claim was a statement a move. A ``sending`` row is still taken by no one else before the
    claim is ``sending.STUCK_AFTER`` old, then the outbox sweeper sends it again (a dead task's)."""
    if connection.vendor != "postgresql" or not dispatch.sends_here():
        return []
    now = timezone.now()
    born = [r for r in rows if r.status == OutboundMessage.Status.PENDING]
    for row in born:
        row.status, row.claimed_at, row.attempts = OutboundMessage.Status.SENDING, now, 1
    return born


def _insert_marking(rows: Sequence[OutboundMessage], seats: Sequence[Seat], *, mail_off: bool = False) -> None:
    """The rows of a change's mails and their seats' marks (:data:`MARKS`) written in one statement on
    PostgreSQL: the INSERT of the rows with the UPDATE of the marks as a data-modifying ``WITH``
    (both, or neither, as one statement); elsewhere (SQLite) one INSERT and one UPDATE.

    Why (#28): a change's mails cost three statements however many (the story's read, the rows,
    the marks); the marks ride on the rows' INSERT, so a mail queued alone costs two.

    ``mail_off`` (PostgreSQL): each row also gets ``mail_off``, whether mail to its address is off
    after bounces, returned by the INSERT, as the send service's claim returns it."""
    if connection.vendor != "postgresql" or not rows or not seats:
        OutboundMessage.objects.bulk_create(rows)
        Seat.objects.bulk_update(list(seats), MARKS)
        return
    sql, fields = _marking_statement(connection.vendor, len(rows), len(seats), mail_off)
    marks_params: list[Any] = [x for seat in seats for x in (seat.pk, seat.last_mailed_version,
                                                              seat.last_mailed_options, seat.last_mailed_chat)]
    # each column prepared as the ORM's INSERT prepares it (pre_save: the creation time; get_db_prep_save)
    insert_params = [f.get_db_prep_save(f.pre_save(row, True), connection) for row in rows for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*marks_params, *insert_params])
        returned = cursor.fetchall()
    assert len(returned) == len(rows)
    for row, (pk, *off) in zip(rows, returned, strict=True):
        if off:
            row.__dict__["mail_off"] = bool(off[0])
        row.pk = pk
        row._state.adding = False
        row._state.db = connection.alias


@functools.lru_cache(maxsize=64)
def _marking_statement(vendor: str, n_rows: int, n_seats: int, mail_off: bool) -> tuple[str, tuple[Any, ...]]:
    """:func:`_insert_marking`'s statement for so many rows and seats, and the rows' fields in the
    order of its parameters.

    Why written out (issue 28, perf): the ORM's InsertQuery compiled it anew for every change, and
    for two rows or more chose its UNNEST form, whose arrays psycopg quotes character by character
    in Python (each ``"`` of a mail's JSON content): about 0.5 ms of CPU a change's mails. The rows
    are those of plain VALUES, as the ORM writes a single row; the same columns and values."""
    del vendor  # (the cache's key: the statement is quoted for that database)
    quote = connection.ops.quote_name
    meta = OutboundMessage._meta
    fields = tuple(f for f in meta.concrete_fields if f is not meta.pk)
    table = quote(meta.db_table)
    one = f"({', '.join(['%s'] * len(fields))})"
    insert = (f"INSERT INTO {table} ({', '.join(quote(str(f.column)) for f in fields)}) "
              f"VALUES {', '.join([one] * n_rows)} RETURNING {table}.{quote(str(meta.pk.column))}")
    if mail_off:
        insert += (f", EXISTS (SELECT 1 FROM {quote(MailAddress._meta.db_table)} a "
                   f"WHERE a.email = LOWER({table}.to_email) AND a.disabled_at IS NOT NULL)")
    columns = [quote(name) for name in MARKS]  # their columns are their names
    values = ", ".join(["(%s::bigint, %s::integer, %s::varchar, %s::integer)"] * n_seats)
    sql = (f"WITH marks AS (UPDATE {quote(Seat._meta.db_table)} AS s SET "
           + ", ".join(f"{c} = v.m{i}" for i, c in enumerate(columns))
           + f" FROM (VALUES {values}) AS v(id, m0, m1, m2) WHERE s.id = v.id RETURNING s.id) {insert}")
    return sql, fields


#: Marks the answer to a step (:func:`queue_step_answer`). Why: the answers to a sender are
#: limited to a few an hour against mail loops, and a step's answer follows a move applied, so
#: it cannot loop; a player playing card by card must still hear why a later line was refused.
STEP_ANSWER_HEADER = "X-Pbem-Answer"


def queue_step_answer(game: Game, seat: Seat, *, in_reply_to: str) -> OutboundMessage | None:
    """The answer to a player's own mail that played a step of their turn, which goes on.

    Why an answer and not a game mail: they asked for it (one answer to one mail, threaded
    under it), and nobody else hears of a step inside another's turn. Why small: no picture,
    no seed or mode notes: what the mail did (and anything else since their last mail), the
    deadline and the options of the next step, and the board as text. Nothing when the change
    mailed them already (their next turn began at once) or left them nothing to decide.
    """
    if seat.index is None or game.status != Game.Status.RUNNING or game.state is None:
        return None
    # Why the options first: with none (the usual end of a turn) there is nothing to answer,
    # and the five reads below (the seat again, its player, the story, the chat) are spared (#28).
    if not engine.get(game.rules).options(game.state, seat.index):
        return None
    if game.__dict__.get("_pbem_mailed", {}).get(seat.pk) == game.version:
        return None  # the change just made mailed them (their next turn began at once)
    kept = game.__dict__.get(_SEATS)
    if kept is not None and kept[0] == game.version and seat.pk in kept[1]:
        # the seat as the change read it after the game's lock, its marks as the change left them
        # (not mailed: see the test above), and whether chat came (see _keep_seats)
        seat = kept[1][seat.pk]
        if seat.__dict__.get(NEW_CHAT) is False:
            seat.__dict__["_pbem_chat_read"] = ((game.pk, seat.last_mailed_chat), [])
    else:
        # Why these fields only: the player was read with the seat and is kept (one read, not two);
        # the marks may have moved since (the change just made may have mailed this seat already).
        _refresh_marks(game, seat)
    if seat.player is None:
        return None
    if seat.last_mailed_version >= game.version:
        return None
    with language.speaking(language.of(seat.player)):
        content, options = _mail_content(game, seat, _events_since(game, seat), compact=True, again=True)
        subject = f"Re: {subject_for(game)}"
    if not options:
        seat.__dict__.pop("_pbem_chat_read", None)  # no mark follows: nothing kept
        return None
    refs = f"{thread_id(game)} {in_reply_to}".strip()
    row = _row(to=seat.player, subject=subject, game=game, reply_to=reply_address(seat),
               content=content, thread=False,
               extra_headers={STEP_ANSWER_HEADER: "step",
                              **({"In-Reply-To": in_reply_to, "References": refs} if in_reply_to else {})})
    _mark_mailed(game, seat, options, save=False)
    # Why born claimed as a change's mails (#28): the answer is most moves' only mail in a game of
    # steps (Maracaibo), and its claim after the commit was a statement and a commit a move.
    born = _born_claimed([row])
    _insert_marking([row], [seat], mail_off=bool(born))  # the row and the seat's marks in one statement (#28)
    if born:
        dispatch.run_here("pbem.send_born_claimed", born)
    else:
        _send_batch([row])
    return row


def _refresh_marks(game: Game, seat: Seat) -> None:
    """The seat's status and marks read again, with whether chat came after its last mail, in one
    statement; with none the mail's chat read is spared (:func:`_chat_since` finds it kept).

    Why (#28): a step's answer, most moves' only mail in a game of steps (Maracaibo), read its
    seat's marks and then the chat after them, two statements where the game's chat is mostly quiet."""
    q = connection.ops.quote_name
    sql = (f"SELECT s.status, s.last_mailed_version, s.last_mailed_options, s.last_mailed_chat, EXISTS ("
           f"SELECT 1 FROM {q(ChatMessage._meta.db_table)} c WHERE c.game_id = %s AND c.id > s.last_mailed_chat) "
           f"FROM {q(Seat._meta.db_table)} s WHERE s.id = %s")
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk, seat.pk])
        row = cursor.fetchone()
    if row is None:
        raise Seat.DoesNotExist(f"seat {seat.pk}")
    seat.status, seat.last_mailed_version, seat.last_mailed_options, seat.last_mailed_chat = row[:4]
    if not row[4]:
        seat.__dict__["_pbem_chat_read"] = ((game.pk, seat.last_mailed_chat), [])


def queue_digest(game: Game, seat: Seat) -> OutboundMessage:
    """The daily mail of a player in digest mode: everything since their last mail."""
    return _queue_update_for(game, seat, intro=gettext_noop("Your daily digest."), kind="digest")


def queue_reminders(game: Game, seats: Sequence[int]) -> None:
    for seat in game.seats.select_related("player").filter(index__in=list(seats)):
        if seat.player is None or seat.status == Seat.Status.RESIGNED:
            continue
        with language.speaking(language.of(seat.player)):
            intro = _("Reminder: game #%(pk)s waits for your move.") % {"pk": game.pk}
        _queue_update_for(game, seat, intro=intro, kind="reminder")


#: At most this much of a postmaster mail's text is copied into the forward.
POSTMASTER_TEXT_LIMIT = 20_000


def queue_postmaster_copy(row: InboundMessage, address: str, *, sender: str, subject: str,
                          text: str) -> OutboundMessage:
    """A copy of a mail sent to postmaster, for the operator at ``address``.

    Why Reply-To the sender: the operator answers the writer directly, not through pbem.
    """
    shown = text if len(text) <= POSTMASTER_TEXT_LIMIT else text[:POSTMASTER_TEXT_LIMIT] + "\n[... cut ...]"
    body = (f"A mail for postmaster@{settings.PBEM_MAIL_DOMAIN} arrived; pbem does not answer it.\n\n"
            f"From: {sender or '(no sender address)'}\nEnvelope sender: {row.mail_from or '<>'}\n"
            f"Subject: {subject or '(none)'}\nStored as inbound message #{row.pk} (raw bytes in the admin: "
            f"{settings.PBEM_PUBLIC_URL}/admin/games/inboundmessage/{row.pk}/change/).\n\n"
            f"---- its text ----\n{shown.rstrip()}\n")
    return _queue(to=None, subject=f"[pbem postmaster] {subject or '(no subject)'}"[:255], body=body,
                  reply_to=sender or None, to_email=address)


def queue_reply(to: Player | None, subject: str, body: str, game: Game | None = None,
                reply_to: str | None = None, *, to_email: str | None = None,
                in_reply_to: str = "", answer: str = "") -> OutboundMessage:
    """An answer to someone's own mail (rejections, account commands): to them only.

    ``answer``: marks an answer that follows a move applied (``STEP_ANSWER_HEADER``), which
    cannot loop and so does not count towards the hourly limit of answers."""
    extra: dict[str, str] = {STEP_ANSWER_HEADER: answer} if answer else {}
    if in_reply_to:
        refs = [thread_id(game)] if game is not None else []
        refs.append(in_reply_to)
        extra.update({"In-Reply-To": in_reply_to, "References": " ".join(refs)})
    headers_game = game
    row = _queue(to=to, subject=subject, body=body, game=headers_game, reply_to=reply_to, to_email=to_email,
                 extra_headers=extra, thread=in_reply_to == "")
    return row


# ---- moderation and deadline notices ------------------------------------------------------------


def _seated(game: Game, seats: Iterable[int] | None) -> list[Seat]:
    """The seats with a player who still follows the game (resigned ones hear only the end)."""
    wanted = set(seats) if seats is not None else None
    out = []
    for seat in game.seats.select_related("player").exclude(index__isnull=True).order_by("index"):
        if seat.player is None or (wanted is not None and seat.index not in wanted):
            continue
        if seat.status == Seat.Status.RESIGNED and game.status != Game.Status.FINISHED:
            continue
        out.append(seat)
    return out


def queue_updates(game: Game, seats: Iterable[int] | None, intro: Said) -> None:
    """A full update mail (view, story, options) to each of ``seats`` (None: everyone),
    whatever their mail mode: used when a moderator or the deadline changed the game."""
    for seat in _seated(game, seats):
        _queue_update_for(game, seat, intro=intro)


def queue_notice(game: Game, text: Said, *, seats: Iterable[int] | None = None, what: str = "") -> None:
    """A short mail to the players of ``seats`` (None: everyone) that needs no board: a pause,
    a moderator's message, a player's vacation. Replies go to the seat's own address.
    ``what``: what it is, for the subject ("Bob resigned"). It links the player's own page, as
    every mail to a seat does (issue 21: the public page shows none of their hand or options)."""
    for seat in _seated(game, seats):
        with language.speaking(language.of(seat.player)):
            page = _("Your game page (your personal link, do not share it): %(url)s") % {"url": seat_page_url(seat)}
            body = f"{reply_marker()}\n\n{_say(text).rstrip()}\n\n{page}\n"
            subject = subject_for(game, what)
        _queue(to=seat.player, subject=subject, body=body, game=game, reply_to=reply_address(seat))


def queue_welcome(game: Game, seat: Seat, intro: Said) -> OutboundMessage:
    """The newcomer's first mail: the game so far told in the third person (what a spectator
    saw), then their own view and options. Their "since your last mail" starts now."""
    seat.last_mailed_version = game.version
    seat.save(update_fields=["last_mailed_version"])
    return _queue_update_for(game, seat, intro=intro)


def queue_to_moderators(game: Game, emails: Sequence[str], text: Said) -> None:
    """A mail to each moderator address, in the language of the player with that address (English
    for an address with no player: ``PBEM_MODERATOR_EMAILS``'s, a staff account's), issue 27.
    ``text``: a callable saying it in the language active when called (or a catalogue msgid)."""
    known = {p.email: p for p in Player.objects.filter(email__in=list(emails)).only("email", "language")}
    for address in emails:
        admin = f"{settings.PBEM_PUBLIC_URL}/admin/games/game/{game.pk}/moderate/"
        with language.speaking(language.of(known.get(address))):
            body = f"{_say(text).rstrip()}\n\n" + _("Game page: %(url)s") % {"url": game_url(game)} + "\n" + _(
                "Moderator page: %(url)s") % {"url": admin} + "\n"
            subject = subject_for(game)
        _queue(to=None, to_email=address, subject=subject, body=body, game=game)
