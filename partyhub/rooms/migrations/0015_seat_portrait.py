"""A player's face, drawn on the phone or a ready-made character (partyhub/rooms/portraits.py)."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0014_vip_passed_and_covered'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='portrait',
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
