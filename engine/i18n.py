"""The players' language in the engine: labels, events, refusals, views and pictures (issue 27).

Every string a player reads is produced in the language of the context::

    with i18n.language("pt"):
        opts = rules.options(state, seat)      # Portuguese labels
        rules.apply(state, seat, move)         # Portuguese event texts and refusals

The default is English ("en"): the msgids are the English text, so nothing changes for a
caller that never sets a language. Catalogues are stdlib ``gettext`` ``.mo`` files compiled
from ``engine/locale/<lang>/LC_MESSAGES/engine.po`` (``make locale``; the committed ``.mo``
is checked against its ``.po`` by ``tests/engine/test_i18n.py``).

Games write ``_("Sail to {place}").format(place=...)`` for a text, and for an event a
*message* (:func:`msg`: a msgid and its parameters) beside the text, so that the service can
tell the story again in each seat's own language, whoever caused it (:func:`event_text`).
A parameter that is itself a game word is given as ``{"_": "Tobacco"}`` and is translated
too; a list of such words is joined with commas.

Notation does not depend on the language of the context: a Portuguese line is understood in
an English game and the reverse (:func:`vocabulary_words`: Portuguese words as synonyms of the
game's English words, data in ``engine/locale/<lang>/vocabulary.json``).

A catalogue miss (a player-visible text with no translation in a language other than English)
is reported to the hooks installed with :func:`on_miss` (the completeness test collects them).
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "pt")
DEFAULT = "en"
DOMAIN = "engine"

_current: ContextVar[str] = ContextVar("pbem_engine_language", default=DEFAULT)
_miss_hooks: list[Callable[[str, str], None]] = []


def check_language(code: str) -> str:
    """The language code, normalised (``pt-BR`` and ``PT`` are ``pt``); ValueError if unknown."""
    base = str(code).strip().replace("_", "-").split("-")[0].lower()
    if base not in LANGUAGES:
        raise ValueError(f"unknown language {code!r}: one of {', '.join(LANGUAGES)}")
    return base


@contextmanager
def language(code: str) -> Iterator[str]:
    """Produce every player-visible engine string in ``code`` inside the block."""
    token = _current.set(check_language(code))
    try:
        yield _current.get()
    finally:
        _current.reset(token)


def current() -> str:
    """The language of the context ("en" unless :func:`language` says otherwise)."""
    return _current.get()


@cache
def _catalogue(code: str) -> dict[str, Any]:
    """msgid -> translation (str, or a tuple of plural forms) of one language; {} for English."""
    if code == DEFAULT:
        return {}
    path = resources.files("engine") / "locale" / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    try:
        with path.open("rb") as f:
            trans = gettext.GNUTranslations(f)
    except FileNotFoundError:
        return {}
    raw: dict[Any, str] = getattr(trans, "_catalog", {})
    out: dict[str, Any] = {}
    plurals: dict[str, dict[int, str]] = {}
    for key, value in raw.items():
        if isinstance(key, tuple):
            plurals.setdefault(key[0], {})[key[1]] = value
        elif key:
            out[key] = value
    for key, forms in plurals.items():
        out[key] = tuple(forms[i] for i in sorted(forms))
    for written, said in _game_words(code).items():
        out.setdefault(written, said)
    return out


def _game_words(code: str) -> dict[str, str]:
    """The words of each game's data in ``code`` (names of places, goods, cards: they live in
    data files, where xgettext cannot find them): ``words.<code>.json`` beside the game's data
    (``engine/games/<game>/data/`` or the game's own folder), ``{"words": {English: translation}}``."""
    out: dict[str, str] = {}
    games = resources.files("engine") / "games"
    for game in sorted(games.iterdir(), key=lambda g: g.name):
        for path in (game / "data" / f"words.{code}.json", game / f"words.{code}.json"):
            if path.is_file():
                data = json.loads(path.read_text(encoding="utf-8"))
                out.update({k: v for k, v in (data.get("words") or {}).items() if not k.startswith("#") and v})
    return out


def _miss(msgid: str, code: str) -> None:
    for hook in list(_miss_hooks):
        hook(msgid, code)


@contextmanager
def on_miss(hook: Callable[[str, str], None]) -> Iterator[None]:
    """Call ``hook(msgid, language)`` for every text asked for that has no translation."""
    _miss_hooks.append(hook)
    try:
        yield
    finally:
        _miss_hooks.remove(hook)


def misses_watched() -> bool:
    """Whether an :func:`on_miss` hook listens: a renderer that keeps what it drew (Maretta's mail
    picture) then draws again, so that every untranslated text is reported."""
    return bool(_miss_hooks)


def translate(msgid: str, code: str | None = None) -> str:
    """``msgid`` (English text) in the language ``code`` (default: the context's)."""
    code = code or _current.get()
    if code == DEFAULT or not msgid:
        return msgid
    found = _catalogue(code).get(msgid)
    if isinstance(found, str) and found:
        return found
    _miss(msgid, code)
    return msgid


def lookup(msgid: str, code: str | None = None) -> str | None:
    """``msgid``'s translation in ``code`` (default: the context's), or None when the catalogue has
    none: no miss is reported (for a caller that tries other ways of saying it first)."""
    code = code or _current.get()
    if code == DEFAULT:
        return msgid
    found = _catalogue(code).get(msgid)
    return found if isinstance(found, str) and found else None


def report_miss(msgid: str, code: str | None = None) -> None:
    """Tell the :func:`on_miss` hooks that ``msgid`` was shown untranslated in ``code``."""
    code = code or _current.get()
    if code != DEFAULT:
        _miss(msgid, code)


def _(msgid: str) -> str:
    """gettext: ``msgid`` in the context's language."""
    return translate(msgid)


def ngettext(singular: str, plural: str, n: int, code: str | None = None) -> str:
    """The singular or plural form for ``n`` in the context's language (Portuguese and English
    both use one form for 1 and another for the rest)."""
    code = code or _current.get()
    if code != DEFAULT:
        found = _catalogue(code).get(singular)
        if isinstance(found, tuple) and len(found) >= 2:
            return str(found[0] if n == 1 else found[1])
        _miss(singular, code)
    return singular if n == 1 else plural


def N_(msgid: str) -> str:
    """Marks a text for the catalogue without translating it now (data read later with _)."""
    return msgid


def word(msgid: str, **params: Any) -> dict[str, Any]:
    """A parameter that is a game word (or a message in a message: ``word("space {n}", n=3)``),
    translated when the message is rendered."""
    return {"_": msgid, **params}


def msg(msgid: str, **params: Any) -> dict[str, Any]:
    """A message to keep beside a text: enough to render it again in any language."""
    return {"id": msgid, "params": params}


def _param(value: Any, code: str) -> Any:
    if isinstance(value, Mapping) and "_" in value:  # a word, or a message of its own
        inner = {k: _param(v, code) for k, v in value.items() if k != "_"}
        msgid = _CORRECTED.get(str(value["_"]), str(value["_"]))
        forms = _catalogue(code).get(msgid) if code != DEFAULT else None
        if isinstance(forms, tuple) and len(forms) >= 2 and isinstance(value.get("n"), int):
            # (a word stored before it was counted, whose msgid is now a counted word's: its form for n)
            said = str(forms[0] if value["n"] == 1 else forms[1])
        else:
            said = counted(translate(msgid, code), value)
        return said.format(**inner) if inner else said
    if isinstance(value, Mapping) and "n" in value and "one" in value:  # a counted word
        return ngettext(str(value["one"]), str(value.get("other", value["one"])), int(value["n"]), code).format(
            n=value["n"])
    if isinstance(value, Mapping) and "items" in value:  # a list with its own separator
        return str(value.get("sep", ", ")).join(str(_param(v, code)) for v in value["items"])
    if isinstance(value, list):
        return ", ".join(str(_param(v, code)) for v in value)
    return value


#: a game's own way of saying its texts again (``register_sayer``): name -> (English text, language)
#: -> the text in that language, or None
_sayers: dict[str, Callable[[str, str], str | None]] = {}


def register_sayer(name: str, sayer: Callable[[str, str], str | None]) -> None:
    """Let a game say its texts again from data (``sayer(english, language)``): a message made by
    :func:`said_by` is rendered by it (Maracaibo's labels and events, engine/games/maracaibo/labels.py)."""
    _sayers[name] = sayer


def said_by(name: str, english: str) -> dict[str, Any]:
    """The message of an English text that the game ``name``'s sayer tells in any language."""
    return {"id": english, "params": {}, "say": name}


def say_again(name: str, english: str, code: str | None = None) -> str | None:
    """An English text of the game ``name`` (an option label kept in a log) in ``code`` (default: the
    context's language): said by the game's sayer where it has one, else found whole in the catalogue;
    None when neither says it (no miss is reported: the caller decides)."""
    code = code or _current.get()
    if code == DEFAULT:
        return english
    sayer = _sayers.get(name)
    said = sayer(english, code) if sayer is not None else None
    return said if said is not None else lookup(english, code)


def render(message: Mapping[str, Any], code: str | None = None) -> str:
    """A message's text in ``code`` (default: the context's language)."""
    code = code or _current.get()
    if "say" in message:
        english = str(message["id"])
        sayer = _sayers.get(str(message["say"]))
        said = sayer(english, code) if sayer is not None else english
        if said is None:
            _miss(english, code)
            return english
        return said
    raw = dict(message.get("params") or {})
    params = {k: _param(v, code) for k, v in raw.items()}
    msgid = _CORRECTED.get(str(message["id"]), str(message["id"]))
    text = translate(msgid, code)
    try:
        return counted(text, raw).format(**params) if params else text
    except (KeyError, IndexError, ValueError):  # a broken translation: the English text
        return counted(msgid, raw).format(**params)


#: a counted word in a message: ``{name|one|other}``, the form for the number of the parameter ``name``
#: ("{player} buys {card} for {cost} {cost|doubloon|doubloons}.": each noun by its own number, #27)
_COUNTED = re.compile(r"\{(\w+)\|([^|{}]*)\|([^|{}]*)\}")

#: an older msgid stored in games' events -> the msgid that says the same with its counted words
#: (:func:`correct`): the story of a game played before keeps reading right
_CORRECTED: dict[str, str] = {}


def counted(text: str, params: Mapping[str, Any]) -> str:
    """``text`` with each ``{name|one|other}`` said in the form for the parameter's number: one for 1
    (or -1), other for any other number or a parameter that is none."""
    def form(m: re.Match[str]) -> str:
        n = params.get(m.group(1))
        return m.group(2) if isinstance(n, int) and not isinstance(n, bool) and abs(n) == 1 else m.group(3)

    return _COUNTED.sub(form, text)


def correct(old: str, new: str) -> str:
    """Render the stored messages of the msgid ``old`` as ``new`` (the same parameters): a msgid whose
    counted word was said in one form for every number. Returns ``new`` (marked for the catalogue
    where it is written)."""
    _CORRECTED[old] = new
    return new


def text(msgid: str, **params: Any) -> tuple[str, dict[str, Any]]:
    """``(text in the context's language, its message)``: for an event's ``text`` and ``msg``."""
    m = msg(msgid, **params)
    return render(m), m


def event_text(event: Mapping[str, Any], code: str) -> str:
    """An event's text (an :meth:`engine.core.Event.as_dict`) in the language ``code``: rendered
    from its message when it has one, else the text it was stored with."""
    code = check_language(code)
    m = event.get("msg")
    if m:
        return render(m, code)
    return str(event.get("text", ""))


def told(event: Mapping[str, Any], code: str | None = None) -> dict[str, Any]:
    """A stored event (:meth:`engine.core.Event.as_dict`) with its text in ``code`` (default: the
    context's language): its text was made in the language of whoever moved."""
    if not event.get("msg"):
        return dict(event)
    return {**event, "text": render(event["msg"], code)}


# ---- notation -----------------------------------------------------------------------------------


@cache
def _vocabulary_data(code: str) -> dict[str, dict[str, list[str]]]:
    path = resources.files("engine") / "locale" / code / "vocabulary.json"
    try:
        data: dict[str, dict[str, list[str]]] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    return data


def vocabulary_words(game: str) -> dict[str, list[str]]:
    """Words of other languages for ``game``: written form -> the English words it stands for
    (every language at once: notation understands them whatever the context's language)."""
    out: dict[str, list[str]] = {}
    for code in LANGUAGES:
        if code == DEFAULT:
            continue
        data = _vocabulary_data(code)
        for part in ("*", game):
            for written, english in (data.get(part) or {}).items():
                if written.startswith("#"):
                    continue
                out.setdefault(written, []).extend(english)
    return out
