"""Everything that changes a game goes through these functions.

Views, serializers, admin actions, Celery tasks and the SMTP handler call them
and nothing else writes. Naming follows Zulip: ``do_`` changes things,
``check_`` validates and raises, ``access_`` fetches with a permission check.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import logging
import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import InterfaceError, OperationalError, connection, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

import engine
from engine import IllegalMove, Rules, SetupError, UnknownGame, batch, notation
from engine.record import outcome_record
from pbem.games import absence, clocks, dispatch
from pbem.games.models import AuditEntry, Campaign, Game, Move, MoveRequest, Player, Seat, Source, names_of, pending_of

# Re-exported ("x as x"): callers write ``services.ServiceError``, ``services.do_create_player``;
# the types and the players' services live in their own modules to keep this one short.
from pbem.games.players import (
    NAME_LENGTH as NAME_LENGTH,
)
from pbem.games.players import (
    check_address as check_address,
)
from pbem.games.players import (
    check_display_name as check_display_name,
)
from pbem.games.players import (
    check_title as check_title,
)
from pbem.games.players import (
    compose_title as compose_title,
)
from pbem.games.players import (
    default_name as default_name,
)
from pbem.games.players import (
    do_adopt_mail_name as do_adopt_mail_name,
)
from pbem.games.players import (
    do_create_player as do_create_player,
)
from pbem.games.players import (
    do_get_or_create_player as do_get_or_create_player,
)
from pbem.games.players import (
    do_issue_api_token as do_issue_api_token,
)
from pbem.games.players import (
    do_set_password as do_set_password,
)
from pbem.games.players import (
    do_update_preferences as do_update_preferences,
)
from pbem.games.players import (
    normalize_email as normalize_email,
)
from pbem.games.players import (
    unique_seat_names as unique_seat_names,
)
from pbem.games.service_types import (
    Applied as Applied,
)
from pbem.games.service_types import (
    BatchResult as BatchResult,
)
from pbem.games.service_types import (
    Command as Command,
)
from pbem.games.service_types import (
    Conflict as Conflict,
)
from pbem.games.service_types import (
    Forbidden as Forbidden,
)
from pbem.games.service_types import (
    MoveRejected as MoveRejected,
)
from pbem.games.service_types import (
    NotFound as NotFound,
)
from pbem.games.service_types import (
    ServiceError as ServiceError,
)
from pbem.games.service_types import (
    StaleVersion as StaleVersion,
)
from pbem.games.service_types import (
    TooManyRequests as TooManyRequests,
)
from pbem.games.service_types import (
    access_game_for_update as access_game_for_update,
)
from pbem.games.service_types import (
    rules_for as rules_for,
)
from pbem.mail import outbox, seatrow

log = logging.getLogger(__name__)


# ---- game lifecycle -----------------------------------------------------------------------


def check_rules(name: str) -> Rules:
    try:
        return engine.get(name)
    except UnknownGame as exc:
        raise ServiceError(str(exc)) from None


@transaction.atomic
def do_create_game(creator: Player, rules_name: str, *, options: dict[str, Any] | None = None,
                   invite: Sequence[str] = (), open_seats: int = 0, title: str = "",
                   deadline_hours: int = 72, allow_any_sender: bool = False,
                   time_bank_hours: int | None = None, time_bank_increment_hours: int = 0,
                   campaign: Campaign | None = None, campaign_number: int | None = None,
                   archive: dict[str, Any] | None = None) -> Game:
    """A new game with the creator seated, invitations sent and open seats left for anyone.

    ``campaign``: the campaign it belongs to (its ``campaign_number``), set up from ``archive``
    (pbem.games.campaigns)."""
    rules = check_rules(rules_name)
    emails = [check_address(e) for e in invite]
    if creator.email in emails:
        raise ServiceError(gettext("you are seated already; do not invite yourself"))
    if len(set(emails)) != len(emails):
        raise ServiceError(gettext("the same address is invited twice"))
    if open_seats < 0:
        raise ServiceError(gettext("open seats cannot be negative"))
    n_players = 1 + len(emails) + open_seats
    check_invitation_limits(creator, emails)
    try:
        # an internal option (OptionSpec.internal: e.g. Maracaibo's release, which a stored older game's options
        # carry) is never a new game's: one set up now, a rematch's included, is today's
        internal = {s.name for s in rules.option_specs if s.internal}
        checked = rules.check_options(n_players, {k: v for k, v in (options or {}).items() if k not in internal})
    except SetupError as exc:
        raise ServiceError(str(exc)) from None
    if campaign is None and rules.supports_campaign and checked.get("campaign"):
        # a campaign game on its own would play the story's first game and hand its archive to no next
        # game: the campaign is made first, and it makes its games (pbem.games.campaigns)
        raise ServiceError(gettext(
            "option campaign starts a campaign, which is created as one, with its group: by mail new campaign "
            "%(rules)s with ADDRESS..., through the API POST /api/v1/campaigns/") % {"rules": rules.name})
    if not 1 <= deadline_hours <= 24 * 60:
        raise ServiceError(gettext("the deadline must be between 1 hour and 60 days"))
    if time_bank_hours is not None and not 1 <= time_bank_hours <= 24 * 365:
        raise ServiceError(gettext("a time bank is between 1 hour and 365 days"))
    if not 0 <= time_bank_increment_hours <= 24 * 30:
        raise ServiceError(gettext("a time bank's increment is between 0 hours and 30 days"))
    if time_bank_increment_hours and time_bank_hours is None:
        raise ServiceError(gettext("an increment needs a time bank (bank=HOURS)"))
    check_title(title)
    game = Game.objects.create(
        rules=rules.name, title=(title.strip() or compose_title(rules, checked))[:100], options=checked,
        created_by=creator, deadline_hours=deadline_hours, allow_any_sender=allow_any_sender,
        time_bank_hours=time_bank_hours, time_bank_increment_hours=time_bank_increment_hours,
        campaign=campaign, campaign_number=campaign_number, archive=archive,
    )
    Seat.objects.create(game=game, player=creator, status=Seat.Status.JOINED, joined_at=timezone.now())
    # Why no account for a new address: it is made when that address answers (claim_invitation).
    # An address that has an account already is seated as that player at once.
    known = {p.email: p for p in Player.objects.filter(email__in=emails)}
    now = timezone.now()
    invited = [Seat.objects.create(game=game, player=known.get(email), invited_email=email, invited_at=now)
               for email in emails]
    for _ in range(open_seats):
        Seat.objects.create(game=game)
    # Why after every seat exists: an invitation tells how many players the game is for.
    for seat in invited:
        outbox.queue_invitation(seat)
    do_log(game, creator, "create", {"rules": rules.name, "players": n_players, "options": checked})
    _start_if_full(game)
    return game


#: Invitations one player may send in an hour. Why: each one is a mail with the creator's name
#: and title sent to an address of their choosing; unbounded, that is a spam relay. Players who
#: joined one's open seats from the lobby are not invitations (``Seat.invited_at``).
INVITATIONS_PER_CREATOR_PER_HOUR = 20
#: Unanswered invitations one inviter may have out to one address, from the last day.
INVITATIONS_PER_INVITER_PER_ADDRESS = 3
#: Unanswered invitations one address may get in a day from strangers together (inviters it
#: never sat at a table with). Why not from everyone: three invitations by anyone would then
#: block the address's friends for a day (a griefing tool); strangers can only block strangers.
INVITATIONS_PER_ADDRESS_FROM_STRANGERS = 10


def _table_mates(email: str) -> QuerySet[Seat, Any]:
    """The players who sat (not just invited) at one table with the address's player, as a subquery."""
    tables = Seat.objects.filter(player__email=email).exclude(status=Seat.Status.INVITED).values("game")
    return Seat.objects.filter(game__in=tables, player__isnull=False).exclude(
        status=Seat.Status.INVITED).values("player")


