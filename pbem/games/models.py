"""The service's data. Services (``services.py``) are the only writers."""

from __future__ import annotations

import contextlib
import re
import secrets
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, models, transaction
from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engine
from engine import i18n
from pbem.games.fields import PackedJSONField

_REMATCH = " (rematch)"
_NUMBERED = re.compile(r"(?s)(.*), game (\d+)")


def said_game_title(title: str, rules: str, options: Any = None) -> str:
    """A game's stored title in the language active now (issue 27). The title is stored once, in
    English, when the game is made; the parts the service wrote itself are said again for each
    reader: the game's name (the rules' title, or the one its options compose: "Maracaibo: The
    Uprising, Unrest (79)", said by the game from its data), " campaign",
    ", game N" and " (rematch)". A title a player chose is shown as written."""
    code = (translation.get_language() or "en").split("-")[0]
    if code == "en" or not title:
        return title
    rest, tail = title, ""
    if rest.endswith(_REMATCH):
        rest, tail = rest[: -len(_REMATCH)], gettext(" (rematch)")
    numbered = _NUMBERED.fullmatch(rest)
    if numbered:
        rest, tail = numbered.group(1), gettext(", game %(number)s") % {"number": numbered.group(2)} + tail
    try:
        game = engine.get(rules)
    except KeyError:  # (engine.errors.UnknownGame: a game no longer installed)
        return rest + tail
    names = {game.title}
    if isinstance(options, dict):
        with contextlib.suppress(KeyError, TypeError, ValueError):  # (options an older release stored)
            names.add(game.game_title(options))
    campaign = rest.removesuffix(" campaign")
    if rest in names:
        return (i18n.say_again(rules, rest, code) or rest) + tail
    if campaign != rest and campaign in names:
        said = i18n.say_again(rules, campaign, code) or campaign
        return gettext("%(game)s campaign") % {"game": said} + tail
    return rest + tail


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Player(models.Model):
    class MailMode(models.TextChoices):
        # Why the values stay "every"/"turn": stored rows and the API keep them; the mail
        # commands call them all/turns/digest.
        EVERY_MOVE = "every", "after every turn"
        MY_TURN = "turn", "only when the game waits for me"
        DIGEST = "digest", "one mail a day"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player")
    email = models.EmailField(unique=True)
    display_name = models.CharField(max_length=60)
    #: Why "turn" by default: a slow-mail player wants a mail when the game needs them and
    #: when it ends, not one for each step of the others (issue 10).
    mail_mode = models.CharField(max_length=8, choices=MailMode.choices, default=MailMode.MY_TURN)
    vacation_until = models.DateTimeField(null=True, blank=True)
    #: The language of their mails and pages (settings.LANGUAGES; issue 27, pbem.games.language).
    language = models.CharField(max_length=8, default="en")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("player")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return f"{self.display_name} <{self.email}>"


