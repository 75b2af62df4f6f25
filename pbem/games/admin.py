"""The admin: a window on every model for moderators, with actions that call services.

Services are the only writers of game data, so games, seats, moves and mail
are read-only here; moderation happens through the actions (pause, resume),
which write the moderation audit log. Secrets stay out of sight: seat tokens
are never shown and raw mail only on its own detail page.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _l
from rest_framework.authtoken.models import TokenProxy

from pbem.games import admin_labels, campaign_admin, language, moderation, moderators, selectors, services
from pbem.games.models import (
    AuditEntry,
    Campaign,
    Game,
    InboundMessage,
    MailAddress,
    Move,
    MoveRequest,
    OutboundMessage,
    Player,
    Seat,
)

# DRF's token admin lists every API token's key (and links to it by key): secrets on a
# list page. Tokens are issued by `manage.py player token` and /api/v1/auth/token/ instead.
if admin.site.is_registered(TokenProxy):
    admin.site.unregister(TokenProxy)

#: A seat's secret reply address (see pbem.mail.outbox.reply_address), masked wherever mail is shown.
_SEAT_ADDRESS = re.compile(r"seat-[A-Za-z0-9_-]+@", re.IGNORECASE)


def _moderator(request: HttpRequest) -> Player | None:
    """The acting staff account's player profile (made for an account without one, such as one
    from ``createsuperuser``), so the audit log names who acted."""
    if not request.user.is_authenticated or not request.user.is_staff:
        return None
    return moderators.do_moderator_profile(request.user)


def _seat_number(index: int | None) -> str:
    """A seat as people count it, from 1 (the ``index`` column is the engine's, from 0, as the API's)."""
    return "-" if index is None else str(index + 1)


class ReadOnlyAdmin(admin_labels.SaidColumns, admin.ModelAdmin):
    """Browse and search; no adding, editing or deleting behind the services' back."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SeatInline(admin_labels.SaidFields, admin.TabularInline):
    model = Seat
    fields = ("number", "index", "player", "status", "joined_at", "last_mailed_version")  # never the token
    readonly_fields = fields

    @admin.display(description=_l("seat"))
    def number(self, seat: Seat) -> str:
        return _seat_number(seat.index)
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ReplacePlayerForm(forms.Form):
    seat = forms.TypedChoiceField(label=_l("Seat"), coerce=int, choices=())
    email = forms.EmailField(label=_l("Address"),
                             help_text=_l("The new player's address; an account is made if there is none."))
    name = forms.CharField(label=_l("Name"), max_length=60, required=False,
                           help_text=_l("The name they play as (default: their own)."))
    reason = forms.CharField(label=_l("Reason"), max_length=200, help_text=_l("Kept in the moderation audit log."))

    def __init__(self, *args: Any, seats: list[tuple[int | None, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seats  # type: ignore[attr-defined]


def _number(value: Any) -> int:
    """A seat number typed on the moderator page (0 when there is none: refused naming the seats)."""
    value = str(value or "").strip()
    return int(value) if value.isdigit() else 0


def _run_tool(game: Game, moderator: Player | None, post: Any) -> str:
    """One moderator tool from the moderator page's forms; returns what to tell the moderator."""
    tool = post.get("tool", "")
    reason = post.get("reason", "")
    if tool == "pause":
        moderation.do_pause_game(game.pk, moderator, reason)
        return gettext("Paused; the players were told.")
    if tool == "resume":
        moderation.do_resume_game(game.pk, moderator, reason)
        return gettext("Resumed; the players got their options.")
    if tool == "extend":
        moderation.do_extend_deadline(game.pk, moderator, int(post.get("hours", "0")), reason)
        return gettext("Deadline extended; the players were told.")
    if tool == "message":
        moderation.do_message_players(game.pk, moderator, post.get("text", ""))
        return gettext("Message sent to every player.")
    if tool == "move":
        line = post.get("line", "").strip()
        # the page's seat fields count from 1, as people do (the API's are indexes from 0)
        index = moderators.seat_index(game.pk, _number(post.get("seat")))
        moderation.do_move_for_seat(game.pk, moderator, index, [services.Command(text=line)], reason)
        return gettext("Moved for seat %(seat)s: %(line)s") % {"seat": index + 1, "line": line}
    if tool == "rollback":
        moderation.do_rollback(game.pk, moderator, int(post.get("to_move", "-1")), reason,
                               confirm_reveals=bool(post.get("confirm_reveals")))
        return gettext("Game taken back to move %(n)s; every player got a mail.") % {"n": post.get("to_move")}
    if tool == "abort":
        moderation.do_abort_game(game.pk, moderator, reason)
        return gettext("Game aborted; the players were told.")
    if tool == "moderator":
        moderators.do_assign_moderator(game.pk, moderator, post.get("email", ""), lead=bool(post.get("lead")),
                                       reason=reason)
        return gettext("%(email)s moderates the game now; they got their command address, the players were told.") % {
            "email": post.get("email")}
    if tool == "inspect":
        seen = moderators.do_inspect_seat(game.pk, moderator, moderators.seat_index(game.pk, _number(post.get("seat"))),
                                          reason)
        return gettext("What %(name)s sees (every player was told you looked): %(text)s") % {
            "name": seen.name, "text": seen.text}
    if tool == "absence":
        until = post.get("until", "").strip()
        moment = datetime.fromisoformat(until).replace(tzinfo=UTC) if until else None
        moderators.do_enter_absence(game.pk, moderator, moderators.seat_index(game.pk, _number(post.get("seat"))),
                                    moment, reason)
        return (gettext("Absence entered; the player and the others were told.") if moment
                else gettext("Absence ended."))
    if tool == "policy":
        changes: dict[str, Any] = {"no_move_policy": post.get("no_move_policy", game.no_move_policy)}
        for name in ("deadline_hours", "vacation_cap_days", "extensions_allowed", "extension_hours",
                     "absences_allowed", "absence_max_days", "time_bank_hours", "time_bank_increment_hours"):
            if post.get(name, "").strip():
                changes[name] = int(post[name])
        moderation.do_set_game_policy(game.pk, moderator, changes, reason)
        return gettext("Deadline rules changed; the players were told.")
    raise ValueError(gettext("unknown tool %(tool)s") % {"tool": repr(tool)})


class OverdueFilter(admin.SimpleListFilter):
    """Games a moderator should look at: past a deadline, waiting on a moderator, with an open seat, or paused."""

    title = _l("needs a moderator")
    parameter_name = "overdue"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", gettext("late, waiting or paused"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        if self.value() == "yes":
            return queryset.filter(pk__in=selectors.overdue_games().values("pk"))
        return queryset


def game_columns() -> dict[str, Any]:
    """The games list's columns, each titled in the reader's language (#27: the list a moderator reads):
    a model field shown as it is through ``admin_labels.said`` (its title the field's name), by hand
    where the column shows something else or is titled otherwise."""

    @admin.display(description=_l("title"), ordering="title")
    def said_title(game: Game) -> str:
        return game.said_title

    @admin.display(description=_l("game"), ordering="rules")
    def game_rules(game: Game) -> str:
        return game.rules

    @admin.display(description=_l("deadline"), ordering="deadline_at")
    def game_deadline(game: Game) -> Any:
        return game.deadline_at

    @admin.display(description=_l("when a player does not move"), ordering="no_move_policy")
    def game_policy(game: Game) -> str:
        return str(game.get_no_move_policy_display())

    columns = (said_title, game_rules, *admin_labels.said_all(Game, ("status", "version", "created_by")),
               game_deadline, game_policy)
    return {f.__name__: f for f in columns}


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", *game_columns().values(), "moderate_link")
    list_filter = (OverdueFilter, ("status", campaign_admin.TitledChoicesFilter),
                   ("rules", campaign_admin.TitledValuesFilter), ("no_move_policy", campaign_admin.TitledChoicesFilter))
    search_fields = ("=id", "title", "seats__player__email", "seats__player__display_name", "seats__invited_email")
    date_hierarchy = "created_at"
    inlines = [SeatInline]
    readonly_fields = ("rules", "title", "options", "status", "version", "seed_hash", "revealed_seed", "created_by",
                       "campaign", "allow_any_sender", "deadline_hours", "deadline_at", "reminded_at", "outcome",
                       "created_at", "started_at", "finished_at", "page", "replace_link", "moderate_link",
                       "no_move_policy", "vacation_cap_days", "extensions_allowed", "extension_hours", "warned_at",
                       "moderator_told_at")
    exclude = ("seed", "state")
    actions = ["pause_games", "resume_games"]

    @admin.display(description=_l("seed"))
    def revealed_seed(self, game: Game) -> str:
        return game.seed if game.status == Game.Status.FINISHED else gettext("(secret until the game ends)")

    @admin.display(description=_l("web page"))
    def page(self, game: Game) -> str:
        return format_html('<a href="/games/{}/">/games/{}/</a>', game.pk, game.pk)

    @admin.display(description=_l("absent player"))
    def replace_link(self, game: Game) -> str:
        url = reverse("admin:games_game_replace", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("Replace a player…"))

    @admin.display(description=_l("moderate"))
    def moderate_link(self, game: Game) -> str:
        url = reverse("admin:games_game_moderate", args=[game.pk])
        return format_html('<a href="{}">{}</a>', url, gettext("Moderator page…"))

    def get_urls(self) -> list[URLPattern]:
        own = [path("<int:game_id>/replace/", self.admin_site.admin_view(self.replace_view),
                    name="games_game_replace"),
               path("<int:game_id>/moderate/", self.admin_site.admin_view(self.moderate_view),
                    name="games_game_moderate")]
        return own + super().get_urls()

    def moderate_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """Whose turn, since when, the last moves, the board, and every moderator tool as a form.
        Each form is one service call (pbem/games/moderation.py), audited there. In the moderator's
        language (their player's setting, issue 27)."""
        game = get_object_or_404(Game, pk=game_id)
        if not request.user.is_staff:
            return HttpResponse(status=403)
        moderator = _moderator(request)
        with language.speaking(language.of(moderator)):
            if request.method == "POST":
                try:
                    done = _run_tool(game, moderator, request.POST)
                except (services.ServiceError, ValueError) as exc:
                    self.message_user(request, getattr(exc, "message", str(exc)), messages.ERROR)
                else:
                    self.message_user(request, done, messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:games_game_moderate", args=[game.pk]))
            context = {
                **self.admin_site.each_context(request),
                "title": gettext("Moderate game #%(pk)s: %(title)s") % {"pk": game.pk, "title": game.said_title},
                "game": game, "opts": self.model._meta, "late": selectors.late_seats(game),
                "moves": selectors.recent_moves(game), "audit": list(selectors.audit_log(game)[:20]),
                # the spectator's board: the engine's own SVG, every text in it escaped there
                "svg": mark_safe(selectors.game_view_svg(game, None)) if game.state is not None else "",
                "seats": list(game.seats.select_related("player").exclude(index__isnull=True)),
                "policies": Game.NoMovePolicy.choices, "policy_text": moderation.policy_text(game),
            }
            # rendered here, in the language spoken (a TemplateResponse renders after the view returns)
            return TemplateResponse(request, "admin/games/moderate.html", context).render()

    def replace_view(self, request: HttpRequest, game_id: int) -> HttpResponse:
        """Hand a seat to someone else (an absent player): one service call, audited there."""
        game = get_object_or_404(Game, pk=game_id)
        if not request.user.is_staff:
            return HttpResponse(status=403)
        seats = [(s.index, gettext("seat %(n)s: %(name)s") % {  # (people count seats from 1)
                  "n": (s.index or 0) + 1, "name": s.player.display_name if s.player else gettext("empty")})
                 for s in game.seats.select_related("player").exclude(index__isnull=True)]
        form = ReplacePlayerForm(request.POST or None, seats=seats)
        if request.method == "POST" and form.is_valid():
            try:
                moderation.do_replace_player_by_address(game.pk, _moderator(request), int(form.cleaned_data["seat"]),
                                                      form.cleaned_data["email"], form.cleaned_data["reason"],
                                                      name=form.cleaned_data["name"])
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                self.message_user(request, gettext("Seat %(seat)s of game #%(pk)s now belongs to %(email)s.") % {
                    "seat": form.cleaned_data["seat"] + 1, "pk": game.pk, "email": form.cleaned_data["email"]},
                    messages.SUCCESS)
                return HttpResponseRedirect(reverse("admin:games_game_change", args=[game.pk]))
        context = {**self.admin_site.each_context(request),
                   "title": gettext("Replace a player in game #%(pk)s") % {"pk": game.pk},
                   "game": game, "form": form, "opts": self.model._meta}
        return TemplateResponse(request, "admin/games/replace_player.html", context)

    def _each(self, request: HttpRequest, queryset: QuerySet[Game], service: Any, verb: str) -> HttpResponse | None:
        """Ask for the reason first (the players and the audit log read it), then act on each game
        (``verb``: "paused" or "resumed"; the page and the answer said in the moderator's language)."""
        reason = (request.POST.get("reason") or "").strip()
        if not reason:
            said = {"paused": (gettext("Why are these games paused?"), gettext("Pause")),
                    "resumed": (gettext("Why are these games resumed?"), gettext("Resume"))}[verb]
            context = {**self.admin_site.each_context(request), "title": said[0],
                       "games": list(queryset), "action": request.POST.get("action", ""), "verb": said[1],
                       "opts": self.model._meta}
            return TemplateResponse(request, "admin/games/action_reason.html", context)
        moderator = _moderator(request)
        done = 0
        for game_id in queryset.values_list("pk", flat=True):
            try:
                service(game_id, moderator, reason[:500])
                done += 1
            except services.ServiceError as exc:
                self.message_user(request, exc.message, messages.WARNING)
        if done:
            told = (ngettext("%(n)s game paused.", "%(n)s games paused.", done) if verb == "paused"
                    else ngettext("%(n)s game resumed.", "%(n)s games resumed.", done))
            self.message_user(request, told % {"n": done}, messages.SUCCESS)
        return None

    @admin.action(description=_l("Pause the selected games"))
    def pause_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return self._each(request, queryset, moderation.do_pause_game, "paused")

    @admin.action(description=_l("Resume the selected games"))
    def resume_games(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse | None:
        return self._each(request, queryset, moderation.do_resume_game, "resumed")


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ("id", "display_name", "email", "mail_mode", "vacation_until", "created_at")
    list_filter = ("mail_mode",)
    search_fields = ("email", "display_name")
    readonly_fields = ("user", "email", "display_name", "mail_mode", "vacation_until", "created_at")


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "number", "index", "player", "status", "joined_at")
    list_filter = ("status",)
    search_fields = ("=game__id", "player__email")
    exclude = ("token",)
    readonly_fields = ("game", "number", "index", "player", "status", "last_mailed_version", "joined_at")

    @admin.display(description=_l("seat"))
    def number(self, seat: Seat) -> str:
        return _seat_number(seat.index)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "number", "seat_number", "source", "version", "created_at", "undone_at")
    list_filter = ("source", ("undone_at", admin.EmptyFieldListFilter))
    search_fields = ("=game__id",)
    readonly_fields = ("game", "number", "seat_number", "move", "source", "version", "stored_events", "created_at",
                       "undone_at", "undone_version")

    @admin.display(description=_l("seat"))
    def seat_number(self, row: Move) -> str:
        return _seat_number(row.seat)

    @admin.display(description=_l("events"))
    def stored_events(self, row: Move) -> str:
        """The events as JSON text, as a JSON field shows (they are stored deflated: migration 0027)."""
        return json.dumps(row.events, ensure_ascii=False)


@admin.register(MoveRequest)
class MoveRequestAdmin(ReadOnlyAdmin):
    list_display = ("id", "game", "player", "status", "result_version", "created_at", "decided_at")
    list_filter = ("status",)
    search_fields = ("=game__id", "player__email")
    readonly_fields = ("game", "player", "commands", "expected_version", "status", "reason", "result_version",
                       "created_at", "decided_at")


@admin.register(InboundMessage)
class InboundMessageAdmin(ReadOnlyAdmin):
    list_display = ("id", "message_id", "mail_from", "status", "game", "received_at")  # no rcpt_to: it holds a token
    list_filter = ("status",)
    search_fields = ("message_id", "mail_from")
    exclude = ("raw", "rcpt_to")
    readonly_fields = ("message_id", "mail_from", "status", "result", "game", "received_at", "processed_at",
                       "raw_text")

    @admin.display(description=_l("raw mail"))
    def raw_text(self, msg: InboundMessage) -> str:
        raw = bytes(msg.raw or b"")
        text = _SEAT_ADDRESS.sub(gettext("seat-(token hidden)@"), raw[:20000].decode("utf-8", errors="replace"))
        return format_html("<pre style='white-space: pre-wrap'>{}</pre>", text)


@admin.register(OutboundMessage)
class OutboundMessageAdmin(ReadOnlyAdmin):
    list_display = ("id", "to_email", "subject", "status", "attempts", "game", "created_at", "sent_at")
    list_filter = ("status",)
    search_fields = ("to_email", "subject", "=game__id")
    # headers hold the Reply-To address with the seat token: not shown.
    exclude = ("headers", "svg", "content", "body_text", "body_html")
    readonly_fields = ("game", "player", "to_email", "subject", "mail_text", "status", "attempts",
                       "claimed_at", "sent_at", "last_error", "created_at")

    @admin.display(description=_l("text"))
    def mail_text(self, row: OutboundMessage) -> str:
        """The mail's text as it is (or was) sent: composed from its content for an update mail."""
        from pbem.mail import sending

        if row.pruned_at is not None:
            return gettext("(pruned after the retention period)")
        try:
            text = sending.bodies(row).text
        except Exception as exc:  # noqa: BLE001 - the page shows the row whatever its content
            return gettext("(cannot be composed: %(error)s)") % {"error": type(exc).__name__}
        return format_html("<pre style='white-space: pre-wrap'>{}</pre>", text)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ("id", "created_at", "game", "actor", "action", "reason")
    list_filter = ("action",)
    search_fields = ("=game__id", "actor__email", "action")
    readonly_fields = ("game", "actor", "action", "details", "created_at")

    @admin.display(description=_l("reason"))
    def reason(self, entry: AuditEntry) -> str:
        return str((entry.details or {}).get("reason", ""))


admin.site.register(Campaign, campaign_admin.CampaignAdmin)


@admin.register(MailAddress)
class MailAddressAdmin(ReadOnlyAdmin):
    list_display = ("email", "bounce_score", "bounce_kind", "bounce_at", "disabled_at", "answers_held")
    list_filter = ("bounce_kind", ("disabled_at", admin.EmptyFieldListFilter))
    search_fields = ("email",)
    readonly_fields = ("email", "answers_held", "held_since", "bounce_score", "bounce_at", "bounce_kind",
                       "bounce_detail", "disabled_at")
