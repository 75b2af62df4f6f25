"""Reading what players type, shared by every game: a line is understood whole, or refused.

The contract
------------
A line names one of the current options (the legal choices of the seat now) or it is refused.
Every word of the line must be *accounted for* by the option it is read as: a word is either a
filler (``the``, ``a``, ``please``, ``my``, ``card``, ``o``, ``os`` ...), or it means something
(a verb, a number, a name) that the option's reading contains. A line with a word left over,
or one that fits two different moves equally well, is refused with the candidates listed. The
engine never acts on a prefix of a line.

How a line is read
------------------
1. Option codes and whole labels match first, exactly (after folding case and accents).
2. Otherwise the line is *lexed*: folded, arrows and dashes (``→``, ``->``, `` - ``) read as
   "to", ``don't``/``não`` as "not", hyphens and ``3wood``-style run-ons split, then cut into
   lexemes by the game's :class:`Vocabulary`: the longest phrase first (``cabo verde``,
   ``troop of monkeys``), then single words (plurals folded: ``ropes`` is ``rope``), numbers
   (``3``, ``three``, ``3rd``, ``três``), fillers, unambiguous abbreviations (``giv``, ``aco``)
   and, last, fuzzy guesses (rapidfuzz) for typos (``Karla``, ``guinee``, ``st tome``,
   ``SerraLeoa``). A guess is taken only when one meaning is clearly closest; the answer then
   says what it was read as ("read `karla` as Carla", :attr:`Reading.notes`).
3. Each option has one or more *readings*: texts lexed the same way into *slots* (by default
   its label; a game may give others, such as ``keep 1 3`` beside ``keep Guiné, Malaca``).
   A slot is a term; numbers and names (places, players, cards) are *required* (leaving one
   out makes a weaker match), other words (verbs, nouns) are optional and may be repeated;
   words in ``(...)`` or ``[...]`` are *weak*: allowed, never needed. A word preceded by
   ``not``/``no``/``don't`` is accounted for by an option that does *not* contain it
   (``no steal, move``).
4. The options whose reading accounts for every word compete: one that leaves no required
   slot out wins over those that do, then the fewest weak words used; a line that leaves
   something out (an abbreviation, ``steal rope``) is taken only when no other move fits it.
   One winner: that move. Several different moves
   tied: refused as ambiguous, listing them. None: refused, listing the closest options, with
   the game's own explanation when it has one (``2 Food shares a suit with ...``).

Adding a game
-------------
A game states its vocabulary as data and gets all of the above::

    VOCABULARY = Vocabulary.build(
        verbs={"sail": ["move", "go", "navegar"], "buy": ["purchase", "comprar"],
               "deliver": ["entregar"], "fight": ["attack", "combat"], "career": ["advance"],
               "draw": ["take"]},
        names={"tobacco": ["tabaco"], "france": ["franca", "french"],
               "display": ["market"], "upper": ["top"], "lower": ["bottom"]},
        fillers=["for", "into"],
        display={"tobacco": "Tobacco", "france": "France"},
    )

With option labels such as ``sail 5``, ``buy Tobacco Plantation``, ``fight France``,
``career 2 upper`` and ``draw 2 display``, players may write ``sail to 5``, ``buy tobacco
plantation``, ``fight the french``, ``career 2 top``, or the codes; words of a label that
the vocabulary does not list (``plantation``) are understood as themselves. Players' names are
added by :meth:`engine.core.Rules._vocabulary`. A game overrides ``Rules._readings`` for other
ways of naming an option, and ``Rules._explain`` to say why a line that names nothing legal
is refused.

This module knows nothing of :mod:`engine.core`: options are anything with ``code``,
``label`` and ``move`` (:class:`Choice`).
"""

from __future__ import annotations

import copy
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from rapidfuzz import fuzz

from engine.errors import IllegalMove, Malformed
from engine.i18n import _, ngettext

_SPACE = re.compile("[\\s,;:.!?()\\[\\]{}\"'`\u00b4\u2019\u2018\u201c\u201d*_=<>|+&]+")

NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
    "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "um": 1, "uma": 1, "dois": 2, "duas": 2, "tres": 3, "quatro": 4, "cinco": 5,
    "seis": 6, "sete": 7, "oito": 8, "nove": 9, "dez": 10,
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "primeiro": 1, "primeira": 1, "segundo": 2, "segunda": 2, "terceiro": 3, "terceira": 3,
}

#: words that carry no meaning in any game (English and Portuguese articles, politeness, glue)
_FILLER_TEXT = """
    the a an this that these those some any my your his her their our its
    please pls thanks thank kindly ok okay i ill id want wish would like let lets me
    card cards carta cartas with of and then also just here
    to from into onto on in at by for
    o os as uns umas da do das dos de para pra com e ao aos na nas em
    minha meu minhas meus sua seu por favor quero queria gostaria vou obrigado obrigada
    s
"""
FILLERS = frozenset(_FILLER_TEXT.split())
#: words that negate the word after them
NEGATIONS = frozenset({"not", "never", "without", "nao", "no", "nunca", "sem"})
#: words that are commands in themselves somewhere (a turn's end, a door's own commands): where a
#: game does not know one, it is an unknown word, never an abbreviation or a typo of another
#: (``end`` is not ``send``: ``play 3 fire end`` must not be read as ``play 3 fire``)
RESERVED = frozenset({"end", "done", "pass", "stop", "finish", "fim", "undo", "join", "skip", "next", "resign",
                      "quit", "say"})

_ARROWS = re.compile("\\s*(?:\u2192|\u21d2|\u27f6|->|=>|-->|\u2014|\u2013|\\s-\\s)\\s*")
_NEG = re.compile(r"\b(?:don'?t|do not|dont|não|nao|won'?t|no)\b")
_RUN_ON = re.compile(r"(?<=[a-z])(?=\d)|(?<=\d)(?=[a-z])")
_ORDINAL = re.compile(r"(\d+)(st|nd|rd|th|o|a|º|ª)")
_QUOTE = re.compile("(?<=[a-z])['\u2019](?=s\\b)")


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
    if t.isascii() and t.isdigit():
        return int(t)
    m = _ORDINAL.fullmatch(t)
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


def singular(word: str) -> list[str]:
    """Forms a plural may come from: ``ropes`` -> rope, ``boxes`` -> box, ``açores`` stays too."""
    out = []
    if len(word) > 3 and word.endswith("es"):
        out.append(word[:-2])
    if len(word) > 2 and word.endswith("s") and not word.endswith("ss"):
        out.append(word[:-1])
    return out


# ---- vocabulary ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)  # hashed by identity: readings are cached per vocabulary
class Vocabulary:
    """What the words of a game mean: data, merged per decision with the names in play.

    ``words``: a folded word or phrase a player may type -> the terms it may mean (a synonym
    may mean several: ``put`` is give or play). ``names``: the terms that name one thing (a
    place, a player, a card, a suit): required in a reading, one word each. ``fillers``:
    words that mean nothing in this game, on top of :data:`FILLERS`. ``display``: how a term
    reads to a person, for "read `karla` as Carla".
    """

    words: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    names: frozenset[str] = frozenset()
    fillers: frozenset[str] = frozenset()
    display: Mapping[str, str] = field(default_factory=dict)
    #: first letter -> (key, its words, terms): what abbreviations are looked up in
    by_first: Mapping[str, tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]] = field(
        default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, list[tuple[str, tuple[str, ...], tuple[str, ...]]]] = {}
        for key, terms in self.words.items():
            index.setdefault(key[:1], []).append((key, tuple(key.split()), terms))
        object.__setattr__(self, "by_first", {k: tuple(v) for k, v in index.items()})

    @classmethod
    def build(cls, *, verbs: Mapping[str, Iterable[str]] | None = None,
              names: Mapping[str, Iterable[str]] | None = None,
              words: Mapping[str, Iterable[str]] | None = None,
              fillers: Iterable[str] = (), display: Mapping[str, str] | None = None) -> Vocabulary:
        """``verbs``/``names``: term -> other ways to write it (the term itself is one of them);
        ``words``: a written form -> the several terms it may mean."""
        table: dict[str, set[str]] = {}

        def add(written: str, term: str) -> None:
            table.setdefault(" ".join(tokens(written.replace("-", " "))), set()).add(term)

        for term, synonyms in (verbs or {}).items():
            for w in (term, *synonyms):
                add(w, term)
        for term, aliases in (names or {}).items():
            for w in (term, *aliases):
                add(w, term)
        for written, terms in (words or {}).items():
            for term in terms:
                add(written, term)
        return cls({k: tuple(sorted(v)) for k, v in table.items() if k},
                   frozenset(names or {}), frozenset(fold(f) for f in fillers), dict(display or {}))

    def merged(self, other: Vocabulary) -> Vocabulary:
        words: dict[str, tuple[str, ...]] = dict(self.words)
        for k, v in other.words.items():
            words[k] = tuple(sorted(set(words.get(k, ())) | set(v)))
        return Vocabulary(words, self.names | other.names, self.fillers | other.fillers,
                          {**self.display, **other.display})

    def show(self, term: str) -> str:
        return self.display.get(term, term)


