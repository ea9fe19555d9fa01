"""``manage.py belote_health``: the queue lag, for monitoring (issue 13).

Issue: "Add a manage.py health command that reports the queue lag and the oldest waiting
task, and exits non-zero past a threshold, for monitoring." A task is waiting from the
moment it may run until a worker starts it; time is travelled.
"""

from __future__ import annotations

import datetime
import io

import pytest
import time_machine
from django.core.management import call_command
from django.core.management.base import CommandError
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tests.processes import run_manage
from tests.worker import tasks

pytestmark = pytest.mark.django_db

START = datetime.datetime(2026, 3, 2, 9, 0, tzinfo=datetime.UTC)


def at(seconds: float):
    return time_machine.travel(START + datetime.timedelta(seconds=seconds), tick=False)


def health(*args: str) -> str:
    out = io.StringIO()
    call_command("belote_health", *args, stdout=out)
    return out.getvalue()


def test_an_empty_queue_is_healthy():
    with at(0):
        report = health()

    assert "tasks waiting: 0" in report
    assert "queue lag: 0.0 s" in report
    assert "oldest" not in report
    assert report.rstrip().endswith("ok")


def test_a_task_left_waiting_past_the_threshold_fails_the_check():
    with at(0):
        waiting = tasks.echo.enqueue("hello")

    with at(59):
        assert "queue lag: 59.0 s" in health("--max-lag=60")
    with at(90), pytest.raises(CommandError) as failed:
        health("--max-lag=60")
    with at(90):
        report = health("--max-lag=120")

    assert failed.value.returncode == 1
    assert "queue lag is 90.0 s, over 60 s" in str(failed.value)
    assert "tasks waiting: 1" in report
    assert "queue lag: 90.0 s" in report
    assert f"oldest waiting task: tests.worker.tasks.echo {waiting.id}" in report
    assert "ready since 2026-03-02T10:00:00+01:00" in report  # the site's time zone


def test_the_analysis_of_hands_may_wait_without_failing_the_check():
    """The queue "analysis" (games/tables/analysis.py) is not urgent: it has a threshold
    of its own, an hour by default."""
    with at(0):
        tasks.echo.using(queue_name="analysis").enqueue("later")

    with at(3600):
        report = health("--max-lag=60")

    assert "tasks waiting: 0" in report
    assert "hands' analysis: 1 waiting, lag 3600.0 s" in report
    assert report.rstrip().endswith("ok")


def test_an_analysis_worker_gone_for_too_long_fails_the_check():
    with at(0):
        tasks.echo.using(queue_name="analysis").enqueue("later")

    with at(3601), pytest.raises(CommandError) as failed:
        health("--max-lag=60")
    assert failed.value.returncode == 1
    assert "is the analysis worker running?" in str(failed.value)
    with at(600):
        assert health("--analysis-max-lag=900").rstrip().endswith("ok")


def test_a_task_waits_from_its_run_after_not_from_its_enqueueing():
    """A deadline's expiry is queued hours ahead: it waits only once its time has come."""
    with at(0):
        later = tasks.echo.using(run_after=START + datetime.timedelta(hours=1)).enqueue("later")

    with at(3000):
        before = health()
    with at(3600 + 20):
        after = health()

    assert "tasks waiting: 0" in before and "queue lag: 0.0 s" in before
    assert "tasks waiting: 1" in after and "queue lag: 20.0 s" in after
    assert str(later.id) in after


def test_the_oldest_waiting_task_is_the_one_ready_the_longest():
    with at(0):
        tasks.echo.using(run_after=START + datetime.timedelta(seconds=10)).enqueue("ten")
    with at(5):
        first_ready = tasks.echo.enqueue("five")
    with at(100):
        report = health("--max-lag=600")

    assert "tasks waiting: 2" in report
    assert "queue lag: 95.0 s" in report
    assert str(first_ready.id) in report


def test_running_and_finished_tasks_do_not_wait():
    with at(0):
        running = tasks.echo.enqueue("running")
        done = tasks.echo.enqueue("done")
    DBTaskResult.objects.filter(pk=running.id).update(status=TaskResultStatus.RUNNING)
    DBTaskResult.objects.filter(pk=done.id).update(status=TaskResultStatus.SUCCESSFUL)

    with at(600):
        report = health()

    assert "tasks waiting: 0" in report
    assert "tasks running: 1" in report
    assert "queue lag: 0.0 s" in report


@pytest.mark.parametrize("bad", ["-1", "nan", "soon"])
def test_a_bad_threshold_is_refused(bad):
    with pytest.raises(CommandError, match="max-lag"):
        call_command("belote_health", f"--max-lag={bad}")


@pytest.mark.django_db(transaction=True)
def test_the_command_exits_non_zero_for_a_monitor():
    """As a monitor runs it: another process, its exit status."""
    tasks.echo.using(run_after=timezone.now() - datetime.timedelta(minutes=2)).enqueue("late")

    late = run_manage("belote_health", "--max-lag=60")
    fine = run_manage("belote_health", "--max-lag=3600")

    assert late.returncode == 1, late.stdout + late.stderr
    assert "over 60 s" in late.stderr
    assert fine.returncode == 0, fine.stdout + fine.stderr
    assert "tasks waiting: 1" in fine.stdout


def test_a_database_out_of_reach_fails_the_check_with_its_own_status():
    env = {"DATABASE_URL": "postgres://belote@127.0.0.1:1/belote"}

    done = run_manage("belote_health", env=env)

    assert done.returncode == 2, done.stdout + done.stderr
    assert "the task queue cannot be read" in done.stderr
    assert "Traceback" not in done.stderr
