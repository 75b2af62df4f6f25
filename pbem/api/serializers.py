"""Shapes of the REST API: input validation and output documentation.

Serializers hold no business logic. Input serializers check types and sizes
only; the services judge everything else (rules, options, whose turn). Output
serializers render plain dicts built in ``presenters.py``; they exist so the
OpenAPI schema describes every field.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from rest_framework import serializers

from pbem.api.streams import PUBLIC_ACTIONS
from pbem.games.models import Game, MoveRequest, Player, Seat, Source

#: Bounds at the door: a rejected request keeps its commands, so they must stay small.
MAX_COMMANDS = 32
MAX_MOVE_BYTES = 2_000
MAX_BATCH_BYTES = 16_000


class Text(serializers.CharField):
    """A string field of a request body. Why not DRF's CharField: it takes the number 5 as "5", so a
    client that sent ``{"rules": 5}`` or ``{"code": 7}`` against a schema saying string got a 422
    about a game called '5' (or a rejected move) instead of the 400 that names its own bug."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return str(super().to_internal_value(data))


# ---- errors ---------------------------------------------------------------------------------


class ErrorOut(serializers.Serializer):
    code = serializers.CharField(help_text="stable machine code, e.g. not_found, invalid, stale, rejected")
    message = serializers.CharField(help_text="what went wrong, for people")
    detail = serializers.DictField(required=False, help_text="per-field messages of an invalid request body")


class RejectionOut(ErrorOut):
    line = serializers.IntegerField(required=False, help_text="the command (from 1) that was refused")
    text = serializers.CharField(required=False, help_text="that command as sent")
    allowed = serializers.ListField(child=serializers.CharField(), required=False)
    options = serializers.ListField(child=serializers.DictField(), required=False,
                                    help_text="your options in the game as it stands now")
    applied = serializers.ListField(child=serializers.DictField(), required=False,
                                    help_text="commands before the refused one that stand because one of them "
                                              "revealed something (line, text, label, move, the events you see)")
    rolled_back = serializers.ListField(child=serializers.IntegerField(), required=False,
                                        help_text="commands that were fine but were undone with the refused one")
    version = serializers.IntegerField(required=False, allow_null=True,
                                       help_text="the game version the applied commands produced (null: none)")


# ---- rules -----------------------------------------------------------------------------------