class Campaign(models.Model):
    """A series of games of one group that carry state between them (issue 23, pbem.games.campaigns).

    A game whose rules play campaigns (``Rules.supports_campaign``) hands its archive to the next;
    any other game makes a series: the same group and options game after game, with standings."""

    class Status(models.TextChoices):
        RUNNING = "running", _("running")
        FINISHED = "finished", _("finished")

    name = models.CharField(max_length=100)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="campaigns")
    #: The archive the next game is set up from ({}: none yet, or a game without campaigns): the
    #: last finished game's ``Rules.archive``, or an imported one.
    carry = models.JSONField(default=dict, blank=True)
    rules = models.CharField(max_length=40, blank=True, default="")
    #: The options every game of the campaign is set up with (checked by the rules).
    options = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RUNNING, db_index=True)
    #: Whether the next game is set up as soon as one ends (else a moderator sets it up).
    auto_next = models.BooleanField(default=True)
    #: How many games the campaign has (None: until the story ends, or a moderator ends it).
    games_planned = models.PositiveSmallIntegerField(null=True, blank=True)
    deadline_hours = models.PositiveIntegerField(default=72)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("campaign")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("campaigns")

    def __str__(self) -> str:
        return self.name


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("waiting for players")
        RUNNING = "running", _("running")
        PAUSED = "paused", _("paused")
        FINISHED = "finished", _("finished")
        ABORTED = "aborted", _("aborted")

    rules = models.CharField(max_length=40)
    title = models.CharField(max_length=100)
    options = models.JSONField(default=dict, blank=True)
    state = models.JSONField(null=True, blank=True)
    #: Bumped by every accepted move batch; the API's ETag.
    version = models.PositiveIntegerField(default=0)
    #: The number of the newest row of the move log (undone rows included), so a move numbers its
    #: rows without reading the log (issue 28).
    moves_recorded = models.PositiveIntegerField(default=0, editable=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN, db_index=True)
    #: Secret until the game ends; its SHA-256 is shown from the start.
    seed = models.CharField(max_length=64, blank=True)
    seed_hash = models.CharField(max_length=64, blank=True)
    created_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="created_games")
    campaign = models.ForeignKey(Campaign, null=True, blank=True, on_delete=models.SET_NULL, related_name="games")
    #: The game's place in its campaign (1, 2, ...), None outside a campaign.
    campaign_number = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The campaign archive this game was set up from (None: none); part of what it replays from.
    archive = models.JSONField(null=True, blank=True)
    #: Whether a seat's token alone is enough, whatever address the reply comes from.
    allow_any_sender = models.BooleanField(default=False)

    class NoMovePolicy(models.TextChoices):
        WAIT = "wait", _("wait: remind the player, then tell the moderator")
        DEFAULT = "default", _("play the game's safe default move")
        BOT = "bot", _("the game's bot plays the seat")
        REPLACE = "replace", _("offer the seat to a replacement")

    #: Hours a seat has to move before reminders and the no-move policy.
    deadline_hours = models.PositiveIntegerField(default=72)
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    #: When the "N hours left" mail went out for the current deadline.
    warned_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    #: What happens when a seat lets a reminded deadline pass too.
    no_move_policy = models.CharField(max_length=10, choices=NoMovePolicy.choices, default=NoMovePolicy.DEFAULT)
    #: When the moderator was told that the game waits on a late seat ("wait" policy).
    moderator_told_at = models.DateTimeField(null=True, blank=True)
    #: Days of vacation a seat may stop its clock for over the whole game.
    vacation_cap_days = models.PositiveIntegerField(default=14)
    #: Limits on the absences (vacation holds) of each seat in this game: how many (None: no
    #: limit) and how long each may hold the deadline, in days (None: up to the cap).
    absences_allowed = models.PositiveSmallIntegerField(null=True, blank=True)
    #: A time bank per player instead of a deadline per move (pbem.games.clocks): hours each seat
    #: has for the whole game (None: a fixed deadline per move), and hours each move adds.
    time_bank_hours = models.PositiveIntegerField(null=True, blank=True)
    time_bank_increment_hours = models.PositiveIntegerField(default=0)
    absence_max_days = models.PositiveIntegerField(null=True, blank=True)
    #: How many times a seat may ask for more time (``extend``), and how much each gives.
    extensions_allowed = models.PositiveSmallIntegerField(default=2)
    extension_hours = models.PositiveIntegerField(default=48)
    outcome = models.JSONField(null=True, blank=True)
    #: Whom the state waits for (``rules.pending(state)``, in its order), None while there is no
    #: state. Written with the state by every save that writes the state (see :meth:`save`), so
    #: the lobby learns whom a game waits for without decoding its state. Why not a cache keyed
    #: by version: a rename rewrites the names in the state without a new version.
    pending_seats = models.JSONField(null=True, blank=True, editable=False)
    #: Each seat's name in the game (``state["players"]``: unique within it, as a replacement's
    #: ``as NAME`` gives it), None while there is no state; written with the state like
    #: ``pending_seats``, so the lobby names a seat as the view, the outcome and the mails do
    #: without decoding the state (QA, #20: a detail said "Ana" twice where the view said "Ana B").
    seat_names = models.JSONField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("game")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("games")
        ordering = ["-id"]
        indexes = [
            # The finished games, most recently finished first (the lobby's list): 50 rows read at
            # a million games, not every finished game sorted (issue 28).
            models.Index(
                fields=["-finished_at", "-id"], name="game_finished_recent", condition=models.Q(status="finished")
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.title}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Every write of ``state`` writes ``pending_seats`` from it too.

        Why here and not in each service: a state is written by moves, the start, undo,
        rollback, moderator moves, deadlines' default and bot moves, renames, replacements,
        resumes; one place sees them all. (A ``QuerySet.update(state=...)`` bypasses it: the
        services never write a state that way.)
        """
        fields = kwargs.get("update_fields")
        if fields is None:
            if "state" not in self.get_deferred_fields():
                self.pending_seats = pending_of(self.rules, self.state)
                self.seat_names = names_of(self.state)
        elif "state" in fields:
            self.pending_seats = pending_of(self.rules, self.state)
            self.seat_names = names_of(self.state)
            kwargs["update_fields"] = [*fields, *(f for f in ("pending_seats", "seat_names") if f not in fields)]
        super().save(*args, **kwargs)

    @property
    def said_title(self) -> str:
        """The title in the language active now (issue 27): see :func:`said_game_title`."""
        return said_game_title(self.title, self.rules, self.options)

    @property
    def said_rules_title(self) -> str:
        """The game's name ("Maracaibo (substitute content)") in the language active now."""
        try:
            name = engine.get(self.rules).title
        except KeyError:
            return self.rules
        return said_game_title(name, self.rules)

    @property
    def etag(self) -> str:
        return f'"{self.pk}-{self.version}"'


def pending_of(rules: str, state: dict[str, Any] | None) -> list[int] | None:
    """What :attr:`Game.pending_seats` holds for a game of ``rules`` in ``state``."""
    if state is None:
        return None
    return [int(s) for s in engine.get(rules).pending(state)]


def names_of(state: dict[str, Any] | None) -> list[str] | None:
    """What :attr:`Game.seat_names` holds for ``state``."""
    if state is None:
        return None
    return [str(n) for n in state.get("players", [])]


class Seat(models.Model):
    class Status(models.TextChoices):
        INVITED = "invited", _("invited")
        JOINED = "joined", _("joined")
        DECLINED = "declined", _("declined")
        LEFT = "left", _("left")
        RESIGNED = "resigned", _("resigned")
        #: Offered for replacement after its player went missing: the next to join takes it.
        OPEN = "open", _("open for a replacement")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    #: Seat number in the engine (clockwise order), fixed when the game starts.
    index = models.PositiveSmallIntegerField(null=True, blank=True)
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.PROTECT, related_name="seats")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.INVITED)
    #: The address an unanswered invitation went to, while it has no account (``player`` None).
    #: Why not a Player: an address anyone typed must not become an account before it answers
    #: (issue 11). Cleared when the address joins or declines. A seat with neither is free.
    invited_email = models.EmailField(blank=True, default="", db_index=True)
    #: When the seat was created as an invitation (a mail its game's creator sent); None for the
    #: creator's own seat and open seats, whoever joins them. The creator's hourly cap counts these.
    invited_at = models.DateTimeField(null=True, blank=True)
    #: Secret part of this seat's reply address. Never logged.
    token = models.CharField(max_length=40, unique=True, default=new_token)
    #: The game version the player's last mail showed; "since your last mail" starts after it.
    last_mailed_version = models.PositiveIntegerField(default=0)
    #: A digest of the options the player's last mail listed ("" if none): never two mails in
    #: a row with the same options, unless the player moved in between.
    last_mailed_options = models.CharField(max_length=32, blank=True, default="")
    #: The newest table message (``ChatMessage.pk``) the player's mails have shown.
    last_mailed_chat = models.PositiveIntegerField(default=0)
    #: Secret part of the seat's personal page link (signed); a new value revokes old links.
    page_key = models.CharField(max_length=40, default=new_token)
    #: The newest move the seat's personal page showed at its player's last visit (None: never
    #: visited); the others' moves after it are marked new there. Why on the seat, not a cookie
    #: (issue 21): what is new follows the player to any browser, phone or desktop.
    page_seen_move = models.PositiveIntegerField(null=True, blank=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    #: Times this seat asked for more time (``extend``); capped by Game.extensions_allowed.
    extensions_used = models.PositiveSmallIntegerField(default=0)
    #: Hours of deadline this seat's vacations have postponed; capped by Game.vacation_cap_days.
    vacation_hours_used = models.PositiveIntegerField(default=0)
    #: While a vacation holds the game's deadline for this seat: {"from": the deadline before,
    #: "until": the deadline it was moved to, "hours": charged}. Coming back early (or moving)
    #: gives back the hours not used (pbem.games.absence).
    vacation_hold = models.JSONField(null=True, blank=True)
    #: Vacation holds this seat began in this game (limited by Game.absences_allowed).
    absences_taken = models.PositiveSmallIntegerField(default=0)
    #: An absence a moderator of this game entered for the seat's player: it works as their
    #: vacation in this game only (QA, #23: a game's moderator made it the player's vacation in
    #: all their games). None: no such absence; see :attr:`away_until`.
    absent_until = models.DateTimeField(null=True, blank=True)
    #: The seat's time bank left, in seconds, when its clock last stopped (None: untouched, full),
    #: and since when its clock runs (the game waits on it), for games with a time bank.
    bank_seconds = models.IntegerField(null=True, blank=True)
    waiting_since = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("seat")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("seats")
        ordering = ["game_id", "index", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "index"], name="seat_index_unique"),
            models.UniqueConstraint(fields=["game", "player"], name="seat_player_unique"),
        ]
        indexes = [
            # The seats anyone may take (no player, no address invited) and the seats offered for
            # a replacement: the lobby's "waiting for players" starts from these few rows, not
            # from every game (issue 28: it read 100,000 games to find none).
            models.Index(fields=["game"], name="seat_free", condition=models.Q(player__isnull=True, invited_email="")),
            models.Index(fields=["game"], name="seat_offered", condition=models.Q(status="open")),
        ]

    def __str__(self) -> str:
        number = "-" if self.index is None else self.index + 1  # (a person's count, from 1: issue 23)
        return f"seat {number} of game {self.game_id}"

    @property
    def away_until(self) -> datetime | None:
        """When the seat's player is back: the later of their own vacation (all their games) and
        an absence entered for this seat (this game)."""
        own = self.player.vacation_until if self.player is not None else None
        ends = [t for t in (own, self.absent_until) if t is not None]
        return max(ends) if ends else None