# ---- lexing -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Lexeme:
    """One meaningful piece of a line: the words typed, the terms they may mean."""

    text: str
    terms: frozenset[str]
    negated: bool = False
    #: set when the words were a fuzzy guess: what they were read as
    guess: str | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """A lexed line: its lexemes, the words nobody understood, the guesses made."""

    text: str
    lexemes: tuple[Lexeme, ...]
    unknown: tuple[str, ...]
    notes: tuple[str, ...]

    def numbers(self) -> list[int]:
        return [int(t) for x in self.lexemes if not x.negated for t in x.terms if t.isdigit()]

    def terms(self) -> set[str]:
        return {t for x in self.lexemes if not x.negated for t in x.terms}


def _words_of(text: str, vocab: Vocabulary) -> list[str]:
    """Folded, normalised words: arrows and dashes read as 'to', negations as 'not', run-ons split."""
    t = fold(text)
    t = _ARROWS.sub(" to ", f" {t} ")
    t = _QUOTE.sub(" ", t)
    t = _NEG.sub(" not ", t)
    out: list[str] = []
    for raw in _SPACE.split(t):
        for w in raw.replace("/", " ").split("-"):
            if not w:
                continue
            if w in vocab.words or _ORDINAL.fullmatch(w) or not any(c.isdigit() for c in w):
                out.append(w)
            else:
                out.extend(p for p in _RUN_ON.split(w) if p)
    return out


class _Union(Mapping[str, tuple[str, ...]]):
    """Two word tables read as one (a word in both means what it means in either)."""

    def __init__(self, a: Mapping[str, tuple[str, ...]], b: Mapping[str, tuple[str, ...]]) -> None:
        self.a, self.b = a, b

    def __getitem__(self, key: str) -> tuple[str, ...]:
        x, y = self.a.get(key), self.b.get(key)
        if x is None and y is None:
            raise KeyError(key)
        return tuple(sorted(set(x or ()) | set(y or ())))

    def __contains__(self, key: object) -> bool:
        return key in self.a or key in self.b

    def __iter__(self):  # type: ignore[no-untyped-def]
        yield from self.a
        yield from (k for k in self.b if k not in self.a)

    def __len__(self) -> int:
        return len(set(self.a) | set(self.b))


def _fuzzy(typed: str, vocab: Vocabulary, extra: Vocabulary | None = None) -> tuple[str, frozenset[str]] | None:
    """The one vocabulary entry ``typed`` is clearly a typo of, or None (none close, or two close)."""
    if len(typed.replace(" ", "")) < 3:
        return None
    best: dict[frozenset[str], tuple[float, str]] = {}
    squeezed = typed.replace(" ", "")
    items = list(vocab.words.items()) + (list(extra.words.items()) if extra else [])
    for key, terms in items:
        if len(key) < 3:
            continue
        score = max(fuzz.ratio(typed, key), fuzz.ratio(squeezed, key.replace(" ", "")))
        t = frozenset(terms)
        if score > best.get(t, (0.0, ""))[0]:
            best[t] = (score, key)
    ranked = sorted(best.items(), key=lambda kv: -kv[1][0])
    if not ranked:
        return None
    (found, (score, _key)) = ranked[0]
    cutoff = 80.0 if len(squeezed) < 6 else 75.0
    if score < cutoff:
        return None
    if len(ranked) > 1 and ranked[1][1][0] > score - 8:  # two close candidates: never pick
        return None
    return _key, found


