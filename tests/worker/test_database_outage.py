"""The task worker outlives a database restart (issue 13).

Issue: "The task worker dies when PostgreSQL restarts. db_worker exits on 'the database
system is shutting down' ... The worker must outlive a database restart: it reconnects
with backoff, logs it, and goes on." A real worker process (``manage.py belote_worker``)
on the test database; the server cuts its connection (``pg_terminate_backend``) in the
middle of a task, and for a restart also refuses new connections for a while
(``ALLOW_CONNECTIONS false``). Waits are bounded polls of what the worker writes (task
rows, its log). A connection cut while the worker is idle is survived by db_worker too
(Django's health check before the next poll); these two are not.
"""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Callable

import psycopg
import pytest
from django.db import connection
from django.tasks import TaskResultStatus
from psycopg import sql

from tests.processes import ROOT, process_env
from tests.worker import tasks

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

TIMEOUT = 30  # seconds: far more than any step takes


class WorkerProcess:
    """``manage.py belote_worker`` in another process, known to PostgreSQL by its
    application name, its log in a file."""

    def __init__(self, log_path) -> None:
        self.name = f"belote-worker-test-{uuid.uuid4().hex[:8]}"
        self.log_path = log_path
        with log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "manage.py",
                    "belote_worker",
                    "--interval=0.05",
                    "--no-startup-delay",
                    "--no-reload",
                ],
                cwd=ROOT,
                env={**process_env(), "PGAPPNAME": self.name},
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def alive(self) -> bool:
        return self.process.poll() is None

    def backends(self, where: str = "true") -> list[int]:
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT pid FROM pg_stat_activity WHERE application_name = %s AND {where}",
                [self.name],
            )
            return [pid for (pid,) in cursor.fetchall()]

    def cut(self, where: str = "true") -> None:
        """The server ends the worker's connection, as a restart or an admin would."""
        pids = self.backends(where)
        assert pids, "the worker has no connection to cut"
        with connection.cursor() as cursor:
            for pid in pids:
                cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        until(lambda: not self.backends(where), "the connection to go")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture
def worker(tmp_path):
    process = WorkerProcess(tmp_path / "worker.log")
    try:
        yield process
    finally:
        process.stop()
        print(process.log()[-5000:])  # shown when the test fails


def until(condition: Callable[[], object], what: str, worker: WorkerProcess | None = None):
    """Poll ``condition`` until it holds, for at most TIMEOUT seconds."""
    give_up = time.monotonic() + TIMEOUT
    while not condition():
        if worker is not None and not worker.alive():
            pytest.fail(f"the worker died waiting for {what}:\n{worker.log()}", pytrace=False)
        if time.monotonic() > give_up:
            pytest.fail(f"timed out waiting for {what}", pytrace=False)
        time.sleep(0.02)


def allow_connections(allowed: bool) -> None:
    """Let the test database take new connections or not (those open stay), as a server
    shutting down or starting up does. From another database: PostgreSQL does not let a
    session lock out its own."""
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"] or None,
        port=settings["PORT"] or None,
        user=settings["USER"] or None,
        password=settings["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(
            sql.SQL("ALTER DATABASE {} ALLOW_CONNECTIONS {}").format(
                sql.Identifier(settings["NAME"]), sql.Literal(allowed)
            )
        )


def finished(result) -> bool:
    result.refresh()
    return result.status in (TaskResultStatus.SUCCESSFUL, TaskResultStatus.FAILED)


def test_the_worker_waits_for_a_restarting_database_and_goes_on(worker):
    """A restart: the connection goes, and the server refuses new ones for a while. The
    worker tries again, pausing longer each time, says so, and works once it is back."""
    before = tasks.echo.enqueue("before")
    until(lambda: finished(before), "the first task", worker)
    allow_connections(False)
    try:
        worker.cut()
        after = tasks.echo.enqueue("after")
        until(lambda: worker.log().count("lost the database") >= 2, "two tries", worker)
        assert not finished(after)
    finally:
        allow_connections(True)

    until(lambda: finished(after), "the task queued during the outage", worker)
    assert after.status == TaskResultStatus.SUCCESSFUL
    log = worker.log()
    assert "trying again in 0.5 s" in log and "trying again in 1.0 s" in log  # backoff
    assert "reconnected to the database" in log
    assert worker.alive()


def test_a_task_cut_off_in_the_middle_runs_again_and_the_worker_goes_on(worker):
    cut_off = tasks.slow_first_time.enqueue()
    until(lambda: worker.backends("query LIKE '%%pg_sleep%%'"), "the task to be running", worker)

    worker.cut()
    after = tasks.echo.enqueue("after")

    until(lambda: finished(cut_off) and finished(after), "both tasks", worker)
    assert cut_off.status == TaskResultStatus.SUCCESSFUL
    assert cut_off.return_value == 2  # its second run
    assert after.status == TaskResultStatus.SUCCESSFUL
    assert "queued again" in worker.log()
    assert worker.alive()