class Source(models.TextChoices):
    MAIL = "mail", _("mail")
    API = "api", _("API")
    WEB = "web", _("web")
    MODERATOR = "moderator", _("moderator")
    DEADLINE = "deadline", _("deadline")
    BOT = "bot", _("bot")


class Move(models.Model):
    """Append-only: one row per accepted move.

    An undo never deletes a row: it stamps ``undone_at`` and ``undone_version`` on the
    rows of the batch it took back, and every replay and log reader skips such rows.
    """

    #: Why no index of its own: the unique (game, number) and (game, version) both begin with it
    #: (a third index of every move was 0.03 KB a move on disk for nothing, issue 28).
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    source = models.CharField(max_length=10, choices=Source.choices)
    #: The game version this move produced (moves of one batch share it).
    version = models.PositiveIntegerField()
    #: Position in the game's log, from 1; the replay order.
    number = models.PositiveIntegerField()
    #: What the move did (``Event.as_stored`` of each), deflated: most of a move's bytes, and read
    #: only in Python (pbem.games.fields, migration 0027; issue 28).
    events = PackedJSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Set when the move was taken back by its player (see services.do_undo_last_move).
    undone_at = models.DateTimeField(null=True, blank=True)
    #: The game version the undo produced: "since your last mail" mentions the undo after it.
    undone_version = models.PositiveIntegerField(null=True, blank=True)
    #: With time banks: what each seat's clock had left when the batch was made ({"seat": seconds}),
    #: so that an undo or a rollback puts the banks back as they were then (clocks.restore).
    banks_before = models.JSONField(null=True, blank=True)

    class Meta:
        verbose_name = _("move")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("moves")
        ordering = ["game_id", "number"]
        constraints = [models.UniqueConstraint(fields=["game", "number"], name="move_number_unique")]
        # Why these: "since your last mail" reads the moves after a version, and the undos
        # after it; with only game_id indexed both read the game's whole log, which grows.
        indexes = [
            models.Index(fields=["game", "version"], name="move_game_version"),
            models.Index(
                fields=["game", "undone_version"],
                name="move_game_undone",
                condition=models.Q(undone_version__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"move {self.number} of game {self.game_id} (seat {self.seat + 1})"  # (from 1, as the pages)


class MoveRequest(models.Model):
    """A move posted through the API, judged by a worker like a mail is."""

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        ACCEPTED = "accepted", "accepted"
        REJECTED = "rejected", "rejected"
        #: Refused at a command after a reveal: the commands up to that reveal stand (see engine.batch).
        PARTIAL = "partial", "partial"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="move_requests")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="move_requests")
    #: [{"code": ...} | {"text": ...} | {"move": {...}}, ...] applied in order, atomically.
    commands = models.JSONField()
    expected_version = models.PositiveIntegerField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING, db_index=True)
    reason = models.JSONField(null=True, blank=True)
    result_version = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("move request")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("move requests")

    def __str__(self) -> str:
        return f"move request {self.pk} ({self.status})"


