"""A seat by its secret address, with its game and player, in one written-out statement.

Why written out (issue 28, perf): every mail judged reads its seat with the game and the player
(``select_related``), and the ORM built that three-table statement anew each time: 1.7 ms of a
Maretta move's 24 ms of worker CPU, most of it compiling some seventy columns, against about
0.3 for the statement and its rows. The statement is built once a process from the models'
fields, and the rows become models as the ORM makes them (``Model.from_db``, each field's
database converters, the related objects cached on the seat), so callers see the same objects.
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.db.models import Model

from pbem.games.models import Game, Player, Seat

_MODELS: tuple[type[Model], ...] = (Seat, Game, Player)


@functools.cache
def _statement(vendor: str, lock_of: bool, lock: bool) -> tuple[str, tuple[tuple[type[Model], tuple[str, ...],
                                                                              tuple[Any, ...], int], ...]]:
    """The SELECT (token as its one parameter) and, per model, its attnames, each field's
    converters and its columns' count, in the order of the row."""
    del vendor  # (part of the cache's key only: the statement is quoted for that database)
    quote = connection.ops.quote_name
    columns: list[str] = []
    parts = []
    for model in _MODELS:
        table = quote(model._meta.db_table)
        fields = model._meta.concrete_fields
        columns += [f"{table}.{quote(str(f.column))}" for f in fields]
        parts.append((model, tuple(f.attname for f in fields),
                      tuple(tuple(f.get_db_converters(connection)) for f in fields), len(fields)))
    seat, game, player = (quote(m._meta.db_table) for m in _MODELS)
    column = {f.name: quote(str(f.column)) for f in Seat._meta.concrete_fields}
    to_game, to_player, token = column["game"], column["player"], column["token"]
    game_pk, player_pk = (quote(str(next(f for f in m._meta.concrete_fields if f.primary_key).column))
                          for m in (Game, Player))
    sql = (f"SELECT {', '.join(columns)} FROM {seat} INNER JOIN {game} ON ({seat}.{to_game} = {game}.{game_pk}) "
           f"LEFT OUTER JOIN {player} ON ({seat}.{to_player} = {player}.{player_pk}) "
           f"WHERE {seat}.{token} = %s LIMIT 1")
    if lock:
        sql += f" FOR UPDATE OF {game}" if lock_of else " FOR UPDATE"
    return sql, tuple(parts)


def seat_by_token(token: str, *, lock: bool = False) -> Seat | None:
    """The seat whose token is ``token`` (exactly as stored: the caller compares it in constant
    time), its ``game`` and ``player`` read with it; ``lock``: the game's row locked for the
    caller's transaction (``select_for_update(of=("game",))``)."""
    lock = lock and connection.features.has_select_for_update
    sql, parts = _statement(connection.vendor, connection.features.has_select_for_update_of, lock)
    with connection.cursor() as cursor:
        cursor.execute(sql, [token])
        row = cursor.fetchone()
    if row is None:
        return None
    made: list[Model | None] = []
    start = 0
    for model, attnames, converters, count in parts:
        values = list(row[start:start + count])
        start += count
        if values[0] is None:  # a seat without a player: the outer join's columns are NULL
            made.append(None)
            continue
        for i, convert in enumerate(converters):
            for c in convert:
                values[i] = c(values[i], None, connection)
        made.append(model.from_db(connection.alias, attnames, values))
    seat, game, player = made
    assert isinstance(seat, Seat) and isinstance(game, Game)
    Seat._meta.get_field("game").set_cached_value(seat, game)
    Seat._meta.get_field("player").set_cached_value(seat, player)
    return seat
