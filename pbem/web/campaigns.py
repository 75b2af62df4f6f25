"""Campaign pages and the rematch button (issue 23): one service or selector call per view."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from pbem.games import campaign_selectors, campaigns, language, links
from pbem.games.models import Player
from pbem.games.services import ServiceError

#: Largest id a path may name (beyond it the database would fail, not answer 404).
MAX_ID = 2**62


def campaign_page(request: HttpRequest, campaign_id: int) -> HttpResponse:
    """A campaign for anyone: its group, games, standings and story (what spectators may know)."""
    if campaign_id > MAX_ID:
        raise Http404("no such campaign")
    try:
        campaign = campaigns.access_campaign(campaign_id)
    except ServiceError:
        raise Http404("no such campaign") from None
    player = Player.objects.filter(user=request.user).first() if request.user.is_authenticated else None
    with language.speaking(language.of_visitor(player, request.META.get("HTTP_ACCEPT_LANGUAGE"))):
        return render(request, "web/campaign.html", {"campaign": campaign_selectors.campaign_data(campaign),
                                                     "game_name": campaign_selectors.game_name(campaign),
                                                     "story": campaign_selectors.story_so_far(campaign)})


@require_http_methods(["POST"])
def seat_rematch(request: HttpRequest, token: str) -> HttpResponse:
    """The rematch button of a finished game's personal page: the same group and options again."""
    seat = links.seat_for_page_token(token)
    if seat is None or seat.player is None:
        raise Http404("this link is not valid (any more): use the link in your newest mail")
    with language.speaking(language.of(seat.player)):
        try:
            game = campaigns.do_rematch(seat.game_id, seat.player)
        except ServiceError as exc:
            return render(request, "web/rematch.html", {"game": seat.game, "error": exc.message}, status=409)
        return render(request, "web/rematch.html", {"game": seat.game, "rematch": game})
