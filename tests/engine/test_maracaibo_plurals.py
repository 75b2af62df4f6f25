"""Each counted noun in the form for its own number, in English and in Portuguese (#27): "por 1 dobrões",
"1 of 1 village actions" and "1 pontos de combate" came from label patterns and messages that chose a
plural form by the first number of the text (or by none). Played over real game states: every option
label, every event (told in both languages) and the mail's board text of seeded bot games."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from engine import get, i18n
from engine.core import Option
from engine.games.maracaibo import labels
from tests.engine.bot_games import bot_game

R = get("maracaibo")

#: the counted nouns, singular -> plural ("influence", "VP"/"PV" have one form for every number)
NOUNS = {
    "en": {"doubloon": "doubloons", "combat point": "combat points", "point": "points", "action": "actions",
           "village action": "village actions", "card": "cards", "good": "goods", "step": "steps",
           "figure": "figures", "disc": "discs", "marker": "markers", "compass": "compasses", "quest": "quests",
           "token": "tokens", "hint": "hints", "worker": "workers", "assistant": "assistants", "space": "spaces",
           "time": "times", "turn": "turns", "occupied city": "occupied cities",
           "occupied neighbour": "occupied neighbours"},
    "pt": {"dobrão": "dobrões", "ponto": "pontos", "ação": "ações", "carta": "cartas", "mercadoria": "mercadorias",
           "passo": "passos", "figura": "figuras", "disco": "discos", "marcador": "marcadores", "bússola": "bússolas",
           "trabalhador": "trabalhadores", "vez": "vezes", "espaço": "espaços", "missão": "missões",
           "ficha": "fichas", "pista": "pistas", "assistente": "assistentes", "turno": "turnos",
           "vizinho": "vizinhos"},
}


def _rx(nouns: dict[str, str]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    def alt(words: Any) -> str:
        return "|".join(sorted(map(re.escape, words), key=len, reverse=True))

    # (a number of its own: not "x2", "U3", "2-4", "+1" is one; "1 of 1 village actions" counts the second)
    head = r"(?<![\w.+/-])(?:[-+]?)(\d+) (?:more |extra |other |free |village |city )?"
    # (a numbered list's item is no count: "2 quest 2/4", "2 hint H15"; nor a compound: "+3 doubloon income")
    tail = r"\b(?!\s+\d|(?:\s+(?:green|red|verde|vermelha))?\s+[A-Z]{1,2}\d|\s+income)"
    return re.compile(head + "(" + alt(nouns.values()) + ")" + tail), re.compile(head + "(" + alt(nouns) + ")" + tail)


RX = {code: _rx(nouns) for code, nouns in NOUNS.items()}


def wrong_forms(text: str, code: str) -> list[str]:
    """The places in ``text`` where 1 is followed by a plural noun or another number by a singular one."""
    plural, singular = RX[code]
    return ([m.group(0) for m in plural.finditer(text) if m.group(1) == "1"]
            + [m.group(0) for m in singular.finditer(text) if m.group(1) != "1"])


def test_the_checker_finds_a_wrong_form_and_passes_a_right_one() -> None:
    assert wrong_forms("P1 buys Old Scout for 1 doubloons.", "en") == ["1 doubloons"]
    assert wrong_forms("buy Old Scout (3 d) (1 of 1 village actions)", "en") == ["1 village actions"]
    assert wrong_forms("P1 paga 1 pontos de combate e 2 figura", "pt") == ["1 pontos", "2 figura"]
    assert wrong_forms("P1 compra Velho Batedor por 1 dobrão; recompensa x2 bússola; U3 cartas", "pt") == []


CELLS = [({}, 3), ({"mode": "78"}, 3), ({"mode": "79", "promos": True}, 4), ({"mode": "74"}, 2), ({}, 1),
         ({"campaign": True}, 2), ({"mode": "193"}, 2)]


@pytest.mark.slow
@pytest.mark.parametrize(("options", "n"), CELLS)
@pytest.mark.parametrize("seed", ["plural-a", "plural-b"])
def test_no_number_is_followed_by_the_wrong_form_of_its_noun_in_either_language(
        options: dict[str, Any], n: int, seed: str) -> None:
    wrong: dict[str, str] = {}
    counted = {"1": 0, "other": 0}

    def check(text: str, code: str) -> None:
        for bad in wrong_forms(text, code):
            wrong.setdefault(f"{code}: {bad}", text)
        for m in RX[code][0].finditer(text):
            counted["1" if m.group(1) == "1" else "other"] += 1
        for m in RX[code][1].finditer(text):
            counted["1" if m.group(1) == "1" else "other"] += 1

    def watch(step: int, st: dict[str, Any], seat: int, opts: list[Option]) -> None:
        for o in opts:
            check(o.label, "en")
        with i18n.language("pt"):
            for o in R.options(st, seat):
                check(o.label, "pt")
        if step % 40 == 0:
            view = R.view(st, seat)
            check(R.render_mail_text(view), "en")
            with i18n.language("pt"):
                check(R.render_mail_text(view), "pt")

    st, events = bot_game("maracaibo", [f"P{i}" for i in range(n)], options, seed, seed, watch=watch)
    assert R.outcome(st) is not None
    for e in events:
        check(i18n.event_text(e, "en"), "en")
        check(i18n.event_text(e, "pt"), "pt")
    assert not wrong, "\n".join(f"{k}  in: {_line(v, k)}" for k, v in sorted(wrong.items())[:30])
    assert counted["1"] > 0 and counted["other"] > 0, counted  # (the games counted things: the check saw them)


def _marks(pattern: str) -> list[str]:
    return [p for p in re.split(r"([#$@%&])", pattern) if p in ("#", "$", "@", "%", "&")]


def test_every_pattern_counts_each_noun_by_its_own_number() -> None:
    """labels.pt.json: a number mark followed by a counted noun says it with ``{k|one|other}`` (no noun
    after a number in one form for every number), and no translation is a pair chosen by the first number."""
    data = json.loads((Path(labels.__file__).parent / "data" / "labels.pt.json").read_text(encoding="utf-8"))
    words = {w for pair in NOUNS["pt"].items() for w in pair}
    fixed = []
    numbered = {"# hint $ red @ (@)", "# hint $ green @ (@)"}  # (The Search's space 2 holding hint H15: no count)
    for pattern, said in data["patterns"]:
        assert isinstance(said, str), pattern
        if pattern in numbered:
            continue
        marks = _marks(pattern)
        for m in re.finditer(r"(?<!x)\{(\d+)\} (\w+)", said):
            if marks[int(m.group(1))] == "#" and m.group(2) in words:
                fixed.append((pattern, said))
    assert not fixed, fixed[:10]


@pytest.mark.parametrize(("english", "n", "portuguese"), [
    ("pay 1 identical goods for 1 doubloons", 1, "pagar 1 mercadoria idêntica por 1 dobrão"),
    ("pay 2 identical goods for 1 doubloon", 1, "pagar 2 mercadorias idênticas por 1 dobrão"),
    ("pay 1 identical good for 3 doubloons", 1, "pagar 1 mercadoria idêntica por 3 dobrões"),
    ("you may pay 1 combat points for 2 influence and 1 doubloons", 1,
     "pode pagar 1 ponto de combate por 2 de influência e 1 dobrão"),
    ("you may pay 2 combat points for 1 influence and 5 doubloons", 2,
     "pode pagar 2 pontos de combate por 1 de influência e 5 dobrões"),
    ("P1 pays 1 combat point and 0 figures for the combat value missing.", 0,
     "P1 paga 1 ponto de combate e 0 figuras pelo valor de combate em falta."),
    ("P1 pays 2 combat points and 1 figure for the combat value missing.", 0,
     "P1 paga 2 pontos de combate e 1 figura pelo valor de combate em falta."),
])
def test_a_pattern_says_each_noun_by_its_number_whichever_form_the_english_had(english: str, n: int,
                                                                                portuguese: str) -> None:
    assert labels.say(english, "pt") == portuguese


def test_an_older_game_s_stored_events_read_right_in_both_languages() -> None:
    """Events stored before the fix: a message with the old msgid ("for {cost} doubloons", cost 1), a word
    stored as "{n} doubloons" with n 1, and a text the rules made in English ("1 combat points") read
    "1 doubloon"/"1 dobrão" when the story is told again."""
    from engine.games.maracaibo import actions, cards, effects  # noqa: F401  (their old msgids registered)

    buy = i18n.msg("{player} buys {card} for {cost} doubloons.", player="Ana", card=i18n.word("Old Scout"), cost=1)
    assert i18n.render(buy, "en") == "Ana buys Old Scout for 1 doubloon."
    assert i18n.render(buy, "pt") == "Ana compra Velho Batedor por 1 dobrão."
    three = {**buy, "params": {**buy["params"], "cost": 3}}
    assert i18n.render(three, "en") == "Ana buys Old Scout for 3 doubloons."
    assert i18n.render(three, "pt") == "Ana compra Velho Batedor por 3 dobrões."
    deliver = i18n.msg("{player} delivers {good} to {place} (discarding {card}): {reward} doubloons.", player="Ana",
                       good=i18n.word("cotton"), place=i18n.word("Cumana"), card=i18n.word("Old Scout"), reward=1)
    assert i18n.render(deliver, "en").endswith("): 1 doubloon.")
    assert i18n.render(deliver, "pt").endswith("): 1 dobrão.")
    word = i18n.msg("{player} gets {what}.", player="Ana", what=[i18n.word("{n} doubloons", n=1),
                                                                 i18n.word("{n} combat points", n=1)])
    assert i18n.render(word, "pt") == "Ana recebe 1 dobrão, 1 ponto de combate."
    assert i18n.render(word, "en") == "Ana gets 1 doubloon, 1 combat point."
    income = i18n.msg("{player} receives {d} doubloons and {vp} VP.", player="Ana", d=1, vp=1)
    assert i18n.render(income, "pt") == "Ana recebe 1 dobrão e 1 ponto de vitória."
    told = i18n.said_by("maracaibo", "P1 pays 1 combat points and 1 figures for the combat value missing.")
    assert i18n.render(told, "en") == "P1 pays 1 combat point and 1 figure for the combat value missing."
    assert i18n.render(told, "pt") == "P1 paga 1 ponto de combate e 1 figura pelo valor de combate em falta."
    old = i18n.said_by("maracaibo", "buy Old Scout (3 d) (1 of 1 village actions)")
    assert i18n.render(old, "en") == "buy Old Scout (3 d) (1 of 1 village action)"
    assert i18n.render(old, "pt") == "comprar Velho Batedor (3 d) (ação de vila 1 de 1)"


def test_a_counted_word_takes_the_form_of_its_own_number() -> None:
    assert labels.fill("{0} {0|carta|cartas} e {1} {1|dobrão|dobrões}", ["1", "2"]) == "1 carta e 2 dobrões"
    assert labels.fill("{0} {0|carta|cartas} e {1} {1|dobrão|dobrões}", ["2", "1"]) == "2 cartas e 1 dobrão"
    assert labels.fill("{0} ({1|resta|restam} {1})", ["x", "1"]) == "x (resta 1)"
    assert i18n.counted("{n} {n|card|cards}", {"n": 0}) == "{n} cards"
    assert i18n.counted("{n} {n|card|cards}", {"n": -1}) == "{n} card"


def _line(text: str, key: str) -> str:
    bad = key.split(": ", 1)[1]
    return next((line.strip() for line in text.splitlines() if bad in line), text[:120])
