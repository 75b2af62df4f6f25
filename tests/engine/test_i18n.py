"""Portuguese in the engine (issue 27): the language context, catalogues, events told again in
another language, and notation understood in either language whatever the context's."""

from __future__ import annotations

import ast
import gettext
import shutil
import subprocess
from pathlib import Path

import pytest

from engine import get, i18n
from engine.core import Event, Option
from engine.errors import IllegalMove
from engine.i18n import language
from tests.engine import test_maretta_rules as M
from tests.engine.bot_games import bot_game

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "engine" / "locale"


def _msgids(pot: str) -> set[str]:
    """The msgids of a .pot file (its strings joined, escapes read)."""
    out: set[str] = set()
    current: list[str] | None = None
    for line in pot.splitlines() + [""]:
        if line.startswith("msgid "):
            current = [line[6:]]
        elif line.startswith('"') and current is not None:
            current.append(line)
        else:
            if current is not None:
                out.add("".join(ast.literal_eval(part) for part in current))
            current = None
    return out


def _catalog(mo: Path) -> dict[object, str]:
    with mo.open("rb") as f:
        cat = dict(gettext.GNUTranslations(f)._catalog)
    cat.pop("", None)  # (the header: dates)
    return cat


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt (gettext) is not installed here")
@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_it_ships_a_compiled_catalogue_that_matches_its_po(code: str, tmp_path: Path) -> None:
    po = LOCALE / code / "LC_MESSAGES" / "engine.po"
    fresh = tmp_path / "engine.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(po)], check=True, capture_output=True)
    assert _catalog(fresh) == _catalog(po.with_suffix(".mo")), "make locale: the committed .mo is stale"


@pytest.mark.skipif(shutil.which("xgettext") is None, reason="xgettext (gettext) is not installed here")
@pytest.mark.parametrize("code", [c for c in i18n.LANGUAGES if c != i18n.DEFAULT])
def test_it_translates_every_marked_string_of_the_engine(code: str, tmp_path: Path) -> None:
    pot = tmp_path / "engine.pot"
    sources = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "engine").rglob("*.py"))
    subprocess.run(["xgettext", "--language=Python", "--from-code=UTF-8", "--no-location",
                    "--keyword=_", "--keyword=N_", "--keyword=ngettext:1,2", "--keyword=msg", "--keyword=word",
                    "--keyword=text", "-o", str(pot), *sources], check=True, capture_output=True, cwd=ROOT)
    wanted = _msgids(pot.read_text(encoding="utf-8")) - {""}
    catalogue = _catalog(LOCALE / code / "LC_MESSAGES" / "engine.mo")
    have = {k if isinstance(k, str) else k[0] for k, v in catalogue.items() if v}
    missing = sorted(wanted - have)
    assert not missing, (f"{len(missing)} engine strings have no {code} translation "
                         f"(make locale, then translate): {missing[:20]}")


def test_it_speaks_english_by_default_and_the_context_s_language_inside_it() -> None:
    assert i18n.current() == "en"
    with language("pt-BR") as code:
        assert code == "pt" and i18n.current() == "pt"
        assert i18n._("the line is empty") == "a linha está vazia"
    assert i18n._("the line is empty") == "the line is empty"
    with pytest.raises(ValueError, match="unknown language"), language("xx"):
        pass


def test_it_reports_a_catalogue_miss_and_shows_the_english_text() -> None:
    missed: list[tuple[str, str]] = []
    with i18n.on_miss(lambda m, c: missed.append((m, c))), language("pt"):
        assert i18n._("no such text in any catalogue") == "no such text in any catalogue"
        i18n._("the line is empty")
    assert missed == [("no such text in any catalogue", "pt")]


def test_it_keeps_an_event_s_message_and_tells_it_again_in_another_language() -> None:
    with language("pt"):
        text, m = i18n.text("it is not your turn: the game waits for {names}", names="Bob")
    e = Event("note", text, {}, None, False, m)
    assert e.text == "não é a sua vez: o jogo espera por Bob"
    stored = e.as_dict()
    assert Event.from_dict(stored) == e
    assert i18n.event_text(stored, "en") == "it is not your turn: the game waits for Bob"
    assert i18n.event_text(stored, "pt") == e.text
    old = Event("note", "an event from before messages").as_dict()
    assert "msg" not in old and i18n.event_text(old, "pt") == "an event from before messages"


