"""Reads of campaigns (issue 23) for the API, the pages and the campaign mails: the group, the
games, the standings across games and the story so far. The writes are in ``campaigns.py``.

Hidden information: everything here is what a spectator of the campaign's games may know (the
games' public events, their outcomes, the group's names); the archive itself, which may hold
what no player has seen yet (a story pile's order), is not here: see ``campaigns.access_archive``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

import engine
from engine import i18n
from pbem.games import language, wording
from pbem.games.models import (
    AuditEntry,
    Campaign,
    CampaignEntry,
    CampaignSeat,
    Game,
    Player,
    Seat,
    said_game_title,
)

#: Event kinds told in a campaign's story (a kind equal to one of these or starting with it and a
#: dot or underscore: ``vote``, ``vote_result``, ``story.read``...). Only public events (``to`` None).
STORY_KINDS = ("story", "vote", "legacy", "campaign")

#: A game's and a campaign's status as its code names it (``{% translate g.status %}`` on the campaign page).
STATUS_WORDS = (gettext_noop("open"), gettext_noop("running"), gettext_noop("paused"), gettext_noop("finished"),
                gettext_noop("aborted"))


def is_story_kind(kind: str) -> bool:
    return any(kind == k or kind.startswith((f"{k}_", f"{k}.", f"{k}-")) for k in STORY_KINDS)


def campaign_list(viewer: Player | None, *, staff: bool = False) -> QuerySet[Campaign]:
    """The campaigns ``viewer`` plays in or created, newest first (a moderator: every campaign)."""
    rows = Campaign.objects.select_related("created_by").order_by("-id")
    if staff:
        return rows
    if viewer is None:
        return rows.none()
    mine = Q(created_by=viewer) | Q(seats__player=viewer) | Q(games__seats__player=viewer)
    return rows.filter(mine).distinct()


def campaign_games(campaign: Campaign) -> list[Game]:
    return list(campaign.games.order_by("campaign_number", "id"))


def holders_before_replacement(game: Game) -> dict[int, Player]:
    """The seats of ``game`` a moderator replaced inside it (audited ``replace``), each with the player
    who held it before the first replacement: the holder the campaign's group keeps (#23: a replacement
    inside the first game, before the group is fixed, made the newcomer the group's holder)."""
    firsts: dict[int, str] = {}
    for details in AuditEntry.objects.filter(game=game, action="replace").order_by("created_at", "id").values_list(
            "details", flat=True):
        d = details or {}
        if isinstance(d.get("seat"), int) and d.get("old") and d["seat"] not in firsts:
            firsts[d["seat"]] = str(d["old"])
    if not firsts:
        return {}
    players = {p.email: p for p in Player.objects.filter(email__in=set(firsts.values()))}
    return {seat: players[email] for seat, email in firsts.items() if email in players}


def group(campaign: Campaign) -> list[tuple[int, Player | None, str]]:
    """(seat, player, name) of the campaign's group in seat order: its seats once fixed, else the
    seats of its first game (invitations still open have no player yet), a seat a moderator replaced
    inside it held by its player before the replacement (:func:`holders_before_replacement`)."""
    fixed = list(CampaignSeat.objects.filter(campaign=campaign).select_related("player").order_by("index"))
    if fixed:
        return [(s.index, s.player, s.player.display_name) for s in fixed]
    first = campaign.games.order_by("campaign_number", "id").first()
    if first is None:
        return []
    seats = Seat.objects.filter(game=first).select_related("player").order_by("index", "id")
    held = holders_before_replacement(first)
    out: list[tuple[int, Player | None, str]] = []
    for i, s in enumerate(seats):
        index = s.index if s.index is not None else i
        player = held.get(index, s.player)
        # Why not the address: the campaign page and API are public, and an unanswered invitation's
        # name is the creator's and the invitee's business only (as the game lobby: presenters.game_entry)
        if player is None or (player is s.player and s.status == Seat.Status.INVITED):
            name = _("an invited player") if s.invited_email or player else _("an open seat")
        else:
            name = player.display_name
        out.append((index, player, name))
    return out


@dataclass
class Standing:
    seat: int
    name: str
    played: int = 0
    wins: int = 0
    total: float = 0
    #: This seat's score in each finished game, by campaign number.
    scores: dict[int, Any] = field(default_factory=dict)
    #: The seat's other holders: those it was handed over from between games, oldest first, then
    #: those who finished a game in it after a moderator's replacement.
    before: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "played": self.played, "wins": self.wins,
                "total": self.total, "scores": {str(k): v for k, v in self.scores.items()},
                "before": list(self.before)}