def lex(text: str, vocab: Vocabulary, extra: Vocabulary | None = None, strict: bool = False) -> Line:
    """Cut a line into lexemes (see the module docstring); nothing is dropped silently.

    ``extra``: more words (those of the option labels now). ``strict``: no abbreviations and no
    guesses (for reading labels, whose unknown words simply mean themselves).
    """
    words = _words_of(text, vocab)
    fillers = FILLERS | vocab.fillers  # for deciding where a phrase may start
    vocabs = (vocab,) if extra is None else (vocab, extra)
    table: Mapping[str, tuple[str, ...]] = vocab.words if extra is None else _Union(vocab.words, extra.words)
    lexemes: list[Lexeme] = []
    unknown: list[str] = []
    notes: list[str] = []
    negate = False
    i, n = 0, len(words)

    def emit(span: str, terms: Iterable[str], guess: str | None = None) -> None:
        nonlocal negate
        lexemes.append(Lexeme(span, frozenset(terms), negate, guess))
        negate = False

    def exact(key: str) -> tuple[str, ...] | None:
        if key in table:
            return table[key]
        head, _sep, last = key.rpartition(" ")
        for s in singular(last):
            k = f"{head} {s}" if head else s
            if k in table:
                return table[k]
        return None

    while i < n:
        w = words[i]
        hit = None
        for j in range(min(n, i + 5), i + 1, -1):  # the longest phrase first
            terms = exact(" ".join(words[i:j]))
            if terms is not None:
                hit = (j, terms)
                break
        # A phrase abbreviated word by word (``c verde``, ``cabo v``, ``s. tomé``, ``cabo boa esp``): each
        # typed word starts the phrase's word (the phrase's fillers may be left out). A first word that
        # means something alone (``cabo``: the Cape) or a one-letter filler (``s``) starts one only when
        # the words after it mean nothing alone; after a filler, those words must be whole.
        head_known = exact(w) is not None
        head_filler = w in fillers
        if (hit is None and not strict and i + 1 < n and number(w) is None and w not in NEGATIONS
                and (not head_filler or len(w) == 1)):
            for j in range(min(n, i + 4), i + 1, -1):
                span = words[i:j]
                if any(number(x) is not None or x in fillers for x in span[1:]):
                    continue
                if (head_known or head_filler) and any(exact(x) is not None for x in span[1:]):
                    continue
                found = {t for v in vocabs for _key, kws, terms in v.by_first.get(w[:1], ())
                         for ks in {kws, tuple(k for k in kws if k not in fillers)} if len(ks) == len(span)
                         and all(kw.startswith(tw) for tw, kw in zip(span, ks))
                         and (not head_filler or all(kw == tw for tw, kw in zip(span[1:], ks[1:])))
                         for t in terms}
                if found:
                    hit = (j, tuple(found))
                    break
        if hit is not None:
            j, terms = hit
            emit(" ".join(words[i:j]), terms)
            i = j
            continue
        if w in NEGATIONS or w == "not":
            negate = True
            i += 1
            continue
        if w in vocab.fillers:
            i += 1
            continue
        k = number(w)
        # Why a name first: ``9a`` is a place's own name (Maracaibo), not the ordinal "9th" it also spells
        if k is not None and not (_ORDINAL.fullmatch(w) and exact(w) is not None):
            emit(w, [str(k)])
            i += 1
            continue
        terms = exact(w)
        if terms is None and w in FILLERS:
            i += 1
            continue
        if terms is None and not strict and i + 1 < n and number(words[i + 1]) is None \
                and words[i + 1] not in fillers:
            two = f"{w} {words[i + 1]}"
            g2 = _fuzzy(two, vocab, extra)
            if g2 is not None and len(g2[0].split()) > 1:  # "st tome": a phrase mistyped, not an abbreviation
                shown = (" " + _("or") + " ").join(sorted({vocab.show(t) for t in g2[1]}))
                note = _("read `{typed}` as {shown}").format(typed=two, shown=shown)
                emit(two, g2[1], note)
                notes.append(note)
                i += 2
                continue
        if terms is None and w in RESERVED:
            unknown.append(w)
            i += 1
            continue
        if terms is None:
            pre = set() if strict else {t for v in vocabs for key, _kws, ts in v.by_first.get(w[:1], ())
                                        if key.startswith(w) for t in ts}
            if pre:
                emit(w, pre)
                i += 1
                continue
            guess = None
            if strict:
                unknown.append(w)
                i += 1
                continue
            if i + 1 < n and words[i + 1] not in fillers and number(words[i + 1]) is None:
                two = f"{w} {words[i + 1]}"
                g2 = _fuzzy(two, vocab, extra)
                if g2 is not None and len(g2[0].split()) > 1:
                    guess = (2, two, g2)
            if guess is None:
                g1 = _fuzzy(w, vocab, extra)
                if g1 is not None:
                    guess = (1, w, g1)
            if guess is not None:
                width, typed, (_matched, gterms) = guess
                shown = (" " + _("or") + " ").join(sorted({vocab.show(t) for t in gterms}))
                note = _("read `{typed}` as {shown}").format(typed=typed, shown=shown)
                emit(typed, gterms, note)
                notes.append(note)
                i += width
                continue
            unknown.append(w)
            i += 1
            continue
        emit(w, terms)
        i += 1
    if negate:  # a "not" with nothing after it ("end not"): it negates nothing, so the line is not understood
        unknown.append(next(w for w in reversed(words) if w in NEGATIONS or w == "not"))
    # A guess that only repeats a meaning typed in so many words elsewhere in the line adds nothing the
    # line did not say: it is a word left over, not a typo (``play 3 fire end``: ``end`` is not ``send``).
    said = {t for x in lexemes if x.guess is None and not x.negated for t in x.terms}
    for x in [x for x in lexemes if x.guess is not None and x.terms & said]:
        lexemes.remove(x)
        unknown.append(x.text)
        notes.remove(x.guess or "")
    return Line(text, tuple(lexemes), tuple(unknown), tuple(notes))


