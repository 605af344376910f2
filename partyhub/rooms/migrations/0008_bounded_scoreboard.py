"""The scoreboard becomes bounded (partyhub/rooms/scoreboard.py): the list of every game a
room played is folded into counts and the last few games."""
from django.db import migrations, models

import partyhub.rooms.scoreboard


def fold(apps, schema_editor):
    Room = apps.get_model("rooms", "Room")
    for room in Room.objects.only("id", "scoreboard").iterator():
        if isinstance(room.scoreboard, list):
            room.scoreboard = partyhub.rooms.scoreboard.normalized(room.scoreboard)
            room.save(update_fields=["scoreboard"])


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0007_room_host_key'),
    ]

    operations = [
        migrations.AlterField(
            model_name='room',
            name='scoreboard',
            field=models.JSONField(default=partyhub.rooms.scoreboard.empty),
        ),
        migrations.RunPython(fold, migrations.RunPython.noop),
    ]
