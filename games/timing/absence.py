"""Stand-in bots at live tables, and live tables that wait for their players.

A live table's player whose page is closed (games/tables/presence.py) while it is their
turn is replaced by the heuristic bot (``Seat.stand_in``) after the table's grace period
(``live_grace``: LIVE_GRACE_SECONDS, or half the time per move on shorter clocks) until
they reconnect or click "Reprendre ma place" (``games.tables.standins.take_back_seat``).
Every live turn queues its own absence check (``queue_absence_check``, a receiver of
``games.tables.signals.table_changed``).

A stand-in plays only while another seated player is at the table: when the last one
leaves (``note_absent``), or when a stand-in would come with nobody there, the table
pauses instead, and it resumes when a player comes back (``note_back``;
games/tables/attendance.py).
"""

from __future__ import annotations

import datetime
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.tasks import task
from django.utils import timezone

from belote_site.cache import CacheUnreachable, shared_answers_only
from games.tables import attendance, presence, service
from games.tables.models import Action, Pace, Seat, Table
from games.tables.seats import table_seats
from games.tables.standins import take_back_seat


def _seconds(name: str) -> datetime.timedelta:
    return datetime.timedelta(seconds=getattr(settings, name))


def _absent_key(table_id: int, user_id: int) -> str:
    return f"absent:table:{table_id}:user:{user_id}"


def live_grace(move_seconds: float) -> datetime.timedelta:
    """How long a live player may be gone on their turn before a stand-in plays for them:
    LIVE_GRACE_SECONDS, but at most half the time per move, or a short clock (live ones go
    down to 30 s) would always run out first and the stand-in never come."""
    return min(_seconds("LIVE_GRACE_SECONDS"), datetime.timedelta(seconds=move_seconds / 2))


def note_absent(table_id: int, user_id: int) -> None:
    """The user's last page of the table closed: the table pauses if no player is left
    there; otherwise check again after the grace period."""
    if service.pause_if_unattended(table_id) is not None:
        return
    cache.set(_absent_key(table_id, user_id), time.time(), settings.LIVE_GRACE_SECONDS * 10)
    table = Table.objects.filter(pk=table_id, pace=Pace.LIVE, status=Table.Status.PLAYING)
    row = table.values_list("version", "move_seconds").first()
    if row is not None:
        version, move_seconds = row
        run_after = timezone.now() + live_grace(move_seconds)
        check_absent_task.using(run_after=run_after).enqueue(table_id=table_id, version=version)


def note_back(table_id: int, user) -> None:
    """The user opened the table again: a stand-in playing for them stops, and the table
    resumes if it was waiting for its players."""
    cache.delete(_absent_key(table_id, user.pk))
    if Seat.objects.filter(table_id=table_id, user=user, stand_in=True).exists():
        take_back_seat(table_id=table_id, user=user)
    service.come_back(table_id=table_id, user=user)


def replace_absent(table_id: int, version: int) -> service.Outcome | None:
    """A stand-in bot for the live table's player to act, gone for the grace period."""
    now = timezone.now()
    with transaction.atomic():
        table = service.lock_table(table_id)
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
        # Nobody at the table: no stand-in, the table waits (and pauses here).
        if attendance.waits(table, table_seats(table)):
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
        table.version = service.append_action(
            table, None, None, "stand_in", payload, seat=seat.position, source=Action.Source.SYSTEM
        )
        table.deadline = None
        table.save(update_fields=["version", "deadline", "updated_at"])
        service.follow_up(table.pk, table.version, True, clock=table)
    return service.Outcome(table.version, True)


@task()
def check_absent_task(table_id: int, version: int) -> None:
    """The absence check of a live turn, at the grace period; if no stand-in takes the turn,
    it queues the turn's deadline expiry (``follow_up`` leaves that to it: one task row per
    live move instead of two, and most live moves come before the grace period)."""
    if replace_absent(table_id, version) is not None:
        return
    deadline = (
        Table.objects.filter(pk=table_id, version=version, status=Table.Status.PLAYING)
        .values_list("deadline", flat=True)
        .first()
    )
    if deadline is not None:
        service.expire_deadline_task.using(run_after=deadline).enqueue(
            table_id=table_id, version=version
        )


def queue_absence_check(sender, *, table_id: int, version: int, clock, live: bool, **kwargs):
    """Receiver of ``games.tables.signals.table_changed``: a live turn with a clock gets its
    absence check after the table's grace period, in the change's transaction."""
    if live and clock.deadline is not None:
        run_after = timezone.now() + live_grace(clock.move_seconds)
        check_absent_task.using(run_after=run_after).enqueue(table_id=table_id, version=version)
