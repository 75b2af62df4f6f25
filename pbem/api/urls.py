"""Routes under ``/api/v1/``.

The event streams and the move post go through :func:`pbem.api.aio.async_door`: under ASGI
they wait (for new events, for a decision) on the event loop instead of in a worker.
"""

from __future__ import annotations

from django.urls import path

from pbem.api import campaign_views, moderation_views, views
from pbem.api.aio import async_door

app_name = "api"

urlpatterns = [
    path("games/", views.GameListApi.as_view(), name="game-list"),
    path("games/<int:game_id>/", views.GameDetailApi.as_view(), name="game-detail"),
    path("games/<int:game_id>/join/", views.GameJoinApi.as_view(), name="game-join"),
    path("games/<int:game_id>/decline/", views.GameDeclineApi.as_view(), name="game-decline"),
    path("games/<int:game_id>/leave/", views.GameLeaveApi.as_view(), name="game-leave"),
    path("games/<int:game_id>/resign/", views.GameResignApi.as_view(), name="game-resign"),
    path("games/<int:game_id>/undo/", views.GameUndoApi.as_view(), name="game-undo"),
    path("games/<int:game_id>/pause/", views.GamePauseApi.as_view(), name="game-pause"),
    path("games/<int:game_id>/resume/", views.GameResumeApi.as_view(), name="game-resume"),
    path("games/<int:game_id>/replace/", views.GameReplaceApi.as_view(), name="game-replace"),
    path("games/<int:game_id>/audit/", views.GameAuditApi.as_view(), name="game-audit"),
    path("games/<int:game_id>/extend-deadline/", moderation_views.GameExtendDeadlineApi.as_view(),
         name="game-extend-deadline"),
    path("games/<int:game_id>/message/", moderation_views.GameMessageApi.as_view(), name="game-message"),
    path("games/<int:game_id>/move-for-seat/", moderation_views.GameMoveForSeatApi.as_view(),
         name="game-move-for-seat"),
    path("games/<int:game_id>/rollback/", moderation_views.GameRollbackApi.as_view(), name="game-rollback"),
    path("games/<int:game_id>/abort/", moderation_views.GameAbortApi.as_view(), name="game-abort"),
    path("games/<int:game_id>/policy/", moderation_views.GamePolicyApi.as_view(), name="game-policy"),
    path("games/<int:game_id>/late/", moderation_views.GameLateApi.as_view(), name="game-late"),
    path("games/<int:game_id>/moderators/", moderation_views.GameModeratorsApi.as_view(), name="game-moderators"),
    path("games/<int:game_id>/inspect/", moderation_views.GameInspectApi.as_view(), name="game-inspect"),
    path("games/<int:game_id>/absence/", moderation_views.GameAbsenceApi.as_view(), name="game-absence"),
    path("games/<int:game_id>/extend/", moderation_views.GameExtendApi.as_view(), name="game-extend"),
    path("me/vacation/", moderation_views.VacationApi.as_view(), name="me-vacation"),
    path("games/<int:game_id>/view/", views.GameViewApi.as_view(), name="game-view"),
    path("games/<int:game_id>/board.svg", views.GameBoardSvgApi.as_view(), name="game-board-svg"),
    path("games/<int:game_id>/options/", views.GameOptionsApi.as_view(), name="game-options"),
    path("games/<int:game_id>/moves/", async_door(views.GameMovesApi.as_view()), name="game-moves"),
    path("games/<int:game_id>/log/", views.GameLogApi.as_view(), name="game-log"),
    path("games/<int:game_id>/stream/", async_door(views.GameStreamApi.as_view()), name="game-stream"),
    path("me/stream/", async_door(views.MyStreamApi.as_view()), name="me-stream"),
    path("me/webhooks/", views.WebhooksApi.as_view(), name="me-webhooks"),
    path("me/webhooks/<int:webhook_id>/", views.WebhookDetailApi.as_view(), name="me-webhook-detail"),
    path("games/<int:game_id>/export/", views.GameExportApi.as_view(), name="game-export"),
    path("games/<int:game_id>/rematch/", campaign_views.GameRematchApi.as_view(), name="game-rematch"),
    path("campaigns/", campaign_views.CampaignListApi.as_view(), name="campaign-list"),
    path("campaigns/<int:campaign_id>/", campaign_views.CampaignDetailApi.as_view(), name="campaign-detail"),
    path("campaigns/<int:campaign_id>/archive/", campaign_views.CampaignArchiveApi.as_view(), name="campaign-archive"),
    path("campaigns/<int:campaign_id>/next/", campaign_views.CampaignNextApi.as_view(), name="campaign-next"),
    path("campaigns/<int:campaign_id>/handover/", campaign_views.CampaignHandoverApi.as_view(),
         name="campaign-handover"),
    path("campaigns/<int:campaign_id>/end/", campaign_views.CampaignEndApi.as_view(), name="campaign-end"),
    path("move-requests/<int:request_id>/", views.MoveRequestDetailApi.as_view(), name="move-request-detail"),
    path("rules/", views.RulesListApi.as_view(), name="rules-list"),
    path("rules/<str:name>/", views.RulesDetailApi.as_view(), name="rules-detail"),
    path("rules/<str:name>/catalogue/", views.RulesCatalogueApi.as_view(), name="rules-catalogue"),
    path("me/", views.MeApi.as_view(), name="me"),
    path("me/games/", views.MyGamesApi.as_view(), name="me-games"),
    path("auth/token/", views.TokenApi.as_view(), name="auth-token"),
    path("auth/tokens/", views.AuthTokensApi.as_view(), name="auth-tokens"),
    path("auth/tokens/<int:token_id>/", views.AuthTokenDetailApi.as_view(), name="auth-token-detail"),
]
