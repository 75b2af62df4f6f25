"""The REST API's endpoints: one class per resource, one service or selector call per operation.

Writes go through ``pbem.games.services``; reads through ``pbem.games.selectors``.
A player sees their own seat's view; everyone else (anonymous or not seated)
gets the spectator's. Errors are shaped by :mod:`pbem.api.errors`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.db import transaction
from django.db.models import Count
from django.http import StreamingHttpResponse
from django.utils import translation
from django.utils.translation import gettext
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, PolymorphicProxySerializer, extend_schema
from rest_framework import exceptions, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import AnonRateThrottle, ScopedRateThrottle, UserRateThrottle
from rest_framework.views import APIView

from pbem.api import aio, auth, idempotency, presenters, streams
from pbem.api import serializers as s
from pbem.api.errors import api_exception_handler
from pbem.api.pagination import GamePagination, MoveLogPagination
from pbem.api.permissions import HasPlayer, IsGameModerator, IsStaff, player_of
from pbem.api.renderers import EventStreamRenderer, NDJSONRenderer, PlainTextRenderer, SVGRenderer
from pbem.games import language, moderation, moderators, selectors, services
from pbem.games.models import MoveRequest, Player
from pbem.tokens import services as tokens
from pbem.tokens.models import ApiToken
from pbem.webhooks import services as webhooks
from pbem.webhooks.models import Webhook, WebhookDelivery

#: Largest primary key a path may name; beyond it the database would fail, not answer 404.
MAX_ID = 2**62


def _errors(*codes: int) -> dict[int, Any]:
    texts = {
        400: "the request is malformed or invalid",
        401: "authentication required",
        403: "not allowed for this player",
        404: "no such object",
        409: "the game is not in a state that allows this",
        412: "If-Match does not match the game's current ETag",
        429: "too many requests",
    }
    return {c: OpenApiResponse(s.ErrorOut, description=texts[c]) for c in codes}


def _json_errors(*codes: int) -> dict[Any, Any]:
    """Errors of an endpoint that answers SVG or text: they still come as JSON (see finalize_response)."""
    return {(c, "application/json"): r for c, r in _errors(*codes).items()}


GAME_ID = OpenApiParameter("game_id", OpenApiTypes.INT, OpenApiParameter.PATH, description="the game's id")


class BaseApi(APIView):
    throttle_classes = [UserRateThrottle, AnonRateThrottle]

    def get_exception_handler(self) -> Any:
        return api_exception_handler

    def finalize_response(self, request: Request, response: Any, *args: Any, **kwargs: Any) -> Any:
        if isinstance(response, aio.Deferred):
            return response  # not an answer yet: its ``then`` finalizes the real one (see pbem.api.aio)
        # Why: an error met while rendering an SVG or text resource is still reported as JSON.
        if getattr(response, "exception", False) and not isinstance(
                getattr(request, "accepted_renderer", None), (JSONRenderer, BrowsableAPIRenderer)):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = "application/json"
        response = _conditional(request, response)
        key = getattr(self, "_idempotency_key", None)
        if key:
            idempotency.finish(key, request, response)
        _rate_limit_headers(response, getattr(self, "_rate_throttles", []))
        response = super().finalize_response(request, response, *args, **kwargs)
        response["Content-Language"] = translation.get_language() or language.DEFAULT
        return response

    def dispatch(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        """The answer's human messages in the client's language (issue 27): the request's
        Accept-Language, else the player's setting (see ``player``), else English. Why here:
        entered and left in the one thread that runs the view (a ``?wait=`` answer made later
        under ASGI is made in English)."""
        self._asked = language.from_header(request.META.get("HTTP_ACCEPT_LANGUAGE"))
        with contextlib.ExitStack() as self._speaking, language.speaking(self._asked):
            return super().dispatch(request, *args, **kwargs)

    def _speak_the_players_language(self, request: Request) -> None:
        """No Accept-Language: once the client is known, the player's own setting speaks, both the
        service's words and the engine's (option labels, events, refusals), until the answer is made."""
        if getattr(self, "_asked", "") is not None or not hasattr(self, "_speaking"):
            return
        player = player_of(request)
        if player is not None:
            self._speaking.enter_context(language.speaking(language.of(player)))

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        for key, value in kwargs.items():
            if isinstance(value, int) and value > MAX_ID:
                raise exceptions.NotFound(f"there is no object with {key} {value}")
        staff_only = any(isinstance(p, (IsStaff, IsGameModerator)) for p in self.get_permissions())
        needed = auth.required_scope(request, staff_only)
        if needed == "read" and not auth.has_scope(request, "read"):
            # A token without ``read`` (a moderate-only one) reads what an anonymous client may:
            # the request goes on as anonymous; a read an anonymous client may not make is a 403.
            auth.read_as_anonymous(request)
            try:
                super().initial(request, *args, **kwargs)
            except (exceptions.NotAuthenticated, exceptions.PermissionDenied):
                auth.check_scope(request, needed)
                raise
        else:
            super().initial(request, *args, **kwargs)
            auth.check_scope(request, needed)
        self._speak_the_players_language(request)
        self._idempotency_key = idempotency.cache_key(request)
        if self._idempotency_key is not None:
            try:
                request.data  # noqa: B018  # parse now: a body the door refuses is never kept under its key
            except exceptions.APIException:
                self._idempotency_key = None
                raise
            earlier = idempotency.begin(request, self._idempotency_key)
            if earlier is not None:
                self._idempotency_key = None
                # Why an instance attribute: DRF's dispatch looks the handler up after initial();
                # this way the view's own post() never runs a second time.
                self.post: Any = lambda *a, **k: earlier

    def check_throttles(self, request: Request) -> None:
        """DRF's, keeping the throttles consulted so the answer can tell the client its budget."""
        self._rate_throttles: list[Any] = []
        waits = []
        for throttle in self.get_throttles():
            if not throttle.allow_request(request, self):
                waits.append(throttle.wait())
            self._rate_throttles.append(throttle)
        if waits:
            known = [w for w in waits if w is not None]
            self.throttled(request, max(known, default=None))  # type: ignore[arg-type]  # DRF takes None

    @property
    def player(self) -> Player | None:
        if not hasattr(self, "_player"):
            self._player = player_of(self.request)
        return self._player

    def require_player(self) -> Player:
        """The player; 401 for an anonymous client, 403 for an account without a player (a staff
        account: a 401 would make a client log its moderator out)."""
        player = self.player
        if player is None:
            if self.request.user and self.request.user.is_authenticated:
                raise exceptions.PermissionDenied(HasPlayer.message)
            raise exceptions.NotAuthenticated()
        return player


