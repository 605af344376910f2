from django.db import migrations, models


def active_from_updated(apps, schema_editor):
    """A room that exists before the lifecycle was last active when it was last written."""
    Room = apps.get_model("rooms", "Room")
    for room in Room.objects.only("id", "updated_at").iterator():
        Room.objects.filter(pk=room.pk).update(active_at=int(room.updated_at.timestamp() * 1000))


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0003_seats_version'),
    ]

    operations = [
        migrations.AddField(
            model_name='room',
            name='active_at',
            field=models.BigIntegerField(db_index=True, default=0),
        ),
        migrations.AddField(
            model_name='room',
            name='closed_at',
            field=models.BigIntegerField(blank=True, db_index=True, null=True),
        ),
        migrations.RunPython(active_from_updated, migrations.RunPython.noop),
    ]
