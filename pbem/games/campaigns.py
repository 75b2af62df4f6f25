"""Campaigns and rematches (issue 23): the services that change them. Doors (mail, API, admin,
pages) call one of these each; reads are in ``campaign_selectors.py``.

A campaign is a series of games of one group. When its game ends, the service records what the
story did and the scores, takes the game's archive (``Rules.archive``: what the next game starts
from, for a game whose rules play campaigns) and sets up the next game with the same group, seat
for seat, at once (``auto_next``) or when a moderator asks. The group is fixed when the first
game has started; a seat may then change hands between games (audited in the campaign's log, the
newcomer mailed the story so far). An archive can be exported and imported (JSON, checked by the
engine's ``check_archive``), so a group can continue a campaign begun elsewhere or at the table.

A rematch is the same group and options again, for any finished game that is not a campaign's:
the asker takes the first seat and the others are invited (nobody is put into a game unasked).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext

import engine
from engine import Rules, SetupError
from engine.core import BadArchive
from pbem.games import campaign_selectors, language, services
from pbem.games.models import AuditEntry, Campaign, CampaignEntry, CampaignSeat, Game, Player, Seat
from pbem.games.moderation_base import clean_reason
from pbem.games.services import Conflict, Forbidden, NotFound, ServiceError
from pbem.mail import outbox

log = logging.getLogger(__name__)

#: Longest campaign planned, in games.
MAX_GAMES = 50


def _check_rules(name: str) -> Rules:
    return services.check_rules(name)


def campaign_options(rules: Rules, options: Mapping[str, Any] | None, n_players: int) -> dict[str, Any]:
    """The options every game of the campaign is set up with, checked; a game whose rules play
    campaigns is asked for its campaign (the option ``campaign``)."""
    given = dict(options or {})
    if rules.supports_campaign and any(s.name == "campaign" for s in rules.option_specs):
        given.setdefault("campaign", "yes")
    try:
        return rules.check_options(n_players, given)
    except SetupError as exc:
        raise ServiceError(str(exc)) from None


def plays_story(rules: Rules, options: Mapping[str, Any]) -> bool:
    """Whether the games of a campaign with these (checked) options carry a story from one to the next:
    rules that play campaigns, unless the option ``campaign`` says no (Maracaibo's ``campaign=no``: a
    series of games of mode 79, say, whose archive is None, so only a number of games ends it)."""
    if not rules.supports_campaign:
        return False
    return not any(s.name == "campaign" for s in rules.option_specs) or bool(options.get("campaign"))


#: What an engine's archive check or setup may raise on an archive of the wrong shape deep inside
#: (an object where a list of card numbers belongs): refused as malformed, never a 500.
MALFORMED = (TypeError, KeyError, ValueError, AttributeError, IndexError)


def check_archive(rules: Rules, archive: Any, n_players: int, options: Mapping[str, Any]) -> dict[str, Any]:
    """An archive to continue from, checked by the engine (and a trial setup from it, so a game
    that cannot be set up from it is refused now, not when its last player joins); a ServiceError
    naming what is wrong."""
    if not isinstance(archive, dict):
        raise ServiceError(gettext("the archive cannot be continued: an archive is a JSON object"))
    try:
        rules.check_archive(archive)
    except BadArchive as exc:
        raise ServiceError(gettext("the archive cannot be continued: %(exc)s") % {"exc": exc}) from None
    except MALFORMED as exc:
        raise ServiceError(gettext("the archive cannot be continued: it is malformed (%(type_exc___name)s in the "
                                   "game's data)") % {"type_exc___name": type(exc).__name__}) from None
    if len(archive["seats"]) != n_players:
        raise ServiceError(ngettext("the archive cannot be continued: it is of a campaign of %(len_archive_seats)s "
                                    "seats, and %(n_players)s player was named",
                                    "the archive cannot be continued: it is of a campaign of %(len_archive_seats)s "
                                    "seats, and %(n_players)s players were named", n_players)
                           % {"len_archive_seats": len(archive['seats']), "n_players": n_players})
    try:
        rules.setup(list(archive["seats"]), options, "archive-check", archive=archive)
    except (SetupError, *MALFORMED) as exc:
        why = str(exc) if isinstance(exc, SetupError) else f"{type(exc).__name__} setting up its next game"
        raise ServiceError(gettext("the archive cannot be continued: %(why)s") % {"why": why}) from None
    # an archive of an older version is kept upgraded: its export is the form this engine writes
    return rules.upgrade_archive(archive)


def _entry(campaign: Campaign, action: str, details: dict[str, Any], *, game: Game | None = None,
           actor: Player | None = None) -> CampaignEntry:
    return CampaignEntry.objects.create(campaign=campaign, game=game, actor=actor, action=action, details=details)


def may_run(campaign: Campaign, player: Player | None) -> bool:
    """Whether ``player`` runs the campaign: its creator or a staff account (a moderator)."""
    if player is None:
        return False
    return player.pk == campaign.created_by_id or bool(getattr(player.user, "is_staff", False))


def access_campaign(campaign_id: int) -> Campaign:
    found = Campaign.objects.select_related("created_by").filter(pk=campaign_id).first()
    if found is None:
        raise NotFound(gettext("there is no campaign #%(campaign_id)s") % {"campaign_id": campaign_id})
    return found


def _access_for_update(campaign_id: int) -> Campaign:
    found = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if found is None:
        raise NotFound(gettext("there is no campaign #%(campaign_id)s") % {"campaign_id": campaign_id})
    return found


def _check_runs(campaign: Campaign, player: Player | None) -> None:
    if not may_run(campaign, player):
        raise Forbidden(gettext("only the creator of campaign #%(campaign)s or a moderator may do this")
                        % {"campaign": campaign.pk})


# ---- creating and importing ----------------------------------------------------------------------


@transaction.atomic
def do_create_campaign(creator: Player, rules_name: str, *, name: str = "", options: Mapping[str, Any] | None = None,
                       invite: Sequence[str] = (), players: Sequence[str] = (), games: int | None = None,
                       deadline_hours: int = 72, auto_next: bool = True,
                       archive: Any = None) -> tuple[Campaign, Game]:
    """A new campaign and its first game.

    ``invite``: the creator plays seat 0 and these addresses are invited to the first game (it
    starts when all joined, like any game). ``players``: a moderator (staff) who does not play
    seats these addresses directly, in this order, and the first game starts at once.
    ``archive``: continue a campaign from its exported archive (checked by the engine first;
    seat i of the archive goes to the i-th player).
    """
    rules = _check_rules(rules_name)
    if players and invite:
        raise ServiceError(gettext("name either the players to seat (a moderator) or the addresses to invite, not "
                                   "both"))
    if players and not getattr(creator.user, "is_staff", False):
        raise Forbidden(gettext("only a moderator seats players directly; invite them instead"))
    n_players = len(players) if players else 1 + len(invite)
    if games is not None and not 1 <= games <= MAX_GAMES:
        raise ServiceError(gettext("a campaign has from 1 to %(max_games)s games") % {"max_games": MAX_GAMES})
    if not 1 <= deadline_hours <= 24 * 60:
        raise ServiceError(gettext("the deadline must be between 1 hour and 60 days"))
    checked = campaign_options(rules, options, n_players)
    played = 0
    if archive is not None:
        archive = check_archive(rules, archive, n_players, checked)
        checked = rules.archive_options(checked, archive)  # (what the games will play: the archive may decide)
        played = int(archive["game"])
    elif games is None and not plays_story(rules, checked):
        games = 3  # a series of games without a story (campaign=no, too) has an end; three unless told
    title = name.strip() or services.compose_title(rules, checked, campaign=True)
    services.check_title(title)
    campaign = Campaign.objects.create(
        name=title[:100], created_by=creator, rules=rules.name, options=checked, games_planned=games,
        deadline_hours=deadline_hours, auto_next=auto_next, carry=archive or {})
    _entry(campaign, "created", {"players": n_players, "options": checked, "games": games}, actor=creator)
    if archive is not None:
        _entry(campaign, "imported", {"played": played, "version": archive.get("version"),
                                      "seats": list(archive["seats"])}, actor=creator)
    if players:
        people = [services.do_get_or_create_player(services.check_address(e)) for e in players]
        if len({p.pk for p in people}) != len(people):
            raise ServiceError(gettext("the same player is named twice"))
        for i, p in enumerate(people):
            CampaignSeat.objects.create(campaign=campaign, index=i, player=p)
        game = _set_up_next(campaign, creator)
    else:
        game = services.do_create_game(creator, rules.name, options=checked, invite=invite,
                                       title=_game_title(campaign, played + 1), deadline_hours=deadline_hours,
                                       campaign=campaign, campaign_number=played + 1, archive=archive)
    return campaign, game


def _game_title(campaign: Campaign, number: int) -> str:
    suffix = f", game {number}"
    return campaign.name[:100 - len(suffix)] + suffix


def _fix_group(campaign: Campaign) -> list[CampaignSeat]:
    """The campaign's group, fixed from its first game's seats the first time it is needed: a seat a
    moderator replaced inside that game stays its holder's before the replacement (the newcomer played
    that game only; a handover, not a replacement, changes the group), as in a later game."""
    fixed = list(CampaignSeat.objects.filter(campaign=campaign).select_related("player").order_by("index"))
    if fixed:
        return fixed
    first = campaign.games.exclude(status__in=[Game.Status.OPEN, Game.Status.ABORTED]).order_by(
        "campaign_number", "id").first()
    if first is None:
        raise Conflict(gettext("campaign #%(campaign)s's group is not complete yet: its first game waits for "
                               "players") % {"campaign": campaign.pk})
    held = campaign_selectors.holders_before_replacement(first)
    for seat in Seat.objects.filter(game=first, index__isnull=False, player__isnull=False).order_by("index"):
        assert seat.index is not None and seat.player is not None
        fixed.append(CampaignSeat.objects.create(campaign=campaign, index=seat.index,
                                                 player=held.get(seat.index, seat.player)))
    return fixed


def _set_up_next(campaign: Campaign, actor: Player | None) -> Game:
    """The campaign's next game: its group seated seat for seat, set up from the archive, started."""
    if campaign.status != Campaign.Status.RUNNING:  # first: an ended campaign has no next game at all
        raise Conflict(gettext("campaign #%(campaign)s is over") % {"campaign": campaign.pk})
    last = campaign.games.order_by("-campaign_number", "-id").first()
    if last is not None and last.status in (Game.Status.OPEN, Game.Status.RUNNING, Game.Status.PAUSED):
        raise Conflict(gettext("game #%(last_pk)s of campaign #%(campaign)s is not over yet; the next one "
                               "follows it") % {"last_pk": last.pk, "campaign": campaign.pk})
    played = int((campaign.carry or {}).get("game", 0))
    number = max((last.campaign_number or 0) if last else 0, played) + 1
    group = _fix_group(campaign)
    game = Game.objects.create(
        rules=campaign.rules, title=_game_title(campaign, number), options=campaign.options,
        created_by=campaign.created_by, deadline_hours=campaign.deadline_hours, campaign=campaign,
        campaign_number=number, archive=campaign.carry or None)
    now = timezone.now()
    for cs in group:  # seats made in seat order: do_start_game numbers them so
        Seat.objects.create(game=game, player=cs.player, status=Seat.Status.JOINED, joined_at=now)
    services.do_log(game, actor, "create", {"rules": game.rules, "players": len(group), "options": game.options,
                                            "campaign": campaign.pk, "number": number})
    _entry(campaign, "next", {"number": number}, game=game, actor=actor)
    services.do_start_game(game)
    return game