def _rate_limit_headers(response: Any, throttles: list[Any]) -> None:
    """``RateLimit-Limit``/``-Remaining``/``-Reset`` of the tightest limit this request counted against
    (the IETF httpapi rate-limit header fields, as GitHub and others send them)."""
    budgets = []
    for throttle in throttles:
        history = getattr(throttle, "history", None)
        if history is None or not getattr(throttle, "num_requests", None):
            continue  # this throttle does not apply to this client (anonymous-only, say)
        remaining = max(throttle.num_requests - len(history), 0)
        reset = throttle.duration - (throttle.timer() - history[-1]) if history else throttle.duration
        budgets.append((remaining, throttle.num_requests, max(int(reset + 0.999), 0)))
    if budgets:
        remaining, limit, reset = min(budgets)
        response["RateLimit-Limit"] = str(limit)
        response["RateLimit-Remaining"] = str(remaining)
        response["RateLimit-Reset"] = str(reset)


def _with_etag(response: Response, etag: str) -> Response:
    """Mark a read of one game: ``etag`` is the game's version tag; see :func:`_conditional`."""
    response["ETag"] = etag
    return response


#: The ETag base of a list (the lobby, your games, the games' catalogue...): its digest makes the tag.
LIST_TAG = '"list"'

_TAG = re.compile(r'^"(?P<game>\d+)-(?P<version>\d+)(?:-[0-9a-f]+)?"$')


