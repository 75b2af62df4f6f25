"""Pagination: offsets for game lists, a cursor on the move number for the log."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, QuerySet, Window
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.pagination import CursorPagination, LimitOffsetPagination

#: Furthest offset a list may start at; past it the database would fail, not answer an empty page.
MAX_OFFSET = 10**9


def strict_int(request: Any, name: str, default: int | None, low: int, high: int | None = None,
               cutoff: int | None = None) -> int | None:
    """The integer ``?name=`` holds, ``default`` when absent; 400 when it is not an integer in range.

    Why not DRF's: it takes ``?limit=abc`` as no limit at all, which the schema says is an error.
    ``cutoff``: a larger value is taken as the cutoff (as documented) rather than refused.
    """
    raw = request.query_params.get(name)
    if raw is None:
        return default
    raw = raw.strip()
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12 or int(raw) < low or (high and int(raw) > high):
        bound = f" and at most {high}" if high else ""
        raise ValidationError({name: [f"must be an integer, at least {low}{bound}"]})
    value = int(raw)
    return min(value, cutoff) if cutoff else value


class GamePagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200

    def get_limit(self, request: Any) -> int | None:
        return strict_int(request, self.limit_query_param, self.default_limit, 1, cutoff=self.max_limit)

    def get_offset(self, request: Any) -> int:
        return strict_int(request, self.offset_query_param, 0, 0, MAX_OFFSET) or 0

    def paginate_rows(self, rows: QuerySet[Any], request: Any) -> list[dict[str, Any]]:
        """:meth:`paginate_queryset` for a ``values()`` query, the count in the page's own
        statement (``COUNT(*) OVER ()``) rather than a statement of its own.

        Why: the lobby is read more than any other list, and its count query cost a round trip
        and a compilation as dear as the page's. Only a page past the end asks for the count apart.
        """
        self.request = request
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        assert self.limit is not None  # get_limit always gives one (a default, a cutoff)
        page = list(rows.annotate(_pbem_total=Window(Count("pk")))[self.offset:self.offset + self.limit])
        if page:
            self.count = page[0]["_pbem_total"]
            for row in page:
                del row["_pbem_total"]
        else:
            self.count = rows.count() if self.offset else 0
        if self.count > self.limit and self.template is not None:
            self.display_page_controls = True
        return page


class MoveLogPagination(CursorPagination):
    """Stable under appends: the cursor is the move number, unique and immutable per game."""

    ordering = "number"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request: Any) -> int | None:
        return strict_int(request, self.page_size_query_param, self.page_size, 1, cutoff=self.max_page_size)

    def decode_cursor(self, request: Any) -> Any:
        cursor = super().decode_cursor(request)
        # Why: DRF trusts the position inside a (base64, unsigned) cursor; a forged
        # "p=abc" would reach the database as a move number and fail there (a 500).
        if cursor is not None and cursor.position is not None and not (str(cursor.position).isdigit()
                                                                        and len(str(cursor.position)) < 10):
            raise NotFound(self.invalid_cursor_message)
        return cursor
