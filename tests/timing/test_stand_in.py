"""Live tables: a player gone on their turn for LIVE_GRACE_SECONDS is replaced by a bot,
until they come back, while another player is at the table (with nobody there, the table
waits: tests/timing/test_unattended.py).

Issue: "A player who leaves a live table is replaced by a bot after a grace period and can
take the seat back." Issue 15: "Stand-ins keep playing for an absent player only while at
least one human is at the table."
"""

import datetime

import pytest
from django.core.cache import cache
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games.models import Action, Pace
from games.tables import presence, service
from games.timing.absence import check_absent_task, note_absent, note_back, replace_absent
from games.timing.sweep import sweep
from tests.factories import seated_user
from tests.tables.helpers import client_for, htmx_post
from tests.timing.helpers import after, fresh, playing_table, timeout_moves

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


def live_table():
    return playing_table(pace=Pace.LIVE, move_seconds=300)


def started_at(table):
    return table.actions.get(kind="start").created_at


@pytest.fixture
def partner_here(at_the_table):
    """``partner_here(table)``: the partner of the player to act has the table open."""

    def here(table):
        at_the_table(table, seated_user(table, (table.turn + 2) % 4))

    return here


def test_an_absent_player_is_replaced_after_the_grace_period_and_the_bot_plays(partner_here):
    table = live_table()
    seat = table.turn
    partner_here(table)

    with after(started_at(table), seconds=59):
        assert sweep() == 0
    with after(started_at(table), seconds=61):
        assert sweep() == 1
        assert sweep() == 0

    table = fresh(table)
    assert table.seats.get(position=seat).stand_in and table.deadline is None
    assert table.actions.order_by("seq").last().kind == "stand_in"
    outcome = service.play_bot_move(table.pk, table.version)
    move = table.actions.get(seq=outcome.version)
    assert (move.seat, move.source) == (seat, Action.Source.BOT)

    html = client_for(seated_user(table, seat)).get(f"/tables/{table.pk}/").text
    assert "remplacé par un robot" in html and "Reprendre ma place" in html


def test_a_connected_player_is_not_replaced(monkeypatch):
    table = live_table()
    monkeypatch.setattr(presence, "connected", lambda table_id, user_ids: set(user_ids))

    with after(started_at(table), seconds=61):
        assert sweep() == 0


def test_an_async_table_has_no_stand_in():
    table = playing_table()

    with after(started_at(table), seconds=61):
        assert replace_absent(table.pk, table.version) is None


def test_reprendre_ma_place_ends_the_stand_in_and_restarts_the_clock(partner_here):
    table = live_table()
    seat = table.turn
    partner_here(table)
    with after(started_at(table), seconds=61):
        sweep()
    user = seated_user(table, seat)

    response = htmx_post(client_for(user), f"/tables/{table.pk}/reprendre/")

    assert response.status_code == 200
    table = fresh(table)
    assert not table.seats.get(position=seat).stand_in
    assert table.deadline is not None  # still their turn: their clock runs again
    assert table.actions.order_by("seq").last().kind == "take_back"


def test_coming_back_to_the_page_ends_the_stand_in(partner_here):
    table = live_table()
    seat = table.turn
    partner_here(table)
    with after(started_at(table), seconds=61):
        sweep()

    note_back(table.pk, seated_user(table, seat))

    assert not fresh(table).seats.get(position=seat).stand_in


def test_on_a_30_second_clock_the_stand_in_comes_at_half_the_time_per_move(partner_here):
    """The grace is LIVE_GRACE_SECONDS (60 s), but at most half the time per move: with
    a full minute, a 30 s clock would always run out first and no stand-in ever come."""
    table = playing_table(pace=Pace.LIVE, move_seconds=30)
    seat = table.turn
    partner_here(table)

    with after(started_at(table), seconds=14):
        assert sweep() == 0
    with after(started_at(table), seconds=16):
        assert sweep() == 1

    table = fresh(table)
    assert table.seats.get(position=seat).stand_in and table.deadline is None
    assert timeout_moves(table) == []


def test_a_page_closed_on_a_30_second_clock_is_checked_again_after_15_seconds(partner_here):
    table = playing_table(pace=Pace.LIVE, move_seconds=30)
    user = seated_user(table, table.turn)
    partner_here(table)

    checks = DBTaskResult.objects.filter(task_path=check_absent_task.module_path)
    queued = list(checks.values_list("pk", flat=True))  # with the turn (games/tables/service.py)

    with after(started_at(table), seconds=2):
        note_absent(table.pk, user.pk)
        (check,) = checks.exclude(pk__in=queued)
        assert check.run_after == timezone.now() + datetime.timedelta(seconds=15)
    with after(started_at(table), seconds=18):  # the page has been closed for 16 s
        assert replace_absent(table.pk, table.version).applied

    assert fresh(table).seats.get(position=table.turn).stand_in


def test_a_turn_at_a_30_second_clock_is_checked_for_absence_after_15_seconds(
    django_capture_on_commit_callbacks,
):
    """Every live turn queues its own absence check (games.tables.service), at the table's grace
    too: without it, only a page closing during the turn or a sweep would come in time."""
    with django_capture_on_commit_callbacks(execute=True):
        table = playing_table(pace=Pace.LIVE, move_seconds=30)

    (check,) = DBTaskResult.objects.filter(task_path=check_absent_task.module_path)

    assert check.run_after - started_at(table) == pytest.approx(
        datetime.timedelta(seconds=15), abs=datetime.timedelta(seconds=1)
    )


def test_a_live_turn_queues_one_task_whose_check_queues_the_expiry(at_the_table):
    """A live turn queues its absence check only (one task row per move); the check, at
    the grace period, finding the player there, queues the expiry of the deadline, which
    then plays the timeout."""
    table = live_table()
    player = seated_user(table, table.turn)
    at_the_table(table, player)
    tasks = DBTaskResult.objects.filter(args_kwargs__kwargs__version=table.version)
    assert list(tasks.values_list("task_path", flat=True)) == [check_absent_task.module_path]

    with after(started_at(table), seconds=61):
        check_absent_task.call(table_id=table.pk, version=table.version)

    expiry = tasks.get(task_path=service.expire_deadline_task.module_path)
    assert expiry.run_after == table.deadline
    with after(table.deadline):
        at_the_table.heartbeat(table, player)  # the page is still open
        service.expire_deadline_task.call(table_id=table.pk, version=table.version)
    assert len(timeout_moves(table)) == 1


def test_an_absence_check_that_stands_in_or_comes_late_queues_no_expiry(partner_here):
    table = live_table()
    partner_here(table)
    version = table.version

    with after(started_at(table), seconds=61):
        check_absent_task.call(table_id=table.pk, version=version)  # the stand-in plays
        check_absent_task.call(table_id=table.pk, version=version)  # the turn moved on

    assert fresh(table).version > version
    expiries = DBTaskResult.objects.filter(task_path=service.expire_deadline_task.module_path)
    assert not expiries.filter(args_kwargs__kwargs__version=version).exists()