class OptionSpecOut(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.ChoiceField(choices=["int", "bool", "choice", "intlist"])
    default = serializers.JSONField()
    help = serializers.CharField()
    choices = serializers.ListField(child=serializers.JSONField(), required=False)
    min = serializers.IntegerField(required=False)
    max = serializers.IntegerField(required=False)


class RulesOut(serializers.Serializer):
    name = serializers.CharField(help_text="the name to create a game with")
    title = serializers.CharField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    options = OptionSpecOut(many=True, help_text="the option schema, validated when a game is created")
    notation_help = serializers.CharField(help_text="how to write moves by mail or as text commands")


# ---- games ------------------------------------------------------------------------------------


class SeatOut(serializers.Serializer):
    index = serializers.IntegerField(allow_null=True, help_text="engine seat number; null before the start")
    name = serializers.CharField(
        allow_null=True,
        help_text="the seat's name in the game, as the view, the outcome and the mails say it (two players of one "
        "name are told apart: Ana, Ana B); null for a free seat",
    )
    status = serializers.ChoiceField(choices=Seat.Status.choices)
    you = serializers.BooleanField(help_text="this is the requesting player's seat")
    waiting = serializers.BooleanField(help_text="the game waits for this seat's decision")


class GameLinksOut(serializers.Serializer):
    self = serializers.URLField()
    view = serializers.URLField()
    board_svg = serializers.URLField()
    options = serializers.URLField()
    moves = serializers.URLField()
    log = serializers.URLField()
    page = serializers.URLField(help_text="the game's web page")


class GameOut(serializers.Serializer):
    id = serializers.IntegerField()
    title = serializers.CharField()
    rules = serializers.CharField()
    rules_title = serializers.CharField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    options = serializers.DictField(
        help_text="the validated options the game's mode uses, defaults filled in (none that mean nothing for "
        "this game: no solo-only option in a game of two, no internal one)"
    )
    version = serializers.IntegerField(help_text="bumped by every accepted move batch")
    etag = serializers.CharField(help_text="send it as If-Match when posting moves")
    created_by = serializers.CharField(help_text="the creator's display name")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    deadline_hours = serializers.IntegerField()
    deadline_at = serializers.DateTimeField(allow_null=True)
    time_bank_hours = serializers.IntegerField(allow_null=True, help_text="a time bank per player: hours for the "
                                               "whole game (null: a fixed deadline of deadline_hours per turn); "
                                               "deadline_at is then where the first clock runs out")
    time_bank_increment_hours = serializers.IntegerField(help_text="hours each move adds to the mover's bank")
    seats = SeatOut(many=True)
    waiting_for = serializers.ListField(child=serializers.IntegerField(), help_text="seats the game waits for")
    your_seat = serializers.IntegerField(allow_null=True, help_text="your engine seat, null for a spectator")
    seed_hash = serializers.CharField(help_text="SHA-256 of the seed, committed at the start")
    seed = serializers.CharField(allow_null=True, help_text="revealed when the game is finished")
    outcome = serializers.DictField(allow_null=True, help_text="scores, ranking, winners and reason once finished; "
                                    "a cooperative game adds team: won, the conditions met and missed")
    links = GameLinksOut()


class GamePageOut(serializers.Serializer):
    #: Exact when the page shows the list's end, null otherwise (no list is counted whole).
    count = serializers.IntegerField(allow_null=True, help_text="the games the list holds when this page shows "
                                     "its end; null otherwise (follow `next`)")
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = GameOut(many=True)


class GameFilterIn(serializers.Serializer):
    status = serializers.ChoiceField(choices=Game.Status.choices, required=False)
    rules = serializers.CharField(required=False, max_length=40)
    mine = serializers.BooleanField(required=False, default=False)
    joinable = serializers.BooleanField(required=False, default=False)


class MyGamesFilterIn(serializers.Serializer):
    my_turn = serializers.BooleanField(required=False, default=False,
                                       help_text="only running games waiting for your decision now")


class GameCreateIn(serializers.Serializer):
    rules = Text(max_length=40, help_text="a name from /api/v1/rules/")
    options = serializers.DictField(required=False, default=dict, help_text="game options, see the rules' schema")
    invite = serializers.ListField(child=serializers.EmailField(), required=False, default=list, max_length=10,
                                   help_text="email addresses of invited players")
    open_seats = serializers.IntegerField(required=False, default=0, min_value=0, max_value=10,
                                          help_text="seats anyone may join")
    title = Text(required=False, default="", allow_blank=True, max_length=100)
    deadline_hours = serializers.IntegerField(required=False, default=72, min_value=1, max_value=24 * 60)
    time_bank_hours = serializers.IntegerField(required=False, default=None, allow_null=True, min_value=1,
                                               max_value=24 * 365,
                                               help_text="a time bank per player for the whole game instead of a "
                                                         "deadline per move; null: the fixed deadline")
    time_bank_increment_hours = serializers.IntegerField(required=False, default=0, min_value=0, max_value=24 * 30,
                                                         help_text="hours each move adds to the player's bank")

    campaign = serializers.BooleanField(
        required=False, default=False,
        help_text="not here: a campaign (a group's series of games, each set up from the last one's archive) is "
                  "created with POST /api/v1/campaigns/, which creates its first game too; true here, or the "
                  "option campaign, is refused with a 400 that says so")

    def validate_options(self, value: dict[str, Any]) -> dict[str, Any]:
        return _json_safe(value, "options")

    def validate_campaign(self, value: bool) -> bool:
        if value:
            raise serializers.ValidationError(CAMPAIGN_ELSEWHERE)
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        asked = attrs.get("options", {}).get("campaign")
        if asked is True or str(asked).strip().lower() in ("1", "yes", "true", "on", "y"):
            raise serializers.ValidationError({"options": CAMPAIGN_ELSEWHERE})
        return attrs


#: why POST /games/ refuses a campaign (a front end that asks for one there gets a plain game otherwise)
CAMPAIGN_ELSEWHERE = ("a campaign is created with POST /api/v1/campaigns/ (rules, options, invite, games, name): it "
                      "creates the campaign and its first game, and sets up each next game from the last one's "
                      "archive; POST /api/v1/games/ creates a game on its own")


# ---- views and options ------------------------------------------------------------------------


class GameViewOut(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    etag = serializers.CharField()
    seat = serializers.IntegerField(allow_null=True, help_text="whose view this is; null: the spectator's")
    view = serializers.DictField(help_text="the engine's view for this seat: exactly what it may know")
    text = serializers.CharField(help_text="the same view as text, as in the mails")


class OptionOut(serializers.Serializer):
    code = serializers.CharField(help_text="post it as {\"code\": ...}")
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label
    move = serializers.DictField(help_text="the structured move it stands for")
    details = serializers.DictField(allow_null=True, help_text="what it does in the terms of the game's catalogue "
                                    "(/rules/{name}/catalogue/): its kind and the card, place, cost, effect it "
                                    "names; null for a game without a catalogue")


class OptionsOut(serializers.Serializer):
    game = serializers.IntegerField()
    version = serializers.IntegerField()
    etag = serializers.CharField()
    seat = serializers.IntegerField()
    your_turn = serializers.BooleanField()
    options = OptionOut(many=True)


# ---- moves ---------------------------------------------------------------------------------------


class CommandIn(serializers.Serializer):
    code = Text(required=False, max_length=100, help_text="an option code from /options/")
    text = Text(required=False, max_length=500, help_text="a line of the game's notation")
    move = serializers.DictField(required=False, help_text="a structured move, as in an option's move")

    def validate_move(self, value: dict[str, Any]) -> dict[str, Any]:
        return _json_safe(value, "move", MAX_MOVE_BYTES)

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, dict):
            extra = sorted(str(k) for k in data if k not in self.fields)
            if extra:
                raise serializers.ValidationError(
                    f"unknown key {extra[0]!r}: a command is exactly one of code, text or move")
        return super().to_internal_value(data)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [k for k in ("code", "text", "move") if k in attrs]
        if len(given) != 1:
            raise serializers.ValidationError("each command needs exactly one of code, text or move")
        return attrs


class MovesIn(serializers.Serializer):
    commands = CommandIn(many=True, min_length=1, max_length=MAX_COMMANDS, allow_empty=False,  # type: ignore[call-arg]
                         help_text=f"applied in order, all or nothing; 1 to {MAX_COMMANDS} commands, "
                                   f"{MAX_BATCH_BYTES} bytes of JSON at most")

    def validate_commands(self, value: list[dict[str, Any]]) -> list[dict[str, Any]]:
        if len(json.dumps(value)) > MAX_BATCH_BYTES:
            raise serializers.ValidationError(f"the commands are too large together (at most {MAX_BATCH_BYTES} "
                                              "bytes of JSON)")
        return value


class MoveRequestOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MoveRequest.Status.choices)
    commands = serializers.ListField(child=serializers.DictField(), help_text="as sent; a trailing line not taken "
                                     "(a `done` after the turn was over) is marked `\"ignored\": true`")
    expected_version = serializers.IntegerField(allow_null=True)
    reason = RejectionOut(allow_null=True, help_text="why it was rejected")
    result_version = serializers.IntegerField(allow_null=True, help_text="the game version it produced")
    created_at = serializers.DateTimeField()
    decided_at = serializers.DateTimeField(allow_null=True)
    code = serializers.CharField(required=False, help_text="with ?wait, when rejected: the reason's code")
    message = serializers.CharField(required=False, help_text="with ?wait, when rejected: the reason's message")