def check_invitation_limits(creator: Player, emails: Sequence[str]) -> None:
    if not emails:
        return
    now = timezone.now()
    sent = Seat.objects.filter(game__created_by=creator, invited_at__gte=now - timedelta(hours=1)).count()
    if sent + len(emails) > INVITATIONS_PER_CREATOR_PER_HOUR:
        raise TooManyRequests(gettext("you may invite %(limit)s players an hour and have invited "
                                      "%(sent)s in the last hour; try again later")
                              % {"limit": INVITATIONS_PER_CREATOR_PER_HOUR, "sent": sent}, retry_after=3600)
    for email in emails:
        pending = Seat.objects.filter(Q(player__email=email) | Q(invited_email=email), status=Seat.Status.INVITED,
                                      game__created_at__gte=now - timedelta(days=1))
        mine = pending.filter(game__created_by=creator).count()
        if mine >= INVITATIONS_PER_INVITER_PER_ADDRESS:
            raise TooManyRequests(gettext("%(email)s has %(mine)s unanswered invitations from you from the last day; "
                                          "invite them again tomorrow")
                                  % {"email": email, "mine": mine}, retry_after=24 * 3600)
        mates = _table_mates(email)
        if mates.filter(player=creator).exists():
            continue
        strangers = pending.exclude(game__created_by__in=mates).count()
        if strangers >= INVITATIONS_PER_ADDRESS_FROM_STRANGERS:
            raise TooManyRequests(gettext("%(email)s has %(strangers)s unanswered invitations from the last day from "
                                          "players they have not played with; invite them again tomorrow")
                                  % {"email": email, "strangers": strangers}, retry_after=24 * 3600)



def invitation_for(player: Player) -> Q:
    """Seats invited for ``player``: by account, or by their address while it had none."""
    return Q(player=player) | Q(player__isnull=True, invited_email=player.email)


def free_seats() -> Q:
    """Seats anyone may take: no player and no address invited."""
    return Q(player__isnull=True, invited_email="")


def claim_invitation(seat: Seat, player: Player) -> Seat:
    """The invited address answered: its seat is ``player``'s from now on (not saved here)."""
    if seat.player_id is None and seat.invited_email and seat.invited_email == player.email:
        seat.player = player
    return seat


