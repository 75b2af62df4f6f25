"""The service's translatable strings, found as ``makemessages`` finds them, and a catalogue's entries
(issue 27): what tests/test_catalogue.py and the mails' language tests compare."""

from __future__ import annotations

import ast
import re
import subprocess
import tempfile
from pathlib import Path

from django.utils.translation.template import templatize

ROOT = Path(__file__).resolve().parent.parent
SOURCES = [ROOT / "pbem"]
TEMPLATES = ROOT / "templates"
KEYWORDS = ["gettext_noop", "gettext_lazy", "ngettext_lazy:1,2", "pgettext:1c,2", "npgettext:1c,2,3",
            "pgettext_lazy:1c,2", "ngettext:1,2", "gettext", "_"]


def _xgettext(files: list[Path]) -> str:
    args = ["xgettext", "--language=Python", "--from-code=UTF-8", "--no-location", "--sort-output", "-o", "-"]
    args += [f"--keyword={k}" for k in KEYWORDS]
    return subprocess.run(args + [str(f) for f in files], check=True, capture_output=True, text=True).stdout


def parse_po(text: str) -> dict[str, list[str]]:
    """msgid (with ``msgctxt`` and a \\x04 before it, as gettext keys it) -> its msgstr(s), fuzzy ones left out."""
    out: dict[str, list[str]] = {}
    for block in re.split(r"\n\s*\n", text):
        if "#, fuzzy" in block and 'msgid ""\nmsgstr ""' not in block.strip()[:20]:
            continue
        fields: dict[str, str] = {}
        key = ""
        for line in block.splitlines():
            m = re.match(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[\d\])?) (".*")$', line)
            if m:
                key = m.group(1)
                fields[key] = ast.literal_eval(m.group(2))
            elif line.startswith('"') and key:
                fields[key] += ast.literal_eval(line)
        if "msgid" not in fields or fields["msgid"] == "":
            continue
        ident = (fields["msgctxt"] + "\x04" if "msgctxt" in fields else "") + fields["msgid"]
        out[ident] = [v for k, v in sorted(fields.items()) if k.startswith("msgstr")]
    return out


def source_strings() -> dict[str, list[str]]:
    """Every string the service marks for translation (code and templates), msgid -> [msgid_plural]."""
    py = [p for base in SOURCES for p in base.rglob("*.py") if "migrations" not in p.parts]
    with tempfile.TemporaryDirectory() as tmp:
        converted = []
        for i, html in enumerate(sorted(TEMPLATES.rglob("*.html"))):
            text = html.read_text(encoding="utf-8")
            if "{% load i18n" not in text:
                continue
            target = Path(tmp) / f"t{i}.py"
            target.write_text(templatize(text, origin=str(html)), encoding="utf-8")
            converted.append(target)
        pot = _xgettext(py + converted)
    return parse_po(pot)


def catalogue(code: str) -> dict[str, list[str]]:
    return parse_po((ROOT / "pbem" / "locale" / code / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8"))
