"""A seat by its secret address, with its game and player, in one written-out statement.

Why written out (issue 28, perf): every mail judged reads its seat with the game and the player
(``select_related``), and the ORM built that three-table statement anew each time: 1.7 ms of a
Maretta move's 24 ms of worker CPU, most of it compiling some seventy columns, against about
0.3 for the statement and its rows. The statement is built once a process from the models'
fields, and the rows become models as the ORM makes them (``Model.from_db``, each field's
database converters, the related objects cached on the seat), so callers see the same objects.
The same for a game's seats with their players and the chat flag a move's mails read
(:func:`seats_of`: 1.4-1.7 ms through the ORM, 0.15 for the statement and its rows).
"""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.db.models import Model

from pbem.games.models import ChatMessage, Game, Player, Seat

_MODELS: tuple[type[Model], ...] = (Seat, Game, Player)

#: The flag :func:`seats_of` (and ``pbem.mail.outbox.with_chat_flag``) puts on each seat: whether chat
#: came after its last mail. (Here, not in the outbox, which reads with this module: no circle.)
NEW_CHAT = "pbem_new_chat"


@functools.cache
def _statement(vendor: str, lock_of: bool, lock: bool) -> tuple[str, tuple[tuple[type[Model], tuple[str, ...],
                                                                              tuple[Any, ...], int], ...]]:
    """The SELECT (token as its one parameter) and, per model, its attnames, each field's
    converters and its columns' count, in the order of the row."""
    del vendor  # (part of the cache's key only: the statement is quoted for that database)
    quote = connection.ops.quote_name
    columns = [f"{quote(m._meta.db_table)}.{quote(str(f.column))}" for m in _MODELS for f in m._meta.concrete_fields]
    parts = [_part(m) for m in _MODELS]
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
    seat, game, player = _models(row, parts)
    assert isinstance(seat, Seat) and isinstance(game, Game)
    Seat._meta.get_field("game").set_cached_value(seat, game)
    Seat._meta.get_field("player").set_cached_value(seat, player)
    return seat


def named_columns(model: type[Model]) -> str:
    """Every column of ``model``'s row, named and quoted, for a written-out statement that reads the
    whole row. Why not ``*``: PostgreSQL refuses a prepared statement whose ``*`` a migration widened
    ("cached plan must not change result type") until its connection closes (issue 28)."""
    quote = connection.ops.quote_name
    return ", ".join(quote(str(f.column)) for f in model._meta.concrete_fields)


def read_models(model: type[Model], sql: str, params: list[Any], attnames: tuple[str, ...]) -> list[Any]:
    """The rows of a written-out SELECT of ``model``'s columns ``attnames`` (in that order, the primary
    key among them), made into models as the ORM makes them (``Model.from_db``; each column's
    converters, the database's and the field's; a column left out is deferred, as in ``raw``).

    Why (issue 28, perf): ``Model.objects.raw`` worked out the columns' fields and converters anew for
    every statement, about 0.3 ms of CPU a read of the mail path (the stored mail, the story's moves)."""
    names, order = _read_plan(connection.vendor, model, attnames)
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        rows = cursor.fetchall()
    made = []
    for row in rows:
        values = []
        for i, col, convert in order:  # (from_db takes the values in the model's order of fields)
            value = row[i]
            for c in convert:
                value = c(value, col, connection)
            values.append(value)
        made.append(model.from_db(connection.alias, names, values))
    return made


@functools.cache
def _read_plan(vendor: str, model: type[Model],
               attnames: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[int, Any, tuple[Any, ...]], ...]]:
    """The columns in the model's order of fields, and for each its place in the row, its column
    expression and its converters (as the ORM's compiler gathers them: the database's, then the field's)."""
    del vendor  # (the cache's key: a database's converters)
    fields = [f for f in model._meta.concrete_fields if f.attname in attnames]
    cols = [f.get_col(model._meta.db_table) for f in fields]
    return (tuple(f.attname for f in fields),
            tuple((attnames.index(f.attname), col,
                   tuple(connection.ops.get_db_converters(col) + col.get_db_converters(connection)))
                  for f, col in zip(fields, cols, strict=True)))


def _part(model: type[Model]) -> tuple[type[Model], tuple[str, ...], tuple[Any, ...], int]:
    fields = model._meta.concrete_fields
    return (model, tuple(f.attname for f in fields), tuple(tuple(f.get_db_converters(connection)) for f in fields),
            len(fields))


def _models(row: Any, parts: Any) -> list[Model | None]:
    """The row's models, as the ORM makes them (None for an outer join's NULL row)."""
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
    return made


@functools.cache
def _seats_statement(vendor: str) -> tuple[str, tuple[Any, ...]]:
    del vendor  # (the cache's key, as _statement's)
    quote = connection.ops.quote_name
    seat, player, chat = (quote(m._meta.db_table) for m in (Seat, Player, ChatMessage))
    columns = [f"{t}.{quote(str(f.column))}" for m, t in ((Seat, seat), (Player, player))
               for f in m._meta.concrete_fields]
    column = {f.name: quote(str(f.column)) for f in Seat._meta.concrete_fields}
    chat_game = quote(str(next(f for f in ChatMessage._meta.concrete_fields if f.name == "game").column))
    chat_pk = quote(str(next(f for f in ChatMessage._meta.concrete_fields if f.primary_key).column))
    player_pk = quote(str(next(f for f in Player._meta.concrete_fields if f.primary_key).column))
    seat_pk = quote(str(next(f for f in Seat._meta.concrete_fields if f.primary_key).column))
    sql = (f"SELECT {', '.join(columns)}, EXISTS (SELECT 1 FROM {chat} "
           f"WHERE {chat}.{chat_game} = {seat}.{column['game']} "
           f"AND {chat}.{chat_pk} > {seat}.{column['last_mailed_chat']}) "
           f"FROM {seat} LEFT OUTER JOIN {player} ON ({seat}.{column['player']} = {player}.{player_pk}) "
           f"WHERE {seat}.{column['game']} = %s ORDER BY {seat}.{column['index']}, {seat}.{seat_pk}")
    return sql, (_part(Seat), _part(Player))


def seats_of(game: Game) -> list[Seat]:
    """The game's seats in the ORM's order, each with its player and ``game`` (this object) and
    :data:`NEW_CHAT`: what ``with_chat_flag(game.seats.select_related("player"))``
    gives, in one written-out statement."""
    sql, parts = _seats_statement(connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [game.pk])
        rows = cursor.fetchall()
    seats: list[Seat] = []
    to_game, to_player = Seat._meta.get_field("game"), Seat._meta.get_field("player")
    for row in rows:
        seat, player = _models(row[:-1], parts)
        assert isinstance(seat, Seat)
        to_game.set_cached_value(seat, game)
        to_player.set_cached_value(seat, player)
        setattr(seat, NEW_CHAT, bool(row[-1]))
        seats.append(seat)
    return seats