@transaction.atomic
def do_join_game(game_id: int, player: Player) -> Seat:
    game = access_game_for_update(game_id)
    if game.status != Game.Status.OPEN:
        raise Conflict(gettext("game #%(game)s is %(status)s; it takes no new players")
                       % {"game": game.pk, "status": game.get_status_display()})
    seat = game.seats.filter(invitation_for(player)).order_by("id").first()
    if seat is not None and seat.status == Seat.Status.JOINED:
        raise Conflict(gettext("you have joined game #%(game)s already") % {"game": game.pk})
    if seat is not None:
        claim_invitation(seat, player)
        seat.invited_email = ""
    if seat is None:
        seat = game.seats.filter(free_seats()).order_by("id").first()
        if seat is None:
            raise Conflict(gettext("game #%(game)s has no free seat; ask its creator for an invitation")
                           % {"game": game.pk})
        seat.player = player
    seat.status = Seat.Status.JOINED
    seat.joined_at = timezone.now()
    seat.save()
    do_log(game, player, "join", {})
    _start_if_full(game)
    return seat


@transaction.atomic
def do_decline_game(game_id: int, player: Player) -> None:
    """An invitation declined: the seat opens for anyone to join."""
    game = access_game_for_update(game_id)
    seat = game.seats.filter(invitation_for(player), status=Seat.Status.INVITED).first()
    if seat is None or game.status != Game.Status.OPEN:
        raise Conflict(gettext("you have no pending invitation to game #%(game)s") % {"game": game.pk})
    seat.player = None
    seat.invited_email = ""
    # Why: the invitation mail's reply address must not work for whoever takes the seat next.
    seat.token = secrets.token_urlsafe(18)
    seat.save()
    do_log(game, player, "decline", {})


@transaction.atomic
def do_leave_game(game_id: int, player: Player) -> None:
    game = access_game_for_update(game_id)
    if game.status != Game.Status.OPEN:
        raise Conflict(gettext("a started game cannot be left; resign instead"))
    seat = game.seats.filter(player=player).first()
    if seat is None:
        raise Conflict(gettext("you are not seated in game #%(game)s") % {"game": game.pk})
    if game.created_by_id == player.pk:
        game.status = Game.Status.ABORTED
        game.save(update_fields=["status"])
        do_log(game, player, "abort", {"why": "the creator left before the start"})
        return
    seat.player = None
    seat.invited_email = ""
    seat.status = Seat.Status.INVITED
    seat.joined_at = None
    seat.token = secrets.token_urlsafe(18)  # the leaver's reply address stops working
    seat.save()
    do_log(game, player, "leave", {})


def _start_if_full(game: Game) -> None:
    seats = list(game.seats.all())
    if all(s.status == Seat.Status.JOINED and s.player_id for s in seats):
        do_start_game(game)


def new_seed() -> str:
    """A fresh secret seed for a game being dealt (tests replay a failed run's seeds through it)."""
    return secrets.token_hex(16)


def do_start_game(game: Game) -> None:
    """Deal the game. The seed stays secret; its hash is the commitment shown to players."""
    rules = rules_for(game)
    seats = list(game.seats.select_related("player").order_by("id"))
    for i, seat in enumerate(seats):
        seat.index = i
        seat.save(update_fields=["index"])
    game.seed = new_seed()
    game.seed_hash = hashlib.sha256(game.seed.encode()).hexdigest()
    game.state = rules.setup(unique_seat_names([s.player.display_name for s in seats if s.player]),
                             game.options, game.seed, archive=game.archive)
    game.status = Game.Status.RUNNING
    game.started_at = timezone.now()
    game.version = 1
    _reset_deadline(game)
    game.save()
    do_log(game, None, "start", {"seed_hash": game.seed_hash})
    _autoplay(game, rules, [])
    outbox.queue_game_update(game)


# ---- moves ------------------------------------------------------------------------------


def access_seat(game: Game, player: Player) -> Seat:
    return _own_seat(game, list(game.seats.filter(player=player).order_by("pk")[:1]), player)


def _own_seat(game: Game, seats: Sequence[Seat], player: Player) -> Seat:
    """``player``'s seat among ``seats`` (the first made, if they hold several), or Forbidden."""
    seat = min((s for s in seats if s.player_id == player.pk), key=lambda s: s.pk, default=None)
    if seat is None or seat.index is None:
        raise Forbidden(gettext("you do not play in game #%(game)s") % {"game": game.pk})
    if seat.status == Seat.Status.RESIGNED:
        raise Forbidden(gettext("you resigned from game #%(game)s") % {"game": game.pk})
    return seat


def _apply_commands(game: Game, rules: Rules, seat: int,
                    commands: Sequence[Command]) -> tuple[list[Applied], batch.Refusal | None]:
    """Apply in order on the game's in-memory state, under the commit-point rule of ``engine.batch``.

    Returns the moves that stand (the batch up to its refused command's last reveal, or all of
    it) and the refusal, if any. The state is left as those moves leave it.
    """
    state = game.state
    assert state is not None
    result = batch.apply_batch(rules, state, seat, commands)
    # a guessed word ("read `karla` as Carla") is said to the seat that typed it: apply_batch
    # puts that note among the step's events already
    applied = [Applied(seat, step.move, step.label, list(step.events),
                       line=step.number, shown=step.shown)
               for step in result.steps]
    return applied, result.refused


