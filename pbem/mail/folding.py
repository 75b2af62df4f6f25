"""The writing out of the mails we send: Python's ``compat32`` and ``BytesGenerator``, with their common
cases done quickly; the same bytes (tests/mail/test_folding.py and test_mail_bytes.py compare them).

Why (issue 28): a built mail is written out twice, once to weigh it before its picture
(``sending.build_message``) and once to send it.

* Headers: each time every header of every part (some 20 a mail) went through
  ``email.header.Header``'s folding algorithm: about 40 % of writing a mail out, for values that
  come out exactly as they went in. A value of printable ASCII with no space at its ends that fits
  on its line with its name is such a value (the algorithm splits only at whitespace and only past
  the line's length); any other value, or a ``Header``, is folded by ``compat32`` itself.
* Bodies (:class:`QuickGenerator`): the generator wrote a part's body a line and a line end at a
  time (two writes and two encodings a line, some 700 a mail), and made sure each multipart's
  random boundary is in none of its parts by compiling a regular expression for it (a new one each
  time, so never from ``re``'s cache): a third of a writing's time. A boundary that does not occur
  in the parts' text at all cannot match it, so the expression is only compiled for one that does."""

from __future__ import annotations

import io
import re
from email.generator import BytesGenerator
from email.policy import Compat32
from typing import Any

from django.core.mail.message import SafeMIMEMultipart, SafeMIMEText


class QuickFold(Compat32):
    """``compat32``, folding a short plain header without ``email.header.Header``."""

    def _fold(self, name: str, value: Any, sanitize: bool) -> str:
        limit = self.max_line_length
        if (type(value) is str and limit and len(name) + 2 + len(value) <= limit and value.isascii()
                and value.isprintable() and value and value[0] != " " and value[-1] != " "):
            return f"{name}: {value}{self.linesep}"
        return super()._fold(name, value, sanitize)  # type: ignore[misc]  # (typeshed has no _fold)


#: The policy a built mail is written out with (:func:`pbem.mail.sending.build_message`).
QUICK_FOLD = QuickFold()

_NLCRE = re.compile(r"\r\n|\r|\n")  # email.generator's NLCRE


class QuickGenerator(BytesGenerator):
    """``BytesGenerator``, writing a body in one piece and checking a boundary without a regular
    expression when it is in no part (the same bytes: see the module's doc)."""

    def _write_lines(self, lines: str) -> None:
        # Python writes each piece, then a line end: the pieces joined with it are those bytes.
        if lines:
            self.write(self._NL.join(_NLCRE.split(lines)))  # type: ignore[attr-defined]  # (typeshed has no _NL)

    @classmethod
    def _make_boundary(cls, text: Any = None) -> str:
        boundary: str = super()._make_boundary()  # type: ignore[misc]  # (typeshed has none): Python's random draw
        if text is None or ("--" + boundary).encode("ascii") not in text:
            return boundary  # (Python's check looks for a line "--boundary" or "--boundary--")
        b, counter = boundary, 0  # Python's own check, for the boundary that occurs
        while re.search(("^--" + re.escape(b) + "(--)?$").encode("ascii"), text, re.MULTILINE):
            b, counter = f"{boundary}.{counter}", counter + 1
        return b


class _QuickWriting:
    """A Django MIME part that writes itself out with :class:`QuickGenerator` (Django's ``as_bytes``
    with another generator class)."""

    def as_bytes(self, unixfrom: bool = False, linesep: str = "\n") -> bytes:
        out = io.BytesIO()
        QuickGenerator(out, mangle_from_=False).flatten(self, unixfrom=unixfrom, linesep=linesep)
        return out.getvalue()


class QuickMultipart(_QuickWriting, SafeMIMEMultipart):  # type: ignore[misc]  # (Django's as_bytes, as Django's)
    pass


class QuickText(_QuickWriting, SafeMIMEText):  # type: ignore[misc]  # (Django's as_bytes, as Django's)
    pass


_QUICK: dict[type, type] = {SafeMIMEMultipart: QuickMultipart, SafeMIMEText: QuickText}


def quick(message: Any) -> Any:
    """``message`` (a mail Django built) written out quickly: its policy :data:`QUICK_FOLD`, its class
    one that writes with :class:`QuickGenerator`. Why its class changed in place: Django's ``message()``
    makes it, and the SMTP backend calls its ``as_bytes``; a class of Django's own that we do not know
    keeps Python's generator."""
    message.policy = QUICK_FOLD
    if type(message) in _QUICK:
        message.__class__ = _QUICK[type(message)]
    return message
