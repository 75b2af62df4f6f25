from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0019_campaigns'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='language',
            field=models.CharField(default='en', max_length=8),
        ),
    ]
