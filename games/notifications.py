"""Turn reminders and in-app notifications: what to send, to whom, and when.

When a human's turn starts at an asynchronous table, ``games.service`` calls
``turn_started`` once the move is committed. A task then writes the in-app notification
("À vous de jouer à la table n° X") and follows the player's ``notify`` preference:

- ``immediately``: the email goes at once;
- ``hourly``: a task an hour later emails them only if the turn is still theirs at the
  same version and they have not opened the table since it became theirs;
- ``daily``: nothing now; ``manage.py belote_digest`` sends one digest a day of every
  table waiting for them;
- ``never``: no email, the in-app notification only.

Every player who accepts emails also gets one reminder before the deadline (two hours
before it, or half the time per move on shorter clocks) if the move is still not in.
Nothing is sent to someone who has the table open right now (games.presence).

Every task re-reads the table and checks the version, so running one twice or late is
harmless, and a ``ReminderLog`` row per email (a unique constraint) makes each reminder
go out at most once. Live tables get neither notifications nor emails: the players are
at the table.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.db.models import F
from django.tasks import task
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import Notify, User
from accounts.unsubscribe import unsubscribe_url
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

HOURLY_DELAY = datetime.timedelta(hours=1)
DEADLINE_LEAD = datetime.timedelta(hours=2)


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
    with translation.override(user.language):
        text = _("À vous de jouer à la table n° %(id)s") % {"id": table.pk}
    Notification.objects.get_or_create(
        user=user,
        table=table,
        version=version,
        kind=Notification.Kind.TURN,
        defaults={"text": text},
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
            table_id=table_id, version=version
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
def deadline_reminder_task(table_id: int, version: int) -> None:
    """Shortly before the deadline: the move is still not in."""
    waiting = _waiting_player(table_id, version)
    if waiting is None:
        return
    table, user = waiting
    if not user.email or user.notify == Notify.NEVER:
        return
    if presence.connected(table.pk, [user.pk]):
        return
    deadline = table_deadline(table)
    if deadline is None or timezone.now() >= deadline:
        return
    _send_once(
        user,
        ReminderLog.Kind.DEADLINE,
        "emails/deadline",
        {"table": table, "deadline": deadline, "table_url": _table_url(table)},
        table=table,
        version=version,
    )


# ---------------------------------------------------------------------------------------
# The daily digest (manage.py belote_digest)


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


def send_digests(day: datetime.date | None = None) -> int:
    """Each player who chose the daily digest gets it once for ``day`` (today by
    default), if some table waits for them. Returns the number of emails sent."""
    day = day or timezone.localdate()
    sent = 0
    users = User.objects.filter(notify=Notify.DAILY, is_active=True).exclude(email="")
    for user in users.iterator():
        tables = waiting_tables(user)
        if not tables:
            continue
        lines = [DigestLine(t, _table_url(t), table_deadline(t)) for t in tables]
        sent += _send_once(
            user, ReminderLog.Kind.DIGEST, "emails/digest", {"lines": lines}, day=day
        )
    return sent


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
    """Whether the player has the table open, or opened it since their turn began."""
    if presence.connected(table.pk, [user.pk]):
        return True
    started = (
        Action.objects.filter(table=table, seq=version).values_list("created_at", flat=True).first()
    )
    visit = TableVisit.objects.filter(user=user, table=table).first()
    return visit is not None and started is not None and visit.seen_at >= started


def _send_once(user, kind: str, template: str, context: dict, **key) -> bool:
    """Send the email unless this reminder was already sent (the log row is written in
    the same transaction: a failed send leaves no row, a second run finds it). Nobody is
    reminded while on vacation: their clock stands still."""
    if vacation_end(user.pk, timezone.now()) is not None:
        return False
    with transaction.atomic():
        try:
            with transaction.atomic():
                ReminderLog.objects.create(user=user, kind=kind, **key)
        except IntegrityError:
            return False
        _email(user, template, context).send()
    return True


def _email(user, template: str, context: dict) -> EmailMultiAlternatives:
    unsubscribe = unsubscribe_url(user)
    context = {**context, "user": user, "unsubscribe_url": unsubscribe}
    with translation.override(user.language):
        subject = render_to_string(f"{template}_subject.txt", context).strip()
        text = render_to_string(f"{template}.txt", context)
        html = render_to_string(f"{template}.html", context)
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
