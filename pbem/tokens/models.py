"""An API token row: only the SHA-256 of the token is kept, never the token itself."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ApiToken(models.Model):
    class Kind(models.TextChoices):
        ACCOUNT = "account", "account token (/auth/token/, manage.py player token)"
        NAMED = "named", "named token (/auth/tokens/)"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.NAMED)
    name = models.CharField(max_length=60)
    #: The first characters of the token, to recognise it in a list (not enough to use it).
    prefix = models.CharField(max_length=12)
    digest = models.CharField(max_length=64, unique=True)
    #: The account token is derived from this salt and the server's secret (see pbem.tokens.services).
    salt = models.CharField(max_length=32, blank=True, default="")
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["user", "revoked_at"], name="tokens_user_live")]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"
