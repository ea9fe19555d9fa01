"""Background work (Django tasks, django-tasks-db backend, run by ``manage.py belote_worker``).

Every task re-reads the table and checks its version, so running one twice or late is
harmless. ``sweep_task`` re-enqueues itself every SWEEP_SECONDS: the worker has no cron,
``manage.py belote_sweep --schedule`` (scripts/run-dev) starts the cycle. Each sweep also
queues the day's digest once its hour has passed (games/notifications/).
"""

from __future__ import annotations

from django.tasks import task

from games import notifications
from games.tables import service
from games.timing import sweep as timing
from games.tournaments import service as tournaments


@task()
def play_bot_move_task(table_id: int, version: int) -> None:
    service.play_bot_move(table_id, version)


@task()
def expire_deadline_task(table_id: int, version: int) -> None:
    service.expire_deadline(table_id, version)


@task()
def check_absent_task(table_id: int, version: int) -> None:
    timing.replace_absent(table_id, version)


@task()
def sweep_task() -> None:
    # The next sweep is queued before this one works, so that a worker killed mid-sweep
    # leaves it behind; ``finally`` queues it if that failed (a locked database). A step
    # that raises fails this task, never the cycle.
    try:
        timing.schedule_sweep()
        timing.sweep()
        tournaments.sweep_round_deadlines()
        notifications.schedule_digests()
    finally:
        timing.schedule_sweep()
