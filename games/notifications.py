"""Turn reminders and in-app notifications: what to send, to whom, and when.

When a human's turn starts at an asynchronous table, ``games.service`` calls
``turn_started`` once the move is committed. A task then writes the in-app notification
("À vous de jouer à la table n° X": one unread line per table, in the reader's language
when shown) and follows the player's ``notify`` preference:

- ``immediately``: the email goes at once;
- ``hourly``: a task an hour later emails them only if the turn is still theirs at the
  same version and they have not opened the table since it became theirs;
- ``daily``: nothing now; one digest a day of every table waiting for them, sent by
  ``digest_task``, which the periodic sweep queues once a day after DIGEST_HOUR (8 by
  default, the site's time zone; ``manage.py belote_digest`` sends it too);
- ``never``: no email, the in-app notification only.

Every player who accepts emails also gets one reminder before the deadline (two hours
before it, or half the time per move on shorter clocks) if the move is still not in. It
goes for the deadline it was queued for only: when a vacation moves the deadline, the
service's hook runs ``notify_turn_task`` again, which queues the new deadline's reminder.
Nothing is sent about a table its player has open right now (games.presence): no turn
email, no reminder, and the digest leaves that table out.

Every task re-reads the table and checks the version, so running one twice or late is
harmless, and a ``ReminderLog`` row per email (a unique constraint) makes each reminder
go out at most once; the row is claimed before the email is sent, outside any
transaction (``_send_once``). Live tables get neither notifications nor emails: the
players are at the table.
"""

from __future__ import annotations

import datetime
import logging
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.tasks import task
from django.urls import reverse
from django.utils import timezone, translation

from accounts.models import Notify, User
from accounts.unsubscribe import unsubscribe_url
from belote_site.emails import render_email
from games import presence
from games.clock import vacation_end
from games.models import (
    Action,
    Notification,
    Pace,
    ReminderLog,
    Seat,
    Table,
    TableVisit,
)

logger = logging.getLogger(__name__)

HOURLY_DELAY = datetime.timedelta(hours=1)
DEADLINE_LEAD = datetime.timedelta(hours=2)
# A digest run still RUNNING this long after it began died with its worker: the next
# sweep queues another (the players it reached are not emailed twice).
DIGEST_STALE = datetime.timedelta(hours=1)


# ---------------------------------------------------------------------------------------
# Entry points


