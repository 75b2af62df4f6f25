"""``extend`` and ``vacation`` by mail: a player's own absence, the same services as the API's.

To a game's seat address, alone in the mail:

* ``extend``: more time on my turn in this game (the game sets how many times);
* ``vacation until 2026-12-20`` (or ``vacation 20 Dec``, ``vacation until 20/12/2026 18:00``):
  away until then; the date alone means back at 00:00 UTC that day;
* ``vacation off``: back now.

To the general address, ``vacation ...`` works the same, and ``extend 12`` names the game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime

from dateutil import parser as dateparser
from django.utils.translation import gettext, ngettext

from engine import notation
from pbem.games import moderation
from pbem.games.models import Player
from pbem.games.services import ServiceError

VERBS = ("extend", "vacation", "holiday", "holidays", "ferias", "prolongar")


@dataclass(frozen=True)
class Answer:
    ok: bool
    text: str


def is_absence_line(line: str) -> bool:
    words = notation.fold(line.strip().rstrip(".!")).split()
    return bool(words) and words[0] in VERBS and (words[0] not in ("extend", "prolongar") or len(words) <= 2)


def parse_until(text: str, now: datetime | None = None) -> datetime | None:
    """``off``/``back``/``none`` -> None; else a moment (naive means UTC). Raises ValueError."""
    words = notation.fold(text).split()
    if words and words[0] in ("until", "till", "to", "ate"):
        words = words[1:]
    rest = " ".join(words)
    if rest in ("off", "back", "none", "end", "stop", "over", "fim", "volta", "voltei", "voltou", "nenhuma"):
        return None
    if not rest:
        raise ValueError(gettext("say until when, e.g. `vacation until 2026-12-20`, or `vacation off`"))
    now = now or datetime.now(UTC)
    default = now.replace(hour=0, minute=0, second=0, microsecond=0)
    try:
        moment = dateparser.parse(rest, default=default.replace(tzinfo=None), dayfirst="/" in rest)
    except (ValueError, OverflowError) as exc:
        raise ValueError(gettext("I could not read %(rest)s as a date; write it like 2026-12-20")
                         % {"rest": repr(rest)}) from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    if moment <= now and not re.search(r"\d{4}", rest):
        # Why: "vacation 5 Jan" sent in December means the coming January.
        moment = moment.replace(year=moment.year + 1)
    return moment


def run(line: str, player: Player, game_id: int | None) -> Answer:
    """One absence command; the answer is for the sender only."""
    words = line.strip().rstrip(".!").split(None, 1)
    verb = notation.fold(words[0]) if words else ""
    rest = words[1] if len(words) > 1 else ""
    try:
        if verb in ("extend", "prolongar"):
            target = game_id
            if rest.strip().lstrip("#").isdigit():
                target = int(rest.strip().lstrip("#"))
            if target is None:
                return Answer(False, gettext("Which game? Write `extend` in a reply to the game's mail, "
                                             "or `extend 12`."))
            ext = moderation.do_request_extension(target, player, via="mail")
            return Answer(True, ngettext("Game #%(game)s: your deadline is now %(when)s (%(n)s extension left). "
                                         "The others were told.",
                                         "Game #%(game)s: your deadline is now %(when)s (%(n)s extensions left). "
                                         "The others were told.", ext.left)
                          % {"game": target, "when": moderation.when_text(ext.until), "n": ext.left})
        try:
            until = parse_until(rest)
        except ValueError as exc:
            return Answer(False, gettext("Your vacation was not set: %(why)s. Nothing was changed.") % {"why": exc})
        games = moderation.do_set_vacation(player, until, via="mail")
    except ServiceError as exc:
        return Answer(False, gettext("`%(line)s` was not taken: %(why)s Nothing was changed.") % {
            "line": line.strip(), "why": exc.message})
    told = ", ".join(f"#{g.pk}" for g in games) or gettext("none running")
    if until is None:
        return Answer(True, gettext("Welcome back: your vacation is over. Games told: %(games)s.") % {"games": told})
    return Answer(True, gettext("Have a good time: you are on vacation until %(when)s. Deadlines on your turns wait "
                                "until you are back plus a day (in a game with time banks, your own clock stops "
                                "instead), up to each game's cap. Games told: %(games)s. Reply `vacation off` when "
                                "you are back early.") % {"when": moderation.when_text(until), "games": told})
