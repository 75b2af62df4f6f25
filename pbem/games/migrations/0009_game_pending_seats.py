"""Game.pending_seats: whom each game's state waits for, stored with the state (issue 12).

The backfill decodes each existing state once, as the lobby did on every request.
"""

from django.db import migrations, models

BATCH = 200


def backfill(apps, schema_editor):
    import engine

    Game = apps.get_model("games", "Game")
    last = 0
    while True:
        rows = list(Game.objects.filter(pk__gt=last, state__isnull=False).order_by("pk")
                    .values_list("pk", "rules", "state")[:BATCH])
        if not rows:
            break
        for pk, rules, state in rows:
            try:
                pending = [int(s) for s in engine.get(rules).pending(state)]
            except (engine.UnknownGame, ModuleNotFoundError):
                pending = []  # a game this build does not ship: dealt, shown as waiting for nobody
            Game.objects.filter(pk=pk).update(pending_seats=pending)
        last = rows[-1][0]


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0008_seat_invited_email"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="pending_seats",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
