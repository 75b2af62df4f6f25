"""A player's language (issue 27): which one, told from a mail or a request, and speaking it.

Every text a player reads is made under :func:`speaking`, which activates the Django catalogue
(``pbem/locale/<code>/LC_MESSAGES/django.po``) and the engine's own language
(``engine.i18n.language``: option labels, events, refusals) together. A language is added by
adding a catalogue and a row to ``settings.LANGUAGES``.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.utils import translation

from engine import i18n

if TYPE_CHECKING:
    from pbem.games.models import Player

DEFAULT = "en"


def codes() -> list[str]:
    """The languages a player may choose."""
    return [code for code, _name in settings.LANGUAGES]


def normalize(word: str | None) -> str | None:
    """A supported language code from a code or a name ('pt', 'pt-BR', 'Português', 'english'), or None."""
    if not word:
        return None
    low = word.strip().lower().replace("_", "-")
    names = {"english": "en", "ingles": "en", "inglês": "en", "portuguese": "pt", "portugues": "pt",
             "português": "pt", "portugues do brasil": "pt"}
    low = names.get(low, low)
    base = low.split("-")[0]
    return base if base in codes() else None


def from_header(value: str | None) -> str | None:
    """The first supported language of a ``Content-Language``/``Accept-Language`` value, or None.

    ``pt-BR, en`` -> ``pt``; ``en-US;q=0.8, pt;q=0.9`` -> ``pt`` (the highest weight first)."""
    if not value:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(value.split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        m = re.search(r"q\s*=\s*([0-9.]+)", params)
        if m:
            try:
                weight = float(m.group(1))
            except ValueError:
                weight = 0.0
        ranked.append((-weight, i, tag))
    for _w, _i, tag in sorted(ranked):
        code = normalize(tag)
        if code is not None:
            return code
    return None


def of(player: Player | None) -> str:
    """The language a player reads (English for nobody, or a code no longer offered)."""
    if player is None:
        return DEFAULT
    return normalize(getattr(player, "language", None)) or DEFAULT


def of_visitor(player: Player | None, accept_language: str | None) -> str:
    """The language of a page anyone may open (home, the games, a campaign): a signed-in player's
    own, else the browser's ``Accept-Language``, else English."""
    if player is not None:
        return of(player)
    return from_header(accept_language) or DEFAULT


def current() -> str:
    """The language active now (the one a new player takes: see pbem.games.services.do_create_player)."""
    return normalize(translation.get_language()) or DEFAULT


@contextlib.contextmanager
def speaking(code: str | None) -> Iterator[str]:
    """Everything made inside is in ``code`` (both the service's and the engine's words)."""
    lang = normalize(code) or DEFAULT
    with translation.override(lang), i18n.language(lang):
        yield lang


def event_text(event: Mapping[str, Any], code: str) -> str:
    """A stored event's text in ``code`` (``engine.i18n.event_text``: from its message, when it has one)."""
    return i18n.event_text(event, code)


def translate(words: str) -> str:
    """A game's word stored in English (a score part, why a game ended) in the language active now."""
    return i18n.translate(words)


def said_label(rules: str, label: str) -> str:
    """An option label the game made in English (a move played for an absent seat, kept in the log)
    in the language active now, where the game can say it again (``engine.i18n.say_again``: Maracaibo
    from its data, a whole label from the catalogue); else as it was made, reported as a miss."""
    code = i18n.current()
    said = i18n.say_again(rules, label, code)
    if said is None:
        i18n.report_miss(label, code)
        return label
    return said


class AdminLanguageMiddleware:
    """Every admin page in the language of the staff account's player (issue 27): the moderator page
    was, the others (a player replaced, the bulk actions' reason, the campaign forms, the lists) were
    English. A staff account with no player (``createsuperuser``) reads English; Django's own admin
    words come from Django's catalogue of that language."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        user = getattr(request, "user", None)
        if not request.path.startswith("/admin/") or user is None or not user.is_authenticated or not user.is_staff:
            return self.get_response(request)
        from pbem.games.models import Player

        with speaking(of(Player.objects.filter(user=user).first())) as code:
            request.LANGUAGE_CODE = code
            return self.get_response(request)
