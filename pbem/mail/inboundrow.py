"""The stored mail's row as judging reads and decides it, in written-out statements (split from
``services.py``, issue 28).

Why written out: the ORM built these two one-row statements anew for every mail judged, about
0.3 ms of CPU each against 0.1 for the statement; ``raw`` still worked out its columns' converters
each time (:func:`pbem.mail.seatrow.read_models` keeps them).
"""

from __future__ import annotations

from django.db import connection
from django.utils import timezone

from pbem.games.models import Game, InboundMessage
from pbem.mail import seatrow

_COLUMNS = tuple(f.attname for f in InboundMessage._meta.concrete_fields)  # (named_columns' order)


def locked(inbound_id: int) -> InboundMessage | None:
    """The stored mail, its row locked for the caller's transaction (where the database locks rows)."""
    table = connection.ops.quote_name(InboundMessage._meta.db_table)
    columns = seatrow.named_columns(InboundMessage)  # not *: see named_columns
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    rows = seatrow.read_models(InboundMessage, f"SELECT {columns} FROM {table} WHERE id = %s{lock}", [inbound_id],
                               _COLUMNS)
    return rows[0] if rows else None


def decide(inbound_id: int, status: str, result: str, game: Game | None) -> None:
    """The stored mail's verdict, if it is still undecided."""
    table = connection.ops.quote_name(InboundMessage._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {table} SET status = %s, result = %s, game_id = %s, processed_at = %s "
                       "WHERE id = %s AND status = %s",
                       [status, result[:4000], game.pk if game else None, timezone.now(), inbound_id,
                        InboundMessage.Status.RECEIVED])
