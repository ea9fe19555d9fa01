from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0005_user_name_keys"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name='user',
            constraint=models.UniqueConstraint(condition=models.Q(('display_key', ''), _negated=True), fields=('display_key',), name='user_display_name_unique'),
        ),
    ]