class StreamQueryIn(serializers.Serializer):
    last_event_id = serializers.RegexField(r"^[0-9]{1,18}\.[0-9]{1,18}$", required=False,
                                           help_text="resume after this event (as the Last-Event-ID header)")
    timeout = serializers.FloatField(required=False, min_value=0.0, max_value=3600.0,
                                     help_text="close after this many seconds (at most the server's cap, "
                                               "PBEM_API_STREAM_SECONDS); 0: the backlog only, a poll")
    format = serializers.ChoiceField(choices=["sse", "ndjson"], required=False,
                                     help_text="sse (text/event-stream, the default) or ndjson; or ask with Accept")


class MovesQueryIn(serializers.Serializer):
    wait = serializers.FloatField(required=False, default=0.0, min_value=0.0, max_value=10.0)


# ---- the log ----------------------------------------------------------------------------------------


class EventOut(serializers.Serializer):
    kind = serializers.CharField()
    text = serializers.CharField()
    data = serializers.DictField()  # type: ignore[assignment]  # a field, not Serializer.data
    reveals = serializers.BooleanField()


class LogEntryOut(serializers.Serializer):
    number = serializers.IntegerField(help_text="position in the log, from 1")
    seat = serializers.IntegerField()
    player = serializers.CharField(allow_null=True, help_text="the name in the game of the player who held the seat "
                                   "when the move was made (before a moderator's replacement, the player replaced)")
    source = serializers.ChoiceField(choices=Source.choices)  # type: ignore[assignment]  # a field
    version = serializers.IntegerField(help_text="the game version this move produced")
    created_at = serializers.DateTimeField()
    move = serializers.DictField(allow_null=True,
                                 help_text="your own moves; every move once the game is finished")
    events = EventOut(many=True, help_text="what happened, redacted for you")


