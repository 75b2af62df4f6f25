"""Django email backend that delivers into a local Maildir (the embedded default)."""

from __future__ import annotations

import mailbox
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail.backends.base import BaseEmailBackend
from django.core.mail.message import EmailMessage


class MaildirBackend(BaseEmailBackend):
    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        settings.PBEM_MAILDIR.mkdir(parents=True, exist_ok=True)
        box = mailbox.Maildir(str(settings.PBEM_MAILDIR), create=True)
        sent = 0
        for message in email_messages:
            box.add(message.message().as_bytes())
            sent += 1
        return sent

    def __init__(self, fail_silently: bool = False, **kwargs: Any) -> None:
        super().__init__(fail_silently=fail_silently, **kwargs)
