"""Time at the tables, besides the moves themselves: the sweep, stand-in bots, vacations.

- ``sweep`` (``manage.py belote_sweep``, and ``sweep_task`` every SWEEP_SECONDS) catches
  whatever a stopped worker dropped: every passed deadline, every bot turn left without
  a move for BOT_STALL_SECONDS, every absent live player. Each step re-checks the table
  at its version under the table lock, so a second run does nothing more.
- A live table's player whose page is closed (games/presence.py) while it is their turn
  is replaced by the heuristic bot (``Seat.stand_in``) after the table's grace period
  (``live_grace``: LIVE_GRACE_SECONDS, or half the time per move on shorter clocks) until
  they reconnect or click "Reprendre ma place" (``take_back_seat``).
- A declared vacation stops its player's clocks: ``reschedule_user`` moves their turns'
  deadlines (games/clock.py does the arithmetic).
Writes go through games.service's helpers, as in games/lobby.py.
"""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import Sequence

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from belote_site.cache import CacheUnreachable, shared_answers_only
from games import presence, service
from games.clock import turn_deadline
from games.models import Action, Pace, Seat, Table

logger = logging.getLogger(__name__)


def _seconds(name: str) -> datetime.timedelta:
    return datetime.timedelta(seconds=getattr(settings, name))


# ---------------------------------------------------------------------------------------
# The sweep


def sweep() -> int:
    """Act on every table whose clock or bot is overdue; returns how many tables moved."""
    now = timezone.now()
    playing = Table.objects.filter(status=Table.Status.PLAYING)
    bots_stalled = playing.filter(
        deadline__isnull=True, updated_at__lte=now - _seconds("BOT_STALL_SECONDS")
    ).filter(
        Q(seats__position=F("turn")),
        Q(seats__bot_level__gt="") | Q(seats__stand_in=True),
    )
    # Each step's tables are read when the step begins, after the previous one acted.
    steps = [
        (service.expire_deadline, lambda: _ids(playing.filter(deadline__lte=now))),
        (service.play_bot_move, lambda: _ids(bots_stalled)),
        (replace_absent, lambda: _absent_candidates(playing, now)),
    ]
    moved = 0
    for step, candidates in steps:
        for table_id, version in candidates():
            try:
                outcome = step(table_id, version)
            except Exception:  # one broken table must not stop the others
                logger.exception("sweep: %s failed on table %s", step.__name__, table_id)
                continue
            moved += outcome is not None and outcome.applied
    return moved


def _ids(tables) -> list[tuple[int, int]]:
    return list(tables.values_list("pk", "version").distinct())


def _absent_candidates(playing, now: datetime.datetime) -> list[tuple[int, int]]:
    """(id, version) of the live tables whose turn is older than their grace period; few
    tables are live at once, so the grace of each is worked out here."""
    rows = playing.filter(pace=Pace.LIVE, deadline__isnull=False).values_list(
        "pk", "version", "updated_at", "move_seconds"
    )
    return [
        (table_id, version)
        for table_id, version, updated_at, move_seconds in rows
        if updated_at <= now - live_grace(move_seconds)
    ]


def schedule_sweep() -> bool:
    """Enqueue the next ``sweep_task`` in SWEEP_SECONDS unless one is already waiting.

    Only a waiting (READY) sweep counts. A running one queued its successor when it began
    (games/tasks.py), and a RUNNING row whose worker was killed is dead, however recent:
    counting it would stop the cycle for good.
    """
    from django.tasks import TaskResultStatus
    from django_tasks_db.models import DBTaskResult

    from games.tasks import sweep_task

    waiting = DBTaskResult.objects.filter(
        task_path=sweep_task.module_path, status=TaskResultStatus.READY
    )
    if waiting.exists():
        return False
    sweep_task.using(run_after=timezone.now() + _seconds("SWEEP_SECONDS")).enqueue()
    return True


# ---------------------------------------------------------------------------------------
# Stand-in bots at live tables


def _absent_key(table_id: int, user_id: int) -> str:
    return f"absent:table:{table_id}:user:{user_id}"