def _autoplay(game: Game, rules: Rules, applied: list[Applied], *, resigned: set[int] | None = None) -> None:
    """Seats whose player resigned play the game's default move (its least committal choice,
    the one a missed deadline plays), or their first option where the game declares none,
    so the others can go on. ``resigned``: their indexes, when the caller read the seats already."""
    if resigned is None:
        resigned = {i for i in game.seats.filter(status=Seat.Status.RESIGNED).values_list("index", flat=True)
                    if i is not None}
    state = game.state
    assert state is not None
    guard = 0
    while resigned and guard < 10_000:
        waiting = [s for s in rules.pending(state) if s in resigned]
        if not waiting or len(resigned) >= len(state["players"]):
            break
        seat = waiting[0]
        # Why the default, not the first option: the first one is whatever the game lists first
        # (Caravelas: a move of the first caravela), not a choice made for someone who left.
        opt = rules.default_move(state, seat) or rules.options(state, seat)[0]
        applied.append(Applied(seat, opt.move, opt.label, rules.apply(state, seat, opt.move), Source.BOT))
        guard += 1


def _record(game: Game, applied: list[Applied], source: str) -> None:
    # Why a counter on the game (issue 28), not COUNT(*) or the newest row's number: the game row
    # is read and written by every move anyway, so the log is not read at all, however long.
    number = game.moves_recorded
    version = game.version + 1
    banks = clocks.snapshot(game, timezone.now())
    rows = []
    for a in applied:
        number += 1
        rows.append(Move(game=game, seat=a.seat, move=a.move, source=a.source or source, version=version, number=number,
                         events=[e.as_stored() for e in a.events], banks_before=banks))
    _insert_moves(rows)
    game.moves_recorded = number
    game.version = version


def _insert_moves(rows: list[Move]) -> None:
    """The move rows in one written-out INSERT, each column prepared as the ORM prepares it
    (``pre_save``: the creation time; ``get_db_prep_save``: the JSON and the packed events).

    Why (issue 28, perf): ``bulk_create`` built its INSERT anew for every move, about 0.5 ms of
    CPU more than this; the rows' ids are not needed after (nothing reads them in the move)."""
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    one = f"({', '.join(['%s'] * len(fields))})"
    params = [f.get_db_prep_save(f.pre_save(row, True), connection) for row in rows for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {quote(Move._meta.db_table)} ({', '.join(quote(str(f.column)) for f in fields)}) "
                       f"VALUES {', '.join([one] * len(rows))}", params)


def _finish_if_over(game: Game, rules: Rules) -> None:
    assert game.state is not None
    # Why engine.record: ``python -m engine replay`` builds the same record to compare an export with.
    outcome = outcome_record(rules, game.state)
    if outcome is None:
        return
    game.status = Game.Status.FINISHED
    game.outcome = outcome
    game.finished_at = timezone.now()
    game.deadline_at = None
    do_log(game, None, "finish", {"outcome": game.outcome})


def _hand_on_campaign(game: Game) -> None:
    """A finished campaign game's campaign goes on after the commit (pbem.games.campaigns; its sweeper if
    this is lost). Called after the game's last mails are queued: handed on before them, the campaign mail
    ("its first mail follows") and the next game's first mail went out before this game's "game over"."""
    if game.campaign_id is not None and game.status == Game.Status.FINISHED:
        dispatch.enqueue("pbem.campaign_next", game.pk)


def _reset_deadline(game: Game, movers: Collection[int] = ()) -> None:
    """The deadline starts again; with time banks, ``movers`` (the seats that just moved) are
    charged their time and their clocks start again if the game still waits on them."""
    now = timezone.now()
    grace = game.deadline_at
    game.deadline_at = now + timedelta(hours=game.deadline_hours)
    if clocks.is_banked(game) and game.state is not None:
        pending = rules_for(game).pending(game.state)
        game.deadline_at = clocks.settle(game, pending, now, movers=movers)
        if grace is not None and clocks.still_reminded(game, pending, now, but=movers):
            # Why: a reminded seat whose clock is still empty keeps its grace, not a new reminder
            # each time someone else moves
            game.deadline_at = grace
            game.warned_at = None
            return
    game.reminded_at = None
    game.warned_at = None
    game.moderator_told_at = None


def _reads_as_a_command(rules: Rules, state: dict[str, Any], seat: int, command: Command) -> bool:
    if command.text is None:
        return True
    try:
        rules.parse(command.text, state, seat)
    except IllegalMove:
        return False
    return True


#: What a player writes last to say their turn is over. After lines that ended the turn (the
#: game may end a phase by itself when nothing is left to do in it), such a line has nothing to
#: apply to: it is ignored like a sign-off, not refused (which undid the whole turn).
TURN_OVER_WORDS = frozenset({"done", "end", "end turn", "end of turn", "end my turn", "finished", "that's all",
                             "that is all"})


