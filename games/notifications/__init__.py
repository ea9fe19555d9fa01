"""Turn reminders and in-app notifications (games/notifications/service.py).

``games.notifications`` is the package's public face: what the rest of the site calls,
and the tasks under the paths the queue stores (a task queued before a release must
still be found by the worker after it).
"""

from games.notifications.service import (
    DigestsNotSent,
    deadline_reminder_task,
    digest_task,
    hourly_reminder_task,
    mark_all_read,
    notify_turn_task,
    schedule_digests,
    send_digests,
    table_deadline,
    table_seen,
    turn_started,
    unread_count,
)

__all__ = [
    "DigestsNotSent",
    "deadline_reminder_task",
    "digest_task",
    "hourly_reminder_task",
    "mark_all_read",
    "notify_turn_task",
    "schedule_digests",
    "send_digests",
    "table_deadline",
    "table_seen",
    "turn_started",
    "unread_count",
]