def turn_started(table_id: int, version: int) -> None:
    """Called by games.service after a committed change: a human's turn at an async table
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


# ---------------------------------------------------------------------------------------
# Tasks


@task()
def notify_turn_task(table_id: int, version: int) -> None:
    waiting = _waiting_player(table_id, version)
    if waiting is None:
        return
    table, user = waiting
    # One unread line per table: an older unread one moves up to this turn (the version
    # checked above is the table's current one), else a new line.
    unread = Notification.objects.filter(
        user=user, table=table, kind=Notification.Kind.TURN, read_at=None
    )
    if not unread.exclude(version=version).update(version=version, created_at=timezone.now()):
        Notification.objects.get_or_create(
            user=user, table=table, version=version, kind=Notification.Kind.TURN
        )
    if not user.email or user.notify == Notify.NEVER:
        return
    if user.notify == Notify.IMMEDIATELY:
        send_turn_email(table, user, version)
    elif user.notify == Notify.HOURLY:
        hourly_reminder_task.using(run_after=timezone.now() + HOURLY_DELAY).enqueue(
            table_id=table_id, version=version
        )
    deadline = table_deadline(table)
    if deadline is not None:
        deadline_reminder_task.using(run_after=reminder_time(table, deadline)).enqueue(
            table_id=table_id, version=version, deadline=deadline.isoformat()
        )


@task()
def hourly_reminder_task(table_id: int, version: int) -> None:
    """An hour later: the email, unless the player came to the table in the meantime."""
    waiting = _waiting_player(table_id, version)
    if waiting is None:
        return
    table, user = waiting
    if user.notify != Notify.HOURLY or _came_back(table, user, version):
        return
    send_turn_email(table, user, version)


@task()
def deadline_reminder_task(table_id: int, version: int, deadline: str | None = None) -> None:
    """Shortly before the deadline: the move is still not in.

    ``deadline`` (ISO 8601) is the one the task was queued for. If a vacation has moved
    the table's deadline since, this task does nothing: the reminder of the new deadline
    is queued with it, and sending now would come early and use up its log row. Whatever
    it was queued for, the email goes only between ``reminder_time`` and the deadline.
    """
    waiting = _waiting_player(table_id, version)
    if waiting is None:
        return
    table, user = waiting
    if not user.email or user.notify == Notify.NEVER:
        return
    current = table_deadline(table)
    if current is None:
        return
    if deadline is not None and datetime.datetime.fromisoformat(deadline) != current:
        return
    if not reminder_time(table, current) <= timezone.now() < current:
        return
    _send_once(
        user,
        ReminderLog.Kind.DEADLINE,
        "emails/deadline",
        {"table": table, "deadline": current, "table_url": _table_url(table)},
        table=table,
        version=version,
    )


# ---------------------------------------------------------------------------------------
# The daily digest (queued by the sweep, or manage.py belote_digest)


@dataclass(frozen=True)
class DigestLine:
    table: Table
    url: str
    deadline: datetime.datetime | None


def waiting_tables(user) -> list[Table]:
    """The async tables in play where it is ``user``'s turn, oldest move first."""
    return list(
        Table.objects.filter(
            pace=Pace.ASYNC,
            status=Table.Status.PLAYING,
            seats__user=user,
            seats__position=F("turn"),
        ).order_by("updated_at")
    )


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
        lines = [DigestLine(t, _table_url(t), table_deadline(t)) for t in tables]
        try:
            sent += _send_once(
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


# ---------------------------------------------------------------------------------------
# Helpers


def table_deadline(table: Table) -> datetime.datetime | None:
    """When the player to act runs out of time (stored by games.service, games/clock.py)."""
    return table.deadline


def reminder_time(table: Table, deadline: datetime.datetime) -> datetime.datetime:
    """Two hours before the deadline, or half the time per move on shorter clocks."""
    lead = min(DEADLINE_LEAD, datetime.timedelta(seconds=table.move_seconds / 2))
    return deadline - lead


def send_turn_email(table: Table, user, version: int) -> bool:
    return _send_once(
        user,
        ReminderLog.Kind.TURN,
        "emails/turn",
        {"table": table, "table_url": _table_url(table)},
        table=table,
        version=version,
    )


def _waiting_player(table_id: int, version: int):
    """(table, user) when the table is async, in play at ``version`` and a human is to act."""
    table = Table.objects.filter(
        pk=table_id, version=version, pace=Pace.ASYNC, status=Table.Status.PLAYING
    ).first()
    if table is None or table.turn is None:
        return None
    seat = Seat.objects.select_related("user").filter(table=table, position=table.turn).first()
    if seat is None or seat.user is None or seat.stand_in or not seat.user.is_active:
        return None
    return table, seat.user


def _came_back(table: Table, user, version: int) -> bool:
    """Whether the player opened the table since their turn began (one who has it open
    right now is never emailed: ``_send_once``)."""
    started = (
        Action.objects.filter(table=table, seq=version).values_list("created_at", flat=True).first()
    )
    visit = TableVisit.objects.filter(user=user, table=table).first()
    return visit is not None and started is not None and visit.seen_at >= started


def _send_once(user, kind: str, template: str, context: dict, **key) -> bool:
    """Send the email unless this reminder went already; returns whether it went.

    Nobody is reminded while on vacation (their clock stands still), nor about a table
    they have open right now. The ``ReminderLog`` row is claimed first, in a transaction
    of its own, and the email sent once that is committed: the SMTP round trip holds no
    database lock (with SQLite, the lock of every writer). Of two runs, the unique
    constraint lets one claim; if the sending fails, the claim is deleted so that a later
    run may try again. Callers hold no transaction.
    """
    if vacation_end(user.pk, timezone.now()) is not None:
        return False
    table = key.get("table")
    if table is not None and presence.connected(table.pk, [user.pk]):
        return False
    try:
        with transaction.atomic():
            claim = ReminderLog.objects.create(user=user, kind=kind, **key)
    except IntegrityError:
        return False
    try:
        _email(user, template, context).send()
    except Exception:
        claim.delete()
        raise
    return True


def _email(user, template: str, context: dict) -> EmailMultiAlternatives:
    unsubscribe = unsubscribe_url(user)
    context = {**context, "user": user, "unsubscribe_url": unsubscribe}
    with translation.override(user.language):
        subject, text, html = render_email(template, context)
    message = EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def _table_url(table: Table) -> str:
    return settings.SITE_URL + reverse("games:table", args=[table.pk])
