"""Forgiving reading of what players type, shared by every game.

Case and accents are folded, punctuation is loose, option codes and labels
both work, and any unambiguous prefix of a label's words is enough. When
nothing matches, the error lists what would have been understood.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from engine.errors import Malformed

if TYPE_CHECKING:
    from engine.core import Option

_SPACE = re.compile(r"[\s,;:.!?()\[\]\"']+")

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
}


def fold(text: str) -> str:
    """Lower case, accents removed, white space collapsed."""
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def tokens(text: str) -> list[str]:
    """Folded words, punctuation dropped (hyphens and slashes kept inside words)."""
    return [t for t in _SPACE.split(fold(text)) if t]


def number(token: str) -> int | None:
    """``3``, ``#3``, ``three``, ``3rd`` -> 3; anything else -> None."""
    t = token.lstrip("#")
    if t.isdigit():
        return int(t)
    m = re.fullmatch(r"(\d+)(st|nd|rd|th|o|a)", t)
    if m:
        return int(m.group(1))
    return NUMBER_WORDS.get(t)


def resolve(word: str, names: Iterable[str], what: str) -> str:
    """Pick the one name that ``word`` is, or is an unambiguous prefix of.

    Names are compared folded. Raises Malformed listing the choices.
    """
    names = list(names)
    w = fold(word)
    exact = [n for n in names if fold(n) == w]
    if exact:
        return exact[0]
    starts = [n for n in names if fold(n).startswith(w)] if w else []
    if len(starts) == 1:
        return starts[0]
    listing = ", ".join(names)
    if len(starts) > 1:
        raise Malformed(f"{word!r} could be {', '.join(starts)}: write more of the {what}", names)
    raise Malformed(f"{word!r} is not a {what}; the {what}s are: {listing}", names)


def _words_match(typed: Sequence[str], label: Sequence[str]) -> bool:
    """Every typed word is a prefix of the label word in the same place."""
    if not typed or len(typed) > len(label):
        return False
    return all(lw.startswith(tw) for tw, lw in zip(typed, label))


def match_option(text: str, options: Sequence[Option]) -> Option:
    """The option a line names: its code, its label, or an unambiguous abbreviation."""
    typed = tokens(text)
    if not typed:
        raise Malformed("the line is empty", [f"{o.code}: {o.label}" for o in options])
    folded = " ".join(typed)
    for o in options:
        if fold(o.code) == folded:
            return o
    for o in options:
        if " ".join(tokens(o.label)) == folded:
            return o
    candidates = [o for o in options if _words_match(typed, tokens(o.label))]
    if len(candidates) == 1:
        return candidates[0]
    allowed = [f"{o.code}: {o.label}" for o in options]
    if len(candidates) > 1:
        which = "; ".join(o.label for o in candidates[:6])
        raise Malformed(f"{text.strip()!r} is ambiguous: it could be {which}", allowed)
    raise Malformed(f"{text.strip()!r} is not understood here", allowed)


def format_options(options: Sequence[Option]) -> str:
    """The option list as it appears in a mail: one per line, code first."""
    width = max((len(o.code) for o in options), default=0)
    return "\n".join(f"  {o.code.ljust(width)}  {o.label}" for o in options)
