"""The admin's campaign pages (issue 23): browse campaigns with their group, games and log, and the
moderator's forms (a new campaign with its group seated, the next game, a seat handed over, the
end), each one service call of pbem.games.campaigns. Registered by pbem/games/admin.py."""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _l

import engine
from pbem.games import campaign_selectors, campaigns, moderators, services
from pbem.games.models import Campaign, CampaignEntry, CampaignSeat, Game, Player


def _moderator(request: HttpRequest) -> Player | None:
    return moderators.do_moderator_profile(request.user) if request.user.is_staff else None


#: the list filters' titles in the reader's language (a model field's own name is English: the models'
#: fields carry no translated verbose name, which would need a migration each)
FILTER_TITLES: dict[str, Any] = {"status": _l("status"), "rules": _l("game"),
                                 "no_move_policy": _l("when a player does not move")}


class TitledChoicesFilter(admin.ChoicesFieldListFilter):
    def __init__(self, field: Any, request: HttpRequest, params: Any, model: Any, model_admin: Any,
                 field_path: str) -> None:
        super().__init__(field, request, params, model, model_admin, field_path)
        self.title = str(FILTER_TITLES.get(field_path, field_path))


class TitledValuesFilter(admin.AllValuesFieldListFilter):
    def __init__(self, field: Any, request: HttpRequest, params: Any, model: Any, model_admin: Any,
                 field_path: str) -> None:
        super().__init__(field, request, params, model, model_admin, field_path)
        self.title = str(FILTER_TITLES.get(field_path, field_path))


class NewCampaignForm(forms.Form):
    name = forms.CharField(label=_l("Name"), max_length=100)
    rules = forms.ChoiceField(label=_l("Game"), choices=())
    players = forms.CharField(label=_l("Players"), widget=forms.Textarea(attrs={"rows": 4}),
                              help_text=_l("The group's addresses, one a line, in seat order (accounts are made "
                                           "for new ones). They are seated directly and the first game starts now."))
    options = forms.CharField(label=_l("Options"), required=False, initial="{}", help_text=_l(
        "The game's options as JSON, e.g. {\"rounds\": 4}; a game that plays campaigns gets campaign=yes."))
    games = forms.IntegerField(label=_l("Games"), required=False, min_value=1, max_value=campaigns.MAX_GAMES,
                               help_text=_l("How many games (empty: until the story ends; 3 for a game without "
                                            "campaigns)."))
    deadline_hours = forms.IntegerField(label=_l("Deadline (hours)"), initial=72, min_value=1, max_value=24 * 60)
    auto_next = forms.BooleanField(label=_l("Next game by itself"), required=False, initial=True,
                                   help_text=_l("Set up the next game as soon as one ends."))
    archive = forms.CharField(label=_l("Archive"), required=False, widget=forms.Textarea(attrs={"rows": 4}),
                              help_text=_l("To continue a campaign begun elsewhere: its exported archive (JSON)."))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["rules"].choices = [(n, n) for n in engine.names()]  # type: ignore[attr-defined]

    def clean_options(self) -> dict[str, Any]:
        return self._json("options") or {}

    def clean_archive(self) -> Any:
        return self._json("archive")

    def _json(self, field: str) -> Any:
        text = (self.cleaned_data.get(field) or "").strip()
        if not text:
            return None
        try:
            return json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(gettext("not JSON: %(error)s") % {"error": exc}) from None


class HandoverForm(forms.Form):
    seat = forms.TypedChoiceField(label=_l("Seat"), coerce=int, choices=())
    email = forms.EmailField(label=_l("Address"),
                             help_text=_l("The new player's address; an account is made if there is none."))
    name = forms.CharField(label=_l("Name"), max_length=60, required=False)
    reason = forms.CharField(label=_l("Reason"), max_length=200, help_text=_l("Kept in the campaign's log."))

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seats  # type: ignore[attr-defined]


class ReasonForm(forms.Form):
    reason = forms.CharField(label=_l("Reason"), max_length=200, help_text=_l("Kept in the campaign's log."))


