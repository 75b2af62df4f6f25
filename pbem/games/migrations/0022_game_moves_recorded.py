"""A counter of the move log's rows on the game (issue 28): a move numbers its rows from it
instead of reading the newest row of the log."""

from django.db import migrations, models

FILL = """
UPDATE games_game SET moves_recorded = COALESCE(
    (SELECT MAX(number) FROM games_move WHERE games_move.game_id = games_game.id), 0)
"""


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0021_seat_page_seen_move'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='moves_recorded',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop),
    ]
