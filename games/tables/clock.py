"""Clock arithmetic of the tables: when the player to act runs out of time.

A player's clock stands still while they are on vacation (accounts.models.Vacation, whole
days in the site's time zone): ``clock_deadline`` adds the time per move to the start of
the turn and pushes the result back by every vacation that overlaps it. Reads only;
games.tables.service stores the result in ``Table.deadline``.

A vacation is whole days, so a cancelled one cannot say that it ended at 15:12: the time
it paused today is passed as an extra ``paused`` window (accounts/vacations.py), and
games.timing.sweep keeps that time in the stored deadline when the vacations change again.

Whatever rows are stored, the arithmetic stays within what datetime can count (up to the
year 9999) and a vacation stops a clock no longer than the service lets one last:
``accounts.vacations.vacation_window`` reads each row as at most VACATION_DAYS_PER_YEAR
days, between FIRST_DAY and LAST_DAY, and ``clock_deadline`` pauses overlapping windows once. A row
written past the form and the service (the far future, year 9999) can therefore neither
crash another player's move, the worker or the sweep, nor freeze a table for good.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence

from django.db.models import Exists, OuterRef, Subquery
from django.utils import timezone

from accounts.vacations import vacation_window
from games.tables.models import Seat, Table


def vacation_windows(user_id: int, after: datetime.datetime) -> list[tuple]:
    """The user's vacations that end after ``after``, as (begin, end) instants, in order."""
    from accounts.models import Vacation

    rows = Vacation.objects.filter(user_id=user_id, end__gte=timezone.localdate(after))
    return [vacation_window(v.start, v.end) for v in rows.order_by("start")]


def seats_for_the_clock(table_id: int) -> list[Seat]:
    """The table's four seats in order, each with ``has_leave``: whether its user has a
    vacation ending today or later. One query, the seats' own: the deadline of a player
    without any vacation then needs no query (``turn_deadline``), which is most moves."""
    from accounts.models import Vacation

    leave = Vacation.objects.filter(user_id=OuterRef("user_id"), end__gte=timezone.localdate())
    seats = Seat.objects.filter(table_id=table_id).annotate(has_leave=Exists(leave))
    return list(seats.order_by("position"))


def latest_leave() -> Subquery:
    """For a query of tables: the last day of the latest vacation of a user seated at the
    table (None if they have none). Whether it is today or later is ``on_leave``: nobody
    is for most tables (``turn_deadline`` then needs no query, and the seats no
    annotation: games/tables/seats.py ``table_seats`` keeps them per process). The query
    holds no date of its own, so that it is compiled once (games/tables/prepared.py)."""
    from accounts.models import Vacation

    leave = Vacation.objects.filter(user__seats__table=OuterRef("pk")).order_by("-end")
    return Subquery(leave.values("end")[:1])


def on_leave(latest: datetime.date | None) -> bool:
    """Whether a vacation ending on ``latest`` (``latest_leave``) is not over today."""
    return latest is not None and latest >= timezone.localdate()


def clock_deadline(
    user_id: int, start: datetime.datetime, seconds: float, *, paused: Sequence[tuple] = ()
) -> datetime.datetime:
    """``start`` plus ``seconds`` of the user's clock, which stops during their vacations
    and during the ``paused`` (begin, end) windows. Time covered by several windows (rows
    that overlap, written past the service) is paused once."""
    deadline = start + datetime.timedelta(seconds=seconds)
    windows = sorted([*vacation_windows(user_id, start), *paused])
    covered = start  # the clock is stopped until here already
    for begin, end in windows:
        begin = max(begin, covered)
        if begin >= deadline:
            break
        if end > begin:
            deadline += end - begin
            covered = end
    return deadline


def vacation_end(user_id: int, at: datetime.datetime) -> datetime.datetime | None:
    """When the vacation the user is on at ``at`` ends; None if they are not on one."""
    for begin, end in vacation_windows(user_id, at):
        if begin <= at < end:
            return end
    return None


def turn_deadline(
    table: Table,
    seats: list[Seat],
    start: datetime.datetime | None = None,
    *,
    paused: Sequence[tuple] = (),
) -> datetime.datetime | None:
    """The deadline of the turn starting at ``start``: None when no human is to act."""
    if table.status != Table.Status.PLAYING or table.turn is None:
        return None
    seat = next(s for s in seats if s.position == table.turn)
    if seat.bot_plays or seat.user_id is None:
        return None
    start = start or timezone.now()
    no_leave = getattr(seat, "has_leave", None) is False
    if getattr(table, "anyone_on_leave", None) is False:
        no_leave = True
    if not paused and no_leave:
        return start + datetime.timedelta(seconds=table.move_seconds)
    return clock_deadline(seat.user_id, start, table.move_seconds, paused=paused)
