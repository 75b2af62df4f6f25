"""Mail in: store, then judge; and the periodic mail jobs (digests, the inbound sweeper).

Two doors call these: the SMTP handler calls :func:`do_receive_mail` (and
:func:`check_recipient` at RCPT); the task ``pbem.process_inbound`` calls
:func:`do_process_inbound`. The beat schedule calls :func:`do_send_digests`
and :func:`do_requeue_inbound`.

Rules kept here: the raw mail is committed before anything is judged; a
Message-ID is stored once, so a duplicate delivery is applied once; a mail
sent by a machine (auto-reply, bounce, list) is stored and never answered;
every other bad mail gets a clear reply to its sender and changes nothing;
seat tokens, raw bodies and addresses never reach a log.
"""

from __future__ import annotations

import hmac
import logging
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import Message

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import OperationalError, connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

import engine
from engine import notation
from engine.notation import format_options
from pbem.games import dispatch, language, moderators, personal
from pbem.games import services as game_services
from pbem.games.links import seat_page_url
from pbem.games.models import Game, GameModerator, InboundMessage, MailAddress, OutboundMessage, Player, Seat
from pbem.games.services import Command, MoveRejected, ServiceError
from pbem.mail import absence_commands, bounces, dsn, inboundrow, outbox, parsing, seatrow
from pbem.mail import commands as account

log = logging.getLogger(__name__)

#: A received mail still unprocessed after this long lost its task; the sweeper hands it on again.
#: Why the queued mark's lifetime: the ingress hands a mail's task on as it stores it and writes no
#: mark (issue 28, ingress session: a Redis SET a mail that only told the sweeper what the row's
#: receipt time tells it), so a younger row counts as handed on, as a marked one did.
INBOUND_LOST_AFTER = timedelta(seconds=dispatch.QUEUED_MARK_SECONDS)
#: At most this many answers to one address an hour: a responder we did not recognise
#: (no standard header) cannot loop with us for longer than that.
REPLIES_PER_HOUR = 5
#: At most one digest mail per game and player in this period.
DIGEST_PERIOD = timedelta(hours=24)

Status = InboundMessage.Status


def _general_locals() -> tuple[str, ...]:
    local, _at, domain = settings.PBEM_FROM_EMAIL.rpartition("@")
    names = {"pbem"}
    if domain.lower() == settings.PBEM_MAIL_DOMAIN.lower() and local:
        names.add(local.lower())
    return tuple(sorted(names))


def recipient_kind(address: str) -> tuple[str, str] | None:
    """("seat", token), ("moderator", token), ("general", ""), ("postmaster", ""), ("bounce", outbox row id) or None."""
    row_id = bounces.verp_row(address)
    if row_id is not None:
        return ("bounce", str(row_id))
    return parsing.split_recipient(address, settings.PBEM_MAIL_DOMAIN, _general_locals())


def _seat_for_token(token: str, *, lock: bool = False) -> Seat | None:
    """The seat of a secret address, with its game and player. ``lock``: the game's row is locked
    for the caller's transaction (issue 28: the move a mail makes then takes the game as read
    here, not with a second locked read of the same row)."""
    # Why both: the indexed lookup finds the row, the constant-time compare is what
    # decides, so no code path compares a secret with a short-circuiting ==. Why written out:
    # see pbem.mail.seatrow.
    seat = seatrow.seat_by_token(token, lock=lock)
    if seat is None or not hmac.compare_digest(seat.token.encode(), token.encode()):
        return None
    return seat


