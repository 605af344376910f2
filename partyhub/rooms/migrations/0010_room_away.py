"""Seats whose phone is away, for the stand-in that keeps a dropped seat warm
(partyhub/rooms/timers/standin.py)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0009_keepsakes'),
    ]

    operations = [
        migrations.AddField(
            model_name='room',
            name='away',
            field=models.JSONField(default=dict),
        ),
    ]
