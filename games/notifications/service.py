"""Turn reminders and in-app notifications: what to send, to whom, and when.

When a human's turn starts at an asynchronous table, ``games.tables.service`` calls
``turn_started`` once the move is committed. A task (``notify_turn_task``) then tells
the player through every channel of games/notifications/channels/: the in-app
notification ("À vous de jouer à la table n° X", inapp.py), then the email following the
player's ``notify`` preference and the reminder before the deadline (email.py). The
daily digest is games/notifications/digest.py.

Nothing is sent about a table its player has open right now (games.tables.presence): no turn
email, no reminder, and the digest leaves that table out. Every task re-reads the table
and checks the version (games/notifications/waiting.py), so running one twice or late
is harmless, and a ``ReminderLog`` row per email (a unique constraint) makes each
reminder go out at most once; the row is claimed before the email is sent, outside any
transaction (``send_once``). Live tables get neither notifications nor emails: the
players are at the table.
"""

from __future__ import annotations

from django.db.models import F
from django.tasks import task
from django.utils import timezone

from games.notifications.channels import CHANNELS
from games.notifications.models import Notification
from games.notifications.waiting import waiting_player
from games.tables.models import Pace, Seat, Table, TableVisit


def turn_started(table_id: int, version: int) -> None:
    """Called by games.tables.service after a committed change: a human's turn at an async table
    gets its notification task. One cheap query decides; every other table costs nothing."""
    waiting = Seat.objects.filter(
        table_id=table_id,
        table__version=version,
        table__pace=Pace.ASYNC,
        table__status=Table.Status.PLAYING,
        table__turn=F("position"),
        user__isnull=False,
    ).exists()
    if waiting:
        notify_turn_task.enqueue(table_id=table_id, version=version)


def open_table_closed(table_id: int, version: int, user_ids: list[int]) -> None:
    """The sweep closed an open table that waited too long for players
    (games/tables/open_tables.py): each player seated there gets an in-app notification,
    in the sweep's transaction."""
    Notification.objects.bulk_create(
        [
            Notification(
                user_id=user_id, table_id=table_id, version=version, kind=Notification.Kind.CLOSED
            )
            for user_id in user_ids
        ],
        ignore_conflicts=True,
    )


def table_seen(user_id: int, table_id: int) -> None:
    """The user opened the table (page or websocket): remember when, and mark its
    notifications read."""
    now = timezone.now()
    TableVisit.objects.update_or_create(
        user_id=user_id, table_id=table_id, defaults={"seen_at": now}
    )
    Notification.objects.filter(user_id=user_id, table_id=table_id, read_at=None).update(
        read_at=now
    )


def mark_all_read(user) -> int:
    return Notification.objects.filter(user=user, read_at=None).update(read_at=timezone.now())


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read_at=None).count()


@task()
def notify_turn_task(table_id: int, version: int) -> None:
    """A human's turn has started at an async table: every channel tells them."""
    waiting = waiting_player(table_id, version)
    if waiting is None:
        return
    table, user = waiting
    for channel in CHANNELS:
        channel.turn_started(table, user, version)
