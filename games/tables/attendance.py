"""A live table waits for its players: nothing is played at it while none of them is there.

A live table's bots (its own seats, and the stand-ins of absent players,
games/timing/absence.py) play only while at least one of its seated players has the table
open (games/tables/presence.py; a spectator does not count). Once none has, the table is
*paused*: ``Table.unattended_since`` is set, one system action ``pause`` is logged, its
deadline is cleared (no clock runs, so no timeout) and no bot moves. The check is made
under the table's lock wherever a bot's move, a stand-in or a timeout would be applied
(``waits``: games/tables/moves.py, games/timing/absence.py), and when a player's last page
closes (``pause_if_unattended``, from games.timing.absence.note_absent).

A seated player who comes back (their socket connects, they open the table's page, they
move or take their seat back) *resumes* it (``come_back``; the sweep too, for a player
whose socket it finds counted again: ``resume_if_attended``): an action ``resume``, and
the turn starts afresh, with the full time per move from now, the bot to act queued again.
A fresh turn rather than the time left: a table pauses only when no player is there, so
nobody waits for the extra time, and a player alone with bots who reloads the page takes
nothing from anyone.

A table nobody comes back to is abandoned by the sweep after LIVE_ABANDON_AFTER_SECONDS
(``games.tables.moves.abandon_unattended``): unrated, like any game without a winner, and
a game that ends while its table is paused is never rated either (games/ratings).

Presence lives in the cache. Where it cannot be read from what every process wrote (Redis
down: each process would know only its own pages, the task worker none), nobody is taken
to be gone: the table carries on as before, and the failure is logged. A table without a
seated player (bots alone) has nobody to wait for. Asynchronous tables never pause: their
players are not expected to stay.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from belote_site.cache import shared_answers_only
from games.tables import presence
from games.tables.clock import turn_deadline
from games.tables.models import Pace, Seat, Table
from games.tables.seats import table_seats
from games.tables.writes import Outcome, append_action, follow_up, lock_table

logger = logging.getLogger(__name__)


def anyone_here(table_id: int, seats: list[Seat]) -> bool | None:
    """Whether one of the players seated in ``seats`` has the table open; None when that
    cannot be told: nobody is seated (bots alone), or presence cannot be read from the
    cache every process writes."""
    users = [seat.user_id for seat in seats if seat.user_id is not None]
    if not users:
        return None
    try:
        with shared_answers_only():
            return bool(presence.connected(table_id, users))
    except Exception:  # presence is not game state: not knowing it must stop no move
        logger.warning("table %s: presence unknown, the table carries on", table_id, exc_info=True)
        return None


def _may_pause(table: Table) -> bool:
    return (
        table.pace == Pace.LIVE
        and table.status == Table.Status.PLAYING
        and table.unattended_since is None
    )


def waits(table: Table, seats: list[Seat]) -> bool:
    """Under the table's lock, where a bot's move, a stand-in or a timeout is about to be
    applied: True if it must not be, the table waiting for its players (paused already,
    or paused here, nobody being there)."""
    if table.unattended_since is not None:
        return table.pace == Pace.LIVE and table.status == Table.Status.PLAYING
    if _may_pause(table) and anyone_here(table.pk, seats) is False:
        _pause(table)
        return True
    return False


def _pause(table: Table) -> None:
    """Pause the locked ``table``: its clock stops, nothing is queued."""
    table.unattended_since = timezone.now()
    table.deadline = None
    table.version = append_action(table, None, None, "pause", {})
    table.save(update_fields=["unattended_since", "deadline", "version", "updated_at"])
    follow_up(table.pk, table.version, False, clock=table)


def resume(table: Table, seats: list[Seat], by=None) -> None:
    """Resume the locked, paused ``table`` (``by``: the player who came back, or None for
    the sweep): a fresh turn, its bot queued."""
    table.unattended_since = None
    table.version = append_action(table, None, by, "resume", {})
    table.deadline = turn_deadline(table, seats)
    table.save(update_fields=["unattended_since", "deadline", "version", "updated_at"])
    bot_next = table.turn is not None and seats[table.turn].bot_plays
    follow_up(table.pk, table.version, bot_next, clock=table)


def pause_if_unattended(table_id: int) -> Outcome | None:
    """A player's last page of the table closed: pause the live table if no seated player
    is left there. None if nothing changed."""
    if not Table.objects.filter(
        pk=table_id, pace=Pace.LIVE, status=Table.Status.PLAYING, unattended_since=None
    ).exists():
        return None
    with transaction.atomic():
        table = lock_table(table_id, missing_ok=True)
        if table is None or not _may_pause(table):
            return None
        if anyone_here(table.pk, table_seats(table)) is not False:
            return None
        _pause(table)
    return Outcome(table.version, True)


def come_back(*, table_id: int, user) -> Outcome | None:
    """``user`` opened the table (its socket or its page): if they are seated at it and it
    is paused, it resumes. None if nothing changed (one query, no lock, at any other
    table)."""
    paused = Table.objects.filter(
        pk=table_id,
        status=Table.Status.PLAYING,
        unattended_since__isnull=False,
        seats__user_id=user.pk,
    )
    if not paused.exists():
        return None
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status != Table.Status.PLAYING or table.unattended_since is None:
            return None
        seats = table_seats(table)
        if not any(seat.user_id == user.pk for seat in seats):
            return None
        resume(table, seats, by=user)
    return Outcome(table.version, True)


def resume_if_attended(table_id: int, version: int) -> Outcome | None:
    """The sweep: resume the paused table at ``version`` if a seated player has it open
    again (a socket that came back without the consumer seeing it connect)."""
    with transaction.atomic():
        table = lock_table(table_id, missing_ok=True)
        if (
            table is None
            or table.version != version
            or table.status != Table.Status.PLAYING
            or table.unattended_since is None
        ):
            return None
        seats = table_seats(table)
        if anyone_here(table.pk, seats) is not True:
            return None
        resume(table, seats)
    return Outcome(table.version, True)