def standings(campaign: Campaign) -> list[Standing]:
    """The group's standings across the campaign's finished games: by seat (a seat keeps its
    record when it changes hands), most wins first, then the highest total score."""
    rows = {seat: Standing(seat, name) for seat, _p, name in group(campaign)}
    for e in CampaignEntry.objects.filter(campaign=campaign, action="handover").order_by("id"):
        row = rows.get(int(e.details.get("seat", -1)))
        if row is not None:
            row.before.append(str(e.details.get("from_name", "")))
    # A seat a moderator replaced inside a game was played to its end by the newcomer (found by QA,
    # #23: game 2's win went to the seat's campaign holder, and the standings never named who won it).
    replaced: dict[int, set[int]] = {}
    for game_id, details in AuditEntry.objects.filter(game__campaign=campaign, action="replace").values_list(
            "game_id", "details"):
        if isinstance((details or {}).get("seat"), int):
            replaced.setdefault(game_id, set()).add(details["seat"])
    for game in campaign.games.filter(status=Game.Status.FINISHED).order_by("campaign_number"):
        outcome = game.outcome or {}
        winners = set(outcome.get("winners") or [])
        for key, score in (outcome.get("scores") or {}).items():
            seat = int(key)
            row = rows.setdefault(seat, Standing(seat, _name_in(game, seat)))
            played_by = _name_in(game, seat)
            if seat in replaced.get(game.pk, ()) and played_by != row.name and played_by not in row.before:
                row.before.append(played_by)
            row.played += 1
            row.wins += seat in winners
            row.total += score if isinstance(score, (int, float)) else 0
            row.scores[game.campaign_number or 0] = score
    return sorted(rows.values(), key=lambda r: (-r.wins, -r.total, r.seat))


def _name_in(game: Game, seat: int) -> str:
    names = (game.state or {}).get("players") or []
    return str(names[seat]) if seat < len(names) else _("seat %(seat)s") % {"seat": seat + 1}


def public_story(game: Game) -> list[str]:
    """What the story did in ``game``: the texts of its public story, vote and legacy events, in order."""
    lines: list[str] = []
    for events in game.moves.filter(undone_at__isnull=True).order_by("number").values_list("events", flat=True):
        for e in events or []:
            if e.get("to") is not None or not is_story_kind(str(e.get("kind", ""))):
                continue  # (told again only when it is the story's: the others were rendered for nothing)
            text = str(i18n.told(e).get("text", ""))  # a stored event may keep its message only
            if text:
                lines.append(text)
    return lines


def entries(campaign: Campaign) -> list[CampaignEntry]:
    return list(CampaignEntry.objects.filter(campaign=campaign).select_related("actor", "game").order_by("id"))


def result_line(game: Game) -> str:
    """``Game 2 (#14): won by Ana; Ana 41, Bruno 38`` for a finished game, in the language active now."""
    outcome = game.outcome or {}
    names = (game.state or {}).get("players") or []
    scores = outcome.get("scores") or {}
    winners = [str(names[w]) for w in outcome.get("winners") or [] if w < len(names)]
    parts = ", ".join(f"{_name_in(game, int(k))} {wording.number(v)}" for k, v in scores.items())  # 169, not 169.0
    won = _("won by %(names)s") % {"names": ", ".join(winners)} if winners else _("no winner")
    return _("Game %(number)s (#%(id)s): %(won)s; %(scores)s") % {
        "number": game.campaign_number, "id": game.pk, "won": won, "scores": parts}


def finished_text(e: CampaignEntry) -> tuple[str, list[str]]:
    """A finished game's entry, its result line and what its story did, in the language active now
    (issue 27): stored when the game ended, in the language of that moment, and said again from the
    game itself while it is kept (an imported game's, or a deleted one's, as stored)."""
    d = e.details or {}
    stored = str(d.get("result", "")), [str(t) for t in d.get("story") or []]
    game = e.game if e.game_id else None
    code = language.current()  # (Django's: a page or a mail that speaks only the service's words says them too)
    if code == i18n.DEFAULT:
        return stored
    if game is None or not game.outcome:
        return said_result_again(stored[0]), stored[1]
    with language.speaking(code):
        return result_line(game), public_story(game)


#: A result line as :func:`result_line` stores it, in English.
_STORED_RESULT = re.compile(r"Game (?P<number>\S+) \(#(?P<id>\d+)\): (?:won by (?P<names>.*?)|no winner); "
                            r"(?P<scores>.*)", re.S)


def said_result_again(stored: str) -> str:
    """A stored result line (English: ``Game 1 (#7): won by Ana; Ana 41, Bruno 38``) in the language
    active now, for a game no longer kept (an imported campaign's, a deleted one's): QA (#27) read
    "Game 1 (#1): won by" in a Portuguese campaign story. Names and scores are kept as written."""
    m = _STORED_RESULT.fullmatch(stored)
    if m is None:
        return stored
    won = _("won by %(names)s") % {"names": m["names"]} if m["names"] is not None else _("no winner")
    return _("Game %(number)s (#%(id)s): %(won)s; %(scores)s") % {
        "number": m["number"], "id": m["id"], "won": won, "scores": m["scores"]}


