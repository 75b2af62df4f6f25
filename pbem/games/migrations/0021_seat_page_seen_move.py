from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0020_player_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='page_seen_move',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
