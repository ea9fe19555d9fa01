"""The only write path of game state: tables are created, started and played here.

``submit`` applies one move in one transaction: lock the table row, check the version
(a stale or repeated submission changes nothing), rebuild the hand from its log, let the
engine validate and apply the move, write the action (and the trick, hand and game rows
it completes), bump the version, set the clock of the player to act (``Table.deadline``,
games/tables/clock.py), queue in the same transaction what follows (the bot's move, the expiry
of the deadline by ``expire_deadline``, which applies the table's timeout policy), and
after the commit tell the viewers, best effort (``follow_up``).
Views, bots, tasks and commands call these functions; nothing else writes game state.

The write primitives are games/tables/writes.py and the moves games/tables/moves.py; this
module creates and starts tables, holds the tasks under the paths the queue stores, and
names what the rest of the site calls. A live table waits for its players while none is
there (games/tables/attendance.py).
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.tasks import task
from django.utils.translation import gettext as _

from games import rules as engine
from games.tables.attendance import come_back, pause_if_unattended, resume_if_attended
from games.tables.clock import seats_for_the_clock
from games.tables.models import BotLevel, Seat, Table
from games.tables.moves import (
    abandon_table,
    abandon_unattended,
    expire_deadline,
    play_bot_move,
    play_bots,
    submit,
    turn_started,
)
from games.tables.writes import (
    Outcome,
    SeatAgent,
    ServiceError,
    append_action,
    begin_game,
    follow_up,
    lock_table,
    refusal,
)

# ---------------------------------------------------------------------------------------
# Tables


def create_table(
    *,
    created_by,
    preset: str,
    options: dict[str, Any] | None = None,
    players: dict[int, Any] | None = None,
    bots: dict[int, str] | None = None,
) -> Table:
    """A table in the lobby with its four seats, some taken by users or bots."""
    if preset not in engine.PRESETS:
        raise ServiceError("unknown_preset", _("Ces règles n'existent pas."))
    try:
        rules = engine.rules_for(preset, options or {})
    except (engine.InvalidOptions, TypeError) as error:
        raise ServiceError("invalid_options", _("Options invalides : %s") % error) from error
    players, bots = players or {}, bots or {}
    if set(players) & set(bots) or not set(players) | set(bots) <= {0, 1, 2, 3}:
        raise ServiceError("bad_seats", _("Chaque place reçoit au plus un joueur ou un robot."))
    if any(level not in BotLevel.values for level in bots.values()):
        raise ServiceError("unknown_bot", _("Ce niveau de robot n'existe pas."))
    with transaction.atomic():
        table = Table.objects.create(
            preset=preset, options=rules.diff(engine.PRESETS[preset]), created_by=created_by
        )
        Seat.objects.bulk_create(
            Seat(
                table=table,
                position=p,
                user=players.get(p),
                bot_level=bots.get(p, ""),
            )
            for p in range(4)
        )
    return table


def start_table(
    *,
    table_id: int,
    actor=None,
    first_dealer: int | None = None,
    deck: list[int] | None = None,
) -> Outcome:
    """Deal the first hand of the first game once the four seats are filled."""
    with transaction.atomic():
        table = lock_table(table_id)
        if table.status != Table.Status.LOBBY:
            raise ServiceError("already_started", _("La partie a déjà commencé."), 409)
        seats = seats_for_the_clock(table.pk)
        if len(seats) != 4 or any(seat.is_free for seat in seats):
            raise ServiceError("seats_free", _("Il faut quatre joueurs ou robots pour commencer."))
        dealer = secrets.randbelow(4) if first_dealer is None else first_dealer
        version = begin_game(
            table,
            seats,
            number=1,
            dealer=dealer,
            deck=deck,
            actor=actor,
            kind="start",
            payload={"dealer": dealer},
        )
    return Outcome(version, True)


# ---------------------------------------------------------------------------------------
# Tasks (run by the worker, manage.py belote_worker): each checks the table's version, so
# running one twice or late is harmless.


@task()
def play_bot_move_task(table_id: int, version: int) -> None:
    play_bot_move(table_id, version)


@task()
def expire_deadline_task(table_id: int, version: int) -> None:
    expire_deadline(table_id, version)


__all__ = [
    "Outcome",
    "SeatAgent",
    "ServiceError",
    "abandon_table",
    "abandon_unattended",
    "append_action",
    "come_back",
    "create_table",
    "expire_deadline",
    "expire_deadline_task",
    "follow_up",
    "lock_table",
    "pause_if_unattended",
    "play_bot_move",
    "play_bot_move_task",
    "play_bots",
    "refusal",
    "resume_if_attended",
    "start_table",
    "submit",
    "turn_started",
]
