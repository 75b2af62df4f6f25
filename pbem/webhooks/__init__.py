"""Webhooks: an account's events POSTed to its server, signed, retried with backoff."""
