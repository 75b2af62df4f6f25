"""A sent mail is the bytes Python's own writer gives (``BytesGenerator`` with ``compat32``), bar nothing:
pbem.mail.folding writes it quicker (issue 28), for a seeded Maretta and Maracaibo game's every mail,
weighed ("\\n") and sent ("\\r\\n")."""

from __future__ import annotations

import io
import random
from email.generator import BytesGenerator
from email.header import Header
from email.policy import compat32
from typing import Any

import pytest

from pbem.games.models import OutboundMessage
from pbem.mail import sending
from pbem.mail.folding import QuickGenerator

pytestmark = pytest.mark.django_db(transaction=True)


def _python_writes(msg: Any, linesep: str) -> bytes:
    out = io.BytesIO()
    BytesGenerator(out, mangle_from_=False, policy=compat32.clone(linesep=linesep)).flatten(msg)
    return out.getvalue()


def _seeded_game_mails(rules: str) -> list[Any]:
    from tests.mail.test_query_counts_mail import played_by_mail

    game = played_by_mail(rules, "bytes", moves=6, seed=28)
    rows = OutboundMessage.objects.filter(game=game).order_by("pk")
    return [sending.build_message(r).message() for r in rows]


@pytest.mark.parametrize("rules", ["maretta", "maracaibo"])
def test_every_mail_of_a_game_is_the_bytes_pythons_writer_gives(rules: str, settings: Any) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mails = _seeded_game_mails(rules)
    assert sum(m.is_multipart() for m in mails) >= 5 and any(m.get_content_type() == "multipart/related"
                                                              for m in mails)
    for msg in mails:
        for linesep in ("\n", "\r\n"):
            ours = msg.as_bytes(linesep=linesep)  # (sets the boundaries Python's writing keeps)
            assert ours == _python_writes(msg, linesep)
        # the Subject as it was given before (a Header, QA of #20): the same bytes as the plain value
        subject = str(msg["Subject"])
        msg.replace_header("Subject", Header(subject, "us-ascii", header_name="Subject"))
        assert ours == _python_writes(msg, "\r\n")


def test_a_boundary_found_in_a_part_is_drawn_again_as_python_does() -> None:
    random.seed(28)
    drawn = BytesGenerator._make_boundary()
    for text in [b"a\n--" + drawn.encode() + b"\nb", b"--" + drawn.encode() + b"--", b"a --" + drawn.encode(),
                 b"nothing", b""]:
        random.seed(28)
        theirs = BytesGenerator._make_boundary(text)
        random.seed(28)
        assert QuickGenerator._make_boundary(text) == theirs
    random.seed(28)
    assert QuickGenerator._make_boundary(b"a\n--" + drawn.encode() + b"\nb") == drawn + ".0"


@pytest.mark.parametrize("body", ["", "one line", "two\nlines\n", "crlf\r\nand cr\rand lf\n\n", "\n\n\nx", "é\n"])
def test_a_body_is_written_as_python_writes_it(body: str) -> None:
    from django.core.mail.message import SafeMIMEText

    from pbem.mail.folding import quick

    for linesep in ("\n", "\r\n"):
        msg = quick(SafeMIMEText(body, "plain", "utf-8"))
        assert msg.as_bytes(linesep=linesep) == _python_writes(msg, linesep)