# ---- a game ends; the next one ----------------------------------------------------------------


def _planned_over(campaign: Campaign, number: int, archive: dict[str, Any] | None) -> bool:
    if campaign.games_planned is not None and number >= campaign.games_planned:
        return True
    # the engine says when the story has ended (Maracaibo: "ended"); "over" for a game that says it so
    return bool(archive and (archive.get("ended") is True or archive.get("over") is True))


@transaction.atomic
def do_continue_campaign(game_id: int) -> int | None:
    """After a campaign game finished (task ``pbem.campaign_next``; the sweeper hands on a lost
    one): its story and scores go into the campaign's log, its archive becomes the campaign's,
    the group gets the campaign mail, and the next game is set up (when ``auto_next``).
    Idempotent: a game already recorded is left alone. Returns the next game's id, if one was set up."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.campaign_id is None or game.status != Game.Status.FINISHED:
        return None
    campaign = _access_for_update(game.campaign_id)
    if CampaignEntry.objects.filter(campaign=campaign, game=game, action="finished").exists():
        return None
    rules = engine.get(game.rules)
    assert game.state is not None
    archive = rules.archive(game.state) if rules.supports_campaign else None
    if archive is not None:
        campaign.carry = archive
    number = game.campaign_number or 0
    with language.speaking(language.DEFAULT):  # (stored in English; said in each reader's when shown)
        result, story = campaign_selectors.result_line(game), campaign_selectors.public_story(game)
    _entry(campaign, "finished", {"number": number, "result": result, "story": story,
                                  "scores": (game.outcome or {}).get("scores") or {},
                                  "winners": (game.outcome or {}).get("winners") or []}, game=game)
    over = _planned_over(campaign, number, archive)
    if over:
        campaign.status = Campaign.Status.FINISHED
        campaign.finished_at = timezone.now()
        _entry(campaign, "ended", {"reason": "its last game is played"}, game=game)
    campaign.save()
    try:
        group = _fix_group(campaign)
    except Conflict:
        group = []
    def headline() -> str:  # in each reader's language
        said = {"number": number, "next": number + 1, "campaign": campaign.pk}
        if over:
            what = gettext("That was its last game: the campaign is over.")
        elif campaign.auto_next:
            what = gettext("Game %(next)s is set up now: its first mail follows.") % said
        else:
            what = gettext("Game %(next)s is set up when the campaign's moderator starts it.") % said
        return gettext("Game %(number)s of campaign #%(campaign)s is over.") % said + " " + what

    _mail_group(campaign, group, headline)
    if over or not campaign.auto_next:
        return None
    return _set_up_next(campaign, None).pk


def _mail_group(campaign: Campaign, group: Sequence[CampaignSeat], headline: Callable[[], str]) -> None:
    """The campaign mail: what happened, the story so far, the standings; to each of the group, in
    their language."""
    for cs in group:
        with language.speaking(language.of(cs.player)):
            body = f"{headline()}\n\n{campaign_selectors.story_so_far(campaign)}\n\n{_footer(campaign)}"
        outbox.queue_reply(cs.player, _subject(campaign), body)


def _subject(campaign: Campaign) -> str:
    return f"[pbem campaign #{campaign.pk}] {campaign.name}"


def _footer(campaign: Campaign) -> str:
    return gettext("Campaign page: %(url)s\n(Write 'campaign #%(campaign)s' to %(address)s for this summary "
                   "again.)") % {"url": f"{settings.PBEM_PUBLIC_URL}/campaigns/{campaign.pk}/",
                                 "campaign": campaign.pk, "address": outbox.general_address()}


@transaction.atomic
def do_next_game(campaign_id: int, actor: Player | None) -> Game:
    """A moderator sets up the campaign's next game now (when it does not follow by itself)."""
    campaign = _access_for_update(campaign_id)
    _check_runs(campaign, actor)
    game = _set_up_next(campaign, actor)
    return game


