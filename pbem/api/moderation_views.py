"""The API's doors to moderation and absence: one service call per view (pbem/games/moderation.py).

Staff only: extend a deadline, message the players, move for a seat, roll back, abort, set a
game's deadline policy, list late players. Players: ask for an extension, set a vacation.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied
from rest_framework.request import Request
from rest_framework.response import Response

from pbem.api import serializers as s
from pbem.api.views import (
    GAME_ID,
    BaseApi,
    _errors,
    _game_response,
    _GameActionApi,
    _ModeratorApi,
    seated_before_the_start,
)
from pbem.games import moderation, moderators, selectors
from pbem.games.models import Game
from pbem.games.services import Command

# ---- serializers -------------------------------------------------------------------------------


#: what the seat fields' help adds: the API has the engine's indexes, people count from 1
FROM_0 = "(the pages, the mails and the moderator's commands count seats from 1: index 0 is seat 1)"


class ExtendDeadlineIn(s.ReasonIn):
    hours = serializers.IntegerField(min_value=1, max_value=24 * 90, help_text="hours added to the deadline")


class MessageIn(serializers.Serializer):
    text = s.Text(max_length=5000, help_text="mailed to every player of the game; audited")


class MoveForSeatIn(s.ReasonIn):
    seat = serializers.IntegerField(min_value=0, max_value=20, help_text=(
        "the index of the seat to move for, from 0 " + FROM_0))
    # Why min_length/max_length here and not in a validator: the schema then says it (minItems/maxItems).
    commands = serializers.ListField(child=s.CommandIn(), min_length=1, max_length=50,
                                     help_text="applied in order, as the seat's own batch would be (1 to 50)")


class RollbackIn(s.ReasonIn):
    to_move = serializers.IntegerField(min_value=0, help_text="the game is taken back to just after this move "
                                                              "number of /log/ (0: the start)")
    confirm_reveals = serializers.BooleanField(
        default=False, help_text="roll back past moves that revealed hidden information (409 without it): the "
                                 "same seed deals the same cards again, and the players are told so")


class PolicyIn(serializers.Serializer):
    no_move_policy = serializers.ChoiceField(choices=Game.NoMovePolicy.choices, required=False)
    deadline_hours = serializers.IntegerField(min_value=1, max_value=24 * 60, required=False)
    vacation_cap_days = serializers.IntegerField(min_value=0, max_value=365, required=False)
    absences_allowed = serializers.IntegerField(min_value=0, max_value=100, required=False, allow_null=True,
                                                help_text="absences (vacation holds) per seat; null: no limit")
    time_bank_hours = serializers.IntegerField(min_value=1, max_value=24 * 365, required=False, allow_null=True,
                                               help_text="a time bank per player for the whole game instead of a "
                                                         "deadline per move; null: the fixed deadline")
    time_bank_increment_hours = serializers.IntegerField(min_value=0, max_value=24 * 30, required=False,
                                                         help_text="hours each move adds to the player's bank")
    absence_max_days = serializers.IntegerField(min_value=1, max_value=365, required=False, allow_null=True,
                                                help_text="days one absence may hold a deadline; null: up to the cap")
    extensions_allowed = serializers.IntegerField(min_value=0, max_value=50, required=False)
    extension_hours = serializers.IntegerField(min_value=1, max_value=24 * 30, required=False)
    reason = s.ReasonField()


class LateSeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    name = serializers.CharField()
    email = serializers.CharField(help_text="staff only")
    waiting_since = serializers.DateTimeField(allow_null=True)
    deadline_at = serializers.DateTimeField(allow_null=True)
    reminded = serializers.BooleanField()
    on_vacation_until = serializers.DateTimeField(allow_null=True)
    extensions_used = serializers.IntegerField()
    status = serializers.CharField(help_text="joined, or open (offered for a replacement)")
    bank_left_seconds = serializers.IntegerField(allow_null=True, help_text="with time banks: the seconds left on "
                                                 "the seat's clock (its deadline_at is where it runs out); null "
                                                 "with a fixed deadline")
    clock = serializers.CharField(help_text="with time banks: the clock in words ('2 days 4 hours left, stopped: "
                                  "on vacation'); empty with a fixed deadline")


class LateListOut(serializers.Serializer):
    game = serializers.IntegerField()
    no_move_policy = serializers.CharField()
    results = LateSeatOut(many=True)


class ExtensionOut(serializers.Serializer):
    game = serializers.IntegerField()
    deadline_at = serializers.DateTimeField()
    extensions_left = serializers.IntegerField()


class VacationIn(serializers.Serializer):
    until = serializers.DateTimeField(allow_null=True, help_text="when you are back (ISO 8601); null ends it")


class VacationOut(serializers.Serializer):
    vacation_until = serializers.DateTimeField(allow_null=True)
    games = serializers.ListField(child=serializers.IntegerField(), help_text="running games that were told")


def _valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    body = serializer_class(data=request.data)
    body.is_valid(raise_exception=True)
    return dict(body.validated_data)


# ---- staff ---------------------------------------------------------------------------------------


class GameExtendDeadlineApi(_ModeratorApi):
    @extend_schema(operation_id="games_extend_deadline", summary="Moderators: extend the running deadline",
                   description="Every player is told the new deadline and the reason. Audited.",
                   request=ExtendDeadlineIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        d = _valid(ExtendDeadlineIn, request)
        moderation.do_extend_deadline(game_id, self.player, d["hours"], d["reason"])
        return _game_response(request, game_id, self.player)


class GameMessageApi(_ModeratorApi):
    @extend_schema(operation_id="games_message", summary="Moderators: a message to every player",
                   request=MessageIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        moderation.do_message_players(game_id, self.player, _valid(MessageIn, request)["text"])
        return _game_response(request, game_id, self.player)


class GameMoveForSeatApi(_ModeratorApi):
    @extend_schema(operation_id="games_move_for_seat", summary="Moderators: make a move for a seat",
                   description="Applied at once like the seat's own batch (422 with the options when refused); "
                               "the seat's player is told. Audited with the reason.",
                   request=MoveForSeatIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        d = _valid(MoveForSeatIn, request)
        commands = [Command.from_dict(c) for c in d["commands"]]
        moderation.do_move_for_seat(game_id, self.player, d["seat"], commands, d["reason"])
        return _game_response(request, game_id, self.player)


class GameRollbackApi(_ModeratorApi):
    @extend_schema(operation_id="games_rollback", summary="Moderators: take the game back to an earlier move",
                   description="Replayed from the seed; later moves stay in the database marked undone. Running "
                               "or paused games only. Every player gets a mail. Audited.",
                   request=RollbackIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        d = _valid(RollbackIn, request)
        moderation.do_rollback(game_id, self.player, d["to_move"], d["reason"], confirm_reveals=d["confirm_reveals"])
        return _game_response(request, game_id, self.player)


class GameAbortApi(_ModeratorApi):
    @extend_schema(operation_id="games_abort", summary="Moderators: end a game without a result",
                   request=s.ReasonIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        moderation.do_abort_game(game_id, self.player, _valid(s.ReasonIn, request)["reason"])
        return _game_response(request, game_id, self.player)


class GamePolicyApi(_ModeratorApi):
    @extend_schema(operation_id="games_policy", summary="Moderators: the game's deadline, policy and allowances",
                   description="The no-move policy (wait, default, bot, replace), the deadline period, the vacation "
                               "cap and the players' extensions. Players are told. Audited.",
                   request=PolicyIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        d = _valid(PolicyIn, request)
        reason = d.pop("reason")
        moderation.do_set_game_policy(game_id, self.player, d, reason)
        return _game_response(request, game_id, self.player)


class GameLateApi(_ModeratorApi):
    @extend_schema(operation_id="games_late", summary="Moderators: the seats the game waits on",
                   description="Oldest wait first, with deadline, reminder, vacation and extensions.",
                   parameters=[GAME_ID], responses={200: LateListOut, **_errors(401, 403, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        game = selectors.get_game(game_id)
        rows = [vars(r) for r in selectors.late_seats(game)]
        return Response(LateListOut({"game": game.pk, "no_move_policy": game.no_move_policy, "results": rows}).data)


class ModeratorIn(s.ReasonIn):
    email = serializers.EmailField(help_text="the moderator's address (an account is made if there is none)")
    lead = serializers.BooleanField(default=False, help_text="the lead moderator (else a co-moderator)")


class ModeratorOut(serializers.Serializer):
    email = serializers.CharField()
    name = serializers.CharField()
    lead = serializers.BooleanField()


class GameModeratorsApi(_ModeratorApi):
    @extend_schema(operation_id="games_moderators_list", summary="Moderators: the game's assigned moderators",
                   parameters=[GAME_ID], responses={200: ModeratorOut(many=True), **_errors(401, 403, 404)})
    def get(self, request: Request, game_id: int) -> Response:
        rows = selectors.get_game(game_id).moderators.select_related("player")
        return Response(ModeratorOut([{"email": m.player.email, "name": m.player.display_name, "lead": m.lead}
                                      for m in rows], many=True).data)

    @extend_schema(operation_id="games_moderators_assign", summary="Staff: assign a moderator to the game",
                   description="The lead (replacing the lead before, who stays a co-moderator) or a co-moderator. "
                               "They get their command address by mail; the players are told. Staff only. Audited.",
                   request=ModeratorIn, parameters=[GAME_ID],
                   responses={200: ModeratorOut(many=True), **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        if not request.user.is_staff:
            raise PermissionDenied("only staff accounts assign moderators")
        d = _valid(ModeratorIn, request)
        moderators.do_assign_moderator(game_id, self.player, d["email"], lead=d["lead"], reason=d["reason"])
        return self.get(request, game_id)


class InspectIn(s.ReasonIn):
    seat = serializers.IntegerField(min_value=0, max_value=20, help_text=(
        "the index of the seat whose hidden information to see, from 0 " + FROM_0))


class InspectOut(serializers.Serializer):
    game = serializers.IntegerField()
    seat = serializers.IntegerField()
    name = serializers.CharField()
    view = serializers.DictField(help_text="exactly what that seat may see")
    text = serializers.CharField(help_text="the same, as the seat's mail shows it")


class GameInspectApi(_ModeratorApi):
    @extend_schema(operation_id="games_inspect", summary="Moderators: see one seat's hidden information",
                   description="For a dispute: the seat's own view (its hand, its hidden cards). Needs a reason; "
                               "audited as `inspect`, and every player is told that it happened. A moderator's "
                               "other views are the spectator's.",
                   request=InspectIn, parameters=[GAME_ID],
                   responses={200: InspectOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        d = _valid(InspectIn, request)
        seen = moderators.do_inspect_seat(game_id, self.player, d["seat"], d["reason"])
        return Response(InspectOut({"game": seen.game.pk, "seat": seen.seat, "name": seen.name, "view": seen.view,
                                    "text": seen.text}).data)


class AbsenceIn(s.ReasonIn):
    seat = serializers.IntegerField(min_value=0, max_value=20, help_text=(
        "the index of the seat whose player is away, from 0 " + FROM_0))
    until = serializers.DateTimeField(allow_null=True, help_text="back then; null ends the absence")


class GameAbsenceApi(_ModeratorApi):
    @extend_schema(operation_id="games_absence", summary="Moderators: enter a player's absence",
                   description="For a player who told the moderator another way. A game's moderator enters it for this "
                               "game only (its deadline or the seat's clock waits as for a vacation); an admin (staff) "
                               "enters it as the player's own vacation, in all their running games. Within each "
                               "game's absence limits. The player and the others are told. Audited as `absence`.",
                   request=AbsenceIn, parameters=[GAME_ID],
                   responses={200: s.GameOut, **_errors(400, 401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        d = _valid(AbsenceIn, request)
        moderators.do_enter_absence(game_id, self.player, d["seat"], d["until"], d["reason"])
        return _game_response(request, game_id, self.player)


# ---- players ----------------------------------------------------------------------------------------


class GameExtendApi(_GameActionApi):
    @extend_schema(operation_id="games_extend", summary="Ask for more time on your turn",
                   description="Adds the game's extension hours to the deadline, a few times per game (the game "
                               "sets how many). The others are told. 409 when the game does not wait for you, "
                               "403 when your extensions are used up.",
                   request=None, parameters=[GAME_ID], responses={200: ExtensionOut, **_errors(401, 403, 404, 409)})
    def post(self, request: Request, game_id: int) -> Response:
        player = self.require_player()
        with seated_before_the_start(game_id, player):
            ext = moderation.do_request_extension(game_id, player, via="api")
        return Response(ExtensionOut({"game": ext.game.pk, "deadline_at": ext.until,
                                      "extensions_left": ext.left}).data)


class VacationApi(BaseApi):
    permission_classes = _GameActionApi.permission_classes

    @extend_schema(operation_id="me_vacation", summary="Set or end your vacation",
                   description="While it lasts, a deadline on your turn waits until you are back plus a day (in a "
                               "game with time banks, your own clock stops instead), up to each game's vacation "
                               "cap. The other players of your running games are told.",
                   request=VacationIn, responses={200: VacationOut, **_errors(400, 401)})
    def post(self, request: Request) -> Response:
        until = _valid(VacationIn, request)["until"]
        games = moderation.do_set_vacation(self.require_player(), until, via="api")
        return Response(VacationOut({"vacation_until": until, "games": [g.pk for g in games]}).data)
