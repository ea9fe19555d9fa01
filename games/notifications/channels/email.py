"""The email channel: the turn email, following the player's ``notify`` preference, and
the reminder before the deadline (the daily digest is games/notifications/digest.py).

- ``immediately``: the email goes at once;
- ``hourly``: a task an hour later emails them only if the turn is still theirs at the
  same version and they have not opened the table since it became theirs;
- ``daily``: nothing now (the digest);
- ``never``: no email.

Every player who accepts emails also gets one reminder before the deadline (two hours
before it, or half the time per move on shorter clocks) if the move is still not in. It
goes for the deadline it was queued for only: when a vacation moves the deadline, the
service's hook runs ``notify_turn_task`` again, which queues the new deadline's reminder.
A ``ReminderLog`` row per email (a unique constraint) makes each go out at most once
(``send_once``).
"""

from __future__ import annotations

import datetime

from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.tasks import task
from django.utils import timezone, translation

from accounts.models import Notify
from accounts.unsubscribe import unsubscribe_url
from belote_site.emails import render_email
from games.notifications.channels.base import Channel
from games.notifications.models import ReminderLog
from games.notifications.waiting import (
    came_back,
    reminder_time,
    table_deadline,
    table_url,
    waiting_player,
)
from games.tables import presence
from games.tables.clock import vacation_end
from games.tables.models import Table

HOURLY_DELAY = datetime.timedelta(hours=1)


class Email(Channel):
    name = "email"

    def turn_started(self, table, user, version: int) -> None:
        if not user.email or user.notify == Notify.NEVER:
            return
        if user.notify == Notify.IMMEDIATELY:
            send_turn_email(table, user, version)
        elif user.notify == Notify.HOURLY:
            hourly_reminder_task.using(run_after=timezone.now() + HOURLY_DELAY).enqueue(
                table_id=table.pk, version=version
            )
        deadline = table_deadline(table)
        if deadline is not None:
            deadline_reminder_task.using(run_after=reminder_time(table, deadline)).enqueue(
                table_id=table.pk, version=version, deadline=deadline.isoformat()
            )


CHANNEL = Email()


@task()
def hourly_reminder_task(table_id: int, version: int) -> None:
    """An hour later: the email, unless the player came to the table in the meantime."""
    waiting = waiting_player(table_id, version)
    if waiting is None:
        return
    table, user = waiting
    if user.notify != Notify.HOURLY or came_back(table, user, version):
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
    waiting = waiting_player(table_id, version)
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
    send_once(
        user,
        ReminderLog.Kind.DEADLINE,
        "emails/deadline",
        {"table": table, "deadline": current, "table_url": table_url(table)},
        table=table,
        version=version,
    )


def send_turn_email(table: Table, user, version: int) -> bool:
    return send_once(
        user,
        ReminderLog.Kind.TURN,
        "emails/turn",
        {"table": table, "table_url": table_url(table)},
        table=table,
        version=version,
    )


def send_once(user, kind: str, template: str, context: dict, **key) -> bool:
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