def do_sweep_campaigns(now: datetime | None = None) -> int:
    """The campaign sweeper: finished campaign games whose campaign has not taken them yet (their
    task was lost) are handed on. Returns how many."""
    now = now or timezone.now()
    recorded = CampaignEntry.objects.filter(action="finished").values("game_id")
    ids = list(Game.objects.filter(campaign__isnull=False, status=Game.Status.FINISHED,
                                   finished_at__lt=now - timedelta(seconds=30))
               .exclude(pk__in=recorded).order_by("pk").values_list("pk", flat=True)[:100])
    for pk in ids:
        do_continue_campaign(pk)
    return len(ids)


# ---- the group ------------------------------------------------------------------------------------


@transaction.atomic
def do_hand_over_seat(campaign_id: int, actor: Player | None, seat: int, email: str, reason: str,
                      name: str = "", first: int = 0) -> CampaignSeat:
    """Seat ``seat`` (the index, from 0) of the campaign passes to the player of ``email`` from its next
    game on. ``first``: the number the caller's seats start at, for a refusal's words (the API's indexes
    from 0; a person's seats, by mail and on the pages, from 1); mails always count from 1.

    Audited in the campaign's log (who, from whom, to whom, why); the newcomer is mailed the story
    so far, the one leaving is told. A seat of a game under way changes hands by the game's own
    replacement (moderation), not here."""
    campaign = _access_for_update(campaign_id)
    _check_runs(campaign, actor)
    if campaign.status != Campaign.Status.RUNNING:
        raise Conflict(gettext("campaign #%(campaign)s is over") % {"campaign": campaign.pk})
    reason = clean_reason(reason)
    if not reason:
        raise ServiceError(gettext("say why the seat changes hands (the reason is kept in the campaign's log)"))
    group = _fix_group(campaign)
    held = next((cs for cs in group if cs.index == seat), None)
    if held is None:
        raise ServiceError(gettext("campaign #%(campaign)s has seats %(first)s to %(last)s, not %(seat)s")
                           % {"campaign": campaign.pk, "first": first, "last": len(group) - 1 + first,
                              "seat": seat + first})
    if name.strip():  # a name no player may have is refused with its reason, never dropped unsaid
        name = services.check_display_name(name)
    newcomer = services.do_get_or_create_player(services.check_address(email), name)
    if any(cs.player_id == newcomer.pk for cs in group):
        raise Conflict(gettext("%(newcomer_display_name)s holds a seat of campaign #%(campaign)s already")
                       % {"newcomer_display_name": newcomer.display_name, "campaign": campaign.pk})
    leaving = held.player
    held.player = newcomer
    held.since = timezone.now()
    held.save(update_fields=["player", "since"])
    _entry(campaign, "handover", {"seat": seat, "from": leaving.pk, "from_name": leaving.display_name,
                                  "to": newcomer.pk, "to_name": newcomer.display_name, "reason": reason.strip()},
           actor=actor)
    running = campaign.games.filter(status__in=[Game.Status.RUNNING, Game.Status.PAUSED]).first()
    said = {"seat": seat + 1, "campaign": campaign.pk, "name": campaign.name, "from": leaving.display_name,
            "to": newcomer.display_name, "game": running.pk if running else None, "why": reason.strip()}

    def when() -> str:
        return (gettext("from its next game on (game #%(game)s, under way, stays with %(from)s)") % said
                if running else gettext("from its next game on"))

    with language.speaking(language.of(newcomer)):
        outbox.queue_reply(newcomer, _subject(campaign), gettext(
            "You take seat %(seat)s of campaign #%(campaign)s (%(name)s) %(when)s, after %(from)s. Here is the "
            "story so far.") % {**said, "when": when()}
            + f"\n\n{campaign_selectors.story_so_far(campaign)}\n\n{_footer(campaign)}")
    with language.speaking(language.of(leaving)):
        outbox.queue_reply(leaving, _subject(campaign), gettext(
            "Seat %(seat)s of campaign #%(campaign)s (%(name)s) passes to %(to)s %(when)s. Reason: %(why)s")
            % {**said, "when": when()} + f"\n\n{_footer(campaign)}")
    return held