# ---- event streams (pbem.api.streams): each event kind's payload ------------------------------------------


class _StreamGameStatus(serializers.Serializer):
    game = serializers.IntegerField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    version = serializers.IntegerField()
    etag = serializers.CharField(help_text="the game's ETag now (If-Match for your next move)")
    waiting_for = serializers.ListField(child=serializers.IntegerField(), help_text="the seats the game waits for")
    your_seat = serializers.IntegerField(allow_null=True, help_text="your seat; null for a spectator")
    your_turn = serializers.BooleanField()


class StreamStateOut(_StreamGameStatus):
    """`state`: the first event of a game stream, where the game stands."""


class StreamHelloOut(serializers.Serializer):
    """`hello`: the first event of an account stream."""

    my_turn = serializers.ListField(child=serializers.IntegerField(), help_text="the games waiting for you now")


class StreamMoveOut(LogEntryOut):
    """`move`: a log entry exactly as /log/ gives it to you, with its game and whether it is your turn now."""

    game = serializers.IntegerField()
    your_turn = serializers.BooleanField()


class StreamGameOut(_StreamGameStatus):
    """`game`: something happened to the game (never an audit entry's details or actor)."""

    action = serializers.ChoiceField(choices=sorted(PUBLIC_ACTIONS))
    at = serializers.DateTimeField()


#: The event kinds (SSE ``event``, ndjson ``type``) and their payloads' serializers, in order of appearance.
STREAM_EVENTS: dict[str, type[serializers.Serializer]] = {
    "state": StreamStateOut, "hello": StreamHelloOut, "move": StreamMoveOut, "game": StreamGameOut}


