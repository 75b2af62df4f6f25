from __future__ import annotations

from django.apps import AppConfig


class WebhooksConfig(AppConfig):
    name = "pbem.webhooks"
    label = "webhooks"
    verbose_name = "webhooks"
    default_auto_field = "django.db.models.BigAutoField"
