"""The pt catalogue is complete (issue 27): every string the service marks for translation, in its
code and templates, has a Portuguese translation, and the compiled .mo that runs is the .po's."""

from __future__ import annotations

import re
import subprocess

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


def test_it_carries_the_compiled_catalogue_of_the_po(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Why carried: a fresh clone runs without compilemessages; a .mo older than its .po would
    # show the old words, so the test compiles the .po and compares.
    fresh = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--check", "-o", str(fresh), str(PO)], check=True, capture_output=True)
    assert fresh.read_bytes() == PO.with_suffix(".mo").read_bytes()
