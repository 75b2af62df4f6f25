"""A webhook (where an account's events go) and its deliveries (an outbox: one row per event)."""

from __future__ import annotations

from django.db import models

from pbem.games.models import Player


class Webhook(models.Model):
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(max_length=500)
    #: The HMAC key the bodies are signed with; kept as is (the server must sign with it).
    secret = models.CharField(max_length=64)
    #: Where this webhook is in the account's event stream (pbem.api.streams.Cursor).
    cursor = models.CharField(max_length=40)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.url} ({self.player})"


class WebhookDelivery(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        SENT = "sent"
        FAILED = "failed"

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.CharField(max_length=40)
    event_type = models.CharField(max_length=10)
    body = models.TextField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    last_status = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="webhooks_due")]

    def __str__(self) -> str:
        return f"{self.event_type} {self.event_id} to {self.webhook_id} ({self.status})"