def check_recipient(address: str) -> bool:
    """Whether we take mail for ``address`` (RCPT time): a live seat, the general address, postmaster."""
    kind = recipient_kind(address)
    if kind is None:
        return False
    if kind[0] == "moderator":
        return GameModerator.objects.filter(token=kind[1]).exists()
    if kind[0] != "seat":
        return True
    # Why written out (issue 28): the seat with its game and player, as judging reads it, decoded the
    # game's whole state at every RCPT; this reads the three columns the answer needs.
    table = connection.ops.quote_name(Seat._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT token, player_id, invited_email FROM {table} WHERE token = %s", [kind[1]])
        row = cursor.fetchone()
    # Why the compare: the index finds the row, a constant-time compare decides (see _seat_for_token).
    if row is None or not hmac.compare_digest(str(row[0]).encode(), kind[1].encode()):
        return False
    return row[1] is not None or bool(row[2])


def _choose_recipient(rcpt_tos: list[str]) -> str:
    """What one row records as its recipient: every seat address (space separated), else the
    general address, else postmaster.

    Why every seat address: a mail to another player's seat and to one's own is judged for
    each seat the sender holds (see :func:`_judge`); the column holds up to 255 characters,
    about five seat addresses, far more than anyone writes to at once.
    """
    ranked = {"seat": 0, "moderator": 1, "general": 2, "bounce": 3, "postmaster": 4}
    clean = [parsing.without_controls(r).strip() for r in rcpt_tos]
    seats = [r for r in clean if (recipient_kind(r) or ("",))[0] == "seat"]
    if seats:
        chosen: list[str] = []
        for rcpt in dict.fromkeys(seats):
            if len(" ".join(chosen + [rcpt])) <= 255:
                chosen.append(rcpt)
        return " ".join(chosen)
    best: tuple[int, str] | None = None
    for rcpt in clean:
        kind = recipient_kind(rcpt)
        rank = ranked[kind[0]] if kind else 5
        if best is None or rank < best[0]:
            best = (rank, rcpt)
    return best[1][:255] if best else ""


def do_receive_mail(raw: bytes, mail_from: str, rcpt_tos: list[str]) -> InboundMessage:
    """Store one mail (committed when this returns) and hand it to ``pbem.process_inbound``.

    A Message-ID seen before returns the stored row and queues nothing.
    """
    message_id = parsing.stored_message_id(raw)
    row = InboundMessage(message_id=message_id, raw=raw, mail_from=parsing.without_controls(mail_from or "")[:255],
                         rcpt_to=_choose_recipient(list(rcpt_tos)), status=Status.RECEIVED,
                         received_at=timezone.now())
    # Why one statement (issue 28): a look-up of the Message-ID, then the row inserted in a
    # transaction of its own, were four round trips to the database on the ingress's path
    # (SELECT, BEGIN, INSERT, COMMIT); a delivery seen before (or racing with this one) inserts nothing.
    table = connection.ops.quote_name(InboundMessage._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {table} (message_id, raw, mail_from, rcpt_to, status, result, received_at) "
                       "VALUES (%s, %s, %s, %s, %s, '', %s) ON CONFLICT (message_id) DO NOTHING RETURNING id",
                       [row.message_id, raw, row.mail_from, row.rcpt_to, row.status, row.received_at])
        stored = cursor.fetchone()
    if stored is None:
        existing = InboundMessage.objects.get(message_id=message_id)
        log.info("inbound %s: duplicate delivery, ignored", existing.pk)
        return existing
    row.pk = int(stored[0])
    row._state.adding = False
    # at once, or when the caller's transaction commits; no queued mark: see INBOUND_LOST_AFTER
    dispatch.enqueue("pbem.process_inbound", row.pk, mark=False)
    log.info("inbound %s stored (%s bytes)", row.pk, len(raw))
    return row


def do_requeue_inbound(now: datetime | None = None) -> int:
    """The inbound sweeper: mails stored but not judged whose task is not known to be queued.

    Why so eager: a task is lost with a worker killed while holding it (late acks on Redis
    give it back only after the visibility timeout) or with a wiped or unreachable broker.
    A task handed on in the last seconds is left alone (``dispatch.recently_queued``);
    any extra task is harmless, the judging is idempotent.
    """
    now = now or timezone.now()
    ids = list(InboundMessage.objects.filter(status=Status.RECEIVED, received_at__lt=now - INBOUND_LOST_AFTER)
               .order_by("pk").values_list("pk", flat=True))
    in_queue = dispatch.queued_args("pbem.process_inbound") if ids else None
    queued = 0
    for pk in ids:
        if in_queue is not None and (pk,) in in_queue:
            continue  # its task still waits in the queue (a burst); see dispatch.queued_args
        if not dispatch.recently_queued("pbem.process_inbound", pk):
            dispatch.enqueue("pbem.process_inbound", pk)
            queued += 1
    return queued


# ---- judging one mail --------------------------------------------------------------------------


@dataclass
class Verdict:
    status: str
    result: str
    game: Game | None = None


@dataclass
class Incoming:
    row: InboundMessage
    msg: Message
    sender: str
    subject: str
    message_id: str
    references: str = ""
    #: The From display name ("Anna Silva"), "" if none.
    sender_name: str = ""
    #: The seat's own player writing to their own seat's address (never to another's).
    own_seat: bool = False

    @property
    def reply_subject(self) -> str:
        subject = self.subject.strip() or "your mail"
        return subject if subject.lower().startswith("re:") else f"Re: {subject}"


def do_process_inbound(inbound_id: int) -> str:
    """Judge one stored mail; idempotent (a row already judged is left alone). Returns its status."""
    try:
        with transaction.atomic():
            row = inboundrow.locked(inbound_id)
            if row is None:
                return "missing"
            if row.status != Status.RECEIVED:
                return str(row.status)
            verdict = _judge(row)
            inboundrow.decide(row.pk, verdict.status, verdict.result, verdict.game)
    except OperationalError:
        raise  # the database is unwell: let the task retry
    except Exception as exc:  # a bug must not make the mail loop forever
        # Why not log.exception: a traceback may quote a seat address; redact it first.
        trace = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
        if parsing.is_time_limit(exc):
            log.error("inbound %s: judging it took too long; refused", inbound_id)
            _fail_internal(inbound_id, "took too long to read", _too_long_text)
            raise  # never swallow the worker's time limit
        log.error("inbound %s: internal error while judging it: %s", inbound_id, parsing.redact(trace))
        _fail_internal(inbound_id, f"internal error: {type(exc).__name__}", _internal_error_text)
        return str(Status.REJECTED)
    log.info("inbound %s: %s", inbound_id, verdict.status)
    return verdict.status


def _too_long_text() -> str:
    return _("Your mail took too long to read (it is very large or oddly built), so it was not taken; nothing "
             "was changed. Please send your commands again in a short plain-text mail.")


def _internal_error_text() -> str:
    return _("Something went wrong on our side while reading your mail; nothing was changed. The administrators "
             "can see what happened. Please send it again later.")


def _fail_internal(inbound_id: int, result: str, text: Callable[[], str]) -> None:
    """Judge a row that could not be judged: rejected first (committed alone), then a reply if one can go
    (``text`` says it in the sender's language).

    Why two steps: the reply itself may be what failed (an address or header that cannot
    be stored); the row must be decided all the same, or it would be swept up for ever.
    """
    with transaction.atomic():
        updated = InboundMessage.objects.filter(pk=inbound_id, status=Status.RECEIVED).update(
            status=Status.REJECTED, result=result[:4000], processed_at=timezone.now())
    if not updated:
        return
    try:
        with transaction.atomic():
            row = InboundMessage.objects.get(pk=inbound_id)
            msg = parsing.parse_message(bytes(row.raw))
            if parsing.automatic_reason(msg, row.mail_from):
                return
            sender = parsing.sender_address(msg, row.mail_from)
            if sender and _may_answer(sender):
                known = Player.objects.filter(email=sender).only("language").first()
                code = (language.of(known) if known is not None else
                        language.from_header(parsing.header(msg, "Content-Language")) or language.DEFAULT)
                with language.speaking(code):
                    outbox.queue_reply(None, _("Re: your mail"), f"{parsing.reply_marker()}\n\n{text()}\n",
                                       to_email=sender, in_reply_to=parsing.message_id_of(msg, bytes(row.raw)))
    except Exception as exc:  # the row is decided; only the courtesy reply is lost
        if parsing.is_time_limit(exc):
            raise
        log.error("inbound %s: the reply about its failure could not be queued either: %s",
                  inbound_id, type(exc).__name__)


#: Refusals that read nothing of the game in a mail's first line: prose, what an unrecognised
#: responder writes. Such an answer counts towards the hourly limit even for a seat's own player.
PROSE_REFUSALS = ("malformed", "not_your_turn", "game_over")


def _held_note(address: str) -> str:
    """Said once, in the first answer that goes after the limit held some back (then reset)."""
    row = MailAddress.objects.filter(email=address.lower(), answers_held__gt=0).first()
    if row is None:
        return ""
    MailAddress.objects.filter(pk=row.pk).update(answers_held=0, held_since=None)
    n = row.answers_held
    said = {"n": n, "limit": REPLIES_PER_HOUR, "since": f"{row.held_since:%Y-%m-%d %H:%M}" if row.held_since else ""}
    if row.held_since:
        note = ngettext(
            "Note: %(n)s earlier mail from you since %(since)s UTC got no answer, because at most %(limit)s "
            "answers an hour go to one address (against mail loops) and it read as no move in a game of yours. "
            "It was judged all the same: what changed is on your games' pages. Answers go again now.",
            "Note: %(n)s earlier mails from you since %(since)s UTC got no answer, because at most %(limit)s "
            "answers an hour go to one address (against mail loops) and they read as no move in a game of "
            "yours. They were judged all the same: what changed is on your games' pages. Answers go again now.",
            n) % said
    else:
        note = ngettext(
            "Note: %(n)s earlier mail from you got no answer, because at most %(limit)s answers an hour go to "
            "one address (against mail loops) and it read as no move in a game of yours. It was judged all the "
            "same: what changed is on your games' pages. Answers go again now.",
            "Note: %(n)s earlier mails from you got no answer, because at most %(limit)s answers an hour go to "
            "one address (against mail loops) and they read as no move in a game of yours. They were judged "
            "all the same: what changed is on your games' pages. Answers go again now.", n) % said
    return note + "\n\n"


def _hold(address: str, inbound_id: int) -> None:
    now = timezone.now()
    row = MailAddress.row(address)
    MailAddress.objects.filter(pk=row.pk).update(answers_held=F("answers_held") + 1,
                                                 held_since=Coalesce("held_since", Value(now)))
    log.warning("inbound %s: not answered, its sender had %s answers this hour", inbound_id, REPLIES_PER_HOUR)


def _may_answer(address: str, now: datetime | None = None) -> bool:
    """Whether we may answer ``address`` again: at most :data:`REPLIES_PER_HOUR` answers an hour."""
    now = now or timezone.now()
    recent = (OutboundMessage.objects.filter(to_email=address, created_at__gte=now - timedelta(hours=1))
              .filter(headers__has_key="In-Reply-To")
              .exclude(**{"headers__In-Reply-To__startswith": "<pbem.game"})
              .exclude(headers__has_key=outbox.STEP_ANSWER_HEADER).count())
    return recent < REPLIES_PER_HOUR


def _judge(row: InboundMessage) -> Verdict:
    raw = bytes(row.raw)
    msg = parsing.parse_message(raw)
    rcpts = row.rcpt_to.split() or [""]
    target = recipient_kind(rcpts[0])
    # Why before the machine check: bounces and reports are exactly what a postmaster reads.
    if target is not None and target[0] == "postmaster":
        return _forward_to_postmaster(row, msg)
    auto = parsing.automatic_reason(msg, row.mail_from)
    if target is not None and target[0] == "bounce":
        # A mail to a message's own return path: a bounce of that message (pbem.mail.bounces).
        return Verdict(Status.IGNORED, bounces.do_process_bounce(msg, int(target[1]), auto))
    if auto:
        if dsn.is_dsn(msg):  # a delivery report to another address of ours: its failed recipients count
            return Verdict(Status.IGNORED, f"{auto}; {bounces.do_process_bounce(msg, None, auto)}")
        return Verdict(Status.IGNORED, auto)
    if target is None:
        return Verdict(Status.IGNORED, "not addressed to us")
    kind, token = target
    incoming = Incoming(row=row, msg=msg, sender=parsing.sender_address(msg, row.mail_from),
                        subject=parsing.header(msg, "Subject"), message_id=parsing.message_id_of(msg, raw),
                        references=" ".join([parsing.header(msg, "In-Reply-To"), parsing.header(msg, "References")]),
                        sender_name=parsing.sender_name(msg))
    if not incoming.sender:
        return Verdict(Status.REJECTED, "no sender address to answer")
    # The answer speaks its sender's language: their setting, or a newcomer's mail's (issue 27).
    # Why not for one seat's address here: its player comes with the seat (no query more a move).
    if kind == "seat" and len(rcpts) == 1:
        return _judge_seat(incoming, token)
    with language.speaking(_sender_language(incoming)):
        return _judge_as(incoming, kind, token, rcpts)


def _sender_language(incoming: Incoming) -> str:
    player = Player.objects.filter(email=incoming.sender).only("language").first()
    if player is not None:
        return language.of(player)
    return language.from_header(parsing.header(incoming.msg, "Content-Language")) or language.DEFAULT


def _judge_as(incoming: Incoming, kind: str, token: str, rcpts: list[str]) -> Verdict:
    if kind == "general":
        return _judge_general(incoming)
    if kind == "moderator":
        return _judge_moderator(incoming, token)
    tokens = [k[1] for k in (recipient_kind(r) for r in rcpts) if k is not None and k[0] == "seat"]
    if len(tokens) > 1:
        return _judge_seats(incoming, tokens)
    return _judge_seat(incoming, token)


def postmaster_addresses() -> list[str]:
    """The operator: ``PBEM_POSTMASTER_EMAIL``, else every active superuser with an address."""
    if settings.PBEM_POSTMASTER_EMAIL:
        return list(settings.PBEM_POSTMASTER_EMAIL)
    users = get_user_model().objects.filter(is_superuser=True, is_active=True).exclude(email="")
    return sorted({u.email.lower() for u in users})


def _forward_to_postmaster(row: InboundMessage, msg: Message) -> Verdict:
    """Mail for postmaster goes to the operator, whoever sent it; it is never answered."""
    to = postmaster_addresses()
    if not to:
        return Verdict(Status.IGNORED, "for the postmaster: kept for an administrator (no operator address)")
    body = parsing.body_text(msg)
    for address in to:
        outbox.queue_postmaster_copy(row, address, sender=parsing.sender_address(msg, row.mail_from),
                                     subject=parsing.header(msg, "Subject"), text=body.text)
    return Verdict(Status.IGNORED, f"for the postmaster: forwarded to {len(to)} operator address(es)")


def _judge_seats(incoming: Incoming, tokens: list[str]) -> Verdict:
    """A mail to several seat addresses: judged for each addressed seat the sender holds.

    Why: a player who writes to their own seat and, by mistake or on purpose, to
    another's must have their own move judged, and nothing done for the other seat. When
    the sender holds none of them, it is judged for the first (the wrong-sender answer).
    """
    own = []
    for token in tokens:
        seat = _seat_for_token(token)
        if seat is not None and _seat_email(seat) == incoming.sender:
            own.append(token)
    verdicts: list[Verdict] = []
    for token in own or tokens[:1]:
        with transaction.atomic():  # each seat's judgement stands or falls alone
            verdicts.append(_judge_seat(incoming, token))
    applied = [v for v in verdicts if v.status == Status.APPLIED]
    status = Status.APPLIED if applied else verdicts[0].status
    others = len(tokens) - len(own or tokens[:1])
    result = "; ".join(f"game #{v.game.pk if v.game else '?'}: {v.result}" for v in verdicts)
    if others:
        result += f"; {others} seat address(es) not the sender's: ignored"
    return Verdict(status, result, (applied or verdicts)[0].game)


def _reply(incoming: Incoming, body: str, *, to: Player | None = None, game: Game | None = None,
           reply_to: str | None = None, after_move: str = "", attempt: bool = False) -> bool:
    """An answer to the sender of ``incoming``, and to nobody else (at most a few an hour);
    whether it was queued. ``after_move``: the answer to a mail whose moves were applied
    ("partial", "signoff"), which cannot loop, so the hourly limit does not hold it back (as
    a step's answer); it says so in ``X-Pbem-Answer``. ``attempt``: the mail reads as a move
    or a game command (not prose); from a seat's own player to their own seat it is always
    answered. Why: a player writing whole turns to their seat got no word after five refusals
    and the game stalled; the limit is against loops, which read as no move. When the limit
    holds an answer back, the next answer that goes says so once (:func:`_held_note`)."""
    if not after_move and not (attempt and incoming.own_seat) and not _may_answer(incoming.sender):
        _hold(incoming.sender, incoming.row.pk)
        return False
    body = _held_note(incoming.sender) + body
    subject = outbox.subject_for(game) if game is not None else incoming.reply_subject
    if game is not None:
        subject = f"Re: {subject}"
    outbox.queue_reply(to, subject, f"{parsing.reply_marker()}\n\n{body.rstrip()}\n", game=game,
                       reply_to=reply_to or outbox.general_address(), to_email=incoming.sender,
                       in_reply_to=incoming.message_id, answer=after_move)
    return True


def _unreadable_text(problems: list[str]) -> str:
    found = (_("I could not find any text in your mail (the mail's structure is broken: %(problems)s).")
             % {"problems": ", ".join(problems)} if problems else _("I could not find any text in your mail."))
    return (found + " " + _("Nothing was changed.") + "\n\n"
            + _("Please reply again in plain text (or ordinary HTML), with your commands one a line above the "
                "marker line."))


# ---- the general address -----------------------------------------------------------------------


def _judge_general(incoming: Incoming) -> Verdict:
    body = parsing.body_text(incoming.msg)
    general = outbox.general_address()
    player = Player.objects.filter(email=incoming.sender).first()
    if not body.kind:
        _reply(incoming, _unreadable_text(body.problems), to=player)
        return Verdict(Status.REJECTED, "unreadable mail")
    extracted = parsing.extract_commands(body.text)
    if not extracted.commands:
        _reply(incoming, _("Your mail held no command, so here is the help.") + "\n\n" + account.help_text(general),
               to=player)
        return Verdict(Status.REJECTED, "no command")
    results = [account.run_line(incoming.sender, line, general, incoming.sender_name)
               for _pos, line in extracted.commands]
    parts = []
    for r in results:
        mark = _("done") if r.ok else _("not done")
        parts.append(f"> {r.line}\n{mark}: {r.text}" if not r.text.startswith(_("Commands for %(general)s, one a line:")
                                                                                 % {"general": general}) else
                     f"> {r.line}\n{r.text}")
    if extracted.overflow:
        parts.append(ngettext("Ignored: %(n)s more line after the first %(max)s.",
                              "Ignored: %(n)s more lines after the first %(max)s.", len(extracted.overflow))
                     % {"n": len(extracted.overflow), "max": parsing.MAX_COMMAND_LINES})
    player = Player.objects.filter(email=incoming.sender).first()
    _reply(incoming, _("Results of your commands:") + "\n\n" + "\n\n".join(parts), to=player)
    ok = all(r.ok for r in results)
    return Verdict(Status.APPLIED if ok else Status.REJECTED, _summary(results))


def _summary(results: list[account.Result]) -> str:
    """The row's verdict of account commands (for the operator, in English)."""
    return "; ".join(f"{r.line.split()[0] if r.line.split() else ''}: {'ok' if r.ok else 'refused'}" for r in results)


# ---- a seat's address --------------------------------------------------------------------------


def _paused_options(game: Game, seat: Seat) -> str:
    """Why: a player who moves into a paused game should still see what they will decide."""
    if game.status != Game.Status.PAUSED or game.state is None or seat.index is None:
        return ""
    rules = engine.get(game.rules)
    opts = rules.presented(game.state, seat.index, rules.options(game.state, seat.index))
    if not opts:
        return ""
    return "\n\n" + _("Your options when the game resumes (send them then):") + f"\n{format_options(opts)}"


def _options_block(game: Game, seat: Seat, heading: str = "") -> str:
    rules = engine.get(game.rules)
    if game.state is None or seat.index is None or game.status != Game.Status.RUNNING:
        return ""
    opts = rules.presented(game.state, seat.index, rules.options(game.state, seat.index))
    if not opts:
        waiting = ", ".join(rules.seat_name(game.state, s) for s in rules.pending(game.state)) or _("nobody")
        return (_("You have nothing to decide now (the game waits for %(waiting)s); you will get a mail when it "
                  "is your turn.") % {"waiting": waiting})
    return (heading or _("Your options now:")) + f"\n{format_options(opts)}"


def _seat_email(seat: Seat) -> str:
    """The address a seat belongs to: its player's, or the invited one while it has no account."""
    return seat.player.email if seat.player is not None else seat.invited_email


def _judge_seat(incoming: Incoming, token: str) -> Verdict:
    seat = _seat_for_token(token, lock=True)
    if seat is not None and seat.player is not None and seat.player.email == incoming.sender:
        code = language.of(seat.player)
    else:
        code = _sender_language(incoming)
    with language.speaking(code):
        return _judge_seat_of(incoming, seat)


def _judge_seat_of(incoming: Incoming, seat: Seat | None) -> Verdict:
    if (seat is not None and seat.player is None and seat.invited_email
            and seat.invited_email == incoming.sender and seat.game.status == Game.Status.OPEN):
        return _judge_invited(incoming, seat)
    if seat is None or seat.player is None:
        # The seat changed hands after the mail was accepted: answer only a known player.
        known = Player.objects.filter(email=incoming.sender).first()
        if known is not None:
            _reply(incoming, _("The address you wrote to is no longer valid (the seat was given to someone "
                               "else or the invitation was declined). Nothing was changed."), to=known)
        return Verdict(Status.REJECTED, "seat address no longer valid")
    game = seat.game
    player = seat.player
    seat_reply_to = outbox.reply_address(seat)
    if incoming.sender != player.email and not game.allow_any_sender:
        # Why no seat reply-to here: the writer is not this seat's player; don't hand them its address.
        _reply(incoming, (
            _("Your mail to game #%(pk)s (%(title)s) came from an address that is not the one this seat is "
              "registered with, so it was not taken. Nothing was changed.") % {"pk": game.pk, "title": game.said_title}
            + "\n\n" + _("Please send your reply from the address the game's mails are sent to. If you changed "
                          "address, ask the game's creator or an administrator to update it.")), game=None)
        return Verdict(Status.REJECTED, "wrong sender", game)
    incoming.own_seat = incoming.sender == player.email
    # Why only here and at creation: the secret seat address vouches for the writer; the
    # general address would let anyone rename a player by writing a From in their name.
    game_services.do_adopt_mail_name(incoming.sender, incoming.sender_name, known=player)
    body = parsing.body_text(incoming.msg)
    if not body.kind:
        _reply(incoming, _unreadable_text(body.problems), to=player, game=game, reply_to=seat_reply_to)
        return Verdict(Status.REJECTED, "unreadable mail", game)
    rules = engine.get(game.rules)
    listed: list[tuple[str, str]] = []
    if game.state is not None and seat.index is not None and game.status == Game.Status.RUNNING:
        listed = [(o.code, o.label) for o in rules.options(game.state, seat.index)]
    extracted = parsing.extract_commands(body.text, listed)
    if extracted.commands and all(account.is_preference_line(line) for _pos, line in extracted.commands):
        return _judge_preferences(incoming, seat, extracted)
    if game.status == Game.Status.OPEN:
        return _judge_invitation(incoming, seat, extracted)
    if (game.status == Game.Status.FINISHED and len(extracted.commands) == 1
            and notation.fold(extracted.commands[0][1]).rstrip(".!") == "rematch"):
        return _judge_rematch(incoming, seat)
    if game.status in (Game.Status.FINISHED, Game.Status.ABORTED):
        _reply(incoming, _("Game #%(pk)s (%(title)s) is %(status)s; it takes no more moves. Nothing was changed.")
               % {"pk": game.pk, "title": game.said_title, "status": game.get_status_display()}
               + "\n\n" + _("Your page: %(url)s") % {"url": seat_page_url(seat)},
               to=player, game=game, reply_to=seat_reply_to)
        return Verdict(Status.REJECTED, f"game {game.status}", game)
    if not extracted.commands:
        hint = ""
        if extracted.quoted_options:
            hint = "\n\n" + _("Lines that repeat an option line (its code followed by its label) are taken as "
                               "quotes of our mail and ignored: write just the code, for example: %(code)s") % {
                "code": listed[0][0] if listed else _("the code")}
        _reply(incoming, (_("I found no command in your mail to game #%(pk)s; nothing was changed.") % {"pk": game.pk}
                          + f"{hint}\n\n{_options_block(game, seat)}\n\n"
                          + _("Write your commands one a line, above the marker line of the mail you reply to.")),
               to=player, game=game, reply_to=seat_reply_to)
        return Verdict(Status.REJECTED, "no command", game)
    if extracted.overflow:
        _reply(incoming, (_("Your mail holds more than %(max)s command lines; to be safe none of them was applied. "
                            "Nothing was changed.") % {"max": parsing.MAX_COMMAND_LINES}
                          + f"\n\n{_options_block(game, seat)}"), to=player, game=game, reply_to=seat_reply_to,
               attempt=True)
        return Verdict(Status.REJECTED, "too many lines", game)
    first = extracted.commands[0][1].strip()
    if notation.fold(first.split(" ", 1)[0]) == "moderator":
        return _judge_to_moderator(incoming, seat, body.text)
    if notation.fold(first.split(" ", 1)[0]) == "say":
        return _judge_say(incoming, seat, [line for _pos, line in extracted.commands])
    if len(extracted.commands) == 1 and notation.fold(first).rstrip(".!?") in LINK_WORDS:
        return _judge_link(incoming, seat)
    undo_lines = [line for _pos, line in extracted.commands if is_undo_line(line)]
    if undo_lines:
        return _judge_undo(incoming, seat, len(extracted.commands))
    absence = [line for _pos, line in extracted.commands if absence_commands.is_absence_line(line)]
    if absence:
        return _judge_absence(incoming, seat, absence[0], len(extracted.commands))
    cmds = [Command(text=line) for _pos, line in extracted.commands]
    try:
        result = game_services.do_submit_moves(game.pk, player, cmds, source="mail", signoff=True, locked=game)
    except MoveRejected as exc:
        _reply_rejected(incoming, seat, extracted.commands, exc)
        if exc.partial:
            return Verdict(Status.APPLIED, f"partly: {len(exc.applied)} line(s) applied, line {exc.line_no}: "
                                           f"{exc.error.code}, now version {exc.version}", game)
        return Verdict(Status.REJECTED, f"line {exc.line_no}: {exc.error.code}", game)
    except ServiceError as exc:
        game.refresh_from_db()
        _reply(incoming, _("Your mail to game #%(pk)s was not taken: %(why)s") % {"pk": game.pk, "why": exc.message}
               + "\n" + _("Nothing was changed.") + _paused_options(game, seat),
               to=player, game=game, reply_to=seat_reply_to)
        return Verdict(Status.REJECTED, exc.code, game)
    if result.ignored:
        _reply_signoff(incoming, seat, result)
        return Verdict(Status.APPLIED, f"{len(result.applied)} move(s), now version {result.version}; "
                                       f"{len(result.ignored)} trailing line(s) ignored", game)
    # A step inside their turn, which goes on: the answer to this mail says what it did and
    # asks the next step (no game mail does; docs/mail.md "When a mail goes"). Why not rate
    # limited like other answers: each one follows a move, so it cannot loop.
    outbox.queue_step_answer(result.game, seat, in_reply_to=incoming.message_id)
    return Verdict(Status.APPLIED, f"{len(result.applied)} move(s), now version {result.version}", game)


def _judge_rematch(incoming: Incoming, seat: Seat) -> Verdict:
    """``rematch`` alone in a reply to a finished game's mail: the same group and options again."""
    game = seat.game
    assert seat.player is not None
    answer = account.run_line(incoming.sender, f"rematch #{game.pk}", outbox.general_address(),
                              incoming.sender_name)
    refused = _("No rematch: %(why)s. Nothing was changed.") % {"why": answer.text}
    _reply(incoming, answer.text if answer.ok else refused,
           to=seat.player, game=game, reply_to=outbox.reply_address(seat), attempt=True)
    return Verdict(Status.APPLIED if answer.ok else Status.REJECTED, f"rematch: {answer.ok}", game)


def _judge_moderator(incoming: Incoming, token: str) -> Verdict:
    """A moderator's commands to their command address for a game (pbem.games.moderators)."""
    body = parsing.body_text(incoming.msg)
    lines = [line for _pos, line in parsing.extract_commands(body.text).commands] if body.kind else []
    try:
        gm, results = moderators.do_moderator_mail(token, incoming.sender, lines)
    except ServiceError as exc:
        known = Player.objects.filter(email=incoming.sender).first()
        if known is not None:  # a stranger who found the address hears nothing of it
            _reply(incoming, _("Your mail was not taken: %(why)s. Nothing was changed.") % {"why": exc.message},
                   to=known)
        return Verdict(Status.REJECTED, exc.code)
    game = gm.game
    answer = "\n".join(f"> {r.line}\n{_('done') if r.ok else _('not done')}: {r.text}\n" for r in results)
    _reply(incoming, (answer or _("I found no command in your mail; nothing was changed.") + "\n")
           + f"\n{_(moderators.COMMANDS_HELP)}\n{_(moderators.COMMANDS_WORDS)}", to=gm.player, game=game,
           reply_to=moderators.command_address(gm), attempt=True)
    ok = sum(r.ok for r in results)
    return Verdict(Status.APPLIED if ok else Status.REJECTED, f"moderator: {ok} of {len(results)} command(s)", game)


def _judge_to_moderator(incoming: Incoming, seat: Seat, text: str) -> Verdict:
    """``moderator ...`` in a reply to the game: the whole mail goes to the game's moderators."""
    assert seat.player is not None
    lines = parsing.strip_reply(text).strip()
    words = lines.split(None, 1)
    message = words[1] if len(words) > 1 else ""
    try:
        told = moderators.do_write_to_moderator(seat.game_id, seat.player, message)
    except ServiceError as exc:
        _reply(incoming, _("Your mail was not passed on: %(why)s.") % {"why": exc.message}, to=seat.player,
               game=seat.game, reply_to=outbox.reply_address(seat))
        return Verdict(Status.REJECTED, exc.code, seat.game)
    _reply(incoming, ngettext("Your mail went to the moderators of game #%(pk)s (%(n)s address); they answer you "
                              "directly.", "Your mail went to the moderators of game #%(pk)s (%(n)s addresses); "
                              "they answer you directly.", told) % {"pk": seat.game_id, "n": told},
           to=seat.player, game=seat.game, reply_to=outbox.reply_address(seat), attempt=True)
    return Verdict(Status.APPLIED, "to the moderators", seat.game)


#: A reply whose one line asks for the player's personal page link (an old one expired or was revoked).
LINK_WORDS = frozenset({"link", "new link", "my link", "page", "my page", "link please"})


def _judge_link(incoming: Incoming, seat: Seat) -> Verdict:
    """``link`` alone in a reply to a game's mail: the player's own page link, as it is now (the
    link is their credential for the seat; it goes only to the seat's own player)."""
    game = seat.game
    _reply(incoming, _("Your personal page for game #%(pk)s (%(title)s):") % {"pk": game.pk, "title": game.said_title}
           + f"\n{seat_page_url(seat)}\n\n"
           + _("It is yours alone: whoever has it plays for your seat. No move was made."),
           to=seat.player, game=game, reply_to=outbox.reply_address(seat), attempt=True)
    return Verdict(Status.APPLIED, "link", game)


def _judge_say(incoming: Incoming, seat: Seat, lines: list[str]) -> Verdict:
    """A reply starting with ``say``: the whole text is a message to the other players,
    delivered in their next mails and on the page; no move is made."""
    game = seat.game
    text = " ".join([lines[0].strip()[3:].strip(), *lines[1:]])
    try:
        personal.do_say(seat, text)
    except ServiceError as exc:
        _reply(incoming, _("Your message was not delivered: %(why)s") % {"why": exc.message}, to=seat.player,
               game=game, reply_to=outbox.reply_address(seat), attempt=True)
        return Verdict(Status.REJECTED, "say: " + exc.code, game)
    together = game.state is not None and engine.get(game.rules).cooperative(game.state)
    told = (_("Your message was mailed to the whole table now (a cooperative game), and is on the game page now. "
              "No move was made.") if together else
            _("Your message goes to the other players with their next mail, and is on the game page now. No move "
              "was made."))
    _reply(incoming, told, to=seat.player, game=game, reply_to=outbox.reply_address(seat), attempt=True)
    return Verdict(Status.APPLIED, "say", game)


def _reply_signoff(incoming: Incoming, seat: Seat, result: game_services.BatchResult) -> None:
    """Moves applied and a sign-off ignored: say what was taken and what was not.

    Not when the change began the seat's next decision (a solo player after Jean's turn, the
    round's scoring): its game mail, queued with the moves, tells what was applied and asks that
    decision, and an answer after it would bury it as the newest mail with nothing to answer."""
    game = result.game
    seat.refresh_from_db()
    if (seat.last_mailed_version >= game.version and game.status == Game.Status.RUNNING
            and game.state is not None and seat.index is not None
            and engine.get(game.rules).options(game.state, seat.index)):
        return
    mine = [a for a in result.applied if a.seat == seat.index and a.source is None]
    taken = "\n".join(f"  {a.label}" for a in mine)
    ignored = "\n".join(_("ignored: %(line)s") % {"line": line} for line in result.ignored)
    _reply(incoming, (_("Your move in game #%(pk)s (%(title)s) was applied:") % {"pk": game.pk,
                                                                                "title": game.said_title}
                      + f"\n{taken}\n\n{ignored}\n"
                      + _("(After the lines before, your turn was over (you had nothing left to decide, or the game "
                          "moved on by itself to a new turn or the round's end), so these lines had nothing to "
                          "apply to: the game reads no command in them, or they say your turn is over.)")
                      + "\n\n" + _("Your page: %(url)s") % {"url": seat_page_url(seat)}), to=seat.player, game=game,
           reply_to=outbox.reply_address(seat),
           after_move="signoff")


def _judge_preferences(incoming: Incoming, seat: Seat, extracted: parsing.Extracted) -> Verdict:
    """A reply to a game mail holding only ``name ...`` / ``mode ...`` lines: the player's preferences."""
    game = seat.game
    results = [account.run_line(incoming.sender, line, outbox.general_address(), incoming.sender_name)
               for _pos, line in extracted.commands]
    parts = [f"> {r.line}\n{_('done') if r.ok else _('not done')}: {r.text}" for r in results]
    seat.refresh_from_db()
    tail = [_("No move was made.")]
    if game.status == Game.Status.RUNNING:
        tail.append(_options_block(game, seat))
    _reply(incoming, _("Results of your commands:") + "\n\n" + "\n\n".join(parts + tail),
           to=seat.player, game=game, reply_to=outbox.reply_address(seat), attempt=True)
    ok = all(r.ok for r in results)
    return Verdict(Status.APPLIED if ok else Status.REJECTED,
                   "; ".join(f"{r.line.split()[0]}: {'ok' if r.ok else 'refused'}" for r in results), game)


def is_undo_line(line: str) -> bool:
    """``undo`` typed alone on a line (case, accents and final punctuation forgiven)."""
    return notation.fold(line.strip().rstrip(".!")) == "undo"


def _judge_undo(incoming: Incoming, seat: Seat, n_lines: int) -> Verdict:
    """A reply whose whole text is ``undo``: the player takes back their last move."""
    game = seat.game
    player = seat.player
    assert player is not None
    seat_reply_to = outbox.reply_address(seat)
    if n_lines > 1:
        _reply(incoming, (_("Your mail to game #%(pk)s mixes undo with other lines, so it was not taken. Nothing was "
                            "changed.") % {"pk": game.pk} + "\n\n"
                          + _("To take back your last move, reply with the single word undo; then send your new "
                              "move in another mail.") + f"\n\n{_options_block(game, seat)}"),
               to=player, game=game, reply_to=seat_reply_to,
               attempt=True)
        return Verdict(Status.REJECTED, "undo mixed with other lines", game)
    try:
        result = game_services.do_undo_last_move(game.pk, player, via="mail")
    except ServiceError as exc:
        game.refresh_from_db()
        seat.game = game
        _reply(incoming, (_("Your undo in game #%(pk)s was not taken: %(why)s") % {"pk": game.pk, "why": exc.message}
                          + "\n" + _("Nothing was changed.") + f"\n\n{_options_block(game, seat)}"),
               to=player, game=game, reply_to=seat_reply_to,
               attempt=True)
        return Verdict(Status.REJECTED, f"undo: {exc.code}", game)
    return Verdict(Status.APPLIED, f"undo of move(s) {result.undone}, now version {result.version}", game)


def _judge_absence(incoming: Incoming, seat: Seat, line: str, n_lines: int) -> Verdict:
    """``extend`` or ``vacation ...`` alone in a reply to a game's mail (see absence_commands)."""
    game = seat.game
    player = seat.player
    assert player is not None
    seat_reply_to = outbox.reply_address(seat)
    if n_lines > 1:
        _reply(incoming, (_("Your mail to game #%(pk)s mixes `%(line)s` with other lines, so nothing was taken. "
                            "Send it alone in a mail, and your move in another.") % {"pk": game.pk, "line": line}
                          + f"\n\n{_options_block(game, seat)}"), to=player, game=game, reply_to=seat_reply_to,
               attempt=True)
        return Verdict(Status.REJECTED, "absence command mixed with other lines", game)
    answer = absence_commands.run(line, player, game.pk)
    _reply(incoming, answer.text, to=player, game=game, reply_to=seat_reply_to, attempt=True)
    return Verdict(Status.APPLIED if answer.ok else Status.REJECTED, f"{line.split()[0]}: {answer.ok}", game)


def _reply_rejected(incoming: Incoming, seat: Seat, lines: list[tuple[int, str]], exc: MoveRejected) -> None:
    """The answer to a mail with a refused line. A reveal is a commit point (engine.batch): the lines
    up to the last reveal before the refused one stand, and the answer says what they showed this
    seat. Lines rolled back revealed nothing: the refused line is judged after them, and the
    answer lists the options there (what the player needs to fix the turn) beside those now.

    Applied in part, the answer is also the seat's mail about that change: it tells everything
    since their last mail (the lines that stand told to them, and anything before or after them)
    and their options now, and their next mail starts after it, so that no move is told twice.
    """
    game = Game.objects.get(pk=seat.game_id)
    seat.refresh_from_db()
    seat.game = game
    n = len(lines)

    def line_text(no: int, fallback: str) -> str:
        return lines[no - 1][1] if 0 < no <= n else fallback

    failed = line_text(exc.line_no, exc.line)
    # Why: the change of the lines that stand began a decision of theirs, and its game mail
    # (queued with the moves) told it and lists their options; this answer does not repeat them.
    mailed = exc.partial and seat.last_mailed_version >= game.version
    if exc.partial:
        last = exc.applied[-1].line
        which = (_("line 1 of %(n)s stands") % {"n": n} if last == 1 else
                 _("lines 1 to %(last)s of %(n)s stand") % {"last": last, "n": n})
        parts = [_("Your mail to game #%(pk)s (%(title)s) was applied in part: %(which)s, line %(no)s was refused.")
                 % {"pk": game.pk, "title": game.said_title, "which": which, "no": exc.line_no}, "", _("Applied:")]
        parts += [f"  {a.line}. {line_text(a.line, a.shown)}  " + _("(read as: %(label)s)") % {"label": a.label}
                  for a in exc.applied]
        story = [] if mailed or game.state is None else outbox.story_since(game, seat)
        if story:
            parts += ["", _("Since your last mail:"), *(f"  - {t}" for t in story)]
        parts += ["", ngettext(
            "Why it stands: a line that reveals something (a card drawn or looked at, a die rolled) cannot be "
            "taken back, so it and the lines before it count even though a later line was refused.",
            "Why they stand: a line that reveals something (a card drawn or looked at, a die rolled) cannot be "
            "taken back, so it and the lines before it count even though a later line was refused.", last)]
    else:
        parts = [_("Your move in game #%(pk)s (%(title)s) was not accepted; nothing was changed.")
                 % {"pk": game.pk, "title": game.said_title}]
    parts.append("")
    parts.append(_("Line %(no)s of %(n)s: %(line)s") % {"no": exc.line_no, "n": n, "line": failed} if n > 1
                 else _("Your line: %(line)s") % {"line": failed})
    parts.append(f"  -> {exc.error.message}")
    if exc.rolled_back:
        undone = ", ".join(str(no) for no in exc.rolled_back)
        k = len(exc.rolled_back)
        said = ngettext(
            "Line %(lines)s before it was fine but revealed nothing, and a mail's lines between two reveals "
            "apply all together or not at all, so it was not applied either. Line %(no)s was judged after it; ",
            "Lines %(lines)s before it were fine but revealed nothing, and a mail's lines between two reveals "
            "apply all together or not at all, so they were not applied either. Line %(no)s was judged after "
            "them; ", k) % {"lines": undone, "no": exc.line_no}
        parts += ["", said + (_("there, you could write:") if exc.at_line else
                              _("there, you had nothing left to decide (the game waited for others).")),
                  *([format_options(exc.at_line)] if exc.at_line else [])]
    if n > exc.line_no:
        rest = n - exc.line_no
        parts += ["", ngettext("%(n)s line after the refused one was not read.",
                               "%(n)s lines after the refused one were not read.", rest) % {"n": rest}]
    seen = outbox.version_answered(incoming.references, game.pk)
    before = exc.version - 1 if exc.partial and exc.version is not None else game.version
    if seen is not None and seen < before:
        parts += ["", _("Note: the game has moved on since the mail you answered (that mail showed it at version "
                        "%(seen)s; it was at version %(before)s when your mail arrived). Your mail was judged "
                        "against the game as it was then.") % {"seen": seen, "before": before}]
    if mailed:
        parts += ["", _("Your next decision is in the game mail sent with this answer: reply to that one.")]
    else:
        parts += ["", _options_block(game, seat), "",
                  _("Reply to this mail with your commands, one a line, above the marker line.")]
    parts.append(_("Your page: %(url)s") % {"url": seat_page_url(seat)})  # (their own page, signed)
    # A line the game read (a move refused as illegal, or a later line of a turn): a player's
    # attempt, always answered to their own seat; a first line that reads as nothing is prose.
    attempt = exc.line_no > 1 or exc.error.code not in PROSE_REFUSALS
    told = _reply(incoming, "\n".join(parts), to=seat.player, game=game, reply_to=outbox.reply_address(seat),
                  after_move="partial" if exc.partial else "", attempt=attempt)
    if told and exc.partial and not mailed and game.status == Game.Status.RUNNING and game.state is not None:
        outbox.mark_told(game, seat)


def _judge_invited(incoming: Incoming, seat: Seat) -> Verdict:
    """A mail from an invited address that has no account yet to its seat's address.

    Why the seat is not given to the writer's account here: it becomes theirs when they
    answer ``join`` and no sooner (issue 11). A mail that only asks ("what is this?"), or a
    ``decline``, must not seat an account in a game they never joined; the game's creator
    would see its name on the seat. ``name``/``mode`` lines make the account the general
    address would make, and leave the seat as it is.
    """
    body = parsing.body_text(incoming.msg)
    if not body.kind:
        _reply(incoming, _unreadable_text(body.problems), game=seat.game, reply_to=outbox.reply_address(seat))
        return Verdict(Status.REJECTED, "unreadable mail", seat.game)
    extracted = parsing.extract_commands(body.text)
    if extracted.commands and all(account.is_preference_line(line) for _pos, line in extracted.commands):
        return _judge_preferences(incoming, seat, extracted)
    return _judge_invitation(incoming, seat, extracted)


def _judge_invitation(incoming: Incoming, seat: Seat, extracted: parsing.Extracted) -> Verdict:
    """``join`` or ``decline`` in a reply to an invitation; ``seat.player`` is None while the
    invited address has no account (then joining makes it, from the mail's From name)."""
    game = seat.game
    player = seat.player
    words = [line.split()[0].lower().strip(".!") for _pos, line in extracted.commands if line.split()]
    verb = words[0] if words else ""
    if verb not in ("join", "decline", "yes", "no"):
        _reply(incoming, (_("Game #%(pk)s (%(title)s) has not started yet. Reply with the word join to take your "
                            "seat, or decline if you do not want to play. Nothing was changed.")
                          % {"pk": game.pk, "title": game.said_title}),
               to=player, game=game, reply_to=outbox.reply_address(seat))
        return Verdict(Status.REJECTED, "invitation: no join or decline", game)
    if verb in ("join", "yes"):
        result = account.Result(verb, True, "")
        try:
            result.text = account.cmd_join(incoming.sender, player, game.pk, incoming.sender_name)
        except ServiceError as exc:
            result = account.Result(verb, False, exc.message)
    else:
        try:
            result = account.Result(verb, True, account.cmd_decline(incoming.sender, player, game.pk,
                                                                    incoming.sender_name))
        except ServiceError as exc:
            result = account.Result(verb, False, exc.message)
    game.refresh_from_db()
    if result.ok and verb in ("join", "yes"):
        # the seat is theirs now: a name never chosen takes the mail's From name, as at any seat mail
        player = game_services.do_adopt_mail_name(incoming.sender, incoming.sender_name) or player
    if not (result.ok and game.status == Game.Status.RUNNING):
        # Why: once the game starts, everyone's first mail says all there is to say.
        _reply(incoming, result.text if result.ok else _("Not done: %(why)s") % {"why": result.text}, to=player,
               game=game,
               reply_to=outbox.reply_address(seat) if verb in ("join", "yes") else None)
    return Verdict(Status.APPLIED if result.ok else Status.REJECTED, f"invitation: {verb}", game)


# ---- digests -----------------------------------------------------------------------------------


def do_send_digests(now: datetime | None = None) -> int:
    """Daily digests: players in digest mode get, per game with news, one mail at most every 24 hours.

    Run it hourly from the beat schedule. Returns how many mails were queued.
    """
    now = now or timezone.now()
    seats = (Seat.objects.filter(player__mail_mode=Player.MailMode.DIGEST, index__isnull=False,
                                 game__status__in=[Game.Status.RUNNING, Game.Status.PAUSED],
                                 last_mailed_version__lt=F("game__version"))
             .exclude(status=Seat.Status.RESIGNED).values_list("pk", "game_id", "player_id"))
    queued = 0
    for seat_pk, game_id, player_id in seats:
        last = (OutboundMessage.objects.filter(game_id=game_id, player_id=player_id)
                .order_by("-created_at").values_list("created_at", flat=True).first())
        if last is not None and last > now - DIGEST_PERIOD:
            continue
        with transaction.atomic():
            game = game_services.access_game_for_update(game_id)
            seat = Seat.objects.select_related("player").get(pk=seat_pk)
            if seat.last_mailed_version >= game.version or game.state is None:
                continue
            outbox.queue_digest(game, seat)
            queued += 1
    return queued
