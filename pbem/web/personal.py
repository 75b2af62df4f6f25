"""A player's personal pages, opened by the signed link in their mails (the link is the
credential: no password, no login). Each view makes one service or selector call."""

from __future__ import annotations

import functools
from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_http_methods

from pbem.games import language, links, moderators, pages, personal
from pbem.games.models import Seat
from pbem.games.services import ServiceError
from pbem.mail import bounces


def _seat(token: str, request: HttpRequest | None = None) -> Seat:
    known = getattr(request, "pbem_seat", None)
    if isinstance(known, Seat):
        return known
    seat = links.seat_for_page_token(token)
    if seat is None:
        raise Http404("this link is not valid (any more): use the link in your newest mail")
    return seat


View = Callable[..., HttpResponse]


def _theirs(view: View) -> View:
    """The view speaks the seat's player's language throughout (issue 27): the page, and the
    refusals and notices its service calls make before it is drawn."""
    @functools.wraps(view)
    def wrapped(request: HttpRequest, token: str) -> HttpResponse:
        seat = _seat(token, request)
        request.pbem_seat = seat  # type: ignore[attr-defined]
        with language.speaking(language.of(seat.player)):
            return view(request, token)
    return wrapped


def _plan(request: HttpRequest) -> list[str] | None:
    """The steps of a turn being planned (``?plan=a&plan=b``; ``?plan=`` begins one), else None."""
    if request.method != "GET":  # after a move or a sent plan: the page as it now stands
        return None
    if "plan" not in request.GET and "add" not in request.GET:
        return None
    # the steps so far, then the one the pressed option adds (a button of its own name: htmx, like a
    # browser, sends a form's fields and then the pressed button's)
    return [c for c in request.GET.getlist("plan") + request.GET.getlist("add")[:1] if c]


def _render(request: HttpRequest, token: str, seat: Seat, *, status: int = 200, **extra: object) -> HttpResponse:
    # Why the player's own language, not the browser's: the page is theirs, like their mails (issue 27)
    with language.speaking(language.of(seat.player)):
        return _render_in(request, token, seat, status=status, **extra)


def _render_in(request: HttpRequest, token: str, seat: Seat, *, status: int = 200, **extra: object) -> HttpResponse:
    at = request.GET.get("at", "")[:40] if request.method == "GET" else ""
    # what is new: after the newest move the seat's last visit showed, in whatever browser
    page = pages.seat_page(seat, plan=_plan(request), seen=seat.page_seen_move, at=at)
    context: dict[str, object] = {
        "page": page, "token": token, "game": page.game,
        # The SVG comes from the engine's svg helpers, which escape every text they draw.
        "svg": mark_safe(page.svg), **pages.board_context(page.boards, page.phone_boards),
        "mail_off": bounces.mail_state(seat.player), **extra,
    }
    play = request.GET.get("play", "") if request.method == "GET" else ""
    context["chosen"] = next((o for o in page.options if o.code == play), None) if play else None
    # htmx (in-place updates): only the parts that change, the page's live part and, out of band,
    # its history and messages; without JavaScript, the whole page
    htmx = getattr(request, "htmx", None)
    partial = htmx is not None and bool(htmx) and not htmx.history_restore_request  # a history restore: the page
    response = render(request, "web/_live_response.html" if partial else "web/seat.html", context, status=status)
    # Why: the link is a credential; keep it out of other sites' Referer headers ("same-origin",
    # not "no-referrer": with that, the browser posts our own forms with Origin: null and CSRF refuses them).
    response["Referrer-Policy"] = "same-origin"
    response["Vary"] = "HX-Request, Cookie"
    if not partial:  # a visit (not an update of an open page) moves the seat's mark of what is new
        personal.do_mark_page_seen(seat, page.newest)
    return response