def _stream_line(kind: str, data: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """An ndjson line of a stream: the payload with its ``id`` and ``type`` beside it."""
    fields = {"id": serializers.RegexField(r"^[0-9]{1,18}\.[0-9]{1,18}$",
                                           help_text="the cursor to resume from (Last-Event-ID)"),
              "type": serializers.ChoiceField(choices=[kind])}
    name = f"Stream{kind.capitalize()}LineOut"
    return type(name, (data,), {**fields, "__doc__": f"An ndjson line of a `{kind}` event.",
                                "__module__": __name__})


STREAM_LINES: dict[str, type[serializers.Serializer]] = {k: _stream_line(k, v) for k, v in STREAM_EVENTS.items()}


class LogPageOut(serializers.Serializer):
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LogEntryOut(many=True)


class ExportPlayerOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()


class ExportMoveOut(serializers.Serializer):
    number = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.DictField()
    source = serializers.ChoiceField(choices=Source.choices)  # type: ignore[assignment]  # a field


class GameExportOut(serializers.Serializer):
    format = serializers.ChoiceField(choices=["pbem-game/1"])
    game = serializers.IntegerField()
    rules = serializers.CharField()
    title = serializers.CharField()
    options = serializers.DictField()
    seed = serializers.CharField()
    seed_hash = serializers.CharField()
    players = ExportPlayerOut(many=True)
    moves = ExportMoveOut(many=True, help_text="every move that counts, in replay order")
    outcome = serializers.DictField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    archive = serializers.DictField(allow_null=True, help_text="a campaign's game: the archive it was set up from "
                                    "(docs/campaigns.md); null for a game on its own or a campaign's first")


class CatalogueOut(serializers.Serializer):
    game = serializers.CharField()
    version = serializers.CharField(help_text="a digest of the content: it changes when the content does")
    label = serializers.CharField()  # type: ignore[assignment]  # a field, not Field.label


# ---- moderation ---------------------------------------------------------------------------------------


class ReasonField(Text):
    """A moderator's reason: any text the schema allows (a string of 1 to 500 characters). Control
    characters, NUL included, are made spaces by the service (pbem.games.moderation_base.clean_reason),
    not refused with a 400 the schema does not announce."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 500)
        kwargs.setdefault("help_text", "why; kept in the game's audit log (control characters become spaces)")
        super().__init__(**kwargs)
        self.validators = [v for v in self.validators if type(v).__name__ != "ProhibitNullCharactersValidator"]


class ReasonIn(serializers.Serializer):
    reason = ReasonField()


class ReplaceIn(ReasonIn):
    seat = serializers.IntegerField(min_value=0, max_value=20, help_text=(
        "the index of the seat to hand over, from 0 (the pages and mails count seats from 1: index 0 is seat 1)"))
    email = serializers.EmailField(help_text="the new player's address (an account is created if needed)")
    name = Text(required=False, default="", max_length=60, allow_blank=True,
                help_text="the name the newcomer plays as (default: their account's name)")


class AuditEntryOut(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.DateTimeField()
    action = serializers.CharField(help_text="create, join, start, pause, resume, replace, undo, remind, ...")
    actor = serializers.CharField(allow_null=True, help_text="who did it (email); null for the system")
    details = serializers.DictField(help_text="what exactly, and why")


class AuditListOut(serializers.Serializer):
    game = serializers.IntegerField()
    results = AuditEntryOut(many=True, help_text="newest first")


# ---- account ------------------------------------------------------------------------------------------


class MeOut(serializers.Serializer):
    email = serializers.EmailField()
    display_name = serializers.CharField()
    mail_mode = serializers.ChoiceField(choices=Player.MailMode.choices)
    language = serializers.ChoiceField(choices=settings.LANGUAGES, help_text="of your mails and pages (issue 27)")
    vacation_until = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()


class MeUpdateIn(serializers.Serializer):
    display_name = Text(required=False, max_length=60)
    mail_mode = serializers.ChoiceField(choices=Player.MailMode.choices, required=False)
    language = serializers.ChoiceField(choices=settings.LANGUAGES, required=False)
    vacation_until = serializers.DateTimeField(required=False, allow_null=True)


class TokenIn(serializers.Serializer):
    email = serializers.EmailField(required=False)
    password = Text(required=False, max_length=200, trim_whitespace=False,
                    style={"input_type": "password"})
    rotate = serializers.BooleanField(required=False, default=False, help_text="replace your current token")


class TokenOut(serializers.Serializer):
    token = serializers.CharField(help_text="send it as: Authorization: Token <token>")


class TokenCreateIn(serializers.Serializer):
    name = Text(max_length=60, help_text="yours to recognise it by, unique among your live tokens")
    scopes = serializers.ListField(child=serializers.ChoiceField(choices=["read", "play", "moderate"]),
                                   min_length=1, max_length=3, required=False, default=["read", "play"],
                                   help_text="read: every GET; play: every other player call; moderate: the "
                                             "moderators' endpoints (staff only)")
    expires_in_days = serializers.IntegerField(required=False, allow_null=True, default=None, min_value=1,
                                               max_value=3650, help_text="none: it never expires")


class ApiTokenOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=["account", "named"])
    prefix = serializers.CharField(help_text="the token's first characters, to recognise it")
    scopes = serializers.ListField(child=serializers.CharField())
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(allow_null=True)
    last_used_at = serializers.DateTimeField(allow_null=True, help_text="to the minute")


class ApiTokenCreatedOut(ApiTokenOut):
    token = serializers.CharField(help_text="shown this once: only its hash is kept")


class WebhookIn(serializers.Serializer):
    url = serializers.URLField(max_length=500, help_text="http(s) address of your server; events are POSTed there")


class WebhookOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    created_at = serializers.DateTimeField()
    pending = serializers.IntegerField(help_text="deliveries not yet answered with a 2xx")
    failed = serializers.IntegerField(help_text="deliveries given up after 8 attempts")


class WebhookCreatedOut(WebhookOut):
    secret = serializers.CharField(help_text="shown this once: check X-Pbem-Signature (sha256=HMAC of the body) "
                                             "with it")


def _bad_text(text: str) -> str | None:
    """Why ``text`` cannot be stored (PostgreSQL and SQLite both refuse some), or None."""
    if "\x00" in text:
        return "contains a NUL character"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        return f"contains a lone surrogate ({text[exc.start]!r} at {exc.start})"
    return None


def _check_text(value: Any, path: str) -> None:
    """Every key and string of a JSON value is storable text; the error names where it is not."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            problem = _bad_text(item)
            if problem:
                raise serializers.ValidationError(f"{where} {problem}")
        elif isinstance(item, dict):
            for key, sub in item.items():
                problem = _bad_text(str(key))
                if problem:
                    raise serializers.ValidationError(f"a key of {where} {problem}")
                stack.append((sub, f"{where}.{key}"))
        elif isinstance(item, list):
            stack.extend((sub, f"{where}[{i}]") for i, sub in enumerate(item))


def _json_safe(value: Any, what: str, max_bytes: int = 20_000) -> Any:
    """Reject what JSONB cannot store: NaN or infinite numbers, NUL characters, lone surrogates, silly sizes."""
    _check_text(value, what)
    try:
        dumped = json.dumps(value, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        raise serializers.ValidationError(f"{what} must be plain JSON without NaN or infinite numbers") from None
    if len(dumped) > max_bytes:
        raise serializers.ValidationError(f"{what} is too large (at most {max_bytes} bytes of JSON)")
    return value
