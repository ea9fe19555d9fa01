"""The sweep (``manage.py belote_sweep``, and ``games.tasks.sweep_task`` every
SWEEP_SECONDS) catches whatever a stopped worker dropped: every passed deadline, every bot
turn left without a move for BOT_STALL_SECONDS, every absent live player
(games/timing/absence.py). It leaves alone the live tables paused for want of players
(games/tables/attendance.py), resumes those a player has open again, and abandons those
nobody came back to for LIVE_ABANDON_AFTER_SECONDS (not a tournament's: its round
deadline decides). It also closes the open asynchronous tables left waiting in the lobby
for OPEN_LOBBY_CLOSE_AFTER_SECONDS (games/tables/open_tables.py), and queues again the
analyses of finished hands lost on their way (games/tables/analysis.py). Each step re-checks the
table at its version under the table lock, so a second run does nothing more.
"""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from games.tables import analysis, open_tables, service
from games.tables.models import Pace, Table
from games.timing.absence import live_grace, replace_absent

logger = logging.getLogger(__name__)


def _seconds(name: str) -> datetime.timedelta:
    return datetime.timedelta(seconds=getattr(settings, name))


def sweep() -> int:
    """Act on every table whose clock or bot is overdue; returns how many tables moved."""
    now = timezone.now()
    everything = Table.objects.filter(status=Table.Status.PLAYING)
    paused = everything.filter(unattended_since__isnull=False)
    playing = everything.filter(unattended_since__isnull=True)
    bots_stalled = playing.filter(
        deadline__isnull=True, updated_at__lte=now - _seconds("BOT_STALL_SECONDS")
    ).filter(
        Q(seats__position=F("turn")),
        Q(seats__bot_level__gt="") | Q(seats__stand_in=True),
    )
    # Each step's tables are read when the step begins, after the previous one acted.
    abandoned_after = _seconds("LIVE_ABANDON_AFTER_SECONDS")
    steps = [
        (service.resume_if_attended, lambda: _ids(paused)),
        (
            service.abandon_unattended,
            lambda: _ids(
                paused.filter(
                    unattended_since__lte=now - abandoned_after, tournament_match__isnull=True
                )
            ),
        ),
        (service.expire_deadline, lambda: _ids(playing.filter(deadline__lte=now))),
        (service.play_bot_move, lambda: _ids(bots_stalled)),
        (replace_absent, lambda: _absent_candidates(playing, now)),
        (open_tables.close_if_waited_too_long, lambda: _ids(open_tables.waiting_too_long())),
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
    try:  # the hands' analyses lost on their way (games/tables/analysis.py)
        analysis.requeue_lost(now)
    except Exception:
        logger.exception("sweep: the hands' analyses could not be queued again")
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
