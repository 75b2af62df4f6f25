"""The API's doors to campaigns and rematches (issue 23): one service or selector call per view
(pbem/games/campaigns.py, pbem/games/campaign_selectors.py)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from pbem.api import serializers as s
from pbem.api.pagination import GamePagination
from pbem.api.permissions import HasPlayer, player_of
from pbem.api.views import GAME_ID, PAGE_PARAMETERS, BaseApi, _errors, _game_response, _GameActionApi
from pbem.games import campaign_selectors, campaigns, moderators

CAMPAIGN_ID = OpenApiParameter("campaign_id", int, OpenApiParameter.PATH, description="the campaign's id")

# ---- serializers -------------------------------------------------------------------------------


class ArchiveField(serializers.DictField):
    """A campaign archive: the engine's JSON (``format`` "pbem-campaign", ``version``, ``rules``,
    ``game``, ``seats`` and the game's own data)."""


class ArchiveOut(serializers.Serializer):
    """The envelope every archive has (``engine.core.Rules.archive``); the game's own data beside it."""

    format = serializers.CharField(help_text='always "pbem-campaign"')
    version = serializers.IntegerField(min_value=1, help_text="the archive format's version (1)")
    rules = serializers.CharField(help_text="the game (a name from /rules/)")
    game = serializers.IntegerField(min_value=1, help_text="games played so far")
    seats = serializers.ListField(child=serializers.CharField(), help_text="the players' names in seat order")


class CampaignCreateIn(serializers.Serializer):
    rules = s.Text(max_length=40, help_text="a name from /api/v1/rules/")
    name = s.Text(required=False, default="", allow_blank=True, max_length=100)
    options = serializers.DictField(required=False, default=dict,
                                    help_text="game options for every game of the campaign (see the rules' schema); "
                                              "a game that plays campaigns gets campaign=yes")
    invite = serializers.ListField(child=serializers.EmailField(), required=False, default=list, max_length=10,
                                   help_text="you take seat 0; these addresses are invited to the first game, "
                                             "seats 1, 2... in this order")
    players = serializers.ListField(child=serializers.EmailField(), required=False, default=list, max_length=10,
                                    help_text="moderators only, instead of invite: the group seated directly in "
                                              "this order (the moderator does not play); the first game starts now")
    games = serializers.IntegerField(required=False, default=None, allow_null=True, min_value=1,
                                     max_value=campaigns.MAX_GAMES,
                                     help_text="how many games (null: until the story ends; 3 for a series of a "
                                               "game without campaigns)")
    deadline_hours = serializers.IntegerField(required=False, default=72, min_value=1, max_value=24 * 60)
    auto_next = serializers.BooleanField(required=False, default=True,
                                         help_text="set up the next game as soon as one ends (else a moderator does)")
    archive = ArchiveField(required=False, default=None, allow_null=True,
                           help_text="continue a campaign from its exported archive (GET .../archive/); checked "
                                     "by the game's engine, a 422 names what is wrong")


#: the API's seats are indexes (people count from 1: the page, the mails, ``campaign #N seat K``)
SEAT_HELP = "the seat's index, from 0 (the campaign's page, mails and mail commands count seats from 1)"


class StandingOut(serializers.Serializer):
    seat = serializers.IntegerField(help_text=SEAT_HELP)
    name = serializers.CharField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    total = serializers.FloatField(help_text="the seat's scores added over the campaign's finished games")
    scores = serializers.DictField(child=serializers.JSONField(), help_text="game number -> this seat's score")
    before = serializers.ListField(child=serializers.CharField(), help_text="earlier holders of the seat")


class CampaignGameOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(allow_null=True)
    title = serializers.CharField()
    status = serializers.CharField()
    winners = serializers.ListField(child=serializers.CharField())


class CampaignSeatOut(serializers.Serializer):
    seat = serializers.IntegerField(help_text=SEAT_HELP)
    name = serializers.CharField()


