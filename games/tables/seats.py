"""A table's seats with their users, read once per seats version by each process."""

from __future__ import annotations

from django.db.models import Prefetch, prefetch_related_objects

from games.tables.memo import Memo
from games.tables.models import Seat, Table

# A started table's seats, with their users, as this process read them last:
# (table id, created_at, seats version) -> the seats (shared: read only).
_seats = Memo(2048)


def table_seats(table: Table) -> list[Seat]:
    """The table's four seats in order, with their users: one query, none when the table
    was fetched with them (``Prefetch`` of ``seats``) or they were asked for already, nor
    for a started table whose seats this process read at the same seats version
    (``Table.seats_version``, moved on by every write of its seats or of the names shown
    in them). The seats of a started table are shared between callers: read only."""
    cache = getattr(table, "_prefetched_objects_cache", {})
    if "seats" not in cache and table.status != Table.Status.LOBBY and table.pk is not None:
        key = (table.pk, table.created_at, table.seats_version)
        return list(_seats.get_or_compute(key, lambda: _read_seats(table)))
    seats = Seat.objects.select_related("user").order_by("position")
    prefetch_related_objects([table], Prefetch("seats", queryset=seats))
    return list(table.seats.all())


def _read_seats(table: Table) -> tuple[Seat, ...]:
    rows = Seat.objects.filter(table_id=table.pk).select_related("user").order_by("position")
    return tuple(rows)


# What a table shows of the game so far, the same for the whole hand: its finished hands
