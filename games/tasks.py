"""Background work (Django tasks, django-tasks-db backend, run by ``manage.py belote_worker``).

Each concern defines the tasks of its own work next to it (``games.tables.service``: a
bot's move, a deadline's expiry; ``games.timing.absence``: the absence check;
``games.notifications``: the turn emails). This module holds the one that calls on every
concern: ``sweep_task`` re-enqueues itself every SWEEP_SECONDS: the worker has no cron,
``manage.py belote_sweep --schedule`` (scripts/run-dev) starts the cycle. Each sweep also
queues the day's digest once its hour has passed (games/notifications/).

Every task re-reads the table and checks its version, so running one twice or late is
harmless. A queued task is found by its path: the tasks queued under this module's name
before issue 14 moved them are still found here.
"""

from __future__ import annotations

import datetime

from django.conf import settings
from django.tasks import TaskResultStatus, task
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from games import notifications
from games.tables.service import expire_deadline_task, play_bot_move_task
from games.timing import sweep
from games.timing.absence import check_absent_task
from games.tournaments import service as tournaments

# The paths of tasks queued before issue 14 (games.tasks.<name>).
__all__ = ["check_absent_task", "expire_deadline_task", "play_bot_move_task", "sweep_task"]


@task()
def sweep_task() -> None:
    # The next sweep is queued before this one works, so that a worker killed mid-sweep
    # leaves it behind; ``finally`` queues it if that failed (a locked database). A step
    # that raises fails this task, never the cycle.
    try:
        schedule_sweep()
        sweep.sweep()
        tournaments.sweep_round_deadlines()
        notifications.schedule_digests()
    finally:
        schedule_sweep()


def schedule_sweep() -> bool:
    """Enqueue the next ``sweep_task`` in SWEEP_SECONDS unless one is already waiting.

    Only a waiting (READY) sweep counts. A running one queued its successor when it began,
    and a RUNNING row whose worker was killed is dead, however recent: counting it would
    stop the cycle for good.
    """
    waiting = DBTaskResult.objects.filter(
        task_path=sweep_task.module_path, status=TaskResultStatus.READY
    )
    if waiting.exists():
        return False
    delay = datetime.timedelta(seconds=settings.SWEEP_SECONDS)
    sweep_task.using(run_after=timezone.now() + delay).enqueue()
    return True
