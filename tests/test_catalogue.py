"""The pt catalogue is complete (issue 27): every string the service marks for translation, in its
code and templates, has a Portuguese translation, and the compiled .mo that runs is the .po's."""

from __future__ import annotations

import ast
import json
import re
import subprocess
from pathlib import Path

from tests.i18n_catalogue import ROOT, catalogue, source_strings

PO = ROOT / "pbem" / "locale" / "pt" / "LC_MESSAGES" / "django.po"


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"%\(\w+\)[sd]|\{\{ *\w+ *\}\}|<[^>]+>", text))


def test_it_has_a_portuguese_translation_for_every_string_the_service_marks() -> None:
    marked = source_strings()
    pt = catalogue("pt")
    assert len(marked) > 50  # the mails' fixed texts are marked at all
    missing = [m for m in marked if m not in pt or not all(pt[m])]
    assert not missing, f"not in the pt catalogue (run makemessages -l pt and translate): {missing}"


def test_it_keeps_every_placeholder_and_tag_of_a_string_in_its_translation() -> None:
    pt = catalogue("pt")
    for msgid, strs in pt.items():
        for s in strs:
            assert _placeholders(s) == _placeholders(msgid.split("\x04")[-1]), (msgid, s)


def test_it_carries_the_compiled_catalogue_of_the_po(tmp_path: Path) -> None:
    # Why carried: a fresh clone runs without compilemessages; a .mo older than its .po would
    # show the old words, so the test compiles the .po and compares.
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(PO)], check=True, capture_output=True)
    assert fresh.read_bytes() == PO.with_suffix(".mo").read_bytes()


# ---- what a player reads is marked at all (issue 27) -------------------------------------------
# The tests above find a marked string without a translation; these find a text that is not marked,
# which a Portuguese reader would be shown in English.

#: Words a page may show in any language: the service's name, the time zone, the API's name.
ANY_LANGUAGE = {"pbem", "UTC", "API"}


def _unmarked_texts(template: str) -> list[str]:
    """The words of a template a reader sees outside {% translate %} and {% blocktranslate %}."""
    t = re.sub(r"{% comment %}.*?{% endcomment %}", " ", template, flags=re.S)
    t = re.sub(r"{% blocktranslate.*?{% endblocktranslate %}", " ", t, flags=re.S)
    t = re.sub(r"{% translate [^%]*%}", " ", t)
    t = re.sub(r"<(script|style)\b.*?</\1>", " ", t, flags=re.S)
    found = [a for a in re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', t)
             if re.search(r"[A-Za-z]{2,}", re.sub(r"{%.*?%}|{{.*?}}", " ", a))]
    t = re.sub(r"{%.*?%}|{{.*?}}|{#.*?#}", " ", t, flags=re.S)
    t = re.sub(r"<[^>]*>|&\w+;", " ", t, flags=re.S)
    found += [w for w in re.findall(r"[A-Za-z][A-Za-z' ,.:;()!?-]*[A-Za-z]", t) if w not in ANY_LANGUAGE]
    return found


def test_it_marks_every_text_of_the_players_pages_and_mails_for_translation() -> None:
    # (and the moderator page, said in the moderator's language, #27; the admin's other pages, for
    # staff, stay English)
    for folder in ("web", "mail"):
        for path in sorted((ROOT / "templates" / folder).glob("*.html")):
            assert _unmarked_texts(path.read_text(encoding="utf-8")) == [], path.name
    moderate = ROOT / "templates" / "admin" / "games" / "moderate.html"
    assert _unmarked_texts(moderate.read_text(encoding="utf-8")) == []


def test_it_sees_an_unmarked_text_in_a_template() -> None:
    assert _unmarked_texts('{% load i18n %}<h1>{% translate "Games" %}</h1><p>Waiting {{ n }}</p>') == ["Waiting"]
    assert _unmarked_texts('<a title="Open it">{% blocktranslate %}x {{ y }}{% endblocktranslate %}</a>') == [
        "Open it"]


#: The modules whose refusals and answers a player reads (by mail, on a page, through the API).
REFUSING = ["pbem/games/services.py", "pbem/games/campaigns.py", "pbem/games/moderation.py",
            "pbem/games/moderation_base.py", "pbem/games/moderation_seats.py", "pbem/games/moderation_deadlines.py",
            "pbem/games/moderators.py", "pbem/games/turnplan.py", "pbem/mail/absence_commands.py",
            "pbem/mail/commands.py", "pbem/mail/campaign_commands.py"]