@transaction.atomic
def do_end_campaign(campaign_id: int, actor: Player | None, reason: str) -> Campaign:
    """A moderator ends the campaign: no game follows (a game under way plays on)."""
    campaign = _access_for_update(campaign_id)
    _check_runs(campaign, actor)
    if campaign.status != Campaign.Status.RUNNING:
        raise Conflict(gettext("campaign #%(campaign)s is over already") % {"campaign": campaign.pk})
    reason = clean_reason(reason)
    if not reason:
        raise ServiceError(gettext("say why the campaign ends (the reason is kept in its log)"))
    campaign.status = Campaign.Status.FINISHED
    campaign.finished_at = timezone.now()
    campaign.save(update_fields=["status", "finished_at"])
    _entry(campaign, "ended", {"reason": reason.strip()}, actor=actor)
    return campaign


def _held_a_seat(campaign: Campaign, player: Player) -> bool:
    """Whether ``player`` held a seat of the campaign once: in one of its games (still seated, or
    replaced inside it by a moderator: the audit names them) or handed out of its group."""
    return (Seat.objects.filter(game__campaign=campaign, player=player).exists()
            or CampaignEntry.objects.filter(campaign=campaign, action="handover", details__from=player.pk).exists()
            or AuditEntry.objects.filter(game__campaign=campaign, action="replace", details__old=player.email).exists())


