"""A declared vacation stops its player's clocks: when the vacations of a user change
(accounts/vacations.py sends ``accounts.signals.vacations_changing`` then
``vacations_changed``), ``reschedule_user`` moves their turns' deadlines
(games/tables/clock.py does the arithmetic)."""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.conf import settings
from django.db import transaction
from django.db.models import F

from games.tables import service
from games.tables.clock import turn_deadline
from games.tables.models import Table


def clocks_before(sender, *, user_id: int, **kwargs) -> dict:
    """Receiver of ``accounts.signals.vacations_changing``: the user's clocks as their
    vacations stand, answered to the sender, who hands them back with the change."""
    return turn_clocks(user_id)


def clocks_after(sender, *, user_id: int, before: dict, paused=(), **kwargs) -> None:
    """Receiver of ``accounts.signals.vacations_changed``: the deadlines move."""
    reschedule_user(user_id, before=before.get(clocks_before), paused=paused)


def turn_clocks(user_id: int) -> dict[int, tuple[int, datetime.datetime | None]]:
    """The user's turns before a change of their vacations: table id -> (version, the
    deadline their vacations as they stand give), for ``reschedule_user(before=...)``."""
    clocks = {}
    for table in _turns_of(user_id):
        deadline = turn_deadline(table, list(table.seats.all()), start=service.turn_started(table))
        clocks[table.pk] = (table.version, deadline)
    return clocks


def reschedule_user(
    user_id: int,
    *,
    before: dict[int, tuple[int, datetime.datetime | None]] | None = None,
    paused: Sequence[tuple] = (),
) -> int:
    """Recompute the deadlines of the user's turns after a change of their vacations;
    returns how many moved.

    ``paused``: (begin, end) windows that stay paused though no vacation covers them any
    more (what a cancelled vacation already paused). ``before`` (``turn_clocks`` taken
    before the change): a turn whose stored deadline is later than its vacations alone
    gave keeps that extra time, which an earlier cancellation paused and no row records.
    The service's follow-ups (``follow_up``) then queue the expiry and, at an
    asynchronous table, run the turn notification again, which queues the reminder of
    the new deadline.
    """
    changed = 0
    for table_id in [table.pk for table in _turns_of(user_id)]:
        with transaction.atomic():
            table = service.lock_table(table_id)
            seats = list(table.seats.all())
            to_act = next((s for s in seats if s.position == table.turn), None)
            if table.deadline is None or to_act is None or to_act.user_id != user_id:
                continue  # moved on since the query
            start = service.turn_started(table)
            deadline = turn_deadline(table, seats, start=start, paused=paused)
            if deadline is None:
                continue
            version, old = (before or {}).get(table.pk, (None, None))
            if version == table.version and old is not None:
                deadline += _extra_pause(table.deadline, old)
            if deadline == table.deadline:
                continue
            table.deadline = deadline
            table.save(update_fields=["deadline"])
            service.follow_up(table.pk, table.version, False, clock=table)
            changed += 1
    return changed


def _extra_pause(stored: datetime.datetime, computed: datetime.datetime) -> datetime.timedelta:
    """How much later the stored deadline is than the vacations give. Less than a second
    is no pause: the service stamps a deadline a moment after the action that began the
    turn. An earlier stored deadline (a vacation written without rescheduling) gets the
    vacations' one. At most what a removed vacation can have paused (VACATION_DAYS_PER_YEAR
    days and the day it was cancelled): a deadline written into the far future some other
    way is not carried over, and the sum cannot overflow."""
    extra = stored - computed
    if extra < datetime.timedelta(seconds=1):
        return datetime.timedelta(0)
    return min(extra, datetime.timedelta(days=settings.VACATION_DAYS_PER_YEAR + 1))


def _turns_of(user_id: int) -> list[Table]:
    """The tables in play where ``user_id`` is to act against a clock."""
    return list(
        Table.objects.filter(
            status=Table.Status.PLAYING,
            deadline__isnull=False,
            seats__user_id=user_id,
            seats__position=F("turn"),
        ).distinct()
    )