class InboundMessage(models.Model):
    class Status(models.TextChoices):
        RECEIVED = "received", "received"
        APPLIED = "applied", "applied"
        REJECTED = "rejected", "rejected"
        IGNORED = "ignored", "ignored"

    #: Unique through ``Meta.constraints`` rather than ``unique=True``, which adds a second index
    #: for LIKE on PostgreSQL (``varchar_pattern_ops``): 0.06 KB a mail for lookups nothing makes.
    message_id = models.CharField(max_length=255)
    raw = models.BinaryField()
    mail_from = models.CharField(max_length=255)
    #: The seat address(es) it was sent to: a secret token each. Emptied with ``raw`` after the
    #: retention (pbem.mail.retention): a judged mail is never judged again, and its game stays.
    rcpt_to = models.CharField(max_length=255)
    #: Indexed where the sweeper and the health check look only (received: not judged yet), not
    #: over every mail ever received (issue 28).
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.RECEIVED)
    result = models.TextField(blank=True)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="inbound")
    received_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    #: When the raw mail was dropped (pbem.mail.retention); the Message-ID stays for deduplication.
    pruned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("inbound message")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("inbound messages")
        constraints = [models.UniqueConstraint(fields=["message_id"], name="inbound_message_id_unique")]
        indexes = [
            models.Index(
                fields=["processed_at"],
                name="inbound_to_prune",
                condition=models.Q(pruned_at__isnull=True, processed_at__isnull=False),
            ),
            models.Index(fields=["received_at"], name="inbound_unjudged", condition=models.Q(status="received")),
        ]

    def __str__(self) -> str:
        return f"inbound {self.pk} ({self.status})"


