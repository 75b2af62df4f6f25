"""Seat.absent_until: an absence a game's moderator entered, for that game only (#23, found by QA:
it became the player's vacation in all their running games)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0030_game_seat_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="seat",
            name="absent_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
