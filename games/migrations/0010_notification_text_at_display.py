"""Notifications say their text in the reader's language when shown (no stored text),
and a table has one unread line: the older unread ones of a table are dropped."""

from django.db import migrations
from django.db.models import Max


def one_unread_line_per_table(apps, schema_editor):
    Notification = apps.get_model("games", "Notification")
    unread = Notification.objects.filter(read_at=None)
    newest = unread.values("user_id", "table_id", "kind").annotate(last=Max("pk"))
    for row in newest:
        unread.filter(user_id=row["user_id"], table_id=row["table_id"], kind=row["kind"]).exclude(
            pk=row["last"]
        ).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_table_seats_version"),
    ]

    operations = [
        migrations.RemoveField(model_name="notification", name="text"),
        migrations.RunPython(one_unread_line_per_table, migrations.RunPython.noop, elidable=True),
    ]
