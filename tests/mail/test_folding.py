"""A sent mail's headers are the bytes Python's ``compat32`` writes, by the quick path or not (issue 28:
``pbem.mail.folding.QuickFold`` writes a short plain value as it is, without ``email.header.Header``)."""

from __future__ import annotations

import io
from email.generator import BytesGenerator
from email.header import Header
from email.policy import compat32

import pytest

from pbem.mail.folding import QUICK_FOLD
from pbem.mail.sending import _Mail

VALUES = [
    ("To", "w2@example.org"),
    ("Message-ID", "<pbem.g1.v7.ba0857d4b903@pbem.localhost>"),
    ("X-Auto-Response-Suppress", "All"),
    ("References", "x" * 64),  # 76 characters with its name
    ("References", "x" * 66),  # 78: the line's length
    ("References", "x" * 67),  # 79: no space to fold at, so left long
    ("References", "<a@b> " * 13 + "<c@d>"),  # folded at spaces
    ("Content-Type", 'multipart/related; boundary="===============7290947028679344120=="'),
    ("Subject", " a leading space"),
    ("Subject", "a trailing space "),
    ("Subject", "two  spaces  inside"),
    ("Subject", "a\ttab"),
    ("Subject", "a new\n line"),
    ("Subject", "Maracaibo: é a sua vez"),
    ("Subject", ""),
    ("X-Odd", "a\x7fb"),
]


@pytest.mark.parametrize("linesep", ["\n", "\r\n"])
@pytest.mark.parametrize(("name", "value"), VALUES)
def test_a_header_is_written_as_compat32_writes_it(name: str, value: str, linesep: str) -> None:
    quick, python = QUICK_FOLD.clone(linesep=linesep), compat32.clone(linesep=linesep)
    assert quick.fold_binary(name, value) == python.fold_binary(name, value)
    assert quick.fold(name, value) == python.fold(name, value)


def test_an_encoded_header_is_written_as_compat32_writes_it() -> None:
    subject = Header("[pbem #2] Maracaibo: A Revolta, Agitação (79): é a sua vez, rodada I", "utf-8",
                     header_name="Subject")
    assert QUICK_FOLD.fold_binary("Subject", subject) == compat32.fold_binary("Subject", subject)


def test_a_built_mail_is_the_bytes_compat32_writes() -> None:
    mail = _Mail(subject="[pbem #1] Maretta: your turn", body="-- reply above this line --\n\nIt is your turn.\n",
                 from_email="pbem <pbem@pbem.localhost>", to=["w2@example.org"],
                 reply_to=["seat-tBv1UR7F62LWXvRCVO204Q15@pbem.localhost"],
                 headers={"Message-ID": "<pbem.g1.v7.ba0857d4b903@pbem.localhost>", "Auto-Submitted": "auto-generated",
                          "References": "<pbem.game1@pbem.localhost> " * 4})
    mail.attach_alternative("<p>It is your turn, é.</p>\n", "text/html")
    built = mail.message()
    assert built.policy is QUICK_FOLD
    sent = built.as_bytes(linesep="\r\n")  # (sets the boundaries the second writing keeps)
    out = io.BytesIO()
    BytesGenerator(out, mangle_from_=False, policy=compat32.clone(linesep="\r\n")).flatten(built)
    assert sent == out.getvalue()


@pytest.mark.parametrize("subject", ["[pbem #1] Maretta: your turn", "x" * 69, "x" * 70, "word " * 30,
                                     " lead", "trail ", "a  b", ""])
def test_an_ascii_subject_given_plain_is_the_header_it_was(subject: str) -> None:
    from pbem.mail.sending import subject_header

    plain = subject_header(subject)
    assert isinstance(plain, str)
    for linesep in ("\n", "\r\n"):
        policy = QUICK_FOLD.clone(linesep=linesep)
        assert policy.fold_binary("Subject", plain) == compat32.clone(linesep=linesep).fold_binary(
            "Subject", Header(subject, "us-ascii", header_name="Subject"))
