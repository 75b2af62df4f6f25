"""The staff lists' and pages' field titles in the reader's language (#27).

Django titles a column, a list filter and a change page's field with the model field's verbose name,
which is English here (a translated verbose name would need a migration for each field). Instead the
admins below show each model field through a display function titled from ``LABELS`` and rename the
list filters after it: no model change. The English titles are the fields' own names, as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from django.contrib import admin
from django.contrib.admin.utils import display_for_field
from django.contrib.admin.views.main import ChangeList
from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _l

#: every model field a staff list or page shows, by field name, titled as the field's verbose name
LABELS: dict[str, Any] = {
    "action": _l("action"), "actor": _l("actor"), "allow_any_sender": _l("allow any sender"),
    "answers_held": _l("answers held"), "attempts": _l("attempts"), "bounce_at": _l("bounce at"),
    "bounce_detail": _l("bounce detail"), "bounce_kind": _l("bounce kind"), "bounce_score": _l("bounce score"),
    "campaign": _l("campaign"), "claimed_at": _l("claimed at"), "commands": _l("commands"),
    "created_at": _l("created at"), "created_by": _l("created by"), "deadline_at": _l("deadline at"),
    "deadline_hours": _l("deadline hours"), "decided_at": _l("decided at"), "details": _l("details"),
    "disabled_at": _l("disabled at"), "display_name": _l("display name"), "email": _l("email"),
    "expected_version": _l("expected version"), "extension_hours": _l("extension hours"),
    "extensions_allowed": _l("extensions allowed"), "finished_at": _l("finished at"), "game": _l("game"),
    "held_since": _l("held since"), "index": _l("index"), "joined_at": _l("joined at"),
    "last_error": _l("last error"), "last_mailed_version": _l("last mailed version"), "mail_from": _l("mail from"),
    "mail_mode": _l("mail mode"), "message_id": _l("message id"), "moderator_told_at": _l("moderator told at"),
    "move": _l("move"), "no_move_policy": _l("no move policy"), "number": _l("number"), "options": _l("options"),
    "outcome": _l("outcome"), "player": _l("player"), "processed_at": _l("processed at"), "reason": _l("reason"),
    "received_at": _l("received at"), "reminded_at": _l("reminded at"), "result": _l("result"),
    "result_version": _l("result version"), "rules": _l("rules"), "seed_hash": _l("seed hash"),
    "sent_at": _l("sent at"), "source": _l("source"), "started_at": _l("started at"), "status": _l("status"),
    "subject": _l("subject"), "title": _l("title"), "to_email": _l("to email"), "undone_at": _l("undone at"),
    "undone_version": _l("undone version"), "user": _l("user"), "vacation_cap_days": _l("vacation cap days"),
    "vacation_until": _l("vacation until"), "version": _l("version"), "warned_at": _l("warned at"),
}


@cache
def said(model: type[models.Model], name: Any) -> Any:
    """A model field as a display function titled in the reader's language (anything else as it is);
    one function a field, the same at every call (Django matches a form's fields with its exclusions)."""
    if not isinstance(name, str) or name not in LABELS:
        return name
    try:
        field = model._meta.get_field(name)
    except FieldDoesNotExist:
        return name
    if not isinstance(field, models.Field):
        return name

    def show(obj: Any) -> Any:
        return display_for_field(getattr(obj, name), field, "-")

    show.__name__ = name
    return admin.display(description=LABELS[name], ordering=name)(show)


def said_all(model: type[models.Model], names: Sequence[Any]) -> list[Any]:
    return [said(model, name) for name in names]


class SaidChangeList(ChangeList):
    """A list whose filters are titled in the reader's language ("Por estado", not "By status")."""

    def get_filters(self, request: HttpRequest) -> Any:
        specs, *rest = super().get_filters(request)
        for spec in specs:
            label = LABELS.get(getattr(spec, "field_path", ""))
            if label is not None:
                spec.title = str(label)
        return (specs, *rest)


class SaidFields:
    """For a model admin or an inline: its read-only fields (every field it shows) titled in the reader's
    language; the form has no other field (the admins are read-only)."""

    model: type[models.Model]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return said_all(self.model, super().get_readonly_fields(request, obj))  # type: ignore[misc]

    def get_fields(self, request: HttpRequest, obj: Any = None) -> list[Any]:
        return self.get_readonly_fields(request, obj)


class SaidColumns(SaidFields):
    """For a model admin: its columns and filters titled in the reader's language too."""

    def get_list_display(self, request: HttpRequest) -> list[Any]:
        return said_all(self.model, super().get_list_display(request))  # type: ignore[misc]

    def get_list_select_related(self, request: HttpRequest) -> Any:
        """The related rows a column shows, fetched with the list (a display function is no field to Django)."""
        fields = {f.name for f in self.model._meta.get_fields() if isinstance(f, models.ForeignKey)}
        return [name for name in super().get_list_display(request) if name in fields] or False  # type: ignore[misc]

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return SaidChangeList