# ---- readings and matching ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Slot:
    """One thing a reading contains. Required slots are numbers and names; weak ones are extras."""

    terms: frozenset[str]
    required: bool
    weak: bool


@functools.lru_cache(maxsize=1 << 15)
def slots_of(reading: str, vocab: Vocabulary) -> tuple[Slot, ...]:
    """The slots of a reading text: lexed like a typed line, but its words unknown to the
    vocabulary simply mean themselves; ``(...)``/``[...]`` parts are weak."""
    out: list[Slot] = []
    for part, weak in _weak_parts(reading):
        line = lex(part, vocab, strict=True)
        for x in line.lexemes:
            if x.guess is not None or x.negated:
                continue
            named = any(t.isdigit() or t in vocab.names for t in x.terms)
            out.append(Slot(x.terms, named and not weak, weak))
        for w in line.unknown:
            out.append(Slot(frozenset([w]), False, weak))
    return tuple(out)


def _weak_parts(text: str) -> list[tuple[str, bool]]:
    parts: list[tuple[str, bool]] = []
    for m in re.finditer(r"[(\[]([^)\]]*)[)\]]|([^(\[]+)", text):
        if m.group(1) is not None:
            parts.append((m.group(1), True))
        elif m.group(2).strip():
            parts.append((m.group(2), False))
    return parts


def _label_words(readings: Iterable[str], vocab: Vocabulary) -> Vocabulary:
    """Words of the readings that the vocabulary does not list: each means itself."""
    table: dict[str, tuple[str, ...]] = {}
    for r in readings:
        for w in _unknown_words(r, vocab):
            table[w] = (w,)
    return Vocabulary(table)