@require_http_methods(["GET", "POST"])
@_theirs
def seat_page(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat(token, request)
    if request.method == "GET":
        return _render(request, token, seat, notice=request.GET.get("done", "") in ("1", "turn"),
                       turn_sent=request.GET.get("done", "") == "turn",
                       undone=request.GET.get("undone", "") == "1",
                       mail_on=request.GET.get("mail", "") == "on",
                       moderator_sent=request.GET.get("moderator", "") == "sent")
    version = request.POST.get("version", "")
    result = personal.do_play_from_page(seat, request.POST.get("code", ""),
                                        version=int(version) if version.isdigit() else None,
                                        confirmed=request.POST.get("confirm") == "yes")
    if result.applied:
        if getattr(request, "htmx", False):
            return _render(request, token, seat, notice=True)
        return redirect(f"/p/{token}/?done=1")
    if result.confirm:
        return _render(request, token, seat, confirm_code=request.POST.get("code", ""),
                       confirm_label=result.confirm)
    return _render(request, token, seat, status=409, error=result.error)


@require_http_methods(["POST"])
@_theirs
def seat_turn(request: HttpRequest, token: str) -> HttpResponse:
    """A whole turn planned on the page, sent at once (one batch, like one mail's lines)."""
    seat = _seat(token, request)
    version = request.POST.get("version", "")
    result = personal.do_play_turn_from_page(seat, request.POST.getlist("plan"),
                                             version=int(version) if version.isdigit() else None)
    if result.applied:
        if getattr(request, "htmx", False):
            return _render(request, token, seat, notice=True, turn_sent=True)
        return redirect(f"/p/{token}/?done=turn")
    return _render(request, token, seat, status=409, error=result.error)


@require_http_methods(["POST"])
@_theirs
def seat_undo(request: HttpRequest, token: str) -> HttpResponse:
    """The player takes back their own last move."""
    seat = _seat(token, request)
    result = personal.do_undo_from_page(seat)
    if result.applied:
        if getattr(request, "htmx", False):
            return _render(request, token, seat, undone=True)
        return redirect(f"/p/{token}/?undone=1")
    return _render(request, token, seat, status=409, error=result.error)


@require_http_methods(["POST"])
@_theirs
def seat_say(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat(token, request)
    try:
        personal.do_say(seat, request.POST.get("text", ""))
    except ServiceError as exc:
        return _render(request, token, seat, status=400, say_error=exc.message)
    return redirect(f"/p/{token}/#messages")


@require_http_methods(["POST"])
@_theirs
def seat_to_moderator(request: HttpRequest, token: str) -> HttpResponse:
    """The player writes to the game's moderators (pbem.games.moderators), who answer by mail."""
    seat = _seat(token, request)
    if seat.player is None:
        raise Http404("this link is not valid (any more): use the link in your newest mail")
    try:
        moderators.do_write_to_moderator(seat.game_id, seat.player, request.POST.get("text", ""))
    except ServiceError as exc:
        return _render(request, token, seat, status=400, moderator_error=exc.message)
    return redirect(f"/p/{token}/?moderator=sent#moderator")


@require_http_methods(["POST"])
def seat_mail_on(request: HttpRequest, token: str) -> HttpResponse:
    """The player turns their mail on again after it stopped for bounces."""
    seat = _seat(token, request)
    if seat.player is not None:
        bounces.do_enable_mail(seat.player)
    return redirect(f"/p/{token}/?mail=on")


@require_http_methods(["POST"])
@_theirs
def seat_revoke(request: HttpRequest, token: str) -> HttpResponse:
    seat = personal.do_revoke_page_link(_seat(token, request))
    return render(request, "web/revoked.html", {"game": seat.game}, status=200)


def seat_board(request: HttpRequest, token: str) -> HttpResponse:
    page = pages.seat_page(_seat(token))
    return HttpResponse(page.svg, content_type="image/svg+xml")


def seat_version(request: HttpRequest, token: str) -> JsonResponse:
    """What the page's light poll asks: has the game moved (or has someone spoken)?"""
    return JsonResponse(pages.page_version(_seat(token)))


@_theirs
def seat_dashboard(request: HttpRequest, token: str) -> HttpResponse:
    seat = _seat(token, request)
    return render(request, "web/dashboard.html", {"rows": pages.dashboard(seat), "player": seat.player,
                                                  "token": token})