class CampaignStoryOut(serializers.Serializer):
    action = serializers.CharField(help_text="created, imported, next, finished, handover, exported, ended")
    game = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField()
    text = serializers.CharField()


class CampaignOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    rules = serializers.CharField()
    options = serializers.DictField()
    status = serializers.CharField(help_text="running or finished")
    auto_next = serializers.BooleanField()
    games_planned = serializers.IntegerField(allow_null=True)
    created_by = serializers.CharField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    group = CampaignSeatOut(many=True)
    games = CampaignGameOut(many=True)
    standings = StandingOut(many=True, help_text="most wins first, then the highest total")
    story = CampaignStoryOut(many=True, help_text="the campaign's log: games set up and ended (with what their "
                                                  "story did and the votes), seats handed over")
    has_archive = serializers.BooleanField(help_text="whether GET .../archive/ has an archive to give")


class CampaignListOut(serializers.Serializer):
    count = serializers.IntegerField(allow_null=True, help_text="the list's length when this page shows all of it; "
                                                                "else null (no list is counted whole)")
    next = serializers.CharField(allow_null=True, help_text="the next (older) page, by cursor")
    previous = serializers.CharField(allow_null=True, help_text="the page before (newer), by cursor")
    results = CampaignOut(many=True)


class CampaignReasonIn(serializers.Serializer):
    # Why not trimmed here: a reason of control characters only is the service's to refuse (a 422
    # that says why), as a blank one; trimmed, it was a 400 for a request the schema allows
    reason = s.ReasonField(trim_whitespace=False, help_text="why; kept in the campaign's log (control characters "
                                                            "become spaces)")


