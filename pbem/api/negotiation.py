"""Content negotiation where the URL wins over the Accept header.

DRF's ``URL_FORMAT_OVERRIDE`` (``?format=``) only narrows the renderers and then still matches
them against ``Accept``: a client that sends ``Accept: application/json`` on every call got a 406
for ``view/?format=svg`` (found by QA). Here a named format is the answer's format, and a
resource with one format (``board.svg``) is that format whatever the client accepts (RFC 9110
lets a server disregard ``Accept`` rather than answer 406)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.http import Http404
from rest_framework.exceptions import ValidationError
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class UrlFormatFirst(DefaultContentNegotiation):
    def select_renderer(
        self, request: Request, renderers: Iterable[BaseRenderer], format_suffix: str | None = None
    ) -> tuple[BaseRenderer, str]:
        fmt = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        if fmt == "":  # ?format= names none (DRF would answer JSON): the schema's enum has no empty one
            raise ValidationError({self.settings.URL_FORMAT_OVERRIDE: ["names no format: leave it out, or name one"]})
        if fmt:
            renderers = list(renderers)
            try:
                named: Any = self.filter_renderers(renderers, fmt)
            except Http404:
                # Why not DRF's bare 404 "not found": the resource is there, the parameter is outside
                # the schema's enum (a 400, docs/api.md), and the client needs the formats it has.
                formats = ", ".join(dict.fromkeys(r.format for r in renderers if r.format != "api"))
                raise ValidationError({self.settings.URL_FORMAT_OVERRIDE: [
                    f"{fmt!r} is not a format of this resource: {formats}"]}) from None
            return named[0], named[0].media_type
        renderers = list(renderers)
        if len(renderers) == 1:
            return renderers[0], renderers[0].media_type
        return super().select_renderer(request, renderers, format_suffix)
