"""Pagination: keyset pages for game lists, a cursor on the move number for the log.

Why keyset pages: a list of games is read newest first, and a page found by ``OFFSET`` or
counted with ``COUNT(*)`` reads every game before it (a million rows at a million games). A
page found from the id it continues from reads its own rows only, whatever the table holds.
"""

from __future__ import annotations

import re
from typing import Any

from django.db.models import QuerySet
from rest_framework.exceptions import APIException, ValidationError
from rest_framework.pagination import CursorPagination, LimitOffsetPagination
from rest_framework.response import Response
from rest_framework.utils.urls import remove_query_param, replace_query_param

#: What a list answers to ``?offset=`` (issue 28: a page found by offset reads every row it skips,
#: a million at a million games, so no list takes one; every list pages by cursor).
NO_OFFSET = ("lists page by cursor, not by offset (an offset reads every row it skips): "
             "start without one and follow next and previous as given")
#: A game list's cursor: ``b<id>`` continues with the games older than ``id``, ``a<id>`` with
#: those newer (the page before). Opaque to clients: they follow ``next``/``previous``.
GAME_CURSOR = re.compile(r"([ab])([0-9]{1,18})")
BAD_CURSOR = "not a cursor this list gave: follow next or previous as given, or start without one"


class UnknownLogCursor(APIException):
    """The move log's cursor is any string in its schema (DRF's, opaque), so one it never gave is a
    request the schema allows and the service refuses: 422, as every such refusal (400 is the door's:
    the games lists' cursors have a pattern in the schema, and one outside it is a 400)."""

    status_code = 422
    default_code = "invalid"


def strict_int(request: Any, name: str, default: int | None, low: int, high: int | None = None,
               cutoff: int | None = None) -> int | None:
    """The integer ``?name=`` holds, ``default`` when absent; 400 when it is not an integer in range.

    Why not DRF's: it takes ``?limit=abc`` as no limit at all, which the schema says is an error.
    ``cutoff``: a larger value, however many digits it has, is taken as the cutoff (as documented)
    rather than refused.
    """
    raw = request.query_params.get(name)
    if raw is None:
        return default
    raw = raw.strip()
    digits = raw.isascii() and raw.isdigit()
    if digits and cutoff and len(raw.lstrip("0")) > 12:
        return cutoff
    if not digits or len(raw) > 12 or int(raw) < low or (high and int(raw) > high):
        bound = f" and at most {high}" if high else ""
        raise ValidationError({name: [f"must be an integer, at least {low}{bound}"]})
    value = int(raw)
    return min(value, cutoff) if cutoff else value


def _id(row: Any) -> int:
    return int(row["id"] if isinstance(row, dict) else row.pk)


