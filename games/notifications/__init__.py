"""Turn reminders and in-app notifications (games/notifications/service.py tells how).

``games.notifications`` is the package's public face: what the rest of the site calls,
and the tasks under the paths the queue stores (a task queued before a release must
still be found by the worker after it).
"""

from games.notifications.channels.email import deadline_reminder_task, hourly_reminder_task
from games.notifications.digest import DigestsNotSent, digest_task, schedule_digests, send_digests
from games.notifications.service import (
    mark_all_read,
    notify_turn_task,
    open_table_closed,
    table_seen,
    turn_started,
    unread_count,
)
from games.notifications.waiting import table_deadline

__all__ = [
    "DigestsNotSent",
    "deadline_reminder_task",
    "digest_task",
    "hourly_reminder_task",
    "mark_all_read",
    "notify_turn_task",
    "open_table_closed",
    "schedule_digests",
    "send_digests",
    "table_deadline",
    "table_seen",
    "turn_started",
    "unread_count",
]
