"""Celery workers: ``celery -A workers worker`` and ``celery -A workers beat``."""

from workers.celery import app

__all__ = ["app"]
