"""The seats handed to another phone on the TV's approval (partyhub/rooms/access/claims.py): the
phone that lost one is told so and may ask for it back."""
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0011_seat_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='room',
            name='handed',
            field=models.JSONField(default=list),
        ),
    ]
