"""``belote_worker`` runs a task again when it failed on a database error, a few times.

Every task of games/tasks.py checks the table's version, so a second run is harmless; a
task cut off by a lost connection or a lock would otherwise be lost (the sweep catches a
bot turn or a deadline, but not a reminder). Any database, in this process.
"""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.tasks import TaskResultStatus
from django.test import override_settings

from games.worker import MAX_ATTEMPTS
from tests.worker import tasks

pytestmark = [
    # The worker checks its connection between tasks, which would end the wrapping
    # transaction of an ordinary django_db test.
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("keep_signal_handlers"),
]


def run_worker() -> None:
    with override_settings(DEBUG=False):
        call_command("belote_worker", "--batch", "--no-startup-delay", verbosity=0)


def test_a_task_that_failed_on_a_database_error_runs_again():
    result = tasks.fails_on_the_database.enqueue(times=1)

    run_worker()

    result.refresh()
    assert result.status == TaskResultStatus.SUCCESSFUL
    assert result.return_value == 2
    assert result.attempts == 2


def test_a_task_that_keeps_failing_on_the_database_is_left_failed():
    result = tasks.fails_on_the_database.enqueue(times=MAX_ATTEMPTS)

    run_worker()

    result.refresh()
    assert result.status == TaskResultStatus.FAILED
    assert result.attempts == MAX_ATTEMPTS
    assert result.errors[0].exception_class_path == "django.db.utils.OperationalError"


def test_a_task_that_failed_otherwise_is_not_run_again():
    result = tasks.fails.enqueue()

    run_worker()

    result.refresh()
    assert result.status == TaskResultStatus.FAILED
    assert result.attempts == 1
