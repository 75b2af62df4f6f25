"""The header folding of the mails we send: Python's ``compat32``, with its common case done quickly.

Why (issue 28): a built mail is written out twice, once to weigh it before its picture
(``sending.build_message``) and once to send it, and each time every header of every part (some 20
a mail) went through ``email.header.Header``'s folding algorithm: about 40 % of writing a mail out,
for values that come out exactly as they went in. A value of printable ASCII with no space at its
ends that fits on its line with its name is such a value (the algorithm splits only at whitespace
and only past the line's length); any other value, or a ``Header``, is folded by ``compat32``
itself. The bytes are the same (tests/mail/test_folding.py compares them)."""

from __future__ import annotations

from email.policy import Compat32
from typing import Any


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