def game_name(campaign: Campaign) -> str:
    """The name of the game a campaign plays, in the language active now ("Maracaibo (substitute
    content)", not the rules' key "maracaibo": QA, #23)."""
    try:
        rules = engine.get(campaign.rules)
    except KeyError:  # (a game no longer installed)
        return campaign.rules
    return said_game_title(rules.title, campaign.rules)


def story_so_far(campaign: Campaign) -> str:
    """The campaign told from its start: each game's result, what its story did and its votes,
    the seats that changed hands, and the standings. What the campaign mails and page show."""
    rules = engine.get(campaign.rules) if campaign.rules else None
    lines = [_("Campaign #%(id)s: %(name)s (%(rules)s)") % {
        "id": campaign.pk, "name": said_game_title(campaign.name, campaign.rules, campaign.options),
        "rules": said_game_title(rules.title, campaign.rules) if rules else campaign.rules}]
    for e in entries(campaign):
        d = e.details or {}
        if e.action == "finished":
            result, story = finished_text(e)
            lines.append(f"\n{result}")
            lines.extend(f"  {text}" for text in story)
        elif e.action == "handover":
            said = {"seat": _seat_number(d), "from": d.get("from_name"), "to": d.get("to_name"), "why": d.get("reason")}
            lines.append("\n" + (_("Seat %(seat)s passed from %(from)s to %(to)s (%(why)s).") if d.get("reason")
                                  else _("Seat %(seat)s passed from %(from)s to %(to)s.")) % said)
        elif e.action == "imported":
            played = int(d.get("played") or 0)
            lines.append("\n" + ngettext("Imported from an archive after %(n)s game played elsewhere.",
                                          "Imported from an archive after %(n)s games played elsewhere.",
                                          played) % {"n": played})
        elif e.action == "ended":
            lines.append("\n" + (_("The campaign ended: %(why)s.") % {"why": d["reason"]} if d.get("reason")
                                  else _("The campaign ended.")))
    lines.append("\n" + _("Standings (wins, then total score):"))
    for place, row in enumerate(standings(campaign), start=1):
        held = " " + _("(before: %(names)s)") % {"names": ", ".join(row.before)} if row.before else ""
        wins = ngettext("%(wins)s win", "%(wins)s wins", row.wins) % {"wins": row.wins}
        points = ngettext("%(points)s point", "%(points)s points", 1 if row.total == 1 else 2) % {
            "points": f"{row.total:g}"}
        lines.append(f"  {place}. {row.name}{held}: " + ngettext(
            "%(wins)s, %(points)s in %(games)s game", "%(wins)s, %(points)s in %(games)s games",
            row.played) % {"wins": wins, "points": points, "games": row.played})
    return "\n".join(lines)


def campaign_data(campaign: Campaign) -> dict[str, Any]:
    """A campaign as the API and the page show it (nothing a spectator may not know)."""
    games = campaign_games(campaign)
    return {
        "id": campaign.pk, "name": campaign.name, "rules": campaign.rules, "options": campaign.options,
        "status": campaign.status, "auto_next": campaign.auto_next, "games_planned": campaign.games_planned,
        "created_by": campaign.created_by.display_name, "created_at": campaign.created_at,
        "finished_at": campaign.finished_at,
        "group": [{"seat": seat, "name": name} for seat, _p, name in group(campaign)],
        "games": [{"id": g.pk, "number": g.campaign_number, "title": g.said_title, "status": g.status,
                   "winners": [_name_in(g, w) for w in (g.outcome or {}).get("winners") or []]} for g in games],
        "standings": [r.as_dict() for r in standings(campaign)],
        "story": [{"action": e.action, "game": e.game_id, "at": e.created_at,
                   "text": _entry_text(e)} for e in entries(campaign)],
        "has_archive": bool(campaign.carry),
    }


def _seat_number(details: dict[str, Any]) -> Any:
    """A log entry's seat as people count it, from 1 (the entry keeps the index, from 0, as the API's
    ``seat`` fields do)."""
    seat = details.get("seat")
    return seat + 1 if isinstance(seat, int) else seat


def _entry_text(e: CampaignEntry) -> str:
    d = e.details or {}
    if e.action == "finished":
        result, story = finished_text(e)  # the scores end with a full stop before the story
        return " ".join([result + "." if story and not result.endswith(".") else result, *story])
    if e.action == "handover":
        return _("seat %(seat)s passed from %(from)s to %(to)s: %(why)s") % {
            "seat": _seat_number(d), "from": d.get("from_name"), "to": d.get("to_name"), "why": d.get("reason", "")}
    if e.action == "next":
        return _("game %(number)s set up (#%(id)s)") % {"number": d.get("number"), "id": e.game_id}
    if e.action == "imported":
        played = int(d.get("played") or 0)
        return ngettext("imported after %(n)s game", "imported after %(n)s games", played) % {"n": played}
    if e.action == "created":
        players = int(d.get("players") or 0)
        return ngettext("created for %(n)s player", "created for %(n)s players", players) % {"n": players}
    return str(d.get("reason", ""))
