"""Game.seat_names: each seat's name in the game, stored with the state (#20, found by QA: the
API's seats named the account while the view, the outcome and the mails named the seat).

The backfill reads each existing state's ``players`` (a JSON key, no state decoded in Python).
"""

from django.db import migrations, models

BATCH = 500


def backfill(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    last = 0
    while True:
        rows = list(
            Game.objects.filter(pk__gt=last, state__isnull=False)
            .order_by("pk")
            .values_list("pk", "state__players")[:BATCH]
        )
        if not rows:
            break
        for pk, players in rows:
            names = [str(n) for n in players] if isinstance(players, list) else []
            Game.objects.filter(pk=pk).update(seat_names=names)
        last = rows[-1][0]


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0029_uprising_scenario_titles"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="seat_names",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
        migrations.RunPython(backfill, migrations.RunPython.noop, elidable=True),
    ]
