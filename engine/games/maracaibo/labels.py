"""Maracaibo's option labels in the reader's language (issue 27).

The rules make every label in English (the game's notation reads those); for a reader of another
language :func:`in_language` gives the same options with their labels said again from data,
``data/labels.<lang>.json``:

- ``phrases``: whole English texts and their translation (``"no main action"``);
- ``patterns``: ``[English pattern, translation]`` tried in order, where in the pattern ``#`` is a
  number (kept), ``$`` a code such as ``Q12``/``U7`` (kept), ``%`` a player's name beside words of the
  pattern's own (kept), ``&`` a name alone (one or two capitalised words: kept; "Ana: @") and ``@`` any
  text, said again the same
  way (a phrase, a pattern, or a game word of ``data/words.<lang>.json``: a card, a place, a
  good). A translation is ``{0}``, ``{1}``... in the order of the pattern's marks; a counted word is
  ``{k|one|other}``: its form chosen by the number of mark ``k`` (``{0} {0|dobrão|dobrões}``, ``{2}
  {2|mercadoria|mercadorias} {2|idêntica|idênticas}``), each noun by its own number (#27).

The English the rules write says each counted noun by its number ("1 doubloon", "2 doubloons");
an older game's stored text may still say "1 doubloons": a pattern written for the plural also reads
the singular (:func:`_as_plural`), and an English reader is shown an old text with the form put right
(:func:`english_counts`).

A label nothing here says again is shown in English and reported as a catalogue miss
(:func:`engine.i18n.on_miss`: the completeness tests count them). Notation never depends on the
label a player was shown: :func:`english` gives back the label the rules made, which the game's
readings are built from (``notation.py``), and the translated label is read whole besides.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from engine import i18n
from engine.core import Event, Option, new_event

_DATA = Path(str(resources.files("engine.games.maracaibo"))) / "data"
_MARK = re.compile(r"([#$@%&])")
_PIECE = {"#": r"(-?\d+[ab]?)", "$": r"([A-Z]{1,2}\d*|[A-Z]?\d+[ab]?)", "%": r"(.+?)",
          "&": r"([A-Z][^\s:;,()]*(?: [A-Z][^\s:;,()]*)??)"}

#: (option code, label in another language) -> the label in English, for every option translated
_ENGLISH: dict[tuple[str, str], str] = {}
_MAX_KEPT = 50_000


@cache
def _table(code: str) -> tuple[dict[str, str], list[tuple[str, str, re.Pattern[str], re.Pattern[str]]]]:
    path = _DATA / f"labels.{code}.json"
    if not path.is_file():
        return {}, []
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    phrases = {k: v for k, v in (data.get("phrases") or {}).items() if not k.startswith("#")}
    story = _DATA / "campaign" / f"story.{code}.json"  # the campaign's story cards and what it tells (#27)
    told: dict[str, Any] = json.loads(story.read_text(encoding="utf-8")) if story.is_file() else {}
    for k, v in (told.get("phrases") or {}).items():  # a text also without its last full stop ("%, @.")
        phrases.setdefault(k, v)
        if k.endswith(".") and v.endswith("."):
            phrases.setdefault(k[:-1], v[:-1])
    patterns = []
    for pattern, said in [*(told.get("patterns") or []), *(data.get("patterns") or []),
                          *(told.get("patterns_last") or [])]:
        marks = [p for p in _MARK.split(pattern) if p in ("#", "$", "@", "%", "&")]
        lazy = "".join(_PIECE.get(p, "(.+?)" if p == "@" else re.escape(p)) for p in _MARK.split(pattern))
        greedy = "".join(_PIECE.get(p, "(.+)" if p == "@" else re.escape(p)) for p in _MARK.split(pattern))
        if not isinstance(said, str):
            raise ValueError(f"{path.name}: {pattern!r}: one text ({{k|one|other}} for a counted word), not a pair")
        patterns.append(("".join(marks), said, re.compile(lazy), re.compile(greedy)))
    return phrases, patterns


@lru_cache(maxsize=20_000)
def say(text: str, code: str) -> str | None:
    """``text`` (English, a label or a part of one) in the language ``code``; None if no phrase,
    pattern or game word says it."""
    if not text:
        return text
    if code == i18n.DEFAULT:
        return english_counts(text)
    if text != text.strip() and text.strip():  # an indented line: its words said, its indent kept
        inner = say(text.strip(), code)
        if inner is None:
            return None
        lead = text[: len(text) - len(text.lstrip())]
        return lead + inner + text[len(text.rstrip()):]
    phrases, patterns = _table(code)
    if text in phrases:
        return phrases[text]
    found = i18n.lookup(text, code)
    if found is not None:
        return found
    if text.islower() and text.isalpha():  # a nation or good written small ("fight against france")
        found = i18n.lookup(text.title(), code)
        if found is not None:
            return found
    if re.fullmatch(r"-?\d+[ab]?", text):
        return text
    said = _by_pattern(text, patterns, code)
    if said is None and _as_plural(text) != text:  # "1 doubloon": read by the pattern of "# doubloons"
        said = _by_pattern(_as_plural(text), patterns, code)
    return said


def _by_pattern(text: str, patterns: list[tuple[str, str, re.Pattern[str], re.Pattern[str]]],
                code: str) -> str | None:
    for marks, form, lazy, greedy in patterns:
        if marks == "@@" and form in _JOINS:  # "@; @", "@, @", "@ and @"...: a split outside brackets
            said = _said_split(text, _JOINS[form], form, code)
            if said is not None:
                return said
            continue
        for rx in (lazy, greedy):
            m = rx.fullmatch(text)
            if m is None:
                continue
            parts: list[str] = []
            for mark, got in zip(marks, m.groups(), strict=True):
                said = say(got, code) if mark == "@" else got
                if said is None:
                    break
                parts.append(said)
            else:
                return fill(form, parts)
    return None


#: a counted word in a translation: ``{k|one|other}``, the form for the number of mark ``k``
_COUNTED = re.compile(r"\{(\d+)\|([^|{}]*)\|([^|{}]*)\}")


def _count(part: str) -> int | None:
    m = re.fullmatch(r"[-+]?(\d+)[ab]?", part.strip())
    return int(m.group(1)) if m else None


def fill(form: str, parts: Sequence[str]) -> str:
    """A translation with its marks' texts: ``{k}`` the text of mark ``k``, ``{k|one|other}`` the form
    for mark ``k``'s number (one for 1, other for any other number or a text that is none)."""
    def counted(m: re.Match[str]) -> str:
        k = int(m.group(1))
        return m.group(2) if k < len(parts) and _count(parts[k]) == 1 else m.group(3)

    return _COUNTED.sub(counted, form).format(*parts)


