from __future__ import annotations

from django.apps import AppConfig


class MailConfig(AppConfig):
    """The mail doors that need start-up wiring: the mail providers' webhook signals."""

    name = "pbem.mail"
    label = "mail"
    verbose_name = "mail"

    def ready(self) -> None:
        from pbem.mail import providers

        providers.connect()
