"""Renderers for the board picture and the text view (``?format=svg`` / ``?format=txt``).

Each renders no data (a 304, a 204) as no body: ``str(None)`` made a 304 carry ``None`` and a
``Content-Length: 4``, which uvicorn refuses, killing the next request on that connection."""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import BaseRenderer


class SVGRenderer(BaseRenderer):
    media_type = "image/svg+xml"
    format = "svg"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return b"" if data is None else str(data).encode(self.charset)


class PlainTextRenderer(BaseRenderer):
    media_type = "text/plain"
    format = "txt"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return b"" if data is None else str(data).encode(self.charset)


class EventStreamRenderer(BaseRenderer):
    """Server-sent events; the view streams the text itself (see pbem.api.streams)."""

    media_type = "text/event-stream"
    format = "sse"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return b"" if data is None else str(data).encode(self.charset)


class NDJSONRenderer(BaseRenderer):
    """One JSON object a line (lichess's ``application/x-ndjson``)."""

    media_type = "application/x-ndjson"
    format = "ndjson"
    charset = "utf-8"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return b"" if data is None else str(data).encode(self.charset)