def access_archive(campaign_id: int, player: Player | None) -> dict[str, Any]:
    """The archive the campaign's next game starts from, to continue it elsewhere: for the group
    and the moderators (it may hold what no player has seen, as the game box does: a story pile's
    order), and logged; for a former member (handed out, or replaced inside a game) once the campaign
    is over, as a record of the games they played: nothing in it is hidden any more then (its games'
    exports open to all too). 409 while there is none."""
    campaign = access_campaign(campaign_id)
    members = {p.pk for _s, p, _n in campaign_selectors.group(campaign) if p is not None}
    if player is not None and player.pk not in members and not may_run(campaign, player) \
            and campaign.status == Campaign.Status.RUNNING and _held_a_seat(campaign, player):
        raise Forbidden(gettext(
            "you no longer hold a seat of campaign #%(campaign)s: while it goes on its archive holds what no "
            "player sees (the story's pile), for its group only; the campaign's page keeps the record of the "
            "games you played, and you may export the archive once the campaign is over")
            % {"campaign": campaign.pk})
    if player is None or (player.pk not in members and not may_run(campaign, player)
                          and not _held_a_seat(campaign, player)):
        raise Forbidden(gettext("only the players and moderators of campaign #%(campaign)s may export its archive")
                        % {"campaign": campaign.pk})
    if not campaign.carry:
        raise Conflict(f"campaign #{campaign.pk} has no archive yet: a game of it must end first"
                       if plays_story(engine.get(campaign.rules), campaign.options) else
                       f"campaign #{campaign.pk} is a series of games without a story: it has no archive")
    _entry(campaign, "exported", {"game": campaign.carry.get("game")}, actor=player)
    return dict(campaign.carry)


