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
from engine.core import Event
from engine.errors import IllegalMove
from engine.i18n import language
from tests.engine import test_maretta_rules as M

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
