"""``manage.py belote_health``: the task queue's lag, for monitoring (games/worker.py)."""

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError
from django.utils import timezone
from django_tasks_db.management.commands import db_worker

from games.worker import queue_health


class Command(BaseCommand):
    help = (
        "Reports the task queue: tasks waiting, the oldest one and how long it has been "
        "ready to run. Exits 1 when that lag is over --max-lag seconds (or the hands' "
        "analysis queue's over --analysis-max-lag), 2 when the database cannot be read."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--max-lag",
            type=db_worker.valid_interval,
            default=60.0,
            help="seconds a ready task may wait for a worker (default: %(default)s)",
        )
        parser.add_argument(
            "--analysis-max-lag",
            type=db_worker.valid_interval,
            default=3600.0,
            help="seconds a hand's analysis may wait for its worker (default: %(default)s)",
        )

    def handle(self, *args, max_lag: float, analysis_max_lag: float, **options):
        try:
            health = queue_health()
            analysis = queue_health(unhurried=True)
        except DatabaseError as error:
            raise CommandError(f"the task queue cannot be read: {error}", returncode=2) from error
        lag = health.lag.total_seconds()
        self.stdout.write(f"tasks waiting: {health.waiting}")
        self.stdout.write(f"tasks running: {health.running}")
        self.stdout.write(f"queue lag: {lag:.1f} s")
        if health.oldest is not None:
            task = health.oldest
            since = timezone.localtime(health.ready_since)
            self.stdout.write(
                f"oldest waiting task: {task.task_path} {task.pk}, ready since "
                f"{since.isoformat(timespec='seconds')}"
            )
        analysis_lag = analysis.lag.total_seconds()
        self.stdout.write(f"hands' analysis: {analysis.waiting} waiting, lag {analysis_lag:.1f} s")
        if analysis_lag > analysis_max_lag:
            raise CommandError(
                f"the hands' analysis has waited {analysis_lag:.1f} s, over "
                f"{analysis_max_lag:g} s: is the analysis worker running?",
                returncode=1,
            )
        if lag > max_lag:
            raise CommandError(
                f"the queue lag is {lag:.1f} s, over {max_lag:g} s: is a worker running?",
                returncode=1,
            )
        self.stdout.write(self.style.SUCCESS("ok"))
