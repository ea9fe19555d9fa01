# Notifications, reminders sent and table visits (games.notifications).

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0002_lobby'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Notification',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField(verbose_name='version')),
                ('kind', models.CharField(choices=[('turn', 'à vous de jouer')], max_length=16, verbose_name='type')),
                ('text', models.CharField(max_length=200, verbose_name='texte')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='le')),
                ('read_at', models.DateTimeField(blank=True, null=True, verbose_name='lue le')),
            ],
            options={
                'verbose_name': 'notification',
                'verbose_name_plural': 'notifications',
                'ordering': ['-created_at', '-pk'],
            },
        ),
        migrations.CreateModel(
            name='ReminderLog',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField(blank=True, null=True, verbose_name='version')),
                ('day', models.DateField(blank=True, null=True, verbose_name='jour')),
                ('kind', models.CharField(choices=[('turn', 'à vous de jouer'), ('deadline', 'avant la fin du temps'), ('digest', 'résumé du jour')], max_length=16, verbose_name='type')),
                ('sent_at', models.DateTimeField(auto_now_add=True, verbose_name='envoyé le')),
            ],
            options={
                'verbose_name': 'rappel envoyé',
                'verbose_name_plural': 'rappels envoyés',
            },
        ),
        migrations.CreateModel(
            name='TableVisit',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seen_at', models.DateTimeField(verbose_name='vue le')),
            ],
            options={
                'verbose_name': 'visite de table',
                'verbose_name_plural': 'visites de tables',
            },
        ),
        migrations.AddField(
            model_name='notification',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to='games.table'),
        ),
        migrations.AddField(
            model_name='notification',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='reminderlog',
            name='table',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.table'),
        ),
        migrations.AddField(
            model_name='reminderlog',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='tablevisit',
            name='table',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='games.table'),
        ),
        migrations.AddField(
            model_name='tablevisit',
            name='user',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddIndex(
            model_name='notification',
            index=models.Index(fields=['user', 'read_at'], name='notification_unread'),
        ),
        migrations.AddConstraint(
            model_name='notification',
            constraint=models.UniqueConstraint(fields=('user', 'table', 'version', 'kind'), name='notification_once'),
        ),
        migrations.AddConstraint(
            model_name='reminderlog',
            constraint=models.UniqueConstraint(condition=models.Q(('table__isnull', False)), fields=('user', 'table', 'version', 'kind'), name='reminder_once'),
        ),
        migrations.AddConstraint(
            model_name='reminderlog',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'digest')), fields=('user', 'day'), name='digest_once_a_day'),
        ),
        migrations.AddConstraint(
            model_name='reminderlog',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('day__isnull', False), ('kind', 'digest'), ('table__isnull', True)), models.Q(models.Q(('kind', 'digest'), _negated=True), ('day__isnull', True), ('table__isnull', False), ('version__isnull', False)), _connector='OR'), name='reminder_digest_or_table'),
        ),
        migrations.AddConstraint(
            model_name='tablevisit',
            constraint=models.UniqueConstraint(fields=('user', 'table'), name='table_visit_once'),
        ),
    ]