def _says_turn_over(command: Command) -> bool:
    return command.text is not None and notation.fold(command.text).rstrip(".!") in TURN_OVER_WORDS


def _split_signoff(rules: Rules, state: dict[str, Any], seat: int,
                   commands: Sequence[Command]) -> tuple[Sequence[Command], list[str]]:
    """The commands to apply, and the trailing lines to ignore as a sign-off ("Thanks!", "Cheers, Anna").

    Trailing lines are ignored only when the game cannot read any of them in the state the
    batch starts from (or they say the turn is over: ``done``, :data:`TURN_OVER_WORDS`), and
    the lines before them, applied, leave the seat nothing to decide; lines that say the turn is
    over are ignored too when the lines before them moved the game on to a new turn or past the
    round's end (events of a kind in ``engine.batch.MOVED_ON``: in a solo game, or when the
    round's scoring asks the seat something, the seat has a decision again at once).
    Otherwise the batch is judged whole, as written. Why the state the batch starts from:
    it is what the player saw, so whether a line reads as a command there tells nothing new;
    the trial of the lines before runs on a copy and is only used to pick the split, which
    the real application then repeats exactly (the rules are deterministic).
    """
    if len(commands) < 2:
        return commands, []
    start = len(commands)
    # the longest run of lines first: a "done" after a turn that ended by itself is dropped even
    # when a line before it (a "pass") would not read as a command where the batch starts
    while start > 1 and (not _reads_as_a_command(rules, state, seat, commands[start - 1])
                         or _says_turn_over(commands[start - 1])):
        start -= 1
        trial = _json_copy(state)
        steps = [batch.Command(code=c.code, text=c.text, move=c.move) for c in commands[:start]]
        result = batch.apply_batch(rules, trial, seat, steps)
        if not result.ok:
            continue
        # the game moved on by itself after the last of these lines (a new turn began, or the
        # round ended): a closing ``done`` is a sign-off, never a move of the decision that came next
        moved_on = (all(_says_turn_over(c) for c in commands[start:]) and bool(result.steps)
                    and any(e.kind in batch.MOVED_ON for e in result.steps[-1].events))
        if moved_on or not rules.options(trial, seat):
            return commands[:start], [c.shown for c in commands[start:]]
    return commands, []


def do_submit_moves(game_id: int, player: Player | None, commands: Sequence[Command], *, source: str,
                    expected_version: int | None = None, seat_index: int | None = None,
                    signoff: bool = False, locked: Game | None = None) -> BatchResult:
    """Apply a batch of commands for one seat under the game's row lock; a reveal is a commit point.

    ``player`` None means a moderator or the deadline policy acting for ``seat_index``.
    ``signoff``: a mail's trailing sign-off lines are ignored (:func:`_split_signoff`).
    ``locked``: the game, read with its row locked in the caller's transaction (the mail path
    reads it so with the seat of the address; issue 28); it is changed in place.
    A refused command raises MoveRejected. Nothing changed when its ``applied`` is empty;
    otherwise those moves were recorded (the transaction committed) before it was raised.
    """
    with _move_transaction(in_callers=locked is not None):
        result, refusal = _submit_moves(locked or access_game_for_update(game_id), player, commands, source=source,
                                        expected_version=expected_version, seat_index=seat_index, signoff=signoff)
    if refusal is not None:
        raise refusal
    return result


#: The game's columns a move writes (the state, its counters, the end, the deadline's marks:
#: _record, _autoplay, _finish_if_over, _reset_deadline); ``Game.save`` adds what it derives from
#: the state. Why not every column (issue 28, perf): the UPDATE the ORM built and adapted each move
#: wrote the game's options, archive and settings back as they were.
MOVE_FIELDS = ["state", "version", "moves_recorded", "status", "outcome", "finished_at", "deadline_at",
               "warned_at", "reminded_at", "moderator_told_at"]


def _save_move(game: Game) -> None:
    """The game's row as a move leaves it: :data:`MOVE_FIELDS` and what :meth:`Game.save` derives
    from the state (whom it waits for, the seats' names), in one written-out UPDATE.

    Why written out (issue 28, perf): ``game.save()`` had the ORM build and adapt an UPDATE of
    all of the game's 33 columns but its id at every move, 0.9-1.0 ms of CPU against 0.55-0.65
    for this (a Maracaibo game's row, medians of 200 saves); no signal listens to a game's save."""
    game.pending_seats = pending_of(game.rules, game.state)
    game.seat_names = names_of(game.state)
    sql, fields = _move_update(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [f.get_db_prep_save(getattr(game, f.attname), connection) for f in fields] + [game.pk])


