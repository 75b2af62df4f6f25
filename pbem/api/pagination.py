"""Pagination: offsets for game lists, a cursor on the move number for the log."""

from __future__ import annotations

from rest_framework.pagination import CursorPagination, LimitOffsetPagination


class GamePagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 200


class MoveLogPagination(CursorPagination):
    """Stable under appends: the cursor is the move number, unique and immutable per game."""

    ordering = "number"
    page_size = 100
    page_size_query_param = "page_size"
    max_page_size = 500