REFUSALS = {"ServiceError", "NotFound", "Forbidden", "Conflict", "StaleVersion", "TooManyRequests", "ValueError",
            "MoveRejected"}
GETTEXT = {"gettext", "_", "ngettext", "pgettext"}


def _english_literals(source: str) -> list[int]:
    """The lines of ``raise Refusal(<text>)`` and ``Answer(ok, <text>)`` whose text is a literal
    (a string or an f-string) rather than the catalogue's (gettext(...) % {...})."""
    def literal(node: ast.expr) -> bool:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
            node = node.left
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in GETTEXT:
            return False
        return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str)
                                                   and bool(re.search(r"[A-Za-z]{2,}", node.value)))
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
            continue
        if node.func.id in REFUSALS and node.args and literal(node.args[0]):
            lines.append(node.lineno)
        if node.func.id == "Answer" and len(node.args) > 1 and literal(node.args[1]):
            lines.append(node.lineno)
    return lines


def test_it_says_every_refusal_a_player_reads_through_the_catalogue() -> None:
    for name in REFUSING:
        assert _english_literals((ROOT / name).read_text(encoding="utf-8")) == [], name
    assert _english_literals('raise Conflict(f"game #{n} is over")\nraise Conflict(gettext("x %(n)s") % {"n": 1})'
                             '\nAnswer(True, "Welcome back")') == [1, 3]


#: The functions of the mail door whose whole text a player reads and which are said through the
#: catalogue: the answer to a refused move and the options it lists, and every other answer (a wrong
#: address, a finished game, undo or an absence mixed with other lines, the lines ignored, a link, a
#: message, an invitation's, the answers held back, a mail that could not be read) (issue 27).
SAID_WHOLE = {"pbem/mail/services.py": [
    "_reply_rejected", "_options_block", "_paused_options", "_too_long_text", "_internal_error_text",
    "_fail_internal", "_held_note",
    "_unreadable_text", "_judge_general", "_judge_seat_of", "_judge_rematch", "_judge_moderator",
    "_judge_to_moderator", "_judge_link", "_judge_say", "_reply_signoff", "_judge_preferences", "_judge_undo",
    "_judge_absence", "_judge_invitation"]}
#: Calls whose texts no player reads: the mail row's verdict (for the operator), logs, header names, a
#: command line run on the player's behalf, queries.
NOT_SAID = {"Verdict", "error", "warning", "info", "exception", "header", "only", "run_line", "filter", "exclude",
            "startswith", "split", "get"}


def _unmarked_in(source: str, functions: list[str]) -> list[tuple[str, int]]:
    """The (function, line) of each literal with words in ``functions`` that is not a gettext call's
    argument, a docstring, a mapping's key or a keyword's value (a flag, not a text)."""
    found = []
    tree = ast.parse(source)
    for fn in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name in functions):
        skip: set[int] = set()
        for node in ast.walk(fn):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in GETTEXT:
                skip |= {id(a) for arg in node.args for a in ast.walk(arg)}
            called = node.func.attr if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else (
                node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else "")
            if isinstance(node, ast.Call) and called in NOT_SAID:
                skip |= {id(a) for arg in node.args for a in ast.walk(arg)}
            if isinstance(node, ast.Dict):
                skip |= {id(k) for k in node.keys if k is not None}
            if isinstance(node, ast.keyword):
                skip |= {id(a) for a in ast.walk(node.value)}
            if isinstance(node, ast.Compare):  # (x in {"a", "b"}: a code, not a text)
                skip |= {id(a) for c in node.comparators for a in ast.walk(c)}
        body = fn.body
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            skip.add(id(body[0].value))
        for node in ast.walk(fn):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip
                    and re.search(r"[A-Za-z]{2,}", node.value)):
                found.append((fn.name, node.lineno))
    return found


def test_it_says_the_answer_to_a_refused_move_by_mail_through_the_catalogue() -> None:
    for name, functions in SAID_WHOLE.items():
        source = (ROOT / name).read_text(encoding="utf-8")
        assert {f.name for f in ast.walk(ast.parse(source)) if isinstance(f, ast.FunctionDef)} >= set(functions)
        assert _unmarked_in(source, functions) == [], name
    assert _unmarked_in('def f(n):\n    """Doc."""\n    return [f"Line {n}", _("Your line: %(l)s") % {"l": n},'
                        ' g(x, after="partial")]', ["f"]) == [("f", 3)]


#: One word per meaning across every Portuguese text (QA, #27: "parada" beside "paragem"), in one variety:
#: Brazilian Portuguese, the variety of the Uprising's rulebook (docs/mail.md says why).
ONE_WORD = {r"\bparage(m|ns)\b": "parada", r"\bárea de planeamento\b": "área de planejamento"}

