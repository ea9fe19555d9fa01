"""Open tables: the tables whose creator lets any player take a free seat, and their lobby.

A creator makes a table open when creating it or while it waits (``lobby.set_open``).
An open table waiting in the lobby with a free seat is listed (``open_tables``) to every
logged-in player, with its rules, its pace, its free seats and who sits there (with their
ratings); an open club table only to the club's members, who may sit at it anyway. A
player takes a seat from the list (``sit``) without an invitation; once it has started,
the table is as private as any other (games/tables/access.py). Tournament tables are
never open: they start as they are created, with their four players.

Every change of an open table (created, opened, closed, its seats, its start, its end)
tells the pages of the list through ``signals.open_tables_changed`` (games/live: a ping
without data, each page fetches its own list again).

An open asynchronous table listed OPEN_LOBBY_CLOSE_AFTER_SECONDS (a week) without finding
its players is closed by the sweep (``close_if_waited_too_long``): abandoned, its players
told (``signals.open_table_closed``, an in-app notification). The week counts from when
it last came on the list (``Table.opened_at``): when it was opened (or reopened), or when
a seat was freed after it had been full (games/tables/lobby.py); a full table, off the
list and waiting for its creator to start it, is not closed this way. A live open table
is not either: its players are there, or it is quickly found empty and left.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import Count, Prefetch, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import Membership
from games.tables import lobby, signals
from games.tables.access import may_see
from games.tables.models import Pace, Seat, Table
from games.tables.moves import abandon_table
from games.tables.writes import Outcome, ServiceError, lock_table

# Why the sweep closed a table (the payload of its ``abandon`` action).
WAITED_TOO_LONG = "open_lobby_expired"

# At most this many tables on the list, the fullest first: past that, the filters narrow it.
LIST_LIMIT = 50


@dataclass(frozen=True)
class SeatRow:
    position: int
    name: str  # "Nord"
    user: object | None
    rating: float | None  # the player's ordinal, None before their first rated game
    bot_name: str  # "robot confirmé", "" unless a bot sits there
    is_me: bool

    @property
    def is_free(self) -> bool:
        return self.user is None and not self.bot_name


@dataclass(frozen=True)
class OpenTableRow:
    table: Table
    seats: list[SeatRow]  # N E S W
    free: int  # free seats
    seated: bool  # the viewer sits at it

    @property
    def free_seats(self) -> list[SeatRow]:
        return [seat for seat in self.seats if seat.is_free]


def open_tables(
    user,
    *,
    preset: str = "",
    pace: str = "",
    limit: int = LIST_LIMIT,
    joinable: bool = False,
) -> list[OpenTableRow]:
    """The open tables ``user`` may join, waiting in the lobby with a free seat: those
    outside any club, and the open tables of their clubs; the fullest first, then the
    latest opened. ``preset`` and ``pace`` filter (empty: all); ``joinable`` leaves out
    those where ``user`` already sits. Two queries, however many tables."""
    if not getattr(user, "is_authenticated", False):
        return []
    tables = (
        Table.objects.filter(is_open=True, status=Table.Status.LOBBY)
        .filter(
            Q(club__isnull=True) | Q(club__in=Membership.objects.filter(user=user).values("club"))
        )
        .annotate(free=Count("seats", filter=Q(seats__user__isnull=True, seats__bot_level="")))
        .filter(free__gt=0)
        .select_related("club")
        .prefetch_related(
            Prefetch(
                "seats",
                queryset=Seat.objects.select_related("user__rating").order_by("position"),
            )
        )
        .order_by("free", "-opened_at", "-pk")
    )
    if preset:
        tables = tables.filter(preset=preset)
    if pace:
        tables = tables.filter(pace=pace)
    if joinable:
        tables = tables.exclude(seats__user=user)
    return [_row(user, table) for table in tables[:limit]]


def _row(user, table: Table) -> OpenTableRow:
    seats = [
        SeatRow(
            position=seat.position,
            name=seat.get_position_display(),
            user=seat.user,
            rating=_rating(seat.user),
            bot_name=seat.bot_name,
            is_me=seat.user_id is not None and seat.user_id == user.pk,
        )
        for seat in table.seats.all()
    ]
    return OpenTableRow(
        table=table,
        seats=seats,
        free=table.free,
        seated=any(seat.is_me for seat in seats),
    )


def _rating(user) -> float | None:
    """The player's ordinal (selected with the seat: no query), None before their first
    rated game."""
    if user is None:
        return None
    try:
        return user.rating.ordinal
    except ObjectDoesNotExist:
        return None


@transaction.atomic
def sit(*, table_id: int, user, position: int) -> Outcome:
    """Take the free seat ``position`` of an open table from the list, without invitation.

    The table's row is locked: of two players choosing the same seat at once, the first
    sits, the second is told the seat is taken, and nothing else changes. Whoever may not
    see the table is told it does not exist (404, as for any private table: an open table
    its creator closed is private again, and so is one that started or was closed: a
    stranger learns nothing of what became of it); to those who may still see it (its
    invitees, its club's members) a table that started or was closed says so (409).
    """
    table = lock_table(table_id)
    if not may_see(user, table):
        raise ServiceError("no_table", _("Cette table n'existe pas."), 404)
    if table.status == Table.Status.PLAYING:
        raise ServiceError("already_started", _("La partie a commencé sans vous."), 409)
    if table.status != Table.Status.LOBBY:
        raise ServiceError("table_closed", _("Cette table est fermée."), 409)
    if table.seats.filter(user=user).exists():
        raise ServiceError("already_seated", _("Vous avez déjà une place à cette table."), 409)
    return lobby.take_seat(table=table, user=user, position=position)


def waited_since() -> datetime.datetime:
    """An open asynchronous table opened before this has waited too long."""
    return timezone.now() - datetime.timedelta(seconds=settings.OPEN_LOBBY_CLOSE_AFTER_SECONDS)


def waiting_too_long():
    """The open asynchronous tables on the list (in the lobby, a seat free) since before
    ``waited_since``."""
    return Table.objects.filter(
        is_open=True,
        status=Table.Status.LOBBY,
        pace=Pace.ASYNC,
        opened_at__lte=waited_since(),
        seats__user__isnull=True,
        seats__bot_level="",
    ).distinct()


def close_if_waited_too_long(table_id: int, version: int) -> Outcome | None:
    """The sweep: the open asynchronous table at ``version``, still waiting for players
    OPEN_LOBBY_CLOSE_AFTER_SECONDS after it was opened, is closed (abandoned, reason
    ``WAITED_TOO_LONG``): off the list, its page says why, and its seated players get a
    notification. None if it changed meanwhile (a second sweep does nothing more)."""
    with transaction.atomic():
        table = lock_table(table_id, missing_ok=True)
        if (
            table is None
            or table.version != version
            or not waiting_too_long().filter(pk=table.pk).exists()
        ):
            return None
        players = list(
            table.seats.filter(user__isnull=False)
            .order_by("position")
            .values_list("user_id", flat=True)
        )
        outcome = abandon_table(table_id=table.pk, reason=WAITED_TOO_LONG)
        signals.open_table_closed.send(
            sender=Table, table_id=table.pk, version=outcome.version, user_ids=players
        )
    return outcome


__all__ = [
    "LIST_LIMIT",
    "WAITED_TOO_LONG",
    "OpenTableRow",
    "SeatRow",
    "close_if_waited_too_long",
    "open_tables",
    "sit",
    "waiting_too_long",
]
