from __future__ import annotations

from django.urls import path

from pbem.web import views

app_name = "web"

urlpatterns = [
    path("games/", views.game_list, name="game-list"),
    path("games/<int:game_id>/", views.game_page, name="game"),
]