@functools.lru_cache(maxsize=1 << 15)
def _unknown_words(reading: str, vocab: Vocabulary) -> tuple[str, ...]:
    return lex(reading.replace("(", " ").replace(")", " ").replace("[", " ").replace("]", " "), vocab,
               strict=True).unknown


def fit(line: Line, slots: Sequence[Slot]) -> tuple[int, int] | None:
    """How well a reading accounts for a line: None if a word is left over, else
    (required slots left out, weak slots used). Each required slot takes one word."""
    present = {t for s in slots for t in s.terms}
    positive: list[Lexeme] = []
    for x in line.lexemes:
        if x.negated:
            if x.terms & present:
                return None
        else:
            positive.append(x)
    single = [s for s in slots if s.required]
    best: list[tuple[int, int]] = []

    def go(k: int, used: frozenset[int], weak: int) -> None:
        if k == len(positive):
            score = (len(single) - len(used), weak)
            if not best or score < best[0]:
                best[:] = [score]
            return
        x = positive[k]
        for idx, s in enumerate(single):
            if idx not in used and s.terms & x.terms:
                go(k + 1, used | {idx}, weak)
        strong_free = any(not s.required and not s.weak and s.terms & x.terms for s in slots)
        if strong_free:
            go(k + 1, used, weak)
        elif any(s.weak and s.terms & x.terms for s in slots):
            go(k + 1, used, weak + 1)

    go(0, frozenset(), 0)
    return best[0] if best else None


class Choice(Protocol):
    """An option as this module sees it (``engine.core.Option`` is one)."""

    @property
    def code(self) -> str: ...
    @property
    def label(self) -> str: ...
    @property
    def move(self) -> Mapping[str, Any]: ...


C = TypeVar("C", bound=Choice)


@dataclass(frozen=True, slots=True)
class Reading:
    """What a line was read as: the move (a fresh copy), the option's label, and any guesses."""

    move: dict[str, Any]
    label: str
    code: str
    #: "read `karla` as Carla": shown to the player beside the move
    notes: tuple[str, ...] = ()


class Noted(dict[str, Any]):
    """A move read from a line, carrying what was guessed (``notes``) to whoever applies it.

    It is a plain dict for everyone else (equality, JSON); ``engine.core.note_events`` turns
    the notes into events for the seat that typed the line.
    """

    notes: tuple[str, ...] = ()


#: a line that can only be meant as an option's code: one word of letters and digits, both ("hHP6", "lc14")
_CODE_SHAPE = re.compile(r"(?=[^\W_]*\d)(?=[^\W_]*[^\W\d_])[^\W_]+")


def listing(options: Sequence[Choice]) -> list[str]:
    return [f"{o.code}: {o.label}" for o in options]