#: the counted nouns of the rules' English: singular -> plural
COUNTED_EN = {"doubloon": "doubloons", "combat point": "combat points", "victory point": "victory points",
              "point": "points", "figure": "figures", "disc": "discs", "village action": "village actions",
              "city action": "city actions", "action": "actions", "card": "cards", "good": "goods",
              "identical good": "identical goods", "step": "steps", "marker": "markers", "compass": "compasses",
              "quest": "quests", "combat token": "combat tokens", "token": "tokens", "hint": "hints",
              "worker": "workers", "assistant": "assistants", "movement point": "movement points",
              "explorer space": "explorer spaces", "space": "spaces", "time": "times", "turn": "turns",
              "display card": "display cards", "occupied city": "occupied cities",
              "occupied neighbour": "occupied neighbours"}
_ONE = "|".join(sorted(map(re.escape, COUNTED_EN), key=len, reverse=True))
_MANY = "|".join(sorted(map(re.escape, COUNTED_EN.values()), key=len, reverse=True))
_SINGULAR_AFTER_1 = re.compile(r"(?<![\w.+/-])([-+]?1) (" + _ONE + r")\b(?!')")
_PLURAL_AFTER_1 = re.compile(r"(?<![\w.+/-])([-+]?1) (" + _MANY + r")\b")
_SINGULAR = {v: k for k, v in COUNTED_EN.items()}


def _as_plural(text: str) -> str:
    """``text`` with each counted noun after a 1 in the plural: the form the patterns are written in."""
    return _SINGULAR_AFTER_1.sub(lambda m: f"{m.group(1)} {COUNTED_EN[m.group(2)]}", text)


def english_counts(text: str) -> str:
    """An English text with each counted noun after a 1 in the singular ("1 doubloons", as an older
    game stored it, is "1 doubloon")."""
    return _PLURAL_AFTER_1.sub(lambda m: f"{m.group(1)} {_SINGULAR[m.group(2)]}", text)


#: a two-part pattern's translation -> the English between its parts, for the patterns that join two
#: texts said again (``"@; @"`` is ``"{0}; {1}"``, the same joint in both languages)
_JOINS = {f"{{0}}{sep}{{1}}": sep for sep in ("; ", ", ", ": ", " + ", " / ", "/", " ", ", depois ")}


def _said_split(text: str, sep: str, form: str, code: str) -> str | None:
    """``text`` as two texts joined by ``sep``, each said again, split where no bracket is open (the
    first such split both of whose parts are said): "U2 (hand limit 6); U3 (3 VP now; take display
    cards for free)" splits at the first "; " only."""
    english = {"{0}, depois {1}": ", then "}.get(form, sep)
    start = 0
    while True:
        at = text.find(english, start)
        if at <= 0:
            return None
        left, right = text[:at], text[at + len(english):]
        start = at + 1
        if not right or left.count("(") != left.count(")") or left.count("[") != left.count("]"):
            continue
        a = say(left, code)
        if a is None:
            continue
        b = say(right, code)
        if b is not None:
            return form.format(a, b)


def label(text: str, code: str | None = None) -> str:
    """The label ``text`` in ``code`` (default: the context's), or the English text with a miss."""
    code = code or i18n.current()
    said = say(text, code)
    if said is None:
        i18n.report_miss(text, code)
        return text
    return said


def in_language(options: Sequence[Option], code: str | None = None) -> list[Option]:
    """``options`` with their labels in ``code`` (default: the context's language)."""
    code = code or i18n.current()
    if code == i18n.DEFAULT:
        return list(options)
    out = []
    for o in options:
        said = label(o.label, code)
        if said == o.label:
            out.append(o)
            continue
        if len(_ENGLISH) >= _MAX_KEPT:
            _ENGLISH.clear()
        _ENGLISH[(o.code, said)] = o.label
        out.append(Option(o.code, said, o.move))
    return out


def english(option: Any) -> str:
    """The label the rules made for ``option`` (in English), whatever language it is shown in."""
    return _ENGLISH.get((str(option.code), str(option.label)), str(option.label))


def told(events: list[Event]) -> list[Event]:
    """``events`` each with a message: one made without (its text in English) is said again from
    the same data as the labels, in the context's language now and in any other later
    (``engine.i18n.said_by``: rendered by :func:`say`)."""
    code = i18n.current()
    out = []
    for e in events:
        if e.msg is not None:
            out.append(e)
            continue
        text = e.text if code == i18n.DEFAULT else label(e.text, code)
        out.append(new_event(e.kind, text, e.data, e.to, e.reveals, i18n.said_by("maracaibo", e.text)))
    return out


i18n.register_sayer("maracaibo", say)
