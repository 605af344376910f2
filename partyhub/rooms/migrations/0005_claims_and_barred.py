from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0004_room_lifecycle'),
    ]

    operations = [
        migrations.AddField(
            model_name='room',
            name='claims',
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name='room',
            name='barred',
            field=models.JSONField(default=list),
        ),
    ]
