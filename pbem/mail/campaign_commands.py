"""Campaign and rematch commands to the general address (issue 23), one a line:

``new campaign GAME [with ADDRESS...] [key=value ...]`` (keys: ``name``, ``games``, ``deadline``,
``auto=no``, and the game's options; a moderator writes ``for ADDRESS...`` to seat the group
without playing), ``campaigns``, ``campaign #N`` (the story so far and the
standings), and for the campaign's creator or a moderator ``campaign #N next``, ``campaign #N seat
K to ADDRESS because REASON`` and ``campaign #N end [REASON]``; ``rematch #N`` for a finished game.
A reply holding ``rematch`` to a finished game's mail does the same (pbem.mail.services).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from engine import notation
from pbem.games import campaign_selectors, campaigns
from pbem.games import services as game_services
from pbem.games.models import Player
from pbem.games.services import ServiceError

#: Keys of ``new campaign`` that belong to the campaign, not to the game's options.
CAMPAIGN_KEYS = {"name", "title", "games", "deadline", "auto"}

HELP = gettext_noop(  # (translated where it is used: commands.help_text)
    "  new campaign GAME [with ADDRESS...] [key=value ...]\n"
    "                            a campaign: a series of games of one group, each set up from the\n"
    "                            last (name=\"...\", games=N, deadline=HOURS, auto=no: a moderator\n"
    "                            starts each next game; and the game's options). A moderator who\n"
    "                            does not play writes for ADDRESS... instead of with ADDRESS...\n"
    "  campaigns                 your campaigns\n"
    "  campaign #N               its story so far and the standings\n"
    "  campaign #N next | seat K to ADDRESS because ... | end   (its creator or a moderator)\n"
    "  rematch #N                the same group and options as finished game N (or reply rematch)\n"
)


def is_campaign_line(words: Sequence[str]) -> bool:
    if not words:
        return False
    verb = notation.fold(words[0])
    return verb in ("campaign", "campaigns", "rematch") or (
        verb == "new" and len(words) > 1 and notation.fold(words[1]) == "campaign")


def _number(word: str, example: str) -> int:
    n = notation.number(word)
    if n is None:
        raise ServiceError(_("%(word)s is not a number; like: %(example)s") % {"word": repr(word), "example": example})
    return n


def run(sender: str, player: Player | None, words: Sequence[str], mail_name: str = "") -> str:
    """One command line (already split into words); a ServiceError says why it was refused."""
    verb = notation.fold(words[0])
    if verb == "new":
        return _new(sender, list(words[2:]), mail_name)
    if verb == "campaigns":
        return _list(player)
    if verb == "rematch":
        if len(words) != 2:
            raise ServiceError(_("rematch takes a game number, like: rematch #12"))
        if player is None:
            raise ServiceError(_("you played no game here"))
        game = campaigns.do_rematch(_number(words[1], "rematch #12"), player)
        return _rematch_text(game.pk, game.said_title, game.status)
    if len(words) < 2:
        raise ServiceError(_("campaign takes a campaign number, like: campaign #3"))
    campaign_id = _number(words[1], "campaign #3")
    rest = [notation.fold(w) for w in words[2:]]
    if not rest:
        return campaign_selectors.story_so_far(campaigns.access_campaign(campaign_id))
    if rest == ["next"]:
        game = campaigns.do_next_game(campaign_id, player)
        return _("Game %(k)s of campaign #%(c)s is set up as game #%(n)s; its mails follow.") % {
            "k": game.campaign_number, "c": campaign_id, "n": game.pk}
    if rest[0] == "end":
        # (no reason: the service asks for one, as the API's; the door once wrote "ended by its moderator"
        # into the log for a creator who gave none)
        reason = " ".join(words[3:])
        campaigns.do_end_campaign(campaign_id, player, reason)
        return _("Campaign #%(c)s is over: no game follows.") % {"c": campaign_id}
    if rest[0] == "seat" and len(rest) >= 4 and rest[2] == "to":
        # (a person counts seats from 1, as the campaign's page and mails do; the service from 0)
        seat = _number(words[3], "campaign #3 seat 2 to dora@example.org because ...")
        said = rest[4] in ("because", "reason", "why") if len(rest) > 4 else False
        reason = " ".join(words[7:] if said else words[6:])
        held = campaigns.do_hand_over_seat(campaign_id, player, seat - 1, words[5], reason, first=1)
        return _("Seat %(seat)s of campaign #%(c)s is %(name)s's from its next game on; they were sent the story so "
                 "far.") % {"seat": seat, "c": campaign_id, "name": held.player.display_name}
    raise ServiceError(_("campaign #N takes next, end, or seat K to ADDRESS because REASON "
                         "(or nothing: its story and standings)"))


def _rematch_text(game_id: int, title: str, status: str) -> str:
    if status == "running":
        return _("Game #%(n)s (%(title)s) is created and started; your first mail of it follows.") % {
            "n": game_id, "title": title}
    return _("Game #%(n)s (%(title)s) is created: the other players of the game are invited, and it starts when "
             "they have joined.") % {"n": game_id, "title": title}


def _list(player: Player | None) -> str:
    rows = list(campaign_selectors.campaign_list(player)[:30]) if player is not None else []
    if not rows:
        return _("You are in no campaign. Start one with: new campaign maracaibo with ADDRESS...")
    lines = []
    for c in rows:
        games = campaign_selectors.campaign_games(c)
        said = {"c": c.pk, "name": c.name, "status": c.get_status_display(), "k": len(games)}
        line = ngettext("  #%(c)s %(name)s: %(status)s, %(k)s game", "  #%(c)s %(name)s: %(status)s, %(k)s games",
                        len(games)) % said
        if games and games[-1].status == "running":
            line = _("%(line)s, now game #%(n)s") % {"line": line, "n": games[-1].pk}
        lines.append(line)
    return _("Your campaigns:") + "\n" + "\n".join(lines)


def _new(sender: str, args: list[str], mail_name: str) -> str:
    if not args:
        raise ServiceError(_("new campaign needs a game name, like: new campaign maracaibo with bruno@example.org"))
    rules_name, rest = args[0], args[1:]
    invite: list[str] = []
    options: dict[str, str] = {}
    keys: dict[str, str] = {}
    seat_them = False  # "for ADDRESS...": a moderator seats the group and does not play
    for word in rest:
        if word.lower() == "for":
            seat_them = True
            continue
        if word.lower() in ("with", "and", ","):
            continue
        if "=" in word:
            key, _eq, value = word.partition("=")
            key = key.strip().lower()
            (keys if key in CAMPAIGN_KEYS else options)[key] = value.strip()
        elif "@" in word:
            invite.append(word.strip(",;<>"))
        else:
            raise ServiceError(_("%(word)s is neither an address nor key=value") % {"word": repr(word)})
    try:
        games = int(keys["games"]) if keys.get("games") else None
        deadline = int(keys.get("deadline") or "72")
    except ValueError:
        raise ServiceError(_("games and deadline take whole numbers")) from None
    auto = (keys.get("auto") or "yes").lower() not in ("no", "false", "0", "off")
    creator = game_services.do_get_or_create_player(sender, mail_name)
    campaign, game = campaigns.do_create_campaign(
        creator, rules_name, name=keys.get("name") or keys.get("title") or "", options=options,
        invite=[] if seat_them else invite, players=invite if seat_them else [],
        games=games, deadline_hours=deadline, auto_next=auto)
    said = {"c": campaign.pk, "name": campaign.name, "n": game.pk, "who": ", ".join(invite) if invite else _("nobody")}
    if seat_them:
        return _("Campaign #%(c)s (%(name)s) is created; its first game is #%(n)s, started with %(who)s seated in "
                 "that order; you run it and do not play.") % said
    if game.status == "running":
        return _("Campaign #%(c)s (%(name)s) is created; its first game is #%(n)s, started: your first mail of it "
                 "follows.") % said
    return _("Campaign #%(c)s (%(name)s) is created; its first game is #%(n)s. Invitations went to %(who)s; it "
             "starts when every seat is taken, and each next game is set up with the same group when one "
             "ends.") % said
