"""The worker and the sweep: deadlines run as tasks, the sweep catches what a dead worker lost.

Issue: "A periodic sweep catches every deadline that passed while the worker was down;
running it twice does nothing more." Real commits (transaction=True): the tasks are
enqueued on commit, as in production, and run by ``db_worker``.
"""

import datetime

import pytest
import time_machine
from django.core.management import call_command
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import tasks as worker_tasks
from games.models import Pace
from games.timing import sweep
from tests.factories import make_user
from tests.timing.helpers import after, fresh, playing_table, run_worker, timeout_moves

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("keep_signal_handlers"),
]


def tasks(name: str):
    return DBTaskResult.objects.filter(task_path=getattr(worker_tasks, name).module_path)


def test_the_deadline_task_and_the_sweep_play_the_timeout_once():
    table = playing_table()
    expiry = tasks("expire_deadline_task").get()
    assert expiry.run_after == table.deadline

    with after(table.deadline):
        call_command("belote_sweep", verbosity=0)
        run_worker()  # the task finds the table moved on
        call_command("belote_sweep", verbosity=0)

    assert len(timeout_moves(table)) == 1
    assert fresh(table).version == 2


def test_a_task_lost_with_its_worker_is_caught_by_the_sweep_and_only_once():
    table = playing_table()
    DBTaskResult.objects.all().delete()  # the worker died with its queue

    with after(table.deadline):
        run_worker()
        assert timeout_moves(table) == []
        call_command("belote_sweep", verbosity=0)
        call_command("belote_sweep", verbosity=0)

    assert len(timeout_moves(table)) == 1


def test_a_bot_turn_left_without_its_task_is_played_by_the_sweep():
    table = playing_table(players={0: make_user()}, bots={1: "random", 2: "random", 3: "random"})
    assert table.turn == 3 and table.deadline is None  # right of the dealer: a bot
    DBTaskResult.objects.all().delete()

    with after(timezone.now(), seconds=11):
        call_command("belote_sweep", verbosity=0)
        call_command("belote_sweep", verbosity=0)  # the next bot has its task: nothing more

    assert fresh(table).version == 2
    assert tasks("play_bot_move_task").filter(status="READY").count() == 1


@override_settings(BOT_DELAY_SECONDS=5)
def test_at_a_live_table_the_bot_task_waits_then_the_worker_plays_it():
    with time_machine.travel(timezone.now(), tick=False) as traveller:
        table = playing_table(
            pace=Pace.LIVE,
            move_seconds=120,
            players={0: make_user()},
            bots={1: "random", 2: "random", 3: "random"},
        )
        assert table.turn == 3  # right of the dealer: a bot
        (task,) = tasks("play_bot_move_task")
        assert (task.run_after - task.enqueued_at).total_seconds() == 5

        run_worker()
        assert fresh(table).version == 1  # not yet
        traveller.shift(6)
        run_worker()

    assert fresh(table).version == 2  # one move; the next bot waits its own 5 s


def test_the_periodic_sweep_is_scheduled_once_and_reschedules_itself():
    call_command("belote_sweep", "--schedule", verbosity=0)
    call_command("belote_sweep", "--schedule", verbosity=0)
    assert tasks("sweep_task").count() == 1

    with after(timezone.now(), seconds=61):
        run_worker()

    assert tasks("sweep_task").filter(status="SUCCESSFUL").count() == 1
    assert tasks("sweep_task").filter(status="READY").count() == 1


def test_a_sweep_that_fails_still_schedules_the_next_one(monkeypatch):
    """The cycle must survive a failed sweep (SQLite's "database is locked", say)."""

    def locked() -> int:
        raise OperationalError("database is locked")

    monkeypatch.setattr(sweep, "sweep", locked)  # the boundary: the sweep's own work
    call_command("belote_sweep", "--schedule", verbosity=0)

    with after(timezone.now(), seconds=61):
        run_worker()

    assert tasks("sweep_task").filter(status="FAILED").count() == 1
    assert tasks("sweep_task").filter(status="READY").count() == 1


@pytest.mark.parametrize("started", [3600, 1], ids=["an-hour-ago", "a-second-ago"])
def test_a_sweep_left_running_by_a_killed_worker_does_not_block_the_cycle(started):
    from games.tasks import sweep_task

    dead = DBTaskResult.objects.get(pk=sweep_task.enqueue().id)
    dead.claim("killed-worker")
    DBTaskResult.objects.filter(pk=dead.pk).update(
        started_at=timezone.now() - datetime.timedelta(seconds=started)
    )

    call_command("belote_sweep", "--schedule", verbosity=0)

    assert tasks("sweep_task").filter(status="RUNNING").count() == 1
    assert tasks("sweep_task").filter(status="READY").count() == 1
