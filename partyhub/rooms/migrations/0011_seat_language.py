"""Each phone in its player's language: the seat keeps it (issue 22)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0010_room_away'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='language',
            field=models.CharField(blank=True, default='', max_length=2),
        ),
    ]