class GamePagination(LimitOffsetPagination):
    """Lists of games and campaigns (newest first, ordered by ``-id``) in keyset pages.

    ``next`` and ``previous`` carry a ``cursor`` (the id the page ends or starts at), so every
    page costs what the first does, whatever the table holds. ``offset`` is refused (400,
    :data:`NO_OFFSET`). ``count`` is exact when the first page shows the whole list and null
    otherwise: no list is counted whole.
    """

    default_limit = 50
    max_limit = 200
    cursor_query_param = "cursor"

    def get_limit(self, request: Any) -> int | None:
        return strict_int(request, self.limit_query_param, self.default_limit, 1, cutoff=self.max_limit)

    def get_offset(self, request: Any) -> int:
        if self.offset_query_param in request.query_params:
            raise ValidationError({self.offset_query_param: [NO_OFFSET]})
        return 0

    def get_cursor(self, request: Any) -> tuple[str, int] | None:
        raw = request.query_params.get(self.cursor_query_param)
        if raw is None:
            return None
        match = GAME_CURSOR.fullmatch(raw.strip())
        if match is None:
            raise ValidationError({self.cursor_query_param: [BAD_CURSOR]})
        return match.group(1), int(match.group(2))

    def paginate_rows(self, rows: QuerySet[Any] | list[Any], request: Any) -> list[Any]:
        """A page of ``rows`` (a query ordered by ``-id``, of ``values()`` dicts or models; or such
        a list), one statement: the page and one row more, which tells whether a next page exists."""
        self.request = request
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        assert self.limit is not None  # get_limit always gives one (a default, a cutoff)
        cursor = self.get_cursor(request)
        if cursor is not None:
            self.offset = 0  # the cursor says where the page is
        self.count = None
        if cursor is None:
            page = self._slice(rows, None, self.offset, self.limit + 1)
            self.more_after, self.more_before = len(page) > self.limit, self.offset > 0
            page = page[:self.limit]
            if not self.more_after and (page or not self.offset):
                self.count = self.offset + len(page)
        elif cursor[0] == "b":
            page = self._slice(rows, ("lt", cursor[1]), 0, self.limit + 1)
            self.more_after, self.more_before = len(page) > self.limit, True
            page = page[:self.limit]
        else:
            page = self._slice(rows, ("gt", cursor[1]), 0, self.limit + 1)  # oldest first
            self.more_after, self.more_before = True, len(page) > self.limit
            page = page[:self.limit][::-1]
        self.page = page
        return page

    @staticmethod
    def _slice(rows: QuerySet[Any] | list[Any], keyset: tuple[str, int] | None, start: int, n: int) -> list[Any]:
        if isinstance(rows, list):
            if keyset is None:
                return rows[start:start + n]
            if keyset[0] == "lt":
                return [r for r in rows if _id(r) < keyset[1]][start:start + n]
            return [r for r in reversed(rows) if _id(r) > keyset[1]][start:start + n]
        if keyset is None:
            return list(rows[start:start + n])
        if keyset[0] == "lt":
            return list(rows.filter(pk__lt=keyset[1])[start:start + n])
        return list(rows.filter(pk__gt=keyset[1]).reverse()[start:start + n])

    def paginate_queryset(self, queryset: Any, request: Any, view: Any = None) -> list[Any]:
        return self.paginate_rows(queryset, request)

    def _here(self) -> str:
        assert self.request is not None  # set by paginate_rows
        return remove_query_param(self.request.build_absolute_uri(), self.offset_query_param)

    def _link(self, cursor: str) -> str:
        url = self._here()
        return replace_query_param(url, self.cursor_query_param, cursor)

    def get_next_link(self) -> str | None:
        return self._link(f"b{_id(self.page[-1])}") if self.more_after and self.page else None

    def get_previous_link(self) -> str | None:
        if not self.more_before:
            return None
        if self.page:
            return self._link(f"a{_id(self.page[0])}")
        # Past the end: the list's newest page (no cursor, no offset).
        return remove_query_param(self._here(), self.cursor_query_param)

    def get_paginated_response(self, data: Any) -> Response:
        return Response({"count": self.count, "next": self.get_next_link(),
                         "previous": self.get_previous_link(), "results": data})


class MoveLogPagination(CursorPagination):
    """Stable under appends: the cursor is the move number, unique and immutable per game."""

    ordering = "number"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500

    def get_page_size(self, request: Any) -> int | None:
        return strict_int(request, self.page_size_query_param, self.page_size, 1, cutoff=self.max_page_size)

    def decode_cursor(self, request: Any) -> Any:
        # Why 400, whatever the form: DRF answers 404 to a cursor it cannot decode and trusts the
        # position inside a (base64, unsigned) one, so a forged "p=abc" reached the database as a
        # move number and failed there, and "o=99" answered an empty page.
        raw = request.query_params.get(self.cursor_query_param)
        try:
            cursor = super().decode_cursor(request)
        except Exception:  # noqa: BLE001 - DRF raises NotFound; any failure to read it is the client's
            cursor = None
        bad = cursor is None and raw is not None
        if cursor is not None:
            # The ordering is unique (one number a move), so the cursors this list gives never
            # carry an offset, and their position is a move number.
            position = str(cursor.position) if cursor.position is not None else None
            bad = bool(cursor.offset) or (position is not None and not (position.isdigit() and len(position) < 10))
        if bad:
            raise UnknownLogCursor(f"{self.cursor_query_param}: {BAD_CURSOR}")
        return cursor
