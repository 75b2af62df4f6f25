"""Model fields of the service's own making (issue 28: storage).

``PackedJSONField`` keeps JSON data as zlib-deflated compact JSON in a binary column. Why: a move
log row's events are 0.4-1.8 KB of JSONB, repetitive (message templates, parameter names) yet
each row below the 2 KB at which PostgreSQL compresses a row by itself (``toast_tuple_target``
does not lower that threshold in PostgreSQL 15), so they were stored whole: about half of what a
move kept on disk. Deflated they are a third of that. Nothing reads events in SQL (the readers
decode rows in Python), so the column gives up nothing but ``psql`` legibility:
``zlib.decompress(row)`` of any stored value is the JSON text.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

#: zlib's best compression: the values are small, the cost is a few microseconds a row.
LEVEL = 9


def pack(value: Any) -> bytes:
    """The stored bytes of ``value``: compact JSON, deflated (zlib format, so any zlib reads it).

    ``allow_nan=False`` refuses what JSONB refused, so a value stored here is one JSONB takes.
    """
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return zlib.compress(text.encode("utf-8"), LEVEL)


def unpack(data: bytes | memoryview) -> Any:
    return json.loads(zlib.decompress(bytes(data)).decode("utf-8"))


class PackedJSONField(models.BinaryField):
    """JSON data (lists, dicts, strings, numbers) stored deflated; read back as the same data.

    Not queryable inside (no ``field__key`` lookups), not editable in forms, like any binary field.
    """

    description = "JSON data stored deflated"
    # What django-stubs types the model attribute as (a binary field's would be bytes): the data.
    _pyi_private_set_type: Any
    _pyi_private_get_type: Any

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        return None if value is None else unpack(value)

    def to_python(self, value: Any) -> Any:
        if isinstance(value, bytes | memoryview):
            return unpack(value)
        if isinstance(value, str):  # a fixture or a serialized dump holds the JSON text
            try:
                return json.loads(value)
            except ValueError as e:
                raise ValidationError(f"not JSON: {e}") from e
        return value

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if value is None:
            return None
        if not isinstance(value, bytes | memoryview):
            value = pack(value)
        return super().get_db_prep_value(value, connection, prepared)

    def value_to_string(self, obj: models.Model) -> str:
        """Serializers (``dumpdata``) write the JSON text, not base64 of deflated bytes."""
        return json.dumps(self.value_from_object(obj), ensure_ascii=False)

    def get_default(self) -> Any:
        # BinaryField's default turns a callable's value into bytes; this field keeps data.
        if self.has_default():
            return self.default() if callable(self.default) else self.default
        return super().get_default()