@functools.cache
def _move_update(vendor: str) -> tuple[str, tuple[Any, ...]]:
    del vendor  # (the cache's key: the statement is quoted for that database)
    fields = tuple(Game._meta.get_field(name) for name in [*MOVE_FIELDS, "pending_seats", "seat_names"])
    quote = connection.ops.quote_name
    pk = next(f for f in Game._meta.concrete_fields if f.primary_key)
    sets = ", ".join(f"{quote(str(getattr(f, 'column', '')))} = %s" for f in fields)
    return f"UPDATE {quote(Game._meta.db_table)} SET {sets} WHERE {quote(str(pk.column))} = %s", fields


def _move_transaction(*, in_callers: bool) -> contextlib.AbstractContextManager[Any]:
    """The move's transaction: its own (a savepoint inside a caller's), or, ``in_callers``, the
    caller's as it is.

    Why the caller's without a savepoint (issue 28: two statements of the eight a judged mail
    may cost): the mail path holds the game's lock already and lets any error end its
    transaction whole; a refusal it answers and goes on from (a ServiceError) is raised before
    the first write, and from there on :func:`_submit_moves` writes inside
    ``atomic(savepoint=False)``, so an error past the first write rolls the caller's
    transaction back whole. Every other caller keeps the savepoint: the move-request task
    catches any error and records a decision in the same transaction.
    """
    if in_callers:
        assert transaction.get_connection().in_atomic_block, "the caller's transaction holds the lock"
        return contextlib.nullcontext()
    return transaction.atomic()


def _submit_moves(game: Game, player: Player | None, commands: Sequence[Command], *, source: str,
                  expected_version: int | None, seat_index: int | None,
                  signoff: bool) -> tuple[BatchResult, MoveRejected | None]:
    if not commands:
        raise ServiceError(gettext("no commands were given"))
    if game.status == Game.Status.PAUSED and source == Source.MODERATOR:
        # a moderator moving for a seat is no player waiting for a mail (QA, #23: they were told so)
        raise Conflict(gettext("game #%(game)s is paused: resume it first, then move for the seat")
                       % {"game": game.pk})
    if game.status == Game.Status.PAUSED:
        raise Conflict(gettext("game #%(game)s is paused by a moderator; moves are not taken until it resumes, "
                               "and you will get a mail with your options then") % {"game": game.pk})
    if game.status != Game.Status.RUNNING:
        raise Conflict(gettext("game #%(game)s is %(status)s; it takes no moves")
                       % {"game": game.pk, "status": game.get_status_display()})
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(gettext("the game has moved on (version %(game_version)s, you sent "
                                   "%(expected_version)s); look at the new state and send your move again")
                           % {"game_version": game.version, "expected_version": expected_version})
    # Why every seat in one read (#28): the mover's seat, the resigned seats autoplay needs and
    # the seats the game mails are one small query, not three.
    seats = seatrow.seats_of(game)  # (with_chat_flag's read, written out: pbem.mail.seatrow)
    own = _own_seat(game, seats, player) if player is not None else None
    if own is not None:
        seat_index = own.index
    assert seat_index is not None
    rules = rules_for(game)
    ignored: list[str] = []
    if signoff:
        assert game.state is not None
        commands, ignored = _split_signoff(rules, game.state, seat_index, commands)
    assert game.state is not None
    waited = rules.pending(game.state)  # before the change: who hears of it (pbem.mail.due.mail_due)
    applied, refused = _apply_commands(game, rules, seat_index, commands)
    mine = list(applied)
    if applied:
        with transaction.atomic(savepoint=False):  # the first write: see _move_transaction
            _autoplay(game, rules, applied, resigned={s.index for s in seats
                                                      if s.status == Seat.Status.RESIGNED and s.index is not None})
            _record(game, applied, source)
            _reset_deadline(game, movers={a.seat for a in applied})
            _finish_if_over(game, rules)
            _save_move(game)
            if own is not None:
                absence.back_in_play(game, own)
            # Why read again with time banks: the clocks saved the seats from a read of their own.
            outbox.queue_game_update(game, waited=waited, seats=None if clocks.is_banked(game) else seats,
                                     change=[(a.seat, a.events) for a in applied])
            _hand_on_campaign(game)
    refusal = None
    if refused is not None:
        assert game.state is not None
        # the options of the game as saved are what the player may act on now; those at the
        # refused line (after the lines before it) are what the refusal is judged against
        refusal = MoveRejected(refused.number, commands[refused.number - 1].shown, refused.error,
                               rules.options(game.state, seat_index), seat=seat_index, applied=mine,
                               version=game.version if mine else None, rolled_back=refused.rolled_back,
                               at_line=refused.options)
    return BatchResult(game, game.version, applied, ignored), refusal


# ---- replay and undo ----------------------------------------------------------------------------

#: Sources of moves a player made themselves; only those can be taken back.
OWN_SOURCES = (Source.MAIL, Source.API, Source.WEB)


def live_moves(game: Game) -> QuerySet[Move]:
    """The move log without the moves taken back, in replay order."""
    return Move.objects.filter(game=game, undone_at__isnull=True).order_by("number")


def _json_copy(state: dict[str, Any]) -> dict[str, Any]:
    """The state as JSONB stores it, so that a replayed state compares equal to a stored one."""
    result: dict[str, Any] = json.loads(json.dumps(state))
    return result


