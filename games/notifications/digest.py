"""The daily digest: one email a day, to each player who chose it (``notify`` daily), of
every asynchronous table waiting for them, except one they have open right now. Queued
by the periodic sweep once a day after DIGEST_HOUR (8 by default, the site's time zone;
``manage.py belote_digest`` sends it too). An email of the email channel
(games/notifications/channels/email.py): one ``ReminderLog`` row per player and day.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.conf import settings
from django.db.models import Q
from django.tasks import task
from django.utils import timezone

from accounts.models import Notify, User
from games.notifications.channels.email import send_once
from games.notifications.models import ReminderLog
from games.notifications.waiting import table_deadline, table_url, waiting_tables
from games.tables import presence
from games.tables.models import Table

logger = logging.getLogger(__name__)

# A digest run still RUNNING this long after it began died with its worker: the next
# sweep queues another (the players it reached are not emailed twice).
DIGEST_STALE = datetime.timedelta(hours=1)


@dataclass(frozen=True)
class DigestLine:
    table: Table
    url: str
    deadline: datetime.datetime | None


class DigestsNotSent(Exception):
    """Some digests could not be sent (each is logged); the others went. Their claims
    are gone, so the next run tries them again."""

    def __init__(self, *, sent: int, failed: int) -> None:
        super().__init__(f"{failed} digest(s) could not be sent ({sent} sent)")
        self.sent = sent
        self.failed = failed


def send_digests(day: datetime.date | None = None) -> int:
    """Each player who chose the daily digest gets it once for ``day`` (today by
    default), if some table they do not have open waits for them. Returns the number of
    emails sent; raises ``DigestsNotSent`` after trying everyone if some could not go."""
    day = day or timezone.localdate()
    sent = failed = 0
    done = ReminderLog.objects.filter(kind=ReminderLog.Kind.DIGEST, day=day).values("user_id")
    users = (
        User.objects.filter(notify=Notify.DAILY, is_active=True)
        .exclude(email="")
        .exclude(pk__in=done)
    )
    for user in users.iterator():
        tables = [t for t in waiting_tables(user) if not presence.connected(t.pk, [user.pk])]
        if not tables:
            continue
        lines = [DigestLine(t, table_url(t), table_deadline(t)) for t in tables]
        try:
            sent += send_once(
                user, ReminderLog.Kind.DIGEST, "emails/digest", {"lines": lines}, day=day
            )
        except Exception:  # one refused address must not stop the other players' digests
            logger.exception("digest: sending to user %s failed", user.pk)
            failed += 1
    if failed:
        raise DigestsNotSent(sent=sent, failed=failed)
    return sent


@task()
def digest_task(day: str) -> int:
    return send_digests(datetime.date.fromisoformat(day))


def digest_time(day: datetime.date) -> datetime.datetime:
    """When the digest of ``day`` is due: DIGEST_HOUR o'clock in the site's time zone."""
    hour = settings.DIGEST_HOUR
    moment = datetime.datetime.combine(day, datetime.time(hour))
    return timezone.make_aware(moment, timezone.get_default_timezone())


def schedule_digests(now: datetime.datetime | None = None) -> bool:
    """Run by every sweep (games/tasks.py): once the day's DIGEST_HOUR has passed, queue
    its ``digest_task`` unless one was queued since that hour and is waiting, running or
    done. A failed or dead one is queued again by the next sweep; ``send_digests`` skips
    the players it reached. Returns whether it queued one."""
    from django.tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    now = now or timezone.now()
    day = timezone.localdate(now, timezone.get_default_timezone())
    due = digest_time(day)
    if now < due:
        return False
    runs = DBTaskResult.objects.filter(task_path=digest_task.module_path, enqueued_at__gte=due)
    alive = runs.filter(
        Q(status__in=[TaskResultStatus.READY, TaskResultStatus.SUCCESSFUL])
        | Q(status=TaskResultStatus.RUNNING, started_at__gt=now - DIGEST_STALE)
    )
    if alive.exists():
        return False
    digest_task.enqueue(day=day.isoformat())
    return True
