from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('rooms', '0005_longer_codes'),
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
