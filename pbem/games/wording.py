"""How mails and pages say things to a person: deadlines in words, plurals, the story of
what happened told to one reader (their own moves in the second person)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime

from django.utils import dateformat, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.core import Event, Option


def plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


def number(value: object) -> str:
    """A score as people write it: 12, not 12.0; 2.5 stays; anything else as it is."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def time_left(deadline: datetime, now: datetime) -> str:
    """'2 days 23 hours left', '5 hours 10 minutes left', 'past due'; the two largest units only."""
    seconds = int((deadline - now).total_seconds())
    if seconds <= 0:
        return _("past due")
    minutes = seconds // 60
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        parts = [_days(days)] + ([_hours(hours)] if hours else [])
    elif hours:
        parts = [_hours(hours)] + ([_minutes(mins)] if mins else [])
    else:
        parts = [_minutes(max(mins, 1))]
    return _("%(time)s left") % {"time": " ".join(parts)}


def _days(n: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", n) % {"n": n}


def _hours(n: int) -> str:
    return ngettext("%(n)d hour", "%(n)d hours", n) % {"n": n}


def _minutes(n: int) -> str:
    return ngettext("%(n)d minute", "%(n)d minutes", n) % {"n": n}


def when(moment: datetime) -> str:
    """'Thu 3 Dec 14:00 UTC' (the server's times are UTC); in the active language's words
    ('Qui 3 Dez 14:00 UTC': Django's own catalogues name the days and months)."""
    return f"{dateformat.format(moment, 'D j M H:i')} UTC"


def deadline_words(deadline: datetime | None, now: datetime) -> str:
    """'2 days 23 hours left, until Thu 3 Dec 14:00 UTC', or '' without a deadline."""
    if deadline is None:
        return ""
    return _("%(left)s, until %(when)s") % {"left": time_left(deadline, now), "when": when(deadline)}


def notation_examples(options: Sequence[Option]) -> str:
    """Two ways to answer, taken from the options the reader has now."""
    if not options:
        return ""
    first = options[0]
    words = options[1].label if len(options) > 1 else first.label
    return _("Reply with a code or the words of an option, for example %(code)s or %(words)s.") % {
        "code": first.code, "words": words}


# ---- the story ------------------------------------------------------------------------------

_IRREGULAR = {"has": "have", "is": "are", "does": "do", "goes": "go", "was": "were"}


def _second_person_verb(word: str) -> str:
    low = word.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if re.search(r"[^aeiou]ies$", low):
        return word[:-3] + "y"
    if re.search(r"(ss|sh|ch|x|z|o)es$", low):
        return word[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return word[:-1]
    return word


def _you_do(m: re.Match[str]) -> str:
    return f"you {_second_person_verb(m.group(1))}" + re.sub(r"\btheir\b", "your", m.group(2))


def to_reader(text: str, name: str) -> str:
    """An event about ``name`` retold to ``name``: 'Ana plays a 4' -> 'You play a 4'."""
    if not name:
        return text
    n = re.escape(name)
    text = re.sub(rf"^{n}'s\b", "Your", text)
    text = re.sub(rf"\b{n}'s\b", "your", text)

    def start(m: re.Match[str]) -> str:
        return f"You {_second_person_verb(m.group(1))}"

    text = re.sub(rf"^{n} (\w+)", start, text)
    if text.startswith("You "):
        # the reader is the subject: "You discard 1 Wood from their stock" -> "from your stock"
        text = re.sub(r"\btheir\b", "your", text)
        text = re.sub(r"\bthemselves\b", "yourself", text)
    text = re.sub(rf"(?<=[\s(]){n}\b", "you", text)
    # "no opponent of you" -> "no opponent of yours"
    text = re.sub(r"\b(opponents?|neighbours?) of you\b", r"\1 of yours", text)
    # a clause of its own about the reader: "...; you becomes the starting player" -> "you become"
    text = re.sub(r"(^|[;:,.] |\band |\bthen |\bwhile )you ([a-z]+)\b",
                  lambda m: f"{m.group(1)}you {_second_person_verb(m.group(2))}", text)
    # the reader as the subject further in: "Next turn you plays their first card" -> "you play your"
    text = re.sub(rf"\byou ({_VERBS})\b([^;:.]*)", _you_do, text)
    # a sentence that starts with the reader: "All cards are turned over. you: 1 Wood" -> "You: 1 Wood"
    text = re.sub(r"(^|[.!?] )you\b", lambda m: f"{m.group(1)}You", text)
    return text


def to_reader_pt(text: str, name: str) -> str:
    """An event about ``name`` retold to ``name`` in Brazilian Portuguese: 'Bruno compra ...' ->
    'Você compra ...' (#27). Brazilian "você" takes the verb of the third person singular the events are
    written in, and "seu/sua" is its possessive already: only the name changes. 'Turno de Bruno' ->
    'Seu turno', 'O explorador de Bruno' -> 'O seu explorador'; the name anywhere else -> 'você'."""
    if not name:
        return text
    n = re.escape(name)
    text = re.sub(rf"^Turno de {n}\b", "Seu turno", text)
    text = re.sub(rf"\b([Oo]s?|[Aa]s?) ([^\W\d_]+) de {n}\b",
                  lambda m: f"{m.group(1)} {_POSSESSIVE[m.group(1).lower()]} {m.group(2)}", text)
    text = re.sub(rf"(^|[.!?] ){n}\b", lambda m: f"{m.group(1)}Você", text)
    return re.sub(rf"(?<=[\s(]){n}\b", "você", text)


_POSSESSIVE = {"o": "seu", "a": "sua", "os": "seus", "as": "suas"}


#: the verbs the games' events use for what a player does (third person)
_VERBS = "|".join((
    "is", "has", "was", "does", "goes", "plays", "puts", "moves", "takes", "draws", "discards", "becomes",
    "gets", "swaps", "looks", "gives", "steals", "sails", "keeps", "returns", "ends", "discovers", "delivers",
    "loads", "sinks", "rolls", "buys", "chooses", "passes", "reaches", "boards", "loses", "pays", "scores",
    "wins", "stays", "skips", "falls", "leaves", "reveals", "shows", "receives", "places", "turns", "needs",
    "may", "must", "can", "cannot"))

#: nouns the games count, for "1 doubloons" -> "1 doubloon"
_COUNTED = ("card", "space", "point", "doubloon", "step", "cube", "coin", "stack", "turn", "barrel", "round")
_ONE_PLURAL = re.compile(r"\b(?<![.,\d])1 (" + "|".join(_COUNTED) + r")s\b")


def sentence(text: str) -> str:
    """One line of a story as a sentence: a capital first letter, "1 card" not "1 cards"."""
    text = _ONE_PLURAL.sub(r"1 \1", text.strip())
    return text[:1].upper() + text[1:]


def story(events: Sequence[Event], reader: int, name: str) -> list[str]:
    """What happened, told to one seat: each thing once (a thing done several times in a row once,
    with how many times), their own moves as 'you'.

    Why drop some lines: when a move has a line for the reader alone ('You put 1 Water
    face down'), the public line just before it that tells the same thing about them
    ('Ana has chosen a card') would only repeat it.
    """
    def private(e: Event | None) -> bool:
        return e is not None and e.to == (reader,) and e.text.startswith(("You ", "Você "))

    # Why by language: retelling "Ana plays" as "You play" is English grammar; in Brazilian Portuguese
    # only the name changes ("Você compra": to_reader_pt); another language's story would keep the third
    # person its events are written in (issue 27).
    language = translation.get_language() or "en"
    retold = to_reader if language in ("en", "en-us") else to_reader_pt if language.startswith("pt") else None
    out: list[str] = []
    times: list[int] = []  # how often each line happened in a row: three ``vd`` gave 3 doubloons
    twinned: set[int] = set()  # the private lines whose public twin was dropped: each has one twin
    for i, e in enumerate(events):
        prev = events[i - 1] if i else None
        nxt = events[i + 1] if i + 1 < len(events) else None
        about_me = bool(name) and e.to is None and e.text.startswith(f"{name} ")
        # Why once: Maracaibo's round end followed "Ana draws 1 card" / "You draw X" with "Ana receives 8
        # doubloons": as a second twin of the private line, the reader's own income was never told
        twin = i + 1 if private(nxt) and i + 1 not in twinned else i - 1 if private(prev) and i - 1 not in twinned \
            else None
        if about_me and twin is not None:
            twinned.add(twin)
            continue
        line = sentence(retold(e.text, name) if retold is not None else e.text)
        if out and out[-1] == line:
            times[-1] += 1
        else:
            out.append(line)
            times.append(1)
    # (said in the reader's language: QA, issue 27: a Portuguese story read "Ana recebe 1 dobrão. (2 times)")
    return [line if n == 1 else _("%(line)s (%(n)s times)") % {"line": line, "n": n} for line, n in zip(out, times)]
