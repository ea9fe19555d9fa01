"""Absences declared before their dates were bounded (accounts/vacations.py): one that
starts more than VACATION_MAX_AHEAD_DAYS after today is removed (a date such as the year
9999 made every move to its player fail), one longer than VACATION_DAYS_PER_YEAR days
keeps its first days only. The clock already reads rows within these bounds
(games/clock.py), so no stored deadline moves."""

import datetime

from django.conf import settings
from django.db import migrations
from django.utils import timezone


def bound_vacations(apps, schema_editor):
    Vacation = apps.get_model("accounts", "Vacation")
    today = timezone.localdate()
    latest_start = today + datetime.timedelta(days=settings.VACATION_MAX_AHEAD_DAYS)
    Vacation.objects.filter(start__gt=latest_start).delete()
    longest = datetime.timedelta(days=settings.VACATION_DAYS_PER_YEAR - 1)
    for vacation in Vacation.objects.all().iterator():
        last = vacation.start + longest
        if vacation.end > last:
            vacation.end = last
            vacation.save(update_fields=["end"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0006_user_display_name_unique"),
    ]

    operations = [
        migrations.RunPython(bound_vacations, migrations.RunPython.noop),
    ]
