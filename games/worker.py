"""The task worker that outlives the database, and the queue's health.

django-tasks-db's worker (``manage.py db_worker``) stops on the first database error its
loop meets: a PostgreSQL restart ("the database system is shutting down"), a connection
cut by the server or a failover ends the process, and bots, deadlines, reminders and the
sweep stop with it. ``Worker`` here is the same worker (``manage.py belote_worker``) that
takes such an error for an outage: it logs it, closes its connections, tries again with a
growing pause (``FIRST_PAUSE`` doubled up to ``LONGEST_PAUSE``) until the database
answers, and goes on. The task it was running when the connection went is put back in
the queue, and so is a task that failed on a database error (lost connection, lock), up
to ``MAX_ATTEMPTS`` runs: every task of games/tasks.py checks the table's version, so a
second run is harmless. Any other error still ends the process, for the service manager
to restart it (deploy/belote-worker@.service).

``queue_health`` is what ``manage.py belote_health`` reports for monitoring: how long the
oldest task ready to run has waited for a worker. The queue ``analysis`` (the hands'
analysis, games/tables/analysis.py) is never urgent and may hold a backlog: it is left
out (``UNHURRIED_QUEUES``).
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import time

from django.db import DatabaseError, InterfaceError, OperationalError, connections, router
from django.db.models import Q
from django.tasks import TaskResultStatus
from django.utils import timezone
from django_tasks_db.management.commands import db_worker
from django_tasks_db.models import DBTaskResult, get_date_max

logger = logging.getLogger(__name__)

FIRST_PAUSE = 0.5  # seconds before the first try to reconnect, doubled at each failure
LONGEST_PAUSE = 30.0
# Outages closer together than this count as one: the pause keeps growing, so that a
# database that accepts connections and drops them at once is not hammered.
CALM_SECONDS = 60.0
# Runs of a task that fails on a database error before it is left failed.
MAX_ATTEMPTS = 3
DATABASE_ERRORS = {
    f"{error.__module__}.{error.__qualname__}" for error in (OperationalError, InterfaceError)
}


def _database_alias() -> str:
    return router.db_for_write(DBTaskResult)


def connection_lost() -> bool:
    """Whether the worker's connection is gone (closed, or no longer answering)."""
    connection = connections[_database_alias()]
    return connection.connection is None or not connection.is_usable()


class Worker(db_worker.Worker):
    """django-tasks-db's worker, which waits for the database to come back instead of
    dying with it (module docstring)."""

    def __init__(self, **options) -> None:
        super().__init__(**options)
        self.claimed: DBTaskResult | None = None  # the task running, until its result is saved
        self.pause = FIRST_PAUSE
        self.outage_over_at = -CALM_SECONDS  # time.monotonic() at the end of the last outage

    def run(self) -> None:
        outage: DatabaseError | None = None
        while True:
            try:
                if outage is not None:
                    self.wait_for_database(outage)
                    self.settle_claimed(outage)
                    outage = None
                super().run()
                return  # --batch or --max-tasks done, or asked to stop
            except DatabaseError as error:
                if not self.running or not connection_lost():
                    raise  # stopping anyway, or an error of ours: not an outage
                outage = error
                self.startup_delay = False

    def run_task(self, db_task_result: DBTaskResult) -> None:
        self.claimed = db_task_result
        super().run_task(db_task_result)
        self.claimed = None  # its result is saved: nothing to settle after an outage
        if (
            db_task_result.status == TaskResultStatus.FAILED
            and db_task_result.exception_class_path in DATABASE_ERRORS
            and len(db_task_result.worker_ids) < MAX_ATTEMPTS
        ):
            self.requeue(db_task_result, TaskResultStatus.FAILED, "it failed on a database error")

    def wait_for_database(self, error: DatabaseError) -> None:
        """Close the dead connections, then try to connect again, pausing longer each
        time, until the database answers."""
        started = time.monotonic()
        if started - self.outage_over_at > CALM_SECONDS:
            self.pause = FIRST_PAUSE
        connection = connections[_database_alias()]
        while True:
            logger.warning(
                "Worker %s lost the database (%s); trying again in %.1f s.",
                self.worker_id,
                str(error).strip() or type(error).__name__,
                self.pause,
            )
            time.sleep(self.pause)
            self.pause = min(self.pause * 2, LONGEST_PAUSE)
            connections.close_all()
            try:
                connection.ensure_connection()
            except DatabaseError as again:
                error = again
                continue
            if connection.is_usable():
                break
        self.outage_over_at = time.monotonic()
        logger.warning(
            "Worker %s reconnected to the database after %.1f s.",
            self.worker_id,
            self.outage_over_at - started,
        )

    def settle_claimed(self, error: DatabaseError) -> None:
        """The task that was running when the connection went, left RUNNING: ready to
        run again, or failed with that error once it has had its MAX_ATTEMPTS runs."""
        task = self.claimed
        if task is None:
            return
        if len(task.worker_ids) < MAX_ATTEMPTS:
            self.requeue(task, TaskResultStatus.RUNNING, "its worker lost the database")
        else:
            task.set_failed(error)
            logger.warning("Task %s (%s) failed: %s.", task.pk, task.task_path, error)
        self.claimed = None  # settled (a new outage meanwhile settles it after that one)

    def requeue(self, task: DBTaskResult, status: TaskResultStatus, why: str) -> None:
        put_back = DBTaskResult.objects.filter(pk=task.pk, status=status).update(
            status=TaskResultStatus.READY, finished_at=None
        )
        if put_back:
            logger.warning("Task %s (%s) is queued again: %s.", task.pk, task.task_path, why)


# ---------------------------------------------------------------------------------------
# Health


@dataclasses.dataclass(frozen=True)
class QueueHealth:
    waiting: int  # tasks ready to run that no worker has started
    running: int
    oldest: DBTaskResult | None  # the waiting task ready the longest
    ready_since: datetime.datetime | None  # since when it may run
    lag: datetime.timedelta  # how long it has been ready (zero when none waits)


# Queues whose tasks may wait without anyone waiting for them: not counted in the lag.
UNHURRIED_QUEUES = ("analysis",)


def queue_health(now: datetime.datetime | None = None, *, unhurried: bool = False) -> QueueHealth:
    """The queue as a monitor sees it: a task is waiting from the moment it may run (its
    ``run_after``, or its enqueueing when it has none) until a worker starts it. The
    tasks of ``UNHURRIED_QUEUES`` are not counted; with ``unhurried``, only they are (their
    worker is watched with a threshold of its own)."""
    now = now or timezone.now()
    no_delay = get_date_max()
    mine = Q(queue_name__in=UNHURRIED_QUEUES)
    if not unhurried:
        mine = ~mine
    ready = DBTaskResult.objects.filter(mine, status=TaskResultStatus.READY).filter(
        Q(run_after=no_delay) | Q(run_after__lte=now)
    )
    candidates = [
        ready.filter(run_after__lte=now).order_by("run_after").first(),
        ready.filter(run_after=no_delay).order_by("enqueued_at").first(),
    ]
    oldest = min(filter(None, candidates), key=_ready_since, default=None)
    since = _ready_since(oldest) if oldest is not None else None
    lag = max(now - since, datetime.timedelta(0)) if since is not None else datetime.timedelta(0)
    return QueueHealth(
        waiting=ready.count(),
        running=DBTaskResult.objects.filter(mine, status=TaskResultStatus.RUNNING).count(),
        oldest=oldest,
        ready_since=since,
        lag=lag,
    )


def _ready_since(task: DBTaskResult) -> datetime.datetime:
    return task.enqueued_at if task.run_after == get_date_max() else task.run_after
