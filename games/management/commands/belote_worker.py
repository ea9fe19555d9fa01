"""``manage.py belote_worker``: django-tasks-db's ``db_worker``, which outlives a database
restart (games/worker.py). Same options as ``db_worker``."""

import logging
import os

from django.core.management.base import CommandError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from games.worker import Worker, logger


class Command(db_worker.Command):
    help = "Runs the background tasks; waits for the database when it goes away."

    def configure_logging(self, verbosity: int) -> None:
        super().configure_logging(verbosity)
        # The outages and reconnections are logged like the worker's own messages.
        logger.setLevel(logging.getLogger("django_tasks_db").level)
        if not logger.hasHandlers():
            logger.addHandler(logging.StreamHandler(self.stdout))

    def handle(self, *, verbosity, queue_name, exclude_queues, reload, batch, **options):
        self.configure_logging(verbosity)
        if reload and batch:
            reload = False  # --batch ends by itself: nothing to reload
        queue_names = queue_name.split(",")
        excluded = exclude_queues.split(",") if exclude_queues else []
        if excluded and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = Worker(
            queue_names=queue_names,
            excluded_queue_names=excluded,
            batch=batch,
            interval=options["interval"],
            backend_name=options["backend_name"],
            startup_delay=options["startup_delay"],
            max_tasks=options["max_tasks"],
            worker_id=options["worker_id"],
        )
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # in the reloader's child only
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