def test_it_refuses_in_the_context_s_language() -> None:
    R = get("maretta")
    st = R.setup(["Ana", "Bob", "Carla"], {"side": "A"}, "pt-1")
    seat = R.pending(st)[0]
    C = get("caravelas")
    cs = C.setup(["Ana", "Bob"], {}, "pt-1")
    other = next(s for s in range(2) if s not in C.pending(cs))
    with language("pt"):
        with pytest.raises(IllegalMove, match="não foi entendida: não conheço a palavra 'xyzzy'"):
            R.parse("xyzzy", st, seat)
        with pytest.raises(IllegalMove, match="não é a sua vez"):
            C.parse("draw", cs, other)
        with pytest.raises(IllegalMove, match="não é a sua vez: o jogo espera por"):
            C.apply(cs, other, {"code": "x"})
    with pytest.raises(IllegalMove, match="is not understood: I do not know the word 'xyzzy'"):
        R.parse("xyzzy", st, seat)


def test_it_reads_a_portuguese_line_in_an_english_context_and_the_reverse() -> None:
    R = get("maretta")
    st = M.side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    en = R.parse("play 3 Fire", st, 0)
    assert R.parse("jogar 3 fogo", st, 0) == en
    with language("pt"):
        assert R.parse("play 3 fire", st, 0) == en
        assert R.parse("jogar 3 fogo", st, 0) == en


def test_it_reads_a_portuguese_label_back_in_an_english_context() -> None:
    R = get("maretta")
    st = M.side_a_turn([["3fi", "3wo", "2ro", "4fo"], ["5ro", "1wa", "2fi", "2wa"], ["1ro", "1fo", "3wa", "4wa"]])
    with language("pt"):
        labels = {o.code: o.label for o in R.options(st, 0)}
    for code, label in labels.items():
        assert R.read(label, st, 0).code == code


def _play_in(rules_name: str, options: dict[str, object], seed: str, n: int, code: str,
             missed: list[str]) -> tuple[list[list[str]], list[dict[str, object]]]:
    """A whole seeded game with random choices: every seat's labels at each step, every event."""
    import random

    R = get(rules_name)
    rnd = random.Random(seed)
    labels: list[list[str]] = []
    events: list[dict[str, object]] = []
    with i18n.on_miss(lambda m, c: missed.append(m)), language(code):
        st = R.setup([f"P{i}" for i in range(n)], options, seed)
        for _step in range(5000):
            pending = R.pending(st)
            if not pending:
                break
            seat = pending[rnd.randrange(len(pending))]
            opts = R.options(st, seat)
            labels.append([o.label for o in opts])
            events += [e.as_dict() for e in R.apply(st, seat, rnd.choice(opts).move)]
    assert R.outcome(st) is not None
    return labels, events


# the games whose option labels and events are translated (issue 27); Maracaibo's from data
# (engine/games/maracaibo/labels.py; its pictures and board in words: tests/engine/test_maracaibo_portuguese.py)
TRANSLATED = [("maretta", {"side": "A"}, 3), ("maretta", {"side": "B"}, 4), ("caravelas", {}, 2),
              ("caravelas", {"target": 40}, 4), ("maracaibo", {}, 2), ("maracaibo", {"mode": "78"}, 3)]


@pytest.mark.parametrize(("game", "options", "n"), TRANSLATED)
def test_it_plays_a_whole_game_in_portuguese_without_a_catalogue_miss(game: str, options: dict[str, object],
                                                                       n: int) -> None:
    missed: list[str] = []
    en_labels, en_events = _play_in(game, options, "pt-game", n, "en", missed)
    pt_labels, pt_events = _play_in(game, options, "pt-game", n, "pt", missed)
    assert not missed, f"texts a Portuguese player read in English: {sorted(set(missed))[:20]}"
    # the same game (the language changes no move), told in other words
    assert [e["kind"] for e in pt_events] == [e["kind"] for e in en_events]
    changed = sum(a != b for a, b in zip(pt_labels, en_labels, strict=True))
    assert changed > len(en_labels) // 2
    # each event keeps its message: told again in English it is the English game's text, word for word
    told = [e for e in pt_events if "msg" in e]
    assert len(told) == len(pt_events)
    assert [i18n.event_text(e, "en") for e in pt_events] == [e["text"] for e in en_events]
    assert [i18n.event_text(e, "pt") for e in en_events] == [e["text"] for e in pt_events]


def test_it_explains_a_maretta_refusal_in_portuguese() -> None:
    from tests.engine.test_notation_corpus import m_play_b

    st, seat = m_play_b()  # Carla has 1 Food in position 2
    with language("pt"), pytest.raises(IllegalMove, match=r"2 Comida não é uma carta que possa usar agora: tem o "
                                                         r"mesmo naipe que a carta da posição 2 \(1 Comida\)"):
        get("maretta").parse("jogar 2 comida", st, seat)


