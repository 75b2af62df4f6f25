"""Pagination: offsets for game lists, a cursor on the move number for the log."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import NotFound
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

    def decode_cursor(self, request: Any) -> Any:
        cursor = super().decode_cursor(request)
        # Why: DRF trusts the position inside a (base64, unsigned) cursor; a forged
        # "p=abc" would reach the database as a move number and fail there (a 500).
        if cursor is not None and cursor.position is not None and not (str(cursor.position).isdigit()
                                                                        and len(str(cursor.position)) < 10):
            raise NotFound(self.invalid_cursor_message)
        return cursor