def live_grace(move_seconds: float) -> datetime.timedelta:
    """How long a live player may be gone on their turn before a stand-in plays for them:
    LIVE_GRACE_SECONDS, but at most half the time per move, or a short clock (live ones go
    down to 30 s) would always run out first and the stand-in never come."""
    return min(_seconds("LIVE_GRACE_SECONDS"), datetime.timedelta(seconds=move_seconds / 2))


def note_absent(table_id: int, user_id: int) -> None:
    """The user's last page of the table closed: check again after the grace period."""
    from games.tasks import check_absent_task

    cache.set(_absent_key(table_id, user_id), time.time(), settings.LIVE_GRACE_SECONDS * 10)
    table = Table.objects.filter(pk=table_id, pace=Pace.LIVE, status=Table.Status.PLAYING)
    row = table.values_list("version", "move_seconds").first()
    if row is not None:
        version, move_seconds = row
        run_after = timezone.now() + live_grace(move_seconds)
        check_absent_task.using(run_after=run_after).enqueue(table_id=table_id, version=version)


def note_back(table_id: int, user) -> None:
    """The user opened the table again: a stand-in playing for them stops."""
    cache.delete(_absent_key(table_id, user.pk))
    if Seat.objects.filter(table_id=table_id, user=user, stand_in=True).exists():
        take_back_seat(table_id=table_id, user=user)


def replace_absent(table_id: int, version: int) -> service.Outcome | None:
    """A stand-in bot for the live table's player to act, gone for the grace period."""
    now = timezone.now()
    with transaction.atomic():
        table = service._lock(table_id)
        if (
            table.version != version
            or table.status != Table.Status.PLAYING
            or table.pace != Pace.LIVE
            or table.turn is None
        ):
            return None
        grace = live_grace(table.move_seconds)
        seat = Seat.objects.get(table=table, position=table.turn)
        if seat.user_id is None or seat.bot_plays:
            return None
        # Only on what every process wrote: not while Redis is down, when this process's
        # memory stands in for it and knows nothing of the pages open elsewhere (the
        # sweep asks again).
        try:
            with shared_answers_only():
                here = presence.connected(table_id, [seat.user_id])
                left = cache.get(_absent_key(table_id, seat.user_id))
        except CacheUnreachable:
            return None
        if here or service.turn_started(table) > now - grace:
            return None
        if left is not None and left > now.timestamp() - grace.total_seconds():
            return None
        seat.stand_in = True
        seat.save(update_fields=["stand_in"])
        payload = {"seat": seat.position}
        table.version = service._log(
            table, None, None, "stand_in", payload, seat=seat.position, source=Action.Source.SYSTEM
        )
        table.deadline = None
        table.save(update_fields=["version", "deadline", "updated_at"])
        service._follow_up(table.pk, table.version, True, clock=table)
    return service.Outcome(table.version, True)


def take_back_seat(*, table_id: int, user) -> service.Outcome:
    """The player is back: their stand-in stops and their clock starts again."""
    with transaction.atomic():
        table = service._lock(table_id)
        seat = Seat.objects.filter(table=table, user=user).first()
        if seat is None:
            raise service.ServiceError(
                "not_seated", _("Vous n'avez pas de place à cette table."), 403
            )
        if not seat.stand_in:
            return service.Outcome(table.version, False)
        seat.stand_in = False
        seat.save(update_fields=["stand_in"])
        payload = {"seat": seat.position}
        table.version = service._log(table, None, user, "take_back", payload, seat=seat.position)
        table.deadline = turn_deadline(table, list(table.seats.all()))
        table.save(update_fields=["version", "deadline", "updated_at"])
        service._follow_up(table.pk, table.version, False, clock=table)
    return service.Outcome(table.version, True)


# ---------------------------------------------------------------------------------------
# Vacations


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
    The service's follow-ups (``_follow_up``) then queue the expiry and, at an
    asynchronous table, run the turn notification again, which queues the reminder of
    the new deadline.
    """
    changed = 0
    for table_id in [table.pk for table in _turns_of(user_id)]:
        with transaction.atomic():
            table = service._lock(table_id)
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
            service._follow_up(table.pk, table.version, False, clock=table)
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