class OutboundMessage(models.Model):
    """The outbox: written in the same transaction as the change it reports."""

    #: Where the HTML body shows the board inline: the SVG is stored once, in ``svg``, and
    #: put back here when the mail is built for sending (it was stored twice before).
    BOARD_SLOT = "<!--pbem:board-svg-->"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENDING = "sending", "sending"
        SENT = "sent", "sent"
        FAILED = "failed", "failed"

    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="outbound")
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="outbound")
    to_email = models.EmailField()
    subject = models.CharField(max_length=255)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    #: Message-ID, In-Reply-To, References, Reply-To (the headers every mail carries are added
    #: when it is sent: pbem.mail.compose.STANDARD_HEADERS)
    headers = models.JSONField(default=dict)
    #: The board picture as SVG; the PNG is rendered when the mail is built for sending.
    #: (Rows written before ``content``; an update mail's picture is made from its content now.)
    svg = models.TextField(blank=True)
    #: An update mail's one stored source: the seat's view and the lines the mail tells around
    #: it (pbem.mail.compose). Its text, HTML and picture are composed from it when it is sent,
    #: not stored (they were 16-38 KB a move); ``body_text`` then stays empty. None for a
    #: plain-text mail (a reply, a notice), whose text is ``body_text``.
    content = models.JSONField(null=True, blank=True)
    #: Indexed where the sender's sweeper and the health check look only (pending, sending), not
    #: over every mail ever sent (issue 28).
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When the bodies and picture of a sent mail were dropped (pbem.mail.retention): the row
    #: stays as the record of what was sent to whom and when (headers, subject, status).
    pruned_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("outbound message")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("outbound messages")
        indexes = [
            models.Index(
                fields=["sent_at"], name="outbound_to_prune", condition=models.Q(status="sent", pruned_at__isnull=True)
            ),
            models.Index(
                fields=["status", "created_at"],
                name="outbound_unsent",
                condition=models.Q(status__in=["pending", "sending"]),
            ),
        ]

    def __str__(self) -> str:
        return f"outbound {self.pk} ({self.status})"


