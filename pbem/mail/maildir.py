"""Django email backend that delivers into a local Maildir (the embedded default).

Each message is written the Maildir way (into ``tmp/``, then renamed into
``new/``), so a reader never sees half a mail. Any mail program that reads
Maildir (mutt -f var/maildir, or Python's ``mailbox.Maildir``) shows them.
"""

from __future__ import annotations

import mailbox
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage


def open_maildir(path: Path | None = None) -> mailbox.Maildir:
    """The Maildir at ``path`` (default PBEM_MAILDIR), with tmp/, new/ and cur/ made if missing."""
    root = Path(path or settings.PBEM_MAILDIR)
    for sub in ("tmp", "new", "cur"):
        (root / sub).mkdir(parents=True, exist_ok=True)
    return mailbox.Maildir(str(root), create=False)


class MaildirBackend(BaseEmailBackend):
    def __init__(self, fail_silently: bool = False, **kwargs: Any) -> None:
        super().__init__(fail_silently=fail_silently, **kwargs)

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        if not email_messages:
            return 0
        try:
            box = open_maildir()
        except OSError:
            if self.fail_silently:
                return 0
            raise
        sent = 0
        for message in email_messages:
            try:
                box.add(message.message().as_bytes())
            except OSError:
                if not self.fail_silently:
                    raise
                continue
            sent += 1
        return sent
