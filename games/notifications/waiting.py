"""Who a table waits for, and until when: what the channels and the digest read.

Every task re-reads the table and checks the version (``waiting_player``), so running
one twice or late is harmless.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db.models import F
from django.urls import reverse

from games.tables.models import Action, Pace, Seat, Table, TableVisit

DEADLINE_LEAD = datetime.timedelta(hours=2)


def waiting_player(table_id: int, version: int):
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


def came_back(table: Table, user, version: int) -> bool:
    """Whether the player opened the table since their turn began (one who has it open
    right now is never emailed: ``send_once``)."""
    started = (
        Action.objects.filter(table=table, seq=version).values_list("created_at", flat=True).first()
    )
    visit = TableVisit.objects.filter(user=user, table=table).first()
    return visit is not None and started is not None and visit.seen_at >= started


def table_deadline(table: Table) -> datetime.datetime | None:
    """When the player to act runs out of time (stored by games.tables.service,
    games/tables/clock.py)."""
    return table.deadline


def reminder_time(table: Table, deadline: datetime.datetime) -> datetime.datetime:
    """Two hours before the deadline, or half the time per move on shorter clocks."""
    lead = min(DEADLINE_LEAD, datetime.timedelta(seconds=table.move_seconds / 2))
    return deadline - lead


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


def table_url(table: Table) -> str:
    return settings.SITE_URL + reverse("games:table", args=[table.pk])