class ChatMessage(models.Model):
    """A message to the table (``say ...`` by mail, or the box on the personal page)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="chat")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    text = models.TextField()
    #: The game version when it was said, to place it among the moves.
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "id"]

    def __str__(self) -> str:
        return f"message {self.pk} in game {self.game_id}"


class AuditEntry(models.Model):
    """Moderation log: who did what to which game, and why."""

    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("audit entry")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("audit entries")
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"{self.action} on game {self.game_id}"


class MailAddress(models.Model):
    """What the mail service knows of one address (lower case): answers the hourly limit held
    back, and its bounces (pbem.mail.bounces). Why a table of its own rather than Player
    columns: the address of a bounce or of a held answer need not be a player's."""

    email = models.CharField(max_length=254, unique=True)
    #: Answers not sent because of the hourly limit since the last one that went (said once
    #: in the next answer that goes, then reset).
    answers_held = models.PositiveIntegerField(default=0)
    held_since = models.DateTimeField(null=True, blank=True)
    #: Mailman's bounce score: a hard bounce counts 1, a soft one 0.5 (at most one count an
    #: hour); it halves every ``bounces.SCORE_HALF_LIFE`` since ``bounce_at``.
    bounce_score = models.FloatField(default=0.0)
    bounce_at = models.DateTimeField(null=True, blank=True)
    bounce_kind = models.CharField(max_length=4, blank=True)  # "hard" / "soft"
    bounce_detail = models.CharField(max_length=200, blank=True)
    #: Set when the score passed the threshold: no mail goes to it until the player turns mail on again.
    disabled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("mail address")  # (the admin's words in the staff's language: issue 27)
        verbose_name_plural = _("mail addresses")

    def __str__(self) -> str:
        return f"{self.email} (score {self.bounce_score:.1f}{', disabled' if self.disabled_at else ''})"

    @classmethod
    def row(cls, email: str) -> MailAddress:
        """The address's row, made if need be (safe when two processes make it at once)."""
        email = email.strip().lower()[:254]
        found = cls.objects.filter(email=email).first()
        if found is not None:
            return found
        try:
            with transaction.atomic():
                return cls.objects.create(email=email)
        except IntegrityError:
            return cls.objects.get(email=email)


class GameModerator(models.Model):
    """A moderator assigned to one game (issue 24): the lead, or a co-moderator. They hear of the
    game's late players and open seats, players' ``moderator ...`` mails reach them, and they run
    the tools by mail from their own address to their secret command address (``mod-<token>@``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moderators")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="moderated")
    lead = models.BooleanField(default=False)
    #: Secret part of the moderator's command address for this game. Never logged.
    token = models.CharField(max_length=40, unique=True, default=new_token)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game_id", "-lead", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="game_moderator_unique")]

    def __str__(self) -> str:
        return f"{'lead ' if self.lead else ''}moderator {self.player_id} of game {self.game_id}"


class Standby(models.Model):
    """A player who volunteers to replace an absent one (issue 24): for one game, or for any game
    (``game`` None). When a seat opens for a replacement, volunteers are offered it in the order
    they signed up, those of that game first, with the game so far."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="standby")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="standby")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"standby {self.player_id} for {self.game_id or 'any game'}"


class CampaignSeat(models.Model):
    """Who holds a campaign's seat ``index`` (the same seat in each of its games); a seat may change
    hands between games (pbem.games.campaigns.do_hand_over_seat, logged as a CampaignEntry)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="campaign_seats")
    since = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "index"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "index"], name="campaign_seat_index_unique"),
            models.UniqueConstraint(fields=["campaign", "player"], name="campaign_seat_player_unique"),
        ]

    def __str__(self) -> str:
        return f"seat {self.index} of campaign {self.campaign_id}"


class CampaignEntry(models.Model):
    """A campaign's log and audit: created or imported, a game set up or finished (with its story,
    votes and scores), a seat handed over (who, to whom, why), the campaign ended."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="entries")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor = models.ForeignKey(Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    action = models.CharField(max_length=40)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign_id", "id"]
        verbose_name_plural = "campaign entries"

    def __str__(self) -> str:
        return f"{self.action} in campaign {self.campaign_id}"
