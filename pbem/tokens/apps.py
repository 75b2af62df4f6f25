from __future__ import annotations

from django.apps import AppConfig


class TokensConfig(AppConfig):
    name = "pbem.tokens"
    label = "tokens"
    verbose_name = "API tokens"
    default_auto_field = "django.db.models.BigAutoField"
