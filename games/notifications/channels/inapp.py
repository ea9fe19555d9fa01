"""The in-app channel: the notification of the header's counter and of the
notifications page ("À vous de jouer à la table n° X"), one per turn, read once the
player opens the table (``table_seen``)."""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from games.notifications.channels.base import Channel
from games.notifications.models import Notification


class InApp(Channel):
    name = "inapp"

    def turn_started(self, table, user, version: int) -> None:
        with translation.override(user.language):
            text = _("À vous de jouer à la table n° %(id)s") % {"id": table.pk}
        Notification.objects.get_or_create(
            user=user,
            table=table,
            version=version,
            kind=Notification.Kind.TURN,
            defaults={"text": text},
        )


CHANNEL = InApp()