def read_line(text: str, options: Sequence[Choice], vocab: Vocabulary | None = None,
              readings: Callable[[Choice], Sequence[str]] | None = None,
              explain: Callable[[Line], str | None] | None = None) -> Reading:
    """The one option a whole line names, or Malformed/IllegalMove listing what would be understood.

    ``readings(option)``: the texts that name an option (default: its label).
    ``explain(line)``: why a line whose words are all understood fits no option (or None).
    """
    vocab = vocab or Vocabulary()
    allowed = listing(options)
    typed = tokens(text)
    shown = text.strip()
    if not typed:
        raise Malformed(_("the line is empty"), allowed)
    folded = " ".join(typed)
    for o in options:
        if fold(o.code) == folded or fold(o.code) == fold(text.strip()):
            return _reading(o, ())
    for o in options:
        if " ".join(tokens(o.label)) == folded:
            return _reading(o, ())
    texts = {id(o): list(readings(o)) if readings else [o.label] for o in options}
    extra = _label_words((t for ts in texts.values() for t in ts), vocab)
    line = lex(text, vocab, extra)
    if line.unknown and _CODE_SHAPE.fullmatch(shown):
        # Why not "I do not know the word 'hhp'": a word of letters and digits is a code, and the real
        # reason is that no option now has it (QA, #20: 'hHP6' was answered about 'hhp')
        raise Malformed(_("{line} is not the code of any of your options now. Write one of the options below, "
                          "or its code.").format(line=repr(shown)), allowed)
    if line.unknown and all(u in NEGATIONS or u == "not" for u in line.unknown):
        # (a "no" with nothing after it was answered "I do not know the word 'not'": the word the
        # player typed is known, it just refuses nothing; found by a play-test)
        raise Malformed(_("{line} says no to nothing: a 'no' or 'not' goes before the move it refuses. Write one "
                          "of the options below, or its code.").format(line=repr(shown)), allowed)
    if line.unknown:
        words = ", ".join(f"'{u}'" for u in line.unknown)
        raise Malformed(ngettext("{line} is not understood: I do not know the word {words} here. "
                                 "Write one of the options below, or its code.",
                                 "{line} is not understood: I do not know the words {words} here. "
                                 "Write one of the options below, or its code.",
                                 len(line.unknown)).format(line=repr(shown), words=words), allowed)
    if not line.lexemes:
        raise Malformed(_("{line} names no move. Write one of the options below, or its code.").format(
            line=repr(shown)), allowed)
    slots = {id(o): [slots_of(t, vocab) for t in texts[id(o)]] for o in options}
    scored: list[tuple[tuple[int, int], Choice]] = []
    for o in options:
        fits = [f for sl in slots[id(o)] if (f := fit(line, sl)) is not None]
        if fits:
            scored.append((min(fits), o))
    if scored:
        top = min(s for s, _ in scored)
        # A line that leaves something out (``play`` for ``play 3 Wood``) is an abbreviation:
        # taken only when no other move fits it at all, never by counting what is missing.
        winners = [o for s, o in scored if s == top] if top[0] == 0 else [o for _, o in scored]
        if all(w.move == winners[0].move for w in winners):
            return _reading(winners[0], line.notes)
        which = "; ".join(o.label for o in winners[:8]) + ("; ..." if len(winners) > 8 else "")
        raise Malformed(_("{line} is ambiguous: it fits several moves: {which}. Say which one.").format(
            line=repr(shown), which=which),
                        listing(winners) + [a for a in allowed if a not in listing(winners)])
    why = explain(line) if explain else None
    near = _closest(line, options, slots)
    msg = _("{line} is not a legal move now").format(line=repr(shown))
    if why:
        msg += f": {why}"
    else:
        msg += ": " + _("no move uses all of {words}").format(words=", ".join(f"'{x.text}'" for x in line.lexemes))
    if near:
        msg += ". " + _("Closest: {options}").format(options="; ".join(o.label for o in near))
    raise IllegalMove(msg + ". " + _("Write one of the options below, or its code."), allowed)


def _closest(line: Line, options: Sequence[Choice], slots: Mapping[int, list[tuple[Slot, ...]]]) -> list[Choice]:
    """Options that account for the most words of the line (at least one), best first."""
    scored = []
    for o in options:
        present = {term for sl in slots[id(o)] for s in sl for term in s.terms}
        hits = sum(1 for x in line.lexemes if (not x.negated) and x.terms & present)
        if hits:
            scored.append((hits, o))
    if not scored:
        return []
    most = max(h for h, _ in scored)
    return [o for h, o in scored if h == most][:4]


def _reading(o: Choice, notes: tuple[str, ...]) -> Reading:
    # a fresh copy: games hand out shared, precomputed option objects
    return Reading(copy.deepcopy(dict(o.move)), o.label, o.code, notes)


def match_option(text: str, options: Sequence[C]) -> C:
    """The option a whole line names, read with no game vocabulary (codes, labels, abbreviations)."""
    r = read_line(text, options)
    for o in options:
        if o.code == r.code:
            return o
    raise AssertionError(r.code)


def format_options(options: Sequence[Choice]) -> str:
    """The option list as it appears in a mail: one per line, code first."""
    width = max((len(o.code) for o in options), default=0)
    return "\n".join(f"  {o.code.ljust(width)}  {o.label}" for o in options)