class HandoverIn(CampaignReasonIn):
    seat = serializers.IntegerField(min_value=0, max_value=20, help_text="the campaign seat to hand over: "
                                    + SEAT_HELP)
    email = serializers.EmailField(help_text="the new player's address (an account is made if needed)")
    name = s.Text(required=False, default="", allow_blank=True, max_length=60,
                  help_text="the new player's name, if they have no account yet")


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    body = serializer_class(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


def _campaign(campaign_id: int, code: int = status.HTTP_200_OK) -> Response:
    data = campaign_selectors.campaign_data(campaigns.access_campaign(campaign_id))
    return Response(CampaignOut(data).data, status=code)


class _CampaignApi(BaseApi):
    @property
    def acting(self) -> Any:
        """The player acting: their profile, or a staff account's (made if it has none)."""
        return player_of(self.request) or moderators.do_moderator_profile(self.request.user)


# ---- views ---------------------------------------------------------------------------------------


class CampaignListApi(_CampaignApi):
    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [HasPlayer()]

    @extend_schema(operation_id="campaigns_list", summary="Your campaigns (a moderator: every campaign)",
                   description="Newest first, in keyset pages (`limit`, then `next`/`previous`), as the game lists.",
                   parameters=PAGE_PARAMETERS, responses={200: CampaignListOut, **_errors(400, 401)})
    def get(self, request: Request) -> Response:
        rows = campaign_selectors.campaign_list(self.player, staff=bool(request.user and request.user.is_staff))
        paginator = GamePagination()
        page = paginator.paginate_rows(rows, request)
        data = [campaign_selectors.campaign_data(c) for c in page]
        return paginator.get_paginated_response(CampaignOut(data, many=True).data)

    @extend_schema(operation_id="campaigns_create", summary="Create a campaign, or import one from its archive",
                   description="A series of games of one group: the first game is created now (invitations sent, "
                               "or, for a moderator's `players`, started at once); each next game is set up from "
                               "the archive of the one before when it ends. With `archive`, the campaign goes on "
                               "from an exported archive (seat i of the archive is the i-th player); an archive "
                               "the engine cannot continue is refused with a 422 that names what is wrong.",
                   request=CampaignCreateIn, responses={201: CampaignOut, **_errors(400, 401, 403, 429)})
    def post(self, request: Request) -> Response:
        d = _valid(CampaignCreateIn, request)
        campaign, _game = campaigns.do_create_campaign(
            self.acting, d["rules"], name=d["name"], options=d["options"], invite=d["invite"], players=d["players"],
            games=d["games"], deadline_hours=d["deadline_hours"], auto_next=d["auto_next"], archive=d["archive"])
        return _campaign(campaign.pk, status.HTTP_201_CREATED)


class CampaignDetailApi(_CampaignApi):
    permission_classes = [AllowAny]

    @extend_schema(operation_id="campaigns_retrieve", summary="A campaign: its group, games, standings and story",
                   parameters=[CAMPAIGN_ID], responses={200: CampaignOut, **_errors(404)})
    def get(self, request: Request, campaign_id: int) -> Response:
        return _campaign(campaign_id)


class CampaignArchiveApi(_CampaignApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="campaigns_archive", summary="The campaign's archive, to continue it elsewhere",
                   description="The JSON the next game is set up from (`format` \"pbem-campaign\", `version`, "
                               "`rules`, `game` (games played), `seats` and the game's own data): import it with "
                               "POST /campaigns/ `archive`. For the campaign's players and moderators only (it may "
                               "hold what no player has seen yet, as the game box does), and for a former member "
                               "once the campaign is over; each export is logged. "
                               "409 while no game of it has ended, or for a game without campaigns.",
                   parameters=[CAMPAIGN_ID], responses={200: ArchiveOut, **_errors(401, 403, 404, 409)})
    def get(self, request: Request, campaign_id: int) -> Response:
        return Response(campaigns.access_archive(campaign_id, self.acting))


class CampaignNextApi(_CampaignApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="campaigns_next", summary="Creator or moderator: set up the campaign's next game now",
                   description="For a campaign that does not set up its next game by itself (auto_next false), or "
                               "after a game was aborted. 409 while a game of it is under way or once it is over.",
                   request=None, parameters=[CAMPAIGN_ID], responses={201: s.GameOut, **_errors(401, 403, 404, 409)})
    def post(self, request: Request, campaign_id: int) -> Response:
        game = campaigns.do_next_game(campaign_id, self.acting)
        return _game_response(request, game.pk, self.player, status.HTTP_201_CREATED)


class CampaignHandoverApi(_CampaignApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="campaigns_handover", summary="Creator or moderator: a seat changes hands",
                   description="From the campaign's next game on, the seat is the new player's (a game under way "
                               "keeps its player; a moderator replaces one there with /games/{id}/replace/). "
                               "Logged with the reason; the newcomer is mailed the story so far.",
                   request=HandoverIn, parameters=[CAMPAIGN_ID],
                   responses={200: CampaignOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, campaign_id: int) -> Response:
        d = _valid(HandoverIn, request)
        campaigns.do_hand_over_seat(campaign_id, self.acting, d["seat"], d["email"], d["reason"], name=d["name"])
        return _campaign(campaign_id)


class CampaignEndApi(_CampaignApi):
    permission_classes = [HasPlayer]

    @extend_schema(operation_id="campaigns_end", summary="Creator or moderator: end the campaign (no game follows)",
                   request=CampaignReasonIn, parameters=[CAMPAIGN_ID],
                   responses={200: CampaignOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, campaign_id: int) -> Response:
        d = _valid(CampaignReasonIn, request)
        campaigns.do_end_campaign(campaign_id, self.acting, d["reason"])
        return _campaign(campaign_id)


class GameRematchApi(_GameActionApi):
    @extend_schema(operation_id="games_rematch", summary="A rematch: the same group and options again",
                   description="For a player of a finished game (not a campaign's): a new game where you sit first "
                               "and the game's other players are invited in their order; it starts when they have "
                               "joined. One rematch a game: 409 names the one made already.",
                   request=None, parameters=[GAME_ID], responses={201: s.GameOut, **_errors(401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        game = campaigns.do_rematch(game_id, self.require_player())
        response = _game_response(request, game.pk, self.player, status.HTTP_201_CREATED)
        response["Location"] = response.data["links"]["self"]
        return response
