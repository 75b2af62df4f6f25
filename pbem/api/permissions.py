"""Who may call what. Seat-level checks (is this your game?) live in the services' ``access_`` helpers."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from pbem.games.models import Player


def player_of(request: Request) -> Player | None:
    """The requesting user's player profile, or None for anonymous users and staff without one."""
    user = request.user
    if not user or not user.is_authenticated:
        return None
    try:
        # Why the relation, not a query: it is free when the authentication loaded the player
        # with the user (select_related), and one query otherwise, as before.
        return user.player
    except Player.DoesNotExist:
        return None


class HasPlayer(BasePermission):
    """Authenticated and has a player profile (an admin account alone cannot play)."""

    message = "this account has no player profile; create one with `manage.py player create`"

    def has_permission(self, request: Request, view: Any) -> bool:
        if not request.user or not request.user.is_authenticated:
            return False
        return player_of(request) is not None


class IsGameModerator(BasePermission):
    """A moderator of the game in the URL: a staff account, or a moderator assigned to that game
    (pbem.games.moderators); without a game in the URL, staff only."""

    message = "only moderators (staff accounts, or the game's assigned moderators) may do this"

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        if not user or not user.is_authenticated:
            return False
        if user.is_staff:
            return True
        game_id = getattr(view, "kwargs", {}).get("game_id")
        player = player_of(request)
        return game_id is not None and player is not None and \
            player.moderated.filter(game_id=game_id).exists()


class IsStaff(BasePermission):
    """A moderator: a Django staff account (it need not have a player profile)."""

    message = "only moderators (staff accounts) may do this"

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and user.is_staff)
