

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_notification_text_at_display'),
    ]

    operations = [
        migrations.AlterField(
            model_name='table',
            name='preset',
            field=models.CharField(choices=[('classique', 'Belote classique'), ('annonces', 'Belote avec annonces'), ('moderne', 'Belote moderne (sans atout et tout atout)'), ('stekius', "Stekius (échange du 7 d'atout)"), ('belote_com', 'Belote.com (501 points)')], max_length=20, verbose_name='règles'),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='preset',
            field=models.CharField(choices=[('classique', 'Belote classique'), ('annonces', 'Belote avec annonces'), ('moderne', 'Belote moderne (sans atout et tout atout)'), ('stekius', "Stekius (échange du 7 d'atout)"), ('belote_com', 'Belote.com (501 points)')], max_length=20, verbose_name='règles'),
        ),
    ]
