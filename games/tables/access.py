"""Who may see a table: the one access policy of the tables, in two forms that agree.

``may_see(user, table)`` for one table (its page, board, history, replay and websocket,
and every lobby action, which also needs a seat or the creator's rights), and
``visible_tables(user)`` for a query. A table is seen by its creator, whoever sits at it,
whoever was invited (by name, or by the link: a spectator is someone who opened the link
once the game had started, on a table that lets spectators in, recorded as their
invitation by ``lobby.join_by_link``; they see it without any hand,
``engine.view(state, None)``), and the members of its club. Nobody else: a private table
never opens to a stranger, whatever ``allow_spectators`` says (table ids are sequential),
and the views answer 404. A club table is seen through the membership only: whoever
leaves the club no longer sees it, unless they sit at it. Moves still need a seat.

An open table (``Table.is_open``, games/tables/open_tables.py) is also seen by any
logged-in player while it waits in the lobby, so that they may take a free seat; once it
has started (or closed) it is as private as any other. An open club table stays the
club's: its members see it anyway, nobody else.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from accounts.models import Membership
from games.tables.models import Table
from games.tables.seats import table_seats


def may_see(user, table: Table) -> bool:
    """Whether ``user`` may see ``table``. The seats are read from the table when they came
    with it, or from this process's seats of a started table (``seats.table_seats``, kept
    per seats version: a pushed board asks for no seat), else asked for."""
    if not getattr(user, "is_authenticated", False):
        return False
    if table.created_by_id == user.pk or listed_to_anyone(table):
        return True
    seats = getattr(table, "_prefetched_objects_cache", {}).get("seats")
    if seats is None and table.status != Table.Status.LOBBY and table.pk is not None:
        seats = table_seats(table)
    if seats is not None:
        seated = any(seat.user_id == user.pk for seat in seats)
    else:
        seated = table.seats.filter(user=user).exists()
    return (
        seated
        or table.invitations.filter(user=user).exists()
        or (
            table.club_id is not None
            and Membership.objects.filter(club_id=table.club_id, user=user).exists()
        )
    )


@dataclass(frozen=True)
class Audience:
    """Who may see one table, read once (``audience``): ``may_see`` for any number of
    users without a query each. The same rules as ``may_see``."""

    table: Table
    seated: frozenset[int]
    invited: frozenset[int]
    members: frozenset[int]

    def may_see(self, user) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        if self.table.created_by_id == user.pk or listed_to_anyone(self.table):
            return True
        return user.pk in self.seated or user.pk in self.invited or user.pk in self.members


def audience(table: Table, seats) -> Audience:
    """Who may see ``table`` (its ``seats`` given): two queries at most, whoever asks."""
    members: frozenset[int] = frozenset()
    if table.club_id is not None:
        members = frozenset(
            Membership.objects.filter(club_id=table.club_id).values_list("user_id", flat=True)
        )
    return Audience(
        table=table,
        seated=frozenset(seat.user_id for seat in seats if seat.user_id is not None),
        invited=frozenset(table.invitations.values_list("user_id", flat=True)),
        members=members,
    )


def listed_to_anyone(table: Table) -> bool:
    """Whether any logged-in player may see ``table``: open, outside any club, waiting."""
    return table.is_open and table.club_id is None and table.status == Table.Status.LOBBY


def own_tables(user) -> QuerySet[Table]:
    """The tables that are ``user``'s: created by them, where they sit, or invited to."""
    if not getattr(user, "is_authenticated", False):
        return Table.objects.none()
    return Table.objects.filter(
        Q(created_by=user) | Q(seats__user=user) | Q(invitations__user=user)
    ).distinct()


def visible_tables(user) -> QuerySet[Table]:
    """The tables ``user`` may see (``may_see``, as a query)."""
    if not getattr(user, "is_authenticated", False):
        return Table.objects.none()
    return Table.objects.filter(
        Q(created_by=user)
        | Q(seats__user=user)
        | Q(invitations__user=user)
        | Q(club__memberships__user=user)
        | Q(is_open=True, club__isnull=True, status=Table.Status.LOBBY)
    ).distinct()