class CampaignSeatInline(admin.TabularInline):
    model = CampaignSeat
    fields = ("index", "player", "since")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CampaignEntryInline(admin.TabularInline):
    model = CampaignEntry
    fields = ("created_at", "action", "game", "actor", "details")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CampaignAdmin(admin.ModelAdmin):
    list_display = ("id", "campaign_name", "campaign_rules", "campaign_status", "games_played", "campaign_created_by",
                    "campaign_created_at")
    list_filter = (("status", TitledChoicesFilter), ("rules", TitledValuesFilter))

    @admin.display(description=_l("name"), ordering="name")
    def campaign_name(self, campaign: Campaign) -> str:
        return campaign.name

    @admin.display(description=_l("game"), ordering="rules")
    def campaign_rules(self, campaign: Campaign) -> str:
        return campaign.rules

    @admin.display(description=_l("status"), ordering="status")
    def campaign_status(self, campaign: Campaign) -> str:
        return str(campaign.get_status_display())

    @admin.display(description=_l("created by"), ordering="created_by")
    def campaign_created_by(self, campaign: Campaign) -> str:
        return str(campaign.created_by)

    @admin.display(description=_l("created"), ordering="created_at")
    def campaign_created_at(self, campaign: Campaign) -> Any:
        return campaign.created_at
    search_fields = ("name", "created_by__email")
    readonly_fields = ("name", "rules", "options", "status", "auto_next", "games_planned", "deadline_hours",
                       "created_by", "created_at", "finished_at", "carry", "tools")
    exclude = ()
    inlines = [CampaignSeatInline, CampaignEntryInline]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a new campaign is made by the form of new_view (the service), not by a row

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def get_queryset(self, request: HttpRequest) -> Any:
        return super().get_queryset(request).select_related("created_by")

    @admin.display(description=_l("games"))
    def games_played(self, campaign: Campaign) -> int:
        return campaign.games.count()

    @admin.display(description=_l("moderator's tools"))
    def tools(self, campaign: Campaign) -> str:
        rows = campaign_selectors.campaign_games(campaign)
        games = format_html_join(" ", '<a href="{}">#{}</a>',
                                 ((reverse("admin:games_game_change", args=[g.pk]), g.pk) for g in rows))
        return format_html('<a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a> · <a href="{}">{}</a> · '
                           '<a href="/campaigns/{}/">{}</a> · {} {}',
                           reverse("admin:games_campaign_next", args=[campaign.pk]), gettext("set up the next game"),
                           reverse("admin:games_campaign_handover", args=[campaign.pk]), gettext("hand a seat over"),
                           reverse("admin:games_campaign_end", args=[campaign.pk]), gettext("end the campaign"),
                           reverse("admin:games_campaign_archive", args=[campaign.pk]), gettext("export the archive"),
                           campaign.pk, gettext("its page"), gettext("games:"), games or gettext("none"))

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        extra = {**(extra_context or {}), "title": gettext("Campaigns (new one: /admin/games/campaign/new/)")}
        return super().changelist_view(request, extra)

    def get_urls(self) -> list[URLPattern]:
        view = self.admin_site.admin_view
        own = [path("new/", view(self.new_view), name="games_campaign_new"),
               path("<int:campaign_id>/next/", view(self.next_view), name="games_campaign_next"),
               path("<int:campaign_id>/handover/", view(self.handover_view), name="games_campaign_handover"),
               path("<int:campaign_id>/end/", view(self.end_view), name="games_campaign_end"),
               path("<int:campaign_id>/archive/", view(self.archive_view), name="games_campaign_archive")]
        return own + super().get_urls()

    def _page(self, request: HttpRequest, title: str, form: forms.Form, intro: str, button: str) -> HttpResponse:
        context = {**self.admin_site.each_context(request), "title": title, "form": form, "intro": intro,
                   "button": button, "opts": self.model._meta}
        return TemplateResponse(request, "admin/games/campaign_form.html", context)

    def _done(self, request: HttpRequest, campaign_id: int, text: str) -> HttpResponse:
        self.message_user(request, text, messages.SUCCESS)
        return HttpResponseRedirect(reverse("admin:games_campaign_change", args=[campaign_id]))

    def new_view(self, request: HttpRequest) -> HttpResponse:
        """A campaign a moderator runs: the group seated directly, its first game started."""
        form = NewCampaignForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            moderator = _moderator(request)
            try:
                if moderator is None:
                    raise services.Forbidden(gettext("this staff account has no player profile (its address is a "
                                                     "player's)"))
                campaign, game = campaigns.do_create_campaign(
                    moderator, d["rules"], name=d["name"], options=d["options"], games=d["games"],
                    players=[line.strip() for line in d["players"].splitlines() if line.strip()],
                    deadline_hours=d["deadline_hours"], auto_next=d["auto_next"], archive=d["archive"])
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return self._done(request, campaign.pk, gettext("Campaign #%(c)s created; game #%(g)s started.") % {
                    "c": campaign.pk, "g": game.pk})
        return self._page(request, gettext("New campaign"), form, gettext(
            "A series of games of one group; each next game is set up from the last one's archive. The moderator "
            "runs it and does not play."), gettext("Create"))

    def next_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        form = forms.Form(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                game = campaigns.do_next_game(campaign.pk, _moderator(request))
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return self._done(request, campaign.pk, gettext("Game %(n)s set up as game #%(g)s.") % {
                    "n": game.campaign_number, "g": game.pk})
        return self._page(request, gettext("Next game of campaign #%(c)s") % {"c": campaign.pk}, form,
                          gettext("The group is seated seat for seat and the game set up from the archive."),
                          gettext("Set it up"))

    def handover_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        seats = [(seat, gettext("seat %(n)s: %(name)s") % {"n": seat + 1, "name": name})
                 for seat, _p, name in campaign_selectors.group(campaign)]
        form = HandoverForm(request.POST if request.method == "POST" else None, seats=seats)
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            try:
                campaigns.do_hand_over_seat(campaign.pk, _moderator(request), int(d["seat"]), d["email"],
                                            d["reason"], name=d["name"])
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                seat = int(d["seat"]) + 1  # (people count seats from 1)
                return self._done(request, campaign.pk, gettext("Seat %(seat)s passes to %(email)s from the next "
                                                                "game.") % {"seat": seat, "email": d["email"]})
        running = campaign.games.filter(status=Game.Status.RUNNING).first()
        note = (" " + gettext("Game #%(g)s is under way: it keeps its player (replace one there from the game's "
                              "page).") % {"g": running.pk} if running else "")
        return self._page(request, gettext("Hand a seat of campaign #%(c)s over") % {"c": campaign.pk}, form,
                          gettext("The seat is the new player's from the campaign's next game on; they get the story "
                                  "so far by mail. Logged with the reason.") + note, gettext("Hand it over"))

    def archive_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        """The archive as a JSON file, to continue the campaign elsewhere (#23: the admin showed it only as
        a field to copy, and that read was not logged): the service's export, logged as the API's is."""
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        try:
            archive = campaigns.access_archive(campaign.pk, _moderator(request))
        except services.ServiceError as exc:
            self.message_user(request, exc.message, messages.ERROR)
            return HttpResponseRedirect(reverse("admin:games_campaign_change", args=[campaign.pk]))
        answer = JsonResponse(archive, json_dumps_params={"indent": 1, "sort_keys": True})
        answer["Content-Disposition"] = f'attachment; filename="campaign-{campaign.pk}-archive.json"'
        return answer

    def end_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        end = ReasonForm(request.POST if request.method == "POST" else None)
        if request.method == "POST" and end.is_valid():
            try:
                campaigns.do_end_campaign(campaign.pk, _moderator(request), end.cleaned_data["reason"])
            except services.ServiceError as exc:
                end.add_error(None, exc.message)
            else:
                return self._done(request, campaign.pk, gettext("Campaign #%(c)s is over.") % {"c": campaign.pk})
        return self._page(request, gettext("End campaign #%(c)s") % {"c": campaign.pk}, end,
                          gettext("No game follows; a game under way plays on."), gettext("End it"))