#: European Portuguese forms that said the same as the Brazilian text beside them (#27: "Planear" beside
#: "Planejar", "baralhadas" beside "embaralhadas", "vez" beside "turno"): none is left in the texts a player
#: reads (the notation still takes some as input: engine/locale/pt/vocabulary.json, not checked here)
EUROPEAN = {r"\bautómat": "autômato", r"\bGénova\b": "Gênova", r"\bplane(ar|ado|ada)\b": "planejar",
            r"\bregist(o|os|ou|ar|ado)\b": "registro", r"\bpalavra-passe\b": "senha", r"\becrã\b": "tela",
            r"\ba decorrer\b": "em andamento", r"\bpor omissão\b": "padrão", r"\bapanh": "pegar",
            r"(?<!em)\bbaralhad": "embaralhado", r"\bligaç(ão|ões)\b": "link", r"\baceites?\b": "aceito/aceita",
            r"\bterminar a vez\b": "terminar o turno", r"\bnesta vez\b": "neste turno",
            r"\bcorreio eletrónico\b": "e-mail", r"\beletrónic": "eletrônico", r"\btem de\b": "tem que",
            r"\bà espera\b": "esperando", r"\bfacto\b": "fato", r"\bronda\b": "rodada", r"\bpartilh": "compartilhar",
            r"\bdesforra\b": "revanche", r"\btêm de\b": "têm que",
            r"- a jogar\b": "jogando", r"\bcarregar em\b": "clicar em",
            r"\bcastanh": "marrom", r"\baté (ao|à)\b": "até o/a",
            # (#27: "as cartas compram-se numa aldeia"): a pronoun after a conjugated verb ("compram-se",
            # "respondem-lhe"; after an infinitive, "juntar-se", Brazilian writes it too), "num"/"numa"
            r"\b\w+(?<![rR])-(se|lhes?)\b": "se/lhe before the verb (se compram, são compradas)",
            r"\bnuma?s?\b|\bnuns\b": "em um/em uma", r"\bnoutr": "em outro/em outra",
            r"\bintermédi": "intermediário/intermediária"}


def _portuguese_texts() -> list[Path]:
    return [ROOT / "pbem/locale/pt/LC_MESSAGES/django.po", ROOT / "engine/locale/pt/LC_MESSAGES/engine.po",
            *sorted((ROOT / "engine/games").glob("*/data/**/*.pt.json")),  # (data/campaign/: the story, #27)
            ROOT / "docs/rules/options.pt.md"]


def test_it_writes_one_variety_of_portuguese() -> None:
    for path in _portuguese_texts():
        said = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                         if not line.startswith("msgid") and not (line.startswith('"') and _in_msgid(path, line)))
        if path.suffix == ".json":  # the translations only, not the English keys
            data = json.loads(path.read_text(encoding="utf-8"))
            said = "\n".join([*(v for k, v in (data.get("phrases") or data.get("words") or {}).items()
                                 if not k.startswith("#") and isinstance(v, str)),
                               *(s for _p, s in [*(data.get("patterns") or []), *(data.get("patterns_last") or [])])])
        for wrong, right in EUROPEAN.items():
            found = re.findall(r".{0,30}" + wrong + r".{0,30}", said, re.I)
            assert not found, (path.name, wrong, right, found[:3])


def _in_msgid(path: Path, line: str) -> bool:
    """Whether a continued string line of a .po belongs to a msgid (English), not a msgstr."""
    return line in _MSGID_LINES.setdefault(path, _msgid_lines(path))


_MSGID_LINES: dict[Path, set[str]] = {}


def _msgid_lines(path: Path) -> set[str]:
    out: set[str] = set()
    if path.suffix != ".po":
        return out
    inside = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith(("msgid", "msgid_plural")):
            inside = True
        elif line.startswith("msgstr"):
            inside = False
        elif line.startswith('"') and inside:
            out.add(line)
    return out


def test_it_says_one_word_per_meaning_in_every_portuguese_catalogue() -> None:
    texts = [ROOT / "pbem/locale/pt/LC_MESSAGES/django.po", ROOT / "engine/locale/pt/LC_MESSAGES/engine.po",
             *sorted((ROOT / "engine/games").glob("*/data/**/*.pt.json"))]
    for path in texts:
        said = "\n".join(line for line in path.read_text(encoding="utf-8").splitlines() if not line.startswith("msgid"))
        for wrong, right in ONE_WORD.items():
            assert not re.search(wrong, said, re.I), (path.name, wrong, right)