def replay_state(game: Game, rows: Sequence[Move]) -> dict[str, Any]:
    """Setup from the game's seed and options, then ``rows`` applied in order: the state they lead to.

    Players are named as in the stored state (a replacement does not rename a seat).
    """
    assert game.state is not None
    rules = rules_for(game)
    # (the options the stored state says it was set up with: a game of an older release replays that
    # release's setup, Rules.replay_options)
    options = rules.replay_options(game.options or {}, game.state)
    state = rules.setup(list(game.state["players"]), options, game.seed, archive=game.archive)
    for row in rows:
        rules.apply(state, row.seat, row.move)
    return _json_copy(state)


@dataclass
class UndoResult:
    game: Game
    version: int
    undone: list[int]


@transaction.atomic
def do_undo_last_move(game_id: int, player: Player, *, via: str = "") -> UndoResult:
    """Take back the player's own last batch of moves, when nothing has happened since
    and the batch neither revealed information nor used the game's random generator.

    The log stays append-only: the batch's rows are marked undone, the state is the
    replay of the moves before them, the version moves on and everyone is told.
    """
    game = access_game_for_update(game_id)
    if game.status == Game.Status.PAUSED:
        raise Conflict(gettext("game #%(game)s is paused by a moderator; nothing can be taken back until it "
                               "resumes") % {"game": game.pk})
    if game.status != Game.Status.RUNNING:
        raise Conflict(gettext("game #%(game)s is %(status)s; its moves cannot be taken back")
                       % {"game": game.pk, "status": game.get_status_display()})
    seat = access_seat(game, player)
    assert seat.index is not None and game.state is not None
    rules = rules_for(game)
    rows = list(live_moves(game))
    if not rows:
        raise Conflict(gettext("there is no move to take back: nobody has moved yet"))
    last_version = rows[-1].version
    batch = [r for r in rows if r.version == last_version]
    earlier = [r for r in rows if r.version != last_version]
    if any(r.seat != seat.index for r in batch):
        others = sorted({r.seat for r in batch if r.seat != seat.index})
        mine = any(r.seat == seat.index for r in rows)
        if not mine:
            raise Conflict(gettext("only your own last move can be taken back, and you have not moved yet"))
        names = ", ".join(rules.seat_name(game.state, s) for s in others)
        raise Conflict(gettext("only your own last move can be taken back: %(names)s has moved since")
                       % {"names": names})
    if any(r.source not in OWN_SOURCES for r in batch):
        raise Conflict(gettext("only your own last move can be taken back: that move was played for you "
                               "(%(batch_0_get_source_displ)s), not by you")
                       % {"batch_0_get_source_displ": batch[0].get_source_display()})
    if any(bool(e.get("reveals")) for r in batch for e in r.events):
        raise Conflict(gettext("that move revealed information (a card turned over, a draw, a die roll), so it "
                               "cannot be taken back"))
    try:
        before = replay_state(game, earlier)
        replayed = _json_copy(before)
        for r in batch:
            rules.apply(replayed, r.seat, r.move)
    except IllegalMove:
        replayed = {}
    after = _json_copy(replayed)
    if after != _json_copy(game.state):
        raise Conflict(gettext("game #%(game)s's move log does not replay to its state, so nothing can be taken "
                               "back safely; please tell a moderator") % {"game": game.pk})
    if before.get("rng") != after.get("rng"):
        raise Conflict(gettext("that move drew a card or rolled a die (it used the game's random numbers), so "
                               "it cannot be taken back"))
    game.state = before
    game.version += 1
    now = timezone.now()
    Move.objects.filter(pk__in=[r.pk for r in batch]).update(undone_at=now, undone_version=game.version)
    # the mover's bank as it was at the move (its increment goes); the others' clocks ran meanwhile
    clocks.take_back(game, batch, now, seats={seat.index})
    _reset_deadline(game)
    game.save()
    numbers = [r.number for r in batch]
    do_log(game, player, "undo", {"seat": seat.index, "moves": numbers, "undone_version": last_version,
                                  "version": game.version, "via": via})
    # Why every seat, whatever its mail mode: the others may have seen the move that is now gone.
    outbox.queue_game_update(game, only_seats=range(len(game.state["players"])))
    return UndoResult(game, game.version, numbers)


def do_request_move(game_id: int, player: Player, commands: Sequence[Command],
                    expected_version: int | None = None) -> MoveRequest:
    """Record an API move and hand it to a worker; the worker decides it like a mail."""
    if not commands:
        raise ServiceError(gettext("no commands were given"))
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(gettext("there is no game #%(game_id)s") % {"game_id": game_id})
    access_seat(game, player)
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(gettext("the game has moved on (version %(game_version)s, you sent %(expected_version)s)")
                           % {"game_version": game.version, "expected_version": expected_version})
    with transaction.atomic():
        req = MoveRequest.objects.create(
            game=game, player=player, expected_version=expected_version,
            commands=[{k: v for k, v in c.__dict__.items() if v is not None} for c in commands],
        )
        dispatch.enqueue("pbem.process_move_request", req.pk)
    return req


