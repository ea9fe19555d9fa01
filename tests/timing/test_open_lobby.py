"""Issue 16: "An open asynchronous table whose lobby waits for more than a week closes by
itself." The sweep closes it (OPEN_LOBBY_CLOSE_AFTER_SECONDS after it was opened), its
seated players get a notification, its page says why, and it leaves the list; a live
open table, a recent one, a private one and a started one are left alone. Time is
travelled: the sweep runs at a moved ``now``.
"""

from __future__ import annotations

import datetime

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Notification, Pace, Table
from games.tables import lobby, open_tables
from games.timing.sweep import sweep
from tests.factories import make_user
from tests.tables.helpers import client_for
from tests.timing.helpers import after, fresh

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(seconds=settings.OPEN_LOBBY_CLOSE_AFTER_SECONDS)
CLOSED = "Cette table ouverte a attendu ses joueurs plus de 7 jours sans commencer"


@pytest.fixture
def creator():
    return make_user("claire")


def waiting_table(creator, *, pace: str = Pace.ASYNC, is_open: bool = True) -> Table:
    return lobby.create_private_table(
        created_by=creator,
        preset="classique",
        target=1000,
        pace=pace,
        move_seconds=24 * 3600 if pace == Pace.ASYNC else 120,
        is_open=is_open,
    )


def test_a_week_old_asynchronous_open_lobby_is_closed(creator):
    table = waiting_table(creator)
    alice = make_user("alice")
    open_tables.sit(table_id=table.pk, user=alice, position=0)
    outsider = client_for(make_user("olivier"))

    with after(table.opened_at, WEEK.total_seconds() + 1):
        assert sweep() == 1

    table = fresh(table)
    assert table.status == Table.Status.ABANDONED
    abandon = table.actions.get(kind="abandon")
    assert abandon.payload == {"reason": open_tables.WAITED_TOO_LONG}
    assert f"open-table-{table.pk}" not in outsider.get(reverse("games:open")).text
    # Its seated players are told, and its page says why.
    told = Notification.objects.filter(table=table, kind=Notification.Kind.CLOSED)
    assert sorted(told.values_list("user__username", flat=True)) == ["alice", "claire"]
    assert told.first().text == f"La table ouverte n° {table.pk} a été fermée faute de joueurs"
    page = client_for(alice).get(reverse("games:table", args=[table.pk])).text
    assert CLOSED in page
    assert "S&#x27;asseoir ici" not in page and "S'asseoir ici" not in page
    notifications = client_for(alice).get(reverse("notifications")).text
    assert "a été fermée faute de joueurs" in notifications
    # A stranger no longer sees it: it is as private as any table now.
    assert outsider.get(reverse("games:table", args=[table.pk])).status_code == 404
    # A second sweep does nothing more.
    with after(table.opened_at, WEEK.total_seconds() + 120):
        assert sweep() == 0
    assert told.count() == 2


def test_live_recent_private_and_started_tables_stay(creator):
    live = waiting_table(creator, pace=Pace.LIVE)
    recent = waiting_table(creator)
    private = waiting_table(creator, is_open=False)
    started = waiting_table(creator)
    Table.objects.filter(pk=started.pk).update(fill_with_bots=True)
    lobby.start(table=fresh(started), by=creator)
    old = recent.created_at - WEEK  # the others were opened more than a week before
    Table.objects.filter(pk__in=[live.pk, started.pk]).update(opened_at=old)
    Table.objects.filter(pk=private.pk).update(created_at=old)

    with after(recent.opened_at, WEEK.total_seconds() - 60):
        sweep()

    assert fresh(live).status == Table.Status.LOBBY
    assert fresh(recent).status == Table.Status.LOBBY
    assert fresh(private).status == Table.Status.LOBBY
    assert fresh(started).status == Table.Status.PLAYING
    assert not Notification.objects.filter(kind=Notification.Kind.CLOSED).exists()


def test_reopening_starts_the_week_again(creator):
    table = waiting_table(creator)
    first = table.opened_at

    with after(first, WEEK.total_seconds() - 3600):
        lobby.set_open(table=table, by=creator, is_open=False)
        lobby.set_open(table=table, by=creator, is_open=True)

    with after(first, WEEK.total_seconds() + 60):
        assert sweep() == 0
    assert fresh(table).status == Table.Status.LOBBY


def test_the_week_counts_from_when_the_table_last_had_a_free_seat(creator):
    """Full, it is off the list: its week starts again when a seat is freed."""
    table = waiting_table(creator)
    first = table.opened_at
    players = [make_user(name) for name in ("alice", "bruno", "chloe")]
    for position, player in zip((0, 1, 3), players, strict=True):
        open_tables.sit(table_id=table.pk, user=player, position=position)

    # Full for six days, then Bruno leaves: back on the list, for a week from now.
    with after(first, 6 * 24 * 3600):
        lobby.leave_seat(table=table, user=players[1])
    with after(first, WEEK.total_seconds() + 3600):
        assert sweep() == 0
    assert fresh(table).status == Table.Status.LOBBY

    with after(first, 6 * 24 * 3600 + WEEK.total_seconds() + 60):
        assert sweep() == 1
    assert fresh(table).status == Table.Status.ABANDONED


def test_a_bot_removed_from_a_full_table_starts_the_week_again(creator):
    table = waiting_table(creator)
    first = table.opened_at
    for position in (0, 1, 3):
        lobby.set_bot(table=table, by=creator, position=position, level="random")
    with after(first, 5 * 24 * 3600):
        lobby.remove_bot(table=table, by=creator, position=1)
    with after(first, WEEK.total_seconds() + 60):
        assert sweep() == 0
    assert fresh(table).status == Table.Status.LOBBY


def test_a_full_table_waiting_for_its_start_is_not_closed(creator):
    """Off the list (no free seat), it waits for its creator, not for players."""
    table = waiting_table(creator)
    for position in (0, 1, 3):
        lobby.set_bot(table=table, by=creator, position=position, level="random")

    with after(table.opened_at, 2 * WEEK.total_seconds()):
        assert sweep() == 0
    assert fresh(table).status == Table.Status.LOBBY
