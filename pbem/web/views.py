"""Read-only HTML pages over the selectors; playing happens by mail or through the API."""

from __future__ import annotations

from contextlib import AbstractContextManager

from django.conf import settings
from django.contrib.staticfiles import finders
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from pbem.api.errors import json_404, json_500
from pbem.games import language, pages, selectors
from pbem.games.health import health_report
from pbem.games.models import Game, Player, said_game_title
from pbem.games.services import ServiceError

MAX_ID = 2**62


def _player(request: HttpRequest) -> Player | None:
    if not request.user.is_authenticated:
        return None
    return Player.objects.filter(user=request.user).first()


def _speaking(request: HttpRequest, player: Player | None) -> AbstractContextManager[str]:
    """A page anyone may open speaks its reader's language (issue 27): a signed-in player's own,
    else the browser's."""
    return language.speaking(language.of_visitor(player, request.META.get("HTTP_ACCEPT_LANGUAGE")))


def home(request: HttpRequest) -> HttpResponse:
    with _speaking(request, _player(request)):
        # said inside: the games' names ("Maracaibo (substitute content)") in the visitor's language
        titles = [said_game_title(r.title, r.name) for r in selectors.rules_catalog()]
        return render(request, "web/home.html", {"games": titles, "general": settings.PBEM_FROM_EMAIL})


FAVICON = ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="12" '
           'fill="#0b5394"/><path d="M12 44h40l-6 8H18z" fill="#fff"/><path d="M31 10v30H16z" fill="#fff"/>'
           '<path d="M34 16v24h14z" fill="#cfe2f3"/></svg>')


def favicon(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(FAVICON, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def htmx_js(request: HttpRequest) -> HttpResponse:
    """htmx (the copy django-htmx ships), served by the site itself so that every way of running
    pbem has it, with or without a static file server; the pages work without it too."""
    found = finders.find(HTMX_FILE)
    if not found:
        raise Http404("htmx is not installed")
    with open(found if isinstance(found, str) else found[0], "rb") as f:
        response = HttpResponse(f.read(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    return response


HTMX_FILE = "django_htmx/htmx-2.min.js"


#: What /api/v1/ answers: where everything is (a plain index, like DRF's API root).
API_INDEX = {
    "games": "/api/v1/games/",
    "rules": "/api/v1/rules/",
    "me": "/api/v1/me/",
    "move_requests": "/api/v1/move-requests/{id}/",
    "auth_token": "/api/v1/auth/token/",
    "schema": "/api/v1/schema/",
    "docs": "/api/v1/docs/",
    "redoc": "/api/v1/redoc/",
}


def api_index(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"name": "pbem REST API", "version": "v1", "links": API_INDEX})


#: What a lobby entry shows. Why only these (issue 28): the four lists read 200 games a page, and
#: their states (kilobytes of JSON each, decoded) were most of the page's work.
# options: the title is said in the reader's language from them (said_title), one column, no state
LOBBY_COLUMNS = ("id", "title", "status", "rules", "options")


def _entries(games: QuerySet[Game]) -> list[Game]:
    """The first 50 of a list: a LIMIT, never a count (flat at any number of games)."""
    return list(games.select_related(None).only(*LOBBY_COLUMNS)[:50])


def game_list(request: HttpRequest) -> HttpResponse:
    player = _player(request)
    context = {
        "player": player,
        "mine": _entries(selectors.games_for_player(player)) if player else [],
        "open": _entries(selectors.open_games(viewer=player)),
        "running": _entries(selectors.game_list(status=Game.Status.RUNNING)),
        "finished": _entries(selectors.finished_games()),
    }
    with _speaking(request, player):
        return render(request, "web/games.html", context)


def game_page(request: HttpRequest, game_id: int) -> HttpResponse:
    player = _player(request)
    with _speaking(request, player):  # its fixed texts, and the engine's views, options and events
        return _game_page(request, game_id, player)


def _game_page(request: HttpRequest, game_id: int, player: Player | None) -> HttpResponse:
    if game_id > MAX_ID:
        raise Http404("no such game")
    try:
        game = selectors.get_game(game_id)
    except ServiceError:
        raise Http404("no such game") from None
    seat = selectors.viewer_seat(game, player)
    context: dict[str, object] = {
        "game": game,
        "player": player,
        "seats": selectors.game_seats(game),
        "clocks": selectors.clock_words(game),
        "waiting": selectors.waiting_for(game),
        "rules": selectors.rules_for(game),
        "seat": seat,
        "log": [],
    }
    if game.state is not None:
        public = selectors.game_view(game, None)
        context["public_text"] = public.text
        context["public_board"] = pages.game_boards(game, None, "board-table")
        if seat is not None:
            own = selectors.game_view(game, seat)
            context["own_text"] = own.text
            context["own_board"] = pages.game_boards(game, seat, "board-own")
            context["options"] = selectors.seat_options(game, seat)
        rows = list(selectors.move_log(game).order_by("-number")[:30])
        context["log"] = [(row, selectors.redacted_events(row.events, seat)) for row in rows]
    return render(request, "web/game.html", context)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_404(request, exception)
    if request.path.startswith("/p/"):
        # a personal link that is forged, mangled, expired or revoked: said kindly, and the token
        # (a credential, even a dead one) is never echoed
        with _speaking(request, _player(request)):
            return render(request, "web/link_invalid.html", status=404)
    with _speaking(request, _player(request)):
        return render(request, "web/404.html", {"path": request.path}, status=404)


def server_error(request: HttpRequest) -> HttpResponse:
    if request.path.startswith("/api/"):
        return json_500(request)
    return HttpResponse("<h1>Server error</h1><p>The error has been logged.</p>", status=500)


def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and broker answer and no mail waits too long; 503 otherwise."""
    report = health_report()
    return JsonResponse(report, status=200 if report["ok"] else 503)
