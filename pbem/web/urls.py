from __future__ import annotations

from django.urls import path

from pbem.web import campaigns, personal, views

app_name = "web"

urlpatterns = [
    path("", views.home, name="home"),
    path("favicon.ico", views.favicon),
    path("favicon.svg", views.favicon, name="favicon"),
    path("p/<str:token>/", personal.seat_page, name="seat"),
    path("p/<str:token>/say/", personal.seat_say, name="seat-say"),
    path("p/<str:token>/turn/", personal.seat_turn, name="seat-turn"),
    path("p/<str:token>/undo/", personal.seat_undo, name="seat-undo"),
    path("assets/htmx.min.js", views.htmx_js, name="htmx-js"),
    path("p/<str:token>/moderator/", personal.seat_to_moderator, name="seat-moderator"),
    path("p/<str:token>/revoke/", personal.seat_revoke, name="seat-revoke"),
    path("p/<str:token>/mail-on/", personal.seat_mail_on, name="seat-mail-on"),
    path("p/<str:token>/board.svg", personal.seat_board, name="seat-board"),
    path("p/<str:token>/version", personal.seat_version, name="seat-version"),
    path("p/<str:token>/games/", personal.seat_dashboard, name="seat-games"),
    path("games/", views.game_list, name="game-list"),
    path("games/<int:game_id>/", views.game_page, name="game"),
    path("campaigns/<int:campaign_id>/", campaigns.campaign_page, name="campaign"),
    path("p/<str:token>/rematch/", campaigns.seat_rematch, name="seat-rematch"),
]