# ---- rematch -------------------------------------------------------------------------------------


@transaction.atomic
def do_rematch(game_id: int, player: Player) -> Game:
    """The same group and options again: a new game where ``player`` (who played the finished game)
    sits first and the game's other players are invited in their order. One rematch a game."""
    game = services.access_game_for_update(game_id)
    if not game.seats.filter(player=player).exists():
        raise Forbidden(gettext("you did not play in game #%(game)s") % {"game": game.pk})
    if game.status != Game.Status.FINISHED:
        raise Conflict(gettext("game #%(game)s is %(status)s; a rematch follows a finished game")
                       % {"game": game.pk, "status": game.get_status_display()})
    if game.campaign_id is not None:
        raise Conflict(gettext("game #%(game)s is game %(number)s of campaign "
                               "#%(campaign)s; the campaign sets up its next game")
                       % {"game": game.pk, "number": game.campaign_number, "campaign": game.campaign_id})
    earlier = AuditEntry.objects.filter(game=game, action="rematch").order_by("-id").first()
    if earlier is not None:
        again = Game.objects.filter(pk=int((earlier.details or {}).get("game") or 0)).first()
        if again is not None and again.status != Game.Status.ABORTED:
            raise Conflict(gettext("game #%(game)s has its rematch already: game #%(again)s "
                                   "(%(status)s); join it with: join #%(again)s")
                           % {"game": game.pk, "again": again.pk, "status": again.get_status_display()})
    others = [s.player.email for s in game.seats.select_related("player").order_by("index")
              if s.player is not None and s.player_id != player.pk]
    title = game.title.removesuffix(" (rematch)")[:100 - len(" (rematch)")] + " (rematch)"
    new = services.do_create_game(
        player, game.rules, options=game.options, invite=others, title=title, deadline_hours=game.deadline_hours,
        allow_any_sender=game.allow_any_sender, time_bank_hours=game.time_bank_hours,
        time_bank_increment_hours=game.time_bank_increment_hours)
    services.do_log(game, player, "rematch", {"game": new.pk})
    services.do_log(new, player, "rematch_of", {"game": game.pk})
    return new
