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

import engine
from pbem.games import campaign_selectors, campaigns, moderators, services
from pbem.games.models import Campaign, CampaignEntry, CampaignSeat, Game, Player


def _moderator(request: HttpRequest) -> Player | None:
    return moderators.do_moderator_profile(request.user) if request.user.is_staff else None


class NewCampaignForm(forms.Form):
    name = forms.CharField(max_length=100)
    rules = forms.ChoiceField(choices=())
    players = forms.CharField(widget=forms.Textarea(attrs={"rows": 4}),
                              help_text="The group's addresses, one a line, in seat order (accounts are made "
                                        "for new ones). They are seated directly and the first game starts now.")
    options = forms.CharField(required=False, initial="{}", help_text="The game's options as JSON, "
                              "e.g. {\"rounds\": 4}; a game that plays campaigns gets campaign=yes.")
    games = forms.IntegerField(required=False, min_value=1, max_value=campaigns.MAX_GAMES,
                               help_text="How many games (empty: until the story ends; 3 for a game without "
                                         "campaigns).")
    deadline_hours = forms.IntegerField(initial=72, min_value=1, max_value=24 * 60)
    auto_next = forms.BooleanField(required=False, initial=True,
                                   help_text="Set up the next game as soon as one ends.")
    archive = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}),
                              help_text="To continue a campaign begun elsewhere: its exported archive (JSON).")

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
            raise forms.ValidationError(f"not JSON: {exc}") from None


class HandoverForm(forms.Form):
    seat = forms.TypedChoiceField(coerce=int, choices=())
    email = forms.EmailField(help_text="The new player's address; an account is made if there is none.")
    name = forms.CharField(max_length=60, required=False)
    reason = forms.CharField(max_length=200, help_text="Kept in the campaign's log.")

    def __init__(self, *args: Any, seats: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["seat"].choices = seats  # type: ignore[attr-defined]


class ReasonForm(forms.Form):
    reason = forms.CharField(max_length=200, help_text="Kept in the campaign's log.")


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
    list_display = ("id", "name", "rules", "status", "games_played", "created_by", "created_at")
    list_filter = ("status", "rules")
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

    @admin.display(description="games")
    def games_played(self, campaign: Campaign) -> int:
        return campaign.games.count()

    @admin.display(description="moderator's tools")
    def tools(self, campaign: Campaign) -> str:
        rows = campaign_selectors.campaign_games(campaign)
        games = format_html_join(" ", '<a href="{}">#{}</a>',
                                 ((reverse("admin:games_game_change", args=[g.pk]), g.pk) for g in rows))
        return format_html('<a href="{}">set up the next game</a> · <a href="{}">hand a seat over</a> · '
                           '<a href="{}">end the campaign</a> · <a href="{}">export the archive</a> · '
                           '<a href="/campaigns/{}/">its page</a> · games: {}',
                           reverse("admin:games_campaign_next", args=[campaign.pk]),
                           reverse("admin:games_campaign_handover", args=[campaign.pk]),
                           reverse("admin:games_campaign_end", args=[campaign.pk]),
                           reverse("admin:games_campaign_archive", args=[campaign.pk]), campaign.pk,
                           games or "none")

    def changelist_view(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> HttpResponse:
        extra = {**(extra_context or {}), "title": "Campaigns (new one: /admin/games/campaign/new/)"}
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
                    raise services.Forbidden("this staff account has no player profile (its address is a player's)")
                campaign, game = campaigns.do_create_campaign(
                    moderator, d["rules"], name=d["name"], options=d["options"], games=d["games"],
                    players=[line.strip() for line in d["players"].splitlines() if line.strip()],
                    deadline_hours=d["deadline_hours"], auto_next=d["auto_next"], archive=d["archive"])
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return self._done(request, campaign.pk, f"Campaign #{campaign.pk} created; game #{game.pk} started.")
        return self._page(request, "New campaign", form, "A series of games of one group; each next game is set "
                          "up from the last one's archive. The moderator runs it and does not play.", "Create")

    def next_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        form = forms.Form(request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                game = campaigns.do_next_game(campaign.pk, _moderator(request))
            except services.ServiceError as exc:
                form.add_error(None, exc.message)
            else:
                return self._done(request, campaign.pk, f"Game {game.campaign_number} set up as game #{game.pk}.")
        return self._page(request, f"Next game of campaign #{campaign.pk}", form,
                          "The group is seated seat for seat and the game set up from the archive.", "Set it up")

    def handover_view(self, request: HttpRequest, campaign_id: int) -> HttpResponse:
        campaign = get_object_or_404(Campaign, pk=campaign_id)
        seats = [(seat, f"seat {seat + 1}: {name}") for seat, _p, name in campaign_selectors.group(campaign)]
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
                return self._done(request, campaign.pk, f"Seat {seat} passes to {d['email']} from the next game.")
        running = campaign.games.filter(status=Game.Status.RUNNING).first()
        note = (f" Game #{running.pk} is under way: it keeps its player (replace one there from the game's page)."
                if running else "")
        return self._page(request, f"Hand a seat of campaign #{campaign.pk} over", form,
                          "The seat is the new player's from the campaign's next game on; they get the story so "
                          f"far by mail. Logged with the reason.{note}", "Hand it over")

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
                return self._done(request, campaign.pk, f"Campaign #{campaign.pk} is over.")
        return self._page(request, f"End campaign #{campaign.pk}", end, "No game follows; a game under way plays on.",
                          "End it")