#: A move request still pending this long after it was made lost its task; the sweeper hands it on.
MOVE_REQUEST_LOST_AFTER = timedelta(seconds=10)


def do_requeue_move_requests(now: datetime | None = None) -> int:
    """The move-request sweeper: requests made while the broker was away, or whose worker died."""
    now = now or timezone.now()
    ids = list(MoveRequest.objects.filter(status=MoveRequest.Status.PENDING,
                                          created_at__lt=now - MOVE_REQUEST_LOST_AFTER)
               .order_by("pk").values_list("pk", flat=True))
    queued = 0
    for pk in ids:
        if not dispatch.recently_queued("pbem.process_move_request", pk):
            dispatch.enqueue("pbem.process_move_request", pk)
            queued += 1
    return queued


@transaction.atomic
def do_process_move_request(request_id: int) -> None:
    """Idempotent: a request already decided is left alone. Every request gets a decision:
    one the service cannot judge (a bug) is rejected as an internal error, never left pending.

    Why the row lock: the sweeper may hand a request on while its first task still runs;
    the second waits here and then finds it decided, so a batch is never applied twice.
    """
    req = MoveRequest.objects.select_for_update(of=("self",)).select_related("player").get(pk=request_id)
    if req.status != MoveRequest.Status.PENDING:
        return
    try:
        commands = [Command.from_dict({k: v for k, v in c.items() if k != "ignored"}) for c in req.commands]
        # Why signoff, as the mail path: a turn sent whole may end with "done" (or a sign-off line),
        # ignored once the lines before leave the seat nothing to decide (_split_signoff), and said so.
        result = do_submit_moves(req.game_id, req.player, commands, source=Source.API,
                                 expected_version=req.expected_version, signoff=True)
    except MoveRejected as exc:
        status = MoveRequest.Status.PARTIAL if exc.partial else MoveRequest.Status.REJECTED
        _decide(req, status, reason=exc.as_dict(), version=exc.version)
    except ServiceError as exc:
        _decide(req, MoveRequest.Status.REJECTED, reason={"code": exc.code, "message": exc.message})
    except (OperationalError, InterfaceError):
        raise  # the database is unwell: the task retries
    except Exception:  # a bug must not leave the request pending for ever
        # Why no details in the answer: they may come from the game's hidden state.
        log.exception("move request %s: internal error while judging it", request_id)
        _decide(req, MoveRequest.Status.REJECTED, reason={
            "code": "internal_error",
            "message": "something went wrong on our side while judging these moves; nothing was changed. "
                       "The administrators can see what happened; please send them again later."})
    else:
        ignored = len(result.ignored)
        marked = [c | {"ignored": True} if i >= len(req.commands) - ignored else c
                  for i, c in enumerate(req.commands)] if ignored else None
        _decide(req, MoveRequest.Status.ACCEPTED, version=result.version, commands=marked)


def _decide(req: MoveRequest, status: str, *, reason: dict[str, Any] | None = None,
            version: int | None = None, commands: list[dict[str, Any]] | None = None) -> None:
    """``commands``: the request's commands with the trailing ones not taken marked ``"ignored": true``."""
    # Why the conditional update: a redelivered task must not overwrite the first decision.
    changes: dict[str, Any] = {"commands": commands} if commands is not None else {}
    MoveRequest.objects.filter(pk=req.pk, status=MoveRequest.Status.PENDING).update(
        status=status, reason=reason, result_version=version, decided_at=timezone.now(), **changes)


@transaction.atomic
def do_resign(game_id: int, player: Player) -> None:
    game = access_game_for_update(game_id)
    if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
        raise Conflict(gettext("game #%(game)s is not running") % {"game": game.pk})
    seat = access_seat(game, player)
    seat.status = Seat.Status.RESIGNED
    seat.save(update_fields=["status"])
    do_log(game, player, "resign", {"seat": seat.index})
    assert game.state is not None and seat.index is not None
    name = game.state["players"][seat.index]
    others = [s.index for s in game.seats.exclude(pk=seat.pk) if s.index is not None]
    outbox.queue_notice(game, lambda: gettext("%(name)s resigned from game #%(game)s. From now on the game plays "
                                              "%(name)s's seat with its safe default moves, so the game goes on.")
                        % {"name": name, "game": game.pk}, seats=others,
                        what=f"{name} resigned")
    if game.status == Game.Status.RUNNING:
        rules = rules_for(game)
        assert game.state is not None
        waited = rules.pending(game.state)
        applied: list[Applied] = []
        _autoplay(game, rules, applied)
        if applied:
            _record(game, applied, Source.BOT)
            _finish_if_over(game, rules)
            _save_move(game)
            outbox.queue_game_update(game, waited=waited)
            _hand_on_campaign(game)


# ---- moderation ----------------------------------------------------------------------------


def do_log(game: Game | None, actor: Player | None, action: str, details: dict[str, Any]) -> AuditEntry:
    return AuditEntry.objects.create(game=game, actor=actor, action=action, details=details)


# Pause, resume, replacement, deadlines and the moderator's tools: pbem/games/moderation.py.
