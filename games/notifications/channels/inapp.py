"""The in-app channel: the notification of the header's counter and of the
notifications page ("À vous de jouer à la table n° X"): one unread line per table, in the
reader's language when shown, read once the player opens the table (``table_seen``)."""

from __future__ import annotations

from django.utils import timezone

from games.notifications.channels.base import Channel
from games.notifications.models import Notification


class InApp(Channel):
    name = "inapp"

    def turn_started(self, table, user, version: int) -> None:
        # One unread line per table: an older unread one moves up to this turn (the
        # version was checked by the caller: it is the table's current one), else a new line.
        unread = Notification.objects.filter(
            user=user, table=table, kind=Notification.Kind.TURN, read_at=None
        )
        if not unread.exclude(version=version).update(version=version, created_at=timezone.now()):
            Notification.objects.get_or_create(
                user=user, table=table, version=version, kind=Notification.Kind.TURN
            )


CHANNEL = InApp()
