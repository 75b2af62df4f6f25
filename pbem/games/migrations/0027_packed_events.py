"""Issue 28 (storage): a move's events are stored deflated, and the inbound Message-ID has one index.

* ``Move.events`` becomes a :class:`pbem.games.fields.PackedJSONField` (zlib-deflated compact JSON in a
  binary column): the JSONB events were about half of what a move kept on disk. Every stored row is
  converted here, in batches, and back again when the migration is reversed.
* ``InboundMessage.message_id`` is unique through a constraint instead of ``unique=True``, whose second,
  ``varchar_pattern_ops`` index (for LIKE, which nothing asks of it) grew with every mail received.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models

import pbem.games.fields

BATCH = 500


def pack_events(apps: Any, schema_editor: Any) -> None:
    Move = apps.get_model("games", "Move")
    last = 0
    while True:
        rows = list(Move.objects.filter(pk__gt=last).order_by("pk").only("pk", "events")[:BATCH])
        if not rows:
            return
        for row in rows:
            row.events_packed = row.events if row.events is not None else []
        Move.objects.bulk_update(rows, ["events_packed"])
        last = rows[-1].pk


def unpack_events(apps: Any, schema_editor: Any) -> None:
    Move = apps.get_model("games", "Move")
    last = 0
    while True:
        rows = list(Move.objects.filter(pk__gt=last).order_by("pk").only("pk", "events_packed")[:BATCH])
        if not rows:
            return
        for row in rows:
            row.events = row.events_packed if row.events_packed is not None else []
        Move.objects.bulk_update(rows, ["events"])
        last = rows[-1].pk


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0026_maracaibo_release"),
    ]

    operations = [
        migrations.AddField(
            model_name="move",
            name="events_packed",
            field=pbem.games.fields.PackedJSONField(null=True),
        ),
        migrations.RunPython(pack_events, unpack_events, elidable=False),
        migrations.RemoveField(model_name="move", name="events"),
        migrations.RenameField(model_name="move", old_name="events_packed", new_name="events"),
        migrations.AlterField(
            model_name="move",
            name="events",
            field=pbem.games.fields.PackedJSONField(default=list),
        ),
        migrations.AlterField(
            model_name="inboundmessage",
            name="message_id",
            field=models.CharField(max_length=255),
        ),
        migrations.AddConstraint(
            model_name="inboundmessage",
            constraint=models.UniqueConstraint(fields=("message_id",), name="inbound_message_id_unique"),
        ),
    ]