def _conditional(request: Request, response: Any) -> Any:
    """Per-answer ETags, ``Cache-Control`` and ``If-None-Match``.

    Why a digest of the body in the tag: what a read shows depends on who asks (their
    seat's view, ``you`` in the seats) and on more than the version (a deadline set by
    a reminder), so the version alone would let a cache serve one seat another's view
    or a stale page. The tag still starts with the game's ``"id-version``, which is all
    that ``If-Match`` compares.
    """
    base = response.get("ETag") if hasattr(response, "get") else None
    if not base or request.method not in ("GET", "HEAD") or response.status_code != 200:
        return response
    body = json.dumps(response.data, sort_keys=True, default=str, ensure_ascii=False)
    digest = hashlib.sha256(body.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    tag = f'{base[:-1]}-{digest}"'
    response["ETag"] = tag
    authenticated = bool(request.user and request.user.is_authenticated)
    response["Cache-Control"] = "private, no-cache" if authenticated else "public, no-cache"
    # (Accept-Language: titles, labels and messages are said in the language it asks for, #27)
    response["Vary"] = "Accept, Accept-Language, Authorization, Cookie"
    wanted = request.headers.get("If-None-Match")
    if wanted is not None:
        # Weak comparison (RFC 9110 13.1.2): W/"x" matches "x".
        tags = {t.strip().removeprefix("W/") for t in wanted.split(",")}
        if "*" in tags or tag in tags:
            not_modified = Response(status=status.HTTP_304_NOT_MODIFIED)
            for header in ("ETag", "Cache-Control", "Vary"):
                not_modified[header] = response[header]
            return not_modified
    return response


@contextlib.contextmanager
def seated_before_the_start(game_id: int, player: Player) -> Iterator[None]:
    """A turn's action (a move, an extension) refused as Forbidden to a player who holds a seat of a
    game that has not started becomes the 409 that says so. Why: before the start no seat has its
    number, and the services said "you do not play in game #N" to the game's own creator."""
    try:
        yield
    except services.Forbidden:
        game = selectors.get_game(game_id)
        if game.state is None and game.seats.filter(player=player).exists():
            raise services.Conflict(gettext("game #%(game)s has not started") % {"game": game.pk}) from None
        raise


def _query(serializer: type[Any], request: Request) -> dict[str, Any]:
    """A query string read by ``serializer``; 400 for a bad value.

    Why the blank check: DRF reads ``?status=`` as "no status" for an optional field, but
    the schema says a status is one of its values, so an empty one is refused like any other.
    """
    fields = serializer().fields
    blank = {name: ["may not be blank"] for name in fields if request.query_params.get(name, None) == ""}
    if blank:
        raise exceptions.ValidationError(blank)
    query = serializer(data=request.query_params)
    query.is_valid(raise_exception=True)
    return dict(query.validated_data)


def _game_response(request: Request, game_id: int, player: Player | None,
                   code: int = status.HTTP_200_OK) -> Response:
    game = selectors.get_game(game_id)
    return _with_etag(Response(s.GameOut(presenters.game_data(request, game, player)).data, status=code), game.etag)


# ---- games -------------------------------------------------------------------------------------


#: The paging parameters of a list of games (pbem.api.pagination.GamePagination).
PAGE_PARAMETERS = [
    OpenApiParameter("limit", OpenApiTypes.INT, description="page size, at most 200 (a larger one is taken as 200)"),
    OpenApiParameter("cursor", OpenApiTypes.STR, description="from `next` or `previous`: where the page continues"),
]


class GameListApi(BaseApi):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [HasPlayer()]

    @extend_schema(
        operation_id="games_list",
        summary="List games",
        description="Newest first. `mine=1`: games you hold a seat in; `joinable=1`: open games you may join; "
                    "`status` and `rules` narrow further.",
        parameters=[s.GameFilterIn,
                    *PAGE_PARAMETERS],
        responses={200: s.GamePageOut, **_errors(400, 401)},
    )
    def get(self, request: Request) -> Response:
        f = _query(s.GameFilterIn, request)
        if f["mine"] and self.player is None:
            if request.user and request.user.is_authenticated:
                raise exceptions.PermissionDenied(HasPlayer.message)
            raise exceptions.NotAuthenticated("log in to list your games")
        if f.get("rules"):
            services.check_rules(f["rules"])
        games = selectors.game_list(viewer=self.player, mine=f["mine"], joinable=f["joinable"],
                                    status=f.get("status"), rules=f.get("rules"))
        paginator = GamePagination()
        rows = games.values(*presenters.LOBBY_COLUMNS)
        page = paginator.paginate_rows(rows, request)
        seats = selectors.lobby_seats([g["id"] for g in page])
        player = self.player
        # Why no GameOut here: lobby_entry's dicts are already what GameOut makes of them (JSON
        # types, the same keys in the same order; tests/api/test_query_counts.py holds them
        # equal), and running 50 nested serialisers per page was most of the lobby's time.
        data = [presenters.lobby_entry(request, g, player, seats[g["id"]]) for g in page]
        return _with_etag(paginator.get_paginated_response(data), LIST_TAG)

    @extend_schema(
        operation_id="games_create",
        summary="Create a game",
        description="You take the first seat; invited players get a mail; the game starts when every seat is "
                    "filled. Options are validated against the rules' schema (see /rules/). A game on its own: a "
                    "campaign (a group's series of games, each set up from the last one's archive) is created with "
                    "POST /campaigns/, which creates its first game too; `campaign: true` or the option `campaign` "
                    "here is refused with a 400 that names it.",
        request=s.GameCreateIn,
        responses={201: s.GameOut, **_errors(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        body = s.GameCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data
        game = services.do_create_game(
            self.require_player(), d["rules"], options=d["options"], invite=d["invite"],
            open_seats=d["open_seats"], title=d["title"], deadline_hours=d["deadline_hours"],
            time_bank_hours=d["time_bank_hours"], time_bank_increment_hours=d["time_bank_increment_hours"])
        response = _game_response(request, game.pk, self.player, status.HTTP_201_CREATED)
        response["Location"] = response.data["links"]["self"]
        return response


class GameDetailApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="games_retrieve", summary="A game's public information",
                   description="Seats show their names in the game (never addresses), as the view, the outcome "
                               "and the mails say them. The seed is revealed once the game is finished. "
                               "The ETag header is the game's version.",
                   parameters=[GAME_ID], responses={200: s.GameOut, **_errors(404)})
    def get(self, request: Request, game_id: int) -> Response:
        return _game_response(request, game_id, self.player)


class _GameActionApi(BaseApi):
    permission_classes = [HasPlayer]
    throttle_classes = [UserRateThrottle, ScopedRateThrottle]
    throttle_scope = "actions"


class GameJoinApi(_GameActionApi):
    @extend_schema(operation_id="games_join", summary="Join a game (a free seat or your invitation)",
                   request=None, parameters=[GAME_ID], responses={200: s.GameOut, **_errors(401, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        moderation.do_join(game_id, self.require_player())
        return _game_response(request, game_id, self.player)


class GameDeclineApi(_GameActionApi):
    @extend_schema(operation_id="games_decline", summary="Decline your invitation; the seat opens for anyone",
                   request=None, parameters=[GAME_ID], responses={200: s.GameOut, **_errors(401, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        services.do_decline_game(game_id, self.require_player())
        return _game_response(request, game_id, self.player)


class GameLeaveApi(_GameActionApi):
    @extend_schema(operation_id="games_leave", summary="Leave a game before it starts",
                   description="When the creator leaves, the game is aborted.",
                   request=None, parameters=[GAME_ID], responses={200: s.GameOut, **_errors(401, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        services.do_leave_game(game_id, self.require_player())
        return _game_response(request, game_id, self.player)


class GameResignApi(_GameActionApi):
    @extend_schema(operation_id="games_resign", summary="Resign from a running game",
                   description="Your seat is then played automatically (the game's default move, its least "
                               "committal choice) so the others can go on.",
                   request=None, parameters=[GAME_ID], responses={200: s.GameOut, **_errors(401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        services.do_resign(game_id, self.require_player())
        return _game_response(request, game_id, self.player)


class GameUndoApi(_GameActionApi):
    @extend_schema(
        operation_id="games_undo",
        summary="Take back your last move",
        description="Allowed when the latest accepted batch of moves is entirely yours (made by mail, API or web), "
                    "nobody has moved since, the game is running, and the batch neither revealed information "
                    "nor drew a card or rolled a die. The moves stay in the database marked undone and leave "
                    "the public log; the version moves on and every player gets a mail. 409 otherwise.",
        request=None, parameters=[GAME_ID], responses={200: s.GameOut, **_errors(401, 403, 404, 409, 429)})
    def post(self, request: Request, game_id: int) -> Response:
        services.do_undo_last_move(game_id, self.require_player(), via="api")
        return _game_response(request, game_id, self.player)


# ---- moderation (staff) ---------------------------------------------------------------------------------


class _ModeratorApi(BaseApi):
    permission_classes = [IsGameModerator]

    @property
    def player(self) -> Player | None:
        """The staff account's player profile, made if it has none, so the audit names the actor."""
        if not hasattr(self, "_player"):
            self._player = player_of(self.request) or moderators.do_moderator_profile(self.request.user)
        return self._player


class GamePauseApi(_ModeratorApi):
    @extend_schema(operation_id="games_pause", summary="Moderators: pause a running game",
                   description="No moves are taken and no deadline runs until it resumes. Audited.",
                   request=s.ReasonIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        body = s.ReasonIn(data=request.data)
        body.is_valid(raise_exception=True)
        moderation.do_pause_game(game_id, self.player, body.validated_data["reason"])
        return _game_response(request, game_id, self.player)


class GameResumeApi(_ModeratorApi):
    @extend_schema(operation_id="games_resume", summary="Moderators: resume a paused game",
                   description="The deadline starts again from now. Audited.",
                   request=s.ReasonIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        body = s.ReasonIn(data=request.data)
        body.is_valid(raise_exception=True)
        moderation.do_resume_game(game_id, self.player, body.validated_data["reason"])
        return _game_response(request, game_id, self.player)


class GameReplaceApi(_ModeratorApi):
    @extend_schema(operation_id="games_replace", summary="Moderators: hand a seat to another player",
                   description="The seat gets a new secret reply address (the old one stops working) and the new "
                               "player a mail with the game so far. Audited with the reason.",
                   request=s.ReplaceIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        body = s.ReplaceIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data
        moderation.do_replace_player_by_address(game_id, self.player, d["seat"], d["email"], d["reason"],
                                                name=d["name"])
        return _game_response(request, game_id, self.player)


class GameAuditApi(_ModeratorApi):
    @extend_schema(operation_id="games_audit", summary="Moderators: the game's audit log, newest first",
                   parameters=[GAME_ID], responses={200: s.AuditListOut, **_errors(401, 403, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.get_game(game_id)
        entries = [presenters.audit_entry_data(e) for e in selectors.audit_log(game)[:1000]]
        return Response(s.AuditListOut({"game": game.pk, "results": entries}).data)


# ---- views, options, moves, log ----------------------------------------------------------------------


class GameViewApi(BaseApi):
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, BrowsableAPIRenderer, SVGRenderer, PlainTextRenderer]

    @extend_schema(
        operation_id="games_view",
        summary="Your view of the game (the spectator's when you do not play in it)",
        description="Exactly what your seat may know. `?format=svg` gives the board picture, `?format=txt` the "
                    "text rendering (or ask with the Accept header). `?format=` wins over the Accept header: "
                    "`?format=svg` with `Accept: application/json` is the picture.",
        parameters=[GAME_ID, OpenApiParameter("format", OpenApiTypes.STR, enum=["json", "svg", "txt"])],
        responses={(200, "application/json"): s.GameViewOut,
                   (200, "image/svg+xml"): OpenApiTypes.STR,
                   (200, "text/plain"): OpenApiTypes.STR,
                   **_json_errors(404, 409)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game, seat = selectors.get_game_for_viewer(game_id, self.player)
        fmt = getattr(request.accepted_renderer, "format", "json")
        if fmt == "svg":
            body: Any = selectors.game_view_svg(game, seat)
        else:
            gv = selectors.game_view(game, seat)
            # Why no GameViewOut: view_data's dict is already what it makes of it (JSON types;
            # tests/api/test_query_counts.py holds them equal), and the view is read most of all.
            body = gv.text if fmt == "txt" else presenters.view_data(gv)
        return _with_etag(Response(body), game.etag)


class GameBoardSvgApi(BaseApi):
    permission_classes = [AllowAny]
    renderer_classes = [SVGRenderer]

    @extend_schema(operation_id="games_board_svg", summary="The board picture of your view, as SVG",
                   description="Always SVG, whatever the Accept header says (errors are JSON).",
                   parameters=[GAME_ID],
                   responses={(200, "image/svg+xml"): OpenApiTypes.STR, **_json_errors(404, 409)})
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.get_game(game_id)
        seat = selectors.viewer_seat(game, self.player)
        return _with_etag(Response(selectors.game_view_svg(game, seat)), game.etag)


class GameOptionsApi(BaseApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="games_options", summary="Your legal choices now",
                   description="Empty when the game does not wait for you. Post one with "
                               "`{\"commands\": [{\"code\": ...}]}` to /moves/.",
                   parameters=[GAME_ID], responses={200: s.OptionsOut, **_errors(401, 403, 404, 409)})
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.get_game(game_id)
        seat = selectors.viewer_seat(game, self.player)
        if seat is None:
            if game.state is None:
                raise services.Conflict(gettext("game #%(game)s has not started") % {"game": game.pk})
            # Why the moves' own check: it says why (you resigned; you do not play here) as /moves/
            # says it, in the reader's language.
            services.access_seat(game, self.require_player())
            raise services.Forbidden(gettext("you do not play in game #%(game)s") % {"game": game.pk})
        options = selectors.seat_options(game, seat)
        return _with_etag(Response(s.OptionsOut(presenters.options_data(game, seat, options)).data), game.etag)


def _expected_version(request: Request, game_id: int) -> int | None:
    """The version an ``If-Match`` header names; 412 when it is not the current one.

    Any ETag this API gave for the game at its current version matches (the game's,
    or a read's with its digest); a weak tag never does (RFC 9110 13.1.1: If-Match
    compares strongly).
    """
    header = request.headers.get("If-Match")
    if header is None:
        return None
    if header.strip() == "*":
        return None
    game = selectors.get_game(game_id)
    tags = [t.strip() for t in header.split(",") if t.strip()]
    for tag in tags:
        m = _TAG.match(tag)
        if m and int(m["game"]) == game.pk and int(m["version"]) == game.version:
            return game.version
    weak = " (weak tags, W/..., never match If-Match)" if any(t.startswith("W/") for t in tags) else ""
    raise services.StaleVersion(f"the game has moved on: its ETag is {game.etag}, you sent {header.strip()}{weak}; "
                                "look at the new state and send your move again")


class GameMovesApi(BaseApi):
    permission_classes = [HasPlayer]
    throttle_classes = [UserRateThrottle, ScopedRateThrottle]
    throttle_scope = "moves"

    @extend_schema(
        operation_id="games_moves_create",
        summary="Submit moves",
        description="The commands (option codes, notation lines or structured moves) are applied in order, all or "
                    "nothing, by a worker, exactly like a mail. Answers 202 with the move request's URL in "
                    "`Location`; its status becomes `accepted` or `rejected` (with the reason). `?wait=N` waits up "
                    "to N seconds for the decision, but never longer than the server's cap (2 s by default, "
                    "`PBEM_API_MAX_WAIT`), and answers 200 (accepted), 422 (rejected) or 412 (the version named "
                    "by If-Match was gone when the worker judged it); still undecided: 202 with `Location` and "
                    "`Retry-After`. `If-Match` with the game's ETag (strong tags only) makes a move sent "
                    "against an old version fail with 412. A whole turn goes in one request with its "
                    "sub-decisions (a Maracaibo sail, delivery, city action...: each decision's code, stable and "
                    "named by the options' `details`, or its notation line), judged like a mail of those lines: "
                    "trailing lines such as `done` after the turn is over are ignored and marked "
                    "`\"ignored\": true` in the request's `commands`.",
        parameters=[GAME_ID, s.MovesQueryIn,
                    OpenApiParameter("If-Match", OpenApiTypes.STR, OpenApiParameter.HEADER,
                                     description="the game's ETag as you last saw it (or `*`); anything that "
                                                 "does not name the current version, malformed or weak, is a 412")],
        request=s.MovesIn,
        responses={200: s.MoveRequestOut, 202: s.MoveRequestOut,
                   422: OpenApiResponse(s.MoveRequestOut, description="the batch was rejected; nothing changed"),
                   **_errors(400, 401, 403, 404, 409, 412, 429)},
    )
    def post(self, request: Request, game_id: int) -> Response | aio.Deferred:
        query = _query(s.MovesQueryIn, request)
        body = s.MovesIn(data=request.data)
        body.is_valid(raise_exception=True)
        player = self.require_player()
        expected = _expected_version(request, game_id)
        commands = [services.Command.from_dict(c) for c in body.validated_data["commands"]]
        with seated_before_the_start(game_id, player):
            req = services.do_request_move(game_id, player, commands, expected_version=expected)
        wait = min(query["wait"], settings.PBEM_API_MAX_WAIT)
        if wait > 0 and aio.served_async(request):
            # Why deferred: under ASGI the wait is awaited on the event loop (pbem.api.aio), so a
            # waiting request holds no worker thread and no database connection.
            return aio.Deferred(
                lambda: aio.until_decided(lambda: selectors.move_request_decided(req.pk), wait),
                lambda: self._finish(request, lambda: self._answer(request, game_id, req.pk, wait)))
        if wait > 0:
            selectors.wait_for_decision(req.pk, wait)
        return self._answer(request, game_id, req.pk, wait)

    def _finish(self, request: Request, answer: Any) -> Any:
        """DRF's handling of the answer (errors included) for an answer made after the wait."""
        try:
            response = answer()
        except Exception as exc:  # noqa: BLE001  # as APIView.dispatch does: its handler shapes it
            response = self.handle_exception(exc)
        return self.finalize_response(request, response)

    def _answer(self, request: Request, game_id: int, request_id: int, wait: float) -> Response:
        req = selectors.get_move_request(request_id, self.require_player())
        data = presenters.move_request_data(request, req)
        headers = {"Location": data["url"]}
        if wait <= 0 or req.status == MoveRequest.Status.PENDING:
            # Past the wait (or none asked): the client polls Location.
            headers["Retry-After"] = "1"
            return Response(s.MoveRequestOut(data).data, status=status.HTTP_202_ACCEPTED, headers=headers)
        if req.status == MoveRequest.Status.ACCEPTED:
            headers["ETag"] = selectors.get_game(game_id).etag
            return Response(s.MoveRequestOut(data).data, status=status.HTTP_200_OK, headers=headers)
        reason = req.reason or {}
        data |= {"code": reason.get("code", "rejected"), "message": reason.get("message", "rejected")}
        # Why 412 for stale: the worker found the If-Match version gone, as the door would have.
        code = status.HTTP_412_PRECONDITION_FAILED if data["code"] == "stale" else \
            status.HTTP_422_UNPROCESSABLE_ENTITY
        return Response(s.MoveRequestOut(data).data, status=code, headers=headers)


class MoveRequestDetailApi(BaseApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="move_requests_retrieve", summary="A move request you posted, and its decision",
                   parameters=[OpenApiParameter("request_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
                   responses={200: s.MoveRequestOut, **_errors(401, 404)})
    def get(self, request: Request, request_id: int) -> Response:
        req = selectors.get_move_request(request_id, self.require_player())
        return Response(s.MoveRequestOut(presenters.move_request_data(request, req)).data)


class GameLogApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_log",
        summary="The move log, oldest first, cursor-paginated",
        description="Each entry's events are redacted for your seat (a spectator sees public events only). "
                    "Moves taken back by an undo are left out (so numbers can have gaps): the log replays "
                    "from the seed to the game's state. Other seats' moves are shown once the game is finished, "
                    "when the seed is revealed too, so anyone can replay and audit the game.",
        parameters=[GAME_ID, OpenApiParameter("cursor", OpenApiTypes.STR, description="from next/previous"),
                    OpenApiParameter("page_size", OpenApiTypes.INT, description="entries per page (max 500)")],
        responses={200: s.LogPageOut, **_errors(404)},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.get_game(game_id)
        seat = selectors.viewer_seat(game, self.player)
        names = selectors.movers(game)  # who held the seat when each move was made
        paginator = MoveLogPagination()
        rows = paginator.paginate_queryset(selectors.move_log(game), request, view=self) or []
        data = [presenters.log_entry_data(game, row, seat, names) for row in rows]
        return _with_etag(paginator.get_paginated_response(s.LogEntryOut(data, many=True).data), game.etag)


class GameExportApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="games_export", summary="A finished game in one call, to replay or archive",
                   description="Players, options, seed and every move, in the `pbem-game/1` JSON that "
                               "`python -m engine replay FILE` replays (it checks the outcome). 409 until the "
                               "game is finished.",
                   parameters=[GAME_ID], responses={200: s.GameExportOut, **_errors(404, 409)})
    def get(self, request: Request, game_id: int) -> Response:
        return Response(s.GameExportOut(selectors.game_export(game_id)).data)


# ---- event streams --------------------------------------------------------------------------------


_STREAM_MEDIA = {"sse": "text/event-stream", "ndjson": "application/x-ndjson"}
LAST_EVENT_ID = OpenApiParameter(
    "Last-Event-ID", OpenApiTypes.STR, OpenApiParameter.HEADER,
    description="resume after this event id (EventSource sends it by itself when it reconnects); an id this "
                "stream never gives (not `<n>.<n>`) is ignored, as the SSE standard has it")
_STREAM_RESPONSES: dict[Any, Any] = {
    # Why a oneOf for SSE too: it registers each kind's payload (`data`) as a component; the schema hook
    # (pbem.api.schema) then describes the wire shape of one event and names each kind's component.
    (200, "text/event-stream"): OpenApiResponse(
        PolymorphicProxySerializer(component_name="StreamEventData", serializers=list(s.STREAM_EVENTS.values()),
                                   resource_type_field_name=None),
        description="server-sent events: `event` is the kind, `data` its payload as JSON"),
    (200, "application/x-ndjson"): OpenApiResponse(
        PolymorphicProxySerializer(component_name="StreamLine", serializers=dict(s.STREAM_LINES.items()),
                                   resource_type_field_name="type"),
        description="one JSON event a line: its `id`, `type` (the kind) and payload"),
}


class _StreamApi(BaseApi):
    renderer_classes = [EventStreamRenderer, NDJSONRenderer, JSONRenderer]

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        # Why: DRF answers an unknown ?format= with a 404, as if the stream did not exist.
        if not force and request.query_params.get("format", "sse") not in _STREAM_MEDIA:
            raise exceptions.ValidationError({"format": ["sse or ndjson"]})
        return super().perform_content_negotiation(request, force)

    def stream(self, request: Request, source: Any, start: streams.Cursor) -> StreamingHttpResponse:
        query = _query(s.StreamQueryIn, request)
        raw = query.get("last_event_id") or streams.Cursor.recognised(request.headers.get("Last-Event-ID"))
        cursor = streams.Cursor.parse(raw) if raw else start
        fmt = "sse" if getattr(request.accepted_renderer, "format", "sse") == "sse" else "ndjson"
        seconds = streams.lifetime(query.get("timeout"))
        # Under ASGI an async iterator: the stream waits on the event loop, holding no worker.
        run = streams.arun if aio.served_async(request) else streams.run
        body = run(source, self.player, cursor, seconds, fmt)
        response = StreamingHttpResponse(body, content_type=f"{_STREAM_MEDIA[fmt]}; charset=utf-8")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        return response


class GameStreamApi(_StreamApi):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="games_stream",
        summary="The game's events as they happen (server-sent events or ndjson)",
        description="First a `state` event (status, version, whose decision it waits for, yours), then every "
                    "`move` of the log from the start (or after `Last-Event-ID`) redacted for your seat exactly "
                    "like /log/, and `game` events (start, pause, undo, finish...); each kind's payload is a component "
                    "(StreamStateOut, StreamMoveOut, StreamGameOut; ndjson lines: StreamLine). The stream closes "
                    "after at most `PBEM_API_STREAM_SECONDS` (300 s by default): reconnect with the last id. "
                    "`Accept: application/x-ndjson` or `?format=ndjson` for one JSON object a line.",
        parameters=[GAME_ID, s.StreamQueryIn, LAST_EVENT_ID],
        responses={**_STREAM_RESPONSES, **_json_errors(400, 404, 429)},
    )
    def get(self, request: Request, game_id: int) -> StreamingHttpResponse:
        game = selectors.get_game(game_id)
        return self.stream(request, streams.GameSource(game), streams.Cursor(0, 0))


class MyStreamApi(_StreamApi):
    permission_classes = [HasPlayer]

    @extend_schema(
        operation_id="me_stream",
        summary="Your account's events: every game you hold a seat in (as lichess's /api/stream/event)",
        description="First a `hello` event (`my_turn`: the games waiting for you now), then, from now on (or "
                    "after `Last-Event-ID`), the `move` and `game` events of all your games, each redacted for "
                    "your seat in it; `your_turn` says when a game waits for you. Same lifetime and formats as "
                    "a game's stream.",
        parameters=[s.StreamQueryIn, LAST_EVENT_ID],
        responses={**_STREAM_RESPONSES, **_json_errors(400, 401, 429)},
    )
    def get(self, request: Request) -> StreamingHttpResponse:
        player = self.require_player()
        return self.stream(request, streams.AccountSource(player), streams.latest_cursor())


# ---- rules ------------------------------------------------------------------------------------------


class RulesListApi(BaseApi):
    permission_classes = [AllowAny]
    pagination_class = None

    @extend_schema(operation_id="rules_list", summary="The games this server plays, with their option schemas",
                   responses={200: s.RulesOut(many=True)})
    def get(self, request: Request) -> Response:
        rules = [presenters.rules_data(r) for r in selectors.rules_catalog()]
        return _with_etag(Response(s.RulesOut(rules, many=True).data), LIST_TAG)


class RulesDetailApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="rules_retrieve", summary="One game's option schema and notation help",
                   parameters=[OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.PATH)],
                   responses={200: s.RulesOut, **_errors(404)})
    def get(self, request: Request, name: str) -> Response:
        return _with_etag(Response(s.RulesOut(presenters.rules_data(selectors.rules_by_name(name))).data), LIST_TAG)


class RulesCatalogueApi(BaseApi):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rules_catalogue",
        summary="The game's content a front end draws: cards, places, routes, tiles",
        description="What the ids of a view and the `details` of an option stand for: for Maracaibo every card "
                    "(cost, good, object, VP, effects in words and in structure), every place of the map with its "
                    "routes, the explorer track, the quests, combat tokens, city tiles, prestige buildings, "
                    "careers, upgrades, legacy tiles, and the option kinds; for Caravelas the board (places with "
                    "coordinates, lines, arrow routes) and the cards; for Maretta the cards, barrels and tracks. "
                    "`version` changes with the content; "
                    "the ETag is made of it, so `If-None-Match` answers 304 until the server's content changes. "
                    "404 for a game without one.",
        parameters=[OpenApiParameter("name", OpenApiTypes.STR, OpenApiParameter.PATH)],
        responses={200: s.CatalogueOut, **_errors(404)})
    def get(self, request: Request, name: str) -> Response:
        catalogue = selectors.rules_catalogue(name)
        return _with_etag(Response(catalogue), f'"catalogue-{catalogue["version"]}"')


# ---- account ------------------------------------------------------------------------------------------


class MeApi(BaseApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="me_retrieve", summary="Your account and mail preferences",
                   responses={200: s.MeOut, **_errors(401)})
    def get(self, request: Request) -> Response:
        return Response(s.MeOut(presenters.me_data(self.require_player())).data)

    @extend_schema(operation_id="me_update", summary="Change your display name, mail mode, language or vacation",
                   description="mail_mode: `every` (a mail after every move), `turn` (only when it is your turn) "
                               "or `digest` (one mail a day). language: of your mails and pages, and of the "
                               "API's messages to you when a request has no Accept-Language. vacation_until: "
                               "as POST /me/vacation/ (in the future, a year at most: else a 422; your running "
                               "games are told; null ends it).",
                   request=s.MeUpdateIn, responses={200: s.MeOut, **_errors(400, 401)})
    def patch(self, request: Request) -> Response:
        body = s.MeUpdateIn(data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        d = body.validated_data
        with transaction.atomic():  # a refused vacation leaves the name and mode as they were
            player = services.do_update_preferences(
                self.require_player(), display_name=d.get("display_name"), mail_mode=d.get("mail_mode"),
                language=d.get("language"))
            if "vacation_until" in d:
                # Why not do_update_preferences': it stored any date, the past included, and told
                # nobody; a vacation is the one POST /me/vacation/ and the mail command set.
                moderation.do_set_vacation(player, d["vacation_until"], via="api")
        return Response(s.MeOut(presenters.me_data(player)).data)


class MyGamesApi(BaseApi):
    permission_classes = [HasPlayer]

    @extend_schema(
        operation_id="me_games_list",
        summary="Your games, newest first",
        description="Every game you hold a seat in (invitations included). `my_turn=1`: only the running games "
                    "that wait for your decision now.",
        parameters=[s.MyGamesFilterIn,
                    *PAGE_PARAMETERS],
        responses={200: s.GamePageOut, **_errors(400, 401, 429)},
    )
    def get(self, request: Request) -> Response:
        my_turn = _query(s.MyGamesFilterIn, request)["my_turn"]
        player = self.require_player()
        games = selectors.my_games(player, my_turn=my_turn)
        paginator = GamePagination()
        page = paginator.paginate_rows(games, request)
        data = [presenters.game_data(request, g, player) for g in page]
        return _with_etag(paginator.get_paginated_response(s.GameOut(data, many=True).data), LIST_TAG)


class TokenApi(BaseApi):
    permission_classes = [AllowAny]
    throttle_classes = [ScopedRateThrottle]
    throttle_scope = "auth"

    @extend_schema(
        operation_id="auth_token_create",
        summary="Get your API token",
        description="With `email` and `password`, or without them when already authenticated (session or token). "
                    "Players created by mail or by `manage.py player create` get their token from that command. "
                    "Wrong passwords count against one lockout per account and per client address, shared with "
                    "the log-in pages: past it, 429 with `Retry-After`, even for the right password.",
        request=s.TokenIn, responses={200: s.TokenOut, **_errors(400, 401, 429)},
    )
    def post(self, request: Request) -> Response:
        body = s.TokenIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data
        if "email" in d or "password" in d:
            if not d.get("email") or not d.get("password"):
                raise services.ServiceError("password: send both email and password")
            email = services.normalize_email(d["email"])
            player = Player.objects.filter(email=email).select_related("user").first()
            # a staff account made by createsuperuser has no player profile yet: one is made for it
            staff = None if player else _staff_without_profile(email)
            login = player.user.get_username() if player else staff.get_username() if staff else email
            # Why authenticate even without a player: an unknown address counts against the lockout too
            # (pbem.tokens.lockout, shared with every password door; LockedOut answers 429).
            user = authenticate(request._request, username=login, password=d["password"])
            if player is None and staff is not None and user is not None and user.pk == staff.pk:
                player = moderators.do_moderator_profile(staff)
            if not player or not user or user.pk != player.user_id:
                raise exceptions.AuthenticationFailed("wrong email or password")
        else:
            player = self.player
            if player is None:
                raise exceptions.NotAuthenticated("send email and password, or authenticate first")
            if isinstance(request.auth, ApiToken) and set(request.auth.scopes) != set(tokens.SCOPES):
                raise exceptions.PermissionDenied("a token with fewer scopes cannot fetch the account token "
                                                  "(it has them all); send email and password")
        token = services.do_issue_api_token(player, rotate=d["rotate"])
        return Response(s.TokenOut({"token": token}).data)



def _staff_without_profile(email: str) -> Any:
    """The active staff account with this address and no player profile, if any."""
    return get_user_model().objects.filter(is_staff=True, is_active=True, email__iexact=email,
                                           player__isnull=True).first()


def _token_data(row: ApiToken) -> dict[str, Any]:
    return {"id": row.pk, "name": row.name, "kind": row.kind, "prefix": row.prefix, "scopes": row.scopes,
            "created_at": row.created_at, "expires_at": row.expires_at, "last_used_at": row.last_used_at}


class AuthTokensApi(BaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="auth_tokens_list", summary="Your live API tokens (never their text)",
                   responses={200: s.ApiTokenOut(many=True), **_errors(401, 403)})
    def get(self, request: Request) -> Response:
        rows = [_token_data(r) for r in tokens.tokens_of(request.user)]
        return _with_etag(Response(s.ApiTokenOut(rows, many=True).data), LIST_TAG)

    @extend_schema(
        operation_id="auth_tokens_create",
        summary="Make a named, scoped, optionally expiring token",
        description="The token's text is in this answer only: the server keeps its SHA-256. A token can make "
                    "tokens with its own scopes at most; `moderate` is for staff accounts.",
        request=s.TokenCreateIn, responses={201: s.ApiTokenCreatedOut, **_errors(400, 401, 403, 409)})
    def post(self, request: Request) -> Response:
        body = s.TokenCreateIn(data=request.data)
        body.is_valid(raise_exception=True)
        d = body.validated_data
        within = list(request.auth.scopes) if isinstance(request.auth, ApiToken) else None
        row, text = tokens.do_create_token(request.user, d["name"], d["scopes"],
                                           expires_in_days=d["expires_in_days"], within=within)
        return Response(s.ApiTokenCreatedOut(_token_data(row) | {"token": text}).data, status=status.HTTP_201_CREATED)


class AuthTokenDetailApi(BaseApi):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="auth_tokens_revoke", summary="Revoke one of your tokens (it stops working now)",
                   parameters=[OpenApiParameter("token_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
                   responses={204: None, **_errors(401, 403, 404)})
    def delete(self, request: Request, token_id: int) -> Response:
        tokens.do_revoke_token(request.user, token_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _webhook_data(hook: Webhook) -> dict[str, Any]:
    counts = {row["status"]: row["n"] for row in hook.deliveries.values("status").annotate(n=Count("pk"))}
    return {"id": hook.pk, "url": hook.url, "created_at": hook.created_at,
            "pending": counts.get(WebhookDelivery.Status.PENDING, 0),
            "failed": counts.get(WebhookDelivery.Status.FAILED, 0)}


class WebhooksApi(BaseApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="me_webhooks_list", summary="Your webhooks",
                   responses={200: s.WebhookOut(many=True), **_errors(401, 403)})
    def get(self, request: Request) -> Response:
        hooks = webhooks.webhooks_of(self.require_player())
        return _with_etag(Response(s.WebhookOut([_webhook_data(h) for h in hooks], many=True).data), LIST_TAG)

    @extend_schema(
        operation_id="me_webhooks_create",
        summary="Have your account's events POSTed to your server",
        description="From now on, every event of your account stream (/me/stream/: `move` and `game`, redacted "
                    "for your seats) is POSTed as JSON to `url`, signed: `X-Pbem-Signature: sha256=<hex HMAC-SHA256 "
                    "of the raw body, keyed with the secret>`; `X-Pbem-Event` and `X-Pbem-Delivery` too. Answer "
                    "2xx; anything else is tried again after 10 s, 30 s, 1, 5, 15, 30 and 60 minutes (8 attempts).",
        request=s.WebhookIn, responses={201: s.WebhookCreatedOut, **_errors(400, 401, 403, 409)})
    def post(self, request: Request) -> Response:
        body = s.WebhookIn(data=request.data)
        body.is_valid(raise_exception=True)
        hook = webhooks.do_create_webhook(self.require_player(), body.validated_data["url"])
        return Response(s.WebhookCreatedOut(_webhook_data(hook) | {"secret": hook.secret}).data,
                        status=status.HTTP_201_CREATED)


class WebhookDetailApi(BaseApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="me_webhooks_delete", summary="Stop a webhook (its pending deliveries stop too)",
                   parameters=[OpenApiParameter("webhook_id", OpenApiTypes.INT, OpenApiParameter.PATH)],
                   responses={204: None, **_errors(401, 403, 404)})
    def delete(self, request: Request, webhook_id: int) -> Response:
        webhooks.do_delete_webhook(self.require_player(), webhook_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