def _caravelas_game(code: str, missed: list[str]) -> list[str]:
    """Every text of a whole bot-played Caravelas game in ``code``: each seat's view in words and
    its pictures (wide, phone, mail), the options and the events."""
    R = get("caravelas")
    said: list[str] = []

    def watch(step: int, st: dict[str, object], seat: int, opts: list[Option]) -> None:
        if step % 15 == 0:
            view = R.view(st, seat)
            said.extend([R.render_text(view), R.render_svg(view), R.render_mail_svg(view), *R.render_phone_svg(view)])
        said.extend(o.label for o in opts)

    with i18n.on_miss(lambda m, c: missed.append(m)), language(code):
        st, events = bot_game("caravelas", ["Ana", "Bob", "Carla"], {"target": 40}, "pt-caravelas", 7, steps=3000,
                              watch=watch)
        said += [str(e["text"]) for e in events]
        view = R.view(st, 0)
        said += [R.render_text(view), R.render_svg(view), R.render_mail_svg(view)]
    assert R.outcome(st) is not None
    return said


def test_it_shows_a_whole_caravelas_game_in_portuguese_words_and_pictures() -> None:
    missed: list[str] = []
    pt = "\n".join(_caravelas_game("pt", missed))
    assert not missed, f"texts a Portuguese player read in English: {sorted(set(missed))[:20]}"
    en = "\n".join(_caravelas_game("en", missed))
    for english, portuguese in [(">Legend<", ">Legenda<"), ("Your movement cards", "As suas cartas de Movimento"),
                                ("Near your fleet", "Perto da sua frota"), ("move ", "mover "),
                                ("end the turn", "terminar o turno"), ("Fleets:", "Frotas:")]:
        assert english in en and english not in pt and portuguese in pt


def test_it_reads_a_portuguese_caravelas_label_back_in_any_context() -> None:
    R = get("caravelas")
    st = R.setup(["Ana", "Bob"], {}, "pt-labels")
    seat = R.pending(st)[0]
    with language("pt"):
        labels = {o.code: o.label for o in R.options(st, seat)}
    assert any(label.startswith("mover ") for label in labels.values())
    for code, label in labels.items():
        assert R.read(label, st, seat).code == code
        with language("pt"):
            assert R.read(label, st, seat).code == code


#: Maracaibo's events told from catalogue messages (issue 27); the others are told from data
#: (engine/games/maracaibo/labels.py: tests/engine/test_maracaibo_portuguese.py)
MARACAIBO_TOLD = {"turn", "sail", "home", "buy", "take", "invest", "plan", "draw", "drawn", "income", "synergy",
                  "pass", "deliver", "admiral", "gain"}


def _maracaibo_events(code: str) -> list[dict[str, object]]:
    with language(code):
        st, events = bot_game("maracaibo", ["Ana", "Bob", "Carla"], {}, "pt-maracaibo", 11, steps=4000)
    assert get("maracaibo").outcome(st) is not None
    return events


def test_it_tells_maracaibo_s_main_events_in_portuguese_and_again_in_english() -> None:
    missed: list[str] = []
    en = _maracaibo_events("en")
    with i18n.on_miss(lambda m, c: missed.append(m)):
        pt = _maracaibo_events("pt")
    assert [e["kind"] for e in pt] == [e["kind"] for e in en]
    told = [(a, b) for a, b in zip(pt, en, strict=True) if a["kind"] in MARACAIBO_TOLD]
    assert {a["kind"] for a, _b in told} >= {"turn", "sail", "buy", "draw", "drawn", "income", "deliver"}
    for a, b in told:
        assert "msg" in a, a
        assert a["text"] != b["text"]
        assert i18n.event_text(a, "en") == b["text"]
        assert i18n.event_text(b, "pt") == a["text"]
    assert not missed, f"texts a Portuguese player read in English: {sorted(set(missed))[:20]}"
    said = " ".join(str(a["text"]) for a, _b in told)
    for portuguese in ("Turno de Ana (rodada 1).", " navega ", " dobrões", " compra "):
        assert portuguese in said, portuguese


def test_it_names_every_maracaibo_card_place_and_good_in_portuguese() -> None:
    from engine.games.maracaibo import content as C

    words = i18n._game_words("pt")
    names = ({str(c["name"]) for c in C.CARD.values()} | {str(loc["name"]) for loc in C.LOC.values()}
             | set(C.GOODS) | {n.title() for n in C.NATIONS} | {str(b["name"]) for b in C.PRESTIGE.values()})
    missing = sorted(names - set(words))
    assert not missing, ("add their Portuguese names to engine/games/maracaibo/data/words.pt.json "
                         f"(substitute content: translated): {missing}")
    assert words["Havana"] == "Havana" and words["sugar"] == "açúcar" and words["France"] == "França"
