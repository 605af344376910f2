"""The VIP's last pass, for the TV to say (partyhub/rooms/timers/vip.py), and what a stand-in did for
a seat whose phone came back (partyhub/rooms/timers/standin.py)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0013_keepsake_pictures'),
    ]

    operations = [
        migrations.AddField(
            model_name='room',
            name='vip_passed',
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='room',
            name='covered',
            field=models.JSONField(default=dict),
        ),
    ]
